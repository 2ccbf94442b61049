"""Load and durability of `unjargon serve --workers 2` on loopback (issue 6).

Bounded in count and time, loopback only. 16 clients send a fixed mix of cached and uncached explains,
calculator runs, new conversations and messages; every acknowledged write must be in the file, and a
kill -9 of the whole server in the middle of it loses nothing that was acknowledged and leaves no turn
pending once the service is back.
"""

import asyncio
import json
import sqlite3
import threading
import time
from collections import Counter
from pathlib import Path

import httpx
import pytest

from tests.support.fake_anthropic import FakeAnthropic, Reply, text
from tests.support.loopback_client import Connection
from tests.support.server_process import ServerProcess
from service.store.sqlite import INTERRUPTED
from tests.support.calculator_examples import VALID

pytestmark = pytest.mark.slow

CLIENTS = 16
REQUESTS = 8000
TIME_LIMIT_S = 50.0
THREADS = [
    "with TPUs at K2 or DSV3 scale you get excellent MFU without PP",
    "you only need PP when you're DP-comms bound; NVL72 has so much bandwidth over a large domain",
    "We train a 70B model on 4096 H100s with a 16M token batch: do we need pipeline parallelism?",
    "ZeRO-3 shards optimizer states, gradients and weights over the DP group; what does that save at 70B?",
]
CALCULATORS = ["pipeline_bubble", "model_state_memory", "roofline", "training_flops", "pp_necessity"]


class Ledger:
    """What the server acknowledged (2xx), by kind, with every status seen."""

    def __init__(self):
        self.explained: list[str] = []  # conversation ids of acknowledged POST /v1/explain
        self.created: list[str] = []  # ids of acknowledged POST /v1/conversations
        self.answered: list[str] = []  # conversation ids of acknowledged POST .../messages
        self.calculated = 0
        self.statuses: Counter = Counter()
        self.failures: Counter = Counter()  # transport errors (expected only around a kill)
        self.sent = 0

    @property
    def acknowledged(self) -> int:
        return len(self.explained) + len(self.created) + len(self.answered) + self.calculated


def _uncached_text(index: int) -> str:
    return f"{THREADS[index % len(THREADS)]} (variant {index})"


async def drive(url: str, ledger: Ledger, requests: int, stop: threading.Event | None = None,
                uncached_every: int = 50) -> None:
    """16 clients, each on its own keep-alive connection, sharing a fixed list of `requests` operations."""
    next_index = 0
    deadline = time.monotonic() + TIME_LIMIT_S
    host, port = url.rsplit("/", 1)[1].split(":")

    async def client() -> None:
        nonlocal next_index
        http = Connection(host, int(port))
        fresh: list[str] = []  # conversations this client created and has not written to yet
        while next_index < requests and time.monotonic() < deadline and not (stop and stop.is_set()):
            index, next_index = next_index, next_index + 1
            kind = index % 10
            try:
                if kind < 4:
                    body = {"text": _uncached_text(index) if index % uncached_every == 0 else THREADS[index % 4]}
                    status, answer = await http.request("POST", "/v1/explain", body)
                    if status == 200:
                        ledger.explained.append(json.loads(answer)["conversation_id"])
                elif kind < 7:
                    name = CALCULATORS[index % len(CALCULATORS)]
                    status, _ = await http.request("POST", f"/v1/calculators/{name}", VALID[name])
                    ledger.calculated += status == 200
                elif kind < 9 or not fresh:
                    status, answer = await http.request("POST", "/v1/conversations", {"title": f"load {index}"})
                    if status == 201:
                        ledger.created.append(json.loads(answer)["id"])
                        fresh.append(ledger.created[-1])
                else:
                    conversation_id = fresh.pop()
                    status, _ = await http.request("POST", f"/v1/conversations/{conversation_id}/messages",
                                                   {"content": THREADS[index % 4]})
                    if status == 200:
                        ledger.answered.append(conversation_id)
                ledger.statuses[status] += 1
            except (OSError, asyncio.IncompleteReadError, ValueError) as exc:
                ledger.failures[type(exc).__name__] += 1
            ledger.sent += 1
        http.close()

    await asyncio.gather(*(client() for _ in range(CLIENTS)))


