"""What a newcomer still hit over HTTP (issue 21): messages in HTTP's terms, HEAD, long paths, control
characters, lists of chips, and bodies that are not UTF-8 or nest too deeply."""

import pytest
from fastapi.testclient import TestClient

from calculators.registry import get
from service.config import load as load_settings
from service.http.app import create_app
from tests.support.fake_anthropic import Fault, FakeAnthropic
from tests.support.http_helpers import assert_error, sse_events


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(load_settings(backend="offline", home=tmp_path))) as test_client:
        yield test_client


def test_a_backend_without_a_key_is_named_by_the_http_field_not_a_cli_flag(client):
    error = assert_error(client.post("/v1/explain", json={"text": "PP", "backend": "anthropic"}), 400, "missing_api_key")
    assert '"backend": "offline"' in error["message"] and "--" not in error["message"]
    created = client.post("/v1/conversations").json()["id"]
    error = assert_error(client.post(f"/v1/conversations/{created}/messages",
                                     json={"content": "PP", "backend": "anthropic"}), 400, "missing_api_key")
    assert '"backend": "offline"' in error["message"] and "--" not in error["message"]


def test_the_openai_routes_name_the_model_to_use_instead(client):
    body = {"model": "unjargon-anthropic", "messages": [{"role": "user", "content": "PP"}]}
    error = assert_error(client.post("/v1/chat/completions", json=body), 400, "missing_api_key")
    assert '"unjargon-offline"' in error["message"] and "--" not in error["message"]


def test_a_rejected_key_mid_request_speaks_of_http_fields(tmp_path):
    with FakeAnthropic() as fake:
        fake.always(Fault(401, "authentication_error", "invalid x-api-key"))
        settings = load_settings(backend="anthropic", anthropic_api_key="sk-ant-test-0123456789", max_retries=0,
                                 anthropic_base_url=fake.url, home=tmp_path)
        with TestClient(create_app(settings)) as client:
            error = assert_error(client.post("/v1/explain", json={"text": "what is PP?"}), 502, "invalid_api_key")
            assert '"backend": "offline"' in error["message"] and "--" not in error["message"]
            created = client.post("/v1/conversations").json()["id"]
            streamed = client.post(f"/v1/conversations/{created}/messages", json={"content": "and TP?"},
                                   headers={"accept": "text/event-stream"})
            [failure] = [data for kind, data in sse_events(streamed.text) if kind == "error"]
            assert '"backend": "offline"' in failure["error"]["message"] and "--" not in failure["error"]["message"]


def _bounded_fields() -> list[tuple[str, str]]:
    """(calculator, field) for every batch field with an upper bound (global_batch_tokens, micro_batch)."""
    import calculators

    return [(name, spec.name) for name in calculators.names() for spec in get(name).fields if spec.maximum is not None]


@pytest.mark.parametrize("name, field", _bounded_fields())
def test_an_absurd_batch_is_a_422_naming_the_field_on_every_calculator_route(client, name, field):
    # Issue 21: 1e308 tokens came back as "1e296T tokens per step" and a step of 3e296 days.
    from tests.support.calculator_examples import VALID

    for value in (1e308, "1e308", "20G"):
        error = assert_error(client.post(f"/v1/calculators/{name}", json={**VALID[name], field: value}), 422,
                             "invalid_calculator_input")
        assert error["param"] == field and "must be at most" in error["message"]
    [listed] = [item for item in client.get("/v1/calculators").json()["calculators"] if item["name"] == name]
    number = listed["input_schema"]["properties"][field]["anyOf"][0]
    assert number["maximum"] == get(name).by_name[field].maximum  # declared to clients, not only enforced


@pytest.mark.parametrize("path", ["/v1/chart?model=K2&chip=h100&n_chips=4096&global_batch_tokens=1e308",
                                  "/v1/plan.svg?model=DSV3&chip=h800&n_chips=2048&global_batch_tokens=1e308"])
