"""Multi-turn history for the Messages API: whole exchanges, trimmed oldest first, tool calls kept with their results."""

import json
from typing import Callable

RenderUser = Callable[[str, str], str]  # (text, kind) -> the user turn's text


def _size(messages: list[dict]) -> int:
    return len(json.dumps(messages, ensure_ascii=False))


def tool_pairs_intact(messages: list[dict]) -> bool:
    """Whether every tool_use is answered in the very next message, and every tool_result answers one."""
    for index, message in enumerate(messages):
        content = message["content"] if isinstance(message["content"], list) else []
        if message["role"] == "assistant":
            asked = {b["id"] for b in content if b.get("type") == "tool_use"}
            if asked:
                following = messages[index + 1]["content"] if index + 1 < len(messages) else None
                if not isinstance(following, list) or messages[index + 1]["role"] != "user":
                    return False
                answered = {b.get("tool_use_id") for b in following if b.get("type") == "tool_result"}
                if not asked <= answered:
                    return False
        else:
            answered = {b.get("tool_use_id") for b in content if b.get("type") == "tool_result"}
            if answered:
                previous = messages[index - 1] if index else None
                if previous is None or previous["role"] != "assistant" or not isinstance(previous["content"], list):
                    return False
                if not answered <= {b["id"] for b in previous["content"] if b.get("type") == "tool_use"}:
                    return False
    return True


def close_dangling(messages: list[dict]) -> list[dict]:
    """`messages` without a trailing tool_use that never got its results (an answer cut off mid-round)."""
    messages = list(messages)
    if messages and messages[-1]["role"] == "assistant" and isinstance(messages[-1]["content"], list):
        kept = [b for b in messages[-1]["content"] if b.get("type") != "tool_use"]
        if len(kept) != len(messages[-1]["content"]):
            if kept:
                messages[-1] = {"role": "assistant", "content": kept}
            else:
                messages.pop()
    return messages


def exchange_messages(exchange: dict, render_user: RenderUser, *, collapsed: bool = False) -> list[dict]:
    """One exchange as API messages: the user turn, then its tool rounds and answer (or just the answer)."""
    user = {"role": "user", "content": render_user(exchange["user"], exchange.get("kind") or "explain")}
    if "answer" not in exchange:  # the turn being asked now
        return [user]
    turns = exchange.get("api_messages")
    if not collapsed and turns and tool_pairs_intact([user, *turns]):
        return [user, *turns]
    return [user, {"role": "assistant", "content": exchange.get("answer") or "(no answer)"}]


def _merge_same_role(messages: list[dict]) -> list[dict]:
    """Adjacent messages of one role become one, so roles alternate as the API expects."""
    merged: list[dict] = []
    for message in messages:
        if merged and merged[-1]["role"] == message["role"]:
            def blocks(content):
                return content if isinstance(content, list) else [{"type": "text", "text": content}]

            merged[-1] = {"role": message["role"], "content": blocks(merged[-1]["content"]) + blocks(message["content"])}
        else:
            merged.append(message)
    return merged


def build(exchanges: list[dict], render_user: RenderUser, max_chars: int) -> tuple[list[dict], int]:
    """API messages for `exchanges` (the last is the turn being asked) within `max_chars`; also how many were dropped.

    Whole exchanges are dropped oldest first; an exchange that does not fit whole may be kept as its
    question and final answer alone. Either way a tool_use never loses its tool_result.
    """
    *past, current = exchanges
    kept: list[list[dict]] = [exchange_messages(current, render_user)]
    used = _size(kept[0])
    dropped = 0
    for position, exchange in enumerate(reversed(past)):
        full = exchange_messages(exchange, render_user)
        if used + _size(full) <= max_chars:
            kept.insert(0, full)
            used += _size(full)
            continue
        short = exchange_messages(exchange, render_user, collapsed=True)
        if used + _size(short) <= max_chars:
            kept.insert(0, short)
            used += _size(short)
            continue
        dropped = len(past) - position  # keep a contiguous recent window: everything older goes too
        break
    return _merge_same_role([message for group in kept for message in group]), dropped
