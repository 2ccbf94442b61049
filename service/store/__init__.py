"""Where unjargon records everything: the store (SQLite by default), its migrations, writer, cache and single-flight."""

import threading
from pathlib import Path

from service.store.sqlite import Store

__all__ = ["Store", "open_store", "close_stores"]

_stores: dict[Path, Store] = {}
_lock = threading.Lock()


def open_store(settings=None) -> Store:
    """The store `settings` name (default: the process's; the SQLite file under its home), one per file per process."""
    if settings is None:
        from service import config

        settings = config.current()
    path = settings.db_path
    store = _stores.get(path)
    if store is not None:
        return store
    with _lock:
        store = _stores.get(path)
        if store is None:
            store = _stores[path] = Store(path.resolve())
        return store


def close_stores() -> None:
    """Close every store this process opened (tests call this between homes)."""
    with _lock:
        stores = list(_stores.values())
        _stores.clear()
    for store in stores:
        store.close()
