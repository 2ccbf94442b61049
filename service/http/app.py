"""The HTTP service: `create_app(settings)` builds the FastAPI application that `unjargon serve` runs."""

import hashlib
import logging
from contextlib import asynccontextmanager
from functools import cache
from pathlib import Path

from fastapi import Depends, FastAPI, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from service.http import routes_plan
from service.http import routes_explain as api, routes_conversations as conversations_api, error_responses as http_errors, openai_compat
from service import engine
from service.http.deps import get_settings
from service.http.middleware import AuthMiddleware, BodyLimitMiddleware, CatchAllMiddleware, HeadMiddleware, RateLimitMiddleware, SecurityHeadersMiddleware, is_public
from service import config
from service.config import Settings
from service.failures import StoreUnavailable
from service.i18n import languages
from service.i18n.accept_language import preferred
from service.i18n.messages import messages

log = logging.getLogger(__name__)
HERE = Path(__file__).resolve().parent
STATIC = HERE / "static"
TEMPLATES = HERE / "templates"


@cache
def _asset_version() -> str:
    """A digest of the static files, so a browser never mixes an old script with a new page."""
    digest = hashlib.sha256()
    for path in sorted(STATIC.rglob("*")):
        if path.is_file():
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def _page_words(lang: str) -> dict:
    """The page's words in `lang`, with the verdicts its what-if panel writes from a calculation's outputs."""
    m = messages(lang)
    return {**m["page"], **{key: m["card"][key] for key in ("pp_ok", "pp_with", "pp_bound", "pp_unfixable")}}


def _page_language(request: Request, lang: str | None) -> tuple[str, str]:
    """A page's language and what chose it: ?lang= when it names one, else the browser's Accept-Language, else the default."""
    if lang in languages.registry():
        return lang, "query"
    asked = preferred(request.headers.get("accept-language"), languages.codes())
    return (asked, "header") if asked else (languages.DEFAULT, "default")


def _varies_by_language(response: Response, code: str) -> Response:
    """Tells caches that the page differs by Accept-Language, and says which language it is in."""
    response.headers["Vary"] = "Accept-Language"
    response.headers["Content-Language"] = code
    return response


def create_app(settings: Settings | None = None) -> FastAPI:
    """The application, with `settings` (default: from the environment) injected into every route."""
    settings = settings or config.current()

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        # Turns a crashed process left pending become failed answers before this one serves (see Store).
        try:
            swept = await run_in_threadpool(engine.open_store(app.state.settings).recover)
        except StoreUnavailable as exc:  # the database went away after `serve` checked it: serve 503s until it is back
            log.warning("%s", exc.message)
            swept = 0
        if swept:
            log.warning("%d answers were interrupted when the service stopped; marked as failed", swept)
        from service.mcp import http as mcp_http  # the MCP SDK is imported here, never by the other commands

        async with mcp_http.serving(app):
            yield

    app = FastAPI(
        lifespan=lifespan,
        title="unjargon",
        summary="Explains jargon about training large AI models in plain language, and proves its numbers.",
        version="0.1.0",
        docs_url=None,  # Swagger UI and ReDoc load their scripts from a CDN; the schema stays at /openapi.json
        redoc_url=None,
        debug=False,
    )
    app.state.settings = settings
    http_errors.install(app)

    # Added innermost first: a request meets the headers, then the catch-all, body limit, auth and rate limit.
    def settings_of() -> Settings:
        return app.state.settings

    app.add_middleware(RateLimitMiddleware, settings_of=settings_of)
    app.add_middleware(AuthMiddleware, settings_of=settings_of)
    app.add_middleware(BodyLimitMiddleware, settings_of=settings_of)
    app.add_middleware(CatchAllMiddleware)
    app.add_middleware(SecurityHeadersMiddleware)
    app.add_middleware(HeadMiddleware)  # outermost: a HEAD request is a GET to everything else

    templates = Jinja2Templates(directory=str(TEMPLATES))
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")

    @app.get("/healthz", tags=["service"])
    def healthz() -> dict:
        """Liveness: no token needed."""
        return {"status": "ok"}

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def page(request: Request, lang: str | None = None, settings: Settings = Depends(get_settings)):
        """The chat page (a shell without data: it asks for the token when the service has one)."""
        # Its words come in every language, so the page turns to the language (and direction) of each answer.
        code, chosen_by = _page_language(request, lang)
        shown = languages.get(code)
        return _varies_by_language(templates.TemplateResponse(request, "index.html", {
            "version": _asset_version(), "auth": bool(settings.api_tokens()),
            "max_text_chars": settings.max_text_chars, "chosen_by": chosen_by,
            "lang": shown.code, "dir": shown.direction, "words": messages(shown.code)["page"],
            "languages": [(code, language.name) for code, language in languages.registry().items()],
            "page_words": {code: {"dir": language.direction, "words": _page_words(code)}
                           for code, language in languages.registry().items()},
        }), shown.code)

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> Response:
        return Response(status_code=204)

    app.include_router(api.router)
    app.include_router(conversations_api.router)
    app.include_router(openai_compat.router)
    app.include_router(routes_plan.router)
    from service.mcp.http import PATH as MCP_PATH, MCPEndpoint

    # the MCP tools over streamable HTTP (GET and DELETE are the transport's too; stateless, it refuses them itself)
    app.add_route(MCP_PATH, MCPEndpoint(), methods=["POST", "GET", "DELETE"], include_in_schema=False)

    @app.get("/plan", response_class=HTMLResponse, include_in_schema=False)
    def plan_page(request: Request, lang: str | None = None):
        """The plan view: a training job's parallel layout, planned live as the reader edits it."""
        code, _ = _page_language(request, lang)
        return _varies_by_language(routes_plan.page(templates, request, _asset_version(), code), code)

    build_schema = app.openapi

    def openapi() -> dict:
        if app.openapi_schema is None:
            app.openapi_schema = http_errors.document_errors(build_schema(), bool(settings.api_tokens()), is_public)
        return app.openapi_schema

    app.openapi = openapi
    return app
