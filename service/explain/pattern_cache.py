"""Compiled regular expressions kept on disk like bytecode, and patterns compiled only when first used.

The explainer's tables make several hundred regular expressions (figures, glossary notation, claim cues),
and Python compiles patterns in pure Python: well over 100 ms, more than the CLI's whole start-up budget.
So a pattern is compiled only when a read first needs it (lazy), and the compiled program is kept, like a
.pyc, in __pycache__ beside this file, keyed by the interpreter, the regex engine's MAGIC and the pattern
text itself: a later process rebuilds each pattern from its stored program with _sre.compile
(microseconds), exactly as re.compile would. Any doubt (another Python, a damaged or unwritable cache, a
changed pattern) falls back to re.compile.
"""

import atexit
import marshal
import os
import re
import sys
from array import array
from pathlib import Path

try:  # the engine's internals, as re.compile itself uses them (CPython 3.11+)
    import _sre
    from re import _compiler, _parser
    if array("I").itemsize != _sre.CODESIZE:
        raise ImportError("the engine's code size is not an unsigned int")
    _STORE_PATH = (Path(__file__).resolve().parent / "__pycache__"
                   / f"explain_patterns.{sys.implementation.cache_tag}-{_sre.MAGIC}.marshal")
except (ImportError, AttributeError):
    _sre = _STORE_PATH = None


def _load_store() -> dict:
    if _STORE_PATH is None:
        return {}
    try:
        store = marshal.loads(_STORE_PATH.read_bytes())
        return store if isinstance(store, dict) else {}
    except (OSError, ValueError, EOFError, TypeError):
        return {}


class PatternStore:
    """The process's compiled patterns: the programs read from disk, the ones compiled here, and the lazy handles."""

    def __init__(self, path: Path | None):
        self.path = path
        self.stored: dict | None = None  # read on the first compile, not at import
        self.new: dict = {}
        self.lazy: dict[tuple[str, int], "_Lazy"] = {}

    def compile(self, pattern: str, flags: int = 0) -> re.Pattern:
        """`pattern` compiled, from the stored program when there is one."""
        if self.stored is None:
            self.stored = _load_store()
        key = (pattern, flags)
        program = self.stored.get(key)
        if program is not None:
            try:
                final_flags, code, groups, groupindex, indexgroup = program
                return _sre.compile(pattern, final_flags, array("I", code).tolist(), groups, groupindex, indexgroup)
            except Exception:  # noqa: BLE001 - a stored program the engine refuses: compile afresh
                pass
        if _sre is None:
            return re.compile(pattern, flags)
        try:  # the steps of re._compiler.compile, keeping the program
            tree = _parser.parse(pattern, flags)
            code = _compiler._code(tree, flags)
            groupindex = dict(tree.state.groupdict)
            indexgroup = [None] * tree.state.groups
            for name, i in groupindex.items():
                indexgroup[i] = name
            compiled = _sre.compile(pattern, flags | tree.state.flags, code, tree.state.groups - 1, groupindex, tuple(indexgroup))
            program = (int(flags | tree.state.flags), array("I", code).tobytes(), tree.state.groups - 1, groupindex, tuple(indexgroup))
        except re.error:
            raise
        except Exception:  # noqa: BLE001 - internals changed: the public way
            return re.compile(pattern, flags)
        if not self.new:
            atexit.register(self.save)
        self.new[key] = program
        return compiled

    def save(self) -> None:
        """Add this process's newly compiled programs to the store (skipped where bytecode is not written)."""
        if not self.new or self.path is None or sys.dont_write_bytecode:
            return
        try:
            merged = {**_load_store(), **self.new}
            self.path.parent.mkdir(exist_ok=True)
            tmp = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
            tmp.write_bytes(marshal.dumps(merged))
            os.replace(tmp, self.path)
        except (OSError, ValueError):
            pass


def compile(pattern: str, flags: int = 0) -> re.Pattern:  # noqa: A001 - the same call as re.compile
    """`pattern` compiled, from the stored program when there is one."""
    return STORE.compile(pattern, flags)


class _Lazy:
    """A pattern compiled on first use; then it acts as the compiled pattern (its methods become plain slots)."""

    __slots__ = ("pattern", "flags", "match", "search", "fullmatch", "finditer", "findall", "sub", "groupindex")
    _METHODS = ("match", "search", "fullmatch", "finditer", "findall", "sub", "groupindex")

    def __init__(self, pattern: str, flags: int):
        self.pattern, self.flags = pattern, flags

    def __getattr__(self, name):  # only reached while a method slot is still empty, before the first use
        if name not in _Lazy._METHODS:
            raise AttributeError(name)
        compiled = compile(self.pattern, self.flags)
        for method in _Lazy._METHODS:
            setattr(self, method, getattr(compiled, method))
        return getattr(compiled, name)


STORE = PatternStore(_STORE_PATH)


def lazy(pattern: str, flags: int = 0) -> _Lazy:
    """The pattern, compiled when first used (one object per pattern and flags)."""
    key = (pattern, int(flags))
    found = STORE.lazy.get(key)
    if found is None:
        found = STORE.lazy[key] = _Lazy(pattern, int(flags))
    return found
