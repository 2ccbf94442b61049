"""Issue 18, terms: the text's own definitions come first (an acronym it expands, an appositive, a definition
sentence, a name it gives, the Arabic appositive). All texts are written for these tests."""

import pytest

from service.explain import term_display, text_definitions
from service.explain.document import Document
from service.explain.terms import read_terms


def terms(text: str, lang: str = "en") -> dict[str, dict]:
    doc = Document(text=text, lang=lang)
    read_terms(doc)
    return {t["found_as"]: t for t in doc.terms}


@pytest.mark.parametrize("text, term, meaning", [
    ("With a fixed Tokens Per Replica Step (TPRS), the bubble grows.", "TPRS", "Tokens Per Replica Step"),
    ("We keep the GBS (global batch size) at 1024.", "GBS", "global batch size"),
    ("We release Falda, a family of Welsh chat models, under a permissive licence.", "Falda", "a family of Welsh chat models"),
    ("RingFlip is a schedule that reverses the ring every other step.", "RingFlip", "a schedule that reverses the ring every other step"),
    ("They trained it with a recipe called warm-and-freeze, then merged.", "warm-and-freeze", "a recipe"),
    ("Enable QuuxNet (the switch's in-network reduction engine) on every leaf.", "QuuxNet", "the switch's in-network reduction engine"),
    ("We use FlipEP, which implements expert-parallel all-to-all kernels, for dispatch.", "FlipEP",
     "one that implements expert-parallel all-to-all kernels"),
    ("ZSDP, which is a mix of sharding and replication, helps.", "ZSDP", "a mix of sharding and replication"),
])
def test_the_text_defines_its_own_terms(text, term, meaning):
    found = {d.term: d.meaning for d in text_definitions.find(text)}
    assert found.get(term) == meaning


@pytest.mark.parametrize("text", [
    "Megatron is a pain to configure on a new cluster.",  # a verdict, not a definition: no kind of thing named
    "In 2023, a team at the lab trained it.",  # a year before the comma
    "GPUs, the cost of moving data grows.",  # no appositive: "the" and no closing comma
    "We are a small lab with an old cluster.",  # no name
    "TP8, which was slower, lost to PP.",  # what it did, not what it is
    "GPUs, which we rented, were slow.",  # the author's own words about them
])
def test_no_definition_is_read_where_the_text_gives_none(text):
    assert [d for d in text_definitions.find(text) if d.term[0].isupper() and d.term not in ("GPU", "GPUs")] == []


def test_called_after_an_adverb_describes_and_names_nothing():
    # a round-13 reader: "operation: a very frequently, as the text defines it" for "a very frequently called operation"
    assert text_definitions.find("Parameter all-gathering is a very frequently called operation with zero3.") == []


def test_an_unknown_name_takes_the_texts_sense():
    item = terms("We release Falda, a family of Welsh chat models, under a permissive licence.")["Falda"]
    assert item["definition"] == "a family of Welsh chat models, as the text defines it."
    assert term_display.display(item, "en") == ("Falda", "")


def test_arabic_appositive_gives_the_arabic_name_and_sense():
    text = 'نقدّم نموذج "فلدة" (Falda)، وهي عائلة من نماذج المحادثة للغة الويلزية.'
    item = terms(text, "ar")["Falda"]
    assert term_display.display(item, "ar") == ("فلدة", "Falda")
    assert item["definition"] == "عائلة من نماذج المحادثة للغة الويلزية، كما يعرّفه النص."
    assert "Falda" not in terms(text, "en")  # an English answer does not quote the Arabic definition


def test_a_glossary_term_the_text_defines_otherwise_carries_the_texts_sense():
    item = terms("FSDP is a sharding scheme that keeps one copy of each layer per node, in this codebase.")["FSDP"]
    assert item["defined_in_text"].startswith("a sharding scheme that keeps one copy")


def test_an_expansion_the_entry_already_says_adds_nothing():
    item = terms("If the Global Batch Size (GBS) is fixed, a larger micro-batch means fewer micro-batches.")
    assert not any(t.get("defined_in_text") for t in item.values())


def test_a_linking_word_opening_a_sentence_is_never_a_defined_term():
    # a round-10 reader: "**Besides**: a performance predictor, as the text defines it" (an empty, false entry)
    text = ("With the shadows, computation of the hot experts can be performed locally. Besides, a performance predictor, "
            "together with a shadow selection algorithm, is used to determine which experts to be shadowed.")
    assert not [d for d in text_definitions.find(text) if d.term.lower() == "besides"]
