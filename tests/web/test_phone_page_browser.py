"""The page on a phone (390 × 844), in English and Arabic, measured in headless Chromium (issue 21).

With 30 stored conversations the message box is on the first screen; an answer's tables and charts fit
the screen (reflowed, not scrolled) with chart text of 11 px or more; an Arabic browser gets the Arabic
page from the first load. Set SCREENSHOTS_DIR to keep a screenshot of each case for a person to look at.
"""

import json
import os
import re
import urllib.request
from pathlib import Path

import pytest

from service.config import load as load_settings
from tests.support.live_server import LiveServer

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
THREAD = (ROOT / "examples" / "thread.txt").read_text(encoding="utf-8")
PHONE = {"width": 390, "height": 844}
SHOTS = os.environ.get("SCREENSHOTS_DIR")
ENGLISH_WORD = re.compile(r"\b[a-z]{4,}\b")  # acronyms, names and units are allowed in Arabic
RIGHT_EDGES = """() => {
    const edges = (selector) => [...document.querySelectorAll(selector)].filter((node) => node.offsetParent !== null)
        .map((node) => { const box = node.getBoundingClientRect(); return [Math.round(box.left), Math.round(box.right)]; });
    return {tables: edges('.explanation table'), cells: edges('.explanation td'), charts: edges('img.answer-chart, #chart'),
            scrollWidth: document.scrollingElement.scrollWidth,
            figures: [...document.querySelectorAll('figure.chart')].filter((node) => node.offsetParent !== null)
                .map((node) => [node.scrollWidth, node.clientWidth, node.scrollLeft])};
}"""
# Each text of a chart as the page shows it: its size in px and its left and right edges, in the chart's own box.
CHART_TEXT = """() => {
    const svg = document.querySelector('svg');
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    return [...svg.querySelectorAll('text')].map((text) => {
        const box = text.getBBox();
        return {text: text.textContent, px: parseFloat(getComputedStyle(text).fontSize) * scale,
                left: box.x * scale, right: (box.x + box.width) * scale};
    });
}"""


@pytest.fixture
def server():
    with LiveServer(load_settings(backend="offline")) as live:
        yield live


@pytest.fixture
def phone(browser):
    contexts = []

    def open_phone(lang: str):
        # Chromium's locale is what its navigator.language says and its Accept-Language header sends
        context = browser.new_context(viewport=PHONE, locale=lang, service_workers="block")
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(30_000)
        return page

    yield open_phone
    for context in contexts:
        context.close()


def store_conversations(url: str, count: int) -> None:
    for number in range(count):
        request = urllib.request.Request(url + "/v1/conversations", method="POST", headers={"Content-Type": "application/json"},
                                         data=json.dumps({"title": f"Conversation {number} about pipeline parallelism"}).encode())
        urllib.request.urlopen(request, timeout=10).read()


