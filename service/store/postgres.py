"""The PostgreSQL store (UNJARGON_DATABASE_URL): the SQLite store's tables and queries, shared by many replicas.

The Store's methods run unchanged on a thin dialect layer: `?` becomes `%s`, json_extract becomes `->>`,
rowid becomes the id, and inserts into tables with an identity column return it (cursor.lastrowid).
Connections come from a psycopg pool (autocommit; each write is one transaction). Where the two
databases must differ:

- liveness: each process holds a session-level advisory lock named after its worker id on a connection of
  its own, so any replica on any host can tell whether the process that left a pending turn or a cache
  lease is still running (a killed replica's connection closes and its lock goes with it);
- migrations run under a transaction-level advisory lock, so replicas started together against an empty
  database create the tables once, and PostgreSQL's DDL is transactional;
- rate limits count requests in rate_hits under a per-caller advisory lock, shared by every replica.

A database that cannot be reached raises StoreUnavailable (HTTP 503), and the pool reconnects once it is back.
"""

import asyncio
import hashlib
import os
import re
import threading
import time
from contextlib import contextmanager
from decimal import Decimal
from functools import lru_cache
from urllib.parse import urlsplit, urlunsplit

import psycopg
from psycopg_pool import ConnectionPool

from service.failures import StoreUnavailable
from service.store import schema
from service.store.liveness import worker_id
from service.store.sqlite import Store, now

POOL_MAX = 10  # connections per process; uvicorn's thread pool queues on these
POOL_WAIT_S = 3.0  # how long a request waits for a connection before answering 503
CONNECT_TIMEOUT_S = 5
LIVENESS_CHECK_S = 2.0  # how often this process makes sure it still holds its liveness lock
MIGRATIONS_TABLE = "_unjargon_migrations"


def normalise_url(url: str) -> str:
    """A URL libpq accepts (SQLAlchemy's postgresql+psycopg:// spelling is common in deployments)."""
    return re.sub(r"^postgresql\+psycopg2?://", "postgresql://", url.strip())


def redact_url(url: str) -> str:
    """The URL without its password, fit for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=f"{parts.username or ''}:***@{host}"))


def failure_line(exc: BaseException, url: str) -> str:
    """One line saying why the database could not be used, with no password in it."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    text = lines[0].removeprefix("connection failed: ") if lines else type(exc).__name__
    password = urlsplit(url).password
    return text.replace(password, "***") if password and len(password) >= 3 else text


def advisory_key(kind: str, name: str) -> int:
    """A signed 64-bit advisory lock key for `name` (unjargon's keys are hashed apart from anyone else's)."""
    return int.from_bytes(hashlib.sha256(f"unjargon:{kind}:{name}".encode()).digest()[:8], "big", signed=True)


# ---- the dialect layer -------------------------------------------------------------------------

_JSON_FIELD = re.compile(r"json_extract\(([\w.]+), '\$\.(\w+)'\)")
_ROWID = re.compile(r"\b(\w+\.)?rowid\b")
_RETURNS_ID = re.compile(r"^\s*INSERT INTO (messages|tool_calls|usage)\b(?!.*\bRETURNING\b)", re.S)


@lru_cache(maxsize=256)
def translate(sql: str) -> str:
    """SQLite's spelling of a query as PostgreSQL's (the Store's queries use only these differences)."""
    sql = _JSON_FIELD.sub(r"(\1::jsonb ->> '\2')", sql)
    sql = _ROWID.sub(r"\1id", sql)
    sql = sql.replace("%", "%%").replace("?", "%s")
    if _RETURNS_ID.match(sql):
        sql += " RETURNING id"
    return sql


class Row(dict):
    """A row readable by name (row["id"], dict(row)) and by position (row[0]), as sqlite3.Row is."""

    __slots__ = ("values",)

    def __getitem__(self, key):
        return self.values[key] if isinstance(key, int) else dict.__getitem__(self, key)

    def __iter__(self):  # unpacking gives the values, as with sqlite3.Row; dict(row) still uses keys()
        return iter(self.values)


def _plain(value):
    # SUM() of integers is numeric in PostgreSQL; JSON and the callers expect numbers, as SQLite gives.
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


def row_factory(cursor):
    names = [column.name for column in cursor.description or ()]

    def make(values):
        values = tuple(_plain(value) for value in values)
        row = Row(zip(names, values))
        row.values = values
        return row

    return make


