"""An acronym the text spells out with its letters in order, not only as initials (Schwartz & Hearst 2003)."""

from service.explain import text_definitions
from service.explain.document import Document
from service.explain.terms import read_terms


def _defined(text: str) -> dict[str, str]:
    return {d.term: d.meaning for d in text_definitions.find(text)}


def test_letters_inside_the_words_spell_the_acronym():
    text = "Gradients move through the Hierarchical Parameter eXchange (HPX) between the two pods."
    assert _defined(text) == {"HPX": "Hierarchical Parameter eXchange"}


def test_a_snake_case_setting_spells_its_abbreviation():
    assert _defined("We keep micro_batch_size (MBS) at one per rank.")["MBS"] == "micro_batch_size"


def test_a_word_that_is_the_short_form_itself_spells_nothing():
    assert "TABLE" not in _defined("All the runs are in the table below (TABLE) with their step times.")


def test_letters_too_far_apart_spell_nothing():
    assert "PX" not in _defined("Please read the whole long discussion thread of the previous experiment (PX).")


def test_an_unknown_acronym_so_spelled_becomes_a_term_in_the_text_words():
    doc = Document(text="Gradients move through the Hierarchical Parameter eXchange (HPX) between the two pods. HPX halves the traffic.",
                   lang="en")
    read_terms(doc)
    item = next(t for t in doc.terms if t["term"] == "HPX")
    assert item["definition"] == "Short for Hierarchical Parameter eXchange."
