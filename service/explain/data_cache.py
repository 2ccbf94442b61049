"""Structures built from the data files, kept with marshal like bytecode, so a later process skips building them.

Building the glossary's alias index from data/glossary/ takes about 40 ms, a fifth of an offline
`unjargon explain`; loading the built index back with marshal takes a few. A value is stored under a
name with the stamp of its source files (path, size, modification time, as a .pyc is keyed), first in
__pycache__ beside this file (shared by every home; skipped where bytecode is not written), else in a
folder the caller names (the unjargon home's cache). A changed source file changes the stamp, so the
stored value is ignored and rebuilt; any doubt (another Python, a damaged or unwritable file) means
"not stored", never an error.
"""

import marshal
import os
import sys
import threading
from pathlib import Path

_PYCACHE = Path(__file__).resolve().parent / "__pycache__"


def stamp(files) -> tuple:
    """What identifies these source files' contents cheaply: each one's path, size and modification time."""
    stamped = []
    for file in files:
        info = os.stat(file)
        stamped.append((str(file), info.st_size, info.st_mtime_ns))
    return tuple(stamped)


def _paths(name: str, fallback: Path | None) -> list[Path]:
    file = f"{name}.{sys.implementation.cache_tag}.marshal"
    return [_PYCACHE / file] + ([fallback / file] if fallback is not None else [])


def read(name: str, source_stamp: tuple, fallback: Path | None = None):
    """The value stored under `name` for exactly these sources, or None."""
    for path in _paths(name, fallback):
        try:
            stored = marshal.loads(path.read_bytes())
        except (OSError, ValueError, EOFError, TypeError):
            continue
        if isinstance(stored, tuple) and len(stored) == 2 and stored[0] == source_stamp:
            return stored[1]
    return None


def write(name: str, source_stamp: tuple, value, fallback: Path | None = None) -> None:
    """Store `value` (marshal's types only) for these sources: in __pycache__, else in `fallback`."""
    data = marshal.dumps((source_stamp, value))
    places = _paths(name, fallback)
    if sys.dont_write_bytecode:
        places = places[1:]
    for path in places:
        temporary = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")  # server threads too
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            temporary.write_bytes(data)
            os.replace(temporary, path)  # atomic: a concurrent reader sees the old file or the new one
            return
        except OSError:  # read-only: the next place, else only the rebuild next time
            try:
                temporary.unlink(missing_ok=True)
            except OSError:
                pass
