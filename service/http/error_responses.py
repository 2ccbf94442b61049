"""Every HTTP error as JSON {"error": {"message", "type", "code", "param"}} (OpenAI's shape), never a traceback."""

import logging
import sqlite3

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException

from calculators import CalculatorInputError

from service.failures import UnjargonError

log = logging.getLogger(__name__)

_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found", 405: "method_not_allowed",
          406: "not_acceptable", 413: "request_too_large", 415: "unsupported_media_type", 422: "invalid_request",
          429: "rate_limit_exceeded", 500: "internal_error", 502: "bad_gateway", 503: "unavailable", 504: "timeout"}


class ErrorDetail(BaseModel):
    """What went wrong, for a person (`message`) and for code (`type`, `code`, the `param` at fault)."""

    message: str
    type: str
    code: str
    param: str | None = None


class ErrorBody(BaseModel):
    """The body of every error response (OpenAI's shape)."""

    error: ErrorDetail


ERROR_DESCRIPTIONS = {
    400: "malformed request (e.g. an invalid Content-Length), or a backend that cannot run here",
    401: "missing or wrong bearer token (only when the service has tokens)",
    404: "no such conversation or model (or it belongs to another token)",
    413: "request body too large (UNJARGON_MAX_BODY_BYTES)",
    422: "invalid input: the message names the field (code invalid_json: the body is not JSON at all)",
    429: "rate limit reached; Retry-After says when to try again",
    502: "the model's API refused the request (a setting to fix; retrying will not help)",
    503: "the model (or the store) is unavailable or overloaded; Retry-After says when to try again",
    504: "the model did not answer within the deadline",
}
# Answers that call a backend may meet every failure a model or the store can report.
BACKEND_ERRORS = (400, 422, 502, 503, 504)


def error_responses(*statuses: int) -> dict:
    """OpenAPI `responses` for these error statuses, each with the error body's schema."""
    return {status: {"model": ErrorBody, "description": ERROR_DESCRIPTIONS[status]} for status in statuses}


def document_errors(schema: dict, protected: bool, is_public) -> dict:
    """Declare, on every operation, the errors the middleware may answer before any route runs.

    400 (invalid Content-Length) and 413 (body over the limit) can meet any request; 401 and 429 any
    route that needs a token. With `protected` (tokens configured) the bearer scheme is declared too, so
    clients and schemathesis know which routes need it. `is_public(path)` says which routes need no token
    (the middleware's rule, passed in: the middleware imports this module for its error bodies).
    """
    reference = {"$ref": "#/components/schemas/ErrorBody"}
    components = schema.setdefault("components", {})
    schemas = components.setdefault("schemas", {})
    if "ErrorBody" not in schemas:
        schemas["ErrorBody"] = ErrorBody.model_json_schema(ref_template="#/components/schemas/{model}")
        for name, definition in schemas["ErrorBody"].pop("$defs", {}).items():
            schemas.setdefault(name, definition)
    if protected:
        components.setdefault("securitySchemes", {})["bearerAuth"] = {"type": "http", "scheme": "bearer"}
    for path, operations in schema.get("paths", {}).items():
        for operation in operations.values():
            statuses = [400, 413] + ([] if is_public(path) else [401, 429])
            responses = operation.setdefault("responses", {})
            for status in statuses:
                responses.setdefault(str(status), {"description": ERROR_DESCRIPTIONS[status]})
            for status, response in responses.items():
                if status[:1] in "45" and not response.get("content"):
                    response["content"] = {"application/json": {"schema": reference}}
            if protected and not is_public(path):
                operation["security"] = [{"bearerAuth": []}]
    return schema


def surface(path: str) -> str:
    """How an error on `path` names what to change: OpenAI's routes choose a backend by the model's name, the
    others by the "backend" field (the wording is in data/locale, "errors")."""
    return "openai" if path.startswith(("/v1/chat/", "/v1/models")) else "http"


def error_type(status: int) -> str:
    """OpenAI's error `type` for a status, so its clients raise the matching exception."""
    if status == 401:
        return "authentication_error"
    if status == 403:
        return "permission_error"
    if status == 429:
        return "rate_limit_error"
    if status >= 500:
        return "server_error"
    return "invalid_request_error"


def error_body(status: int, message: str, code: str | None = None, param: str | None = None) -> dict:
    """The JSON body of an error response."""
    return {"error": {"message": message, "type": error_type(status), "code": code or _CODES.get(status, "error"),
                      "param": param}}


def error_response(status: int, message: str, code: str | None = None, param: str | None = None,
                   headers: dict | None = None) -> JSONResponse:
    """An error as a JSON response."""
    return JSONResponse(error_body(status, message, code, param), status_code=status, headers=headers)


class HTTPError(StarletteHTTPException):
    """An HTTP error with our `code` and `param` (raised from routes and from the body-limit middleware)."""

    def __init__(self, status: int, message: str, code: str | None = None, param: str | None = None,
                 headers: dict | None = None):
        super().__init__(status_code=status, detail=message, headers=headers)
        self.code = code
        self.param = param


