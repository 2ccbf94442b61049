"""Configuration: one settings object, read from the environment once and passed down (argument > environment > default).

Every variable is declared once in SETTINGS below, with its default, what it accepts and what it means;
the README's table lists the same. A bad value stops the program with one line naming the variable and
what it accepts (SettingsError, exit status 2 at the CLI).

The object is a plain frozen dataclass validated by this table rather than a pydantic-settings class:
importing pydantic-settings costs about 300 ms (twice `import numpy`), more than a whole offline
`unjargon explain`, whose start-up must stay under twice numpy's (issue 13). The contract is the same:
one object, read once, every field validated, typed attributes, overridable in tests.
"""

import difflib
import math
import os
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any, Callable, Mapping, NamedTuple

from service import settings_holder

DB_NAME = "unjargon.db"
# claude-sonnet-4-5 reaches end of life on 2026-11-30 (the SDK warns on every call); 4-6 is its successor.
DEFAULT_MODEL = "claude-sonnet-4-6"


class SettingsError(ValueError):
    """A setting has a value it does not accept: names the variable (or option) and what it accepts."""

    def __init__(self, variable: str, accepts: str, got: Any = None, secret: bool = False):
        self.variable, self.accepts = variable, accepts
        shown = "" if got is None else (" (the value given is hidden: it is a secret)" if secret else f", got {got!r}")
        super().__init__(f"{variable} must be {accepts}{shown}")


class Secret(str):
    """A string that never shows itself in a repr, a log line or an error message."""

    def __repr__(self) -> str:
        return "Secret('**********')"

    def get_secret_value(self) -> str:
        return str.__str__(self)


# ---- parsers: text -> value, or ValueError --------------------------------------------------------


def _integer(low: int | None = None, high: int | None = None) -> Callable[[str], int]:
    def parse(text: str) -> int:
        value = int(str(text).strip().replace("_", ""))
        if (low is not None and value < low) or (high is not None and value > high):
            raise ValueError
        return value
    return parse


def _positive_number(text: str) -> float:
    value = float(str(text).strip())
    if not math.isfinite(value) or value <= 0:
        raise ValueError
    return value


def _text(text: str) -> str:
    if not str(text).strip():
        raise ValueError
    return str(text).strip()


def _url(text: str) -> str:
    value = str(text).strip()
    if not value.startswith(("http://", "https://")) or len(value) <= len("https://"):
        raise ValueError
    return value.rstrip("/")


def _database_url(text: str) -> str:
    from urllib.parse import urlsplit

    value = str(text).strip()
    if not value.startswith(("postgresql://", "postgres://", "postgresql+psycopg://")) or "://" == value[-3:]:
        raise ValueError
    parts = urlsplit(value)
    _ = parts.port  # a port that is not a number raises ValueError here, at start-up
    if not (parts.hostname or "host=" in parts.query) or not parts.path.strip("/"):
        raise ValueError  # libpq would fall back to a local socket and the user's name: say so now instead
    return value


def _secret(text: str) -> Secret | None:
    # An empty value (VAR=) means unset, as the SDK reads ANTHROPIC_API_KEY.
    return Secret(str(text).strip()) if str(text).strip() else None


def _backend(text: str) -> str:
    from service.llm import is_backend

    value = str(text).strip().lower()
    if value != "auto" and not is_backend(value):
        raise ValueError
    return value


def _language(text: str) -> str | None:
    # Checked against the registry in load(), once UNJARGON_LANGUAGES_DIR (which adds languages) is known.
    value = str(text).strip().lower()
    if not value or len(value) > 16:
        raise ValueError
    return value


def _host(text: str) -> str:
    # An IP address, or a name made of DNS labels: anything else ("bad host!") never resolves, and is said so
    # here without asking a resolver. Whether the address is this machine's is checked when serving starts.
    import ipaddress
    import re

    value = str(text).strip()
    try:
        ipaddress.ip_address(value.strip("[]"))
        return value.strip("[]")
    except ValueError:
        pass
    label = r"[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?"
    if len(value) > 253 or not re.fullmatch(rf"{label}(?:\.{label})*\.?", value):
        raise ValueError
    return value


def _folder(text: str) -> Path:
    return Path(str(text).strip()).expanduser()


def _languages_folder(text: str) -> Path:
    # A folder that is not there (a typo, an unmounted volume) would add no language and say nothing.
    folder = _folder(text)
    if not (folder / "locale").is_dir():
        raise ValueError
    return folder


def _backends_accepted() -> str:
    from service.llm import backend_names

    return "one of auto, " + ", ".join(backend_names())


def _languages_accepted(extra: Path | None = None) -> str:
    from service.i18n import languages

    return "a language code: " + ", ".join(languages.codes(extra))  # extra None: the shipped ones only