def test_the_chart_routes_refuse_an_absurd_batch_too(client, path):
    error = assert_error(client.get(path), 422)
    assert error["param"] == "global_batch_tokens"


@pytest.mark.parametrize("path", ["/", "/healthz", "/plan", "/v1/calculators", "/v1/models", "/static/app.css",
                                  "/v1/chart?model=K2&chip=h100&n_chips=4096&global_batch_tokens=16M"])
def test_head_is_answered_as_get_without_a_body(client, path):
    # Issue 21: HEAD / answered 405; monitors and link checkers send HEAD.
    head, get_ = client.head(path), client.get(path)
    assert (head.status_code, head.content) == (200, b"")
    assert head.headers["content-length"] == get_.headers["content-length"]
    assert head.headers["content-type"] == get_.headers["content-type"]


def test_head_on_a_route_without_get_is_still_405_naming_the_methods(client):
    head = client.head("/v1/explain")
    assert (head.status_code, head.content, head.headers["allow"]) == (405, b"", "POST")


def _raw_get(url: str, path: str) -> tuple[int, bytes]:
    """GET `path` over a plain socket: httpx refuses URLs over 64 KB, uvicorn and browsers do not."""
    import socket
    from urllib.parse import urlsplit

    where = urlsplit(url)
    with socket.create_connection((where.hostname, where.port), timeout=30) as connection:
        connection.sendall(f"GET {path} HTTP/1.1\r\nHost: {where.netloc}\r\nConnection: close\r\n\r\n".encode())
        response = b""
        while chunk := connection.recv(65536):
            response += chunk
    head, _, body = response.partition(b"\r\n\r\n")
    return int(head.split()[1]), body


def test_a_100_kb_path_is_a_short_404_that_does_not_echo_it(tmp_path):
    from tests.support.live_server import LiveServer

    path = "/" + "a" * 100_000
    with LiveServer(load_settings(backend="offline", home=tmp_path)) as server:
        status, body = _raw_get(server.url, path)
    assert status == 404 and len(body) < 400, len(body)  # was 100,097 bytes
    message = __import__("json").loads(body)["error"]["message"]
    assert message.startswith("no route /aaaa") and "100,001 characters" in message


@pytest.mark.parametrize("route, body", [
    ("/v1/explain", {"text": "PP\x00 and DP\x07 on\x1b[31m TPUs\x7f\r\nwith TP\x85"}),
    ("/v1/chat/completions", {"model": "unjargon-offline",
                              "messages": [{"role": "user", "content": "PP\x00 and DP\x07 on\x1b[31m TPUs\x7f\r\nwith TP\x85"}]}),
])
def test_control_characters_never_come_back_in_the_answer(client, route, body):
    # Issue 21: a NUL in the text came back inside the answer. They are removed (tab and newline stay).
    response = client.post(route, json=body)
    assert response.status_code == 200, response.text[:300]
    text = response.text
    for escaped in ("\\u0000", "\\u0007", "\\u001b", "\\u007f", "\\u0085", "\\r"):
        assert escaped not in text, escaped
    answer = response.json()
    if "conversation_id" in answer:
        stored = client.get(f"/v1/conversations/{answer['conversation_id']}").json()["messages"][0]["content"]
        assert stored == "PP and DP on[31m TPUs\nwith TP"


def test_a_text_of_control_characters_only_is_nothing_to_explain(client):
    error = assert_error(client.post("/v1/explain", json={"text": "\x00\x07\x1b"}), 422, "validation_error")
    assert error["param"] == "text" and "nothing to explain" in error["message"]


