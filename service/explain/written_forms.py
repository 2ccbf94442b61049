"""The written variants of a glossary name that still name it: plurals ("TPUs"), an index written after an acronym
("GPUi <-> NICi", one per GPU), an acronym whose first letter is lower case ("vRAM"), and a hyphenated name written
closed ("multiquery" for "multi-query") or as a participle ("prefix-cached" for "prefix caching")."""

import re

# An acronym of two or more capitals with a one-letter index after it, as a formula writes per-item names ("NICi",
# "GPUj"): the acronym, one of many. Only i, j, k: "PCIe" or "MoE" are names of their own.
_INDEXED = re.compile(r"[A-Z]{2,}[ijk]")
# An acronym with its first letter lower case ("vRAM"): the same acronym; a one-capital word ("iOS", "eBay") is not.
_LOWER_FIRST = re.compile(r"[a-z][A-Z]{3,}")
CLOSED_MIN = 8  # letters a closed compound must have: "multiquery", "allreduce"; "co-op" -> "coop" is another word


def stems(token: str) -> tuple[str, ...]:
    """The forms a token may stand for besides itself: its singulars ('TPUs' -> 'TPU'; 'reduces' -> 'reduce',
    'reduc'), an indexed acronym's acronym ('NICi' -> 'NIC'), an acronym written with a lower first letter ('vRAM')."""
    # a capital S after a two-letter acronym is its own letter ("ACS" is Access Control Services, not two ACs)
    if len(token) > 2 and (token[-1] == "s" or token[-1] == "S" and len(token) > 3) and token[-2] not in "sS":
        return (token[:-1], token[:-2]) if token[-2] in "eE" else (token[:-1],)
    if _INDEXED.fullmatch(token):
        return (token[:-1],)
    if _LOWER_FIRST.fullmatch(token):
        return (token.upper(),)
    return ()


def index_letter(written: str) -> int:
    """How many characters at the end of a name as written are an index after its acronym ('NICi': 1), else 0."""
    last = written.split()[-1] if written.split() else ""
    return 1 if _INDEXED.fullmatch(last) else 0


def closed_forms(alias: str) -> list[str]:
    """A hyphenated name written closed: "multi-query attention" -> "multiquery attention" (each hyphenated word of
    letters joined whole, when the joined word is long enough not to be another everyday word)."""
    words = alias.split()
    joined = ["".join(w.split("-")) if "-" in w and all(p.isalpha() for p in w.split("-")) else w for w in words]
    if joined == words or not all(len(j) >= CLOSED_MIN for j, w in zip(joined, words) if j != w):
        return []
    return [" ".join(joined)]


PARTICIPLE_MIN = 7  # letters of the "-ing" word: "caching", "sharding"; "doing" or "using" are no term's head


def participle_forms(alias: str) -> list[str]:
    """A two-word name ending on a gerund said as a participle: "prefix caching" -> "prefix cached", "prefix-cached"
    (requests "not prefix-cached"); "-ing" becomes "-ed", which keeps a dropped "e" ("caching" -> "cached")."""
    words = alias.split()
    if len(words) != 2 or not all(w.isascii() and w.isalpha() for w in words) or not words[1].islower() \
            or not words[1].endswith("ing") or len(words[1]) < PARTICIPLE_MIN:
        return []
    done = words[1][:-3] + "ed"
    return [f"{words[0]} {done}", f"{words[0]}-{done}"]


# a model's name with a size, a version or a hyphen joined to it: "LLAMA-7B", "FALCON 40B" are the model, shouted
_SIZED_AFTER = re.compile(r"[-_ ]?(?:\d|[vV]\d)|-")


def shouted_other_name(entry: dict, text: str, start: int, end: int) -> bool:
    """Whether a model family's name written in capitals, and not so in the glossary ("FALCON" for "Falcon"), with no
    size or version after it, names something else: "a novel system on the foundation of FALCON for real-time straggler
    detection" is a monitoring system of that name, not TII's language models."""
    written = text[start:end]
    if entry.get("category") != "model" or len(written) < 4 or not written.isalpha() or not written.isupper():
        return False
    if any(name.isupper() for name in (entry.get("term", ""), *entry.get("aliases", ()))):
        return False  # a name the glossary itself writes in capitals ("BLOOM") is the model so written
    return not _SIZED_AFTER.match(text, end)
