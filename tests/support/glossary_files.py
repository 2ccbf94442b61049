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


def assert_found_as(term_id: str, sentence: str, found_as: str) -> None:
    """The detector finds `term_id` in a real sentence, spelled as `found_as` (hyphens and case aside)."""
    found = detected(sentence)
    assert term_id in found, found
    assert found[term_id].replace("-", " ").lower() == found_as.replace("-", " ").lower(), found


def assert_entries_complete(new_ids: list[str], covered: set[str], count: int) -> None:
    """`count` new entries, each met in a real sentence, with both languages, its source, and guarded aliases' reasons
    (ar_aliases may be empty: not every term has an Arabic spelling people write)."""
    by_id = glossary.load().by_id
    assert len(new_ids) == count
    for term_id in new_ids:
        assert term_id in covered, term_id
        entry = by_id[term_id]
        for key in ("term", "expansion", "definition", "category", "aliases"):
            assert entry.get(key), (term_id, key)
        for key in ("ar_aliases", "intuition", "calculator", "readings"):
            assert key in entry, (term_id, key)
        assert entry["ar"]["term"] and entry["ar"]["definition"], term_id
        assert bool(entry["intuition"]) == bool(entry["ar"]["intuition"]), term_id
        assert entry["source"]["title"] and entry["source"]["url"].startswith("https://"), term_id
        for group in entry.get("context_aliases") or []:
            assert group["aliases"] and group["cues"] and group["why"], term_id


def assert_arabic_alias_found(term_id: str) -> None:
    """The entry's first Arabic spelling is found in an Arabic sentence."""
    rendering = glossary.load().by_id[term_id]["ar_aliases"][0]
    text = f"في هذا الإعداد يعتمد الفريق على {rendering} لتسريع تدريب النموذج."
    assert term_id in detected(text), (rendering, detected(text))
