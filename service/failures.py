"""Errors the engine reports to the CLI and HTTP layers: what went wrong and what to do about it."""


class UnjargonError(Exception):
    """A failure with a message fit to show a person; `code` and `status` serve the HTTP layer."""

    code = "internal_error"
    status = 500
    wording: tuple[str, dict] | None = None  # (key, values) in the locale's "errors", set by `worded`

    def __init__(self, message: str, *, code: str | None = None, status: int | None = None):
        super().__init__(message)
        self.message = message
        if code:
            self.code = code
        if status:
            self.status = status

    @classmethod
    def worded(cls, key: str, *, code: str | None = None, **values) -> "UnjargonError":
        """This error with the locale's message `key`, which says what to do as each surface says it."""
        error = cls(said(key, "cli", values), code=code or key)
        error.wording = (key, values)
        return error

    def message_for(self, surface: str) -> str:
        """The message as `surface` says it: "cli" (options, commands), "http" (JSON fields, routes), "openai"
        (/v1/chat/completions, whose backend is chosen by the model name) or "stored" (a failed turn, which any
        surface may show later)."""
        return self.message if self.wording is None else said(self.wording[0], surface, self.wording[1])


def said(key: str, surface: str, values: dict) -> str:
    """The locale's error message `key` for `surface` (the CLI's when the surface has none of its own).

    Errors are said in English, as every other error message is (ar.json translates them, as it does every
    user-facing string).
    """
    from service.i18n.messages import messages  # only on failure: the locale is not read otherwise

    wording = messages("en")["errors"][key]
    return wording.get(surface, wording["cli"]).format(**values)


class BackendUnavailable(UnjargonError):
    """The model could not be reached, was overloaded or rate-limited, or missed the deadline; `auto` falls back."""

    code = "backend_unavailable"
    status = 503


class DeadlineExceeded(BackendUnavailable):
    """The model did not answer within the request's overall deadline."""

    code = "deadline_exceeded"
    status = 504


class BackendRejected(UnjargonError):
    """The model's API refused the request (bad key, no permission, bad request); retrying will not help."""

    code = "backend_rejected"
    status = 502


class ConfigurationError(UnjargonError):
    """The requested backend cannot run with this configuration (e.g. anthropic without a key)."""

    code = "configuration_error"
    status = 400


class ConversationNotFound(UnjargonError):
    """No conversation has this id."""

    code = "conversation_not_found"
    status = 404


class StoreUnavailable(UnjargonError):
    """The database (UNJARGON_DATABASE_URL) cannot be reached; the request may be retried once it is back."""

    code = "store_unavailable"
    status = 503


class Cancelled(Exception):
    """The reader went away (closed the stream); stop the work and store what was said."""


def redact(text: str, *secrets: str | None) -> str:
    """`text` with every secret replaced, for messages that quote a server's words."""
    for secret in secrets:
        if secret and len(secret) >= 4:
            text = text.replace(secret, "[redacted]")
    return text
