"""`python3 tasks.py serve` takes its server down with it when it is stopped (issue 13.4)."""

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tests.support.server_process import free_port

ROOT = Path(__file__).resolve().parents[2]
VENV_STAMPS = [ROOT / ".venv" / ".installed-base", ROOT / ".venv" / ".installedtest"]  # either holds the project


def _installed() -> bool:
    """Whether tasks.py would serve at once, without installing the project first."""
    newest = (ROOT / "pyproject.toml").stat().st_mtime
    return any(stamp.exists() and stamp.stat().st_mtime >= newest for stamp in VENV_STAMPS)


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _port_free(port: int) -> bool:
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


@pytest.mark.skipif(not Path("/proc/self/stat").exists() or os.name != "posix", reason="reads /proc to find the child")
@pytest.mark.skipif(not _installed(),
                    reason="tasks.py would install the project first; run `python3 tasks.py serve` once")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_killing_tasks_serve_stops_the_server_and_frees_the_port(tmp_path, signum):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "UNJARGON_"))}
    env.update(UNJARGON_HOME=str(tmp_path), UNJARGON_BACKEND="offline", PYTHONUNBUFFERED="1")
    tasks = subprocess.Popen([sys.executable, str(ROOT / "tasks.py"), "serve", "--host", "127.0.0.1", "--port", str(port)],
                             cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             start_new_session=True)  # its own group: the test can clean up whatever it leaves
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert tasks.poll() is None, "tasks.py serve exited before the server answered"
            assert time.monotonic() < deadline, "the server did not answer within 30 s"
            time.sleep(0.1)
        servers = _children(tasks.pid)
        assert servers, "tasks.py started no child process"
        os.kill(tasks.pid, signum)  # only tasks.py, as a supervisor or `kill PID` would
        tasks.wait(timeout=20)
        deadline = time.monotonic() + 10
        while any(_alive(pid) for pid in servers) or not _port_free(port):
            assert time.monotonic() < deadline, f"after {signum.name} the server is still running on port {port}"
            time.sleep(0.1)
    finally:
        try:
            os.killpg(tasks.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        tasks.wait(timeout=10)
