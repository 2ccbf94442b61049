"""Output wording per language, from the locale files (translators correct the data, not the code)."""

from functools import cache

from service.i18n import languages

_load = languages.read_locale


def messages(lang: str | None) -> dict:
    """All messages of `lang`; a key the language lacks falls back to the default language's."""
    language = languages.get(lang)
    own = _load(language.locale_path)
    if language.code == languages.DEFAULT:
        return own
    return _merged(language.code, language.locale_path)


@cache
def _merged(code: str, path) -> dict:
    return _deep_merge(_load(languages.get(languages.DEFAULT).locale_path), _load(path))


def _deep_merge(base: dict, own: dict) -> dict:
    merged = dict(base)
    for key, value in own.items():
        merged[key] = _deep_merge(base[key], value) if isinstance(value, dict) and isinstance(base.get(key), dict) else value
    return merged


def join_names(names: list[str], lang: str | None) -> str:
    """'a, b and c' in the language's own way (its "list" messages: separator and the word before the last)."""
    names = [n for n in names if n]
    if len(names) <= 1:
        return "".join(names)
    words = messages(lang)["list"]
    return words["separator"].join(names[:-1]) + words["last"] + names[-1]
