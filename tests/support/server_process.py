"""`unjargon serve` as a real process group on a free loopback port, for load, crash and multi-worker tests."""

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def serve_command(port: int, workers: int) -> list[str]:
    """The console script when installed (as users run it), else the same entry point through this Python."""
    script = shutil.which("unjargon", path=str(Path(sys.executable).parent))
    args = ["serve", "--host", "127.0.0.1", "--port", str(port), "--workers", str(workers)]
    if script:
        return [script, *args]
    return [sys.executable, "-c", "import sys; from service.cli.main import main; sys.exit(main())", *args]


class ServerProcess:
    """The uvicorn master and its workers in a process group of their own, so a test can kill -9 all of them."""

    def __init__(self, home: Path, *, workers: int = 2, env: dict | None = None, port: int | None = None):
        self.home = home
        self.workers = workers
        self.port = port or free_port()
        self.log_path = home / f"server-{self.port}-{time.monotonic_ns()}.log"
        base = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "UNJARGON_"))}
        self.env = {**base, "UNJARGON_HOME": str(home), "UNJARGON_BACKEND": "offline", "PYTHONUNBUFFERED": "1",
                    **(env or {})}
        self.process: subprocess.Popen | None = None
        self._log = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout_s: float = 30) -> "ServerProcess":
        self._log = open(self.log_path, "ab")
        self.process = subprocess.Popen(serve_command(self.port, self.workers), cwd=ROOT, env=self.env,
                                        stdin=subprocess.DEVNULL, stdout=self._log, stderr=subprocess.STDOUT,
                                        start_new_session=True)  # its own process group: killpg reaches the workers
        deadline = time.monotonic() + timeout_s
        ready = 0
        while ready < 3:  # a few answers in a row, so every worker has had the chance to start
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.kill()
                raise RuntimeError(f"unjargon serve did not start:\n{self.log_text()[-2000:]}")
            try:
                ready = ready + 1 if httpx.get(self.url + "/healthz", timeout=1).status_code == 200 else 0
            except httpx.HTTPError:
                ready = 0
                time.sleep(0.1)
        return self

    def worker_pids(self) -> list[int]:
        """The master and every process of its group (Linux /proc)."""
        pgid = self.process.pid
        pids = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    if os.getpgid(int(entry.name)) == pgid:
                        pids.append(int(entry.name))
                except OSError:
                    pass
        return pids

    def kill(self) -> None:
        """kill -9 of the master and its workers at once, as a crash or the OOM killer would."""
        if self.process is None:
            return
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait(10)
        self._close_log()

    def stop(self, timeout_s: float = 20) -> None:
        """A graceful stop (SIGTERM to the group), then kill -9 if it takes too long."""
        if self.process is None or self.process.poll() is not None:
            self._close_log()
            return
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout_s)
        except subprocess.TimeoutExpired:
            self.kill()
        except ProcessLookupError:
            pass
        self._close_log()

    def _close_log(self) -> None:
        if self._log is not None:
            self._log.close()
            self._log = None

    def log_text(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def __enter__(self) -> "ServerProcess":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
