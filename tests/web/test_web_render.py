"""Safe HTML for the web page (markdown-it with HTML off, then nh3) and the service's SVG chart (issue 5)."""

import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

import numpy as np
import pytest

import calculators
from service.http import chart
from service.http.html import render_calculations, render_markdown, render_result, sanitize

PAYLOADS = (
    "<script>alert(1)</script>\n\n"
    "<img src=x onerror=alert(2)>\n\n"
    "[click me](javascript:alert(3)) and [data](data:text/html;base64,PHNjcmlwdD4=)\n\n"
    "![secret](https://evil.example/collect?q=SECRET)\n\n"
    "<iframe src=https://evil.example></iframe>\n\n"
    '<a href="https://ok.example" onclick="alert(4)">a link</a>\n\n'
    "[fine](https://example.org/page) and [mail](mailto:someone@example.org)\n\n"
    "<svg onload=alert(5)><circle/></svg> <style>body{display:none}</style>"
)


class _Tags(HTMLParser):
    """Every tag and attribute as a browser's parser would see them."""

    def __init__(self):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def assert_inert(fragment: str) -> None:
    parser = _Tags()
    parser.feed(fragment)
    for tag, attributes in parser.tags:
        assert tag not in ("script", "iframe", "svg", "style", "img", "image", "object", "embed", "form", "base"), tag
        for name, value in attributes.items():
            assert not name.startswith("on"), (tag, name)  # no event handler
            assert name not in ("src", "style", "srcset", "formaction"), (tag, name)
            if name == "href":
                assert re.match(r"(https?:|mailto:|/|#)", value or ""), value  # never javascript:, data: ...
                assert "evil.example" not in value


def test_payloads_in_markdown_are_shown_as_text_not_run():
    html = render_markdown(PAYLOADS)
    assert_inert(html)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html  # the reader still sees what was written
    assert '<a href="https://example.org/page"' in html and 'href="mailto:someone@example.org"' in html
    assert 'rel="noopener noreferrer nofollow"' in html


def test_raw_html_reaching_the_sanitiser_is_cleaned():
    dirty = ('<p onclick="x()">hi<script>alert(1)</script></p><a href="javascript:alert(1)">j</a>'
             '<a href="https://ok.example" onmouseover="x()">ok</a><img src="https://evil.example/x.png">'
             '<abbr title="t" onfocus="x()" class="term">PP</abbr><details open ontoggle="x()"><summary>s</summary></details>')
    clean = sanitize(dirty)
    assert_inert(clean)
    assert '<a href="https://ok.example"' in clean and "<abbr" in clean and "<details" in clean


def test_an_external_image_becomes_its_description():
    html = render_markdown("See ![the chart](https://evil.example/q?data=1)")
    assert "[the chart]" in html and "evil.example" not in html


def test_terms_are_marked_with_their_definitions():
    terms = [{"id": "pp", "term": "PP", "expansion": "pipeline parallelism",
              "definition": 'layers on different chips, "in stages" <b>'},
             {"id": "dp-comms-bound", "term": "DP-comms bound", "expansion": "bound by data-parallel communication",
              "definition": "waiting on gradients"},
             {"id": "bandwidth", "term": "bandwidth", "found_as": "النطاق الترددي", "expansion": "عرض النطاق",
              "definition": "بايتات في الثانية"}]
    html = render_markdown("We are DP-comms bound, so PP helps; `PP` in code and [PP](https://x.example) stay."
                           "\n\nApps are not PP. النطاق الترددي مهم. Bandwidth too.", terms)
    assert html.count('<abbr class="term"') == 5  # PP twice, DP-comms bound, the Arabic spelling, Bandwidth
    assert 'title="pipeline parallelism: layers on different chips, &quot;in stages&quot; &lt;b&gt;"' in html
    assert "<code>PP</code>" in html and ">PP</a>" in html  # not inside code or links
    assert "Apps" in html and "A<abbr" not in html  # whole words only
    assert 'data-term="bandwidth" title="عرض النطاق: بايتات في الثانية">النطاق الترددي</abbr>' in html


def test_a_terms_definition_cannot_inject_markup():
    terms = [{"id": '"><script>x</script>', "term": "PP", "expansion": '"><img src=x onerror=alert(1)>',
              "definition": "<script>alert(1)</script>"}]
    html = render_markdown("PP", terms)
    assert_inert(html)
    assert html.count("<abbr") == 1


def test_calculations_have_their_working_behind_a_toggle():
    result = calculators.jsonable(calculators.run("pp_necessity", {
        "model": "K2", "chip": "h100-sxm", "global_batch_tokens": "67M", "n_chips": 4096}))
    html = render_calculations([result])
    assert '<details class="working"><summary>Show the working</summary>' in html
    assert html.count("<li>") >= len(result["steps"])
    assert 'data-calculator="pp_necessity"' in html and "DP-communication bound" in html
    assert "اعرض خطوات الحساب" in render_calculations([result], "ar")


