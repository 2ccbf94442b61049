"""The API key never appears in logs, the database, outputs or error messages (issue 4)."""

import json
import logging
import uuid

import pytest

from service.cli import main as cli
from service import engine
from service.failures import UnjargonError
from service.config import load as load_settings

from tests.support.fake_anthropic import Fault, FakeAnthropic, Reply, text, tool_use

CANARY = f"sk-ant-canary-{uuid.uuid4().hex}"


@pytest.fixture
def fake(monkeypatch):
    with FakeAnthropic() as server:
        yield server.point_sdk_here(monkeypatch, CANARY)


def test_the_canary_key_is_never_logged_stored_or_shown(fake, caplog, capsys, monkeypatch, unjargon_home):
    caplog.set_level(logging.DEBUG)  # everything the SDK and HTTP client would log
    settings = load_settings(max_retries=1, request_deadline_s=10)
    outputs: list[str] = []
    monkeypatch.setattr("service.llm.offline.explain_offline", lambda text, lang=None, context="": {
        "explanation": "offline", "language": "en", "backend": "offline", "cached": False,
        "terms": [], "calculations": [], "warnings": []})

    fake.enqueue(Reply([tool_use("toolu_1", "training_flops", {"params": "70B", "tokens": "15T"})], stop_reason="tool_use"),
                 Reply([text("About 6.3e24 FLOPs.")]))
    outputs.append(json.dumps(engine.explain("Llama 3 70B on 15T tokens", backend="anthropic", settings=settings)))

    fake.enqueue(Reply([text("Cut off here and")], error_after=1))  # an error mid-stream
    outputs.append(json.dumps(engine.explain("a second thread", backend="anthropic", settings=settings)))

    fake.enqueue(Fault(529, "overloaded_error"), Fault(529, "overloaded_error"))  # fall back to offline
    outputs.append(json.dumps(engine.explain("a third thread", settings=settings)))

    for status, kind in ((401, "authentication_error"), (400, "invalid_request_error"), (403, "permission_error")):
        fake.enqueue(Fault(status, kind, f"server says no ({status})"))
        with pytest.raises(UnjargonError) as caught:
            engine.explain(f"thread {status}", backend="anthropic", settings=settings)
        outputs += [str(caught.value), repr(caught.value), caught.value.message]

    fake.enqueue(Reply([text("From the command line.")]))
    assert cli.main(["explain", "--json", "--backend", "anthropic", "from the CLI"]) == 0
    assert cli.main(["history", "--json"]) == 0
    captured = capsys.readouterr()
    outputs += [captured.out, captured.err]

    assert all(fake.authorized) and len(fake.requests) >= 8  # the key was really sent each time
    assert "Sending HTTP Request" in caplog.text  # and the SDK's debug logs were captured
    for output in outputs:
        assert CANARY not in output
    assert CANARY not in caplog.text
    for record in caplog.records:
        assert CANARY not in record.getMessage()
    # The database, its -wal and -shm, and anything else written there: while open, and after closing
    # (which checkpoints the WAL into the main file).
    for closing in (False, True):
        if closing:
            engine.close_stores()
        files = [p for p in unjargon_home.rglob("*") if p.is_file()]
        assert any(p.name == "unjargon.db" for p in files)
        assert closing or any(p.name == "unjargon.db-wal" for p in files)
        for path in files:
            assert CANARY.encode() not in path.read_bytes(), path
