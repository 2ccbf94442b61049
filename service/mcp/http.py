"""/mcp in `unjargon serve`: the SDK's streamable HTTP transport, behind the service's token and rate limit.

The route exists from the start; the SDK is imported, and its session manager run, inside the app's
lifespan (a session manager runs once, so each lifespan builds its own server).
"""

from contextlib import asynccontextmanager

from service.http.error_responses import error_body
from service.http.middleware import send_json

PATH = "/mcp"


class MCPEndpoint:
    """The ASGI endpoint of /mcp: hands the request to the running session manager."""

    async def __call__(self, scope, receive, send):
        manager = getattr(scope["app"].state, "mcp_sessions", None)
        if manager is None:  # the app was served without its lifespan
            return await send_json(send, 503, error_body(503, "the MCP transport is not running", "mcp_unavailable"))
        await manager.handle_request(scope, receive, send)


@asynccontextmanager
async def serving(app):
    """Run the MCP tools over streamable HTTP for as long as the block lasts."""
    from mcp.server.transport_security import TransportSecuritySettings

    from service.mcp.server import build_server

    settings = app.state.settings
    server = build_server(lambda: app.state.settings)
    # Without tokens, the SDK's DNS-rebinding check guards a loopback service from web pages; with tokens the
    # token does, and the check would refuse a reverse proxy's Host header.
    security = TransportSecuritySettings(enable_dns_rebinding_protection=False) if settings.api_tokens() else None
    # Stateless: any worker or replica answers any request (no session to find), as for the other routes.
    server.streamable_http_app(streamable_http_path=PATH, stateless_http=True, transport_security=security,
                               host=settings.host, max_request_body_size=settings.max_body_bytes)
    manager = server.session_manager
    async with manager.run():
        app.state.mcp_sessions = manager
        try:
            yield
        finally:
            app.state.mcp_sessions = None
