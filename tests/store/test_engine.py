"""The engine: cache rules, fallback, single-flight, streaming, conversations, and a fast offline path (issue 4)."""

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from service import engine
from service.llm.base import Answer, ExplainRequest
from service.failures import BackendUnavailable, ConversationNotFound
from service.config import load as load_settings

ROOT = Path(__file__).resolve().parents[2]


class ScriptedBackend:
    """A backend that answers from a list (cycling on the last), counting calls; it streams word by word."""

    def __init__(self, name, *answers, delay_s=0.0):
        self.name = name
        self.answers = list(answers)
        self.delay_s = delay_s
        self.word_delay_s = 0.0
        self.calls = 0
        self.lock = threading.Lock()

    def answer(self, request: ExplainRequest, on_text=None) -> Answer:
        with self.lock:
            self.calls += 1
            item = self.answers[min(self.calls, len(self.answers)) - 1]
        time.sleep(self.delay_s)
        if isinstance(item, Exception):
            raise item
        answer = Answer(**{"language": request.language, "backend": self.name, **item})
        for word in answer.explanation.split(" "):
            if on_text:
                on_text(word + " ")
                time.sleep(self.word_delay_s)
        return answer


@pytest.fixture
def backends(monkeypatch):
    """Replace both backends; returns them so tests can script answers."""
    made = {
        "offline": ScriptedBackend("offline", {"explanation": "offline words"}),
        "anthropic": ScriptedBackend("anthropic", {"explanation": "model words", "model": "m"}),
    }
    monkeypatch.setattr("service.llm.get", lambda name, settings=None: made[name])
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
    return made


def anthropic_settings(**overrides):
    return load_settings(**{"backend": "anthropic", **overrides})


def test_offline_explanations_are_cached_and_recorded(backends):
    first = engine.explain("PP on TPUs", backend="offline")
    second = engine.explain("PP on TPUs", backend="offline")
    assert (first["cached"], second["cached"]) == (False, True)
    assert backends["offline"].calls == 1
    assert [row["turns"] for row in engine.recent()] == [1, 1]
    assert engine.get_conversation(second["conversation_id"])["messages"][1]["cached"] is True


def test_only_complete_answers_are_cached(backends):
    backends["anthropic"].answers = [{"explanation": "cut", "status": "partial"},
                                     {"explanation": "long", "status": "max_tokens"},
                                     {"explanation": "whole"}]
    results = [engine.explain("same", settings=anthropic_settings()) for _ in range(4)]
    assert [r["cached"] for r in results] == [False, False, False, True]
    assert [r["explanation"] for r in results] == ["cut", "long", "whole", "whole"]
    assert backends["anthropic"].calls == 3


def test_auto_falls_back_to_offline_and_does_not_cache_the_stand_in(backends):
    backends["anthropic"].answers = [BackendUnavailable("Claude is overloaded")]
    result = engine.explain("text", settings=load_settings())  # auto with a key: anthropic first
    assert result["backend"] == "offline" and result["explanation"] == "offline words"
    assert result["warnings"][0].startswith("Claude is overloaded; this explanation comes from the offline explainer")
    engine.explain("text", settings=load_settings())
    assert backends["anthropic"].calls == 2  # the fallback answer was not served from the cache


def test_anthropic_mode_reports_instead_of_falling_back(backends):
    backends["anthropic"].answers = [BackendUnavailable("Claude is overloaded")]
    with pytest.raises(BackendUnavailable):
        engine.explain("text", settings=anthropic_settings())
    assert backends["offline"].calls == 0


def test_ten_identical_concurrent_requests_run_the_backend_once(backends):
    backends["anthropic"].delay_s = 0.3
    start = threading.Barrier(10)
    results = []

    def ask():
        start.wait()
        results.append(engine.explain("same question", settings=anthropic_settings()))

    threads = [threading.Thread(target=ask) for _ in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=20)
    assert backends["anthropic"].calls == 1
    assert len(results) == 10 and {r["explanation"] for r in results} == {"model words"}
    assert len({r["conversation_id"] for r in results}) == 10  # each caller still has its own conversation


