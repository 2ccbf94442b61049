"""Schemathesis over the OpenAPI document, in process (issues 5 and 6).

No generated input makes the service fail with a 5xx; every status code and content type it answers is
declared in the document, with the error body's schema; and with a token configured, no route that
declares the bearer scheme answers without it. The seed is fixed (derandomize) and examples are bounded.
"""

import atexit
import shutil
import tempfile
from pathlib import Path

import pytest

schemathesis = pytest.importorskip("schemathesis", reason="schemathesis is not installed (the test extra)")
from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis.checks import not_a_server_error  # noqa: E402
from schemathesis.core.parameters import ParameterLocation  # noqa: E402
from schemathesis.specs.openapi.checks import (  # noqa: E402
    content_type_conformance,
    ignored_auth,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)

from service.http.app import create_app  # noqa: E402
from service.config import load as load_settings  # noqa: E402

TOKEN = "fuzz-token-0123456789"


@schemathesis.check
def invalid_body_or_path_rejected(ctx, response, case):
    """negative_data_rejection for bodies and paths. Extra query parameters and headers are ignored, as HTTP
    servers do (a cache-buster must not break a request), so a case invalid only there may succeed."""
    meta = case.meta
    if meta is None or not (meta.is_negative_at(ParameterLocation.BODY) or meta.is_negative_at(ParameterLocation.PATH)):
        return None
    return negative_data_rejection(ctx, response, case)


CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance,
          invalid_body_or_path_rejected]

# The schema is built at collection, before the per-test home exists: the apps get homes of their own.
_HOME = Path(tempfile.mkdtemp(prefix="unjargon-fuzz-"))
atexit.register(shutil.rmtree, _HOME, ignore_errors=True)
schema = schemathesis.openapi.from_asgi(
    "/openapi.json", create_app(load_settings(backend="offline", home=_HOME / "open", max_text_chars=2000)))
secured_schema = schemathesis.openapi.from_asgi(
    "/openapi.json", create_app(load_settings(backend="offline", home=_HOME / "secured", max_text_chars=2000,
                                         api_token=TOKEN)), headers={"Authorization": f"Bearer {TOKEN}"})

FUZZ = settings(max_examples=8, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))


def _error_shape(response) -> None:
    if response.status_code >= 400:
        error = response.json()["error"]
        assert error["message"] and error["type"] and error["code"]
    assert "nosniff" in response.headers["x-content-type-options"]  # a list of values here


@schema.parametrize()
@FUZZ
def test_no_input_breaks_the_http_api(case):
    response = case.call_and_validate(checks=CHECKS)
    _error_shape(response)


@secured_schema.parametrize()
@FUZZ
def test_auth_cannot_be_bypassed_and_answers_stay_declared(case):
    response = case.call_and_validate(checks=[*CHECKS, ignored_auth], headers={"Authorization": f"Bearer {TOKEN}"})
    _error_shape(response)


def test_the_document_declares_the_bearer_scheme_only_with_a_token():
    open_doc = schema.raw_schema
    secured_doc = secured_schema.raw_schema
    assert "securitySchemes" not in open_doc.get("components", {})
    assert secured_doc["components"]["securitySchemes"]["bearerAuth"] == {"type": "http", "scheme": "bearer"}
    for path, operations in secured_doc["paths"].items():
        for method, operation in operations.items():
            public = path == "/healthz"
            assert ("security" in operation) != public, (method, path)
            statuses = set(operation["responses"])
            assert {"400", "413"} <= statuses and (public or {"401", "429"} <= statuses), (method, path, statuses)
            for status, response in operation["responses"].items():
                if status[0] in "45":
                    assert response["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/ErrorBody"}
