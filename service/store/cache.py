"""The response cache's key and its in-memory layer: what shapes an answer, hashed; recent hits kept as JSON bytes."""

import json
import os
import threading
from collections import OrderedDict
from functools import cache
from pathlib import Path

CACHE_FORMAT = 2  # bump when the shape of the canonical request or of cached results changes

_SERVICE = Path(__file__).resolve().parents[1]
_SKIPPED_PARTS = {"__pycache__", "static", "templates"}  # the web page's assets do not shape an answer object


def _source_files(roots: tuple[Path, ...]) -> list[tuple[Path, str]]:
    """Every file under `roots` that can shape an answer, as (root, path), in a stable order."""
    found = []
    for root in roots:
        files = []
        for folder, subfolders, names in os.walk(root):
            subfolders[:] = [name for name in subfolders if name not in _SKIPPED_PARTS]
            files.extend(os.path.join(folder, name) for name in names
                         if not name.endswith((".pyc", ".pyo", ".marshal", ".tmp")))
        found.extend((root, path) for path in sorted(files))
    return found


def source_digest(roots: tuple[Path, ...]) -> str:
    """sha256 over every file under `roots` (recursively, by relative path and content), first 16 hex digits."""
    import hashlib  # here and in cache_key: loading OpenSSL costs 3 ms, which an answer without the cache never needs

    digest = hashlib.sha256()
    for root, path in _source_files(roots):
        with open(path, "rb") as handle:
            digest.update(f"{root.name}/{path[len(str(root)) + 1:]}".encode() + b"\0" + handle.read())
    return digest.hexdigest()[:16]


@cache
def answer_version() -> str:
    """A digest of everything that shapes an answer: the service's and calculators' code, data/ and prompts/.

    Recursive, so an edit in any subfolder (service/explain/, data/glossary/, prompts/languages/) changes
    every cache key and never serves an answer made by older code or data.
    """
    from calculators.resources import data_dir, prompts_dir

    return remembered_digest((_SERVICE, _SERVICE.parent / "calculators", data_dir(), prompts_dir()))


def remembered_digest(roots: tuple[Path, ...]) -> str:
    """source_digest(roots), reused from an earlier process while no file's size or modification time changed."""
    from service.explain import data_cache

    # Reading and hashing every file costs a process 5 ms; their sizes and modification times, as a .pyc is
    # keyed, say whether the digest a process worked out before still holds.
    try:
        stamped = data_cache.stamp(path for _, path in _source_files(roots))
    except OSError:  # a file went away while we looked: hash what is there
        return source_digest(roots)
    import zlib

    name = f"source-digest-{zlib.crc32(repr([str(root) for root in roots]).encode()):08x}"  # one per set of folders
    version = data_cache.read(name, stamped)
    if not isinstance(version, str):
        version = source_digest(roots)
        data_cache.write(name, stamped, version)
    return version


def canonical_request(*, text: str, kind: str, language: str, history: list[dict], backend: str,
                      settings=None, model: str | None = None) -> dict:
    """Everything that shapes an answer (never the API key): the cache key is its hash."""
    canonical = {
        "format": CACHE_FORMAT,
        "text": text,
        "kind": kind,
        "language": language,
        "history": [[e.get("kind"), e["user"], e.get("answer")] for e in history],
        "backend": backend,
        "version": answer_version(),
    }
    if model is not None and settings is not None:
        canonical.update(model=model, max_tokens=settings.max_tokens, max_tool_rounds=settings.max_tool_rounds,
                         history_max_chars=settings.history_max_chars)
    return canonical


def cache_key(canonical: dict) -> str:
    """sha256 of the canonical request's JSON (sorted keys, so equal requests hash equally)."""
    import hashlib

    encoded = json.dumps(canonical, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(encoded.encode("utf-8")).hexdigest()


def encode(value) -> bytes:
    """JSON as the HTTP layer sends it (Starlette's JSONResponse settings)."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode("utf-8")


class HitCache:
    """Recently served cache entries of this process as JSON bytes, bounded in bytes (least recently used goes).

    The database stays the shared truth; this saves reading and decoding tens of kilobytes per hit and lets
    the HTTP layer send a hit without encoding it again. Entries never go stale: a cache row never
    changes once stored (Store.cache_put).
    """

    def __init__(self, max_bytes: int = 16 * 1024 * 1024):
        self.max_bytes = max_bytes
        self._entries: OrderedDict[str, bytes] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()

    def get(self, key: str) -> bytes | None:
        with self._lock:
            value = self._entries.get(key)
            if value is not None:
                self._entries.move_to_end(key)
            return value

    def put(self, key: str, value: bytes) -> None:
        if len(value) > self.max_bytes // 4:
            return
        with self._lock:
            old = self._entries.pop(key, None)
            self._size += len(value) - (len(old) if old is not None else 0)
            self._entries[key] = value
            while self._size > self.max_bytes:
                _, dropped = self._entries.popitem(last=False)
                self._size -= len(dropped)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._size = 0
