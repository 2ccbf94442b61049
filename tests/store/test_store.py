"""The SQLite store: migrations, WAL, concurrent writers, BEGIN IMMEDIATE, and what the cache keeps (issue 4)."""

import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from service.store import migrations, sqlite as store_module
from service.store.sqlite import SCHEMA_VERSION, Store

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def store(tmp_path):
    opened = Store(tmp_path / "unjargon.db")
    yield opened
    opened.close()


def test_a_new_file_is_migrated_to_the_current_schema(store):
    conn = store.connect()
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == len(migrations.migrations._migrations)
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"conversations", "messages", "tool_calls", "usage", "response_cache", "pending_turns", "cache_leases",
            "rate_hits", "_sqlite_migrations"} <= tables
    applied = conn.execute("SELECT name FROM _sqlite_migrations WHERE migration_set = 'unjargon'").fetchall()
    assert [row[0] for row in applied] == ["m001_initial", "m002_conversation_owner",
                                           "m003_pending_turns_and_cache_references", "m004_rate_hits"]


def test_an_older_file_is_brought_up_to_date_and_keeps_its_rows(tmp_path):
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (text TEXT)")  # a file from before the first migration
    conn.execute("INSERT INTO notes VALUES ('kept')")
    conn.commit()
    conn.close()
    opened = Store(path)
    try:
        assert opened.connect().execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert opened.connect().execute("SELECT text FROM notes").fetchall()[0][0] == "kept"
        opened.new_conversation("works")
    finally:
        opened.close()
    again = Store(path)  # opening a current file runs nothing
    try:
        assert again.connect().execute("SELECT COUNT(*) FROM _sqlite_migrations").fetchone()[0] == SCHEMA_VERSION
    finally:
        again.close()


def test_sqlite_utils_is_imported_only_to_migrate(tmp_path):
    script = (
        "import sys; from service.store.sqlite import Store; s = Store(sys.argv[1]); s.new_conversation('x');"
        "print('sqlite_utils' in sys.modules)"
    )
    path = str(tmp_path / "u.db")

    def imported() -> str:
        return subprocess.run([sys.executable, "-c", script, path], capture_output=True, text=True, cwd=ROOT,
                              check=True).stdout.strip()

    assert imported() == "False"  # a new file is built from new_database.sql
    assert imported() == "False"  # an up-to-date file needs nothing
    conn = sqlite3.connect(path)  # the file as the version before the last step left it
    conn.execute("DROP TABLE rate_hits")
    conn.execute("DELETE FROM _sqlite_migrations WHERE name = 'm004_rate_hits'")
    conn.execute("PRAGMA user_version = 3")
    conn.commit()
    conn.close()
    assert imported() == "True"  # an older file is migrated by sqlite-utils
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT COUNT(*) FROM rate_hits").fetchone()[0] == 0
    conn.close()


def test_wal_mode_busy_timeout_and_foreign_keys(store):
    conn = store.connect()
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA busy_timeout").fetchone()[0] >= 5000
    assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    with pytest.raises(sqlite3.IntegrityError):
        store.add_user_message("no-such-conversation", "x", kind="explain", language="en", backend="offline", model=None)


def test_concurrent_writers_from_threads_all_land(store):
    conversation = store.new_conversation("busy")
    errors = []

    def write(worker: int):
        try:
            for index in range(25):
                store.add_user_message(conversation, f"{worker}-{index}", kind="explain", language="en",
                                       backend="offline", model=None)
                store.cache_put(f"{worker}-{index}", {"n": index}, {"explanation": "x"}, backend="offline", model=None)
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(worker,)) for worker in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    conn = store.connect()
    assert conn.execute("SELECT COUNT(*) FROM messages").fetchone()[0] == 200
    assert conn.execute("SELECT COUNT(*) FROM response_cache").fetchone()[0] == 200
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_a_writer_waits_for_another_instead_of_failing(tmp_path):
    first, second = Store(tmp_path / "w.db"), Store(tmp_path / "w.db")
    conversation = first.new_conversation("shared")
    holding = threading.Event()

    def hold_the_write_lock():
        with first.write() as conn:
            conn.execute("UPDATE conversations SET title = 'held' WHERE id = ?", (conversation,))
            holding.set()
            time.sleep(0.3)

    holder = threading.Thread(target=hold_the_write_lock)
    holder.start()
    holding.wait(5)
    started = time.monotonic()
    second.add_user_message(conversation, "after", kind="explain", language="en", backend="offline", model=None)
    assert time.monotonic() - started >= 0.1  # it queued on the busy timeout (BEGIN IMMEDIATE), then wrote
    holder.join()
    assert second.conversation(conversation)["title"] == "held"
    first.close()
    second.close()


