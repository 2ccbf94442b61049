"""Shared pytest setup: the repository root is importable (calculators/, service/)."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


# --- Every test gets its own unjargon home and no Anthropic credentials (issue 4) ---------------

import os  # noqa: E402

import pytest  # noqa: E402

from service import config  # noqa: E402

_REMOVED_ENV = ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL", "ANTHROPIC_PROFILE",
                "ANTHROPIC_CUSTOM_HEADERS", "ANTHROPIC_LOG", "UNJARGON_BACKEND", "UNJARGON_MODEL", "UNJARGON_LANG")


@pytest.fixture(autouse=True)
def unjargon_home(tmp_path_factory, monkeypatch):
    """A fresh UNJARGON_HOME, and no key or base URL: no test touches the real home or a real host."""
    home = tmp_path_factory.mktemp("unjargon-home")
    monkeypatch.setenv("UNJARGON_HOME", str(home))
    # The SDK would otherwise find credentials in ~/.config/anthropic; point it at an empty folder.
    monkeypatch.setenv("ANTHROPIC_CONFIG_DIR", str(home / "anthropic-config"))
    for name in _REMOVED_ENV + tuple(n for n in os.environ if n.startswith("UNJARGON_") and n != "UNJARGON_HOME"):
        monkeypatch.delenv(name, raising=False)
    config.use(None)  # settings are read once per process: each test reads its own environment
    yield home
    config.use(None)
    if "service.engine" in sys.modules:  # close this test's SQLite connections before its folder goes
        sys.modules["service.engine"].close_stores()


import ipaddress  # noqa: E402
import socket  # noqa: E402

_real_connect, _real_connect_ex = socket.socket.connect, socket.socket.connect_ex


def _outside(sock, address) -> str | None:
    """The host a socket would reach if it is not this machine, else None."""
    if sock.family not in (socket.AF_INET, socket.AF_INET6) or not isinstance(address, tuple):
        return None
    host = address[0]
    if host == "localhost":
        return None
    try:
        return None if ipaddress.ip_address(host.split("%")[0]).is_loopback else host
    except ValueError:
        return host


@pytest.fixture(autouse=True)
def no_network(monkeypatch):
    """Tests reach 127.0.0.1 (fake servers) and nothing else, whatever the code under test tries."""
    def connect(sock, address):
        if host := _outside(sock, address):
            raise ConnectionRefusedError(f"tests may not reach {host} (only 127.0.0.1)")
        return _real_connect(sock, address)

    def connect_ex(sock, address):
        if _outside(sock, address):
            return 111  # ECONNREFUSED
        return _real_connect_ex(sock, address)

    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket.socket, "connect_ex", connect_ex)


from tests.support.postgres_server import postgres_database, postgres_server, postgres_url  # noqa: E402,F401  (issue 14)
