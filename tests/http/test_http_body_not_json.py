"""A request body that is not JSON is told so, on every route that takes one (issue 13.3)."""

import pytest
from fastapi.testclient import TestClient

from service.config import load
from service.http.app import create_app
from tests.support.http_helpers import assert_error

ROUTES = ["/v1/explain", "/v1/conversations", "/v1/chat/completions", "/v1/calculators/mfu"]


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app(load(backend="offline")))


@pytest.mark.parametrize("path", ROUTES)
def test_malformed_json_is_named_as_such(client, path):
    response = client.post(path, content=b"{not json", headers={"content-type": "application/json"})
    error = assert_error(response, 422, "invalid_json")
    assert "not valid JSON" in error["message"] and "character 1" in error["message"]
    assert "decode error" not in error["message"]


@pytest.mark.parametrize("path", ["/v1/explain", "/v1/chat/completions", "/v1/calculators/mfu"])
def test_a_form_or_plain_text_body_says_it_is_not_json_and_how_to_send_it(client, path):
    for body, content_type in ((b"text=hi", "application/x-www-form-urlencoded"), (b"hello", "text/plain")):
        error = assert_error(client.post(path, content=body, headers={"content-type": content_type}), 422,
                             "invalid_json")
        assert "not JSON" in error["message"] and content_type in error["message"]
        assert "application/json" in error["message"]


@pytest.mark.parametrize("path", ["/v1/explain", "/v1/chat/completions", "/v1/calculators/mfu"])
def test_an_empty_body_is_called_empty(client, path):
    error = assert_error(client.post(path, content=b"", headers={"content-type": "application/json"}), 422,
                         "invalid_json")
    assert "empty" in error["message"]


def test_json_that_is_not_an_object_names_what_it_is(client):
    error = assert_error(client.post("/v1/explain", json=["PP"]), 422, "validation_error")
    assert "must be a JSON object, not an array" in error["message"]
    error = assert_error(client.post("/v1/explain", json="PP"), 422, "validation_error")
    assert "not a string" in error["message"]
