"""Auth, per-token isolation, body and text limits, rate limit and security headers of the HTTP service (issue 5)."""

import pytest
from fastapi.testclient import TestClient

from service import engine
from service.http import middleware as security
from service.failures import ConversationNotFound
from service.http.app import create_app
from service.http.middleware import RateLimiter, match_token, token_owner
from service.config import load as load_settings
from tests.support.http_helpers import assert_error

ALICE, BOB = "alice-token-0123456789", "bob-token-9876543210"

# Every non-public route, with a request that would succeed given a token.
PROTECTED = [
    ("POST", "/v1/explain", {"text": "PP"}),
    ("GET", "/v1/calculators", None),
    ("POST", "/v1/calculators/pipeline_bubble", {"pp_degree": 8, "microbatches": 32}),
    ("GET", "/v1/chart?model=K2&chip=h100-sxm&global_batch_tokens=67M", None),
    ("POST", "/v1/conversations", {}),
    ("GET", "/v1/conversations", None),
    ("GET", "/v1/conversations/0123456789abcdef0123456789abcdef", None),
    ("POST", "/v1/conversations/0123456789abcdef0123456789abcdef/messages", {"content": "PP"}),
    ("GET", "/v1/models", None),
    ("POST", "/v1/chat/completions", {"model": "unjargon", "messages": [{"role": "user", "content": "PP"}]}),
    ("GET", "/openapi.json", None),
    ("GET", "/docs", None),
]


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def secured():
    with TestClient(create_app(load_settings(backend="offline", api_token=f"{ALICE}, {BOB}"))) as client:
        yield client


@pytest.fixture
def calls(monkeypatch):
    """Counts engine calls: a refused request must not reach the engine."""
    count = {"explain": 0}
    real = engine.explain

    def counting(*args, **kwargs):
        count["explain"] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(engine, "explain", counting)
    return count


@pytest.mark.parametrize("method, path, body", PROTECTED)
@pytest.mark.parametrize("headers", [{}, bearer("wrong-token"), {"Authorization": "Bearer "},
                                     {"Authorization": f"Basic {ALICE}"}, {"Authorization": ALICE}])
def test_missing_or_wrong_credentials_are_401_everywhere(secured, calls, method, path, body, headers):
    response = secured.request(method, path, json=body, headers=headers)
    assert_error(response, 401)
    assert response.headers["www-authenticate"].startswith("Bearer")
    assert response.json()["error"]["type"] == "authentication_error"
    assert calls["explain"] == 0


@pytest.mark.parametrize("method, path, body", PROTECTED[:6])
def test_a_valid_token_opens_every_route(secured, method, path, body):
    response = secured.request(method, path, json=body, headers=bearer(BOB))
    assert response.status_code < 400, response.text


@pytest.mark.parametrize("path", ["/healthz", "/", "/static/app.js", "/static/app.css"])
def test_health_static_assets_and_the_page_shell_need_no_token(secured, path):
    assert secured.get(path).status_code == 200


def test_the_page_shell_holds_no_data_and_asks_for_the_token(secured):
    page = secured.get("/").text
    assert 'data-auth="required"' in page and 'id="token-form"' in page
    assert ALICE not in page


@pytest.mark.parametrize("parameter", ["token", "access_token", "api_key", "key"])
def test_a_token_in_the_query_string_is_refused(secured, calls, parameter):
    response = secured.get(f"/v1/conversations?{parameter}={ALICE}")
    error = assert_error(response, 401, "token_in_query")
    assert "Authorization header" in error["message"]
    response = secured.post(f"/v1/explain?{parameter}={ALICE}", json={"text": "PP"}, headers=bearer(ALICE))
    assert_error(response, 401, "token_in_query")  # even alongside a good header: the URL leaked it
    assert calls["explain"] == 0


def test_tokens_are_compared_in_constant_time_on_digests(monkeypatch):
    compared = []
    real = security.hmac.compare_digest

    def spy(a, b):
        compared.append((len(a), len(b)))
        return real(a, b)

    monkeypatch.setattr(security.hmac, "compare_digest", spy)
    assert match_token(BOB, [ALICE, BOB]) == BOB
    assert match_token("x", [ALICE, BOB]) is None
    assert compared == [(32, 32)] * 4  # every configured token compared, always equal-length digests


def test_one_tokens_conversations_are_invisible_to_another(secured):
    conversation_id = secured.post("/v1/conversations", json={"title": "alice's"}, headers=bearer(ALICE)).json()["id"]
    answered = secured.post(f"/v1/conversations/{conversation_id}/messages", json={"content": "What is PP?"},
                            headers=bearer(ALICE))
    assert answered.status_code == 200
    assert secured.get(f"/v1/conversations/{conversation_id}", headers=bearer(ALICE)).status_code == 200
    assert_error(secured.get(f"/v1/conversations/{conversation_id}", headers=bearer(BOB)), 404, "conversation_not_found")
    assert_error(secured.post(f"/v1/conversations/{conversation_id}/messages", json={"content": "PP"},
                              headers=bearer(BOB)), 404, "conversation_not_found")
    with secured.stream("POST", f"/v1/conversations/{conversation_id}/messages", json={"content": "PP"},
                        headers={**bearer(BOB), "accept": "text/event-stream"}) as response:
        assert response.status_code == 404
    assert secured.get("/v1/conversations", headers=bearer(BOB)).json()["conversations"] == []
    listed = secured.get("/v1/conversations", headers=bearer(ALICE)).json()["conversations"]
    assert [c["id"] for c in listed] == [conversation_id]
    # Bob cannot reach it through the engine's other doors either
    with pytest.raises(ConversationNotFound):
        engine.explain("PP", conversation_id=conversation_id, owner=token_owner(BOB), backend="offline")