class Cursor:
    """A finished statement's rows, rowcount and lastrowid (rows are read at once: the connection goes back)."""

    def __init__(self, rows: list, rowcount: int = -1, lastrowid: int | None = None):
        self.rows, self.rowcount, self.lastrowid = rows, rowcount, lastrowid

    def fetchone(self):
        return self.rows[0] if self.rows else None

    def fetchall(self) -> list:
        return list(self.rows)

    def __iter__(self):
        return iter(self.rows)


class Connection:
    """What the Store's functions call on a connection (execute, executemany), on a psycopg connection."""

    def __init__(self, conn: psycopg.Connection):
        self.conn = conn

    def execute(self, sql: str, params=()) -> Cursor:
        statement = translate(sql)
        cursor = self.conn.execute(statement, tuple(params))
        rows = cursor.fetchall() if cursor.description else []
        lastrowid = rows[0][0] if rows and statement.endswith(" RETURNING id") else None
        return Cursor(rows, cursor.rowcount, lastrowid)

    def executemany(self, sql: str, seq) -> Cursor:
        seq = [tuple(params) for params in seq]
        if not seq:
            return Cursor([], 0)
        statement = translate(sql).removesuffix(" RETURNING id")
        with self.conn.cursor() as cursor:
            cursor.executemany(statement, seq)
            return Cursor([], cursor.rowcount)


class Reader:
    """Store.connect() for reads: each statement borrows a pooled connection and gives it back with the rows."""

    def __init__(self, store: "PostgresStore"):
        self.store = store

    def execute(self, sql: str, params=()) -> Cursor:
        return self.store.run_read(lambda conn: conn.execute(sql, params))


# ---- the store ---------------------------------------------------------------------------------


