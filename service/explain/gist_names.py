"""Names in a cross-language gist: one thing named once, whatever its spelling ("H100s", "NVIDIA H100", "ZB_V")."""

import re


def said_once(subjects: list[str], setup: list[tuple[str, str]]) -> tuple[list[str], list[tuple[str, str]]]:
    """Each thing named once: a subject a figure names more precisely ("H100s" beside "512 H100 GPUs") goes, and so
    does a set-up figure that repeats a subject's name ("ZeRO stage 3" beside "ZeRO-3")."""
    kept = [s for s in subjects if not (tokens(s) and any(tokens(s) <= tokens(bare) for bare, _ in setup))]
    named = set().union(*(tokens(s) for s in kept)) if kept else set()
    return kept, [(bare, tied) for bare, tied in setup if _CHIP_COUNT.search(bare) or not (tokens(bare) & named)]


def tokens(text: str) -> set[str]:
    """The Latin names in a phrase, lower case, without a plural s ("H100s" -> "h100")."""
    return {re.sub(r"(?<=\w)s$", "", t.lower()) for t in LATIN_NAME.findall(text)}


LATIN_NAME = re.compile(r"[A-Za-z][\w.-]*[A-Za-z0-9]")
_CHIP_COUNT = re.compile(r"\d\s*(?:شريحة|شرائح|شريحتين|GPUs?|chips?|TPUs?)|(?:شريحة|شريحتين) ")


def bare(text: str) -> str:
    """Lower case without hyphens, underscores and spaces: "ZB_V" and "ZB-V" are one name."""
    return re.sub(r"[-_\s]", "", text.lower())


def same_name(a: str, b: str) -> bool:
    """Two names of one thing: one inside the other ("H100", "NVIDIA H100"), or the same acronym ("... (FSDP)")."""
    if set(_ACRONYM.findall(a)) & set(_ACRONYM.findall(b)):
        return True
    a, b = a.lower(), b.lower()
    return a in b or b in a


_ACRONYM = re.compile(r"\b[A-Z][A-Z0-9]{2,}\b")
