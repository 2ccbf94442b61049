"""A long explain reports its progress as the answer is written, through the SDK's in-memory client (issue 22)."""

import time

from mcp import Client

from service import config, engine
from service.i18n.messages import messages
from service.llm.base import Answer
from service.mcp import server as mcp_server
from tests.support.mcp_client import run


class SlowBackend:
    """Writes its answer a word at a time, `delay_s` apart, as a model streams."""

    name = "offline"

    def __init__(self, words: int, delay_s: float):
        self.words, self.delay_s = words, delay_s

    def answer(self, request, on_text=None) -> Answer:
        text = []
        for index in range(self.words):
            word = f"word{index} "
            if on_text:
                on_text(word)
            text.append(word)
            time.sleep(self.delay_s)
        return Answer(explanation="".join(text), language=request.language, backend="offline", terms=[])


def test_a_long_explain_reports_progress_as_it_is_written(monkeypatch):
    backend = SlowBackend(words=8, delay_s=0.05)
    monkeypatch.setattr("service.llm.get", lambda name, settings=None: backend)
    monkeypatch.setattr(mcp_server, "PROGRESS_EVERY_S", 0.1)
    config.use(config.load(backend="offline"))
    notices = []

    async def on_progress(done, total, message):
        notices.append((done, total, message))

    async def body():
        async with Client(mcp_server.build_server(config.current)) as client:
            return await client.call_tool("explain", {"text": "why does PP need microbatches?"},
                                          progress_callback=on_progress)

    result = run(body)
    assert not result.is_error, result.content
    words = messages("en")["mcp_progress"]
    written = [done for done, total, message in notices if total is None and message != words["reading"]]
    assert len(written) >= 2  # several notices while the words arrive, not one at the end
    assert written == sorted(written) and notices[0][2] == words["reading"]
    length = len(result.structured_content["explanation"])
    assert notices[-1] == (length, length, words["done"])
    assert result.structured_content["conversation_id"] in {row["id"] for row in engine.recent()}
