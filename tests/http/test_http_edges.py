"""What a newcomer still hit over HTTP (issue 21): messages in HTTP's terms, HEAD, long paths, control
characters, lists of chips, and bodies that are not UTF-8 or nest too deeply."""

import pytest
from fastapi.testclient import TestClient

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
