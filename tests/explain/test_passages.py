"""Real passages from public distributed-training documents: the glossary finds their terms, the offline explainer
defines them and states no number it cannot ground. Passages and their sources live in tests/data/passages.json."""

import json
import re
from pathlib import Path

import pytest

from service.i18n import arabic
from service.explain import glossary
from service.explain.number_check import ungrounded_numbers
from service.explain.compose import explain_offline

ROOT = Path(__file__).resolve().parents[2]
GLOSSARY_DIR = ROOT / "data" / "glossary"
PASSAGES = json.loads((Path(__file__).resolve().parents[1] / "data" / "passages.json").read_text(encoding="utf-8"))["passages"]
_WORD = re.compile(r"[^\W_]+")
_PARENTHESISED = re.compile(r"\([^)]*\)")


def _need_glossary():
    if not any(GLOSSARY_DIR.glob("*.json")):
        pytest.skip("data/glossary has no files yet (the glossary is still being written)")


def _key(name: str) -> str:
    """A name compared without case, spaces, hyphens or punctuation ('all-reduce' == 'AllReduce'), Arabic normalised."""
    words = []
    for word in _WORD.findall(name):
        words.append(arabic.normalise_token(word) if arabic.ARABIC_LETTER.match(word) else word.lower())
    return "".join(words)


def _names(entry: dict) -> set[str]:
    """Every way the glossary names an entry: term, expansion, aliases, Arabic term and aliases."""
    ar = entry.get("ar") or {}
    raw = [entry.get("term"), entry.get("expansion"), *entry.get("aliases", []), *entry.get("ar_aliases", []), ar.get("term")]
    raw += [reading.get("expansion") for reading in entry.get("readings") or []]
    names = set()
    for name in filter(None, raw):
        names.add(_key(name))
        names.add(_key(_PARENTHESISED.sub(" ", name)))  # "ZeRO stage 1 (optimizer-state sharding)" -> "ZeRO stage 1"
    names.discard("")
    return names


def _detected(text: str) -> list[glossary.Match]:
    return glossary.detect(text)


def _describe(matches: list[glossary.Match]) -> str:
    return "; ".join(f"{m.found_as!r}->{m.entry['id']}" for m in matches) or "nothing"


@pytest.fixture(params=PASSAGES, ids=[p["id"] for p in PASSAGES])
def passage(request) -> dict:
    return request.param


def test_passages_file_is_well_formed():
    ids = [p["id"] for p in PASSAGES]
    assert len(ids) == len(set(ids)), "passage ids must be unique"
    for item in PASSAGES:
        assert {"title", "url", "where"} <= set(item["source"]), item["id"]
        assert item["text"].strip() and item["must_find"], item["id"]
        assert item["lang"] in ("en", "ar"), item["id"]
        assert arabic.detect_language(item["text"]) == item["lang"], f"{item['id']}: text language is not {item['lang']}"


def test_every_must_find_concept_is_detected(passage):
    _need_glossary()
    matches = _detected(passage["text"])
    found = set().union(*(_names(m.entry) for m in matches)) if matches else set()
    missing = [concept for concept in passage["must_find"] if _key(concept) not in found]
    assert not missing, f"{passage['id']}: not detected {missing}; detected {_describe(matches)}"


WITH_NEGATIVES = [p for p in PASSAGES if p.get("must_not_find")]


@pytest.mark.parametrize("passage", WITH_NEGATIVES, ids=[p["id"] for p in WITH_NEGATIVES])
def test_nothing_in_must_not_find_is_detected(passage):
    _need_glossary()
    matches = _detected(passage["text"])
    wrong = [word for word in passage["must_not_find"]
             if any(_key(word) == _key(m.found_as) or _key(word) in _names(m.entry) for m in matches)]
    assert not wrong, f"{passage['id']}: detected as terms {wrong}; detected {_describe(matches)}"


def test_offline_explanation_defines_its_terms_and_grounds_its_numbers(passage):
    _need_glossary()
    text = passage["text"]
    result = explain_offline(text, lang=passage["lang"])
    assert result["language"] == passage["lang"]
    assert result["terms"], f"{passage['id']}: the explanation lists no terms"
    undefined = [t["term"] for t in result["terms"] if not (t.get("definition") or "").strip()]
    assert not undefined, f"{passage['id']}: terms without a definition {undefined}"
    stray = ungrounded_numbers(result["explanation"], text, result["calculations"])
    assert not stray, f"{passage['id']}: numbers in the explanation found neither in the text nor a calculation: {stray}"
