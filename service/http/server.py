"""How `unjargon serve` runs uvicorn: the one place that holds the server's settings."""

import socket

from uvicorn.protocols.http.auto import AutoHTTPProtocol

APP = "service.http.app:create_app"


class NoDelayHTTPProtocol(AutoHTTPProtocol):
    """uvicorn's HTTP protocol with TCP_NODELAY on every connection.

    With --workers N, uvicorn binds the listening socket itself with protocol 0, and asyncio sets
    TCP_NODELAY only on sockets whose protocol is IPPROTO_TCP; every response (headers, then body: two
    writes) then waited for the client's delayed ACK. Measured on loopback: 44 ms per request with two
    workers against 1 ms with one (tests/test_load.py runs two workers).
    """

    def connection_made(self, transport) -> None:
        sock = transport.get_extra_info("socket")
        if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
            try:
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            except OSError:  # not a TCP socket after all
                pass
        super().connection_made(transport)


def run(host: str, port: int, workers: int = 1, app: str = APP) -> None:
    """Serve `app` (an import string of an application factory) the way `unjargon serve` does."""
    import uvicorn

    uvicorn.run(app, factory=True, host=host, port=port, workers=workers,
                http="service.http.server:NoDelayHTTPProtocol")
