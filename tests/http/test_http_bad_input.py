"""Bad input to every route: oversized, malformed, invalid UTF-8, control characters, huge numbers, NaN,
negative values. Each gets a 4xx with a message naming what is wrong, never a 500 (issue 6)."""

import json
import math

import pytest
from fastapi.testclient import TestClient

import calculators
from calculators.registry import get
from calculators.units import KIND_WORDS
from service.http.app import create_app
from service.config import load as load_settings
from tests.support.calculator_examples import VALID

# Raw JSON for a number field: what a careless or hostile client sends. Python's json reads 1e400 as
# infinity, NaN and Infinity as themselves, and 10**400 as an exact integer.
ABSURD = {
    "1e400": "1e400", "-1e400": "-1e400", "10**400": "1" + "0" * 400, "-10**400": "-1" + "0" * 400,
    "NaN": "NaN", "Infinity": "Infinity", "-Infinity": "-Infinity", "negative": "-5", "negative-text": '"-3 GB"',
    "1e400-text": '"1e400"', "nan-text": '"nan"', "inf-text": '"inf"', "10**400-text": '"1' + "0" * 400 + '"',
    "nested": "[[1, 2], [3]]", "object": '{"value": 1}', "bool": "true", "empty-text": '""', "nul-text": '"\\u0000"',
    "surrogate-text": '"\\ud800"',
}
# Absurd but finite: the arithmetic overflows (1e308 x 16 bytes) or divides by a denormal.
EXTREME = {"1e308": "1e308", "1.7e308": "1.7e308", "5e-324": "5e-324", "2**53+1": "9007199254740993"}


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    home = tmp_path_factory.mktemp("bad-input-home")
    with TestClient(create_app(load_settings(backend="offline", home=home, max_text_chars=5000)),
                    raise_server_exceptions=False) as test_client:
        yield test_client


def post_raw(client: TestClient, path: str, body: bytes | str, content_type: str = "application/json"):
    return client.post(path, content=body.encode() if isinstance(body, str) else body,
                       headers={"content-type": content_type})


def assert_4xx(response, *statuses: int) -> dict:
    assert response.status_code in (statuses or range(400, 500)), (response.status_code, response.text[:300])
    error = response.json()["error"]
    assert error["message"] and error["code"] and "Traceback" not in response.text
    return error


def strict_json(text: str):
    """JSON as the standard has it: no NaN or Infinity."""
    def refuse(constant):
        raise ValueError(f"non-standard JSON constant {constant}")

    return json.loads(text, parse_constant=refuse)


@pytest.mark.parametrize("name", calculators.names())
def test_absurd_numbers_to_every_calculator_field_are_a_422_naming_the_field(client, name):
    fields = [spec for spec in get(name).fields if spec.kind in KIND_WORDS]
    assert fields
    for spec in fields:
        base = {key: value for key, value in VALID[name].items() if key != spec.name}
        for label, raw in ABSURD.items():
            body = json.dumps(base)[:-1] + (", " if base else "") + f'"{spec.name}": {raw}}}'
            error = assert_4xx(post_raw(client, f"/v1/calculators/{name}", body), 422)
            assert error["param"] == spec.name, (spec.name, label, error)


@pytest.mark.parametrize("name", calculators.names())
def test_extreme_finite_numbers_give_a_finite_result_or_a_422(client, name):
    calculator = get(name)
    for spec in (spec for spec in calculator.fields if spec.kind in KIND_WORDS):
        base = {key: value for key, value in VALID[name].items() if key != spec.name}
        for label, raw in EXTREME.items():
            body = json.dumps(base)[:-1] + (", " if base else "") + f'"{spec.name}": {raw}}}'
            response = post_raw(client, f"/v1/calculators/{name}", body)
            if response.status_code == 200:
                outputs = strict_json(response.text)["outputs"]
                for key, value in outputs.items():
                    values = value if isinstance(value, list) else [value]
                    for item in values:
                        assert item is not None or key in calculator.nan_means_none, (spec.name, label, key)
                        assert not isinstance(item, float) or math.isfinite(item), (spec.name, label, key)
                steps = " ".join(strict_json(response.text)["steps"])
                assert " inf " not in f" {steps} " and "nan" not in steps.split(), (spec.name, label, steps[:200])
            else:
                assert_4xx(response, 422)


def test_an_overflow_is_a_clear_input_error_and_normal_results_do_not_change(client):
    response = client.post("/v1/calculators/model_state_memory", json={"params": 1e308, "bytes_per_param": 16})
    error = assert_4xx(response, 422)
    assert error["param"] == "params" and "too large" in error["message"]
    normal = client.post("/v1/calculators/model_state_memory", json={"params": "70B", "bytes_per_param": 16})
    assert normal.json()["outputs"]["bytes_total"] == 70e9 * 16


