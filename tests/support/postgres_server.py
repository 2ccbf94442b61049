"""A real PostgreSQL server for the test suite, started by the suite itself: no manual set-up.

The server binaries come from `pg_config --bindir` or /usr/lib/postgresql/*/bin (Debian's `postgresql`;
installed with apt-get when missing and this runs as root on a machine that has apt). initdb runs in a
temporary folder, the server listens on a free loopback port with no Unix socket and no fsync, and the
tests connect as a non-superuser role that owns its database. initdb and postgres refuse to run as
root, so as root they run as `postgres` (or `nobody`). Without binaries, tests that need one skip with
the reason.
"""

import atexit
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

import pytest

ROLE = "unjargon"
ROLE_PASSWORD = "unjargon-test-password"
SUPER_PASSWORD = "postgres-test-password"


def _bindir_of(path: str | None) -> Path | None:
    return Path(path) if path and (Path(path) / "initdb").is_file() and (Path(path) / "postgres").is_file() else None


def find_bindir() -> Path | None:
    """The folder holding initdb and postgres, or None."""
    pg_config = shutil.which("pg_config")
    if pg_config:
        try:
            found = _bindir_of(subprocess.run([pg_config, "--bindir"], capture_output=True, text=True,
                                              timeout=10).stdout.strip())
            if found:
                return found
        except (OSError, subprocess.SubprocessError):
            pass
    # Debian's server binaries live outside PATH; the newest version wins.
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(p.split("/")[-2] or 0)
                        if p.split("/")[-2].isdigit() else 0, reverse=True)
    for candidate in candidates + [os.path.dirname(shutil.which("initdb") or "")]:
        found = _bindir_of(candidate)
        if found:
            return found
    return None


def ensure_bindir() -> tuple[Path | None, str]:
    """The server's folder, installing Debian's postgresql when missing and allowed; else None and why."""
    found = find_bindir()
    if found:
        return found, ""
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        return None, "no PostgreSQL server binaries (pg_config --bindir, /usr/lib/postgresql/*/bin) and no root apt-get"
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for command in (["apt-get", "install", "-y", "-qq", "postgresql"],
                    ["sh", "-c", "apt-get update -qq && apt-get install -y -qq postgresql"]):
        try:
            subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=600)
        except (OSError, subprocess.SubprocessError):
            continue
        found = find_bindir()
        if found:
            return found, ""
    return None, "PostgreSQL server binaries not found and `apt-get install postgresql` did not provide them"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _server_user() -> pwd.struct_passwd | None:
    """Whom initdb and postgres run as: None (ourselves) unless we are root, who may not run them."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            return pwd.getpwnam(name)
        except KeyError:
            continue
    raise RuntimeError("running as root and neither a `postgres` nor a `nobody` user exists to run PostgreSQL")


try:  # looked up here: the child between fork and exec should run as little Python as possible
    import ctypes

    _prctl = ctypes.CDLL(None, use_errno=True).prctl
except (ImportError, OSError, AttributeError):
    _prctl = None


def _die_with_parent() -> None:
    """In the server's child process: a fast shutdown if the test run dies without stopping it."""
    if _prctl is not None:
        _prctl(1, signal.SIGINT)  # PR_SET_PDEATHSIG