def test_exchanges_pair_questions_with_answers_and_skip_failures(store):
    conversation = store.new_conversation()
    for text, status in (("first", "complete"), ("broken", "failed"), ("second", "partial")):
        store.add_user_message(conversation, text, kind="explain" if text == "first" else "followup", language="en",
                               backend="anthropic", model="m")
        store.add_assistant_message(conversation, content=f"answer to {text}" if status != "failed" else "",
                                    language="en", backend="anthropic", model="m", status=status,
                                    api_messages=[{"role": "assistant", "content": [{"type": "text", "text": "a"}]}])
    assert [(e["kind"], e["user"], e["answer"]) for e in store.exchanges(conversation)] == [
        ("explain", "first", "answer to first"), ("followup", "second", "answer to second")]


def test_latest_conversation_is_the_most_recently_used(store):
    older = store.new_conversation("older")
    newer = store.new_conversation("newer")
    assert store.latest_conversation() == newer
    time.sleep(0.002)
    store.add_user_message(older, "again", kind="followup", language="en", backend="offline", model=None)
    assert store.latest_conversation() == older
    assert store.conversations_starting(older[:6]) == [older]


def test_recent_sums_tokens_and_cost(store):
    conversation = store.new_conversation("costly")
    store.add_user_message(conversation, "q", kind="explain", language="en", backend="anthropic", model="m")
    store.add_assistant_message(conversation, content="a", language="en", backend="anthropic", model="m",
                                status="complete", usage=[
                                    {"model": "m", "input_tokens": 10, "output_tokens": 5, "cache_read_tokens": 100,
                                     "cache_write_tokens": 0, "cost_usd": 0.01},
                                    {"model": "m", "input_tokens": 20, "output_tokens": 5, "cache_read_tokens": 0,
                                     "cache_write_tokens": 50, "cost_usd": 0.02}])
    row = store.recent(5)[0]
    assert (row["turns"], row["input_tokens"], row["output_tokens"], row["backend"]) == (1, 180, 10, "anthropic")
    assert row["cost_usd"] == pytest.approx(0.03)


def test_the_schema_version_in_code_matches_the_migrations():
    assert store_module.SCHEMA_VERSION == len(migrations.migrations._migrations)


def test_conversations_are_filed_by_owner(store):
    # issue 5: one API token's conversations are invisible to another; no owner (no tokens) sees all
    mine = store.new_conversation("mine", owner="a" * 32)
    theirs = store.new_conversation("theirs", owner="b" * 32)
    assert store.has_conversation(mine, owner="a" * 32) and not store.has_conversation(mine, owner="b" * 32)
    assert store.conversation(theirs, owner="a" * 32) is None and store.conversation(theirs) is not None
    assert "owner" not in store.conversation(mine)
    assert [row["id"] for row in store.recent(10, owner="a" * 32)] == [mine]
    assert {row["id"] for row in store.recent(10)} == {mine, theirs}
    assert store.latest_conversation(owner="a" * 32) == mine and store.latest_conversation() == theirs
    assert store.conversations_starting(theirs[:6], owner="a" * 32) == []
    assert store.conversations_starting(theirs[:6], owner="b" * 32) == [theirs]


# ---- issue 6: the writer thread, pending turns, crash recovery, cache references and leases ---------

from service import engine  # noqa: E402
from service.store.sqlite import INTERRUPTED, worker_alive, worker_id  # noqa: E402


