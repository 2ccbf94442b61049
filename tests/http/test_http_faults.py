"""The fake model server's fault script, end to end through HTTP on a live uvicorn (issue 6).

Rate limits, overload, server errors, a server that never answers, malformed bodies, an error mid-stream
and a reader who leaves mid-stream: each ends in a clear response, nothing is cached that should not be,
and nothing is lost (the reader's message is stored, the turn is answered or marked failed, never pending).
"""

import json
import sqlite3
import time

import httpx
import pytest

from tests.support.fake_anthropic import Fault, FakeAnthropic, Hang, Raw, Reply, text
from tests.support.live_server import LiveServer
from service.config import load as load_settings
from tests.support.http_helpers import sse_events

KEY = "sk-ant-test-0123456789abcdef"
THREAD = "We train K2 on 1024 H100s with a 16M token batch: do we need PP?"
ANSWER = "PP means pipeline parallelism: the layers are split into stages on different chips. " * 3


@pytest.fixture
def fake():
    with FakeAnthropic() as server:
        yield server


def serve(fake: FakeAnthropic, unjargon_home, **overrides) -> LiveServer:
    options = {"max_retries": 2, "request_deadline_s": 10.0, "sse_keepalive_s": 5.0, **overrides}
    settings = load_settings(backend="anthropic", anthropic_api_key=KEY, anthropic_base_url=fake.url, home=unjargon_home,
                        **options)
    return LiveServer(settings)


def rows(home, sql: str, *params) -> list[tuple]:
    conn = sqlite3.connect(home / "unjargon.db")
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


def assert_turn_kept(home, status: str, *, cached_rows: int = 0) -> None:
    """The reader's message is stored and answered (or failed): no turn pending, the cache as expected."""
    messages = rows(home, "SELECT role, status FROM messages ORDER BY id")
    assert messages[0] == ("user", "complete") and messages[-1] == ("assistant", status), messages
    assert len(messages) == 2
    assert rows(home, "SELECT COUNT(*) FROM pending_turns") == [(0,)]
    assert rows(home, "SELECT COUNT(*) FROM cache_leases") == [(0,)]
    assert rows(home, "SELECT COUNT(*) FROM response_cache") == [(cached_rows,)]


def assert_clear_error(response: httpx.Response, status: int, code: str) -> dict:
    assert response.status_code == status, response.text[:300]
    assert response.headers["content-type"].startswith("application/json")
    error = response.json()["error"]
    assert error["code"] == code and error["message"] and "Traceback" not in error["message"]
    assert KEY not in response.text
    if status in (503, 504):
        assert int(response.headers["retry-after"]) > 0
    return error


@pytest.mark.parametrize("fault, code", [
    (Fault(429, "rate_limit_error", "slow down"), "rate_limited"),
    (Fault(529, "overloaded_error", "Overloaded"), "overloaded"),
    (Fault(500, "api_error", "Internal server error"), "overloaded"),
])
def test_upstream_errors_that_persist_are_a_clear_503_after_the_sdk_retries(fake, unjargon_home, fault, code):
    fake.always(fault)
    with serve(fake, unjargon_home) as live:
        response = httpx.post(live.url + "/v1/explain", json={"text": THREAD}, timeout=30)
    assert_clear_error(response, 503, code)
    assert len(fake.requests) == 3  # one try and the SDK's two retries: one retry loop, not two
    assert_turn_kept(unjargon_home, "failed")


def test_server_errors_then_an_answer_is_a_200_retried_once_and_counted_once(fake, unjargon_home):
    fake.enqueue(Fault(500, "api_error"), Fault(529, "overloaded_error"), Reply([text(ANSWER)]))
    with serve(fake, unjargon_home) as live:
        response = httpx.post(live.url + "/v1/explain", json={"text": THREAD}, timeout=30)
        again = httpx.post(live.url + "/v1/explain", json={"text": THREAD}, timeout=30)
    assert response.status_code == 200 and response.json()["explanation"].strip() == ANSWER.strip()
    assert [h.get("x-stainless-retry-count") for h in fake.headers] == ["0", "1", "2"]
    assert again.json()["cached"] is True and len(fake.requests) == 3
    assert rows(unjargon_home, "SELECT COUNT(*) FROM usage") == [(1,)]  # retries are not billed twice
    assert rows(unjargon_home, "SELECT COUNT(*) FROM response_cache") == [(1,)]


def test_a_server_that_never_answers_meets_the_deadline_with_a_504(fake, unjargon_home):
    fake.always(Hang(30))
    with serve(fake, unjargon_home, request_deadline_s=1.0) as live:
        started = time.monotonic()
        response = httpx.post(live.url + "/v1/explain", json={"text": THREAD}, timeout=30)
        elapsed = time.monotonic() - started
        assert httpx.get(live.url + "/healthz").status_code == 200
    assert_clear_error(response, 504, "deadline_exceeded")
    assert elapsed < 3.0, elapsed  # the deadline bounds the whole call, whatever the SDK's per-try timeout
    assert len(fake.requests) <= 3
    assert_turn_kept(unjargon_home, "failed")


