"""The SQLite store: conversations, messages, tool calls, usage and the response cache, in one file.

Writes go through one writer thread per store and process (Datasette's design): callers hand it a
function and wait for the commit, and what arrives while a transaction runs is committed together
(each caller's part inside its own savepoint, so one failure never undoes another's). Threads never
queue on SQLite's lock inside a process, which under load put them to sleep in the busy handler (p99
487 ms at 16 clients) and cost a GIL round trip per statement; across processes (uvicorn --workers)
the writer's BEGIN IMMEDIATE waits on the busy timeout. Reads use a connection per thread.

A turn is *pending* while its user message has a row in pending_turns: written with the message,
deleted in the transaction that stores the answer or the failure. A process that dies mid-answer leaves
its rows behind; the next store to open on the file turns those of dead processes into failed answers
("interrupted"), so nothing stays pending once the service is back.
"""

import json
import os
import sqlite3
import threading
import time
import uuid
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

from service.store.liveness import worker_alive, worker_id
from service.store.writer import BUSY_TIMEOUT_S, LoopWrites, Write, Writer

# The schema version this code reads and writes; service/migrations.py holds one migration per step (schema.py describes them).
SCHEMA_VERSION = 4
INTERRUPTED = "interrupted: the service stopped before this answer was finished"


def now() -> str:
    """The current UTC time as ISO 8601 text (sorts correctly, readable in any SQLite tool)."""
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def _json(value) -> str | None:
    return None if value is None else json.dumps(value, ensure_ascii=False, sort_keys=True)


def _owned(owner: str | None, column: str = "owner") -> tuple[str, tuple]:
    """A WHERE fragment limiting conversations to `owner`; None (no API tokens configured) sees them all."""
    return ("", ()) if owner is None else (f" AND {column} = ?", (owner,))


