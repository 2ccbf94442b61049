"""Helpers for HTTP tests: reading server-sent events and checking the JSON error shape."""

import json


def sse_events(body: str) -> list[tuple[str, object]]:
    """(event, data) pairs of a server-sent event stream; comment frames come back as ('comment', text)."""
    events = []
    for block in body.replace("\r\n", "\n").split("\n\n"):
        if not block.strip():
            continue
        kind, data = "message", []
        for line in block.split("\n"):
            if line.startswith(":"):
                events.append(("comment", line[1:].strip()))
            elif line.startswith("event:"):
                kind = line[6:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].lstrip(" "))
        if data:
            text = "\n".join(data)
            events.append((kind, text if text == "[DONE]" else json.loads(text)))
    return events


def assert_error(response, status: int, code: str | None = None):
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"}
    assert {"message", "type", "code"} <= set(body["error"])
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    if code:
        assert body["error"]["code"] == code
    assert "Traceback" not in response.text
    return body["error"]
