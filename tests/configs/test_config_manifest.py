"""Real configuration files (tests/data/configs/manifest.json, each with its source): parsed, laid out as written down by
hand, every option explained or listed as knowingly unknown, and exactly the expected problems raised (issue 20)."""

import json
from pathlib import Path

import pytest

from service.configs import reading

FOLDER = Path(__file__).resolve().parents[1] / "data" / "configs"
MANIFEST = FOLDER / "manifest.json"
ENTRIES = json.loads(MANIFEST.read_text(encoding="utf-8"))["files"] if MANIFEST.is_file() else []
pytestmark = pytest.mark.skipif(not ENTRIES, reason="tests/data/configs/manifest.json is absent (the configuration corpus is not in this checkout)")


def _read(entry: dict) -> dict:
    text = (FOLDER / entry["file"]).read_text(encoding="utf-8")
    found = reading.read(text, "en")
    assert found is not None, f"{entry['file']}: no configuration found"
    return found


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["file"] for e in ENTRIES])
def test_each_file_parses_as_its_framework(entry):
    found = _read(entry)
    assert found["framework"] == entry["framework"]
    assert not [note for note in found["unreadable"] if "does not parse" in note]


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["file"] for e in ENTRIES])
def test_the_layout_is_the_one_written_down_by_hand(entry):
    found = _read(entry)
    expected = entry.get("layout") or {}
    got = {key: found["layout"].get(key) for key in expected}
    assert got == expected
    assert found["world_size"] == entry.get("world_size")


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["file"] for e in ENTRIES])
def test_every_option_is_explained_or_knowingly_unknown(entry):
    found = _read(entry)
    missing = sorted(set(found["unknown_options"]) - set(entry.get("unknown_ok") or []))
    assert missing == []
    for option in found["options"]:
        if option["known"]:
            assert option["meaning"] and option["source"], option["name"]


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["file"] for e in ENTRIES])
def test_exactly_the_expected_problems_are_raised(entry):
    found = _read(entry)
    raised = sorted({problem["rule"] for problem in found["problems"]})
    assert raised == sorted({problem["rule"] for problem in entry.get("expected_problems") or []})
    for problem in entry.get("expected_problems") or []:
        mine = [p for p in found["problems"] if p["rule"] == problem["rule"]]
        assert any(set(p["options"]) & set(problem["options"]) for p in mine), (problem["rule"], [p["options"] for p in mine])


def test_the_corpus_covers_every_format_and_plants_one_mistake_per_rule():
    frameworks = {entry["framework"] for entry in ENTRIES}
    assert {"megatron-lm", "nemo", "megatron-bridge", "torchtitan", "deepspeed", "maxtext", "accelerate"} <= frameworks
    assert frameworks & {"torchrun", "deepspeed-launcher"}
    real = [e for e in ENTRIES if not e["file"].startswith("planted__")]
    assert len(real) >= 30 and all(e.get("source") for e in real)
    planted = {e["file"].split("__")[1] for e in ENTRIES if e["file"].startswith("planted__")}
    assert len(planted) >= 10
