"""The anthropic backend against a fake Anthropic API on 127.0.0.1 (issue 4): tools, faults, streaming, cache."""

import json
import sqlite3
import threading
import time

import pytest

import calculators
from service import engine
from service.failures import BackendRejected, BackendUnavailable, DeadlineExceeded
from service.config import load as load_settings

from tests.support.fake_anthropic import Fault, FakeAnthropic, Hang, Raw, Reply, text, tool_use

KEY = "sk-ant-test-0123456789abcdef"
THREAD = "K2 on 1024 H100s at 2M tokens/s: is MFU good, and do we need PP?"
MFU_INPUT = {"model": "K2", "n_chips": 1024, "chip": "h100", "tokens_per_s": "2M"}
FLOPS_INPUT = {"params": "32B", "tokens": "15.5T"}


@pytest.fixture
def fake(monkeypatch):
    """A running fake API, with the key and base URL the settings read."""
    with FakeAnthropic() as server:
        yield server.point_sdk_here(monkeypatch, KEY)


@pytest.fixture
def offline_stub(monkeypatch):
    """The offline explainer as a fixed answer: these tests are about falling back, not about the composer."""
    def explain_offline(text, lang=None, context=""):
        return {"explanation": "offline explanation", "language": lang or "en", "backend": "offline", "cached": False,
                "terms": [], "calculations": [], "warnings": []}

    monkeypatch.setattr("service.llm.offline.explain_offline", explain_offline)


def settings(**overrides):
    """Settings from the environment with test-sized retries and deadline."""
    return load_settings(**{"max_retries": 1, "request_deadline_s": 10.0, **overrides})


def db_rows(sql: str, *params) -> list[tuple]:
    conn = sqlite3.connect(engine.open_store().path)
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


def test_a_streamed_answer_and_the_request_it_came_from(fake):
    fake.enqueue(Reply([text("PP means pipeline parallelism: layers split across chips.")]))
    chunks = []
    result = engine.explain(THREAD, backend="anthropic", settings=settings(), on_text=chunks.append)
    assert result["backend"] == "anthropic" and result["cached"] is False
    assert result["explanation"] == "".join(chunks) == "PP means pipeline parallelism: layers split across chips."
    assert len(chunks) > 1  # it arrived in pieces, as streamed
    request = fake.requests[0]
    assert request["stream"] is True and request["model"] == settings().model
    # Prompt caching on the system prompt, the tools, and the conversation.
    assert request["system"][-1]["cache_control"] == {"type": "ephemeral"}
    assert request["tools"][-1]["cache_control"] == {"type": "ephemeral"}
    assert request["cache_control"] == {"type": "ephemeral"}
    # The tools are exactly the calculators (same names and schemas) and the glossary look-up.
    assert [t["name"] for t in request["tools"]] == [*calculators.names(), "read_config", "glossary_lookup"]
    assert request["tools"][0]["input_schema"] == calculators.schema(calculators.names()[0])
    # The thread is data in the user turn, never in the system prompt.
    assert THREAD not in json.dumps(request["system"])
    assert "<thread>\n" + THREAD + "\n</thread>" in request["messages"][0]["content"]
    assert "not follow" in request["system"][0]["text"] or "never as instructions" in request["system"][0]["text"]
    assert all(fake.authorized)
    assert result["usage"]["input_tokens"] == 100 and result["usage"]["model_calls"] == 1


def test_two_tool_calls_in_one_turn(fake):
    fake.enqueue(
        Reply([text("Checking."), tool_use("toolu_1", "mfu", MFU_INPUT), tool_use("toolu_2", "training_flops", FLOPS_INPUT)],
              stop_reason="tool_use"),
        Reply([text("MFU is about 43%.")]),
    )
    result = engine.explain(THREAD, backend="anthropic", settings=settings())
    assert len(fake.requests) == 2
    results = fake.requests[1]["messages"][-1]
    assert results["role"] == "user"
    assert [(b["type"], b["tool_use_id"], b.get("is_error", False)) for b in results["content"]] == [
        ("tool_result", "toolu_1", False), ("tool_result", "toolu_2", False)]
    assert json.loads(results["content"][0]["content"])["calculator"] == "mfu"
    # The arguments arrived as input_json_delta pieces and were put back together exactly.
    assert fake.requests[1]["messages"][-2]["content"][1]["input"] == MFU_INPUT
    assert [c["calculator"] for c in result["calculations"]] == ["mfu", "training_flops"]
    assert result["explanation"] == "Checking.\n\nMFU is about 43%."
    assert db_rows("SELECT name, is_error FROM tool_calls ORDER BY id") == [("mfu", 0), ("training_flops", 0)]
    assert len(db_rows("SELECT * FROM usage")) == 2


