"""Compounds of known terms are glossed by their parts: the head's meaning, for the modifier; no guess otherwise."""

from service.explain import compound_terms
from service.explain.document import Document
from service.explain.terms import read_terms


def _compounds(text: str, lang: str = "en") -> dict[str, str]:
    """Every compound the mechanisms read, before the answer drops those whose parts it lists anyway."""
    doc = Document(text=text, lang=lang)
    read_terms(doc)
    found = compound_terms.items(text, doc.occurrences, lang, set())
    found += compound_terms.qualified(text, doc.occurrences, lang, {c["term"].lower() for c in found})
    found += compound_terms.of_known(text, doc.occurrences, lang, {c["term"].lower() for c in found})
    return {c["term"]: c["definition"] for c in found}


def test_a_compound_whose_parts_are_listed_is_not_listed_again():
    # "FSDP group: The group of FSDP" beside FSDP's own item tells a reader nothing more
    doc = Document(text="The TP degree sets the FSDP group size on each node.", lang="en")
    read_terms(doc)
    listed = {t["id"] for t in doc.terms}
    assert {"tensor-parallelism", "fsdp"} <= listed
    assert not any(i.startswith("compound:") for i in listed)


def test_a_noun_before_a_known_head_is_glossed_by_the_head_for_the_modifier():
    found = _compounds("Our kernel is limited by DRAM bandwidth long before the tensor cores are busy.")
    assert "DRAM bandwidth" in found
    assert found["DRAM bandwidth"].startswith("Bandwidth")
    assert "for DRAM" in found["DRAM bandwidth"]


def test_a_framework_name_before_a_known_head_is_glossed_too():
    found = _compounds("We moved the run from DDP to PyTorch FSDP last week and memory fell by half.")
    assert "PyTorch FSDP" in found
    assert "for PyTorch" in found["PyTorch FSDP"]


def test_an_adjective_or_a_plural_before_a_term_makes_no_compound():
    assert "sharded data parallelism" not in _compounds("They rely on sharded data parallelism for the 1T model.")
    assert not any(name.startswith("FSDP shards") for name in _compounds("Here FSDP shards parameters across 64 ranks."))


def test_a_modifier_that_is_itself_a_kind_of_the_head_adds_nothing():
    assert "TPU chips" not in _compounds("The job ran on 256 TPU chips for three days.")


def test_a_hyphenated_adjective_is_no_head():
    assert not any("intra-node" in name for name in _compounds("We measured NCCL intra-node all-reduce at 350 GB/s."))


def test_an_arabic_answer_names_the_head_in_arabic():
    found = _compounds("The kernel is limited by DRAM bandwidth on this card.", lang="ar")
    assert "DRAM bandwidth" in found
    assert not found["DRAM bandwidth"].lower().startswith("bandwidth")
    assert "في سياق" in found["DRAM bandwidth"]


def test_a_technical_qualifier_before_a_known_term_names_a_kind_of_it():
    found = _compounds("The storage tier must keep up with the I/O bandwidth of the accelerator.")
    assert "I/O bandwidth" in found
    assert found["I/O bandwidth"].startswith("A kind of bandwidth")
    assert "“I/O”" in found["I/O bandwidth"]


def test_a_plain_qualifier_counts_only_when_the_pair_repeats():
    once = "We use sparse attention here."
    assert "sparse attention" not in _compounds(once)
    assert "sparse attention" in _compounds(once + " With sparse attention the cost grows linearly.")


def test_ordinary_qualifiers_comparatives_and_sentence_openers_make_no_kind():
    text = ("Large-scale clusters need care. Use FSDP here. We saw smaller slices and large-scale clusters again, "
            "smaller slices too, and our bandwidth was fine; our bandwidth held.")
    found = _compounds(text)
    assert not any(name.lower().startswith(("large-scale", "use ", "smaller", "our ")) for name in found)


def test_an_arabic_answer_says_the_kind_in_arabic():
    found = _compounds("The storage tier must keep up with the I/O bandwidth of the accelerator.", lang="ar")
    assert found["I/O bandwidth"].startswith("نوع من")


def test_an_arabic_answer_shows_the_compound_as_the_text_wrote_it():
    from service.explain import term_display

    doc = Document(text="The kernel is limited by DRAM bandwidth on this card.", lang="ar")
    read_terms(doc)
    item = next(c for c in compound_terms.items(doc.text, doc.occurrences, "ar", set()) if c["id"] == "compound:dram bandwidth")
    assert term_display.display(item, "ar")[0] == "DRAM bandwidth"


def test_a_known_term_before_a_property_noun_is_glossed_as_its_property():
    found = _compounds("The data parallelism degree is only 4 here, so the buckets stay small.")
    assert found["data parallelism degree"].startswith("The degree of")
    assert "data parallelism" in found["data parallelism degree"]
    arabic = _compounds("The data parallelism degree is only 4 here, so the buckets stay small.", lang="ar")
    assert arabic["data parallelism degree"].startswith("درجة")


def test_a_countable_term_takes_an_article_and_a_name_none():
    assert _compounds("We log the layer inputs once per step.")["layer inputs"].startswith("The inputs of the layer")
    assert "the " not in _compounds("Build it with the Triton compiler first.")["Triton compiler"].split("(")[0][4:]


def test_a_property_noun_used_as_a_verb_or_after_a_plural_or_an_adjective_makes_none():
    assert not any(name.startswith("FSDP groups") for name in _compounds("FSDP groups the layers into units."))
    assert "inter-node volume" not in _compounds("We cut the inter-node volume by half.")


def test_a_compound_gloss_opens_with_a_capital_before_a_comma():
    found = _compounds("Per-chip numbers differ, but GPU clusters of this size are common.")
    assert found["GPU clusters"].startswith("Cluster, for GPU")