@pytest.mark.parametrize("body, label", [
    (b'{"text": ', "truncated"),
    (b'{"text": "PP" "DP"}', "malformed"),
    (b'{"text": "\xff\xfe PP \xc3("}', "invalid UTF-8"),
    (b"\xff\xfe{\x00}\x00", "a byte-order mark and garbage"),
    (b"[" * 50_000 + b"]" * 50_000, "nested 50,000 deep"),
    (b'{"text": "\\ud800 PP"}', "a lone surrogate"),
    (b'{"text": 1e400}', "a huge number for text"),
    (b'{"text": ' + b"9" * 5000 + b"}", "an integer of 5,000 digits"),
    (b'{"text": NaN}', "NaN for text"),
    (b"null", "null"),
    (b"[]", "an array"),
    (b"", "nothing"),
], ids=lambda value: value if isinstance(value, str) else None)
def test_malformed_bodies_are_4xx_on_every_post_route(client, body, label):
    conversation_id = client.post("/v1/conversations").json()["id"]
    for path in ("/v1/explain", f"/v1/conversations/{conversation_id}/messages", "/v1/chat/completions",
                 "/v1/calculators/pipeline_bubble", "/v1/conversations"):
        response = post_raw(client, path, body)
        if path == "/v1/conversations" and response.status_code == 201:
            continue  # its body is optional: null or nothing starts an empty conversation
        assert_4xx(response)


@pytest.mark.parametrize("text, status", [
    ("PP\u0000DP and TP\u0001 on\u001b[31m TPUs\u200b\u202e", 200),  # control and invisible characters
    ("x" * 5001, 422),  # one over the limit
    (" \n\t ", 422),  # nothing to explain
    ("\ud800 PP", 422),  # not Unicode a file can hold
], ids=["control-characters", "over-long", "blank", "surrogate"])
def test_text_fields_refuse_or_survive_odd_text(client, text, status):
    body = json.dumps({"text": text}).encode()  # json.dumps escapes the lone surrogate as \ud800
    response = post_raw(client, "/v1/explain", body)
    assert response.status_code == status, response.text[:300]
    if status == 200:
        assert client.get(f"/v1/conversations/{response.json()['conversation_id']}").status_code == 200
    else:
        assert_4xx(response, status)
    chat = post_raw(client, "/v1/chat/completions", json.dumps(
        {"model": "unjargon", "messages": [{"role": "user", "content": text}]}).encode())
    assert chat.status_code == status or (status == 200 and chat.status_code == 200), chat.text[:300]


def test_a_lone_surrogate_in_earlier_chat_turns_is_a_422(client):
    body = json.dumps({"model": "unjargon", "messages": [
        {"role": "user", "content": "\udc80 what is PP?"}, {"role": "assistant", "content": "pipeline"},
        {"role": "user", "content": "and DP?"}]}).encode()
    error = assert_4xx(post_raw(client, "/v1/chat/completions", body), 422)
    assert error["code"] == "invalid_unicode"


@pytest.mark.parametrize("path", ["/v1/explain", "/v1/chat/completions", "/v1/calculators/roofline", "/v1/conversations"])
def test_an_oversized_body_is_413_on_every_post_route(client, path):
    response = post_raw(client, path, b'{"text": "' + b"P" * (2 * 1024 * 1024) + b'"}')
    assert_4xx(response, 413)


@pytest.mark.parametrize("query", [
    "n_chips=1e400", "n_chips=-4096", "n_chips=NaN", "global_batch_tokens=" + "9" * 39, "params=1e308&n_chips=8",
    "global_batch_tokens=inf", "n_chips=%00", "model=%ED%A0%80", "chip=" + "x" * 101, "peak_flop_per_s=5e-324",
])
def test_bad_chart_parameters_are_a_422(client, query):
    response = client.get("/v1/chart?" + query)
    assert response.status_code in (200, 422), (query, response.status_code, response.text[:300])
    if response.status_code == 422:
        assert_4xx(response, 422)
    else:
        assert response.headers["content-type"].startswith("image/svg+xml")


def test_huge_numbers_in_chat_parameters_are_4xx(client):
    for raw in ("1e400", "1" + "0" * 400, "NaN", "-1"):
        body = '{"model": "unjargon", "messages": [{"role": "user", "content": "PP"}], "n": ' + raw + "}"
        assert_4xx(post_raw(client, "/v1/chat/completions", body))
    for raw in ("1e400", "-1", "1" + "0" * 400):
        assert_4xx(client.get(f"/v1/conversations?limit={raw}"), 422)