def test_threads_opening_a_new_file_together_never_see_database_is_locked(tmp_path):
    # Switching a new file to WAL raced: 12 threads opening it at once failed 7 trials in 60.
    for trial in range(15):
        fresh = Store(tmp_path / f"race-{trial}.db")
        barrier, errors = threading.Barrier(12), []

        def open_and_write():
            barrier.wait()
            try:
                fresh.connect()
                fresh.new_conversation("race")
            except Exception as exc:  # pragma: no cover - reported below
                errors.append(exc)

        threads = [threading.Thread(target=open_and_write) for _ in range(12)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        fresh.close()
        assert not errors, errors


def test_writes_that_queue_together_commit_together_and_a_failure_undoes_only_its_own(store):
    conversation = store.new_conversation("batch")
    holding, release = threading.Event(), threading.Event()

    def hold(conn):  # keeps the writer busy while the next writes queue up behind it
        holding.set()
        release.wait(5)

    blocker = threading.Thread(target=store.run_write, args=(hold,))
    blocker.start()
    holding.wait(5)
    outcomes = {}

    def write(name, fn):
        try:
            outcomes[name] = store.run_write(fn)
        except Exception as exc:
            outcomes[name] = exc

    good = threading.Thread(target=write, args=("good", lambda conn: conn.execute(
        "UPDATE conversations SET title = 'kept' WHERE id = ?", (conversation,)).rowcount))
    bad = threading.Thread(target=write, args=("bad", lambda conn: (
        conn.execute("UPDATE conversations SET title = 'undone' WHERE id = ?", (conversation,)),
        conn.execute("INSERT INTO messages (conversation_id, role, created) VALUES ('nowhere', 'user', 'now')"))))
    good.start()
    time.sleep(0.05)
    bad.start()
    time.sleep(0.05)
    release.set()
    for thread in (blocker, good, bad):
        thread.join(5)
    assert outcomes["good"] == 1
    assert isinstance(outcomes["bad"], sqlite3.IntegrityError)  # the caller gets its own failure
    assert store.conversation(conversation)["title"] == "kept"  # and the other write stands


def test_a_turn_is_pending_until_its_answer_or_failure_is_stored(store):
    conversation = store.new_conversation()
    first = store.add_user_message(conversation, "q1", kind="explain", language="en", backend="offline", model=None,
                                   pending=True)
    second = store.add_user_message(conversation, "q2", kind="followup", language="en", backend="offline", model=None,
                                    pending=True)
    assert [row["message_id"] for row in store.pending()] == [first, second]
    assert store.pending()[0]["worker"] == worker_id()
    store.add_assistant_message(conversation, content="a1", language="en", backend="offline", model=None,
                                status="complete", answers=first)
    store.add_assistant_message(conversation, content="", language="en", backend="offline", model=None,
                                status="failed", error="boom", answers=second)
    assert store.pending() == []


def _dead_worker() -> str:
    """The id a process had that has exited (and been reaped)."""
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True,
                          check=True)
    host, _, start = worker_id().split(":")
    return f"{host}:{done.stdout.strip()}:{start}"


def test_turns_a_dead_process_left_pending_become_failures_when_the_store_opens(tmp_path):
    crashed = Store(tmp_path / "crash.db")
    conversation = crashed.new_conversation("crash")
    lost = crashed.add_user_message(conversation, "in flight", kind="explain", language="en", backend="anthropic",
                                    model="m", pending=True)
    mine = crashed.add_user_message(conversation, "still running here", kind="followup", language="en",
                                    backend="offline", model=None, pending=True)
    dead = _dead_worker()
    assert not worker_alive(dead) and worker_alive(worker_id())
    with crashed.write() as conn:  # as if another process had written the first turn and died
        conn.execute("UPDATE pending_turns SET worker = ? WHERE message_id = ?", (dead, lost))
        conn.execute("INSERT INTO cache_leases (key, worker, expires) VALUES ('k', ?, ?)", (dead, time.time() + 600))
    crashed.close()

    reopened = Store(tmp_path / "crash.db")
    try:
        assert reopened.recover() == 0  # the writer swept when it started; nothing is left for a second sweep
        assert [row["message_id"] for row in reopened.pending()] == [mine]  # a live process's turn stays
        messages = reopened.conversation(conversation)["messages"]
        assert [(m["role"], m["status"], m["error"]) for m in messages] == [
            ("user", "complete", None), ("user", "complete", None), ("assistant", "failed", INTERRUPTED)]
        assert reopened.connect().execute("SELECT COUNT(*) FROM cache_leases").fetchone()[0] == 0
    finally:
        reopened.close()


def test_a_cache_lease_is_held_by_one_process_until_released_or_expired(store):
    other = Store(store.path)
    other.worker = "elsewhere:1:1"  # another process, as far as the leases can tell
    try:
        assert store.take_lease("key", 60) is True
        assert other.take_lease("key", 60) is False
        store.release_lease("key")
        assert other.take_lease("key", 0.05) is True
        time.sleep(0.1)
        assert store.take_lease("key", 60) is True  # the other's lease expired
        store.cache_put("key", {"q": 1}, {"explanation": "x"}, backend="offline", model=None)
        assert store.connect().execute("SELECT COUNT(*) FROM cache_leases").fetchone()[0] == 0  # put ends it
    finally:
        other.close()


def test_a_cache_row_never_changes_once_stored(store):
    store.cache_put("key", {"q": 1}, {"explanation": "first"}, backend="offline", model=None)
    store.cache_put("key", {"q": 1}, {"explanation": "second"}, backend="offline", model=None)
    assert store.cache_get("key")["explanation"] == "first"


