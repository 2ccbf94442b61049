"""Server-sent events: frames, keep-alive comments, and a sync generator pumped from a thread into async code."""

import asyncio
import json
import threading
from typing import AsyncIterator, Iterator

KEEPALIVE = b": keep-alive\n\n"
HEADERS = {
    "Cache-Control": "no-store",  # conversation data; also keeps proxies from caching the stream
    "X-Accel-Buffering": "no",  # nginx would otherwise hold the events back
}


def frame(data, event: str | None = None) -> bytes:
    """One event: an optional `event:` line and the data as JSON (or the literal text given)."""
    payload = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    lines = "".join(f"data: {line}\n" for line in payload.split("\n"))
    return ((f"event: {event}\n" if event else "") + lines + "\n").encode("utf-8")


class Tick:
    """Nothing arrived for a keep-alive interval."""


TICK = Tick()


async def pump(generator: Iterator, keepalive_s: float) -> AsyncIterator:
    """Yield `generator`'s items (or TICK after `keepalive_s` of silence), iterating it in its own thread.

    When the consumer stops early (the client went away), the generator is closed at its next item,
    which for engine.stream_explain cancels the work. Exceptions from the generator are re-raised here.
    """
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue = asyncio.Queue()
    stop = threading.Event()

    def put(kind: str, value=None) -> None:
        try:
            loop.call_soon_threadsafe(queue.put_nowait, (kind, value))
        except RuntimeError:  # the event loop has closed; nobody is listening any more
            pass

    def run() -> None:
        try:
            for item in generator:
                if stop.is_set():
                    break
                put("item", item)
            else:
                put("end")
        except BaseException as exc:  # handed to the async side
            put("error", exc)
        finally:
            close = getattr(generator, "close", None)
            if close:
                close()

    threading.Thread(target=run, name="unjargon-sse", daemon=True).start()
    try:
        while True:
            try:
                kind, value = await asyncio.wait_for(queue.get(), keepalive_s)
            except asyncio.TimeoutError:
                yield TICK
                continue
            if kind == "item":
                yield value
            elif kind == "end":
                return
            else:
                raise value
    finally:
        stop.set()
