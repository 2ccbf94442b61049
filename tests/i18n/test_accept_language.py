"""The page's language from the browser's Accept-Language header (issue 21): weights, subtags, and ?lang= winning."""

import pytest
from fastapi.testclient import TestClient

from service.config import load
from service.http.app import create_app
from service.i18n.accept_language import preferred

CODES = ["en", "ar"]


@pytest.mark.parametrize("header, expected", [
    ("ar", "ar"),
    ("ar-EG", "ar"),  # RFC 4647 lookup: the region subtag is dropped to find the language
    ("AR-eg,ar;q=0.9", "ar"),  # case-insensitive (RFC 9110 §12.5.4)
    ("fr-FR, fr;q=0.9, ar;q=0.8, en;q=0.7", "ar"),  # the first language the page has, by weight
    ("en;q=0.5, ar;q=0.8", "ar"),  # weight, not order, decides
    ("en, ar", "en"),  # equal weights: the header's order
    ("ar;q=0, en", "en"),  # q=0 means "not this one"
    ("ar;q=0.000, fr", None),
    ("fr, de", None),
    ("*", None),  # any language will do: the page's default
    ("", None),
    (None, None),
    ("ar;q=2, en", "en"),  # an impossible weight makes that member unreadable, not preferred
    ("ar;q=1.5, en;q=0.1", "en"),
    ("!!!, ar", "ar"),  # an unreadable member is skipped
    ("en-US,en;q=0.9", "en"),
])
def test_the_browsers_languages_are_matched_by_weight_and_by_primary_subtag(header, expected):
    assert preferred(header, CODES) == expected


def test_a_header_of_thousands_of_members_is_read_only_so_far():
    assert preferred("fr, " * 5000 + "ar", CODES) is None


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app(load(backend="offline")))


@pytest.mark.parametrize("path", ["/", "/plan"])
def test_an_arabic_browser_gets_the_arabic_page_at_once_and_lang_in_the_address_wins(client, path):
    arabic = client.get(path, headers={"Accept-Language": "ar-SA,ar;q=0.9,en;q=0.5"})
    assert '<html lang="ar" dir="rtl">' in arabic.text
    assert arabic.headers["content-language"] == "ar"
    assert "accept-language" in arabic.headers["vary"].lower()  # a cache keeps one copy per language
    chosen = client.get(path + "?lang=en", headers={"Accept-Language": "ar"})
    assert '<html lang="en" dir="ltr">' in chosen.text and chosen.headers["content-language"] == "en"
    english = client.get(path, headers={"Accept-Language": "de-DE, fr;q=0.8"})  # none the page has: the default
    assert '<html lang="en" dir="ltr">' in english.text
    unknown = client.get(path + "?lang=xx", headers={"Accept-Language": "ar"})  # an unknown ?lang= does not win
    assert '<html lang="ar" dir="rtl">' in unknown.text


def test_the_page_says_what_chose_its_language_so_the_script_can_ask_the_browser_when_nothing_did(client):
    assert 'data-lang-chosen="header"' in client.get("/", headers={"Accept-Language": "ar"}).text
    assert 'data-lang-chosen="query"' in client.get("/?lang=ar").text
    assert 'data-lang-chosen="default"' in client.get("/", headers={"Accept-Language": "fr"}).text
    assert "اشرح" in client.get("/", headers={"Accept-Language": "ar"}).text  # the Send button, server-side
