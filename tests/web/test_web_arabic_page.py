"""An Arabic answer reads as Arabic on the page: cards, labels, chart captions, right to left (issue 13.9-10, 13.12)."""

import json
import re
import xml.etree.ElementTree as ET

import pytest
from fastapi.testclient import TestClient

import calculators
from service.config import load
from service.http import chart
from service.http.app import create_app
from service.http.html import render_calculations, render_markdown, render_result
from service.i18n.messages import messages
from tests.support.calculator_examples import VALID

FSI, PDI = "\u2068", "\u2069"
ENGLISH_WORD = re.compile(r"\b[a-z]{4,}\b")  # acronyms, names (capitalised) and units (GB/s, ms) are allowed
SVG = "{http://www.w3.org/2000/svg}"


def svg_texts(svg: str) -> list[str]:
    return ["".join(node.itertext()) for node in ET.fromstring(svg).iter(f"{SVG}text")]


def card_texts(fragment: str) -> str:
    """The words the cards themselves write, without references (cited as published) or the calculators' working."""
    fragment = re.sub(r'<li dir="ltr" lang="en">.*?</li>', "", fragment)
    fragment = re.sub(r"<ol>.*?</ol>", "", fragment)
    return re.sub(r"<[^>]+>", " ", fragment).replace("nccl-tests", "")  # a tool's name


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app(load(backend="offline")))


# ---- the page's own words ------------------------------------------------------------------------------


def test_the_page_carries_its_words_in_every_language_and_opens_in_arabic_right_to_left(client):
    page = client.get("/?lang=ar").text
    assert '<html lang="ar" dir="rtl">' in page
    assert "اشرح" in page and "المحادثات السابقة" in page
    words = json.loads(re.search(r'<script type="application/json" id="page-words">(.*?)</script>', page, re.S)[1])
    assert words["ar"]["dir"] == "rtl" and words["en"]["dir"] == "ltr"
    assert set(words["en"]["words"]) == set(words["ar"]["words"])
    for key, text in words["ar"]["words"].items():
        assert re.search(r"[\u0600-\u06ff]", text), f"page.{key} is not Arabic: {text}"
    english = client.get("/").text
    assert '<html lang="en" dir="ltr">' in english and ">Explain<" in english


def test_the_locale_files_hold_every_reader_facing_word_and_arabic_has_them_all():
    en, ar = messages("en"), messages("ar")
    for section in ("page", "card", "chart"):
        own = json.load(open("data/locale/ar.json", encoding="utf-8"))[section]
        assert set(own) == set(en[section]), section
        for key, text in own.items():
            if isinstance(text, str):
                assert re.search(r"[\u0600-\u06ff]", text) or text.startswith("{"), f"{section}.{key}: {text}"
    chart_labels = [text for text in ar["chart"].values()]
    assert len(chart_labels) == len(set(chart_labels)), "two chart labels say the same thing"
    assert len(set(ar["card"]["fields"].values())) == len(ar["card"]["fields"]), "two card fields share a label"


def test_every_calculator_output_has_a_label_in_every_language():
    for name, inputs in VALID.items():
        outputs = calculators.run(name, inputs)["outputs"]
        for field, value in outputs.items():
            if field != "verdict" and (not isinstance(value, (list, dict)) or field == "layout"):  # cards show no tables
                assert field in messages("en")["card"]["fields"], f"{name}.{field}"
                assert field in json.load(open("data/locale/ar.json", encoding="utf-8"))["card"]["fields"], f"{name}.{field}"


# ---- cards ---------------------------------------------------------------------------------------


def run(name: str, **inputs) -> dict:
    return calculators.jsonable(calculators.run(name, inputs))


def test_an_arabic_card_is_arabic_titled_and_right_to_left():
    result = run("pp_necessity", model="K2", chip="h100-sxm", global_batch_tokens="67M", n_chips=4096)
    fragment = render_calculations([result], "ar")
    assert 'dir="rtl"' in fragment
    # each name isolated, so "Kimi K2 على NVIDIA H100 SXM" keeps its order inside the right-to-left heading
    assert "<h3>فحص الحاجة إلى توازي خطوط الأنابيب — \u2068Kimi K2\u2069 على \u2068NVIDIA H100 SXM\u2069</h3>" in fragment
    assert "محدود باتصالات توازي البيانات" in fragment and "اعرض خطوات الحساب" in fragment
    seen = card_texts(fragment)
    assert ENGLISH_WORD.findall(seen) == [], seen


