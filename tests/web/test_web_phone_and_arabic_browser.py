"""The page at phone and desktop sizes, in English and Arabic, in headless Chromium (issue 13.9, 13.11-12).

Set SCREENSHOTS_DIR to keep a full-page screenshot of each case for a person to look at.
"""

import os
import re
from pathlib import Path

import pytest

from service.config import load as load_settings
from tests.support.live_server import LiveServer

pytestmark = pytest.mark.browser

SHOTS = os.environ.get("SCREENSHOTS_DIR")
VIEWPORTS = {"phone": (390, 844), "desktop": (1280, 800)}
TEXTS = {
    "en": ("Jingyuan was surprised: on TPUs at K2 scale you don't need PP. Horace: PP is mostly needed when you're "
           "DP-comms bound; with NVL72 simpler parallelism works. Logs at https://example.org/a/very/long/path/"
           "that/never/breaks/anywhere/at/all/and/keeps/going/for/a/while and `torch.distributed.pipelining."
           "ScheduleInterleaved1F1B_with_a_long_name`."),
    "ar": ("يقول الباحثون إن توازي خطوط الأنابيب (PP) ضروري فقط عندما يكون التدريب محدودا باتصالات توازي البيانات، "
           "أما على شرائح TPU بحجم K2 فلا حاجة إليه. هل هذا صحيح مع دفعة 4M رمز على 4096 شريحة H100؟"),
}
ENGLISH_WORD = re.compile(r"\b[a-z]{4,}\b")  # acronyms, names (capitalised) and units are allowed in Arabic
READER_TEXT = """() => {
    const picked = ['.tagline', '#history-title', '#new-chat', '#ask > label', '#send', '#lang option[value=""]',
        '#whatif-title', '#whatif-form label span', '#whatif-verdict', '#whatif-same',
        '.calculations-title', '.calculation h3', '.calculation .verdict', '.calculation dt', '.calculation dd',
        'details.working summary', 'button.copy', '.answer-chart'];
    const out = [];
    for (const selector of picked)
        for (const node of document.querySelectorAll(selector)) out.push(node.alt || node.textContent);
    return out.join(' | ');
}"""


@pytest.fixture
def server():  # per test, after the autouse fixture has given the test its own UNJARGON_HOME
    with LiveServer(load_settings(backend="offline")) as live:
        yield live


def no_sideways_scroll(page) -> None:
    widths = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    wide = page.evaluate("""() => [...document.querySelectorAll('body *')].filter((node) => {
        const box = node.getBoundingClientRect();
        return box.width && (box.right > innerWidth + 1 || box.left < -1) && !node.closest('pre');
    }).slice(0, 5).map((node) => node.tagName + '.' + node.className)""")
    assert widths[0] <= widths[1], f"the page scrolls sideways ({widths[0]} > {widths[1]}): {wide}"
    assert wide == []


def check_answer(page, lang: str) -> None:
    answer = page.locator(".message.assistant").last
    cards = answer.locator("section.calculation")
    assert cards.count() >= 1
    titles = [card.locator("h3").inner_text().strip() for card in cards.all()]
    assert all(titles) and len(set(titles)) == len(titles), titles  # each titled, each once
    for card in cards.all():
        working = card.locator("details.working")
        assert working.count() == 1 and working.get_attribute("open") is None  # folded
    page.wait_for_function("() => { const img = document.querySelector('.message.assistant img.answer-chart');"
                           " return img && img.complete && img.naturalWidth > 0; }")
    assert page.locator("img.answer-chart").count() == 1  # one chart, in its card
    assert answer.locator("section.calculation img.answer-chart").count() == 1
    assert page.locator("#whatif-chart").is_hidden() and page.locator("#whatif-same").is_visible()
    direction = page.evaluate("() => [document.documentElement.dir, getComputedStyle("
                              "document.querySelector('.message.assistant .explanation')).direction]")
    if lang == "ar":
        assert direction == ["rtl", "rtl"]
        assert page.locator("#send").inner_text() == "اشرح"
        # the what-if panel recomputes its verdict for the answer's values, in the answer's language
        page.wait_for_function("() => /[\u0600-\u06ff]/.test(document.querySelector('#whatif-verdict').textContent)")
        seen = page.evaluate(READER_TEXT)
        assert ENGLISH_WORD.findall(seen) == [], seen
    else:
        assert direction == ["ltr", "ltr"]


@pytest.mark.parametrize("size", sorted(VIEWPORTS))
@pytest.mark.parametrize("lang", sorted(TEXTS))
def test_the_page_fits_reads_in_the_answers_language_and_shows_each_calculation_once(browser, server, size, lang):
    width, height = VIEWPORTS[size]
    context = browser.new_context(viewport={"width": width, "height": height}, service_workers="block")
    try:
        page = context.new_page()
        page.set_default_timeout(20_000)
        page.goto(server.url + "/")
        no_sideways_scroll(page)
        page.fill("#input", TEXTS[lang])
        page.click("#send")
        page.wait_for_selector(".message.assistant .actions .copy")
        check_answer(page, lang)
        no_sideways_scroll(page)
        if SHOTS:
            Path(SHOTS).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(Path(SHOTS) / f"{lang}-{size}.png"), full_page=True)
        # a fresh page with the history filled in, then the conversation opened from it
        page.goto(server.url + "/")
        page.wait_for_selector("#history button.conversation", state="attached")
        no_sideways_scroll(page)
        if page.locator("#history-fold").get_attribute("open") is None:  # folded on a phone: a tap unfolds it
            page.click("#history-fold summary")
        page.locator("#history button.conversation").first.click()
        page.wait_for_selector(".message.assistant .actions .copy")
        check_answer(page, lang)
        no_sideways_scroll(page)
        # the what-if panel draws its own chart once the reader changes a value
        page.fill("#wi-chips", "64")
        page.wait_for_function("() => !document.querySelector('#whatif-chart').hidden")
        assert page.locator("#whatif-same").is_hidden()
        no_sideways_scroll(page)
    finally:
        context.close()