def test_calculation_text_is_escaped():
    evil = {"calculator": "<script>x</script>", "outputs": {"verdict": "<img src=x onerror=alert(1)>"},
            "steps": ["<script>alert(1)</script>"], "assumptions": ["<b onclick=x>"], "sources": ["javascript:x"]}
    html = render_calculations([evil])
    assert_inert(html)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_render_result_gives_both_fragments():
    rendered = render_result({"explanation": "PP <script>", "terms": [{"term": "PP", "definition": "d"}],
                              "calculations": [], "language": "en"})
    assert set(rendered) == {"html", "calculations_html"}
    assert "<abbr" in rendered["html"] and "&lt;script&gt;" in rendered["html"]


# ---- the chart -----------------------------------------------------------------------------------


def test_the_sweep_comes_from_the_calculators():
    data = chart.sweep({"model": "K2", "chip": "h100-sxm", "global_batch_tokens": "67M", "n_chips": 4096})
    chips = data["chips"]
    assert np.all(np.diff(chips) > 0) and np.all(chips == np.round(chips))
    direct = calculators.run("pp_necessity", {"model": "K2", "chip": "h100-sxm", "global_batch_tokens": "67M",
                                              "n_chips": chips})["outputs"]
    # compute time falls as 1/n; communication is the compute time times the calculator's ratio
    assert np.allclose(data["compute_s"] * chips, data["compute_s"][0] * chips[0])
    assert np.allclose(data["comm_s"] / data["compute_s"], direct["comm_to_compute_ratio"])
    # PP becomes necessary exactly where communication overtakes compute
    crossover = data["crossover_chips"]
    assert chips[0] < crossover < chips[-1]
    assert np.all(direct["dp_comm_bound"] == (chips > crossover))
    assert np.all((data["comm_s"] > data["compute_s"]) == (chips > crossover))
    at_4096 = calculators.run("pp_necessity", {"model": "K2", "chip": "h100-sxm", "global_batch_tokens": "67M",
                                               "n_chips": 4096})["outputs"]
    assert data["chosen"]["min_pp_degree"] == at_4096["min_pp_degree"]  # the chart says what the calculator says


def test_the_svg_is_well_formed_and_marks_the_pp_point():
    svg = chart.draw(chart.sweep({"model": "llama-3-70b", "chip": "h100-sxm", "global_batch_tokens": "4M",
                                  "n_chips": 4096}))
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    namespace = {"s": "http://www.w3.org/2000/svg"}
    assert len(root.findall("s:polyline", namespace)) == 2
    assert root.findall("s:line[@class='pp-needed']", namespace)
    assert len(root.findall("s:circle[@class='chosen']", namespace)) == 2


def test_svg_text_is_escaped(monkeypatch):
    data = chart.sweep({"params": "70B", "peak_flop_per_s": "989 TFLOP/s", "dp_bandwidth_bytes_per_s": "400GB/s",
                        "chips_per_node": 8, "global_batch_tokens": "4M", "n_chips": 2048})
    data["model"], data["chip"] = '<script>alert(1)</script>', '"><image href="https://evil.example/x"/>'
    monkeypatch.setattr(chart, "_names", lambda d: (d["model"], d["chip"]))
    svg = chart.draw(data)
    ET.fromstring(svg)  # still well-formed
    assert "<script" not in svg and "<image" not in svg
    assert "&lt;script&gt;" in svg and "&quot;&gt;&lt;image" in svg


def test_without_a_model_the_chart_assumes_one_and_says_so():
    named = chart.sweep({"model": "llama-3-70b", "chip": "h100-sxm", "global_batch_tokens": "4M"})
    unnamed = chart.sweep({"chip": "h100-sxm", "global_batch_tokens": "4M"})
    assert unnamed["assumed_model"] and not named["assumed_model"]
    assert np.allclose(unnamed["compute_s"], named["compute_s"])
    assert "Llama 3 70B (assumed)" in chart.draw(unnamed)


@pytest.mark.parametrize("inputs, field", [
    ({"chip": "h100-sxm", "global_batch_tokens": "4M", "model": "no-such-model"}, "model"),
    ({"model": "K2", "chip": "h100-sxm", "global_batch_tokens": "-4M"}, "global_batch_tokens"),
    ({"model": "K2", "chip": "no-such-chip", "global_batch_tokens": "4M"}, "chip"),
])
def test_bad_chart_inputs_name_the_field(inputs, field):
    with pytest.raises(calculators.CalculatorInputError) as raised:
        chart.sweep(inputs)
    assert raised.value.field == field


def test_a_quoted_point_keeps_its_own_direction_in_an_arabic_answer():
    # stop 61: an Arabic answer to an English passage quotes the English point ("> The author reports ..."); in the
    # right-to-left page it must be laid out left to right, its final stop at its end
    out = render_markdown("## باختصار\n\nفكرة النص كما يقولها كاتبه بالإنجليزية:\n\n> The author reports that X is slow.\n")
    assert '<blockquote dir="auto">' in out and "The author reports that X is slow." in out
