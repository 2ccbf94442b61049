"""Round 56, the central terms round 53's readers found missing: fail-slow, suffix decoding, iso-FLOP and bits per byte
(data/glossary/long_tail_round56.json), and sliding window training as sliding window attention."""

import json

import pytest

from calculators.resources import data_dir
from service.explain import glossary
from tests.support.glossary_files import assert_arabic_alias_found, assert_entries_complete, assert_found_as, detected

FILE = data_dir() / "glossary" / "long_tail_round56.json"
pytestmark = pytest.mark.skipif(not FILE.exists(), reason="round 56 glossary data not present")

REAL_SENTENCES = [
    # https://arxiv.org/abs/2410.12588 (FALCON, abstract)
    ("fail-slow", "Fail-slows, or stragglers, are common but largely unheeded problems in large-scale hybrid-parallel "
                  "training that spans thousands of GPU servers and runs for weeks to months.", "Fail-slows"),
    # https://openreview.net/forum?id=JFEwQ821MS (Guard, abstract)
    ("fail-slow", "Existing health-check mechanisms, such as NCCL tests or GPU burn-in, primarily focus on functional "
                  "correctness and often fail to detect fail-slow behaviors that silently degrade system performance.",
     "fail-slow"),
    # https://arxiv.org/abs/2411.04975 (SuffixDecoding, abstract)
    ("suffix-decoding", "We present SuffixDecoding, a novel model-free approach to accelerating large language model "
                        "(LLM) inference through speculative decoding.", "SuffixDecoding"),
    # https://arxiv.org/html/2603.22339v2 (Czech et al., abstract)
    ("iso-flop", "Applied to published Llama 3 IsoFLOP data at open frontier compute scales, these biases imply a "
                 "parameter underallocation corresponding to 6.5% of the FLOP training budget.", "IsoFLOP"),
    # https://github.com/karpathy/nanochat (nanochat/loss_eval.py, evaluate_bpb docstring)
    ("bits-per-byte", "Instead of the naive 'mean loss', this function returns the bits per byte (bpb), which is a "
                      "tokenization vocab size-independent metric.", "bits per byte"),
]

NEW_IDS = sorted(t["id"] for t in json.loads(FILE.read_text(encoding="utf-8"))["terms"]) if FILE.exists() else []


@pytest.mark.parametrize("term_id, sentence, found_as", REAL_SENTENCES)
def test_round56_term_found_in_a_real_sentence(term_id, sentence, found_as):
    assert_found_as(term_id, sentence, found_as)


def test_every_new_term_has_a_real_sentence_and_full_fields():
    assert_entries_complete(NEW_IDS, {term_id for term_id, _, _ in REAL_SENTENCES}, 4)


@pytest.mark.parametrize("term_id", [t for t in NEW_IDS if glossary.load().by_id[t]["ar_aliases"]] if FILE.exists() else [])
def test_round56_term_found_in_arabic_text(term_id):
    assert_arabic_alias_found(term_id)


def test_sliding_window_training_is_sliding_window_attention():
    # round 53 P18 (Megatron-LM#2222): "sliding window training" under context parallelism was left unexplained
    found = detected("Are there more efficient implementations for sliding window training with context parallelism?")
    assert found.get("sliding-window-attention") == "sliding window training", found