# A NamedTuple, not a frozen dataclass: the same record, without a millisecond of class building at import.
class Setting(NamedTuple):
    """One variable: the attribute it fills, how it is parsed, and what it accepts (said in errors and the README)."""

    name: str
    variable: str
    parse: Callable[[str], Any]
    accepts: str | Callable[[], str]
    doc: str
    secret: bool = False

    def describe(self) -> str:
        return self.accepts() if callable(self.accepts) else self.accepts


SETTINGS: tuple[Setting, ...] = (
    Setting("anthropic_api_key", "ANTHROPIC_API_KEY", _secret, "an Anthropic API key", "enables the Claude backend", secret=True),
    Setting("anthropic_base_url", "ANTHROPIC_BASE_URL", _url, "an http:// or https:// URL", "any Anthropic-compatible server"),
    Setting("backend", "UNJARGON_BACKEND", _backend, _backends_accepted, "which backend answers"),
    Setting("model", "UNJARGON_MODEL", _text, "a model name", "Claude model"),
    Setting("home", "UNJARGON_HOME", _folder, "a folder unjargon can create and write to", "folder of the SQLite store, cache and glossary index"),
    Setting("database_url", "UNJARGON_DATABASE_URL", _database_url, "a postgresql://user:password@host:port/database URL",
            "a PostgreSQL database shared by several replicas instead of the SQLite file", secret=True),
    Setting("lang", "UNJARGON_LANG", _language, "a language code (en, ar, or one added in UNJARGON_LANGUAGES_DIR)", "answer language for the CLI"),
    Setting("languages_dir", "UNJARGON_LANGUAGES_DIR", _languages_folder, "an existing folder of extra languages (with a locale/ folder inside)", "more languages beside the shipped ones (see Adding a language)"),
    Setting("max_text_chars", "UNJARGON_MAX_TEXT_CHARS", _integer(1), "a whole number of characters, at least 1", "longest text accepted"),
    Setting("max_tokens", "UNJARGON_MAX_TOKENS", _integer(256), "a whole number of tokens, at least 256", "longest answer the model may write"),
    Setting("max_tool_rounds", "UNJARGON_MAX_TOOL_ROUNDS", _integer(1, 20), "a whole number from 1 to 20", "rounds of calculator calls the model may make"),
    Setting("max_retries", "UNJARGON_MAX_RETRIES", _integer(0, 10), "a whole number from 0 to 10", "retries of a failed model call (the SDK's)"),
    Setting("request_deadline_s", "UNJARGON_REQUEST_DEADLINE_S", _positive_number, "a positive number of seconds", "deadline of one whole model answer"),
    Setting("history_max_chars", "UNJARGON_HISTORY_MAX_CHARS", _integer(1000), "a whole number of characters, at least 1000",
            "conversation history sent to the model; older turns are dropped, whole exchanges at a time"),
    Setting("api_token", "UNJARGON_API_TOKEN", _secret, "one or more tokens separated by commas",
            "bearer token(s) the HTTP service requires; several keep their conversations apart", secret=True),
    Setting("host", "UNJARGON_HOST", _host, "a host name or IP address", "address `unjargon serve` listens on"),
    Setting("port", "UNJARGON_PORT", _integer(1, 65535), "a port number from 1 to 65535", "port `unjargon serve` listens on"),
    Setting("workers", "UNJARGON_WORKERS", _integer(1, 64), "a whole number from 1 to 64", "processes `unjargon serve` runs"),
    Setting("max_body_bytes", "UNJARGON_MAX_BODY_BYTES", _integer(1), "a whole number of bytes, at least 1", "largest HTTP request body (413 beyond)"),
    Setting("rate_limit_per_minute", "UNJARGON_RATE_LIMIT_PER_MINUTE", _integer(0), "a whole number, 0 for no limit",
            "requests a minute per token (429 with Retry-After beyond)"),
    Setting("sse_keepalive_s", "UNJARGON_SSE_KEEPALIVE_S", _positive_number, "a positive number of seconds",
            "seconds between keep-alive comments in an event stream"),
)
BY_NAME = {setting.name: setting for setting in SETTINGS}
BY_VARIABLE = {setting.variable: setting for setting in SETTINGS}


def _default_home() -> Path:
    return Path.home() / ".unjargon"


