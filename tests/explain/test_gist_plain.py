"""The gist says what a central acronym means in plain words the first time it names it (data/gist_plain.json)."""

import json
import re

from calculators.resources import data_dir

from service.explain import gist_plain
from service.explain.compose import explain_offline
from service.explain import glossary


def gist_of(text: str, lang: str = "en") -> str:
    return " ".join(item["text"] for item in explain_offline(text, lang)["gist"])


def test_every_plain_form_names_a_glossary_term_has_a_source_and_states_no_figure():
    entries = glossary.load().by_id
    terms = json.loads((data_dir() / "gist_plain.json").read_text(encoding="utf-8"))["terms"]
    for term_id, entry in terms.items():
        assert term_id in entries and entries[term_id]["term"] == entry["acronym"], term_id
        assert entry["source"]["url"].startswith("http"), term_id
        assert entry["en"], term_id
        for lang in [lang for lang in ("en", "ar") if entry[lang]]:  # an empty Arabic form keeps the glossary's Arabic name
            assert not re.search(r"[\d٠-٩]", entry[lang]) and len(entry[lang].split()) <= 10, (term_id, lang)
            assert "," not in entry[lang] and "،" not in entry[lang], (term_id, lang)  # one phrase a sentence can carry


def test_an_acronym_in_the_gist_is_said_in_plain_words_once():
    gist = gist_of("Our MFU drops from 40% to 21% when we add a second node, and the MFU stays flat when we double the batch.")
    assert gist.count(gist_plain.forms("en")["model-flops-utilization"]) == 1
    assert "MFU (the share" in gist and "21%" in gist  # the name keeps its place in the sentence, its meaning beside it
    after_number = gist_of("We only get 21% MFU on 64 H100s, and the MFU stays flat when we double the batch.")
    assert "21% share" not in after_number  # a plain phrase never follows the figure the acronym measured


def test_an_acronym_inside_a_compound_or_after_a_number_is_left_as_written():
    gist = gist_of("The FSDP-wrapped 13B model reaches 38% MFU on 32 A100s because the all-gathers overlap with compute.")
    assert "FSDP-wrapped" in gist
    assert "38% MFU" in gist or "38% share" not in gist  # never "38% share of ..." pasted after the number


def test_the_arabic_gist_says_the_acronym_in_arabic_plain_words():
    gist = gist_of("نحصل على 21% فقط من MFU على 64 شريحة H100 لأن الاتصال بطيء.", "ar")
    assert gist_plain.forms("ar")["model-flops-utilization"] in gist or "MFU" not in gist


def test_at_most_two_terms_are_said_in_plain_words_and_a_long_gist_is_never_cut_inside_a_bracket():
    gist = gist_of("FSDP lets us fit micro-batches of 16 sequences for the 2B model, but the MFU is a bit worse than DDP "
                   "on our 8 A100 nodes, and the TP runs were slower still because every layer waits for its all-reduce, "
                   "which we did not expect, given that the interconnect is NVLink and the messages are small.")
    assert sum(gist.count(f"({form})") for form in gist_plain.forms("en").values()) <= 2
    assert gist.count("(") == gist.count(")")


def test_the_fields_verb_phrases_are_said_in_plain_words_outside_code_and_quotes():
    assert gist_plain.phrased("FSDP is faster because the optimizer step is sharded.", "en") == \
        "FSDP is faster because the optimizer step is split across the chips."
    assert gist_plain.phrased("The gathers can be overlapped with the forward pass.", "en") == \
        "The gathers can run at the same time as the forward pass."
    assert gist_plain.phrased("The decode step is memory-bound.", "en") == "The decode step is limited by memory bandwidth."
    assert gist_plain.phrased('The flag "memory-bound" is set.', "en") == 'The flag "memory-bound" is set.'
    assert gist_plain.phrased("We load a sharded checkpoint.", "en") == "We load a sharded checkpoint."


def test_the_gist_of_a_sentence_with_such_phrases_says_them_plainly():
    gist = gist_of("In our runs FSDP beats DDP because the optimizer step is sharded across the 64 GPUs.")
    assert "is split across the 64 GPUs" in gist and "is sharded" not in gist  # never "across the GPUs across ..."


def test_a_verb_phrase_inside_a_compound_is_left_as_written():
    from service.explain.gist_plain import phrased

    assert phrased("You only need PP when you're DP-comms bound.", "en") == "You only need PP when you're DP-comms bound."
    assert "limited by communication" in phrased("The run is comms bound at this size.", "en")