@pytest.mark.parametrize("body", [
    b"event: message_start\ndata: {this is not json\n\n",
    b'event: message_start\ndata: {"type": "message_start", "message": {"id": "m", "type": "message"}}\n\n'
    b'event: content_block_delta\ndata: {"type": "content_block_delta", "index": 7}\n\n',
    b"<html>502 Bad Gateway</html>",
    b"",
], ids=["bad-json", "out-of-order", "html", "empty"])
def test_malformed_bodies_are_a_clear_503_never_a_500(fake, unjargon_home, body):
    fake.always(Raw(body))
    with serve(fake, unjargon_home) as live:
        response = httpx.post(live.url + "/v1/explain", json={"text": THREAD}, timeout=30)
    assert response.status_code in (502, 503), response.text[:300]
    assert_clear_error(response, response.status_code, response.json()["error"]["code"])
    assert_turn_kept(unjargon_home, "failed")


def test_an_error_mid_stream_ends_the_event_stream_cleanly_and_caches_nothing(fake, unjargon_home):
    fake.enqueue(Reply([text(ANSWER)], error_after=3))
    with serve(fake, unjargon_home) as live, httpx.Client(base_url=live.url, timeout=30) as http:
        conversation_id = http.post("/v1/conversations").json()["id"]
        started = time.monotonic()
        with http.stream("POST", f"/v1/conversations/{conversation_id}/messages", json={"content": THREAD},
                         headers={"accept": "text/event-stream"}) as response:
            events = sse_events(response.read().decode())
        assert time.monotonic() - started < 5
    kinds = [kind for kind, _ in events]
    assert kinds[0] == "start" and kinds.count("delta") >= 1 and kinds[-1] == "done", kinds
    done = events[-1][1]
    assert done["explanation"] and any("cut off" in warning for warning in done["warnings"])
    said = "".join(data["text"] for kind, data in events if kind == "delta")
    assert said.strip() == done["explanation"].strip()  # what the reader saw is what is stored
    assert_turn_kept(unjargon_home, "partial")


def test_an_error_mid_stream_reaches_an_openai_client_as_an_error_chunk_then_done(fake, unjargon_home):
    fake.enqueue(Reply([text(ANSWER)], error_after=0))  # nothing said before the error
    with serve(fake, unjargon_home) as live, httpx.Client(base_url=live.url, timeout=30) as http:
        with http.stream("POST", "/v1/chat/completions", json={
                "model": "unjargon", "stream": True, "messages": [{"role": "user", "content": THREAD}]}) as response:
            assert response.status_code == 200
            lines = [line for line in response.read().decode().splitlines() if line.startswith("data:")]
    assert lines[-1] == "data: [DONE]"
    error = json.loads(lines[-2][5:])["error"]
    assert error["code"] == "overloaded" and error["type"] == "server_error"
    assert_turn_kept(unjargon_home, "failed")


def test_a_reader_who_leaves_mid_stream_cancels_the_upstream_call(fake, unjargon_home):
    words = " ".join(f"word{index}" for index in range(400))
    fake.enqueue(Reply([text(words)], event_delay_s=0.03))  # about 3 s of events if nobody stops it
    with serve(fake, unjargon_home) as live, httpx.Client(base_url=live.url, timeout=30) as http:
        conversation_id = http.post("/v1/conversations").json()["id"]
        with http.stream("POST", f"/v1/conversations/{conversation_id}/messages", json={"content": THREAD},
                         headers={"accept": "text/event-stream"}) as response:
            for line in response.iter_lines():
                if "word3" in line:
                    break  # leave mid-answer: the connection closes here
        left_at = time.monotonic()
        deadline = left_at + 5
        while not fake.streams[0]["closed_early"] and time.monotonic() < deadline:
            time.sleep(0.02)
        stream = fake.streams[0]
        assert stream["closed_early"], stream  # the model server saw its connection closed
        assert stream["closed_at"] - left_at < 2.0
        assert stream["written"] < stream["events"] / 2  # and no further events were read from it
        assert http.get("/healthz").status_code == 200  # the service carries on
        for _ in range(100):  # the stored turn lands just after the cancel
            if rows(unjargon_home, "SELECT COUNT(*) FROM pending_turns") == [(0,)]:
                break
            time.sleep(0.05)
        messages = http.get(f"/v1/conversations/{conversation_id}").json()["messages"]
    assert [m["role"] for m in messages] == ["user", "assistant"]
    assert messages[0]["content"] == THREAD
    assert messages[1]["status"] == "partial" and messages[1]["content"].startswith("word0")
    assert_turn_kept(unjargon_home, "partial")
