"""Talk to a real `unjargon mcp` process (stdio) or a live `/mcp` (streamable HTTP) with the SDK's own client,
and run the CLI beside it for comparison."""

import json
import os
import shutil
import subprocess
import sys
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
from mcp import ClientSession, StdioServerParameters, stdio_client

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent  # the project's virtual environment, where `unjargon` is installed


def unjargon_script() -> str:
    """The installed console script, as an assistant starts it."""
    script = shutil.which("unjargon", path=str(BIN))
    if script is None:
        import pytest

        pytest.skip("the unjargon console script is not installed beside this Python (pip install -e .)")
    return script


def child_env(home: Path, **extra: str) -> dict:
    """The environment of a server or CLI process: a home of its own, the offline backend, no credentials."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "UNJARGON_"))}
    return {**base, "UNJARGON_HOME": str(home), "UNJARGON_BACKEND": "offline", **extra}


def cli(home: Path, *args: str) -> subprocess.CompletedProcess:
    """`unjargon ARGS` with its own home; text output."""
    return subprocess.run([unjargon_script(), *args], env=child_env(home), capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=120, cwd=ROOT)


def cli_json(home: Path, *args: str):
    """The JSON `unjargon ARGS --json` prints (the command must succeed)."""
    done = cli(home, *args, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def cli_error(home: Path, *args: str) -> str:
    """The one line `unjargon ARGS` prints on standard error for bad input (exit status 2)."""
    done = cli(home, *args)
    assert done.returncode == 2, (done.returncode, done.stdout[-500:], done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


@asynccontextmanager
async def stdio_session(home: Path, command: str | None = None, args: tuple[str, ...] = ("mcp",), errlog=None):
    """An initialised ClientSession with `unjargon mcp` started as a subprocess, as an assistant starts it."""
    params = StdioServerParameters(command=command or unjargon_script(), args=list(args),
                                   env=child_env(home), cwd=str(home))
    async with stdio_client(params, errlog=errlog or sys.stderr) as (read, write):
        async with ClientSession(read, write, read_timeout_seconds=60) as session:
            await session.initialize()
            yield session


@asynccontextmanager
async def http_session(url: str, token: str | None = None):
    """An initialised ClientSession over streamable HTTP at `url` (with the bearer token, when given)."""
    import httpx2
    from mcp.client.streamable_http import streamable_http_client

    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with httpx2.AsyncClient(headers=headers, timeout=60) as http:
        async with streamable_http_client(url, http_client=http) as (read, write, *_):
            async with ClientSession(read, write, read_timeout_seconds=60) as session:
                await session.initialize()
                yield session


def run(coroutine_function, *args):
    """Run an async test body to the end."""
    return anyio.run(coroutine_function, *args)
