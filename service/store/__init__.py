"""Where unjargon records everything: the store (SQLite by default, PostgreSQL with UNJARGON_DATABASE_URL), its
migrations, writer, cache and single-flight."""

import threading
from pathlib import Path

from service.store.sqlite import Store

__all__ = ["Store", "open_store", "close_stores"]

_stores: dict[Path | str, Store] = {}
_lock = threading.Lock()


def open_store(settings=None) -> Store:
    """The store `settings` name (default: the process's): the PostgreSQL database of UNJARGON_DATABASE_URL, else
    the SQLite file under its home; one per database per process."""
    if settings is None:
        from service import config

        settings = config.current()
    url = settings.database_url.get_secret_value() if getattr(settings, "database_url", None) else None
    if url:
        return _open_postgres(url)
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


def _open_postgres(url: str) -> Store:
    store = _stores.get(url)
    if store is None:
        with _lock:
            store = _stores.get(url)
            if store is None:
                # Imported only here: the offline CLI on SQLite never loads psycopg.
                from service.store.postgres import PostgresStore

                store = _stores[url] = PostgresStore(url)
    return store
