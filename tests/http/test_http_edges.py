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
