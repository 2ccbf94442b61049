"""The browser the web tests share: headless Chromium through Playwright, one per test module."""

import pytest

from tests.support.browser import CHROMIUM, CHROMIUM_ARGS


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM:
        pytest.skip("chromium is not installed (apt-get install chromium; python3 tasks.py test does it as root)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (the test extra)")
    with sync_api.sync_playwright() as playwright:
        try:
            launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, timeout=30_000)
        except Exception as exc:  # e.g. a chromium that cannot start in this container
            pytest.skip(f"chromium could not start: {exc}")
        yield launched
        launched.close()
