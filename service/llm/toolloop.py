"""The bounded tool-use loop: ask the model, run the tools it calls (together), answer, repeat."""

import asyncio
from typing import Callable

from service.llm import tools as tool_registry
from service.llm.message_history import close_dangling
from service.llm.base import ChatModel, ModelTurn, TextCallback

# tool_choice for the last permitted round: the model must answer in text.
NO_MORE_TOOLS = {"type": "none"}


class ToolLoop:
    """One exchange with a model; its state stays readable when the loop is cut off by an error or a deadline."""

    def __init__(self, model: ChatModel, *, system: list[dict], messages: list[dict], tools: list[dict],
                 max_rounds: int = 5, on_text: TextCallback | None = None,
                 final_round_note: str | None = None,
                 run_tool: Callable[[tool_registry.ToolCall], tool_registry.ToolCall] = tool_registry.run):
        self.model = model
        self.system = system
        self.history = messages
        self.tools = tools
        self.max_rounds = max_rounds
        self.on_text = on_text
        self.final_round_note = final_round_note
        self.run_tool = run_tool
        self.new_messages: list[dict] = []  # this exchange's assistant and tool_result turns
        self.parts: list[str] = []  # every piece of text said, in order
        self.tool_calls: list[tool_registry.ToolCall] = []
        self.turns: list[ModelTurn] = []
        self.stop_reason: str | None = None
        self.rounds_exhausted = False

    @property
    def text(self) -> str:
        """Everything the model has said so far (what a reader has already seen)."""
        return "".join(self.parts).strip()

    def messages_for_history(self) -> list[dict]:
        """This exchange's turns, never ending in a tool_use without its results."""
        return close_dangling(self.new_messages)

    def _emitter(self) -> TextCallback:
        started = False

        def emit(chunk: str) -> None:
            nonlocal started
            if not chunk:
                return
            if not started and self.parts:
                # A new turn's text starts a new paragraph, in the stream and in the final text alike.
                self._say("\n\n")
            started = True
            self._say(chunk)

        return emit

    def _say(self, chunk: str) -> None:
        self.parts.append(chunk)
        if self.on_text:
            self.on_text(chunk)

    async def _run_tools(self, blocks: list[dict]) -> list[tool_registry.ToolCall]:
        calls = [tool_registry.ToolCall(id=b["id"], name=b["name"], input=b.get("input")) for b in blocks]
        # Independent calls of one turn run together; each answers in the same tool_result message.
        done = await asyncio.gather(*(asyncio.to_thread(self.run_tool, call) for call in calls))
        self.tool_calls.extend(done)
        return list(done)

    async def run(self) -> "ToolLoop":
        """Run until the model answers in text or the last round is used; returns self."""
        for round_number in range(self.max_rounds + 1):
            last_round = round_number == self.max_rounds
            turn = await self.model.turn(
                system=self.system,
                messages=self.history + self.new_messages,
                tools=self.tools,
                tool_choice=NO_MORE_TOOLS if last_round else None,
                on_text=self._emitter(),
            )
            self.turns.append(turn)
            self.stop_reason = turn.stop_reason
            self.new_messages.append({"role": "assistant", "content": turn.content})
            asked = [b for b in turn.content if b.get("type") == "tool_use"]
            if not asked or turn.stop_reason != "tool_use":
                return self
            if last_round:
                # A model that still asks for tools gets none; its unanswered calls leave the history.
                self.rounds_exhausted = True
                self.new_messages = close_dangling(self.new_messages)
                return self
            results = await self._run_tools(asked)
            content = [call.tool_result_block() for call in results]
            if round_number + 1 == self.max_rounds and self.final_round_note:
                content.append({"type": "text", "text": self.final_round_note})
            self.new_messages.append({"role": "user", "content": content})
        return self  # not reached: the last round always returns