@pytest.mark.parametrize("name", sorted(VALID))
def test_every_calculator_card_in_arabic_has_no_english_words(name):
    fragment = render_calculations([calculators.jsonable(calculators.run(name, VALID[name]))], "ar")
    assert re.search(r"<h3>[^<]+</h3>", fragment)
    leftover = ENGLISH_WORD.findall(card_texts(fragment))
    assert leftover == [], f"{name}: {leftover}"
    steps = re.findall(r"<li>(.*?)</li>", re.search(r"<ol>(.*?)</ol>", fragment)[1])
    assert steps and all(re.search(r"[\u0600-\u06ff]", step) for step in steps)


def test_with_no_model_or_chip_the_heading_is_the_calculators_name_alone():
    result = run("pipeline_bubble", pp_degree=4, microbatches=16)
    for lang in ("en", "ar"):
        heading = re.search(r"<h3>([^<]+)</h3>", render_calculations([result], lang))[1]
        assert heading.strip() == heading and not heading.endswith(("،", ",", "—", ":"))
        assert "None" not in heading and "  " not in heading
    dense = run("pp_necessity", chip="h100-sxm", global_batch_tokens="4M", n_chips=1024)
    heading = re.search(r"<h3>([^<]+)</h3>", render_calculations([dense], "ar"))[1]
    assert heading.endswith("— NVIDIA H100 SXM") and "على" not in heading


def test_each_calculation_is_shown_once_with_a_heading_and_its_working_folded():
    one = run("pp_necessity", model="K2", chip="h100-sxm", global_batch_tokens="67M", n_chips=4096)
    other = run("pp_necessity", model="K2", chip="tpu-v5p", global_batch_tokens="67M", n_chips=4096)
    fragment = render_calculations([one, other, dict(one)], "en")
    assert fragment.count('<section class="calculation"') == 2
    assert fragment.count("<h3>") == 2 and fragment.count('<details class="working">') == 2
    assert "<details open" not in fragment


def test_the_texts_own_calculation_notes_give_way_to_the_cards():
    result = run("pipeline_bubble", pp_degree=4, microbatches=16)
    for lang in ("en", "ar"):
        m = messages(lang)
        markdown = (f"## {m['headings']['claims']}\n\n- **PP 4** claim.\n  - *{m['calculation']}: x*\n"
                    f"    {m['working_label']}:\n    - step one of the working\n\nAfter.\n")
        rendered = render_result({"explanation": markdown, "terms": [], "calculations": [result], "language": lang})
        assert "step one of the working" not in rendered["html"]
        assert "claim." in rendered["html"] and "After." in rendered["html"]
        assert rendered["calculations_html"].count("<h3>") == 1


def test_a_wide_table_scrolls_in_its_own_box():
    html = render_markdown("| a | b |\n|---|---|\n| 1 | 2 |\n")
    assert html.startswith('<div class="table-wrap"><table>') and html.rstrip().endswith("</table></div>")


# ---- the chart -----------------------------------------------------------------------------------


@pytest.mark.parametrize("inputs", [
    {"model": "K2", "chip": "tpu-v5p", "global_batch_tokens": "4M", "n_chips": 4096},
    {"params": "70B", "peak_flop_per_s": "989 TFLOP/s", "dp_bandwidth_bytes_per_s": "400GB/s", "chips_per_node": 8,
     "global_batch_tokens": "4M", "n_chips": 2048},
    {"chip": "h100-sxm", "global_batch_tokens": "4M"},
])
def test_the_arabic_chart_has_no_english_words_and_reads_right_to_left(inputs):
    svg = chart.draw(chart.sweep(inputs), "ar")
    assert 'direction="rtl"' in svg.split(">", 1)[0]
    texts = svg_texts(svg)
    assert ENGLISH_WORD.findall(" ".join(texts)) == [], texts
    title = texts[-3]
    # each name or number sits in its own isolate, so the sentence around it keeps its right-to-left order
    assert title.count(FSI) >= 3 and title.count(FSI) == title.count(PDI)
    assert "على" in title and "رمز في كل خطوة" in title


def test_chart_quantities_read_left_to_right_inside_an_arabic_chart():
    svg = chart.draw(chart.sweep({"model": "K2", "chip": "tpu-v5p", "global_batch_tokens": "4M"}), "ar")
    ticks = [node for node in ET.fromstring(svg).iter(f"{SVG}text") if node.get("direction") == "ltr"]
    assert ticks and all(re.fullmatch(r"[\d.,]+ ?[a-zµKM]*", (node.text or "").strip()) for node in ticks)
