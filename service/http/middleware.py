"""Pure ASGI middleware: security headers, a catch-all for errors, the body-size limit, bearer auth, rate limit.

Pure ASGI (not BaseHTTPMiddleware) so server-sent events pass through unbuffered.
"""

import hashlib
import hmac
import json
import logging
import math
import threading
import time
from collections import deque
from typing import Callable
from urllib.parse import parse_qsl

from service.http.error_responses import HTTPError, error_body

log = logging.getLogger(__name__)

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' blob:; connect-src 'self'; "
    "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "content-security-policy": CONTENT_SECURITY_POLICY,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-resource-policy": "same-origin",
    "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=()",
}
_SECURITY_HEADER_BYTES = [(name.encode(), value.encode()) for name, value in SECURITY_HEADERS.items()]
# Never in a URL: uvicorn's access log prints the query string.
CREDENTIAL_PARAMETERS = {"token", "access_token", "api_key", "apikey", "api-key", "key", "auth", "authorization",
                         "bearer"}

SettingsOf = Callable[[], object]


def is_public(path: str) -> bool:
    """Routes open without a token: the health check, static assets and the page shell (it holds no data;
    the page asks for the token and sends it on every API call)."""
    return path in ("/healthz", "/", "/plan", "/favicon.ico") or path.startswith("/static/")


def token_owner(token: str) -> str:
    """The id conversations are filed under for a token: a digest, so the token itself is never stored."""
    return hashlib.sha256(("unjargon-owner:" + token).encode()).hexdigest()[:32]


async def send_json(send, status: int, body: dict, headers: dict | None = None) -> None:
    """Answer with a JSON body from inside a middleware."""
    payload = json.dumps(body).encode()
    raw = [(b"content-type", b"application/json"), (b"content-length", str(len(payload)).encode())]
    raw += [(name.lower().encode(), str(value).encode()) for name, value in (headers or {}).items()]
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": payload})


class HTTPMiddleware:
    """A pure ASGI middleware for HTTP requests; lifespan and other scopes pass straight through."""

    def __init__(self, app, settings_of: SettingsOf | None = None):
        self.app = app
        self.settings_of = settings_of

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        return await self.http(scope, receive, send)

    async def http(self, scope, receive, send):  # pragma: no cover - every subclass defines it
        raise NotImplementedError


class SecurityHeadersMiddleware(HTTPMiddleware):
    """Adds the security headers to every response, and no-store to the API's (they hold conversations)."""

    async def http(self, scope, receive, send):
        path = scope["path"]

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                for name, value in _SECURITY_HEADER_BYTES:
                    if name not in present:
                        headers.append((name, value))
                if b"cache-control" not in present and not path.startswith("/static/"):
                    headers.append((b"cache-control", b"no-store"))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


class HeadMiddleware(HTTPMiddleware):
    """HEAD answered as GET is, without the body: monitors and link checkers send HEAD, and FastAPI's GET routes
    answered it 405. The headers (Content-Length included) are the GET's, as RFC 9110 section 9.3.2 asks."""

    async def http(self, scope, receive, send):
        if scope["method"] != "HEAD":
            return await self.app(scope, receive, send)

        async def without_body(message):
            if message["type"] == "http.response.body":
                if message.get("more_body", False):
                    return
                message = {"type": "http.response.body", "body": b"", "more_body": False}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, without_body)


class CatchAllMiddleware(HTTPMiddleware):
    """An unexpected exception becomes a JSON 500 (with the security headers), never a traceback."""

    async def http(self, scope, receive, send):
        started = False

        async def tracking_send(message):
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, tracking_send)
        except Exception as exc:
            log.error("unhandled %s on %s %s", type(exc).__name__, scope.get("method"), scope["path"], exc_info=exc)
            if started:  # mid-response: the only honest signal left is an aborted connection
                raise
            await send_json(send, 500, error_body(500, "internal error; the server log has the details", "internal_error"))


class BodyTooLarge(HTTPError):
    def __init__(self, limit: int):
        super().__init__(413, f"request body larger than {limit:,} bytes", "request_too_large")


class BodyLimitMiddleware(HTTPMiddleware):
    """413 for a body over the limit: at once from Content-Length, else by counting the bytes as they arrive."""

    async def http(self, scope, receive, send):
        limit = self.settings_of().max_body_bytes
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    return await send_json(send, 400, error_body(400, "invalid Content-Length", "bad_request"))
                if declared > limit:
                    return await send_json(send, 413, error_body(413, f"request body larger than {limit:,} bytes",
                                                                 "request_too_large"), {"connection": "close"})
        received = 0
        started = False

        async def counting_receive():
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge(limit)
            return message

        async def tracking_send(message):
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counting_receive, tracking_send)
        except BodyTooLarge as exc:  # read outside a route (where the handler would have answered)
            if started:
                raise
            await send_json(send, 413, error_body(413, exc.detail, exc.code), {"connection": "close"})


