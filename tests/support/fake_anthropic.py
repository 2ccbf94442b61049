"""A fake Anthropic Messages API on 127.0.0.1: scripted replies as JSON or server-sent events, and faults."""

import json
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MODEL = "claude-sonnet-4-6"


def text(value: str) -> dict:
    """A text content block."""
    return {"type": "text", "text": value}


def tool_use(id: str, name: str, input: dict) -> dict:
    """A tool_use content block."""
    return {"type": "tool_use", "id": id, "name": name, "input": input}


def usage(input_tokens: int = 100, output_tokens: int = 20, cache_read: int = 0, cache_write: int = 0) -> dict:
    """A Messages API usage object."""
    return {"input_tokens": input_tokens, "output_tokens": output_tokens, "cache_read_input_tokens": cache_read,
            "cache_creation_input_tokens": cache_write,
            "cache_creation": {"ephemeral_5m_input_tokens": cache_write, "ephemeral_1h_input_tokens": 0},
            "service_tier": "standard"}


@dataclass
class Reply:
    """A successful message; streamed as SSE when the request asks for `stream`."""

    content: list[dict]
    stop_reason: str = "end_turn"
    usage: dict = field(default_factory=usage)
    model: str = MODEL
    delay_s: float = 0.0  # wait this long before answering
    error_after: int | None = None  # streaming only: an `event: error` after this many content deltas
    error_type: str = "overloaded_error"
    event_delay_s: float = 0.0  # streaming only: a pause after each event (a model that writes slowly)


@dataclass
class Fault:
    """An HTTP error with the API's error body."""

    status: int
    error_type: str
    message: str = "scripted fault"
    headers: dict = field(default_factory=lambda: {"retry-after-ms": "5"})  # keeps SDK backoff short in tests


@dataclass
class Raw:
    """A 200 response with exactly this body (for malformed streams)."""

    body: bytes
    content_type: str = "text/event-stream"


@dataclass
class Hang:
    """Accept the request and never answer (until the server stops)."""

    seconds: float = 30.0


def _chunks(value: str, size: int) -> list[str]:
    return [value[i:i + size] for i in range(0, len(value), size)] or [""]


def sse_events(reply: Reply, message_id: str) -> list[dict]:
    """The event stream of a reply, as the API sends it (text_delta and input_json_delta pieces)."""
    start_usage = {**reply.usage, "output_tokens": 1}
    events = [{"type": "message_start", "message": {
        "id": message_id, "type": "message", "role": "assistant", "model": reply.model, "content": [],
        "stop_reason": None, "stop_sequence": None, "usage": start_usage}}]
    for index, block in enumerate(reply.content):
        if block["type"] == "text":
            events.append({"type": "content_block_start", "index": index, "content_block": {"type": "text", "text": ""}})
            if index == 0:
                events.append({"type": "ping"})
            for piece in _chunks(block["text"], 12):
                events.append({"type": "content_block_delta", "index": index,
                               "delta": {"type": "text_delta", "text": piece}})
        else:
            events.append({"type": "content_block_start", "index": index, "content_block": {
                "type": "tool_use", "id": block["id"], "name": block["name"], "input": {}, "caller": {"type": "direct"}}})
            # Pieces split anywhere, inside keys too, as the real API does; the first is empty.
            pieces = [""] + _chunks(json.dumps(block["input"]), 7)
            for piece in pieces:
                events.append({"type": "content_block_delta", "index": index,
                               "delta": {"type": "input_json_delta", "partial_json": piece}})
        events.append({"type": "content_block_stop", "index": index})
    events.append({"type": "message_delta", "delta": {"stop_reason": reply.stop_reason, "stop_sequence": None},
                   "usage": {"output_tokens": reply.usage["output_tokens"]}})
    events.append({"type": "message_stop"})
    return events


