"""Two `unjargon serve` replicas on one PostgreSQL database (issue 14): shared history, one computation per
cache key across replicas, nothing acknowledged lost when a replica is killed, 503 while the database is away."""

import asyncio
import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from service.store.postgres import PostgresStore
from tests.support.loopback_client import Connection
from tests.support.postgres_server import start_server
from tests.support.server_process import ServerProcess

pytestmark = pytest.mark.slow

THREAD = "you only need PP when you're DP-comms bound; NVL72 has so much bandwidth over a large domain"


@pytest.fixture
def replicas(tmp_path, postgres_database):
    started = []
    try:
        for name in ("a", "b"):
            home = tmp_path / name
            home.mkdir()
            started.append(ServerProcess(home, workers=1, env={"UNJARGON_DATABASE_URL": postgres_database}).start())
        yield started
    finally:
        for server in started:
            server.stop()


def test_a_conversation_written_through_one_replica_is_read_through_the_other(replicas):
    a, b = replicas
    with httpx.Client(timeout=30) as client:
        conversation = client.post(a.url + "/v1/conversations", json={"title": "shared"}).json()["id"]
        first = client.post(f"{a.url}/v1/conversations/{conversation}/messages", json={"content": THREAD})
        assert first.status_code == 200, first.text
        second = client.post(f"{b.url}/v1/conversations/{conversation}/messages", json={"content": "what is DP?"})
        assert second.status_code == 200, second.text
        for server in (a, b):
            read = client.get(f"{server.url}/v1/conversations/{conversation}").json()
            assert [m["content"] for m in read["messages"] if m["role"] == "user"] == [THREAD, "what is DP?"]
            assert conversation in [c["id"] for c in client.get(server.url + "/v1/conversations").json()["conversations"]]


def test_bursts_of_twenty_identical_requests_over_both_replicas_compute_once(replicas, postgres_database):
    # A short bench/double_compute.py (issue 21): before the fix, from the second burst on, a request arriving
    # between the end of its replica's single flight and the commit of that answer computed it again (about
    # 7 bursts in 10 unpinned, 8 in 10 on one core).
    async def burst(text: str) -> list[dict]:
        connections = [Connection("127.0.0.1", replicas[i % 2].port) for i in range(20)]
        try:
            for conn in connections:  # connected first, so the twenty requests arrive together
                conn.reader, conn.writer = await asyncio.open_connection(conn.host, conn.port)
            replies = await asyncio.gather(*(conn.request("POST", "/v1/explain", {"text": text}) for conn in connections))
        finally:
            for conn in connections:
                conn.close()
        assert [status for status, _ in replies] == [200] * 20, replies[0][1][:300]
        return [json.loads(body) for _, body in replies]

    store = PostgresStore(postgres_database)
    try:
        for number in range(5):
            text = f"{THREAD} (asked together, burst {'abcde'[number]})"
            answers = asyncio.run(burst(text))
            computed = [answer for answer in answers if not answer["cached"]]
            assert len(computed) == 1, f"burst {number + 1}: computed {len(computed)} times"  # the other 19 shared it
            assert len({answer["explanation"] for answer in answers}) == 1
            assert store.connect().execute(  # the store agrees: one answer made, nineteen taken from it
                "SELECT COUNT(*) FROM messages a JOIN messages q ON q.conversation_id = a.conversation_id"
                " WHERE q.role = 'user' AND q.content = ? AND a.role = 'assistant' AND a.cached = 0",
                (text,)).fetchone()[0] == 1
        assert store.connect().execute("SELECT COUNT(*) FROM response_cache").fetchone()[0] == 5
        assert store.connect().execute("SELECT COUNT(*) FROM cache_leases").fetchone()[0] == 0
    finally:
        store.close()


def test_killing_a_replica_mid_load_loses_nothing_acknowledged(replicas, postgres_database, tmp_path):
    a, b = replicas
    acknowledged: list[tuple[str, str]] = []  # (conversation id, text) of every 2xx message
    lock = threading.Lock()
    kill_after = 60

    def client(number: int) -> None:
        with httpx.Client(timeout=30) as http:
            conversation = None
            for step in range(24):
                server = (a, b)[(number + step) % 2]
                text = f"client {number} step {step}: {THREAD}"
                try:
                    if conversation is None:
                        response = http.post(server.url + "/v1/explain", json={"text": text})
                    else:
                        response = http.post(f"{server.url}/v1/conversations/{conversation}/messages",
                                             json={"content": text})
                except httpx.HTTPError:
                    continue  # the killed replica: nothing acknowledged
                if response.status_code == 200:
                    conversation = response.json()["conversation_id"]
                    with lock:
                        acknowledged.append((conversation, text))
                        if len(acknowledged) == kill_after:
                            b.kill()  # SIGKILL, mid-way, while other clients' requests are in flight

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(client, range(8)))
    assert b.process.poll() is not None and len(acknowledged) > kill_after
    store = PostgresStore(postgres_database)
    try:
        stored = {(row["conversation_id"], row["content"]) for row in store.connect().execute(
            "SELECT conversation_id, content FROM messages WHERE role = 'user'")}
        assert set(acknowledged) <= stored
        restarted = ServerProcess(tmp_path / "b", workers=1, env=b.env).start()  # sweeps what the killed one left
        try:
            assert store.pending() == []
        finally:
            restarted.stop()
    finally:
        store.close()


def test_a_database_that_goes_away_gives_503_and_recovers(tmp_path):
    server = start_server()  # its own server: this test stops it
    try:
        url = server.create_database("away")
        with ServerProcess(tmp_path, workers=1, env={"UNJARGON_DATABASE_URL": url}) as replica, \
                httpx.Client(timeout=30) as client:
            assert client.post(replica.url + "/v1/explain", json={"text": THREAD}).status_code == 200
            server.stop()
            for method, path, body in (("GET", "/v1/conversations", None), ("POST", "/v1/explain", {"text": "DP?"}),
                                       ("POST", "/v1/conversations", {})):
                response = client.request(method, replica.url + path, json=body)
                assert response.status_code == 503, response.text
                error = response.json()["error"]
                assert error["code"] == "store_unavailable" and error["type"] == "server_error"
                assert "Traceback" not in response.text and "unjargon-test-password" not in response.text
            assert client.get(replica.url + "/healthz").status_code == 200
            server.start()
            deadline = time.monotonic() + 30
            while True:
                response = client.get(replica.url + "/v1/conversations")
                if response.status_code == 200 or time.monotonic() > deadline:
                    break
                time.sleep(0.2)
            assert response.status_code == 200, response.text
            assert len(json.loads(response.text)["conversations"]) == 1
            assert client.post(replica.url + "/v1/explain", json={"text": "what is TP?"}).status_code == 200
            assert "Traceback" not in replica.log_text()
    finally:
        server.destroy()


def test_the_rate_limit_counts_requests_on_every_replica(tmp_path, postgres_database):
    env = {"UNJARGON_DATABASE_URL": postgres_database, "UNJARGON_RATE_LIMIT_PER_MINUTE": "4"}
    with ServerProcess(tmp_path, workers=1, env=env) as a, ServerProcess(tmp_path, workers=1, env=env) as b, \
            httpx.Client(timeout=30) as client:
        statuses = [client.get((a, b)[i % 2].url + "/v1/calculators").status_code for i in range(6)]
        assert statuses == [200, 200, 200, 200, 429, 429]
        refused = client.get(a.url + "/v1/calculators")
        assert refused.json()["error"]["code"] == "rate_limit_exceeded" and int(refused.headers["retry-after"]) >= 1