def test_no_cache_skips_the_cache_and_single_flight(backends):
    engine.explain("q", backend="offline")
    engine.explain("q", backend="offline", use_cache=False)
    assert backends["offline"].calls == 2


def test_the_cache_key_covers_the_whole_request(backends):
    settings = anthropic_settings()
    current = engine.plan(settings=settings)
    request = ExplainRequest(text="t", language="en")
    prepared = engine.prepare(current, request)
    assert {"text", "language", "backend", "model", "version", "history", "max_tokens"} <= set(prepared.canonical)
    assert "sk-ant-test" not in json.dumps(prepared.canonical)
    for changed in (
        engine.prepare(engine.plan(settings=anthropic_settings(model="claude-haiku-4-5")), request),
        engine.prepare(current, ExplainRequest(text="t", language="ar")),
        engine.prepare(current, ExplainRequest(text="t", language="en", kind="followup",
                                               history=[{"kind": "explain", "user": "u", "answer": "a"}])),
        engine.prepare(engine.plan("offline"), request),
    ):
        assert changed.key != prepared.key


def test_stream_explain_yields_text_then_the_result(backends):
    events = list(engine.stream_explain("stream me", backend="offline"))
    assert events[:-1] == ["offline ", "words "] and events[-1]["explanation"] == "offline words"


def test_closing_a_stream_early_stops_and_records_it(backends):
    backends["offline"].answers = [{"explanation": " ".join(["word"] * 50)}]
    backends["offline"].word_delay_s = 0.02
    stream = engine.stream_explain("long", backend="offline", use_cache=False)
    assert next(stream) == "word "
    stream.close()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        rows = engine.recent(1)
        if rows and rows[0]["status"] == "failed":
            break
        time.sleep(0.02)
    assert engine.recent(1)[0]["status"] == "failed"


def test_stream_explain_raises_after_the_chunks(backends):
    backends["anthropic"].answers = [BackendUnavailable("Claude could not be reached")]
    with pytest.raises(BackendUnavailable):
        list(engine.stream_explain("x", settings=anthropic_settings()))


def test_follow_ups_carry_the_conversation(backends):
    first = engine.explain("What is PP?", backend="offline")
    second = engine.continue_conversation(first["conversation_id"], "And DP?", backend="offline")
    third = engine.explain("And TP?", backend="offline", continue_last=True)
    assert first["conversation_id"] == second["conversation_id"] == third["conversation_id"]
    exchanges = engine.open_store().exchanges(first["conversation_id"])
    assert [(e["kind"], e["user"]) for e in exchanges] == [("explain", "What is PP?"), ("followup", "And DP?"),
                                                           ("followup", "And TP?")]
    with pytest.raises(ConversationNotFound):
        engine.explain("x", backend="offline", conversation_id="nope")
    assert engine.resolve_conversation(first["conversation_id"][:8]) == first["conversation_id"]


def test_continue_with_nothing_to_continue_is_refused(backends):
    # Issue 21: a follow-up of nothing is not answered as a new thread (the README promises one line, status 2).
    with pytest.raises(ConversationNotFound, match="no earlier conversation to continue"):
        engine.explain("hello", backend="offline", continue_last=True)
    assert engine.recent() == [] and backends["offline"].calls == 0


def test_the_users_message_is_stored_before_the_model_is_called(backends):
    seen = {}

    def answer(request, on_text=None):
        conversation = engine.recent(1)[0]
        seen["turns"] = conversation["turns"]
        return Answer(explanation="ok", language="en", backend="anthropic")

    backends["anthropic"].answer = answer
    engine.explain("stored first", settings=anthropic_settings())
    assert seen["turns"] == 1


