"""Built structures kept on disk (service/explain/data_cache.py): a changed source is never served, a folder that
cannot be written only costs the rebuild, and what is loaded back answers exactly as what was built (issue 13)."""

import marshal
import sys
from pathlib import Path

import pytest

from calculators import catalog
from service.explain import data_cache, glossary, grounding

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "thread.txt"


@pytest.fixture
def pycache(tmp_path, monkeypatch):
    """data_cache's __pycache__ redirected to a scratch folder, bytecode writing on."""
    folder = tmp_path / "pycache"
    monkeypatch.setattr(data_cache, "_PYCACHE", folder)
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    return folder


def test_a_stored_value_is_read_back_for_the_same_sources_only(tmp_path, pycache):
    source = tmp_path / "words.json"
    source.write_text('{"a": 1}')
    stamp = data_cache.stamp([source])
    data_cache.write("words", stamp, {"built": [1, 2, 3]})
    assert data_cache.read("words", data_cache.stamp([source])) == {"built": [1, 2, 3]}
    source.write_text('{"a": 12}')  # an edit changes the stamp: the stored value is never served
    assert data_cache.read("words", data_cache.stamp([source])) is None


def test_an_unwritable_cache_folder_falls_back_then_costs_only_the_rebuild(tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the folder would be")
    monkeypatch.setattr(data_cache, "_PYCACHE", blocker / "__pycache__")
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    stamp = (("x", 1, 2),)
    data_cache.write("value", stamp, [1], fallback=tmp_path / "home-cache")
    assert data_cache.read("value", stamp, fallback=tmp_path / "home-cache") == [1]
    data_cache.write("other", stamp, [2], fallback=blocker / "cache")  # nowhere to write: no error
    assert data_cache.read("other", stamp, fallback=blocker / "cache") is None
    assert not list(tmp_path.rglob("*.tmp"))


def test_without_bytecode_writing_the_value_goes_to_the_fallback(tmp_path, pycache, monkeypatch):
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    data_cache.write("value", (), "v", fallback=tmp_path / "home-cache")
    assert not pycache.exists()
    assert data_cache.read("value", (), fallback=tmp_path / "home-cache") == "v"


def test_a_damaged_file_is_ignored(pycache):
    data_cache.write("value", (), [1, 2])
    (stored,) = pycache.glob("value.*.marshal")
    stored.write_bytes(stored.read_bytes()[:7])
    assert data_cache.read("value", ()) is None
    stored.write_bytes(marshal.dumps(["not", "a", "pair"]))
    assert data_cache.read("value", ()) is None


def _found(index: glossary.Glossary, text: str) -> list[tuple]:
    return [(m.entry["id"], m.found_as, m.start, m.end, m.derived) for m in index.find(text, extended=True)]


def test_the_glossary_loaded_back_finds_what_the_built_one_finds():
    built = glossary.load()
    state = marshal.loads(marshal.dumps(built.state()))
    assert glossary.valid_state(state)
    loaded = glossary.Glossary.from_state(state)
    text = EXAMPLE.read_text(encoding="utf-8") + " TPUs, FSDP8 TP2, 6 × 70B × 15T, NVL72 racks, خط الأنابيب"
    assert _found(loaded, text) == _found(built, text)
    by_id = {id(entry) for entry in loaded.entries}  # one dict per entry, shared by the index as when built
    assert all(id(entry) in by_id for entry in [*loaded._exact.values(), *loaded._folded.values()])


def test_catalog_mentions_are_the_catalog_entries_whether_built_or_loaded_back(pycache):
    text = "Trained on 2048 H800 GPUs and TPU v5p pods; DeepSeek-V3 and Kimi K2 need no PP on TPUs."
    grounding._index.cache_clear()
    built = grounding.mentions(text)
    assert list(pycache.glob("grounding-*.marshal"))  # built, then stored
    grounding._index.cache_clear()
    loaded = grounding.mentions(text)  # from the stored state
    assert [(m.kind, m.entry["id"], m.start, m.end, m.generic) for m in loaded] == \
        [(m.kind, m.entry["id"], m.start, m.end, m.generic) for m in built]
    for mention in loaded:
        table = catalog.hardware() if mention.kind == "chip" else catalog.models()
        assert mention.entry is table.get(mention.kind, mention.entry["id"])
    assert any(m.generic for m in loaded) and {m.kind for m in loaded} == {"chip", "model"}