class PostgresServer:
    """One throw-away PostgreSQL cluster: start(), url(), create_database(), stop(); restartable on the same port."""

    def __init__(self, bindir: Path):
        self.bindir = bindir
        self.user = _server_user()
        # Not under pytest's tmp folders: /tmp/pytest-of-root is 0700, and the server user must traverse the path.
        self.root = Path(tempfile.mkdtemp(prefix="unjargon-pg-"))
        os.chmod(self.root, 0o755)
        self.data = self.root / "data"
        self.port = _free_port()
        self.process: subprocess.Popen | None = None
        self.log_path = self.root / "server.log"
        self._initdb()

    def _run_as(self) -> dict:
        if self.user is None:
            return {}
        return {"user": self.user.pw_uid, "group": self.user.pw_gid, "extra_groups": []}

    def _initdb(self) -> None:
        self.data.mkdir(mode=0o700)
        pwfile = self.root / "pwfile"
        pwfile.write_text(SUPER_PASSWORD + "\n")
        if self.user is not None:
            os.chown(self.data, self.user.pw_uid, self.user.pw_gid)
            os.chown(pwfile, self.user.pw_uid, self.user.pw_gid)
        command = [str(self.bindir / "initdb"), "-D", str(self.data), "--no-sync", "--locale=C", "-E", "UTF8",
                   "-U", "postgres", f"--pwfile={pwfile}", "--auth-host=scram-sha-256", "--auth-local=trust"]
        done = subprocess.run(command, capture_output=True, text=True, cwd=self.root, timeout=120, **self._run_as())
        pwfile.unlink()
        if done.returncode != 0:
            raise RuntimeError(f"initdb failed: {done.stderr.strip()[-1500:]}")

    def start(self, timeout_s: float = 30) -> "PostgresServer":
        """Start the server (again, after stop(), on the same port and data) and wait until it answers."""
        log = open(self.log_path, "ab")
        if self.user is not None:
            os.chown(self.log_path, self.user.pw_uid, self.user.pw_gid)
        command = [str(self.bindir / "postgres"), "-D", str(self.data), "-p", str(self.port),
                   "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", "-c", "fsync=off",
                   "-c", "synchronous_commit=off", "-c", "full_page_writes=off", "-c", "max_connections=300",
                   "-c", "shared_buffers=32MB", "-c", "dynamic_shared_memory_type=mmap"]
        self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                        cwd=self.root, start_new_session=True, preexec_fn=_die_with_parent,
                                        **self._run_as())
        log.close()
        deadline = time.monotonic() + timeout_s
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"postgres exited at start:\n{self.log_text()[-2000:]}")
            try:
                self.admin("SELECT 1")
                return self
            except Exception:
                if time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"postgres did not answer in {timeout_s} s:\n{self.log_text()[-2000:]}")
                time.sleep(0.05)

    def stop(self, timeout_s: float = 15) -> None:
        """A fast shutdown (SIGINT: clients are disconnected), then SIGKILL if it lingers."""
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout_s)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(10)

    def destroy(self) -> None:
        """Stop the server and remove its folder."""
        self.stop()
        shutil.rmtree(self.root, ignore_errors=True)

    def log_text(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def admin_url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres:{SUPER_PASSWORD}@127.0.0.1:{self.port}/{database}"

    def url(self, database: str) -> str:
        """The URL the code under test uses: a non-superuser role that owns `database`."""
        return f"postgresql://{ROLE}:{ROLE_PASSWORD}@127.0.0.1:{self.port}/{database}"

    def admin(self, sql: str, params: tuple = ()) -> list[tuple]:
        """Run one statement as the superuser (autocommit: CREATE DATABASE needs it); its rows."""
        import psycopg

        with psycopg.connect(self.admin_url(), autocommit=True, connect_timeout=5) as conn:
            cursor = conn.execute(sql, params)
            return cursor.fetchall() if cursor.description else []

    def ensure_role(self) -> None:
        if not self.admin("SELECT 1 FROM pg_roles WHERE rolname = %s", (ROLE,)):
            self.admin(f"CREATE ROLE {ROLE} LOGIN PASSWORD '{ROLE_PASSWORD}' NOSUPERUSER NOCREATEDB NOCREATEROLE")

    def create_database(self, name: str | None = None) -> str:
        """A new empty database owned by the test role; its URL."""
        name = name or "t_" + uuid.uuid4().hex[:12]
        self.ensure_role()
        self.admin(f'CREATE DATABASE "{name}" OWNER {ROLE}')
        return self.url(name)

    def drop_database(self, name: str) -> None:
        self.admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def start_server() -> PostgresServer:
    """A started server (the caller stops it), or pytest.skip with the reason none can be had."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        pytest.skip("psycopg is not installed (pip install 'psycopg[binary]')")
    bindir, why = ensure_bindir()
    if bindir is None:
        pytest.skip(why)
    server = PostgresServer(bindir)
    atexit.register(server.destroy)  # a run that ends without the fixture's finaliser still stops it
    try:
        for attempt in range(3):  # the free port may be taken between the probe and the bind
            try:
                return server.start()
            except RuntimeError:
                if attempt == 2 or "could not bind" not in server.log_text():
                    raise
                server.port = _free_port()
    except BaseException:
        server.destroy()
        raise
    return server


@pytest.fixture(scope="session")
def postgres_server():
    """The session's PostgreSQL server (started on first use, stopped at the end even after failures)."""
    server = start_server()
    try:
        server.ensure_role()
        yield server
    finally:
        server.destroy()


@pytest.fixture(scope="session")
def postgres_url(postgres_server) -> str:
    """A database shared by the whole session (tests that need a clean one use postgres_database)."""
    return postgres_server.create_database("unjargon_session")


@pytest.fixture
def postgres_database(postgres_server) -> str:
    """A fresh, empty database owned by the test role, dropped after the test; its URL."""
    name = "t_" + uuid.uuid4().hex[:12]
    url = postgres_server.create_database(name)
    yield url
    try:
        postgres_server.drop_database(name)
    except Exception:  # the server may be down on purpose; the session's end removes everything anyway
        pass
