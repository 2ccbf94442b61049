"""Short plain forms of central acronyms for the gist (data/gist_plain.json): "MFU" is first said as what it means."""

import json
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
