#!/usr/bin/env python3
"""Set up and run unjargon on a fresh machine with only Python 3.11+: `python3 tasks.py explain|test|serve`."""

import os
import shutil
import signal
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
EXAMPLE = ROOT / "examples" / "thread.txt"


def run(*command: str, **kwargs) -> int:
    print("+", " ".join(command), flush=True)
    return subprocess.call(command, cwd=ROOT, **kwargs)


def run_forwarding_signals(*command: str) -> int:
    """Run `command` until it exits, passing on SIGTERM, SIGINT and SIGHUP so the child never outlives us."""
    print("+", " ".join(command), flush=True)
    child = subprocess.Popen(command, cwd=ROOT)

    def forward(signum, frame):
        if child.poll() is None:
            child.send_signal(signum)

    names = ("SIGTERM", "SIGINT", "SIGHUP")
    previous = {sig: signal.signal(sig, forward) for sig in (getattr(signal, n) for n in names if hasattr(signal, n))}
    try:
        status = child.wait()
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return 128 - status if status < 0 else status  # killed by a signal: the shell's convention


def ensure_venv(extras: str = "") -> None:
    """Create .venv and install the project (with `extras`) once; reinstall when pyproject.toml changes."""
    if sys.version_info < (3, 11):
        sys.exit(f"unjargon needs Python 3.11 or newer; this is {sys.version.split()[0]}")
    if not (BIN / "python").exists():
        venv.create(VENV, with_pip=True)
    stamp = VENV / f".installed{extras or '-base'}"
    # An install with the test extras also holds the base project: either stamp will do for the base.
    fresh = [s for s in {stamp, VENV / ".installedtest"} if s.exists() and s.stat().st_mtime >= (ROOT / "pyproject.toml").stat().st_mtime]
    if stamp in fresh or (not extras and fresh):
        return
    spec = f".[{extras}]" if extras else "."
    if run(str(BIN / "python"), "-m", "pip", "install", "--quiet", "--upgrade", "pip") or \
       run(str(BIN / "python"), "-m", "pip", "install", "--quiet", "-e", spec):
        sys.exit("installing unjargon failed (see the pip output above)")
    # Compile the bytecode now: a first `unjargon explain` would otherwise pay for it (and a shell with
    # PYTHONDONTWRITEBYTECODE set would pay on every run).
    run(str(BIN / "python"), "-m", "compileall", "-q", "-j", "0", "calculators", "service")
    stamp.touch()


def ensure_chromium() -> None:
    """Browser tests drive Debian's chromium; install it when we may (root with apt), else they skip."""
    if shutil.which("chromium") or shutil.which("chromium-browser"):
        return
    if shutil.which("apt-get") and hasattr(os, "geteuid") and os.geteuid() == 0:
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        run("apt-get", "update", "-qq", env=env, stdout=subprocess.DEVNULL)
        run("apt-get", "install", "-y", "-qq", "chromium", env=env, stdout=subprocess.DEVNULL)


def explain(args: list[str]) -> int:
    """Explain the bundled real example offline (or the arguments given)."""
    ensure_venv()
    env = dict(os.environ)
    env.setdefault("UNJARGON_BACKEND", "offline")
    return run(str(BIN / "unjargon"), "explain", *(args or ["--file", str(EXAMPLE)]), env=env)


def test(args: list[str]) -> int:
    """Install the test extras (and chromium where possible) and run the whole suite."""
    ensure_venv("test")
    ensure_chromium()
    return run(str(BIN / "python"), "-m", "pytest", *(args or ["-q"]))


def serve(args: list[str]) -> int:
    """Start the HTTP service and web page on 127.0.0.1:8000."""
    ensure_venv()
    # Forwarded, not inherited: a supervisor's SIGTERM reaches only this process, and the server would
    # otherwise keep its port after we are gone.
    return run_forwarding_signals(str(BIN / "unjargon"), "serve", *args)


if __name__ == "__main__":
    commands = {"explain": explain, "test": test, "serve": serve}
    if len(sys.argv) < 2 or sys.argv[1] not in commands:
        sys.exit("usage: python3 tasks.py explain [ARGS] | test [PYTEST ARGS] | serve [ARGS]")
    sys.exit(commands[sys.argv[1]](sys.argv[2:]))
