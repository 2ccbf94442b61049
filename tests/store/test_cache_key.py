"""The cache key covers every file that shapes an answer, in every subfolder (issue 10)."""

import os
import shutil
from pathlib import Path

from service.store import cache

ROOT = Path(__file__).resolve().parents[2]


def _copy(tmp_path: Path, name: str) -> Path:
    target = tmp_path / name
    shutil.copytree(ROOT / name, target, ignore=shutil.ignore_patterns("__pycache__"))
    return target


def test_editing_a_file_in_a_subfolder_changes_the_digest(tmp_path):
    service, data = _copy(tmp_path, "service"), _copy(tmp_path, "data")
    before = cache.source_digest((service, data))
    nested = service / "explain" / "compose.py"
    nested.write_text(nested.read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")
    after_code = cache.source_digest((service, data))
    glossary = next((data / "glossary").glob("*.json"))
    glossary.write_text(glossary.read_text(encoding="utf-8") + " ", encoding="utf-8")
    after_data = cache.source_digest((service, data))
    assert len({before, after_code, after_data}) == 3


def test_a_new_file_in_a_subfolder_changes_the_digest_but_web_assets_do_not(tmp_path):
    service = _copy(tmp_path, "service")
    before = cache.source_digest((service,))
    (service / "http" / "static" / "extra.css").write_text("body{}", encoding="utf-8")
    assert cache.source_digest((service,)) == before  # the page's assets do not shape an answer object
    (service / "llm" / "new_backend.py").write_text("X = 1\n", encoding="utf-8")
    assert cache.source_digest((service,)) != before


def test_the_answer_version_reads_the_real_tree_and_the_key_changes_with_it(monkeypatch):
    version = cache.answer_version()
    assert len(version) == 16
    canonical = cache.canonical_request(text="t", kind="explain", language="en", history=[], backend="offline")
    monkeypatch.setattr(cache, "answer_version", lambda: "0" * 16)
    changed = cache.canonical_request(text="t", kind="explain", language="en", history=[], backend="offline")
    assert cache.cache_key(canonical) != cache.cache_key(changed)


def test_a_remembered_digest_follows_every_edit(tmp_path):
    # answer_version reuses a digest worked out by an earlier process while no file's size or time changed.
    root = tmp_path / "service"
    (root / "explain").mkdir(parents=True)
    source = root / "explain" / "compose.py"
    source.write_text("A = 1\n")
    first = cache.remembered_digest((root,))
    assert first == cache.source_digest((root,))
    assert cache.remembered_digest((root,)) == first  # read back, not recomputed: the same answer
    source.write_text("A = 22\n")  # a new size
    assert cache.remembered_digest((root,)) == cache.source_digest((root,)) != first
    second = cache.remembered_digest((root,))
    source.write_text("A = 23\n")  # the same size, a later modification time
    os.utime(source, ns=(source.stat().st_atime_ns, source.stat().st_mtime_ns + 1_000_000))
    assert cache.remembered_digest((root,)) == cache.source_digest((root,)) != second
    (root / "explain" / "new.py").write_text("")  # a new file
    assert cache.remembered_digest((root,)) == cache.source_digest((root,))
