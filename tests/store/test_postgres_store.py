"""The PostgreSQL store (issue 14): same rows as SQLite, safe concurrent migrations, leases of killed processes,
shared rate limits, `unjargon db copy` from an existing SQLite file, and one-line errors for bad databases."""

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from service.store import schema
from service.store.postgres import PostgresStore, redact_url
from service.store.sqlite import SCHEMA_VERSION, Store

ROOT = Path(__file__).resolve().parents[2]


def _cli(*args: str, env: dict | None = None, home: Path) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("UNJARGON_", "ANTHROPIC_"))}
    return subprocess.run([sys.executable, "-m", "service.cli.main", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, env={**base, "UNJARGON_HOME": str(home), "UNJARGON_BACKEND": "offline", **(env or {})})


@pytest.fixture
def pg(postgres_database):
    store = PostgresStore(postgres_database)
    yield store
    store.close()


def test_replicas_started_together_create_the_tables_once(postgres_database):
    stores = [PostgresStore(postgres_database) for _ in range(6)]
    errors, barrier = [], threading.Barrier(len(stores))

    def start(store):
        barrier.wait()
        try:
            assert store.check() == SCHEMA_VERSION
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=start, args=(store,)) for store in stores]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    try:
        assert not errors
        rows = stores[0].connect().execute("SELECT name FROM _unjargon_migrations ORDER BY name").fetchall()
        assert [row[0] for row in rows] == [step.name for step in schema.STEPS]
    finally:
        for store in stores:
            store.close()


def test_a_conversation_reads_back_as_on_sqlite(pg, tmp_path):
    lite = Store(tmp_path / "same.db")
    try:
        shapes = []
        for store in (pg, lite):
            conversation = store.new_conversation("what is DP?", language="en", owner="o1")
            asked = store.add_user_message(conversation, "what is DP?", kind="explain", language="en",
                                           backend="offline", model=None, pending=True)
            assert [row["message_id"] for row in store.pending()] == [asked]
            store.cache_put("k", {"text": "x"}, {"explanation": "data parallel"}, backend="offline", model=None)
            store.add_assistant_message(conversation, content=None, language="en", backend="offline", model=None,
                                        status="complete", cached=True, cache_key="k", answers=asked,
                                        usage=[{"model": "m", "input_tokens": 3, "output_tokens": 4, "cost_usd": 0.5}])
            assert store.pending() == []
            read = store.conversation(conversation, owner="o1")
            assert store.conversation(conversation, owner="someone else") is None
            recent = store.recent(owner="o1")[0]
            shapes.append(([(m["role"], m["content"], m["cached"], m["result"]) for m in read["messages"]],
                           store.exchanges(conversation), {k: recent[k] for k in ("turns", "input_tokens", "cost_usd")},
                           store.conversations_starting(conversation[:6], owner="o1") == [conversation]))
        assert shapes[0] == shapes[1]
    finally:
        lite.close()


def test_the_lease_of_a_killed_replica_is_taken_over_at_once(pg, postgres_database):
    script = ("import os, sys; from service.store.postgres import PostgresStore; s = PostgresStore(sys.argv[1]);"
              "assert s.take_lease('the-key', 600); os.kill(os.getpid(), 9)")
    subprocess.run([sys.executable, "-c", script, postgres_database], cwd=ROOT, timeout=60)
    holder = pg.connect().execute("SELECT worker, expires FROM cache_leases WHERE key = 'the-key'").fetchone()
    assert holder is not None  # the lease is still there, 600 s from expiring
    assert not pg.worker_alive(holder["worker"])
    assert pg.take_lease("the-key", 30)  # its session-level liveness lock died with its connection


