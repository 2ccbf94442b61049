"""Round 57, the senses round 54's readers found wrong: a dead expert (never selected) apart from routing collapse, and
tensor-parallel communication overlap (tp_comm_overlap, userbuffers) apart from data-parallel gradient overlap
(data/glossary/long_tail_round57.json)."""

import json

import pytest

from calculators.resources import data_dir
from service.explain import glossary
from tests.support.glossary_files import assert_arabic_alias_found, assert_entries_complete, assert_found_as, detected

FILE = data_dir() / "glossary" / "long_tail_round57.json"
pytestmark = pytest.mark.skipif(not FILE.exists(), reason="round 57 glossary data not present")

REAL_SENTENCES = [
    # https://github.com/NVIDIA/TransformerEngine/tree/main/examples/pytorch/comm_gemm_overlap (README)
    ("tp-comm-overlap", "`ub_tp_comm_overlap` is the top-level gate on `TransformerLayer`: when it is `False`, the layer "
                        "disables the individual userbuffer overlap paths even if the per-path flags are `True`.",
     "ub_tp_comm_overlap"),
    # the same README
    ("tp-comm-overlap", "When replacing modules in a Hugging Face model, run the userbuffer initialization once before "
                        "constructing the replacement TE modules.", "userbuffer"),
    # round 54 P09 (a post on MoE router logits under FP16 quantization), said in other words
    ("dead-expert", "Saturated router logits leave dead experts that never get selected.", "dead experts"),
]

NEW_IDS = sorted(t["id"] for t in json.loads(FILE.read_text(encoding="utf-8"))["terms"]) if FILE.exists() else []


@pytest.mark.parametrize("term_id, sentence, found_as", REAL_SENTENCES)
def test_round57_term_found_in_a_sentence(term_id, sentence, found_as):
    assert_found_as(term_id, sentence, found_as)


def test_every_new_term_has_a_sentence_and_full_fields():
    assert_entries_complete(NEW_IDS, {term_id for term_id, _, _ in REAL_SENTENCES}, 2)


@pytest.mark.parametrize("term_id", [t for t in NEW_IDS if glossary.load().by_id[t]["ar_aliases"]] if FILE.exists() else [])
def test_round57_term_found_in_arabic_text(term_id):
    assert_arabic_alias_found(term_id)


def test_dead_experts_are_no_routing_collapse_and_tp_overlap_no_gradient_overlap():
    found = detected("After FP16 quantization the router logits saturate, so some dead experts never get selected.")
    assert "dead-expert" in found and "routing-collapse" not in found, found
    found = detected("We set tp_comm_overlap to hide the all-gathers behind the GEMMs.")
    assert found.get("tp-comm-overlap") == "tp_comm_overlap" and "comm-compute-overlap" not in found, found
