"""What each transport must also get right: stdio carries only protocol messages and ends with its client;
/mcp needs the service's token and counts against its rate limit (issue 22)."""

import json
import subprocess
import threading

import httpx
import pytest

from service.i18n.messages import messages as locale_messages
from tests.support.mcp_client import child_env, http_session, run, unjargon_script
from tests.support.server_process import ServerProcess

TOKEN = "mcp-transport-token-3"
INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                         "clientInfo": {"name": "raw-test", "version": "1"}}}


def _message(id_: int, method: str, params: dict) -> dict:
    return {"jsonrpc": "2.0", "id": id_, "method": method, "params": params}


def test_stdio_writes_only_protocol_messages_and_ends_with_its_input(tmp_path):
    requests = [
        INITIALIZE,
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        _message(2, "tools/call", {"name": "explain", "arguments": {"text": "you only need PP when you're DP-comms bound"},
                                   "_meta": {"progressToken": "p1"}}),
        _message(3, "tools/call", {"name": "mfu", "arguments": {"n_chips": "lots"}}),
        _message(4, "tools/call", {"name": "pp_necessity", "arguments": {"model": "K2", "chip": "h100",
                                                                         "n_chips": 4096, "global_batch_tokens": "16M"}}),
    ]
    server = subprocess.Popen([unjargon_script(), "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env=child_env(tmp_path), cwd=tmp_path)
    watchdog = threading.Timer(120, server.kill)  # a hung server fails the test instead of hanging it
    watchdog.start()
    try:
        server.stdin.write("".join(json.dumps(request) + "\n" for request in requests))
        server.stdin.flush()
        messages = []
        while not {2, 3, 4} <= {message.get("id") for message in messages}:
            line = server.stdout.readline()
            assert line, server.stderr.read()
            messages.append(json.loads(line))  # every line is a JSON-RPC message
        server.stdin.close()  # the client going away ends the server cleanly, with nothing more on stdout
        assert server.wait(30) == 0
        assert server.stdout.read() == ""
    finally:
        watchdog.cancel()
        server.kill()
    assert all(message["jsonrpc"] == "2.0" for message in messages)
    answers = {message["id"]: message for message in messages if "id" in message}
    assert set(answers) == {1, 2, 3, 4}
    assert answers[1]["result"]["serverInfo"]["name"] == "unjargon"
    assert answers[2]["result"]["structuredContent"]["terms"]
    assert answers[3]["result"]["isError"] is True
    assert answers[3]["result"]["content"][0]["text"].startswith("unjargon: error: ")
    assert answers[4]["result"]["structuredContent"]["outputs"]["dp_comm_bound"] is True
    progress = [m["params"] for m in messages if m.get("method") == "notifications/progress"]
    assert progress and {p["progressToken"] for p in progress} == {"p1"}
    words = locale_messages("en")["mcp_progress"]  # the notices' words come from the locale files
    assert progress[0]["message"] == words["reading"] and progress[-1]["message"] == words["done"]


@pytest.fixture(scope="module")
def limited(tmp_path_factory):
    """`unjargon serve` with a token and a rate limit of 5 requests a minute."""
    home = tmp_path_factory.mktemp("mcp-limited-home")
    env = {"UNJARGON_API_TOKEN": TOKEN, "UNJARGON_RATE_LIMIT_PER_MINUTE": "5"}
    with ServerProcess(home, workers=1, env=env) as server:
        yield server


def test_mcp_over_http_needs_the_token_and_counts_against_the_rate_limit(limited):
    url = limited.url + "/mcp"
    headers = {"Accept": "application/json, text/event-stream"}
    missing = httpx.post(url, json=INITIALIZE, headers=headers, timeout=10)
    wrong = httpx.post(url, json=INITIALIZE, headers={**headers, "Authorization": "Bearer not-the-token"}, timeout=10)
    assert (missing.status_code, missing.json()["error"]["code"]) == (401, "missing_token")
    assert (wrong.status_code, wrong.json()["error"]["code"]) == (401, "invalid_token")

    async def without_token():
        async with http_session(url) as session:
            await session.list_tools()

    with pytest.raises(BaseException):  # the SDK's client cannot even initialise
        run(without_token)

    async def with_token():
        async with http_session(url, TOKEN) as session:
            return await session.call_tool("mfu", {"model": "palm-540b", "chip": "tpu-v4", "n_chips": 6144,
                                                   "tokens_per_s": "238.3k"})

    result = run(with_token)  # initialize, initialized, tools/call: 3 of the 5 requests
    assert not result.is_error and result.structured_content["outputs"]["mfu"] > 0
    statuses = [httpx.post(url, json=INITIALIZE, timeout=10,
                           headers={**headers, "Authorization": f"Bearer {TOKEN}"}).status_code for _ in range(4)]
    assert statuses[-1] == 429 and 429 in statuses[:3]  # the same limit as every other route
