"""The bounded tool loop, driven by a scripted model fed from a queue (issue 4): no network at all."""

import asyncio
import copy
import threading
from collections import deque

import pytest

from service.llm import tools
from service.llm.base import ModelTurn
from service.llm.toolloop import NO_MORE_TOOLS, ToolLoop
from service.llm.message_history import tool_pairs_intact

MFU_INPUT = {"params": "70B", "n_chips": 1024, "chip": "h100", "tokens_per_s": "1M"}
FLOPS_INPUT = {"params": "70B", "tokens": "15T"}


def said(value: str) -> dict:
    return {"type": "text", "text": value}


def asks(id: str, name: str, input: dict) -> dict:
    return {"type": "tool_use", "id": id, "name": name, "input": input}


class ScriptedModel:
    """A ChatModel that answers from a queue of turns and records what it was asked."""

    def __init__(self, *turns: ModelTurn, repeat: ModelTurn | None = None):
        self.queue = deque(turns)
        self.repeat = repeat
        self.calls: list[dict] = []

    async def turn(self, *, system, messages, tools, tool_choice, on_text) -> ModelTurn:
        self.calls.append({"messages": copy.deepcopy(messages), "tool_choice": tool_choice, "tools": tools})
        turn = self.queue.popleft() if self.queue else self.repeat
        if isinstance(turn, Exception):
            raise turn
        for block in turn.content:
            if block["type"] == "text":
                on_text(block["text"])
        return turn


def run(model, **options) -> ToolLoop:
    loop = ToolLoop(model, system=[said("system")], messages=[{"role": "user", "content": "<thread>x</thread>"}],
                    tools=[{"name": n} for n in tools.names()], **options)
    asyncio.run(loop.run())
    return loop


def test_a_plain_answer_takes_one_call():
    model = ScriptedModel(ModelTurn([said("PP is pipeline parallelism.")], "end_turn"))
    chunks = []
    loop = run(model, on_text=chunks.append)
    assert loop.text == "PP is pipeline parallelism." == "".join(chunks)
    assert loop.stop_reason == "end_turn" and len(model.calls) == 1
    assert model.calls[0]["tool_choice"] is None


def test_two_tool_calls_of_one_turn_run_together_and_answer_in_one_message():
    barrier = threading.Barrier(2, timeout=5)

    def run_tool(call):
        barrier.wait()  # both calls must be running at once, or this times out
        return tools.run(call)

    model = ScriptedModel(
        ModelTurn([said("Checking."), asks("t1", "mfu", MFU_INPUT), asks("t2", "training_flops", FLOPS_INPUT)], "tool_use"),
        ModelTurn([said("MFU is 21%.")], "end_turn"),
    )
    chunks = []
    loop = run(model, run_tool=run_tool, on_text=chunks.append)
    results = model.calls[1]["messages"][-1]
    assert results["role"] == "user"
    assert [b["tool_use_id"] for b in results["content"]] == ["t1", "t2"]
    assert not any(b.get("is_error") for b in results["content"])
    assert [c.name for c in loop.tool_calls] == ["mfu", "training_flops"]
    assert loop.text == "Checking.\n\nMFU is 21%." == "".join(chunks)  # the stream and the text agree
    assert tool_pairs_intact(loop.messages_for_history())


def test_invalid_and_unknown_calls_come_back_as_errors_and_the_loop_goes_on():
    model = ScriptedModel(
        ModelTurn([asks("t1", "mfu", {"params": "seventy", "n_chips": 8}), asks("t2", "launch_missiles", {})], "tool_use"),
        ModelTurn([said("I could not compute that.")], "end_turn"),
    )
    loop = run(model)
    first, second = model.calls[1]["messages"][-1]["content"]
    assert first["is_error"] and "params" in first["content"]
    assert second["is_error"] and "unknown tool 'launch_missiles'" in second["content"]
    assert loop.text == "I could not compute that."


def test_the_round_bound_ends_with_a_text_only_round():
    ask = ModelTurn([asks("t1", "training_flops", FLOPS_INPUT)], "tool_use")
    model = ScriptedModel(ask, ask, ModelTurn([said("Here is what I have.")], "end_turn"))
    loop = run(model, max_rounds=2, final_round_note="last round")
    assert len(model.calls) == 3
    assert [c["tool_choice"] for c in model.calls] == [None, None, NO_MORE_TOOLS]
    # The tool results before the last round carry the note that no more tools will run.
    assert model.calls[2]["messages"][-1]["content"][-1] == said("last round")
    assert loop.text == "Here is what I have." and not loop.rounds_exhausted


def test_a_model_that_keeps_asking_gets_no_more_tools_and_no_dangling_call():
    ask = ModelTurn([said("More."), asks("t9", "training_flops", FLOPS_INPUT)], "tool_use")
    model = ScriptedModel(repeat=ask)
    loop = run(model, max_rounds=3)
    assert len(model.calls) == 4  # three rounds with tools, then one without
    assert loop.rounds_exhausted
    history = loop.messages_for_history()
    assert tool_pairs_intact(history)
    assert history[-1] == {"role": "assistant", "content": [said("More.")]}


def test_an_error_mid_loop_keeps_what_was_said():
    model = ScriptedModel(
        ModelTurn([said("First part."), asks("t1", "training_flops", FLOPS_INPUT)], "tool_use"),
        ConnectionError("gone"),
    )
    loop = ToolLoop(model, system=[], messages=[{"role": "user", "content": "x"}], tools=[])
    with pytest.raises(ConnectionError):
        asyncio.run(loop.run())
    assert loop.text == "First part."
    assert tool_pairs_intact(loop.messages_for_history())
    assert len(loop.tool_calls) == 1


def test_an_answer_cut_inside_a_tool_call_is_not_replayed():
    model = ScriptedModel(ModelTurn([said("Partial"), asks("t1", "mfu", {})], "max_tokens"))
    loop = run(model)
    assert loop.stop_reason == "max_tokens" and loop.tool_calls == []
    assert loop.messages_for_history() == [{"role": "assistant", "content": [said("Partial")]}]
