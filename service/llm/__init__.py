"""Backends that answer an explain request, as a registry: offline (glossary + calculators) and anthropic (Claude with tools).

A backend is a class with `name` and `answer(request, on_text)` (service.llm.base.Backend). The built-in
ones are listed here; another package adds one with an entry point in the group `unjargon.backends`
(`name = "package.module:Class"`), with no change to unjargon. `auto` is not a backend but a choice:
anthropic when a key is set, else offline.
"""

from functools import cache

from service.llm.base import Answer, Backend, ExplainRequest

__all__ = ["Answer", "Backend", "ExplainRequest", "backend_names", "get"]

BUILT_IN = {
    "offline": "service.llm.offline:OfflineBackend",
    "anthropic": "service.llm.anthropic:AnthropicBackend",
}
ENTRY_POINT_GROUP = "unjargon.backends"


@cache
def _plugins() -> dict[str, str]:
    """Backends other packages declare (read only when a name is not built in: importlib.metadata costs start-up)."""
    from importlib.metadata import entry_points

    return {point.name: point.value for point in entry_points(group=ENTRY_POINT_GROUP) if point.name not in BUILT_IN}


def _target(name: str) -> str | None:
    return BUILT_IN.get(name) or _plugins().get(name)


def backend_names() -> list[str]:
    """Every backend a person may choose (auto aside)."""
    return list(BUILT_IN) + list(_plugins())


def is_backend(name: str) -> bool:
    """Whether `name` is a backend; a built-in name is answered without reading installed packages' metadata."""
    return name in BUILT_IN or name in _plugins()


def _load_class(target: str):
    from importlib import import_module

    module, _, attribute = target.partition(":")
    return getattr(import_module(module), attribute)


@cache
def get(name: str, settings=None) -> Backend:
    """The backend called `name`, one per process and settings: its model client is built once and reused.

    A backend's module (the anthropic SDK's, for instance) is imported only when that backend is asked for.
    """
    target = _target(name)
    if target is None:
        raise ValueError(f"unknown backend {name!r} ({', '.join(backend_names())})")
    return _load_class(target)(settings)