def _title(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= 80 else line[:79] + "…"


def _enable_wal(conn: sqlite3.Connection) -> None:
    """Switch the file to WAL once; connections opening a new file at the same moment retry, never fail.

    Changing the journal mode needs an exclusive lock and SQLite reports "database is locked" at once,
    without its busy handler, when another connection holds any lock meanwhile (12 threads opening a
    fresh file together failed in 7 trials out of 60). A file already in WAL costs one read.
    """
    deadline = time.monotonic() + BUSY_TIMEOUT_S
    pause = 0.002
    while True:
        try:
            if conn.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
                conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(pause)
            pause = min(pause * 2, 0.05)


class Store:
    """One SQLite file; a reading connection per thread; writes through one writer thread (see the module doc)."""

    def __init__(self, path: Path | str):
        self.path = Path(path)
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        self._migrated = False
        self._writer: Writer | None = None
        self._loop_writes: LoopWrites | None = None  # the event loop's own batch of writes (the HTTP service)
        self.worker = worker_id()

    # -- connections and transactions ------------------------------------------------------

    def _open(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: the sqlite3 module opens no implicit transactions; we issue BEGIN IMMEDIATE.
        conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False)
        conn.row_factory = sqlite3.Row
        conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
        _enable_wal(conn)  # readers never block the writer; persists in the file
        conn.execute("PRAGMA synchronous = NORMAL")  # WAL + NORMAL survives application crashes
        conn.execute("PRAGMA foreign_keys = ON")
        if not self._migrated:
            self._migrate(conn)
        with self._lock:
            self._connections.append(conn)
        return conn

    def connect(self) -> sqlite3.Connection:
        """This thread's connection, opened (and the schema migrated) on first use."""
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._local.conn = self._open()
        return conn

    def _migrate(self, conn: sqlite3.Connection) -> None:
        if conn.execute("PRAGMA user_version").fetchone()[0] >= SCHEMA_VERSION:
            self._migrated = True
            return
        conn.execute("BEGIN IMMEDIATE")  # one process migrates; the others wait, then see the new version
        try:
            if conn.execute("PRAGMA user_version").fetchone()[0] < SCHEMA_VERSION:
                if conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0] == 0:
                    _create_new(conn)
                else:  # sqlite-utils is imported only here, when the file is older than this code
                    from sqlite_utils import Database

                    from service.store import migrations

                    applied = migrations.apply(Database(conn, recursive_triggers=False, execute_plugins=False))
                    conn.execute(f"PRAGMA user_version = {int(applied)}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        self._migrated = True

    def _writer_thread(self) -> Writer:
        writer = self._writer
        if writer is None or writer.pid != os.getpid() or not writer.thread.is_alive():
            with self._lock:
                writer = self._writer
                if writer is None or writer.pid != os.getpid() or not writer.thread.is_alive():
                    writer = self._writer = Writer(self)
        return writer

    def run_write(self, fn: Callable[[sqlite3.Connection], object]):
        """Run `fn(conn)` inside a write transaction on the writer thread; returns its value once committed."""
        return self._writer_thread().submit(Write(fn)).future.result()

    async def run_write_async(self, fn: Callable[[sqlite3.Connection], object]):
        """run_write for async code: committed with the other writes of this turn of the event loop (LoopWrites)."""
        import asyncio  # only the HTTP service writes from async code

        loop = asyncio.get_running_loop()
        batcher = self._loop_writes
        if batcher is None or batcher.loop is not loop or batcher.pid != os.getpid():
            with self._lock:
                batcher = self._loop_writes = LoopWrites(loop, self._open, self._writer_thread)
        return await batcher.submit(fn)

    @contextmanager
    def write(self):
        """A write transaction on this thread's own connection (BEGIN IMMEDIATE), outside the writer thread."""
        conn = self.connect()
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    def close(self) -> None:
        """Stop the writer (after what it was given) and close every connection this store opened."""
        with self._lock:
            writer, self._writer = self._writer, None
            self._loop_writes = None  # its connection is closed below with the others
        if writer is not None and writer.pid == os.getpid():
            writer.stop()
        with self._lock:
            connections, self._connections = self._connections, []
        for conn in connections:
            try:
                conn.close()
            except sqlite3.ProgrammingError:  # opened by a thread that is still using it; closed at exit
                pass
        self._local = threading.local()

    # -- turns in progress -----------------------------------------------------------------

    worker_alive = staticmethod(worker_alive)  # PostgreSQL asks the database instead (its replicas span hosts)

    def recover(self) -> int:
        """Turn the pending turns and cache leases of processes that died into failures; returns how many turns."""
        return self.run_write(self._sweep)

    def _sweep(self, conn: sqlite3.Connection) -> int:
        workers = [row[0] for row in conn.execute(
            "SELECT worker FROM pending_turns UNION SELECT worker FROM cache_leases")]
        dead = [worker for worker in workers if worker != self.worker and not self.worker_alive(worker)]
        if not dead:
            return 0
        marks = ",".join("?" * len(dead))
        stamp = now()
        rows = conn.execute(
            f"SELECT p.message_id, p.conversation_id, m.language, m.backend, m.model FROM pending_turns p"
            f" JOIN messages m ON m.id = p.message_id WHERE p.worker IN ({marks})", dead).fetchall()
        for row in rows:
            conn.execute(
                "INSERT INTO messages (conversation_id, role, content, language, backend, model, status, cached, error,"
                " created) VALUES (?, 'assistant', '', ?, ?, ?, 'failed', 0, ?, ?)",
                (row["conversation_id"], row["language"], row["backend"], row["model"], INTERRUPTED, stamp))
        conn.execute(f"DELETE FROM pending_turns WHERE worker IN ({marks})", dead)
        conn.execute(f"DELETE FROM cache_leases WHERE worker IN ({marks})", dead)
        return len(rows)

    def pending(self) -> list[dict]:
        """Turns whose answer is being produced (by this or another live process), oldest first."""
        return [dict(row) for row in self.connect().execute(
            "SELECT message_id, conversation_id, worker, started FROM pending_turns ORDER BY message_id")]

    # -- conversations and messages --------------------------------------------------------

    def new_conversation(self, title: str | None = None, language: str | None = None, owner: str | None = None) -> str:
        """Create a conversation (belonging to `owner`, an API token's digest, when given); returns its random id."""
        conversation_id = uuid.uuid4().hex  # random, so ids reveal nothing and cannot be guessed
        stamp = now()

        def insert(conn):
            _insert_conversation(conn, conversation_id, title, language, owner, stamp)
            return conversation_id

        return self.run_write(insert)

    def has_conversation(self, conversation_id: str, owner: str | None = None) -> bool:
        """Whether the conversation exists (and, when `owner` is given, belongs to it)."""
        where, params = _owned(owner)
        row = self.connect().execute(f"SELECT 1 FROM conversations WHERE id = ?{where}",
                                     (conversation_id, *params)).fetchone()
        return row is not None

    def conversations_starting(self, prefix: str, limit: int = 5, owner: str | None = None) -> list[str]:
        """Ids of conversations that start with `prefix` (people type the first few characters)."""
        prefix = prefix.strip().lower()
        where, params = _owned(owner)
        rows = self.connect().execute(
            f"SELECT id FROM conversations WHERE substr(id, 1, ?) = ?{where} ORDER BY updated DESC LIMIT ?",
            (len(prefix), prefix, *params, limit),
        ).fetchall()
        return [row["id"] for row in rows]

    def latest_conversation(self, owner: str | None = None) -> str | None:
        """The most recently used conversation (not the most recently created), or None."""
        where, params = _owned(owner)
        row = self.connect().execute(
            f"SELECT id FROM conversations WHERE 1 = 1{where} ORDER BY updated DESC, rowid DESC LIMIT 1", params,
        ).fetchone()
        return row["id"] if row else None

    def add_user_message(self, conversation_id: str, content: str, *, kind: str, language: str | None,
                         backend: str | None, model: str | None, pending: bool = False) -> int:
        """Store the reader's message (before any model is called); returns its id.

        `pending`: an answer is about to be produced; the turn stays pending until add_assistant_message
        stores it with `answers` set to this id.
        """
        stamp = now()
        worker = self.worker

        def insert(conn):
            message_id = _insert_user_message(conn, conversation_id, content, kind, language, backend, model, stamp)
            if pending:
                conn.execute("INSERT INTO pending_turns (message_id, conversation_id, worker, started) VALUES (?, ?, ?, ?)",
                             (message_id, conversation_id, worker, stamp))
            return message_id

        return self.run_write(insert)

    def add_assistant_message(self, conversation_id: str, *, content: str, language: str | None, backend: str | None,
                              model: str | None, status: str, cached: bool = False, error: str | None = None,
                              result: dict | None = None, api_messages: list | None = None,
                              tool_calls: list[dict] = (), usage: list[dict] = (), answers: int | None = None,
                              cache_key: str | None = None) -> int:
        """Store an answer (or a failure) with its tool calls and usage, in one transaction; returns its id.

        `answers`: the pending user message this answers (its turn stops being pending in the same
        transaction). `cache_key`: the answer is that response-cache row, stored by reference (content and
        result are then left NULL).
        """
        answer = {"content": content, "language": language, "backend": backend, "model": model, "status": status,
                  "cached": cached, "error": error, "result": result, "api_messages": api_messages,
                  "tool_calls": tool_calls, "usage": usage, "cache_key": cache_key}
        return self.finish_turn(conversation_id, answer, answers=answers)

    def _cached_exchange(self, text: str, language: str, backend: str, model: str | None, owner: str | None,
                         cache_key: str, answer_backend: str):
        """The write that files a new conversation holding `text` and its cached answer, and the conversation's id."""
        conversation_id = uuid.uuid4().hex
        stamp = now()

        def insert(conn):  # the conversation row already has its title and time: no UPDATEs of it
            _insert_conversation(conn, conversation_id, text, language, owner, stamp)
            conn.executemany(
                "INSERT INTO messages (conversation_id, role, kind, content, language, backend, model, status, cached,"
                " cache_key, created) VALUES (?, ?, ?, ?, ?, ?, ?, 'complete', ?, ?, ?)",
                [(conversation_id, "user", "explain", text, language, backend, model, 0, None, stamp),
                 (conversation_id, "assistant", None, None, language, answer_backend, model, 1, cache_key, stamp)])
            return conversation_id

        return insert

    async def record_cached_exchange(self, text: str, *, language: str, backend: str, model: str | None,
                                     owner: str | None, cache_key: str, answer_backend: str) -> str:
        """A new conversation holding `text` and its answer from the response cache, in one transaction; its id."""
        return await self.run_write_async(self._cached_exchange(text, language, backend, model, owner, cache_key, answer_backend))

    def record_cached_exchange_now(self, text: str, *, language: str, backend: str, model: str | None,
                                   owner: str | None, cache_key: str, answer_backend: str) -> str:
        """record_cached_exchange from synchronous code (the CLI): one transaction, one commit."""
        return self.run_write(self._cached_exchange(text, language, backend, model, owner, cache_key, answer_backend))

    def start_turn(self, conversation_id: str | None, text: str, *, kind: str, language: str | None,
                   owner: str | None, backend: str | None, model: str | None,
                   lease: tuple[str, float] | None = None) -> tuple[str, int, bool]:
        """The reader's message, pending its answer, in one transaction (with a new conversation when no id is given).

        `lease` (key, seconds): also try to become the one process asking the model for that key, in the
        same transaction. Returns (conversation id, message id, whether the lease was taken).
        """
        new_id = uuid.uuid4().hex if conversation_id is None else None
        stamp = now()
        worker = self.worker

        def insert(conn):
            target = conversation_id
            if new_id is not None:
                target = new_id
                _insert_conversation(conn, target, text, language, owner, stamp)
            message_id = _insert_user_message(conn, target, text, kind, language, backend, model, stamp)
            conn.execute("INSERT INTO pending_turns (message_id, conversation_id, worker, started) VALUES (?, ?, ?, ?)",
                         (message_id, target, worker, stamp))
            leased = lease is not None and _take_lease(conn, lease[0], worker, lease[1])
            return target, message_id, leased

        return self.run_write(insert)

    def finish_turn(self, conversation_id: str, answer: dict, *, answers: int | None = None,
                    cache_row: dict | None = None, release_lease: str | None = None) -> int:
        """An answer (or failure) and what goes with it, in one transaction; returns the answer's message id.

        `answer`: the fields add_assistant_message takes. `answers`: the pending user message this answers.
        `cache_row` (key, request, result, backend, model): the response-cache row the answer came with (the
        first one stored for a key stays), which ends every lease on the key. `release_lease`: a key whose
        lease this process gives up, if it holds it (a failure, or an answer that is not cached).
        """
        rows = _answer_rows(**answer)
        request_json, result_json = (_json(cache_row["request"]), _json(cache_row["result"])) if cache_row else (None, None)
        stamp = now()
        worker = self.worker

        def insert(conn):
            if cache_row is not None:
                _insert_cache_row(conn, cache_row["key"], request_json, result_json, cache_row["backend"],
                                  cache_row["model"], stamp)
            message_id = _insert_answer(conn, conversation_id, rows, stamp)
            if answers is not None:
                conn.execute("DELETE FROM pending_turns WHERE message_id = ?", (answers,))
            if release_lease is not None:
                conn.execute("DELETE FROM cache_leases WHERE key = ? AND worker = ?", (release_lease, worker))
            return message_id

        return self.run_write(insert)

    def exchanges(self, conversation_id: str) -> list[dict]:
        """Past exchanges that got an answer, oldest first: kind, user text, answer text and API turns."""
        rows = self.connect().execute(
            "SELECT m.role, m.kind, COALESCE(m.content, json_extract(c.result, '$.explanation')) AS content, m.status,"
            " m.api_messages FROM messages m LEFT JOIN response_cache c ON c.key = m.cache_key"
            " WHERE m.conversation_id = ? ORDER BY m.id",
            (conversation_id,),
        ).fetchall()
        exchanges, pending = [], None
        for row in rows:
            if row["role"] == "user":
                pending = row
            elif pending is not None:
                # A failed answer said nothing; the question is left out rather than sent unanswered.
                if row["status"] != "failed":
                    exchanges.append({
                        "kind": pending["kind"] or "explain",
                        "user": pending["content"],
                        "answer": row["content"] or "",
                        "api_messages": json.loads(row["api_messages"]) if row["api_messages"] else None,
                    })
                pending = None
        return exchanges

    def conversation(self, conversation_id: str, owner: str | None = None) -> dict | None:
        """A conversation with its messages (results decoded), or None (also when it belongs to another owner)."""
        conn = self.connect()
        where, params = _owned(owner)
        head = conn.execute(f"SELECT * FROM conversations WHERE id = ?{where}", (conversation_id, *params)).fetchone()
        if head is None:
            return None
        messages = []
        for row in conn.execute(
            "SELECT m.id, m.role, m.kind, COALESCE(m.content, json_extract(c.result, '$.explanation')) AS content,"
            " m.language, m.backend, m.model, m.status, m.cached, m.error, COALESCE(m.result, c.result) AS result,"
            " m.created FROM messages m LEFT JOIN response_cache c ON c.key = m.cache_key"
            " WHERE m.conversation_id = ? ORDER BY m.id", (conversation_id,),
        ):
            item = dict(row)
            item["cached"] = bool(item["cached"])
            item["result"] = json.loads(item["result"]) if item["result"] else None
            if item["result"] is not None and item["cached"]:
                item["result"]["cached"] = True  # a cache row holds the answer as first made
            messages.append(item)
        head = {key: value for key, value in dict(head).items() if key != "owner"}  # a token digest stays inside
        return {**head, "messages": messages}

    def recent(self, limit: int = 20, owner: str | None = None) -> list[dict]:
        """The most recently used conversations (of `owner`, when given), with message counts, tokens and cost."""
        where, params = _owned(owner, "c.owner")
        rows = self.connect().execute(
            f"""
            SELECT c.id, c.title, c.language, c.created, c.updated,
                   (SELECT COUNT(*) FROM messages m WHERE m.conversation_id = c.id AND m.role = 'user') AS turns,
                   (SELECT m.backend FROM messages m WHERE m.conversation_id = c.id AND m.role = 'assistant'
                     ORDER BY m.id DESC LIMIT 1) AS backend,
                   (SELECT m.status FROM messages m WHERE m.conversation_id = c.id AND m.role = 'assistant'
                     ORDER BY m.id DESC LIMIT 1) AS status,
                   (SELECT SUM(u.input_tokens + u.cache_read_tokens + u.cache_write_tokens) FROM usage u
                     WHERE u.conversation_id = c.id) AS input_tokens,
                   (SELECT SUM(u.output_tokens) FROM usage u WHERE u.conversation_id = c.id) AS output_tokens,
                   (SELECT SUM(u.cost_usd) FROM usage u WHERE u.conversation_id = c.id) AS cost_usd
            FROM conversations c WHERE 1 = 1{where} ORDER BY c.updated DESC, c.rowid DESC LIMIT ?
            """,
            (*params, int(limit)),
        ).fetchall()
        return [dict(row) for row in rows]

    # -- response cache --------------------------------------------------------------------

    def cache_text(self, key: str) -> str | None:
        """The cached explanation object for `key` as its JSON text, or None."""
        row = self.connect().execute("SELECT result FROM response_cache WHERE key = ?", (key,)).fetchone()
        return row["result"] if row else None

    def cache_get(self, key: str) -> dict | None:
        """The cached explanation object for `key`, or None."""
        text = self.cache_text(key)
        return json.loads(text) if text is not None else None

    def cache_put(self, key: str, request: dict, result: dict, *, backend: str, model: str | None) -> None:
        """Remember a complete explanation for `key` (the caller decides what is complete), and end its lease.

        The first answer stored for a key stays: messages refer to cache rows, so a row never changes.
        """
        stamp = now()
        request_json, result_json = _json(request), _json(result)

        self.run_write(lambda conn: _insert_cache_row(conn, key, request_json, result_json, backend, model, stamp))

    def take_lease(self, key: str, seconds: float) -> bool:
        """Become the one process asking the model for `key` for `seconds` (unless another holds a live lease)."""
        worker, moment = self.worker, time.time()
        return self.run_write(lambda conn: _take_lease(conn, key, worker, seconds, moment))

    def release_lease(self, key: str) -> None:
        """Give up this process's lease on `key` (the model failed, or its answer is not cacheable)."""
        worker = self.worker
        self.run_write(lambda conn: conn.execute("DELETE FROM cache_leases WHERE key = ? AND worker = ?", (key, worker)))


def _insert_conversation(conn, conversation_id: str, title: str | None, language: str | None, owner: str | None,
                         stamp: str) -> None:
    conn.execute(
        "INSERT INTO conversations (id, title, language, created, updated, owner) VALUES (?, ?, ?, ?, ?, ?)",
        (conversation_id, _title(title) if title else None, language, stamp, stamp, owner),
    )


def _insert_user_message(conn, conversation_id: str, content: str, kind: str, language: str | None,
                         backend: str | None, model: str | None, stamp: str) -> int:
    cursor = conn.execute(
        "INSERT INTO messages (conversation_id, role, kind, content, language, backend, model, status, created)"
        " VALUES (?, 'user', ?, ?, ?, ?, ?, 'complete', ?)",
        (conversation_id, kind, content, language, backend, model, stamp),
    )
    conn.execute("UPDATE conversations SET updated = ?, title = COALESCE(title, ?) WHERE id = ?",
                 (stamp, _title(content), conversation_id))
    return cursor.lastrowid


def _create_new(conn: sqlite3.Connection) -> None:
    """A new file gets the schema the migrations end with in one go, as Rails loads schema.rb, and the steps
    are recorded as applied: running each through sqlite-utils cost a first `unjargon explain` 80-140 ms."""
    from service.store.schema import STEPS

    script = Path(__file__).with_name("new_database.sql").read_text(encoding="utf-8")
    script = "\n".join(line for line in script.splitlines() if not line.startswith("--"))
    for statement in script.split(";\n\n"):  # one by one: executescript would commit the open transaction
        if statement.strip():
            conn.execute(statement)
    applied_at = str(datetime.now(timezone.utc))  # sqlite-utils' own format
    conn.executemany("INSERT INTO _sqlite_migrations (migration_set, name, applied_at) VALUES ('unjargon', ?, ?)",
                     [(step.name, applied_at) for step in STEPS])
    conn.execute(f"PRAGMA user_version = {len(STEPS)}")


def _take_lease(conn, key: str, worker: str, seconds: float, moment: float | None = None) -> bool:
    """Hold `key`'s lease for `seconds` unless another worker holds a live one; whether it is held now."""
    moment = time.time() if moment is None else moment
    cursor = conn.execute(
        "INSERT INTO cache_leases (key, worker, expires) VALUES (?, ?, ?)"
        " ON CONFLICT(key) DO UPDATE SET worker = excluded.worker, expires = excluded.expires"
        " WHERE cache_leases.expires < ? OR cache_leases.worker = excluded.worker",
        (key, worker, moment + seconds, moment))
    return cursor.rowcount == 1


def _insert_cache_row(conn, key: str, request_json: str | None, result_json: str | None, backend: str,
                      model: str | None, stamp: str) -> None:
    """A response-cache row (the first one for a key stays: messages refer to it), ending every lease on the key."""
    conn.execute(
        "INSERT INTO response_cache (key, request, result, backend, model, created) VALUES (?, ?, ?, ?, ?, ?)"
        " ON CONFLICT(key) DO NOTHING",
        (key, request_json, result_json, backend, model, stamp),
    )
    conn.execute("DELETE FROM cache_leases WHERE key = ?", (key,))


def _answer_rows(*, content: str | None, language: str | None, backend: str | None, model: str | None, status: str,
                 cached: bool = False, error: str | None = None, result: dict | None = None,
                 api_messages: list | None = None, tool_calls=(), usage=(), cache_key: str | None = None) -> dict:
    """An answer's fields ready to insert (JSON encoded outside the writer's transaction)."""
    if cache_key is not None:  # stored by reference to its cache row
        content, result = None, None
    return {"content": content, "language": language, "backend": backend, "model": model, "status": status,
            "cached": cached, "error": error, "result_json": _json(result), "api_json": _json(api_messages),
            "cache_key": cache_key, "tool_calls": list(tool_calls), "usage": list(usage)}


def _insert_answer(conn, conversation_id: str, rows: dict, stamp: str) -> int:
    """The assistant message with its tool calls and usage rows; its id."""
    message_id = _insert_assistant_message(conn, conversation_id, rows["content"], rows["language"], rows["backend"],
                                           rows["model"], rows["status"], rows["cached"], rows["error"],
                                           rows["result_json"], rows["api_json"], rows["cache_key"], stamp)
    conn.executemany(
        "INSERT INTO tool_calls (message_id, conversation_id, tool_use_id, name, input, result, is_error, created)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [(message_id, conversation_id, call["id"], call["name"], _json(call["input"]),
          _json(call["result"]) if call.get("result") is not None else call.get("content"),
          int(call["is_error"]), stamp) for call in rows["tool_calls"]],
    )
    conn.executemany(
        "INSERT INTO usage (message_id, conversation_id, model, input_tokens, output_tokens, cache_read_tokens,"
        " cache_write_tokens, cache_write_1h_tokens, cost_usd, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(message_id, conversation_id, item.get("model"), item.get("input_tokens", 0), item.get("output_tokens", 0),
          item.get("cache_read_tokens", 0), item.get("cache_write_tokens", 0),
          item.get("cache_write_1h_tokens", 0), item.get("cost_usd"), stamp) for item in rows["usage"]],
    )
    return message_id


def _insert_assistant_message(conn, conversation_id: str, content: str | None, language: str | None,
                              backend: str | None, model: str | None, status: str, cached: bool, error: str | None,
                              result_json: str | None, api_json: str | None, cache_key: str | None, stamp: str) -> int:
    cursor = conn.execute(
        "INSERT INTO messages (conversation_id, role, content, language, backend, model, status, cached, error,"
        " result, api_messages, cache_key, created) VALUES (?, 'assistant', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (conversation_id, content, language, backend, model, status, int(cached), error, result_json, api_json,
         cache_key, stamp),
    )
    conn.execute("UPDATE conversations SET updated = ? WHERE id = ?", (stamp, conversation_id))
    return cursor.lastrowid