def db(home: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(home / "unjargon.db", timeout=10)
    conn.row_factory = sqlite3.Row
    return conn


def scalar(conn: sqlite3.Connection, sql: str, *params):
    return conn.execute(sql, params).fetchone()[0]


def assert_store_is_whole(conn: sqlite3.Connection) -> None:
    """Nothing half-written: integrity, foreign keys, every turn answered or failed, no turn left pending."""
    assert scalar(conn, "PRAGMA integrity_check") == "ok"
    assert scalar(conn, "PRAGMA journal_mode") == "wal"
    assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    assert scalar(conn, "SELECT COUNT(*) FROM pending_turns") == 0
    unanswered = conn.execute(
        "SELECT conversation_id FROM messages GROUP BY conversation_id"
        " HAVING SUM(role = 'user') != SUM(role = 'assistant')").fetchall()
    assert unanswered == [], f"{len(unanswered)} conversations with a question and no answer or failure"
    # A complete answer has its text, or names the cache row that holds it.
    assert scalar(conn, "SELECT COUNT(*) FROM messages m LEFT JOIN response_cache c ON c.key = m.cache_key"
                        " WHERE m.role = 'assistant' AND m.status = 'complete'"
                        " AND m.content IS NULL AND c.key IS NULL") == 0


def test_two_workers_16_clients_8000_requests_lose_nothing(tmp_path):
    ledger = Ledger()
    started = time.monotonic()
    with ServerProcess(tmp_path, workers=2) as server:
        asyncio.run(drive(server.url, ledger, REQUESTS))
        elapsed = time.monotonic() - started
    log = server.log_text()
    assert ledger.sent == REQUESTS, f"only {ledger.sent} requests in {TIME_LIMIT_S:g} s"
    assert not ledger.failures, ledger.failures
    assert all(status < 500 for status in ledger.statuses), ledger.statuses
    assert set(ledger.statuses) <= {200, 201}, ledger.statuses
    assert "database is locked" not in log and "Traceback" not in log, log[-3000:]
    conn = db(tmp_path)
    try:
        assert_store_is_whole(conn)
        conversations = len(ledger.explained) + len(ledger.created)
        assert scalar(conn, "SELECT COUNT(*) FROM conversations") == conversations
        assert scalar(conn, "SELECT COUNT(*) FROM messages") == 2 * (len(ledger.explained) + len(ledger.answered))
        stored = {row[0] for row in conn.execute("SELECT id FROM conversations")}
        assert stored == set(ledger.explained) | set(ledger.created)
        answered = {row[0] for row in conn.execute(
            "SELECT DISTINCT conversation_id FROM messages WHERE role = 'assistant' AND status = 'complete'")}
        assert set(ledger.answered) <= answered
        assert scalar(conn, "SELECT COUNT(*) FROM response_cache") == len(THREADS) + REQUESTS // 50  # every 50th request is a new text
    finally:
        conn.close()
    print(f"\n{REQUESTS} requests, {ledger.acknowledged} acknowledged, in {elapsed:.1f} s: {dict(ledger.statuses)}")


def test_kill_9_mid_load_then_restart_keeps_every_acknowledged_conversation(tmp_path):
    ledger = Ledger()
    stop = threading.Event()
    server = ServerProcess(tmp_path, workers=2).start()
    pids = server.worker_pids()
    assert len(pids) >= 3, pids  # the master and two workers

    def load() -> None:
        asyncio.run(drive(server.url, ledger, REQUESTS, stop, uncached_every=5))

    loader = threading.Thread(target=load, name="load")
    loader.start()
    deadline = time.monotonic() + 30
    while ledger.acknowledged < 1500 and loader.is_alive() and time.monotonic() < deadline:
        time.sleep(0.01)
    server.kill()  # every process of the group at once, mid-request
    acknowledged_at_kill = ledger.acknowledged
    stop.set()
    loader.join(30)
    assert acknowledged_at_kill >= 1500, f"only {acknowledged_at_kill} acknowledged before the kill"
    assert all(status < 500 for status in ledger.statuses), ledger.statuses

    conn = db(tmp_path)
    try:  # what the crash left: turns in flight are pending, nothing else is wrong with the file
        assert scalar(conn, "PRAGMA integrity_check") == "ok"
        interrupted = scalar(conn, "SELECT COUNT(*) FROM pending_turns")
        failed_before = scalar(conn, "SELECT COUNT(*) FROM messages WHERE error = ?", INTERRUPTED)
    finally:
        conn.close()
    assert failed_before == 0

    with ServerProcess(tmp_path, workers=2, port=server.port) as restarted:
        with httpx.Client(base_url=restarted.url, timeout=30) as http:
            for conversation_id in ledger.explained + ledger.answered:
                response = http.get(f"/v1/conversations/{conversation_id}")
                assert response.status_code == 200, (conversation_id, response.text[:200])
                roles = [(m["role"], m["status"]) for m in response.json()["messages"]]
                assert ("user", "complete") in roles and ("assistant", "complete") in roles, roles
                assert all(m["content"] for m in response.json()["messages"] if m["status"] == "complete")
            for conversation_id in ledger.created:
                assert http.get(f"/v1/conversations/{conversation_id}").status_code == 200
            # The service works as before on the same file.
            assert http.post("/v1/explain", json={"text": THREADS[0]}).json()["cached"] is True
    conn = db(tmp_path)
    try:
        assert_store_is_whole(conn)  # no turn pending: the interrupted ones are failures now
        assert scalar(conn, "SELECT COUNT(*) FROM messages WHERE error = ?", INTERRUPTED) == interrupted
        assert scalar(conn, "SELECT COUNT(*) FROM cache_leases") == 0
    finally:
        conn.close()
    log = restarted.log_text()
    assert "database is locked" not in log and "Traceback" not in log, log[-3000:]
    print(f"\n{acknowledged_at_kill} acknowledged before kill -9, {interrupted} turns interrupted and swept")


def test_ten_identical_uncached_requests_ask_the_model_once_across_processes(tmp_path):
    # Two servers on one file, five readers each: worker processes of one server share a file the same way,
    # but which worker accepts a connection is the kernel's choice (often all ten land on one).
    answer = "PP means pipeline parallelism: the model's layers are split into stages on different chips."
    with FakeAnthropic() as fake:
        fake.always(Reply([text(answer)], delay_s=0.5))
        env = {"UNJARGON_BACKEND": "anthropic", "ANTHROPIC_API_KEY": "sk-ant-test-not-a-key",
               "ANTHROPIC_BASE_URL": fake.url}
        with ServerProcess(tmp_path, workers=1, env=env) as first, ServerProcess(tmp_path, workers=1, env=env) as second:

            async def ask_ten() -> list[httpx.Response]:
                async with httpx.AsyncClient(timeout=30, limits=httpx.Limits(max_connections=10)) as http:
                    return await asyncio.gather(*(http.post(server.url + "/v1/explain", json={"text": "What is PP?"})
                                                  for server in [first, second] * 5))

            responses = asyncio.run(ask_ten())
        assert [r.status_code for r in responses] == [200] * 10, [r.text[:200] for r in responses]
        assert len(fake.requests) == 1  # one model call for ten readers in two processes
        bodies = [r.json() for r in responses]
        assert {b["explanation"] for b in bodies} == {answer}
        assert sum(not b["cached"] for b in bodies) == 1 and len({b["conversation_id"] for b in bodies}) == 10
    conn = db(tmp_path)
    try:
        assert_store_is_whole(conn)
        assert scalar(conn, "SELECT COUNT(*) FROM response_cache") == 1
        assert scalar(conn, "SELECT COUNT(*) FROM cache_leases") == 0
        assert scalar(conn, "SELECT COUNT(*) FROM usage") == 1  # the model's tokens are counted once
        assert json.loads(scalar(conn, "SELECT result FROM response_cache"))["explanation"] == answer
    finally:
        conn.close()
