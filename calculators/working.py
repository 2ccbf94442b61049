"""Calculator working as structured steps (a message key and its values), rendered in any language from data/locale.

A calculator returns `step("roofline.compute_time", flops=(1.2e15, "flops"), ...)`; `render(steps, lang)` fills
the template `steps[key]` of data/locale/<lang>.json. Numbers are written by formatting.human in every
language (Latin digits, the same units), so only the words change between languages.

The JSON form of a step, as it appears in a result's "working" (`plain` converts numpy values):
    {"key": "roofline.compute_time", "values": {"flops": [1.2e15, "flops"], ...}}
with each value one of: a number [value, unit] (unit kinds as in formatting.human), or bare for a plain
number; a sweep {"sweep": n, "unit"} (an array of n configurations, written "[n values]"); a word
{"word": key} (a key of the same "steps" section, translated); a nested step (an optional phrase);
or a plain string (names, operations and formulas, written as they are).
"""

import json
from collections.abc import Iterable, Mapping
from functools import cache
from string import Formatter

import numpy as np

from .formatting import human
from .resources import data_dir

DEFAULT_LANGUAGE = "en"
TEXT_KEY = "text"  # a step given as a finished English string, by a calculator not yet converted


def word(key: str) -> dict:
    """A translatable word or phrase as a step value: the key of a template without placeholders."""
    return {"word": key}


def step(key: str, **values) -> dict:
    """One structured step: `key` names its template; numbers are (value, unit) pairs, or bare for plain numbers."""
    return {"key": key, "values": values}  # nothing converted here: a scalar call renders it once and moves on


def plain(steps: list[dict]) -> list[dict]:
    """Steps fit for JSON when they hold numpy values: a sweep's array becomes its size (its values are in the outputs)."""
    return [_plain_step(item) for item in steps]


def _plain_step(item: dict) -> dict:
    values = {}
    for name, value in item["values"].items():
        kind = type(value)
        if kind is str or (kind is dict and "key" not in value):  # names and words
            values[name] = value
        elif kind is dict:
            values[name] = _plain_step(value)
        elif kind is tuple or kind is list:
            values[name] = _number(value[0], value[1])
        else:
            values[name] = _number(value, "")
    return {"key": item["key"], "values": values}


def _number(value, unit: str):
    """A number's JSON form, [value, unit], or {"sweep": size, "unit": unit} for an array of configurations."""
    if isinstance(value, np.ndarray):
        if value.size != 1:
            return {"sweep": int(value.size), "unit": unit}
        value = value.reshape(-1)[0]
    if isinstance(value, np.generic):
        value = value.item()
    return (value, unit)


def text_step(text: str) -> dict:
    """A finished English sentence as a step, so a result's working has one shape throughout."""
    return {"key": TEXT_KEY, "values": {"text": text}}


@cache
def templates(lang: str) -> dict[str, str]:
    """The "steps" templates of locale/<lang>.json as they are (an absent file or section gives {})."""
    path = data_dir() / "locale" / f"{lang}.json"
    if not path.is_file():
        return {}
    return json.loads(path.read_text(encoding="utf-8")).get("steps", {})


@cache
def _parsed(template: str) -> tuple:
    """A template as a printf-style format and its placeholder names, parsed once: "%" fills faster than format()."""
    literal_parts, fields = [], []
    for literal, field, _, _ in Formatter().parse(template):
        literal_parts.append(literal.replace("%", "%%"))
        if field is not None:
            literal_parts.append("%s")
            fields.append(field)
    return "".join(literal_parts), tuple(fields)


@cache
def _compiled(lang: str) -> dict:
    return _compile(templates(lang))


def _compile(own: Mapping) -> dict:
    """`own` templates over English ones, parsed: a language that lacks a key says it in English (a test catches the gap)."""
    return {key: _parsed(template) for key, template in {**templates(DEFAULT_LANGUAGE), **own}.items()}


def render(steps: Iterable[dict], lang: str | Mapping = DEFAULT_LANGUAGE) -> list[str]:
    """Each step as a sentence in `lang`: a language code, or a locale's messages (a dict with a "steps" section)."""
    table = _compiled(lang) if isinstance(lang, str) else _compile(lang.get("steps", {}))
    try:
        return [_render_one(item, table) for item in steps]
    except KeyError as exc:
        raise KeyError(f"calculator step template or value {exc.args[0]!r} missing (data/locale/{DEFAULT_LANGUAGE}.json \"steps\")") from None


def _render_one(item, table: dict) -> str:
    if type(item) is str:
        return item
    key, values = item["key"], item["values"]
    if key == TEXT_KEY:  # already words, in English: no template to translate it with
        return values["text"]
    template, fields = table[key]
    texts = []
    for field in fields:  # every scalar call renders once, so this loop is kept to the few cases that occur
        value = values[field]
        if type(value) is tuple:  # a number, (value, unit): the most common value, tested first
            texts.append(human(value[0], value[1]))
        elif type(value) is str:
            texts.append(value)
        elif type(value) is list:  # a number after a trip through JSON
            texts.append(human(value[0], value[1]))
        elif type(value) is dict:
            texts.append(_dict_text(value, table))
        else:  # a bare plain number
            texts.append(human(value))
    return template % tuple(texts)


def _dict_text(value: dict, table: dict) -> str:
    if "word" in value:
        return table[value["word"]][0] % ()
    if "sweep" in value:
        return table["word.sweep_values"][0] % (value["sweep"],)
    return _render_one(value, table)


def keys_of(steps: Iterable[dict]) -> set[str]:
    """Every template key a list of steps uses, nested phrases and words included."""
    found = set()
    for item in steps:
        if isinstance(item, str):
            continue
        if item["key"] == TEXT_KEY:
            continue
        found.add(item["key"])
        for value in item["values"].values():
            if type(value) is dict:
                if "word" in value:
                    found.add(value["word"])
                elif "sweep" in value:
                    found.add("word.sweep_values")
                elif "key" in value:
                    found |= keys_of([value])
    return found