def test_a_live_replica_keeps_its_lease(pg, postgres_database):
    other = subprocess.Popen([sys.executable, "-c", (
        "import sys, time; from service.store.postgres import PostgresStore; s = PostgresStore(sys.argv[1]);"
        "s.take_lease('held', 600); print('ready', flush=True); time.sleep(60)"), postgres_database],
        cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert other.stdout.readline().strip() == "ready"
        assert not pg.take_lease("held", 30)
    finally:
        other.kill()
        other.wait(10)


def test_rate_limits_are_shared_by_stores(pg, postgres_database):
    second = PostgresStore(postgres_database)
    try:
        waits = [store.rate_check("caller", 4, moment=1000.0 + i) for i, store in enumerate([pg, second] * 3)]
        assert waits[:4] == [0.0] * 4 and waits[4] == pytest.approx(56.0) and waits[5] == pytest.approx(55.0)
        assert pg.rate_check("caller", 4, moment=1061.0) == 0.0  # the window moved on
        assert pg.rate_check("another", 4, moment=1005.0) == 0.0
    finally:
        second.close()


def test_db_copy_moves_every_row_of_an_existing_sqlite_file(tmp_path, postgres_database):
    home = tmp_path / "home"
    lite = Store(home / "unjargon.db")
    for index in range(30):
        conversation = lite.new_conversation(f"thread {index}", language="en")
        asked = lite.add_user_message(conversation, f"question {index}", kind="explain", language="en",
                                      backend="offline", model=None, pending=True)
        lite.add_assistant_message(conversation, content=f"answer {index}", language="en", backend="offline",
                                   model=None, status="complete", answers=asked,
                                   tool_calls=[{"id": f"t{index}", "name": "mfu", "input": {}, "result": {"v": index},
                                                "is_error": False}],
                                   usage=[{"model": "m", "input_tokens": index, "output_tokens": 1}])
        lite.cache_put(f"key{index}", {"n": index}, {"explanation": f"e{index}"}, backend="offline", model=None)
    last = lite.conversation(conversation)
    lite.close()

    done = _cli("db", "copy", "--to", postgres_database, home=home)
    assert done.returncode == 0, done.stderr
    assert "unjargon-test-password" not in done.stdout + done.stderr
    for table, count in (("conversations", 30), ("messages", 60), ("tool_calls", 30), ("usage", 30),
                         ("response_cache", 30)):
        assert any(line.split()[:2] == [table, str(count)] for line in done.stdout.splitlines()), done.stdout
    pg = PostgresStore(postgres_database)
    try:
        assert pg.conversation(conversation) == last
        new = pg.add_user_message(conversation, "after the copy", kind="followup", language="en", backend="offline",
                                  model=None)
        assert new == 61  # ids continue after the copied ones
    finally:
        pg.close()
    again = _cli("db", "copy", "--to", postgres_database, home=home)
    assert again.returncode == 1 and "already holds" in again.stderr and len(again.stderr.strip().splitlines()) == 1


def test_db_migrate_on_both_backends(tmp_path, postgres_database):
    lite = _cli("db", "migrate", home=tmp_path)
    assert lite.returncode == 0 and "unjargon.db" in lite.stdout
    pg = _cli("db", "migrate", env={"UNJARGON_DATABASE_URL": postgres_database}, home=tmp_path)
    assert pg.returncode == 0, pg.stderr
    assert redact_url(postgres_database) in pg.stdout and "unjargon-test-password" not in pg.stdout


@pytest.mark.parametrize("url, says", [
    ("mysql://u:pw@127.0.0.1/db", "must be a postgresql://"),
    ("postgresql://u:pw@127.0.0.1:notaport/db", "must be a postgresql://"),
    ("postgresql://u:pw@127.0.0.1:5432", "must be a postgresql://"),
    ("postgresql://u:hunter22@127.0.0.1:{closed}/db", "can reach"),
])
def test_bad_or_unreachable_databases_stop_serve_with_one_line(tmp_path, url, says):
    from tests.support.server_process import free_port

    url = url.format(closed=free_port())
    done = _cli("serve", "--port", str(free_port()), env={"UNJARGON_DATABASE_URL": url}, home=tmp_path)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "UNJARGON_DATABASE_URL" in lines[0] and says in lines[0], done.stderr
    assert "pw@" not in lines[0] and "hunter22" not in lines[0]


def test_a_wrong_password_is_one_line_without_the_password(tmp_path, postgres_database):
    wrong = postgres_database.replace("unjargon-test-password", "not-the-password")
    done = _cli("serve", "--port", "1", env={"UNJARGON_DATABASE_URL": wrong}, home=tmp_path)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert "password authentication failed" in done.stderr and "not-the-password" not in done.stderr


def test_the_offline_cli_on_sqlite_never_imports_psycopg(tmp_path):
    script = ("import sys; from service.cli.main import main; main(['explain', 'what is DP?']);"
              "print('psycopg' in sys.modules, file=sys.stderr)")
    base = {k: v for k, v in os.environ.items() if not k.startswith(("UNJARGON_", "ANTHROPIC_"))}
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env={**base, "UNJARGON_HOME": str(tmp_path), "UNJARGON_BACKEND": "offline"})
    assert done.returncode == 0 and done.stderr.strip().splitlines()[-1] == "False"