@pytest.mark.parametrize("body, words", [
    (b'{"text": "PP \xff\xfe"}', "the body is not valid UTF-8 (byte 13)"),
    (b"[" * 100_000 + b"]" * 100_000, "the JSON is nested too deeply"),
    (b'{"text": "PP", "lang": ' + b"[" * 5_000 + b"]" * 5_000 + b"}", "the JSON is nested too deeply"),
], ids=["utf8", "deep", "deep-inside"])
def test_unreadable_bodies_say_why(client, body, words):
    # Issue 21: both were a 400 "There was an error parsing the body"; a body that is not JSON is a 422 here.
    for route in ("/v1/explain", "/v1/conversations", "/v1/chat/completions", "/v1/calculators/pp_necessity"):
        response = client.post(route, content=body, headers={"content-type": "application/json"})
        error = assert_error(response, 422, "invalid_json")
        assert error["message"].startswith(words), (route, error)


def test_a_comma_list_of_chips_compares_them_as_the_cli_does(client, capsys):
    # Issue 21: "chip": "h100,tpu-v5p" answered "unknown chip 'h100,tpu-v5p'; did you mean tpu-v5p?".
    import json

    from service.cli.main import main

    inputs = {"model": "K2", "chip": "h100,tpu-v5p", "n_chips": 4096, "global_batch_tokens": "16M"}
    response = client.post("/v1/calculators/pp_necessity", json=inputs)
    assert response.status_code == 200, response.text[:300]
    results = response.json()
    assert [result["inputs"]["chip"] for result in results] == ["h100-sxm", "tpu-v5p"]
    assert main(["calc", "pp_necessity", "--model", "K2", "--chip", "h100,tpu-v5p", "--n-chips", "4096",
                 "--global-batch-tokens", "16M", "--json"]) == 0
    on_the_cli = json.loads(capsys.readouterr().out)
    assert [result["outputs"] for result in results] == [result["outputs"] for result in on_the_cli]
    single = client.post("/v1/calculators/pp_necessity", json={**inputs, "chip": "h100"}).json()
    assert single["outputs"] == results[0]["outputs"]  # one name is one result, as before


def test_a_comma_list_of_models_and_chips_gives_each_combination_once(client):
    inputs = {"model": "K2,DSV3", "chip": "h100,tpu-v5p,h100", "n_chips": 4096, "global_batch_tokens": "16M"}
    results = client.post("/v1/calculators/pp_necessity", json=inputs).json()
    assert [(r["inputs"]["model"], r["inputs"]["chip"]) for r in results] == [
        ("kimi-k2", "h100-sxm"), ("deepseek-v3", "h100-sxm"), ("kimi-k2", "tpu-v5p"), ("deepseek-v3", "tpu-v5p")]


@pytest.mark.parametrize("chip, words", [("h100,nosuch", "unknown chip 'nosuch'"), (",,", "empty comma list"),
                                         (",".join(f"x{i}" for i in range(30)), "at most 24")])
def test_a_bad_comma_list_is_a_422_naming_chip(client, chip, words):
    inputs = {"model": "K2", "chip": chip, "n_chips": 4096, "global_batch_tokens": "16M"}
    error = assert_error(client.post("/v1/calculators/pp_necessity", json=inputs), 422, "invalid_calculator_input")
    assert error["param"] == "chip" and words in error["message"]


def test_a_failed_turn_is_stored_without_a_flag_or_a_field(tmp_path):
    # The conversation is read later on any surface (the CLI's history, GET /v1/conversations/{id}).
    with FakeAnthropic() as fake:
        fake.always(Fault(401, "authentication_error", "invalid x-api-key"))
        settings = load_settings(backend="anthropic", anthropic_api_key="sk-ant-test-0123456789", max_retries=0,
                                 anthropic_base_url=fake.url, home=tmp_path)
        with TestClient(create_app(settings)) as client:
            created = client.post("/v1/conversations").json()["id"]
            client.post(f"/v1/conversations/{created}/messages", json={"content": "what is PP?"})
            [failed] = [m for m in client.get(f"/v1/conversations/{created}").json()["messages"] if m["role"] == "assistant"]
    assert failed["status"] == "failed" and failed["error"] == "Anthropic rejected the API key (HTTP 401)"