def test_the_offline_path_imports_no_sdk_web_framework_or_settings_library(tmp_path):
    script = (
        "import sys, service.engine as e; e.explain('you only need PP when DP-comms bound', use_cache=True);"
        "e.explain('you only need PP when DP-comms bound');"
        "print(sorted(m for m in ('anthropic', 'fastapi', 'sqlite_utils', 'pydantic_settings', 'jinja2', 'httpx2',"
        " 'asyncio') if m in sys.modules))"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "UNJARGON_"))}
    env["UNJARGON_HOME"] = str(tmp_path)
    runs = [subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, env=env)
            for _ in range(2)]
    assert all(run.returncode == 0 for run in runs), runs[0].stderr[-2000:]
    # The first run creates the database from new_database.sql (sqlite-utils only migrates older files).
    assert json.loads(runs[0].stdout.replace("'", '"')) == []
    assert json.loads(runs[1].stdout.replace("'", '"')) == []


def test_a_lease_that_ends_with_the_holders_answer_is_not_asked_again(unjargon_home, monkeypatch):
    # Another process holds the lease; it stores its answer and ends the lease between two of our polls.
    # Taking the lease then must be followed by a look in the cache, not by a second model call.
    text = "you only need PP when you're DP-comms bound"
    current = engine.plan("offline")
    prepared = engine.prepare(current, ExplainRequest(text=text, language="en"))
    store = engine.open_store(current.settings)
    store.run_write(lambda conn: conn.execute(
        "INSERT INTO cache_leases (key, worker, expires) VALUES (?, 'another-host:1:1', ?)", (prepared.key, time.time() + 60)))
    answer = Answer.from_result(engine.explain(text + " (made elsewhere)", use_cache=False), backend="offline")
    real_take = store.take_lease
    polls = []

    def take_lease(key, seconds):
        polls.append(key)
        if len(polls) == 2:  # the holder answers and its lease ends, just before this poll
            store.cache_put(key, prepared.canonical, answer.result(cached=False), backend="offline", model=None)
        return real_take(key, seconds)

    asked = []
    monkeypatch.setattr(store, "take_lease", take_lease)
    monkeypatch.setattr(engine, "_call_backend", lambda *args: asked.append(args) or answer)
    result = engine.explain(text, prepared=prepared)
    assert asked == [] and len(polls) == 2
    assert result["cached"] is True and result["explanation"] == answer.explanation


def test_a_request_arriving_while_the_first_answer_is_stored_is_not_asked_again(backends, monkeypatch):
    # Issue 21: the single flight ended before its leader stored the answer. A request of the same process arriving
    # in between missed the cache, held the lease already (its process did) and asked the backend a second time.
    store = engine.open_store(load_settings())
    real_finish, real_do = store.finish_turn, engine._flights.do
    late: dict = {}
    sharing = threading.Event()

    def do(key, fn):  # the late request joins a flight that is still running: it will share that answer
        if threading.current_thread() is late.get("thread") and key in engine._flights._flights:
            sharing.set()
        return real_do(key, fn)

    def finish_turn(*args, **kwargs):
        if "thread" not in late:  # the first answer is about to be stored: the same question arrives now
            late["thread"] = threading.Thread(
                target=lambda: late.setdefault("result", engine.explain("same question", backend="offline")))
            late["thread"].start()
            deadline = time.monotonic() + 20
            while late["thread"].is_alive() and not sharing.is_set() and time.monotonic() < deadline:
                late["thread"].join(0.01)
        return real_finish(*args, **kwargs)

    monkeypatch.setattr(engine._flights, "do", do)
    monkeypatch.setattr(store, "finish_turn", finish_turn)
    first = engine.explain("same question", backend="offline")
    late["thread"].join(20)
    assert backends["offline"].calls == 1
    assert (first["cached"], late["result"]["cached"]) == (False, True)
    assert late["result"]["explanation"] == first["explanation"]
    conversation = engine.get_conversation(late["result"]["conversation_id"])
    assert conversation["messages"][1]["cached"] is True and conversation["messages"][1]["content"] == "offline words"
