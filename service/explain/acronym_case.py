"""Short acronyms written in lower or mixed case ("tp 2", "fsdp, dp and sp", "--cp 4"): terms where the context marks them.

An exact-case match keeps "it" or "pp." ordinary words; engineers still write "tp=2" in chat, logs and configs. Each glossary
entry's `lowercase` field says which entries may match so ("always": no English word is spelled so; "marked": only after
a degree, in a list of such acronyms, or as a config key), and data/acronym_contexts.json holds the context words.
"""

import json
import re
from functools import cache

from calculators.resources import data_dir

from service.explain import pattern_cache

_LETTERS = pattern_cache.lazy(r"[A-Za-z]{2,5}")
_ATTACHED = pattern_cache.lazy(r"(?:[A-Za-z]{2,4}?\d+)+")  # "pp8", "tp2pp4", "fsdp8": degrees written into the word
_ATTACHED_PART = pattern_cache.lazy(r"([A-Za-z]{2,4}?)(\d+)")
# A value right after the acronym: "tp 2", "tp=2", "tp: 8", "--tp 4"; never "pp. 12" (no dot), "pp 12-15" (a range),
# "tp 2.5" or "tp 2k" (not a degree).
_VALUE = pattern_cache.lazy(r"(?P<sep>[ \t]*[=:][ \t]*|[ \t]+)(?P<num>\d+)(?![\d.,]*\d)(?![A-Za-z])(?!\s*[-\u2013]\s*\d)")
_NUMBER = pattern_cache.lazy(r"\d+(?:\.\d+)?%?")
_KEY_BEFORE = pattern_cache.lazy(r"(?:^|[{,])[ \t]*(?:-[ \t]+)?[\"']?$")  # a YAML or JSON key starts its line or item


# Categories of a term that make a bare "tp 2" beside it a parallel degree (an "Ep 4" alone may be an episode).
FIELD = frozenset({"parallelism", "hardware", "training", "moe", "collective", "interconnect", "framework", "metric",
                   "memory", "optimizer", "precision"})


@cache
def contexts() -> dict:
    """data/acronym_contexts.json, loaded once."""
    return json.loads((data_dir() / "acronym_contexts.json").read_text(encoding="utf-8"))


def table(entries: list[dict]) -> dict[str, tuple[dict, str]]:
    """Lower-case spelling -> (entry, "always" | "marked") for the short all-letter acronyms of entries with `lowercase`."""
    out: dict[str, tuple[dict, str]] = {}
    for entry in entries:
        mode = entry.get("lowercase")
        if mode not in ("always", "marked"):
            continue
        for name in (entry["term"], *entry.get("aliases", [])):
            if _LETTERS.fullmatch(name) and name.isupper():
                out.setdefault(name.lower(), (entry, mode))
    return out


def degree(value: str, sep: str) -> bool:
    """A parallel degree: a power of two, or any whole number set with '=' or ':' ("tp=6")."""
    number = int(value)
    if not 0 < number <= contexts()["max_degree"]:
        return False
    return number & (number - 1) == 0 or bool(sep.strip())


def followed_by_degree(text: str, end: int) -> bool:
    """Whether a degree follows offset `end` ("CP=2", "tp 4"): a checkpoint or a true positive takes no degree."""
    found = _VALUE.match(text, end)
    return bool(found) and degree(found.group("num"), found.group("sep"))


def find(text: str, tokens: list, known: dict, taken: list[tuple[int, int]], evidence: bool) -> list[tuple[dict, int, int]]:
    """(entry, start, end) of each lower- or mixed-case acronym the context marks, outside the `taken` spans. `tokens` are
    the glossary's (word, start, end); `evidence` says the text already names a term of the field, which a bare
    "tp 2" needs (an "Ep 4" alone may be an episode)."""
    if not known:
        return []
    candidates = [k for k, (tok, _, _) in enumerate(tokens) if _spelled(tok, known)]
    if not candidates:
        return []
    evidence = evidence or len(candidates) >= 2
    found = []
    for k in candidates:
        tok, start, end = tokens[k]
        if any(a < end and start < b for a, b in taken):
            continue
        if tok.lower() in known:
            entry, mode = known[tok.lower()]
            if mode == "always" or _marked(text, tokens, k, known, evidence):
                found.append((entry, start, end))
        elif evidence:  # degrees written into the word: "pp8", "tp2pp4"
            for part in _ATTACHED_PART.finditer(tok):
                if degree(part.group(2), ""):
                    found.append((known[part.group(1).lower()][0], start + part.start(1), start + part.end(1)))
    return found


