"""The languages unjargon answers in: a registry built from locale files, so adding one needs no code change.

A language is `locale/<code>.json` (its messages, with "name", "direction" and, for languages not
written in Latin letters, "script": the Unicode ranges of its letters), glossary columns
(`<code>` objects and `<code>_aliases` on terms, or a `glossary/<code>.json` overlay of term id ->
columns) and `prompts/languages/<code>.j2`. The shipped ones live in data/ and prompts/; more come from
UNJARGON_LANGUAGES_DIR, a folder with the same three parts.
"""

import json
import re
from functools import cache
from pathlib import Path
from typing import NamedTuple

from calculators.resources import data_dir, prompts_dir
from service import settings_holder

DEFAULT = "en"  # the language of the glossary's main columns and of every fallback
_LATIN_LETTER = re.compile(r"[A-Za-z]")


# A NamedTuple, not a frozen dataclass: the same record, without a millisecond of class building at import.
class Language(NamedTuple):
    """One answer language: its code, name, writing direction, letters, and where its files are."""

    code: str
    name: str
    direction: str  # ltr | rtl
    letters: re.Pattern | None  # its script's letters; None for Latin-script languages
    locale_path: Path
    prompt_path: Path | None
    glossary_overlay: Path | None


def _extra_dir() -> Path | None:
    settings = settings_holder.current()  # filled by service.config, which imports this module to check a language
    return settings.languages_dir if settings is not None else None


@cache
def read_locale(path: Path) -> dict:
    """A locale file's messages, parsed once: the registry reads its name and script, messages.py the rest."""
    return json.loads(path.read_text(encoding="utf-8"))


def _scan(folder: Path, prompts: Path) -> dict[str, Language]:
    found = {}
    for path in sorted((folder / "locale").glob("*.json")):
        messages = read_locale(path)
        code = path.stem
        ranges = messages.get("script") or []
        letters = re.compile("[" + "".join(f"{a}-{b}" for a, b in ranges) + "]") if ranges else None
        prompt = prompts / "languages" / f"{code}.j2"
        overlay = folder / "glossary" / f"{code}.json"
        found[code] = Language(code, messages.get("name", code), messages.get("direction", "ltr"), letters, path,
                               prompt if prompt.is_file() else None, overlay if overlay.is_file() else None)
    return found


@cache
def _registry(extra: Path | None) -> dict[str, Language]:
    languages = _scan(data_dir(), prompts_dir())
    if extra is not None:
        languages.update(_scan(extra, extra / "prompts"))
    return languages


_FROM_SETTINGS = Path("<settings>")  # "the extra folder the settings name"; None means no extra folder


def registry(extra: Path | None = _FROM_SETTINGS) -> dict[str, Language]:
    """Every language, shipped and extra (from `extra`, by default the settings' UNJARGON_LANGUAGES_DIR), by code."""
    return _registry(_extra_dir() if extra is _FROM_SETTINGS else extra)


def codes(extra: Path | None = _FROM_SETTINGS) -> list[str]:
    return list(registry(extra))


def get(code: str | None) -> Language:
    """The language `code`, or the default one for None or an unknown code."""
    languages = registry()
    return languages.get(code or DEFAULT) or languages[DEFAULT]


def detect(text: str) -> str:
    """The language whose letters dominate the prose (at least 30% of letters), else the default.

    Acronyms and names are Latin in every language, so a text in another script still counts Latin letters.
    """
    if text.isascii():
        return DEFAULT
    latin = len(_LATIN_LETTER.findall(text))
    best, best_share = DEFAULT, 0.0
    for language in registry().values():
        if language.letters is None:
            continue
        own = len(language.letters.findall(text))
        share = own / (own + latin) if own + latin else 0.0
        if share >= 0.3 and share > best_share:
            best, best_share = language.code, share
    return best