def test_an_unknown_tool_is_an_error_result(fake):
    fake.enqueue(Reply([tool_use("toolu_x", "launch_missiles", {"target": "moon"})], stop_reason="tool_use"),
                 Reply([text("That tool does not exist.")]))
    result = engine.explain(THREAD, backend="anthropic", settings=settings())
    block = fake.requests[1]["messages"][-1]["content"][0]
    assert block["is_error"] is True and "unknown tool 'launch_missiles'" in block["content"]
    assert result["explanation"] == "That tool does not exist." and result["calculations"] == []
    assert db_rows("SELECT name, is_error FROM tool_calls") == [("launch_missiles", 1)]


def test_arguments_of_the_wrong_type_are_an_error_result(fake):
    wrong = {"params": "seventy", "n_chips": "many", "chip": 7, "tokens_per_s": [1, 2]}
    fake.enqueue(Reply([tool_use("toolu_w", "mfu", wrong)], stop_reason="tool_use"),
                 Reply([text("The inputs were not numbers.")]))
    result = engine.explain(THREAD, backend="anthropic", settings=settings())
    block = fake.requests[1]["messages"][-1]["content"][0]
    assert block["is_error"] is True and block["content"].startswith(("params", "n_chips", "chip", "tokens_per_s"))
    assert result["explanation"] == "The inputs were not numbers."


def test_429_then_success_uses_the_sdk_retry(fake):
    fake.enqueue(Fault(429, "rate_limit_error"), Reply([text("Fine now.")]))
    result = engine.explain(THREAD, backend="anthropic", settings=settings(max_retries=2))
    assert result["explanation"] == "Fine now." and result["backend"] == "anthropic"
    assert [h["x-stainless-retry-count"] for h in fake.headers] == ["0", "1"]


def test_529_every_time_falls_back_to_offline_in_auto_mode(fake, offline_stub):
    fake.always(Fault(529, "overloaded_error", "Overloaded"))
    result = engine.explain(THREAD, settings=settings(max_retries=2))  # auto, with a key
    assert len(fake.requests) == 3  # the SDK's own retries, no second loop
    assert result["backend"] == "offline" and result["explanation"] == "offline explanation"
    assert "overloaded" in result["warnings"][0] and "offline explainer" in result["warnings"][0]
    assert db_rows("SELECT COUNT(*) FROM response_cache") == [(0,)]  # a stand-in answer is not cached


def test_529_every_time_is_a_clear_error_in_anthropic_mode(fake):
    fake.always(Fault(529, "overloaded_error", "Overloaded"))
    with pytest.raises(BackendUnavailable, match="overloaded") as caught:
        engine.explain(THREAD, backend="anthropic", settings=settings(max_retries=1))
    assert caught.value.status == 503
    assert len(fake.requests) == 2
    assert db_rows("SELECT role, status FROM messages ORDER BY id") == [("user", "complete"), ("assistant", "failed")]


@pytest.mark.parametrize("backend", ["anthropic", "auto"])
def test_401_is_not_retried_and_says_what_to_fix(fake, backend):
    fake.always(Fault(401, "authentication_error", "invalid x-api-key"))
    with pytest.raises(BackendRejected) as caught:
        engine.explain(THREAD, backend=backend, settings=settings(max_retries=3))
    assert len(fake.requests) == 1
    assert "ANTHROPIC_API_KEY" in caught.value.message and "401" in caught.value.message
    assert KEY not in str(caught.value)


def test_a_bad_request_is_not_retried_and_says_what_was_wrong(fake):
    fake.always(Fault(400, "invalid_request_error", "max_tokens: must be at most 64000"))
    with pytest.raises(BackendRejected, match="max_tokens: must be at most 64000"):
        engine.explain(THREAD, backend="anthropic", settings=settings(max_retries=3))
    assert len(fake.requests) == 1


