"""Term detection: boundaries, plurals, compounds, Arabic renderings, ambiguity (issue 3)."""

import pytest

from service.explain import glossary

pytestmark = pytest.mark.skipif(not list((glossary.data_dir() / "glossary").glob("*.json")), reason="glossary data not present")


def found(text: str) -> dict[str, str]:
    return {m.found_as: m.entry["term"] for m in glossary.detect(text)}


def ids(text: str) -> set[str]:
    return {m.entry["id"] for m in glossary.detect(text)}


def test_glossary_size_and_fields():
    entries = glossary.load().entries
    assert len(entries) >= 250
    for entry in entries:
        for key in ("id", "term", "expansion", "definition", "category", "source"):
            assert entry.get(key), (entry.get("id"), key)
        assert entry["ar"]["term"] and entry["ar"]["definition"], entry["id"]
        assert entry["source"].get("title") or entry["source"].get("url")


def test_no_alias_names_two_entries():
    owners: dict[tuple, str] = {}
    clashes = []
    for entry in glossary.load().entries:
        for alias in {entry["term"], *entry.get("aliases", [])}:
            key = (alias if glossary._is_case_sensitive(alias) else alias.lower()).replace("-", " ")
            if key in owners and owners[key] != entry["id"]:
                clashes.append((alias, owners[key], entry["id"]))
            owners.setdefault(key, entry["id"])
    assert not clashes, clashes[:10]


@pytest.mark.parametrize("text", ["APPLE", "IT AS ON", "an MP3 player", "happy upper", "The app is on the top shelf", "Stop it, as soon as you can."])
def test_ordinary_words_are_not_terms(text):
    assert found(text) == {}


@pytest.mark.parametrize("text, expected", [
    ("We run on TPUs.", "TPUs"),
    ("you are DP-comms bound", "DP-comms bound"),
    ("PPVP constraints", "PPVP"),
    ("a GB200 NVL72 rack", "GB200 NVL72"),
    ("the 1F1B schedule", "1F1B schedule"),
    ("you do all f all b", "all f all b"),
    ("eight GPUs", "GPUs"),
])
def test_plurals_suffixes_and_compounds(text, expected):
    assert expected in found(text), found(text)


def test_latin_term_inside_an_arabic_rendering_is_its_own_term():
    terms = set(found("يمكنك تحقيق MFU ممتاز (استخدام نموذج FLOPs - بشكل أساسي)").values())
    assert {"MFU", "FLOPs"} <= terms, terms


def test_pp_inside_ppvp_is_not_pp():
    matches = glossary.detect("PPVP")
    assert len(matches) == 1 and matches[0].found_as == "PPVP"


@pytest.mark.parametrize("text, found_as", [
    ("يتم استخدام توازي خطوط الأنابيب في التدريب", "توازي خطوط الأنابيب"),
    ("1) توازي البيانات (DP): تعالج كل شريحة", "توازي البيانات"),
    ("وباستخدام TPUs على نطاق واسع", "TPUs"),
])
def test_arabic_renderings_and_latin_inside_arabic(text, found_as):
    assert found_as in found(text), found(text)


def test_ambiguous_acronym_follows_context():
    privacy = glossary.detect("Training with DP adds noise to gradients to protect privacy; epsilon sets the privacy budget.")
    parallel = glossary.detect("DP across nodes with TP inside the node and PP across racks.")
    dp_privacy = [m for m in privacy if m.found_as == "DP"][0]
    dp_parallel = [m for m in parallel if m.found_as == "DP"][0]
    assert dp_privacy.reading != dp_parallel.reading
    described = glossary.describe(dp_privacy, "en")
    assert "privacy" in described["expansion"].lower()


def test_a_longer_all_capitals_acronym_is_not_the_ordinary_word():
    assert "SHARP" in found("NCCL uses SHARP for in-switch reductions")
    assert found("a sharp drop in loss") == {}


def test_arabic_punctuation_ends_a_word():
    # "،" (Arabic comma), "؛" and "؟" sit in the Arabic Unicode block but are not letters.
    terms = set(found("يعتمد على توازي الموتر وتوازي خط الأنابيب، وخليط الخبراء؛ فهل نحتاج توازي البيانات؟").values())
    assert {"TP", "PP", "DP"} <= terms, terms


def test_definitions_state_no_figures():
    # Explanations print definitions; their numbers must come from calculators, so figures live in "facts".
    from service.explain.number_check import numbers_in

    offenders = []
    for entry in glossary.load().entries:
        ar = entry.get("ar") or {}
        texts = [entry.get("definition"), entry.get("intuition"), ar.get("definition"), ar.get("intuition")]
        for reading in entry.get("readings") or []:
            texts += [reading.get("definition"), reading.get("ar_definition")]
        offenders += [(entry["id"], numbers_in(t)) for t in texts if t and numbers_in(t)]
    assert not offenders, offenders[:5]
