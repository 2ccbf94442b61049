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


def check_can_listen(host: str, port: int, host_label: str = "UNJARGON_HOST", port_label: str = "UNJARGON_PORT") -> None:
    """Bind `host`:`port` once, as uvicorn will, so that a host that is not this machine's or a port in use is
    one line naming the setting (SettingsError, exit status 2) rather than uvicorn's start-up and shut-down log."""
    import errno

    from service.config import SettingsError

    family = socket.AF_INET6 if ":" in host else socket.AF_INET  # uvicorn's own choice (uvicorn.Config.bind_socket)
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn sets it: a closed port in TIME_WAIT is free
        try:
            probe.bind((host, port))
        except socket.gaierror as exc:
            raise SettingsError(host_label, f"a host name or IP address of this machine ({host!r} does not resolve: {exc.strerror})") from None
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise SettingsError(port_label, f"a free port ({port} is already in use on {host})") from None
            if exc.errno == errno.EACCES:
                raise SettingsError(port_label, f"a port this user may open ({port} needs more privileges; ports below 1024 need root)") from None
            raise SettingsError(host_label, f"an address of this machine (cannot listen on {host}: {exc.strerror})") from None


def run(host: str, port: int, workers: int = 1, app: str = APP) -> None:
    """Serve `app` (an import string of an application factory) the way `unjargon serve` does."""
    import uvicorn

    uvicorn.run(app, factory=True, host=host, port=port, workers=workers,
                http="service.http.server:NoDelayHTTPProtocol")