def shoot(page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"))


def drawn_svg(url: str) -> str:
    """The SVG the page was sent for `url` (the chart is a pure function of its query; the page holds it as a blob)."""
    return urllib.request.urlopen(url, timeout=30).read().decode()


def chart_text_as_shown(page, svg: str, shown_width: float) -> list[dict]:
    """The chart's texts measured in a page of their own, the chart scaled to the width the answer shows it at."""
    measure = page.context.new_page()
    try:
        measure.set_content("<style>body { margin: 0 } svg { display: block; width: 100%; height: auto }</style>"
                            f'<div style="width:{shown_width}px">{svg}</div>')
        return measure.evaluate(CHART_TEXT)
    finally:
        measure.close()


def assert_chart_reads_on_the_phone(page, svg: str, selector: str, lang: str) -> float:
    shown = page.locator(selector).bounding_box()
    assert svg.startswith("<svg"), svg[:300]
    texts = chart_text_as_shown(page, svg, shown["width"])
    assert texts
    smallest = min(text["px"] for text in texts)
    assert smallest >= 11, [text for text in texts if text["px"] < 11]
    cut = [text["text"] for text in texts if text["left"] < -0.5 or text["right"] > shown["width"] + 0.5]
    assert cut == [], f"chart text outside the picture: {cut}"
    if lang == "ar":
        assert ENGLISH_WORD.findall(" ".join(text["text"] for text in texts)) == []
    return smallest


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_with_thirty_conversations_the_message_box_is_on_the_first_screen(browser, server, phone, lang):
    store_conversations(server.url, 30)
    page = phone(lang)
    page.goto(server.url + "/")
    page.wait_for_function("() => document.querySelectorAll('#history button.conversation').length === 30")
    box = page.locator("#input").bounding_box()
    assert box["y"] < PHONE["height"] and box["y"] + box["height"] <= PHONE["height"], box  # all of it, unscrolled
    assert page.locator("#send").bounding_box()["y"] < PHONE["height"]
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= PHONE["width"]
    # the history is folded under its heading, which says how many there are, and unfolds on a tap
    assert page.locator("#history-fold").get_attribute("open") is None
    assert page.locator("#history-count").inner_text() == "(30)"
    shoot(page, f"phone-{lang}-first-screen")
    page.click("#history-fold summary")
    assert page.locator("#history button.conversation").first.is_visible()
    page.locator("#history button.conversation").nth(3).click()
    page.wait_for_function("() => !document.querySelector('#history-fold').open")  # the conversation, not the list
    page.wait_for_selector("#history button[aria-current='true']", state="attached")  # the list marks the one opened
    assert page.locator("#history button[aria-current='true']").text_content() == "Conversation 26 about pipeline parallelism"


def test_on_a_wide_screen_the_history_stays_unfolded(browser, server):
    store_conversations(server.url, 3)
    context = browser.new_context(viewport={"width": 1280, "height": 800}, service_workers="block")
    try:
        page = context.new_page()
        page.goto(server.url + "/")
        page.wait_for_function("() => document.querySelectorAll('#history button.conversation').length === 3")
        assert page.locator("#history-fold").get_attribute("open") is not None
        assert page.locator("#history button.conversation").first.is_visible()
    finally:
        context.close()


def test_an_arabic_browser_gets_the_arabic_page_from_the_first_load(browser, server, phone):
    page = phone("ar")
    with page.expect_response(lambda response: "/v1/chart?" in response.url) as drawn:  # the what-if panel's chart
        response = page.goto(server.url + "/")
    served = response.text()  # before any script ran: the server chose Arabic from Accept-Language
    assert '<html lang="ar" dir="rtl">' in served and 'id="send" type="submit" data-ui="send">اشرح<' in served
    assert page.evaluate("() => [document.documentElement.lang, document.documentElement.dir, navigator.language]") == \
        ["ar", "rtl", "ar"]
    assert page.locator("#send").inner_text() == "اشرح"
    assert page.evaluate("() => getComputedStyle(document.querySelector('#ask')).direction") == "rtl"
    assert "lang=ar" in drawn.value.url  # its chart too, before any answer: every heading and label in Arabic
    page.wait_for_function("() => document.querySelector('#chart').naturalWidth > 0")
    assert_chart_reads_on_the_phone(page, drawn_svg(drawn.value.url), "#chart", "ar")
    # ?lang= in the address wins over the browser's language
    page.goto(server.url + "/?lang=en")
    assert page.evaluate("() => [document.documentElement.lang, document.documentElement.dir]") == ["en", "ltr"]
    assert page.locator("#send").inner_text() == "Explain"


def test_when_the_header_names_no_language_the_page_takes_navigator_language(browser, server, phone):
    page = phone("ar")

    def without_language(route):  # as a proxy may do: the browser's languages do not reach the service
        headers = {name: value for name, value in route.request.headers.items() if name.lower() != "accept-language"}
        route.continue_(headers={**headers, "accept-language": "*"})

    page.route(server.url + "/", without_language)
    response = page.goto(server.url + "/")
    assert '<html lang="en" dir="ltr">' in response.text() and 'data-lang-chosen="default"' in response.text()
    page.wait_for_function("() => document.documentElement.lang === 'ar' && document.documentElement.dir === 'rtl'")
    assert page.locator("#send").inner_text() == "اشرح"


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_an_answers_tables_and_charts_fit_the_phone_and_read_at_11_px_or_more(browser, server, phone, lang):
    page = phone(lang)
    charts = []
    page.on("response", lambda response: "/v1/chart?" in response.url and charts.append(response))
    page.goto(server.url + "/")
    page.fill("#input", THREAD)
    page.select_option("#lang", lang)
    page.click("#send")
    page.wait_for_selector(".message.assistant .actions .copy")
    page.wait_for_function("() => { const img = document.querySelector('img.answer-chart');"
                           " return img && img.complete && img.naturalWidth > 0; }")
    measured = page.evaluate(RIGHT_EDGES)
    assert measured["tables"], "the example thread's answer has a table"
    for left, right in measured["tables"] + measured["cells"] + measured["charts"]:
        assert left >= 0 and right <= PHONE["width"], measured
    assert measured["scrollWidth"] <= PHONE["width"], measured
    # nothing scrolls inside its own box either, so an Arabic chart opens with its axis in view
    assert all(scroll_width <= client_width and scroll_left == 0
               for scroll_width, client_width, scroll_left in measured["figures"]), measured["figures"]
    # each table row is a card whose cells say which column they are
    labels = page.evaluate("() => [...document.querySelectorAll('.explanation tbody td')].map((td) => td.dataset.label)")
    assert labels and all(labels[1:]), labels
    answer_chart = next(response for response in reversed(charts) if "width=" in response.url)
    assert f"width={round(page.locator('.message.assistant figure.chart').evaluate('(node) => node.clientWidth'))}" \
        in answer_chart.url
    smallest = assert_chart_reads_on_the_phone(page, drawn_svg(answer_chart.url), "img.answer-chart", lang)
    page.locator(".message.assistant").scroll_into_view_if_needed()
    page.locator(".message.assistant figure.chart").evaluate("(node) => node.scrollIntoView({block: 'start'})")
    shoot(page, f"phone-{lang}-answer-chart")
    page.locator(".explanation table").first.evaluate("(node) => node.scrollIntoView({block: 'start'})")
    shoot(page, f"phone-{lang}-answer-table")
    # the what-if panel's own chart, once the reader changes a value, fits and reads the same way
    with page.expect_response(lambda response: "/v1/chart?" in response.url and "n_chips=64" in response.url) as drawn:
        page.fill("#wi-chips", "64")
    whatif_chart = drawn.value
    page.wait_for_function("() => { const img = document.querySelector('#chart'); return img.complete && img.naturalWidth > 0; }")
    assert_chart_reads_on_the_phone(page, drawn_svg(whatif_chart.url), "#chart", lang)
    measured = page.evaluate(RIGHT_EDGES)
    for left, right in measured["charts"]:
        assert left >= 0 and right <= PHONE["width"], measured
    assert measured["scrollWidth"] <= PHONE["width"]
    print(f"{lang}: smallest chart text {smallest:.1f} px; tables [left, right] {measured['tables']}, "
          f"charts {measured['charts']}, scrollWidth {measured['scrollWidth']}")


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_plan_views_bars_fit_the_phone_and_read_at_11_px_or_more(browser, server, phone, lang):
    page = phone(lang)  # its language from the browser too
    with page.expect_response(lambda response: "/v1/plan.svg?" in response.url) as drawn:
        page.goto(server.url + "/plan")
    assert page.evaluate("() => document.documentElement.lang") == lang
    page.wait_for_function("() => document.getElementById('bars').naturalWidth > 0")
    figure = page.evaluate("() => { const node = document.querySelector('.plan figure.chart'), box = node.getBoundingClientRect();"
                           " return [Math.round(box.left), Math.round(box.right), node.scrollWidth, node.clientWidth]; }")
    assert figure[0] >= 0 and figure[1] <= PHONE["width"] and figure[2] <= figure[3], figure
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= PHONE["width"]
    smallest = assert_chart_reads_on_the_phone(page, drawn_svg(drawn.value.url), "#bars", lang)
    page.locator(".plan figure.chart").evaluate("(node) => node.scrollIntoView({block: 'start'})")
    shoot(page, f"phone-{lang}-plan-bars")
    print(f"plan {lang}: smallest text {smallest:.1f} px, figure {figure}")


def test_a_phone_turned_sideways_gets_its_charts_drawn_again_for_the_wider_box(browser, server, phone):
    page = phone("en")
    with page.expect_response(lambda response: "/v1/chart?" in response.url) as first:
        page.goto(server.url + "/")
    narrow = int(re.search(r"width=(\d+)", first.value.url)[1])
    assert narrow < 400
    with page.expect_response(lambda response: "/v1/chart?" in response.url) as again:
        page.set_viewport_size({"width": 844, "height": 390})
    assert int(re.search(r"width=(\d+)", again.value.url)[1]) > narrow + 100
    page.wait_for_function("(narrow) => document.querySelector('#chart').naturalWidth > narrow + 100", arg=narrow)
    right = page.evaluate("() => document.querySelector('#chart').getBoundingClientRect().right")
    assert right <= 844 and page.evaluate("() => document.scrollingElement.scrollWidth") <= 844
    # and the plan view's bars
    with page.expect_response(lambda response: "/v1/plan.svg?" in response.url) as bars:
        page.goto(server.url + "/plan")
    wide = int(re.search(r"width=(\d+)", bars.value.url)[1])
    with page.expect_response(lambda response: "/v1/plan.svg?" in response.url) as bars_again:
        page.set_viewport_size(PHONE)
    assert int(re.search(r"width=(\d+)", bars_again.value.url)[1]) < wide - 100
