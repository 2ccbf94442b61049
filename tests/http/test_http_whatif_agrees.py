"""The chart, the calculator route and the what-if panel give the explanation's own answer for its own inputs (issue 13.5)."""

import html
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import calculators
from service.config import load as load_settings
from service.http.app import create_app

TEXTS = [
    "DeepSeek V3 needs pipeline parallelism on H800s but not on TPUs",
    "DSV3 on 4096 H800s with a 4M token batch is DP comms bound, so it needs PP",
    "Kimi K2 trained on H800 GPUs without PP? It would be DP comms bound.",
]
APP_JS = Path(__file__).resolve().parents[2] / "service" / "http" / "static" / "app.js"


@pytest.fixture
def client():
    with TestClient(create_app(load_settings(backend="offline"))) as test_client:
        yield test_client


def _chart_verdict(svg: str) -> str:
    found = re.search(r'class="chosen-label"[^>]*>([^<]*)<', svg)
    assert found, "the chart marks the job's own configuration"
    return html.unescape(found.group(1)).split(": ", 1)[1]


@pytest.mark.parametrize("text", TEXTS)
def test_an_explanations_pipeline_inputs_give_the_same_answer_everywhere(client, text):
    answer = client.post("/v1/explain", json={"text": text, "lang": "en", "backend": "offline"}).json()
    checks = [c for c in answer["calculations"] if c["calculator"] == "pp_necessity"]
    assert checks
    for check in checks:
        inputs = {k: v for k, v in check["inputs"].items() if v is not None}
        again = client.post("/v1/calculators/pp_necessity", json=inputs).json()
        assert again["outputs"] == check["outputs"]
        out = check["outputs"]
        svg = client.get("/v1/chart", params={k: str(v) for k, v in inputs.items()}).text
        expected = ("compute-bound, no PP needed" if not out["dp_comm_bound"] else
                    "no PP degree that fits fixes it" if out["min_pp_degree"] is None else f"needs PP of degree {out['min_pp_degree']}")
        assert _chart_verdict(svg) == expected, (check["inputs"], out["verdict"])
        # the recorded figures alone, without the names that supplied them, are the same calculation
        figures = {k: str(v) for k, v in inputs.items() if k not in ("model", "chip")}
        assert _chart_verdict(client.get("/v1/chart", params=figures).text) == expected


def test_the_what_if_panel_shows_a_field_for_every_input_of_its_calculation(client):
    page = client.get("/").text
    form = page[page.index('<form id="whatif-form">'):page.index("</form>", page.index('<form id="whatif-form">'))]
    names = set(re.findall(r'name="([a-z_]+)"', form))
    assert set(calculators.schema("pp_necessity")["properties"]) <= names


def test_the_page_sends_what_it_shows_and_nothing_hidden():
    script = APP_JS.read_text(encoding="utf-8")
    fields = re.search(r"const CHART_FIELDS = \[([^\]]*)\]", script).group(1)
    assert set(calculators.schema("pp_necessity")["properties"]) <= set(re.findall(r'"([a-z_]+)"', fields))
    assert "state.extra" not in script  # degrees once kept out of sight and carried from one answer to the next
