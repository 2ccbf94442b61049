"""Whether a comparison across languages names only its yardstick ("compared with NVIDIA ... NVL72"): such a sentence is
said as a topic, never as "the author compares X and Y". A comparison itself ("FP8 is faster than bf16") is not
restated across languages: its condition or hedge ("on one GPU", "can be") was lost each time, and blind readers of
rounds 8 and 9 judged two of five such gists wrong."""

import re

from service.explain import gist_names
from service.explain.document import Document


def one_side(doc: Document, start: int, end: int, cue: dict, everyday: set[str]) -> bool:
    """Whether a comparison names only what something is set against: nothing the glossary knows stands before its
    first "compared with" / "than" / "تتفوق على" ("Huawei's chips, compared with NVIDIA ... outperform NVL72" names
    NVIDIA and NVL72, both the yardstick; "compares NVIDIA and NVL72" would be wrong)."""
    found = [m.start() for name in ("against", "reference") for m in [cue[name].search(doc.text, start, end)] if m]
    if not found:
        return False
    first = min(found)
    return not any(start <= o.start < first and o.entry["id"] not in everyday for o in doc.occurrences) \
        and not _LATIN_NAME.search(doc.text, start, first)


_LATIN_NAME = re.compile(r"[A-Z][\w.-]*\d[\w.-]*|\b[A-Z]{2,}[\w-]*")  # "GB200", "TPUv4", "CloudMatrix"-like names with digits or capitals


SIDE_REACH = 40  # "X is faster than Y": Y follows the comparative within a few words


def sides(doc: Document, start: int, end: int, cue: dict, subjects: list[str]) -> bool:
    """Whether one subject stands before the comparative and another right after it ("X ... faster than Y"): a name
    further on ("... compared to state-of-the-art solutions, ... in extreme-scale LLM training") is not a side."""
    found = cue["compare"].search(doc.text, start, end)
    if found is None:
        return True
    terms = {t["id"]: t for t in doc.terms}
    named = [(o.start, gist_names.name_of(o, terms.get(o.entry["id"]), doc.lang)) for o in doc.occurrences if start <= o.start < end
             and not gist_names.inside_name(doc.text, o.start, o.end, start)]
    before = {n for at, n in named if found.start() - SIDE_REACH * 1.5 <= at < found.start() and n in subjects}  # "X is ~4x slower"
    after = {n for at, n in named if found.end() <= at <= found.end() + SIDE_REACH and n in subjects}
    return bool(before) and bool(after - before)
