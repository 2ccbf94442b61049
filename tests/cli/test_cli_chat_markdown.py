"""`unjargon chat` on a terminal renders its answers' markdown, as `explain` does (issue 13.13)."""

import io
import re

import pytest

from service.cli import main as cli
from service.cli.terminal import MarkdownStream

from tests.support.fake_anthropic import FakeAnthropic, Reply, text

ANSWER = "## In short\n\nPP is **pipeline parallelism**: layers split over chips.\n\n| Degree | Bubble |\n|---|---|\n| 4 | 0.75 |\n"
ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


class Terminal(io.StringIO):
    """Standard output as a terminal would be."""

    def isatty(self) -> bool:
        return True


def last_frame(written: str) -> str:
    """What the reader sees at the end: the text after rich's last redraw, without colour codes."""
    return ESCAPES.sub("", written.split("\x1b[2K")[-1] if "\x1b[2K" in written else written)


@pytest.fixture(autouse=True)
def plain_terminal(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.delenv("NO_COLOR", raising=False)


def chat(monkeypatch, argv, stdin, stdout):
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    monkeypatch.setattr("sys.stdout", stdout)
    return cli.main(argv)


def test_offline_chat_on_a_terminal_renders_the_markdown(monkeypatch):
    monkeypatch.setattr("service.llm.offline.explain_offline", lambda text, lang=None, context="": {
        "explanation": ANSWER, "language": "en", "backend": "offline", "cached": False, "terms": [],
        "calculations": [], "warnings": []})
    screen = Terminal()
    assert chat(monkeypatch, ["chat", "-b", "offline"], "what is PP?\n", screen) == 0
    shown = ESCAPES.sub("", screen.getvalue())
    assert "pipeline parallelism" in shown and "In short" in shown
    assert "**" not in shown and "## " not in shown and "|---|" not in shown  # rendered, not raw


def test_a_streamed_answer_ends_rendered_in_full(monkeypatch):
    with FakeAnthropic() as fake:
        fake.point_sdk_here(monkeypatch, "sk-ant-test")
        monkeypatch.setenv("UNJARGON_MAX_RETRIES", "0")
        fake.enqueue(Reply([text(ANSWER)]))
        screen = Terminal()
        chat(monkeypatch, ["chat", "-b", "anthropic"], "what is PP?\n", screen)
    final = last_frame(screen.getvalue())
    assert "pipeline parallelism" in final and "In short" in final
    assert "**" not in final and "## " not in final


def test_piped_chat_is_unchanged_markdown():
    piped = io.StringIO()
    stream = MarkdownStream(piped)
    for piece in (ANSWER[:10], ANSWER[10:]):
        stream.write(piece)
    stream.close(ANSWER)
    assert piped.getvalue() == ANSWER + "\n\n"
