"""The HTTP API through the ASGI test client: routes, shapes, conversations, SSE framing and errors (issue 5)."""

from tests.support.http_helpers import assert_error, sse_events
import json

import pytest
from fastapi.testclient import TestClient

import calculators
from service import engine
from service.http.app import create_app
from service.http.deps import get_settings
from service.config import load as load_settings

ENGLISH = "We're DP-comms bound on H100s at 4096 GPUs with a 4M token batch, so we need PP. What's MFU there?"


def client_for(**overrides) -> TestClient:
    return TestClient(create_app(load_settings(backend="offline", **overrides)))


@pytest.fixture
def client():
    with client_for() as test_client:
        yield test_client


def test_healthz(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_the_page_is_served_with_local_assets_only(client):
    response = client.get("/")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    page = response.text
    assert 'src="/static/app.js' in page and 'href="/static/app.css' in page
    assert "http://" not in page and "https://" not in page  # nothing from a CDN
    assert "<script>" not in page and "onclick" not in page and "style=" not in page  # the CSP forbids inline
    assert 'dir="auto"' in page
    for asset in ("/static/app.js", "/static/app.css"):
        served = client.get(asset)
        assert served.status_code == 200
        assert "http://" not in served.text and "https://" not in served.text


def test_explain_answers_the_explanation_object(client):
    response = client.post("/v1/explain", json={"text": ENGLISH, "lang": "en", "backend": "offline"})
    assert response.status_code == 200
    result = response.json()
    assert {"explanation", "language", "backend", "cached", "terms", "calculations", "warnings",
            "conversation_id", "usage"} <= set(result)
    assert result["language"] == "en" and result["backend"] == "offline"
    found = {term["term"] for term in result["terms"]}
    assert {"PP", "MFU"} <= found
    assert any(c["calculator"] == "pp_necessity" for c in result["calculations"])
    assert response.headers["cache-control"] == "no-store"


def test_explain_rejects_unknown_fields_and_values(client):
    assert_error(client.post("/v1/explain", json={"text": "PP", "lang": "fr"}), 422, "validation_error")
    assert_error(client.post("/v1/explain", json={"text": "PP", "surprise": 1}), 422, "validation_error")
    assert_error(client.post("/v1/explain", json={}), 422, "validation_error")
    assert_error(client.post("/v1/explain", content=b"{not json", headers={"content-type": "application/json"}), 422)
    assert_error(client.post("/v1/explain", json={"text": "   "}), 422, "validation_error")


def test_a_backend_that_cannot_run_is_a_clear_400(client):
    error = assert_error(client.post("/v1/explain", json={"text": "PP", "backend": "anthropic"}), 400,
                         "missing_api_key")
    assert "ANTHROPIC_API_KEY" in error["message"] or "key" in error["message"].lower()


def test_calculators_are_listed_with_their_schemas_and_catalog(client):
    listing = client.get("/v1/calculators").json()
    assert [c["name"] for c in listing["calculators"]] == calculators.names()
    for item in listing["calculators"]:
        assert item["input_schema"] == calculators.schema(item["name"])
        assert item["url"] == f"/v1/calculators/{item['name']}"
    assert "h100-sxm" in {chip["id"] for chip in listing["chips"]}
    assert "kimi-k2" in {model["id"] for model in listing["models"]}


def test_each_calculator_input_schema_is_in_the_openapi_document(client):
    paths = client.get("/openapi.json").json()["paths"]
    for name in calculators.names():
        operation = paths[f"/v1/calculators/{name}"]["post"]
        assert operation["requestBody"]["content"]["application/json"]["schema"] == calculators.schema(name)
    assert "/v1/explain" in paths and "/v1/chat/completions" in paths


def _flat_routes(routes):
    for route in routes:
        nested = getattr(route, "original_router", None)  # FastAPI >= 0.16x keeps included routers whole
        if nested is not None:
            yield from _flat_routes(nested.routes)
        else:
            yield route


def test_the_route_inventory_is_what_the_design_lists(client):
    routes = {(method, route.path) for route in _flat_routes(client.app.routes)
              for method in getattr(route, "methods", ()) or ()}
    expected = {("GET", "/healthz"), ("GET", "/"), ("POST", "/v1/explain"), ("GET", "/v1/calculators"),
                ("POST", "/v1/calculators/{name}"), ("POST", "/v1/conversations"), ("GET", "/v1/conversations"),
                ("GET", "/v1/conversations/{conversation_id}"), ("POST", "/v1/conversations/{conversation_id}/messages"),
                ("GET", "/v1/models"), ("POST", "/v1/chat/completions"), ("GET", "/v1/chart"),
                ("GET", "/favicon.ico"), ("GET", "/openapi.json"), ("HEAD", "/openapi.json"),
                ("GET", "/plan"), ("GET", "/v1/plan.svg")}  # the plan view (issue 12)
    expected |= {("POST", "/mcp"), ("GET", "/mcp"), ("HEAD", "/mcp"), ("DELETE", "/mcp")}  # MCP (issue 22)
    expected |= {("POST", f"/v1/calculators/{name}") for name in calculators.names()}
    assert routes == expected  # no stray debug routes; /docs (a CDN page) is off


def test_a_calculator_runs_and_human_quantities_are_accepted(client):
    response = client.post("/v1/calculators/pp_necessity",
                           json={"model": "K2", "chip": "h100-sxm", "global_batch_tokens": "67M", "n_chips": 4096})
    assert response.status_code == 200
    result = response.json()
    assert result == calculators.jsonable(calculators.run("pp_necessity", {
        "model": "K2", "chip": "h100-sxm", "global_batch_tokens": "67M", "n_chips": 4096}))
    assert result["outputs"]["dp_comm_bound"] is True


def test_calculator_errors_name_the_field(client):
    error = assert_error(client.post("/v1/calculators/pp_necessity", json={"chip": "h100-sxm"}), 422,
                         "invalid_calculator_input")
    assert error["param"] == "global_batch_tokens"
    error = assert_error(client.post("/v1/calculators/mfu", json={"chip": "h100-sxm", "params": -1}), 422)
    assert error["param"] == "params"
    assert_error(client.post("/v1/calculators/mfu", json=[1, 2]), 422, "validation_error")
    assert_error(client.post("/v1/calculators/mfu", content=b"", headers={"content-type": "application/json"}), 422)
    error = assert_error(client.post("/v1/calculators/pp_necesity", json={}), 404, "unknown_calculator")
    assert "pp_necessity" in error["message"]


def test_unknown_routes_and_methods_have_the_error_shape(client):
    assert_error(client.get("/v1/nothing-here"), 404, "not_found")
    assert_error(client.delete("/v1/explain"), 405, "method_not_allowed")


def test_an_unexpected_failure_is_a_json_500_without_a_traceback(client, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("/secret/path/engine.py exploded SELECT * FROM conversations")

    monkeypatch.setattr(engine, "explain", broken)
    response = client.post("/v1/explain", json={"text": "PP"})
    assert_error(response, 500, "internal_error")
    assert "secret" not in response.text and "SELECT" not in response.text and "RuntimeError" not in response.text
    assert response.headers["x-content-type-options"] == "nosniff"  # headers on errors too
    assert not client.app.debug


def test_conversations_create_list_read_and_answer(client):
    created = client.post("/v1/conversations", json={"title": "pipelines"})
    assert created.status_code == 201
    conversation_id = created.json()["id"]
    assert len(conversation_id) == 32
    answer = client.post(f"/v1/conversations/{conversation_id}/messages", json={"content": ENGLISH})
    assert answer.status_code == 200
    result = answer.json()
    assert result["conversation_id"] == conversation_id
    assert "<abbr" in result["html"] and "Show the working" in result["calculations_html"]
    listing = client.get("/v1/conversations").json()["conversations"]
    assert listing[0]["id"] == conversation_id and listing[0]["title"] == "pipelines"
    read = client.get(f"/v1/conversations/{conversation_id}")
    assert read.status_code == 200 and read.headers["cache-control"] == "no-store"
    messages = read.json()["messages"]
    assert [m["role"] for m in messages] == ["user", "assistant"]
    assert messages[0]["content"] == ENGLISH
    assert messages[1]["html"] and messages[1]["result"]["explanation"] == result["explanation"]
    assert "owner" not in read.json()


def test_a_missing_conversation_is_404(client):
    assert_error(client.get("/v1/conversations/0123456789abcdef0123456789abcdef"), 404, "conversation_not_found")
    assert_error(client.post("/v1/conversations/nope/messages", json={"content": "PP"}), 404, "conversation_not_found")
    assert_error(client.get("/v1/conversations?limit=1000"), 422, "validation_error")


def test_a_message_streams_as_server_sent_events_and_is_saved_once_complete(client):
    conversation_id = client.post("/v1/conversations").json()["id"]
    with client.stream("POST", f"/v1/conversations/{conversation_id}/messages", json={"content": ENGLISH},
                       headers={"accept": "text/event-stream"}) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        assert response.headers["x-accel-buffering"] == "no"
        assert response.headers["cache-control"] == "no-store"
        events = sse_events(response.read().decode())
    kinds = [kind for kind, _ in events]
    assert kinds[0] == "start" and kinds[-1] == "done" and "delta" in kinds
    streamed = "".join(data["text"] for kind, data in events if kind == "delta")
    done = events[-1][1]
    assert streamed == done["explanation"]
    assert done["html"] and done["terms"] and done["calculations"]
    saved = client.get(f"/v1/conversations/{conversation_id}").json()["messages"]
    assert [m["role"] for m in saved] == ["user", "assistant"] and saved[1]["status"] == "complete"


def test_a_failure_mid_stream_is_an_error_event(client, monkeypatch):
    from service.failures import BackendUnavailable

    def failing(text, **options):
        yield "first words "
        raise BackendUnavailable("Claude is overloaded")

    monkeypatch.setattr(engine, "stream_explain", failing)
    conversation_id = client.post("/v1/conversations").json()["id"]
    with client.stream("POST", f"/v1/conversations/{conversation_id}/messages", json={"content": "PP"},
                       headers={"accept": "text/event-stream"}) as response:
        events = sse_events(response.read().decode())
    assert [kind for kind, _ in events] == ["start", "delta", "error"]
    assert events[-1][1]["error"]["code"] == "backend_unavailable"
    assert events[-1][1]["error"]["message"] == "Claude is overloaded"


def test_the_chart_is_svg_drawn_by_the_service(client):
    response = client.get("/v1/chart", params={"model": "K2", "chip": "h100-sxm", "global_batch_tokens": "67M",
                                              "n_chips": "4096"})
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("image/svg+xml")
    svg = response.text
    assert svg.startswith("<svg") and 'class="compute"' in svg and 'class="comm"' in svg
    assert 'class="pp-needed"' in svg and "pipeline parallelism needed beyond" in svg
    assert "<script" not in svg and "style=" not in svg
    arabic = client.get("/v1/chart", params={"model": "K2", "chip": "tpu-v5p", "global_batch_tokens": "67M",
                                            "lang": "ar"}).text
    assert "زمن الحساب" in arabic
    assert_error(client.get("/v1/chart", params={"model": "no-such-model", "chip": "h100-sxm"}), 422,
                 "invalid_calculator_input")
    assert_error(client.get("/v1/chart", params={"model": "K2"}), 422)  # a chip (or its figures) is needed
    assert "(assumed)" in client.get("/v1/chart", params={"chip": "h100-sxm"}).text  # no model: one is assumed


def test_settings_are_injected_and_can_be_overridden(tmp_path):
    app = create_app(load_settings(backend="offline", max_text_chars=10))
    app.dependency_overrides[get_settings] = lambda: load_settings(backend="offline", max_text_chars=1000, home=tmp_path)
    with TestClient(app) as test_client:
        response = test_client.post("/v1/explain", json={"text": "What is PP and why is DP slower?"})
    assert response.status_code == 200  # the override's limit applies, not the factory's
    assert (tmp_path / "unjargon.db").exists()


def test_explain_with_a_number_beyond_float_range_answers_200(client):
    # Issue 18: "12e45678" is infinity as a float; it used to reach JSON and fail with HTTP 500.
    response = client.post("/v1/explain", json={"text": "you only need PP when you're DP-comms bound (run 9, 12e45678)",
                                                "lang": "en", "backend": "offline"})
    assert response.status_code == 200
    assert "12e45678" not in [f["quote"] for f in response.json()["figures"]]