def test_the_token_itself_is_never_stored(secured, unjargon_home):
    secured.post("/v1/explain", json={"text": "What is PP?"}, headers=bearer(ALICE))
    engine.close_stores()
    for path in unjargon_home.rglob("*"):
        if path.is_file():
            assert ALICE.encode() not in path.read_bytes(), path


def test_a_2_mib_body_is_413_before_any_work(secured, calls):
    big = b'{"text": "' + b"a" * (2 * 1024 * 1024) + b'"}'
    response = secured.post("/v1/explain", content=big, headers={**bearer(ALICE), "content-type": "application/json"})
    error = assert_error(response, 413, "request_too_large")
    assert "1,048,576" in error["message"]
    assert calls["explain"] == 0


def test_a_chunked_body_over_the_limit_is_413_while_it_arrives(calls):
    app = create_app(load_settings(backend="offline", max_body_bytes=64 * 1024))

    def chunks():
        yield b'{"text": "'
        for _ in range(32):
            yield b"a" * 8192
        yield b'"}'

    with TestClient(app) as client:
        response = client.post("/v1/explain", content=chunks(), headers={"content-type": "application/json"})
    assert "content-length" not in response.request.headers  # really chunked
    assert_error(response, 413, "request_too_large")
    assert calls["explain"] == 0


def test_the_body_limit_is_configurable_and_small_bodies_pass(calls):
    with TestClient(create_app(load_settings(backend="offline", max_body_bytes=100))) as client:
        assert_error(client.post("/v1/explain", json={"text": "x" * 200}), 413)
        assert client.post("/v1/explain", json={"text": "PP?"}).status_code == 200
    assert calls["explain"] == 1


def test_over_long_text_is_422_before_any_work(calls):
    with TestClient(create_app(load_settings(backend="offline", max_text_chars=50))) as client:
        error = assert_error(client.post("/v1/explain", json={"text": "a" * 51}), 422, "text_too_long")
        assert error["param"] == "text"
        conversation_id = client.post("/v1/conversations").json()["id"]
        assert_error(client.post(f"/v1/conversations/{conversation_id}/messages", json={"content": "b" * 51}), 422,
                     "text_too_long")
        chat = client.post("/v1/chat/completions",
                           json={"model": "unjargon", "messages": [{"role": "user", "content": "c" * 51}]})
        assert_error(chat, 422, "text_too_long")
        assert client.post("/v1/explain", json={"text": "a" * 50}).status_code == 200
    assert calls["explain"] == 1


def test_the_rate_limit_answers_429_with_retry_after_per_token():
    settings = load_settings(backend="offline", api_token=f"{ALICE},{BOB}", rate_limit_per_minute=3)
    with TestClient(create_app(settings)) as client:
        for _ in range(3):
            assert client.get("/v1/models", headers=bearer(ALICE)).status_code == 200
        response = client.get("/v1/models", headers=bearer(ALICE))
        assert_error(response, 429, "rate_limit_exceeded")
        assert response.json()["error"]["type"] == "rate_limit_error"
        assert 1 <= int(response.headers["retry-after"]) <= 60
        assert client.get("/v1/models", headers=bearer(BOB)).status_code == 200  # another token is unaffected
        assert client.get("/healthz").status_code == 200  # public routes are not counted


def test_without_a_limit_nothing_is_refused():
    with TestClient(create_app(load_settings(backend="offline"))) as client:
        assert all(client.get("/v1/models").status_code == 200 for _ in range(100))


def test_the_rate_limiter_window_slides():
    limiter = RateLimiter()
    assert limiter.check("a", 2, now=0.0) == 0 and limiter.check("a", 2, now=1.0) == 0
    assert limiter.check("a", 2, now=30.0) == pytest.approx(30.0)
    assert limiter.check("a", 2, now=60.5) == 0  # the first request left the window


@pytest.mark.parametrize("path", ["/", "/healthz", "/v1/calculators", "/static/app.js", "/v1/nothing"])
def test_security_headers_on_every_response(path):
    with TestClient(create_app(load_settings(backend="offline"))) as client:
        response = client.get(path)
    csp = response.headers["content-security-policy"]
    assert "default-src 'self'" in csp and "script-src 'self'" in csp and "style-src 'self'" in csp
    assert "frame-ancestors 'none'" in csp and "object-src 'none'" in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "no-referrer"
    assert "access-control-allow-origin" not in response.headers  # no CORS at all


def test_conversation_data_is_no_store():
    with TestClient(create_app(load_settings(backend="offline"))) as client:
        created = client.post("/v1/conversations")
        conversation_id = created.json()["id"]
        for response in (created, client.get("/v1/conversations"), client.get(f"/v1/conversations/{conversation_id}"),
                         client.post(f"/v1/conversations/{conversation_id}/messages", json={"content": "PP?"}),
                         client.post("/v1/explain", json={"text": "PP?"})):
            assert response.headers["cache-control"] == "no-store"
