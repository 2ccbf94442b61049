"""Multi-turn history trimming never separates a tool call from its result (issue 4)."""

from service.llm.message_history import build, close_dangling, tool_pairs_intact


def render(text: str, kind: str) -> str:
    return f"<{kind}>{text}</{kind}>"


def exchange(n: int, padding: int = 0) -> dict:
    """A past exchange with one tool round: question, tool_use, tool_result, answer."""
    return {
        "kind": "explain" if n == 0 else "followup",
        "user": f"question {n}",
        "answer": f"answer {n}",
        "api_messages": [
            {"role": "assistant", "content": [{"type": "tool_use", "id": f"t{n}", "name": "mfu", "input": {}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": f"t{n}", "content": "x" * padding}]},
            {"role": "assistant", "content": [{"type": "text", "text": f"answer {n}"}]},
        ],
    }


def test_everything_fits_whole():
    messages, dropped = build([exchange(0), exchange(1), {"user": "now", "kind": "followup"}], render, 100_000)
    assert dropped == 0
    assert [m["role"] for m in messages] == ["user", "assistant", "user", "assistant"] * 2 + ["user"]
    assert messages[-1]["content"] == "<followup>now</followup>"
    assert tool_pairs_intact(messages)


def test_oldest_exchanges_go_first_and_pairs_stay_whole():
    past = [exchange(n, padding=2_000) for n in range(6)]
    for budget in range(1_000, 16_000, 700):
        messages, dropped = build([*past, {"user": "now", "kind": "followup"}], render, budget)
        assert tool_pairs_intact(messages), budget
        assert messages[0]["role"] == "user" and messages[-1]["content"] == "<followup>now</followup>"
        roles = [m["role"] for m in messages]
        assert all(a != b for a, b in zip(roles, roles[1:]))  # roles alternate
        kept = [m["content"] for m in messages if m["role"] == "user" and isinstance(m["content"], str)]
        # A contiguous recent window: if question k is kept, every later one is too.
        numbers = [int(c.split()[-1].split("<")[0]) for c in kept[:-1]]
        assert numbers == list(range(6 - len(numbers), 6)), budget
        assert dropped == 6 - len(numbers)


def test_an_exchange_too_big_to_keep_whole_keeps_its_question_and_answer():
    past = [exchange(0, padding=50_000)]
    messages, dropped = build([*past, {"user": "now", "kind": "followup"}], render, 5_000)
    assert dropped == 0
    assert messages[:2] == [{"role": "user", "content": "<explain>question 0</explain>"},
                            {"role": "assistant", "content": "answer 0"}]
    assert tool_pairs_intact(messages)


def test_an_exchange_with_broken_tool_pairs_is_replayed_as_text():
    broken = exchange(0)
    del broken["api_messages"][1]  # the tool_result is missing
    messages, _ = build([broken, {"user": "now", "kind": "followup"}], render, 100_000)
    assert messages[1] == {"role": "assistant", "content": "answer 0"}
    assert tool_pairs_intact(messages)


def test_cached_exchanges_without_api_turns_replay_their_answer():
    cached = {"kind": "explain", "user": "q", "answer": "a", "api_messages": None}
    messages, _ = build([cached, {"user": "now", "kind": "followup"}], render, 100_000)
    assert messages == [{"role": "user", "content": "<explain>q</explain>"}, {"role": "assistant", "content": "a"},
                        {"role": "user", "content": "<followup>now</followup>"}]


def test_a_dangling_tool_use_is_closed():
    turns = [{"role": "assistant", "content": [{"type": "text", "text": "so far"},
                                               {"type": "tool_use", "id": "t1", "name": "mfu", "input": {}}]}]
    assert close_dangling(turns) == [{"role": "assistant", "content": [{"type": "text", "text": "so far"}]}]
    only_call = [{"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "mfu", "input": {}}]}]
    assert close_dangling(only_call) == []
    assert not tool_pairs_intact(only_call)