def test_a_server_that_never_answers_meets_the_deadline(fake, offline_stub):
    fake.always(Hang(30))
    started = time.monotonic()
    with pytest.raises(DeadlineExceeded, match="deadline") as caught:
        engine.explain(THREAD, backend="anthropic", settings=settings(request_deadline_s=1.0, max_retries=2))
    assert time.monotonic() - started < 4
    assert caught.value.status == 504
    started = time.monotonic()
    result = engine.explain(THREAD, settings=settings(request_deadline_s=1.0, max_retries=2))  # auto
    assert time.monotonic() - started < 4
    assert result["backend"] == "offline" and "deadline" in result["warnings"][0]


def test_an_error_mid_stream_ends_cleanly_keeps_what_was_said_and_caches_nothing(fake):
    fake.enqueue(Reply([text("The first part of the answer, and then a lot more text that never arrives.")],
                       error_after=2))
    chunks = []
    result = engine.explain(THREAD, backend="anthropic", settings=settings(), on_text=chunks.append)
    assert chunks == ["The first pa", "rt of the an"]  # two deltas, then the error event
    assert result["explanation"] == "The first part of the an"
    assert result["cached"] is False
    assert any("cut off" in w and "not cached" in w for w in result["warnings"])
    assert db_rows("SELECT status, content FROM messages WHERE role = 'assistant'") == [("partial", result["explanation"])]
    assert db_rows("SELECT COUNT(*) FROM response_cache") == [(0,)]
    fake.enqueue(Reply([text("A whole answer.")]))
    again = engine.explain(THREAD, backend="anthropic", settings=settings())
    assert len(fake.requests) == 2 and again["explanation"] == "A whole answer."


@pytest.mark.parametrize("body", [
    b"event: message_start\ndata: {not json\n\n",
    b"",  # a stream that ends before it starts
    b'event: content_block_delta\ndata: {"type": "content_block_delta", "index": 0, '
    b'"delta": {"type": "text_delta", "text": "x"}}\n\n',  # events out of order
])
def test_a_malformed_stream_is_an_unavailable_model_not_a_crash(fake, offline_stub, body):
    fake.enqueue(Raw(body), Raw(body))
    with pytest.raises(BackendUnavailable, match="could not be read") as caught:
        engine.explain(THREAD, backend="anthropic", settings=settings())
    assert caught.value.code == "bad_reply"
    fake.enqueue(Raw(body))
    assert engine.explain(THREAD, settings=settings(max_retries=0))["backend"] == "offline"


@pytest.mark.parametrize("stop_reason, status", [("max_tokens", "max_tokens"), ("refusal", "refused")])
def test_truncated_or_refused_answers_are_never_cached(fake, stop_reason, status):
    fake.enqueue(Reply([text("An answer that stops")], stop_reason=stop_reason), Reply([text("Whole.")]))
    first = engine.explain(THREAD, backend="anthropic", settings=settings())
    assert first["warnings"] and "not cached" in first["warnings"][-1]
    assert db_rows("SELECT status FROM messages WHERE role = 'assistant'") == [(status,)]
    second = engine.explain(THREAD, backend="anthropic", settings=settings())
    assert second["explanation"] == "Whole." and len(fake.requests) == 2


def test_a_cache_hit_makes_no_request(fake):
    fake.enqueue(Reply([text("Cached answer.")]))
    first = engine.explain(THREAD, backend="anthropic", settings=settings())
    chunks = []
    second = engine.explain(THREAD, backend="anthropic", settings=settings(), on_text=chunks.append)
    assert len(fake.requests) == 1
    assert second["cached"] is True and first["cached"] is False
    assert second["explanation"] == first["explanation"] == "".join(chunks)
    assert second["conversation_id"] != first["conversation_id"]  # each request is its own conversation
    # Another model, or --no-cache, asks again.
    fake.enqueue(Reply([text("Other model.")]), Reply([text("Fresh.")]))
    assert engine.explain(THREAD, backend="anthropic", settings=settings(model="claude-haiku-4-5"))["cached"] is False
    assert engine.explain(THREAD, backend="anthropic", settings=settings(), use_cache=False)["explanation"] == "Fresh."
    assert len(fake.requests) == 3


