"""What the glossary tests of one data/glossary file share: what the detector finds, and that every new entry is whole."""

import json
import re

from calculators.resources import data_dir
from service.explain import glossary
from service.explain.compose import explain_offline


def detected(text: str) -> dict[str, str]:
    """Glossary id -> the spelling found, for every term the detector finds in `text`."""
    return {m.entry["id"]: m.found_as for m in glossary.detect(text)}


def assert_entries_whole(file_name: str, expected_ids: list[str], covered: set[str]) -> None:
    """Every entry of data/glossary/<file_name> is one of `expected_ids`, met in a real sentence (`covered`), sourced,
    with both languages' term and definition, no digits in a definition, and a reason and cues for each guarded alias."""
    doc = json.loads((data_dir() / "glossary" / file_name).read_text(encoding="utf-8"))
    by_id = {e["id"]: e for e in doc["terms"]}
    assert sorted(by_id) == sorted(expected_ids)
    for term_id, entry in by_id.items():
        assert term_id in covered, term_id
        for key in ("term", "expansion", "definition", "category", "aliases", "ar_aliases"):
            assert entry.get(key), (term_id, key)
        assert entry["ar"]["term"] and entry["ar"]["definition"], term_id
        assert entry["source"]["title"] and entry["source"]["url"].startswith("https://"), term_id
        assert not re.search(r"\d", entry["definition"] + entry["ar"]["definition"]), term_id
        for group in entry.get("context_aliases") or []:
            assert group["aliases"] and group["cues"] and group["why"], term_id


def term_definition(text: str, term_id: str, lang: str = "en") -> str:
    """The definition the offline answer gives `term_id` for `text` (the test fails when the term is not listed)."""
    item = next((t for t in explain_offline(text, lang)["terms"] if t["id"] == term_id), None)
    assert item is not None, f"{term_id} not found"
    return item["definition"]
