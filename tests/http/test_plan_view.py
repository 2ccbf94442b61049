"""The plan view: the page, and the SVG bars of where a step's time and memory go per layout (issue 12)."""

import re

import pytest
from fastapi.testclient import TestClient

import calculators
from service.config import load as load_settings
from service.http.app import create_app
from service.http.plan_chart import compact_layout
from tests.support.http_helpers import assert_error

JOB = {"model": "DSV3", "chip": "h800", "n_chips": "2048", "global_batch_tokens": "15M"}


@pytest.fixture
def client():
    with TestClient(create_app(load_settings(backend="offline"))) as test_client:
        yield test_client


def test_the_plan_page_comes_in_each_language(client):
    english = client.get("/plan")
    arabic = client.get("/plan?lang=ar")
    assert english.status_code == arabic.status_code == 200
    assert 'dir="ltr"' in english.text and "Chosen layout" in english.text
    assert 'dir="rtl"' in arabic.text and "التوزيع المختار" in arabic.text
    assert "/static/plan.js" in english.text  # the page plans live in the browser


def test_the_bars_show_the_choice_and_every_runner_up_with_the_memory_line(client):
    response = client.get("/v1/plan.svg", params=JOB)
    assert response.status_code == 200 and response.headers["content-type"].startswith("image/svg+xml")
    plan = calculators.run("plan_layout", JOB)["outputs"]
    layouts = [plan["layout"]] + [other["layout"] for other in plan["runner_ups"]]
    assert len(layouts) >= 4  # the choice and at least 3 runner-ups (issue 12)
    for layout in layouts:  # each layout is a row of both charts
        assert response.text.count(f">{compact_layout(layout)}<") == 2
    assert 'class="compute"' in response.text and 'class="activations"' in response.text
    hbm = calculators.run("plan_layout", JOB)["inputs"]["hbm_bytes"]
    line = plan["memory_line"]  # data/achievable_fraction.json's memory line, calibrated by bench/calibrate.py
    assert hbm and 'class="limit"' in response.text and f"{line * hbm / 1e9:.4g} GB" in response.text


def test_the_bars_label_in_arabic_keep_the_layout_notation(client):
    svg = client.get("/v1/plan.svg", params={**JOB, "lang": "ar"}).text
    assert "أين يذهب زمن الخطوة" in svg and "الحساب" in svg
    assert re.search(r">EP\d+ · ", svg) or re.search(r">TP\d+ · ", svg) or re.search(r">PP\d+", svg)


def test_what_if_inputs_change_the_plan(client):
    small = client.get("/v1/plan.svg", params={**JOB, "n_chips": "256"}).text
    large = client.get("/v1/plan.svg", params=JOB).text
    assert small != large


@pytest.mark.parametrize("field, value", [("n_chips", "0"), ("model", "no-such-model"), ("global_batch_tokens", "lots")])
def test_bad_plan_inputs_get_the_json_error_naming_the_field(client, field, value):
    response = client.get("/v1/plan.svg", params={**JOB, field: value})
    assert_error(response, 422)
    assert field in response.json()["error"]["message"] or response.json()["error"].get("param") == field


def test_an_unknown_label_language_is_refused(client):
    assert_error(client.get("/v1/plan.svg", params={**JOB, "lang": "xx"}), 422)
