"""The chart drawn for a phone's answer box (issue 21): its own width, text at full size, every label in a key."""

import re
import xml.etree.ElementTree as ET

import pytest
from fastapi.testclient import TestClient

from calculators.formatting import human
from service.config import load
from service.http import chart
from service.http.app import create_app
from service.http.svg_text import text_width, wrap
from service.i18n.messages import messages
from tests.support.http_helpers import assert_error

SVG = "{http://www.w3.org/2000/svg}"
FSI, PDI = "\u2068", "\u2069"
ENGLISH_WORD = re.compile(r"\b[a-z]{4,}\b")  # acronyms, names and units are allowed in Arabic
JOB = {"model": "K2", "chip": "tpu-v5p", "global_batch_tokens": "67M", "n_chips": 4096}


def texts(svg: str, css: str | None = None) -> list[str]:
    return ["".join(node.itertext()) for node in ET.fromstring(svg).iter(f"{SVG}text")
            if css is None or node.get("class") == css]


@pytest.mark.parametrize("lang", ["en", "ar"])
@pytest.mark.parametrize("width", [256, 327, 480])
def test_a_narrow_chart_is_as_wide_as_asked_with_12_px_text_and_says_everything_the_wide_one_does(lang, width):
    data = chart.sweep(JOB)
    narrow, wide = chart.draw(data, lang, width), chart.draw(data, lang)
    root = ET.fromstring(narrow)
    assert root.get("width") == str(width) and root.get("viewBox").split()[:3] == ["0", "0", str(width)]
    assert root.get("font-size") == "12"
    for node in root.iter(f"{SVG}text"):  # drawn 1:1 in a box of that width, nothing is under 12 px
        assert float(node.get("font-size") or root.get("font-size")) >= 12
    # the title wraps onto lines that are, joined, the wide chart's title
    assert " ".join(texts(narrow, "title")) == texts(wide, "title")[0]
    # what the wide chart writes inside its plot, the narrow one writes in its key
    words = messages(lang)["chart"]
    key = " ".join(texts(narrow, "key"))
    for name in ("compute", "comm", "region"):
        assert words[name] in key
    assert key.count(FSI) == key.count(PDI)
    assert texts(wide, "chosen-label")[0] in key  # the same verdict for the reader's chip count
    if lang == "ar":
        assert root.get("direction") == "rtl"
        assert ENGLISH_WORD.findall(" ".join(texts(narrow))) == []


def test_the_narrow_chart_keeps_the_wide_charts_marks_and_numbers():
    data = chart.sweep(JOB)
    narrow, wide = ET.fromstring(chart.draw(data, "en", 330)), ET.fromstring(chart.draw(data, "en"))
    for root in (narrow, wide):
        assert len(root.findall(f"{SVG}polyline")) == 2
        assert root.findall(f"{SVG}line[@class='pp-needed']") and root.findall(f"{SVG}rect[@class='pp-region']")
        assert len(root.findall(f"{SVG}circle[@class='chosen']")) == 2
    seconds = {"".join(n.itertext()) for n in narrow.iter(f"{SVG}text") if re.fullmatch(r"[\d.]+ (s|ms|µs)", n.text or "")}
    assert seconds == {"".join(n.itertext()) for n in wide.iter(f"{SVG}text") if re.fullmatch(r"[\d.]+ (s|ms|µs)", n.text or "")}
    crossover = human(round(data["crossover_chips"]), "count")  # where PP becomes necessary: in the plot, and in the key
    assert crossover in " ".join(texts(chart.draw(data, "en", 330), "key")) and crossover in " ".join(texts(chart.draw(data)))


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app(load(backend="offline")))


def test_the_chart_route_draws_for_the_width_it_is_given_and_names_a_bad_width(client):
    query = {key: str(value) for key, value in JOB.items()}
    assert ET.fromstring(client.get("/v1/chart", params=query).text).get("width") == "680"  # as before
    assert ET.fromstring(client.get("/v1/chart", params={**query, "width": "330"}).text).get("width") == "330"
    for bad in (str(chart.MIN_WIDTH - 1), str(chart.WIDTH + 1), "wide"):
        error = assert_error(client.get("/v1/chart", params={**query, "width": bad}), 422)
        assert "width" in error["message"] or error.get("field") == "width", error


PLAN_JOB = {"model": "DSV3", "chip": "h800", "n_chips": "2048", "global_batch_tokens": "15M"}


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_plan_bars_drawn_for_a_phone_put_each_label_above_its_bar_at_12_px(client, lang):
    wide = ET.fromstring(client.get("/v1/plan.svg", params={**PLAN_JOB, "lang": lang}).text)
    narrow = ET.fromstring(client.get("/v1/plan.svg", params={**PLAN_JOB, "lang": lang, "width": "358"}).text)
    assert wide.get("width") == "760" and narrow.get("width") == "358"
    for node in narrow.iter(f"{SVG}text"):
        assert float(node.get("font-size") or narrow.get("font-size")) >= 12
    labels = [node for node in narrow.iter(f"{SVG}text") if node.get("direction") == "ltr"]
    starts: dict[float, float] = {}  # each bar's top and its left end
    for node in narrow.iter(f"{SVG}rect"):
        if node.get("class"):
            y = float(node.get("y"))
            starts[y] = min(starts.get(y, 1e9), float(node.get("x")))
    assert labels and len(starts) == len(labels)
    for label in labels:  # each layout's label sits just above its bar, which starts at the left edge
        below = [y for y in starts if 0 < y - float(label.get("y")) <= 8]
        assert len(below) == 1 and starts[below[0]] == 6
    # the same layouts, in the same order, as the wide bars
    assert [node.text for node in labels] == [node.text for node in wide.iter(f"{SVG}text") if node.get("direction") == "ltr"]
    if lang == "ar":  # right-to-left names read in their order
        arabic = [node for node in narrow.iter(f"{SVG}text") if re.search("[\u0600-\u06ff]", node.text or "")]
        assert arabic and all(node.get("direction") == "rtl" for node in arabic)


def test_the_plan_route_names_a_bad_width(client):
    for bad in ("299", "761", "phone"):
        error = assert_error(client.get("/v1/plan.svg", params={**PLAN_JOB, "width": bad}), 422)
        assert "width" in error["message"] or error.get("field") == "width", error


@pytest.mark.parametrize("room", [90, 150, 260, 1000])
def test_a_wrapped_label_keeps_every_word_in_order_and_each_line_balanced_and_within_its_room(room):
    label = f"{FSI}Kimi K2{PDI} على {FSI}NVIDIA GB200 NVL72 (per Blackwell GPU){PDI}: {FSI}67M{PDI} رمز في كل خطوة"
    lines = wrap(label, room, 14, bold=True)
    plain = lambda text: text.replace(FSI, "").replace(PDI, "")  # noqa: E731
    assert " ".join(plain(line) for line in lines) == plain(label)
    for line in lines:
        assert line.count(FSI) == line.count(PDI) and "\x00" not in line
        assert text_width(line, 14, bold=True) <= room or " " not in plain(line)  # only a single word may be wider
    # the words of one name that share a line are one isolate, so a right-to-left line keeps their order
    assert any(f"{FSI}NVIDIA GB200" in line for line in lines) or room < 150
    assert len(lines) == 1 if room == 1000 else len(lines) > 1