def body_not_json(content_type: str | None, reason: str | None = None) -> str:
    """What to tell a client whose body is not JSON, naming the cause when it is the Content-Type."""
    media = (content_type or "").split(";")[0].strip().lower()
    if media and media != "application/json" and not media.endswith("+json"):
        return f"the request body is not JSON: it was sent as {media[:60]}; send a JSON object with Content-Type: application/json"
    if not media:
        return "the request body is not JSON: send a JSON object with Content-Type: application/json"
    return f"the request body is not valid JSON ({reason or 'it could not be parsed'}); send a JSON object"


def _body_problem(request: Request, exc: RequestValidationError) -> tuple[str, str] | None:
    """A body that is not JSON, or JSON but not an object, said plainly (pydantic would say "JSON decode error")."""
    content_type = request.headers.get("content-type")
    for problem in exc.errors():
        location = tuple(problem.get("loc", ()))
        if not location or location[0] != "body" or len(location) > 2:
            continue
        kind = problem.get("type")
        if kind == "json_invalid":
            reason = (problem.get("ctx") or {}).get("error") or "it could not be parsed"
            where = f" at character {location[1]}" if len(location) == 2 and isinstance(location[1], int) else ""
            return body_not_json(content_type, f"{reason}{where}"), "invalid_json"
        if len(location) == 1 and kind == "missing":
            return "the request body is empty; send a JSON object", "invalid_json"
        if len(location) == 1 and kind in ("model_attributes_type", "dict_type", "model_type"):
            if isinstance(problem.get("input"), bytes | bytearray):  # FastAPI parses JSON only when labelled so
                return body_not_json(content_type), "invalid_json"
            return "the request body must be a JSON object, not " + _json_kind(problem.get("input")), "validation_error"
    return None


def shown_path(path: str, limit: int = 100) -> str:
    """A request's path as an error may quote it: a 100 KB path came back whole in its 404."""
    return path if len(path) <= limit else f"{path[:limit]}… ({len(path):,} characters)"


def unreadable_body(cause: UnicodeDecodeError | RecursionError) -> str:
    """Why a JSON body could not be read, said plainly: its bytes are not UTF-8, or it nests deeper than Python's
    parser recurses (about a thousand levels; no request of this API nests beyond five)."""
    if isinstance(cause, UnicodeDecodeError):
        return f"the body is not valid UTF-8 (byte {cause.start}); send the JSON encoded as UTF-8"
    return "the JSON is nested too deeply; send an object a few levels deep"


def _json_kind(value) -> str:
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return "true or false"
    if value is None:
        return "null"
    return "a number"


def _validation_message(exc: RequestValidationError) -> tuple[str, str | None]:
    """'field: what is wrong' for each problem; the submitted values are never echoed back."""
    parts, first = [], None
    for problem in exc.errors()[:5]:
        location = [str(item) for item in problem.get("loc", ()) if item not in ("body", "query", "path")]
        where = ".".join(location)
        first = first or where or None
        parts.append(f"{where}: {problem.get('msg', 'invalid')}" if where else problem.get("msg", "invalid"))
    return "; ".join(parts) or "invalid request", first


def install(app: FastAPI) -> None:
    """Register the handlers that give every failure the one JSON shape."""

    @app.exception_handler(HTTPError)
    async def _http_error(request: Request, exc: HTTPError):
        return error_response(exc.status_code, exc.detail, exc.code, exc.param, exc.headers)

    @app.exception_handler(StarletteHTTPException)
    async def _starlette_error(request: Request, exc: StarletteHTTPException):
        # Raised by routing (no route, wrong method) and by Starlette itself; ours are HTTPError, above.
        if exc.status_code == 404:
            message = f"no route {shown_path(request.url.path)}"
        elif exc.status_code == 405:
            message = f"{request.method} is not allowed on {shown_path(request.url.path)}"
        elif exc.status_code == 400 and isinstance(exc.__cause__, (UnicodeDecodeError, RecursionError)):
            # FastAPI says only "There was an error parsing the body"; a body that is not JSON is a 422 here.
            return error_response(422, unreadable_body(exc.__cause__), "invalid_json")
        else:
            message = str(exc.detail)
        return error_response(exc.status_code, message, headers=getattr(exc, "headers", None))

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request: Request, exc: RequestValidationError):
        body = _body_problem(request, exc)
        if body is not None:
            return error_response(422, body[0], body[1])
        message, param = _validation_message(exc)
        return error_response(422, message, "validation_error", param)

    @app.exception_handler(CalculatorInputError)
    async def _calculator_error(request: Request, exc: CalculatorInputError):
        return error_response(422, str(exc), "invalid_calculator_input", exc.field)

    @app.exception_handler(sqlite3.OperationalError)
    async def _store_busy(request: Request, exc: sqlite3.OperationalError):
        # Another process held the database past the busy timeout (or the disk is full): say so, briefly.
        log.error("store unavailable on %s %s: %s", request.method, request.url.path, exc)
        return error_response(503, "the conversation store is busy or unavailable; try again shortly", "store_unavailable",
                              headers={"Retry-After": "2"})

    @app.exception_handler(UnjargonError)
    async def _unjargon_error(request: Request, exc: UnjargonError):
        headers = {"Retry-After": "5"} if exc.status in (503, 504) else None
        return error_response(exc.status, exc.message_for(surface(request.url.path)), exc.code, headers=headers)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception):
        log.error("unhandled %s on %s %s", type(exc).__name__, request.method, request.url.path, exc_info=exc)
        return error_response(500, "internal error; the server log has the details", "internal_error")
