"""The process's settings once read: a holder that service.config fills and modules below it read, with no import of config."""

from typing import Any, Callable

_loader: Callable[[], Any] | None = None  # service.config.load, installed when config is imported
_settings: Any = None


def install(loader: Callable[[], Any]) -> None:
    """Name how the settings are read the first time they are asked for (service.config does, at import)."""
    global _loader
    _loader = loader


def current() -> Any:
    """The process's settings, read on first use; None while nothing has installed a loader."""
    global _settings
    if _settings is None and _loader is not None:
        _settings = _loader()
    return _settings


def use(settings: Any) -> None:
    """Make `settings` the process's settings (None forgets them)."""
    global _settings
    _settings = settings