class FakeAnthropic:
    """Serves POST /v1/messages from a script; records every request body (never the credentials)."""

    def __init__(self):
        self.script: deque = deque()
        self.fallback = None  # what to serve when the script is empty
        self.requests: list[dict] = []  # request bodies, in arrival order
        self.headers: list[dict] = []  # request headers without credentials
        self.authorized: list[bool] = []
        # One entry per streamed reply: how many of its events were written before the client went away.
        self.streams: list[dict] = []
        self._release = threading.Event()
        self._lock = threading.Lock()
        self._counter = 0
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # quiet: tests read `requests`, not stderr
                pass

            def do_POST(self):
                fake._handle(self)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.02},
                                       name="fake-anthropic", daemon=True)

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"

    def enqueue(self, *items) -> "FakeAnthropic":
        """Serve these next, in order."""
        self.script.extend(items)
        return self

    def always(self, item) -> "FakeAnthropic":
        """Serve this whenever the script is empty."""
        self.fallback = item
        return self

    def start(self) -> "FakeAnthropic":
        self.thread.start()
        return self

    def stop(self) -> None:
        self._release.set()
        self.server.shutdown()
        self.server.server_close()

    def point_sdk_here(self, monkeypatch, key: str) -> "FakeAnthropic":
        """Set the key and base URL the settings read so the SDK talks to this server (and no proxy)."""
        monkeypatch.setenv("ANTHROPIC_API_KEY", key)
        monkeypatch.setenv("ANTHROPIC_BASE_URL", self.url)
        monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
        return self

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    # -- serving ------------------------------------------------------------------------------

    def _handle(self, handler: BaseHTTPRequestHandler) -> None:
        length = int(handler.headers.get("content-length") or 0)
        body = json.loads(handler.rfile.read(length) or b"{}")
        headers = {k.lower(): v for k, v in handler.headers.items() if k.lower() not in ("authorization", "x-api-key")}
        authorization = handler.headers.get("authorization") or ""
        with self._lock:
            self.requests.append(body)
            self.headers.append(headers)
            self.authorized.append(authorization.startswith("Bearer ") or bool(handler.headers.get("x-api-key")))
            self._counter += 1
            message_id = f"msg_fake{self._counter:04d}"
            item = self.script.popleft() if self.script else self.fallback
        if handler.path.split("?")[0] != "/v1/messages":
            return self._error(handler, Fault(404, "not_found_error", f"no route {handler.path}", {}))
        if not self.authorized[-1]:
            return self._error(handler, Fault(401, "authentication_error", "missing credentials", {}))
        if item is None:
            return self._error(handler, Fault(400, "invalid_request_error", "fake server: script exhausted", {}))
        if isinstance(item, Hang):
            self._release.wait(item.seconds)
            return None
        if isinstance(item, Fault):
            return self._error(handler, item)
        if isinstance(item, Raw):
            return self._send(handler, 200, item.body, item.content_type, {})
        if item.delay_s:
            time.sleep(item.delay_s)
        if body.get("stream"):
            return self._stream(handler, item, message_id)
        message = {"id": message_id, "type": "message", "role": "assistant", "model": item.model,
                   "content": item.content, "stop_reason": item.stop_reason, "stop_sequence": None,
                   "usage": item.usage}
        self._send(handler, 200, json.dumps(message).encode(), "application/json", {})

    def _send(self, handler, status: int, payload: bytes, content_type: str, headers: dict) -> None:
        handler.send_response(status)
        handler.send_header("content-type", content_type)
        handler.send_header("content-length", str(len(payload)))
        handler.send_header("request-id", "req_fake")
        for name, value in headers.items():
            handler.send_header(name, value)
        handler.end_headers()
        handler.wfile.write(payload)

    def _error(self, handler, fault: Fault) -> None:
        body = {"type": "error", "error": {"type": fault.error_type, "message": fault.message}, "request_id": "req_fake"}
        self._send(handler, fault.status, json.dumps(body).encode(), "application/json", fault.headers)

    def _stream(self, handler, reply: Reply, message_id: str) -> None:
        handler.send_response(200)
        handler.send_header("content-type", "text/event-stream")
        handler.send_header("cache-control", "no-cache")
        handler.send_header("request-id", "req_fake")
        handler.end_headers()  # HTTP/1.0: the body ends when the connection closes
        deltas = 0
        events = sse_events(reply, message_id)
        record = {"events": len(events), "written": 0, "closed_early": False, "closed_at": None}
        with self._lock:
            self.streams.append(record)
        try:
            for event in events:
                if reply.error_after is not None and event["type"] == "content_block_delta" and deltas >= reply.error_after:
                    error = {"type": "error", "error": {"type": reply.error_type, "message": "scripted mid-stream error"}}
                    handler.wfile.write(f"event: error\ndata: {json.dumps(error)}\n\n".encode())
                    handler.wfile.flush()
                    return
                deltas += event["type"] == "content_block_delta"
                handler.wfile.write(f"event: {event['type']}\ndata: {json.dumps(event)}\n\n".encode())
                handler.wfile.flush()
                record["written"] += 1
                if reply.event_delay_s:
                    time.sleep(reply.event_delay_s)
        except (BrokenPipeError, ConnectionResetError):  # the client went away (deadline, cancel)
            record["closed_early"] = True
            record["closed_at"] = time.monotonic()
            return
