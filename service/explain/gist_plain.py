"""Short plain forms of central acronyms for the gist (data/gist_plain.json): "MFU" is first said as what it means."""

import json
import re
from functools import cache

from calculators.resources import data_dir


@cache
def forms(lang: str) -> dict[str, str]:
    """Glossary id -> the plain phrase in `lang` ("share of the chips' peak speed actually used" for MFU)."""
    terms = json.loads((data_dir() / "gist_plain.json").read_text(encoding="utf-8"))["terms"]
    key = "ar" if lang == "ar" else "en"
    return {term_id: entry[key] for term_id, entry in terms.items() if entry.get(key)}


@cache
def said() -> frozenset[str]:
    """Every plain form in every language: a bracket holding one is a term's meaning, not an aside to drop."""
    return frozenset(form for lang in ("en", "ar") for form in forms(lang).values())


@cache
def _phrases() -> tuple[tuple[re.Pattern, str], ...]:
    table = json.loads((data_dir() / "gist_plain.json").read_text(encoding="utf-8")).get("phrases", [])
    return tuple((re.compile(entry["en"], re.I), entry["plain"]) for entry in table)


# "the two variables below enables ...", "the below diagram": the answer shows nothing below its gist; "above 100%",
# "below 380 GB/s", "the one above it" compare or place, and stay
_DEICTIC = (re.compile(r"(\b(?:the|these|those)\s+(?:[\w-]+\s+){0,3}?[\w-]+)\s+(?:(?:shown|listed|given|described)\s+)?(?:below|above)"
                       r"(?=\s*(?:[.,;:!?)\u2014\u2013]|$)|\s+(?:is|are|was|were|shows?|gives?|enables?|lists?|can|will|has|have|and|to)\b)"
                       r"|(\bthe)\s+(?:below|above)(?=\s+[a-z]+\b(?<!\bit)(?<!\bthem))", re.I),
            re.compile(r"([\u0621-\u064A]{2,})\s+(?:(?:المذكور|الموضح|المبين)[\u0621-\u064A]*\s+)?(?:أدناه|أعلاه)"))
_PROTECTED = re.compile(r"`[^`]*`|\"[^\"]*\"|“[^”]*”|'[^'\s][^']*'")  # code and quoted words: the text's own, kept


def _inside_a_word(text: str, start: int, end: int) -> bool:
    """Whether a phrase is part of a compound ("DP-comms bound"): replacing it would paste words inside another."""
    return (start > 0 and text[start - 1] in "-/_") or (end < len(text) and text[end] in "-/_")


def phrased(text: str, lang: str) -> str:
    """An English gist sentence with the field's verb phrases in plain words ("is sharded" -> "is split across the
    GPUs"); code and quoted words are left as written; Arabic is returned as it is."""
    text = _DEICTIC[lang == "ar"].sub(lambda found: found.group(1) or found.group(2), text)
    if lang == "ar":
        return text
    kept = [(m.start(), m.end()) for m in _PROTECTED.finditer(text)]
    for pattern, plain in _phrases():
        text = pattern.sub(lambda found: found.group(0) if any(a <= found.start() < b for a, b in kept)
                           or _inside_a_word(found.string, found.start(), found.end()) else found.expand(plain), text)
        kept = [(m.start(), m.end()) for m in _PROTECTED.finditer(text)]
    return text
