"""Round 53, long-tail terms from round 51's blind readers: PaLM 2, NVIDIA Quantum-2, torchao's
precompute_float8_dynamic_scale_for_fsdp, Transformer Engine's fp8_autocast and expert replication
(data/glossary/long_tail_round53.json)."""

import json

import pytest

from calculators.resources import data_dir
from service.explain import glossary
from tests.support.glossary_files import assert_arabic_alias_found, assert_entries_complete, assert_found_as, detected, term_definition

FILE = data_dir() / "glossary" / "long_tail_round53.json"
pytestmark = pytest.mark.skipif(not FILE.exists(), reason="round 53 glossary data not present")

REAL_SENTENCES = [
    # https://arxiv.org/abs/2305.10403 (PaLM 2 Technical Report, abstract)
    ("palm-2", "PaLM 2 is a state-of-the-art language model with better multilingual and reasoning capabilities and is more "
               "compute-efficient than its predecessor PaLM.", "PaLM 2"),
    # http://alex.smola.org/posts/37-infiniband-2n/index.html
    ("nvidia-quantum-2", "Your switches are NVIDIA Quantum-2 class, MQM9700, sixty-four 400Gb/s NDR ports each.", "NVIDIA Quantum-2"),
    # https://github.com/NVIDIA/TransformerEngine/issues/1188
    ("float8-precompute-scale-fsdp", "You would not use the precompute_float8_dynamic_scale_for_fsdp(model) API from the linked "
                                     "example because TE already does this internally.", "precompute_float8_dynamic_scale_for_fsdp"),
    # https://github.com/NVIDIA/TransformerEngine/issues/1188
    ("te-fp8-autocast", "You simply need to pass the process group for amax reductions (typically global/world group) into the "
                        "te.fp8_autocast() context.", "te.fp8_autocast()"),
    # https://arxiv.org/html/2606.04101 (UltraEP, abstract)
    ("expert-replication", "UltraEP rebalances every microbatch and layer on critical paths, which requires nontrivial co-design "
                           "of plan solving and expert replication communication to minimize exposed overhead.", "expert replication"),
]

NEW_IDS = sorted(t["id"] for t in json.loads(FILE.read_text(encoding="utf-8"))["terms"]) if FILE.exists() else []


@pytest.mark.parametrize("term_id, sentence, found_as", REAL_SENTENCES)
def test_round53_term_found_in_a_real_sentence(term_id, sentence, found_as):
    assert_found_as(term_id, sentence, found_as)


def test_every_new_term_has_a_real_sentence_and_full_fields():
    assert_entries_complete(NEW_IDS, {term_id for term_id, _, _ in REAL_SENTENCES}, 5)


@pytest.mark.parametrize("term_id", [t for t in NEW_IDS if glossary.load().by_id[t]["ar_aliases"]] if FILE.exists() else [])
def test_round53_term_found_in_arabic_text(term_id):
    assert_arabic_alias_found(term_id)


def test_the_names_moved_here_are_no_longer_read_as_their_older_neighbours():
    # round 51: PaLM 2 defined as the 2022 PaLM (P26), Quantum-2 as the InfiniBand standard and MQM9700 as a switch
    # family (P09), precompute_float8_dynamic_scale_for_fsdp as Float8Linear (P04), expert replication as DeepSeek's EPLB (P10)
    found = detected("PaLM 2 beats PaLM. Quantum-2 switches such as the MQM9700 carry NDR InfiniBand. Call "
                     "precompute_float8_dynamic_scale_for_fsdp after the step. Expert replication needs its own traffic.")
    assert found.get("palm-2") == "PaLM 2" and found.get("nvidia-quantum-2") and "nvidia-quantum-switch" not in found, found
    assert found.get("float8-precompute-scale-fsdp") and "float8-linear" not in found and "eplb" not in found, found
    assert "one all-reduce" in term_definition("Call precompute_float8_dynamic_scale_for_fsdp(model) after optimizer.step().",
                                               "float8-precompute-scale-fsdp")
