"""The MCP server on the official SDK's MCPServer: every tool of service/mcp/tools.py, over stdio or streamable HTTP.

Imported only by `unjargon mcp` and by `unjargon serve` when it starts /mcp: the SDK (pydantic, starlette,
jsonschema) stays off the start-up of every other command.
"""

import json
import logging
import time
from typing import Any, Callable

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.tools import Tool
from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase, FuncMetadata
from mcp.types import CallToolResult, TextContent
from pydantic import ConfigDict

from service.mcp import tools

log = logging.getLogger(__name__)
PROGRESS_EVERY_S = 0.5  # a model's answer streams in many small pieces: one progress notice per half second at most
CONTEXT_ARGUMENT = "_unjargon_mcp_context"  # no calculator field can be called this


class _Arguments(ArgModelBase):
    """Every argument passed through as sent: the calculators' registry checks them and says what is wrong
    in the CLI's words, where the SDK's own validation would answer with pydantic's."""

    model_config = ConfigDict(extra="allow")

    def model_dump_one_level(self) -> dict[str, Any]:
        return dict(self.model_extra or {})


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("unjargon")
    except PackageNotFoundError:  # a checkout run without installing
        return "0"


def _owner(context: Context) -> str | None:
    """The API token's owner id over HTTP (set by the service's AuthMiddleware); None over stdio."""
    request = getattr(context.request_context, "request", None)
    scope = getattr(request, "scope", None) or {}
    return (scope.get("state") or {}).get("owner")


def _result(structured: dict) -> CallToolResult:
    """A structured result, with its JSON as text for clients that read only text."""
    text = json.dumps(structured, ensure_ascii=False)
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=structured)


def _error(message: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=message)], is_error=True)


def _tool_function(name: str, settings_of: Callable[[], Any]):
    """The function behind tool `name`: runs it on a worker thread, reports progress for explain."""

    async def run_tool(**arguments) -> CallToolResult:
        context: Context = arguments.pop(CONTEXT_ARGUMENT)
        settings = settings_of()
        written = [0]  # characters of the explanation so far: progress only ever grows, as the protocol asks
        words = _progress_words(arguments, settings) if name == tools.EXPLAIN else None
        on_text = _progress_reporter(context, written, words) if words else None
        if on_text is not None:
            await context.report_progress(0, None, words["reading"])
        try:
            structured = await anyio.to_thread.run_sync(
                lambda: tools.call(name, arguments, settings, owner=_owner(context), on_text=on_text))
        except tools.ToolInputError as exc:
            return _error(str(exc))
        if on_text is not None:
            done = max(written[0], 1)
            await context.report_progress(done, done, words["done"])
        return _result(structured)

    run_tool.__name__ = name
    return run_tool


def _progress_words(arguments: dict, settings) -> dict:
    """The progress notices' words, in the language the explanation will be written in."""
    from service.i18n import languages
    from service.i18n.messages import messages

    text = arguments.get("text") if isinstance(arguments.get("text"), str) else ""
    lang = arguments.get("lang") or settings.lang or languages.detect(text)
    return messages(lang if lang in languages.codes() else None)["mcp_progress"]


def _progress_reporter(context: Context, written: list[int], words: dict) -> Callable[[str], None]:
    """An explain's on_text: from the worker thread, a progress notice (characters written so far) at most
    every PROGRESS_EVERY_S."""
    last = [0.0]

    def on_text(chunk: str) -> None:
        written[0] += len(chunk)
        now = time.monotonic()
        if now - last[0] >= PROGRESS_EVERY_S:
            last[0] = now
            try:
                anyio.from_thread.run(context.report_progress, written[0], None, words["written"].format(n=f"{written[0]:,}"))
            except Exception:  # a notice that cannot be sent must not cost the reader the explanation
                log.debug("could not send a progress notice", exc_info=True)

    return on_text


def build_server(settings_of: Callable[[], Any]) -> MCPServer:
    """The MCP server with every tool; `settings_of()` gives the settings a call runs under."""
    registered = []
    for definition in tools.definitions():
        function = _tool_function(definition["name"], settings_of)
        registered.append(Tool(
            fn=function, name=definition["name"], title=None, description=definition["description"],
            parameters=definition["input_schema"], is_async=True, context_kwarg=CONTEXT_ARGUMENT,
            fn_metadata=FuncMetadata(arg_model=_Arguments, output_schema=definition["output_schema"]),
        ))
    return MCPServer(
        name="unjargon", version=_version(), log_level="WARNING", tools=registered,
        instructions="Explains jargon about training large AI models and proves its numbers: use explain for a "
                     "whole text, lookup_term for one acronym, and the calculators (pp_necessity, mfu, "
                     "plan_layout, ...) for a figure you would otherwise estimate.",
    )


def run_stdio() -> int:
    """`unjargon mcp`: serve over standard input and output until the client closes them."""
    from service import config

    logging.basicConfig(level=logging.WARNING, format="unjargon mcp: %(levelname)s %(name)s: %(message)s")
    build_server(config.current).run("stdio")  # the SDK points fd 1 at stderr while it serves: stray prints miss the wire
    return 0