class AuthMiddleware(HTTPMiddleware):
    """Bearer tokens (UNJARGON_API_TOKEN) on every route but the public ones; records the caller's owner id."""

    async def http(self, scope, receive, send):
        state = scope.setdefault("state", {})
        state["owner"] = None
        tokens = self.settings_of().api_tokens()
        if not tokens or is_public(scope["path"]):
            return await self.app(scope, receive, send)
        query = scope.get("query_string", b"").decode("latin-1")
        if any(name.lower() in CREDENTIAL_PARAMETERS for name, _ in parse_qsl(query, keep_blank_values=True)):
            return await self._refuse(send, "tokens are accepted only in the Authorization header, never in the URL",
                                      "token_in_query")
        header = ""
        for name, value in scope.get("headers", []):
            if name == b"authorization":
                header = value.decode("latin-1")
                break
        scheme, _, presented = header.partition(" ")
        if not header:
            return await self._refuse(send, "missing bearer token (Authorization: Bearer <token>)", "missing_token")
        if scheme.lower() != "bearer" or not presented.strip():
            return await self._refuse(send, "use Authorization: Bearer <token>", "invalid_token")
        matched = match_token(presented.strip(), tokens)
        if matched is None:
            return await self._refuse(send, "invalid bearer token", "invalid_token")
        state["owner"] = token_owner(matched)
        await self.app(scope, receive, send)

    @staticmethod
    async def _refuse(send, message: str, code: str):
        await send_json(send, 401, error_body(401, message, code), {"www-authenticate": 'Bearer realm="unjargon"'})


def match_token(presented: str, tokens: list[str]) -> str | None:
    """The configured token equal to `presented`, compared in constant time (digests, so lengths match)."""
    digest = hashlib.sha256(presented.encode("utf-8", "surrogateescape")).digest()
    found = None
    for token in tokens:  # no early exit: the time taken does not say which token, or how much, matched
        if hmac.compare_digest(digest, hashlib.sha256(token.encode()).digest()):
            found = token
    return found


class RateLimiter:
    """A sliding one-minute window of request times per caller, in this process."""

    MAX_CALLERS = 10_000  # a bound on memory when many callers (client addresses) appear

    def __init__(self):
        self._lock = threading.Lock()
        self._seen: dict[str, deque] = {}

    def check(self, caller: str, limit: int, now: float | None = None) -> float:
        """0 when the request may go ahead (and is counted); else the seconds until it may."""
        now = time.monotonic() if now is None else now
        with self._lock:
            times = self._seen.get(caller)
            if times is None:
                if len(self._seen) >= self.MAX_CALLERS:
                    self._prune(now)
                times = self._seen[caller] = deque()
            while times and times[0] <= now - 60.0:
                times.popleft()
            if len(times) >= limit:
                return times[0] + 60.0 - now
            times.append(now)
            return 0.0

    def _prune(self, now: float) -> None:
        for caller in [c for c, t in self._seen.items() if not t or t[-1] <= now - 60.0]:
            del self._seen[caller]


async def shared_wait(settings, caller: str, limit: int) -> float:
    """RateLimiter.check counted in the database every replica uses (a worker thread: it is a query)."""
    from starlette.concurrency import run_in_threadpool

    from service.store import open_store

    return await run_in_threadpool(open_store(settings).rate_check, caller, limit)


class RateLimitMiddleware:
    """UNJARGON_RATE_LIMIT_PER_MINUTE requests per token (or client address without auth); 429 with Retry-After."""

    def __init__(self, app, settings_of: SettingsOf, limiter: RateLimiter | None = None):
        self.app = app
        self.settings_of = settings_of
        self.limiter = limiter or RateLimiter()

    async def __call__(self, scope, receive, send):
        limit = self.settings_of().rate_limit_per_minute if scope["type"] == "http" else 0
        if not limit or is_public(scope["path"]):
            return await self.app(scope, receive, send)
        owner = scope.get("state", {}).get("owner")
        caller = owner or "client:" + str((scope.get("client") or ("?",))[0])
        settings = self.settings_of()
        if getattr(settings, "database_url", None) is not None:  # replicas share one database: they share the limit
            from service.failures import StoreUnavailable

            try:
                wait = await shared_wait(settings, caller, limit)
            except StoreUnavailable as exc:
                return await send_json(send, 503, error_body(503, exc.message, exc.code), {"retry-after": "5"})
        else:
            wait = self.limiter.check(caller, limit)
        if wait > 0:
            return await send_json(send, 429, error_body(429, f"rate limit of {limit} requests a minute reached",
                                                         "rate_limit_exceeded"),
                                   {"retry-after": str(max(1, math.ceil(wait))), "x-ratelimit-limit-requests": str(limit),
                                    "x-ratelimit-remaining-requests": "0"})
        await self.app(scope, receive, send)