@dataclass(frozen=True)
class Settings:
    """Everything a person may set; built once (load) and passed down; tests build their own."""

    anthropic_api_key: Secret | None = None
    anthropic_base_url: str | None = None
    backend: str = "auto"
    model: str = DEFAULT_MODEL
    home: Path = None  # type: ignore[assignment]  (filled in __post_init__: ~/.unjargon)
    database_url: Secret | None = None
    lang: str | None = None
    languages_dir: Path | None = None
    max_text_chars: int = 100_000
    max_tokens: int = 4096
    max_tool_rounds: int = 5
    max_retries: int = 2
    request_deadline_s: float = 120.0
    history_max_chars: int = 120_000
    api_token: Secret | None = None
    host: str = "127.0.0.1"
    port: int = 8000
    workers: int = 1
    max_body_bytes: int = 1024 * 1024
    rate_limit_per_minute: int = 0
    sse_keepalive_s: float = 15.0

    def __post_init__(self):
        if self.home is None:
            object.__setattr__(self, "home", _default_home())
        for name in ("anthropic_api_key", "api_token", "database_url"):  # plain strings given in code are secrets too
            value = getattr(self, name)
            if isinstance(value, str) and not isinstance(value, Secret):
                object.__setattr__(self, name, _secret(value))

    @property
    def db_path(self) -> Path:
        return self.home / DB_NAME

    def api_tokens(self) -> list[str]:
        """The bearer tokens the HTTP service accepts (none: it is open, for a single person on loopback)."""
        if self.api_token is None:
            return []
        return [token.strip() for token in self.api_token.get_secret_value().split(",") if token.strip()]

    def resolved_backend(self) -> str:
        """`auto` means anthropic when a key is set, offline otherwise."""
        if self.backend == "auto":
            return "anthropic" if self.anthropic_api_key else "offline"
        return self.backend

    def model_copy(self, update: Mapping[str, Any]) -> "Settings":
        """A copy with some fields replaced, each validated as its variable would be."""
        return replace(self, **{key: _checked(BY_NAME[key], value, option=True) for key, value in update.items()})


def _checked(setting: Setting, value: Any, option: bool = False) -> Any:
    """`value` parsed by `setting`; values already of the right type (from code) pass through its check too."""
    if value is None:
        return None
    label = "--" + setting.name.replace("_", "-") if option else setting.variable
    try:
        return setting.parse(value if isinstance(value, str) else str(value))
    except (ValueError, TypeError, OverflowError):
        raise SettingsError(label, setting.describe(), value, setting.secret) from None


def _check_home(home: Path, variable: str) -> None:
    """The home must be a folder unjargon can create and write; said at start-up, not as a traceback later."""
    try:
        home.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SettingsError(variable, f"a folder unjargon can create and write to ({home}: {exc.strerror or exc})") from None
    if not os.access(home, os.W_OK | os.X_OK):
        raise SettingsError(variable, f"a folder unjargon can write to ({home} is not writable)")


def load(environ: Mapping[str, str] | None = None, **overrides: Any) -> Settings:
    """Settings from arguments (those not None) over the environment over defaults; SettingsError on a bad value."""
    environ = os.environ if environ is None else environ
    values: dict[str, Any] = {}
    for name, value in environ.items():
        if not name.startswith("UNJARGON_"):
            continue
        setting = BY_VARIABLE.get(name)
        if setting is None:
            close = difflib.get_close_matches(name, list(BY_VARIABLE), n=1)
            hint = f"did you mean {close[0]}? " if close else ""
            raise SettingsError(name, f"one of the known settings ({hint}the README's Configuration table lists them)")
        if value.strip() == "" and not setting.secret:
            continue  # VAR= means unset
        values[setting.name] = _checked(setting, value)
    for variable in ("ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"):
        if environ.get(variable, "").strip():
            values[BY_VARIABLE[variable].name] = _checked(BY_VARIABLE[variable], environ[variable])
    for name, value in overrides.items():
        if value is not None:
            values[name] = _checked(BY_NAME[name], value, option=True)
    settings = Settings(**{k: v for k, v in values.items() if v is not None})
    if settings.lang is not None:
        from service.i18n import languages

        if settings.lang not in languages.codes(settings.languages_dir):
            label = "--lang" if overrides.get("lang") is not None else "UNJARGON_LANG"
            raise SettingsError(label, _languages_accepted(settings.languages_dir), settings.lang)
    _check_home(settings.home, "UNJARGON_HOME" if "home" in values else "the unjargon home (~/.unjargon; set UNJARGON_HOME)")
    return settings


def current() -> Settings:
    """The process's settings, read from the environment the first time they are asked for."""
    return settings_holder.current()


def use(settings: Settings | None) -> None:
    """Make `settings` the process's settings (the CLI after parsing its options; tests; None forgets them)."""
    settings_holder.use(settings)


settings_holder.install(load)  # the holder lets modules below config (languages) read the settings without importing it


def documented_variables() -> list[str]:
    """Every variable unjargon reads, for the README's table (a test compares the two)."""
    return [setting.variable for setting in SETTINGS]


def field_names() -> list[str]:
    return [f.name for f in fields(Settings)]