class PostgresStore(Store):
    """The Store on PostgreSQL: same methods and rows; a pool instead of the writer thread (see the module doc)."""

    dialect = "postgresql"

    def __init__(self, url: str, pool_max: int = POOL_MAX):
        self.url = normalise_url(url)
        self.path = redact_url(self.url)  # names this store in messages and in the engine's memory of hits
        self.pool_max = pool_max
        self.worker = worker_id()
        self._lock = threading.Lock()
        self._pool: ConnectionPool | None = None
        self._pid: int | None = None
        self._migrated = False
        self._life: psycopg.Connection | None = None
        self._life_checked = 0.0
        self._life_pid: int | None = None

    # -- connections and transactions ------------------------------------------------------

    def _connect_direct(self) -> psycopg.Connection:
        return psycopg.connect(self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S, row_factory=row_factory)

    def _get_pool(self) -> ConnectionPool:
        pool = self._pool
        if pool is not None and self._pid == os.getpid():
            return pool
        with self._lock:
            if self._pool is None or self._pid != os.getpid():  # a forked child opens its own
                self._pool = ConnectionPool(
                    self.url, min_size=1, max_size=self.pool_max, timeout=POOL_WAIT_S, open=False, name="unjargon",
                    kwargs={"autocommit": True, "connect_timeout": CONNECT_TIMEOUT_S, "row_factory": row_factory},
                    # A connection the server dropped (a restart) is replaced before use, not handed out.
                    check=ConnectionPool.check_connection)
                self._pool.open(wait=False)
                self._pid = os.getpid()
            return self._pool

    def _guarded(self, fn, write: bool):
        try:
            if not self._migrated:
                self.migrate()
            if write:
                self._hold_liveness()
            with self._get_pool().connection() as conn:
                if not write:
                    return fn(Connection(conn))
                with conn.transaction():
                    return fn(Connection(conn))
        except psycopg.OperationalError as exc:  # includes the pool's timeout: the database is not there
            raise StoreUnavailable(f"the database is unavailable ({failure_line(exc, self.url)}); "
                                   "try again shortly") from exc

    def run_read(self, fn):
        return self._guarded(fn, write=False)

    def connect(self) -> Reader:
        """Reads: each statement on a pooled connection (never held between statements)."""
        return Reader(self)

    def run_write(self, fn):
        """Run `fn(conn)` in one transaction on a pooled connection; its value once committed."""
        return self._guarded(fn, write=True)

    async def run_write_async(self, fn):
        return await asyncio.get_running_loop().run_in_executor(None, self.run_write, fn)

    @contextmanager
    def write(self):
        """A write transaction on a pooled connection (tests use it to plant rows)."""
        if not self._migrated:
            self.migrate()
        with self._get_pool().connection() as conn, conn.transaction():
            yield Connection(conn)

    def close(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
            life, self._life = self._life, None
        for resource in (life, pool):
            if resource is not None and os.getpid() in (self._pid, self._life_pid):
                try:
                    resource.close()
                except Exception:  # closing after the database went away: nothing left to release
                    pass

    # -- schema ----------------------------------------------------------------------------

    def migrate(self) -> int:
        """Bring the database to the current schema (once, however many replicas start together); the version."""
        with self._connect_direct() as conn:
            version = migrate_connection(conn)
        self._migrated = True
        return version

    def check(self) -> int:
        """At start-up: the database answers and has the current schema; StoreUnavailable with one line if not."""
        try:
            return self.migrate()
        except psycopg.Error as exc:
            raise StoreUnavailable(f"cannot use the database at {self.path}: {failure_line(exc, self.url)}") from exc

    # -- liveness across hosts -------------------------------------------------------------

    def _hold_liveness(self) -> None:
        """Make sure this process holds its liveness lock (again, after the database restarted)."""
        life = self._life
        if life is not None and self._life_pid == os.getpid() and time.monotonic() - self._life_checked < LIVENESS_CHECK_S:
            return
        with self._lock:
            life = self._life if self._life_pid == os.getpid() else None  # a forked child holds its own
            if life is not None and not life.closed:
                try:
                    life.execute("SELECT 1")
                    self._life_checked = time.monotonic()
                    return
                except psycopg.Error:
                    life.close()
            life = self._connect_direct()
            # A try: another store of this process (same worker id) may hold it already, which says the same.
            life.execute("SELECT pg_try_advisory_lock(%s)", (advisory_key("worker", self.worker),))
            self._life, self._life_pid, self._life_checked = life, os.getpid(), time.monotonic()

    def worker_alive(self, worker: str) -> bool:
        """Whether the process a worker id names still holds its liveness lock on this database."""
        if worker == self.worker:
            return True
        key = advisory_key("worker", worker) & 0xFFFFFFFFFFFFFFFF
        row = self.connect().execute(
            "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 1"
            " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
            " AND classid = ?::bigint::oid AND objid = ?::bigint::oid)", (key >> 32, key & 0xFFFFFFFF)).fetchone()
        return bool(row[0])

    def _sweep(self, conn) -> int:
        # Replicas starting together must not both turn the same pending turn into a failure.
        conn.execute("SELECT pg_advisory_xact_lock(?)", (advisory_key("lock", "sweep"),))
        return super()._sweep(conn)

    def take_lease(self, key: str, seconds: float) -> bool:
        """Store.take_lease, and a lease whose holder died (its replica was killed) is taken over at once."""
        if super().take_lease(key, seconds):
            return True
        row = self.connect().execute("SELECT worker FROM cache_leases WHERE key = ?", (key,)).fetchone()
        if row is not None:
            if self.worker_alive(row["worker"]):
                return False
            self.run_write(lambda conn: conn.execute("DELETE FROM cache_leases WHERE key = ? AND worker = ?",
                                                     (key, row["worker"])))
        return super().take_lease(key, seconds)

    # -- rate limits shared by replicas ----------------------------------------------------

    def rate_check(self, caller: str, limit: int, moment: float | None = None) -> float:
        """0 when `caller` may make another request this minute (and it is counted); else seconds to wait."""
        moment = time.time() if moment is None else moment

        def check(conn):
            conn.execute("SELECT pg_advisory_xact_lock(?)", (advisory_key("rate", caller),))
            conn.execute("DELETE FROM rate_hits WHERE caller = ? AND at <= ?", (caller, moment - 60.0))
            count, first = conn.execute("SELECT COUNT(*), MIN(at) FROM rate_hits WHERE caller = ?", (caller,)).fetchone()
            if count >= limit:
                return max(first + 60.0 - moment, 0.001)
            conn.execute("INSERT INTO rate_hits (caller, at) VALUES (?, ?)", (caller, moment))
            return 0.0

        return self.run_write(check)


def migrate_connection(conn: psycopg.Connection) -> int:
    """Apply schema.STEPS not yet recorded, under an advisory lock, in one transaction; how many are applied."""
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (advisory_key("lock", "migrations"),))
        conn.execute(f'CREATE TABLE IF NOT EXISTS "{MIGRATIONS_TABLE}" (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)')
        done = {row[0] for row in conn.execute(f'SELECT name FROM "{MIGRATIONS_TABLE}"')}
        for step in schema.STEPS:
            if step.name in done:
                continue
            for operation in step.operations:
                for statement in schema.postgres_ddl(operation):
                    conn.execute(statement)
            conn.execute(f'INSERT INTO "{MIGRATIONS_TABLE}" (name, applied_at) VALUES (%s, %s)', (step.name, now()))
        return len(schema.STEPS)
