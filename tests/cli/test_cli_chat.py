"""`unjargon chat`, `unjargon history` and `explain --continue` (issue 4)."""

import io
import json

import pytest

from service.cli import main as cli
from service import engine

from tests.support.fake_anthropic import FakeAnthropic, Reply, text


@pytest.fixture(autouse=True)
def offline_echo(monkeypatch):
    """The offline explainer as an echo: these tests are about the commands, not the composer."""
    def explain_offline(text, lang=None, context=""):
        return {"explanation": f"explained: {text}", "language": lang or "en", "backend": "offline",
                "cached": False, "terms": [], "calculations": [], "warnings": []}

    monkeypatch.setattr("service.llm.offline.explain_offline", explain_offline)


def run(capsys, monkeypatch, argv, stdin=""):
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    status = cli.main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def test_chat_piped_holds_one_conversation(capsys, monkeypatch):
    status, out, err = run(capsys, monkeypatch, ["chat", "--backend", "offline"],
                           "PP on TPUs\nat K2 scale\n\nwhat is DP?\n")
    assert status == 0
    assert "explained: PP on TPUs\nat K2 scale" in out and "explained: what is DP?" in out
    assert "you>" not in out  # no prompts when piped
    [row] = engine.recent()
    assert row["turns"] == 2


def test_chat_new_starts_another_conversation_and_quit_leaves(capsys, monkeypatch):
    status, out, _ = run(capsys, monkeypatch, ["chat", "-b", "offline"], "one\n\n/new\ntwo\n\n/quit\nthree\n")
    assert status == 0 and "explained: three" not in out
    assert sorted(row["turns"] for row in engine.recent()) == [1, 1]


def test_chat_continues_the_latest_or_a_named_conversation(capsys, monkeypatch):
    first = engine.explain("first thread", backend="offline")
    engine.explain("other thread", backend="offline")
    run(capsys, monkeypatch, ["chat", "-b", "offline", "--cid", first["conversation_id"][:10]], "follow up\n")
    conversation = engine.get_conversation(first["conversation_id"])
    assert [m["content"] for m in conversation["messages"] if m["role"] == "user"] == ["first thread", "follow up"]
    run(capsys, monkeypatch, ["chat", "-b", "offline", "--continue"], "and again\n")
    assert engine.recent(1)[0]["id"] == first["conversation_id"] and engine.recent(1)[0]["turns"] == 3
    status, _, err = run(capsys, monkeypatch, ["chat", "-b", "offline", "--cid", "zzzz"], "x\n")
    assert status == 2 and "no conversation 'zzzz'" in err  # an unknown id is bad input (issue 21)


def test_explain_continue_follows_up_the_last_explanation(capsys, monkeypatch):
    run(capsys, monkeypatch, ["explain", "-b", "offline", "What is MFU?"])
    status, out, _ = run(capsys, monkeypatch, ["explain", "-b", "offline", "--continue", "--json", "And HFU?"])
    assert status == 0
    result = json.loads(out)
    assert engine.get_conversation(result["conversation_id"])["messages"][0]["content"] == "What is MFU?"


def test_explain_no_cache_asks_again(capsys, monkeypatch):
    run(capsys, monkeypatch, ["explain", "-b", "offline", "--json", "same"])
    _, cached, _ = run(capsys, monkeypatch, ["explain", "-b", "offline", "--json", "same"])
    _, fresh, _ = run(capsys, monkeypatch, ["explain", "-b", "offline", "--json", "--no-cache", "same"])
    assert json.loads(cached)["cached"] is True and json.loads(fresh)["cached"] is False


def test_history_lists_and_shows(capsys, monkeypatch):
    status, _, err = run(capsys, monkeypatch, ["history"])
    assert status == 0 and "No explanations yet" in err
    result = engine.explain("a thread about ZeRO-3", backend="offline")
    engine.explain("and FSDP?", backend="offline", conversation_id=result["conversation_id"])
    status, out, _ = run(capsys, monkeypatch, ["history"])
    assert status == 0 and result["conversation_id"][:12] in out and "2 turns" in out and "a thread about ZeRO-3" in out
    _, out, _ = run(capsys, monkeypatch, ["history", "--json", "-n", "5"])
    assert json.loads(out)[0]["id"] == result["conversation_id"]
    _, out, _ = run(capsys, monkeypatch, ["history", result["conversation_id"][:8]])
    assert "you (" in out and "explained: and FSDP?" in out


def test_chat_streams_from_claude_and_reports_errors_without_leaving(capsys, monkeypatch):
    with FakeAnthropic() as fake:
        fake.point_sdk_here(monkeypatch, "sk-ant-test")
        monkeypatch.setenv("UNJARGON_MAX_RETRIES", "0")
        fake.enqueue(Reply([text("PP is pipeline parallelism.")]))  # the second message finds the script empty
        status, out, err = run(capsys, monkeypatch, ["chat", "-b", "anthropic"], "what is PP?\n\nand TP?\n")
    assert "PP is pipeline parallelism." in out
    assert "unjargon: error: The Anthropic API refused the request" in err
    assert status == 1  # piped input that failed says so in the exit status


# Issue 21: bad input is one line and exit status 2, and nothing is stored for it.
@pytest.mark.parametrize("argv", [["explain", "-b", "offline", "--continue", "and on TPUs?"],
                                  ["chat", "-b", "offline", "--continue"]], ids=["explain", "chat"])
def test_continue_with_no_earlier_conversation_is_one_line_and_status_2(capsys, monkeypatch, argv):
    status, out, err = run(capsys, monkeypatch, argv, "and on TPUs?\n")
    assert status == 2 and out == ""
    assert err == "unjargon: error: there is no earlier conversation to continue; leave out --continue to start one\n"
    assert engine.recent() == []


def test_history_of_an_unknown_conversation_is_status_2(capsys, monkeypatch):
    status, out, err = run(capsys, monkeypatch, ["history", "zzz"])
    assert (status, out) == (2, "") and err == "unjargon: error: no conversation 'zzz'; `unjargon history` lists them\n"


@pytest.mark.parametrize("argv", [["explain", "what is PP?"], ["chat"]], ids=["explain", "chat"])
def test_the_anthropic_backend_without_a_key_is_status_2_naming_the_fix(capsys, monkeypatch, argv):
    monkeypatch.setenv("UNJARGON_BACKEND", "anthropic")
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    status, _, err = run(capsys, monkeypatch, argv, "what is PP?\n")
    assert status == 2
    assert "unjargon: error: the anthropic backend needs an API key: set ANTHROPIC_API_KEY, or use --backend offline" in err