def test_a_cache_hit_is_stored_by_reference_and_read_back_whole(unjargon_home):
    text = "with TPUs at K2 scale you get excellent MFU without PP"
    first = engine.explain(text, backend="offline")
    engine._hits.clear()  # the second hit reads the store, the third this process's memory
    second = engine.explain(text, backend="offline")
    third = engine.explain(text, backend="offline")
    assert second["cached"] and third["cached"]
    assert {k: v for k, v in second.items() if k not in ("cached", "conversation_id")} == \
        {k: v for k, v in first.items() if k not in ("cached", "conversation_id")}
    conn = engine.open_store().connect()
    stored = conn.execute("SELECT content IS NULL, result IS NULL, cache_key IS NOT NULL FROM messages"
                          " WHERE role = 'assistant' ORDER BY id").fetchall()
    # The first made the answer and filed it in the cache in the same commit; all three point to that one row.
    assert [tuple(row) for row in stored] == [(1, 1, 1), (1, 1, 1), (1, 1, 1)]
    made = engine.get_conversation(first["conversation_id"])["messages"][1]
    assert made["content"] == first["explanation"] and made["cached"] is False and made["result"]["cached"] is False
    answer = engine.get_conversation(third["conversation_id"])["messages"][1]
    assert answer["content"] == first["explanation"] and answer["cached"] is True
    assert answer["result"]["calculations"] == first["calculations"] and answer["result"]["cached"] is True
    follow_up = engine.explain("and what is MFU?", backend="offline", conversation_id=third["conversation_id"])
    assert follow_up["conversation_id"] == third["conversation_id"]
    assert engine.open_store().exchanges(third["conversation_id"])[0]["answer"] == first["explanation"]


def test_a_request_waits_on_one_commit_when_cached_and_two_when_answered(unjargon_home, monkeypatch):
    # Issue 10: the question is filed (with the cache lease) before the backend runs, so a crash never loses
    # it; the answer, its cache row and the end of the lease are the second commit. A cache hit is one.
    store = engine.open_store()
    writes: list[str] = []
    real = store.run_write
    monkeypatch.setattr(store, "run_write", lambda fn: writes.append(fn.__qualname__) or real(fn))
    text = "with TPUs at K2 scale you get excellent MFU without PP"
    first = engine.explain(text, backend="offline")
    assert len(writes) == 2, writes
    writes.clear()
    engine._hits.clear()
    assert engine.explain(text, backend="offline")["cached"] is True
    assert len(writes) == 1, writes
    writes.clear()
    engine.explain("and what is MFU?", backend="offline", conversation_id=first["conversation_id"])
    assert len(writes) == 2, writes
    conn = store.connect()
    assert conn.execute("SELECT COUNT(*) FROM pending_turns").fetchone()[0] == 0
    assert conn.execute("SELECT COUNT(*) FROM cache_leases").fetchone()[0] == 0
    assert conn.execute("SELECT COUNT(*) FROM response_cache").fetchone()[0] == 2
    assert [m["role"] for m in engine.get_conversation(first["conversation_id"])["messages"]] == \
        ["user", "assistant", "user", "assistant"]


def test_writes_of_one_event_loop_turn_commit_together_and_a_held_lock_never_blocks_the_loop(tmp_path):
    # The HTTP service files cached hits from its event loop: one transaction per turn of the loop, and when
    # another connection holds SQLite's write lock the batch goes to the writer thread instead of waiting.
    import asyncio

    store = Store(tmp_path / "loop.db")
    store.connect()
    commits = []

    async def file_ten() -> list[str]:
        return await asyncio.gather(*(store.run_write_async(
            lambda conn, i=i: conn.execute("INSERT INTO conversations (id, created, updated) VALUES (?, 't', 't')",
                                           (f"c{i}",)).rowcount) for i in range(10)))

    async def main():
        loop = asyncio.get_running_loop()
        assert await file_ten() == [1] * 10
        batcher = store._loop_writes
        batcher.conn.set_trace_callback(lambda sql: commits.append(sql) if sql == "COMMIT" else None)
        await asyncio.gather(*(store.run_write_async(
            lambda conn, i=i: conn.execute("INSERT INTO conversations (id, created, updated) VALUES (?, 't', 't')",
                                           (f"d{i}",))) for i in range(10)))
        assert commits == ["COMMIT"]  # ten writes, one transaction
        holder = sqlite3.connect(tmp_path / "loop.db", isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # another process writing
        pending = asyncio.ensure_future(store.run_write_async(
            lambda conn: conn.execute("INSERT INTO conversations (id, created, updated) VALUES ('late', 't', 't')")))
        started = time.monotonic()
        await asyncio.sleep(0.2)  # the loop runs on: nothing waits on the lock inside it
        assert time.monotonic() - started < 1.0 and not pending.done()
        holder.execute("COMMIT")
        holder.close()
        await asyncio.wait_for(pending, 5)
        return loop

    asyncio.run(main())
    rows = store.connect().execute("SELECT COUNT(*) FROM conversations").fetchone()[0]
    assert rows == 21
    store.close()