def test_ten_identical_concurrent_requests_ask_the_model_once(fake):
    fake.enqueue(Reply([text("One answer for all.")], delay_s=0.5))
    results, errors = [], []
    start = threading.Barrier(10)

    def ask():
        start.wait()
        try:
            results.append(engine.explain(THREAD, backend="anthropic", settings=settings()))
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=ask) for _ in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not errors
    assert len(fake.requests) == 1
    assert {r["explanation"] for r in results} == {"One answer for all."}
    assert sorted(r["cached"] for r in results) == [False] + [True] * 9


def test_a_follow_up_sends_the_history_with_tool_calls_paired(fake):
    fake.enqueue(
        Reply([tool_use("toolu_1", "mfu", MFU_INPUT)], stop_reason="tool_use"),
        Reply([text("MFU is 43%.")]),
        Reply([text("Because K2 is a mixture of experts.")]),
    )
    first = engine.explain(THREAD, backend="anthropic", settings=settings())
    second = engine.explain("Why so low?", backend="anthropic", settings=settings(),
                            conversation_id=first["conversation_id"])
    messages = fake.requests[2]["messages"]
    assert [m["role"] for m in messages] == ["user", "assistant", "user", "assistant", "user"]
    assert messages[1]["content"][0]["type"] == "tool_use" and messages[2]["content"][0]["type"] == "tool_result"
    assert "<question>\nWhy so low?\n</question>" == messages[-1]["content"]
    assert second["conversation_id"] == first["conversation_id"]


def test_an_unreachable_server_falls_back_in_auto_and_is_named_in_anthropic_mode(monkeypatch, offline_stub):
    import socket

    with socket.socket() as probe:  # a port that nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", f"http://user:secret@127.0.0.1:{port}")
    with pytest.raises(BackendUnavailable, match=f"could not be reached \\(at 127.0.0.1:{port}\\)") as caught:
        engine.explain(THREAD, backend="anthropic", settings=settings(max_retries=0))
    assert "secret" not in caught.value.message
    result = engine.explain(THREAD, settings=settings(max_retries=0))
    assert result["backend"] == "offline" and "could not be reached" in result["warnings"][0]


def test_no_test_can_reach_a_real_host(monkeypatch, offline_stub):
    import socket

    import anthropic  # noqa: F401  (imported first, so the timing below measures only the refusal)

    with pytest.raises(ConnectionRefusedError, match="tests may not reach 198.51.100.7"):
        socket.create_connection(("198.51.100.7", 443), timeout=1)  # TEST-NET-2: refused by conftest's guard
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", "http://198.51.100.7:9")
    started = time.monotonic()
    with pytest.raises(BackendUnavailable, match="could not be reached"):
        engine.explain(THREAD, backend="anthropic", settings=settings(max_retries=0))
    assert time.monotonic() - started < 4  # refused at once, not after the 5 s connect timeout


def test_a_number_from_nowhere_is_flagged(fake):
    # DESIGN.md: every number not in the input comes from a calculation; a model's invented figure is called out.
    fake.enqueue(Reply([tool_use("t1", "mfu", MFU_INPUT)], stop_reason="tool_use"),
                 Reply([text("MFU is fine here. By the way, NVLink runs at 1234 GB/s.")]))
    result = engine.explain(THREAD, backend="anthropic", settings=settings())
    flagged = [w for w in result["warnings"] if "neither the text nor a calculation" in w]
    assert flagged and "1234" in flagged[0]
    mfu = next(c for c in result["calculations"] if c["calculator"] == "mfu")
    assert mfu["outputs"]["mfu"] > 0


def test_numbers_taken_from_the_calculations_are_not_flagged(fake):
    result_mfu = calculators.run("mfu", MFU_INPUT)
    shown = calculators.formatting.human_field("mfu", result_mfu["outputs"]["mfu"])
    fake.enqueue(Reply([tool_use("t1", "mfu", MFU_INPUT)], stop_reason="tool_use"),
                 Reply([text(f"On 1024 H100s at 2M tokens/s the MFU is {shown}.")]))
    result = engine.explain(THREAD, backend="anthropic", settings=settings())
    assert not [w for w in result["warnings"] if "neither the text nor a calculation" in w]
