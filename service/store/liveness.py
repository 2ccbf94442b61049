"""Which process this is, and whether another still runs: for pending turns and cache leases across workers."""

import os


def _host() -> str:
    """This machine's name (os.uname on POSIX: the socket module costs the CLI's start-up 3 ms)."""
    if hasattr(os, "uname"):
        return os.uname().nodename
    import socket

    return socket.gethostname()


def _process_stat(pid: int) -> tuple[str, str] | None:
    """A process's state letter and start time (clock ticks since boot) from /proc (Linux), or None."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            fields = handle.read().rsplit(b")", 1)[1].split()
        return fields[0].decode(), fields[19].decode()
    except (OSError, IndexError):
        return None


def worker_id() -> str:
    """This process, as pending turns and cache leases name it: host:pid:start (a reused pid is not taken for it)."""
    pid = os.getpid()
    stat = _process_stat(pid)
    return f"{_host()}:{pid}:{stat[1] if stat else 0}"


def worker_alive(worker: str) -> bool:
    """Whether the process a worker id names still runs (a process on another host counts as alive)."""
    host, _, rest = worker.partition(":")
    pid_text, _, start = rest.partition(":")
    if host != _host() or not pid_text.isdigit():
        return True
    pid = int(pid_text)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # it exists, under another user
        pass
    stat = _process_stat(pid)
    if stat is None:  # no /proc: the signal said it exists
        return True
    state, started = stat
    # A killed process whose parent has not reaped it yet is a zombie: it runs nothing any more.
    return state not in ("Z", "X") and start in ("", "0", started)
