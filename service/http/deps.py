"""FastAPI dependencies shared by the routes: the settings, the caller's owner id, and input checks."""

from typing import Annotated

from fastapi import Request
from pydantic import AfterValidator, Field

from service.http.error_responses import HTTPError
from service.config import Settings
from service.reader_text import without_controls


# Async, though they do no I/O: FastAPI runs a plain `def` dependency in a worker thread, and those two hops
# cost a cached /v1/explain about a fifth of its time (bench/http.py).
async def get_settings(request: Request) -> Settings:
    """The settings create_app was given (tests override this with app.dependency_overrides)."""
    return request.app.state.settings


async def get_owner(request: Request) -> str | None:
    """The digest of the caller's API token (set by AuthMiddleware); None when the service has no tokens."""
    return getattr(request.state, "owner", None)


def check_unicode(text: str, field: str) -> str:
    """422 for text that is not Unicode a file can hold: JSON's \\ud800 escapes decode to lone surrogates,
    which no UTF-8 encoder accepts (they reached the cache key and the store as a 500)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise HTTPError(422, f"{field}: invalid Unicode at character {exc.start} (a lone surrogate escape such as "
                        "\\ud800)", "invalid_unicode", field) from None
    return text


def check_text(text: str, settings: Settings, field: str) -> str:
    """422 for empty text, text over UNJARGON_MAX_TEXT_CHARS or text that is not valid Unicode, before any work."""
    if not text or not without_controls(text).strip():  # control characters are dropped (service/reader_text.py)
        raise HTTPError(422, f"{field}: there is nothing to explain", "validation_error", field)
    if len(text) > settings.max_text_chars:
        raise HTTPError(422, f"{field}: {len(text):,} characters is over the limit of {settings.max_text_chars:,}",
                        "text_too_long", field)
    return check_unicode(text, field)


def wants_event_stream(request: Request) -> bool:
    """Whether the client asked for server-sent events."""
    return "text/event-stream" in request.headers.get("accept", "")


def _registered_language(code: str) -> str:
    from service.i18n import languages

    if code not in languages.codes():
        raise ValueError(f"expected one of {', '.join(languages.codes())}")
    return code


def _registered_backend(name: str) -> str:
    from service.llm import backend_names, is_backend

    if name != "auto" and not is_backend(name):
        raise ValueError(f"expected one of auto, {', '.join(backend_names())}")
    return name


# Request fields checked against the registries, so an added language or backend needs no change here.
LanguageCode = Annotated[str, AfterValidator(_registered_language), Field(description="answer language (default: the text's)", max_length=16)]
BackendName = Annotated[str, AfterValidator(_registered_backend), Field(description="auto or a backend's name (default: the server's)", max_length=40)]