def _spelled(tok: str, known: dict) -> bool:
    """A token written not all in capitals (those match exactly) that is a known acronym or acronyms with degrees."""
    if tok.isupper() or not tok.isascii():
        return False
    if tok.lower() in known:
        return True
    return bool(_ATTACHED.fullmatch(tok)) and all(p.group(1).lower() in known for p in _ATTACHED_PART.finditer(tok))


def _acronym(tok: str, known: dict) -> bool:
    """Any spelling of a known acronym, with or without its degree ("FSDP", "tp", "pp8")."""
    return tok.lower() in known or (bool(_ATTACHED.fullmatch(tok))
                                    and all(p.group(1).lower() in known for p in _ATTACHED_PART.finditer(tok)))


def _marked(text: str, tokens: list, k: int, known: dict, evidence: bool) -> bool:
    """A degree or value after it, a config key or flag, an identifier's part, or an item in a list of such acronyms."""
    tok, start, end = tokens[k]
    data = contexts()
    value = _VALUE.match(text, end)
    if value and degree(value.group("num"), value.group("sep")) and (evidence or value.group("sep").strip()):
        counted = re.match(r"\s+([A-Za-z]+)", text[value.end():value.end() + 20])  # "cp 2 files" counts files
        if not (counted and counted.group(1).lower() in data["not_counting"]):
            return True
    if text[max(0, start - 2):start] == "--" and (start < 3 or not text[start - 3].isalnum()):
        return True  # a command-line flag: "--tp 4", "--sp"
    line_start = text.rfind("\n", 0, start) + 1
    after = re.match(r"[\"']?[ \t]*[:=][ \t]*[\"']?([\w.%]+)", text[end:end + 40])
    if after and _KEY_BEFORE.search(text[line_start:start]) \
            and (_NUMBER.fullmatch(after.group(1)) or after.group(1).lower() in data["key_values"]):
        return True  # "sp: true", "  cp: 2"; never "cp: cannot stat"
    words = set(data["identifier_words"])
    if (text[end:end + 1] == "_" and k + 1 < len(tokens) and tokens[k + 1][0].lower() in words) or \
            (text[start - 1:start] == "_" and k and tokens[k - 1][0].lower() in words):
        return True  # "tp_rank", "enable_sp"
    if evidence and ((text[end:end + 1] == " " and k + 1 < len(tokens) and tokens[k + 1][0].lower() in words)
                     or (text[start - 1:start] == " " and k and tokens[k - 1][0] in words)):
        return True  # "the sp axis", "tp size", "محور sp" beside other terms of the field
    return _listed(tokens, k, known, set(data["connectors"]))


def _listed(tokens: list, k: int, known: dict, connectors: set) -> bool:
    """Next to another acronym of the field across a connector ("fsdp, dp, tp and sp", "dp/tp", "tp 2 and sp")."""
    j = k - 1
    if j >= 0 and tokens[j][0].lower() in connectors:
        while j >= 0 and tokens[j][0].lower() in connectors:
            j -= 1
        while j >= 1 and (tokens[j][0].isdigit() or tokens[j][0] in "=:"):  # the neighbour's own degree: "tp 2 and sp"
            j -= 1
        if j >= 0 and _acronym(tokens[j][0], known):
            return True
    j = k + 1
    while j < len(tokens) and (tokens[j][0].isdigit() or tokens[j][0] in "=:"):
        j += 1
    if j < len(tokens) and tokens[j][0].lower() in connectors:
        while j < len(tokens) and tokens[j][0].lower() in connectors:
            j += 1
        return j < len(tokens) and _acronym(tokens[j][0], known)
    return False
