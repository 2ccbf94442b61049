"""The caches that live as long as the process, owned by one object: each bounded, named, and cleared together."""

from typing import Callable, Hashable


class ProcessCache:
    """Named bounded tables of values computed once per key (a long-running server meets unbounded inputs)."""

    def __init__(self):
        self._tables: dict[str, dict] = {}

    def get(self, table: str, key: Hashable, make: Callable[[], object], limit: int = 4096):
        """The value of `key` in `table`, made on first use; a full table is emptied rather than grown."""
        found = self._tables.setdefault(table, {})
        if key in found:
            return found[key]
        if len(found) >= limit:
            found.clear()
        value = found[key] = make()
        return value

    def size(self, table: str) -> int:
        return len(self._tables.get(table, ()))

    def clear(self) -> None:
        """Forget every table (tests; a reload of data/)."""
        self._tables.clear()


CACHE = ProcessCache()
