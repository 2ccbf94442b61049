"""Arabic text normalisation for matching: diacritics, letter variants, attached particles."""

import re
from functools import lru_cache

ARABIC_LETTER = re.compile(r"[\u0621-\u064A\u0671-\u06D3]")
LATIN_LETTER = re.compile(r"[A-Za-z]")
_DIACRITICS = dict.fromkeys(list(range(0x064B, 0x0653)) + [0x0670, 0x0640])  # harakat, dagger alef, tatweel
_LETTERS = str.maketrans({"أ": "ا", "إ": "ا", "آ": "ا", "ٱ": "ا", "ى": "ي", "ة": "ه"})
_ARTICLE_PREFIXES = ("وال", "فال", "بال", "كال", "لل", "ال")


@lru_cache(maxsize=65536)  # the same words recur across a text and across texts
def normalise_token(token: str) -> str:
    """One Arabic word without diacritics, with one spelling of alef, ya and ta marbuta, and no article."""
    token = token.translate(_DIACRITICS).translate(_LETTERS)
    for prefix in _ARTICLE_PREFIXES:
        # Only strip when a real stem remains, so short words are not mangled.
        if token.startswith(prefix) and len(token) - len(prefix) >= 2:
            return token[len(prefix):]
    return token


def without_particle(token: str) -> str | None:
    """The word without one attached conjunction or preposition (و ف ب ل ك), if that leaves a stem."""
    if len(token) > 3 and token[0] in "وفبلك":
        return token[1:]
    return None


def share_of_arabic(text: str) -> float:
    """Fraction of the letters in `text` that are Arabic."""
    if text.isascii():  # most texts, and a scan in C
        return 0.0
    arabic = len(ARABIC_LETTER.findall(text))
    latin = len(LATIN_LETTER.findall(text))  # ASCII letters; a regex, as a loop over characters is 10x slower
    return arabic / (arabic + latin) if arabic + latin else 0.0


def detect_language(text: str) -> str:
    """'ar' when Arabic letters dominate the prose, else 'en' (acronyms are Latin in both)."""
    return "ar" if share_of_arabic(text) >= 0.3 else "en"
