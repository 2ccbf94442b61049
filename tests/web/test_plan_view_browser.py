"""The plan view in headless Chromium: planned live, at phone and desktop sizes, in English and Arabic (issue 12)."""

import os

import pytest

from service.config import load as load_settings
from tests.support.live_server import LiveServer

pytestmark = pytest.mark.browser

SHOTS = os.environ.get("SCREENSHOTS_DIR")


def _bars_loaded(page) -> bool:
    return page.evaluate("() => document.getElementById('bars').naturalWidth > 0")


@pytest.mark.parametrize("lang", ["en", "ar"])
@pytest.mark.parametrize("width, height", [(390, 844), (1280, 800)], ids=["phone", "desktop"])
def test_the_plan_view_plans_live_without_overflow(browser, lang, width, height):
    with LiveServer(load_settings(backend="offline")) as live:
        page = browser.new_page(viewport={"width": width, "height": height})
        page.goto(f"{live.url}/plan?lang={lang}")
        page.wait_for_selector("#result:not([hidden])", timeout=30_000)
        for _ in range(100):
            if _bars_loaded(page):
                break
            page.wait_for_timeout(100)
        assert _bars_loaded(page)
        assert page.evaluate("() => document.documentElement.dir") == ("rtl" if lang == "ar" else "ltr")
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width
        assert page.locator("#runner-ups li").count() >= 3
        first = page.locator("#chosen").text_content()
        page.fill("input[name=n_chips]", "256")  # a what-if edit re-plans
        for _ in range(100):
            if page.locator("#chosen").text_content() != first:
                break
            page.wait_for_timeout(100)
        assert page.locator("#chosen").text_content() != first
        if SHOTS:
            page.screenshot(path=os.path.join(SHOTS, f"plan-{lang}-{width}.png"), full_page=True)
        page.close()
