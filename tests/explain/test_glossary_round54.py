"""Round 54, long-tail terms round 51's annotators and readers found missing: FP64 and IEEE 754, floating point, dynamic
batching, the Pareto frontier, bit flips, fault injection, stuck-at faults, logsumexp, chain of thought, TGI's token
budgets and ZeRO-3's persistence threshold (data/glossary/long_tail_round54.json)."""

import json

import pytest

from calculators.resources import data_dir
from service.explain import glossary
from tests.support.glossary_files import assert_arabic_alias_found, assert_entries_complete, assert_found_as, detected, term_definition

FILE = data_dir() / "glossary" / "long_tail_round54.json"
pytestmark = pytest.mark.skipif(not FILE.exists(), reason="round 54 glossary data not present")

REAL_SENTENCES = [
    # https://www.ultralytics.com/ar/glossary/half-precision
    ("fp64", "على عكس التنسيقات الأكثر شيوعًا أحادية الدقة 32 بت (FP32) أو التنسيقات مزدوجة الدقة 64 بت (FP64).", "مزدوجة الدقة"),
    # https://pytorch.org/docs/stable/generated/torch.set_default_dtype.html
    ("fp64", "When PyTorch is initialized its default floating point dtype is torch.float32, and "
             "set_default_dtype(torch.float64) is intended to facilitate NumPy-like type inference.", "torch.float64"),
    # https://docs.pytorch.org/docs/stable/notes/numerical_accuracy.html
    ("ieee-754", "Floating point numbers are represented according to the IEEE 754 standard.", "IEEE 754"),
    ("floating-point", "Floating point numbers are represented according to the IEEE 754 standard.", "Floating point"),
    # https://www.anyscale.com/blog/continuous-batching-llm-inference
    ("dynamic-batching", "One recent such proposed optimization is continuous batching, also known as dynamic batching, or "
                         "batching with iteration-level scheduling.", "dynamic batching"),
    # https://arxiv.org/html/2506.05508v1
    ("pareto-frontier", "As inference scales to multi-node deployments, disaggregation—splitting inference into distinct "
                        "phases—offers a promising path to improving the throughput-interactivity Pareto frontier.", "Pareto frontier"),
    # https://arxiv.org/html/2605.04213
    ("stuck-at-fault", "To address this gap, we conducted a large-scale gate-level stuck-at fault injection on a production-class "
                       "data-center GPU.", "stuck-at fault"),
    ("fault-injection", "To address this gap, we conducted a large-scale gate-level stuck-at fault injection on a production-class "
                        "data-center GPU.", "fault injection"),
    # https://arxiv.org/html/2605.04213
    ("bit-flip", "We extracted GPU SDC characteristics in terms of corruption types, bit-flip behavior, and warp-aligned "
                 "spatial correlation.", "bit-flip"),
    # https://github.com/NVIDIA-NeMo/labs-molt/pull/121
    ("logsumexp", "Wrapping each chunk in torch.utils.checkpoint recomputes the cast, gather and logsumexp in backward.", "logsumexp"),
    # https://huggingface.co/blog/async-rl-training-landscape
    ("chain-of-thought", "Chain-of-thought output lengths are highly variable; a single prompt might produce completions ranging "
                         "from 1K to 32K tokens.", "Chain-of-thought"),
    # https://github.com/huggingface/text-generation-inference/issues/2160
    ("tgi-token-budgets", "Hi, I am trying to find an ideal size for max-batch-total-tokens for my hardware (A100 80GB) and "
                          "model (LLaMA3 8B).", "max-batch-total-tokens"),
    # https://github.com/deepspeedai/DeepSpeed/issues/5047
    ("zero3-persistence-threshold", "I have attempted to reduce the number of all_gathers ZeRO launches using two methods: "
                                    "Increasing the param_persistence_threshold.", "param_persistence_threshold"),
]

NEW_IDS = sorted(t["id"] for t in json.loads(FILE.read_text(encoding="utf-8"))["terms"]) if FILE.exists() else []


@pytest.mark.parametrize("term_id, sentence, found_as", REAL_SENTENCES)
def test_round54_term_found_in_a_real_sentence(term_id, sentence, found_as):
    assert_found_as(term_id, sentence, found_as)


def test_every_new_term_has_a_real_sentence_and_full_fields():
    assert_entries_complete(NEW_IDS, {term_id for term_id, _, _ in REAL_SENTENCES}, 12)


@pytest.mark.parametrize("term_id", [t for t in NEW_IDS if glossary.load().by_id[t]["ar_aliases"]] if FILE.exists() else [])
def test_round54_term_found_in_arabic_text(term_id):
    assert_arabic_alias_found(term_id)


def test_single_precision_is_found_in_both_languages():
    # round 51 P12 (an Arabic glossary page on FP16): «أحادية الدقة» was left unexplained
    assert detected("Single precision is the default.") == {"fp32": "Single precision"}
    assert detected("التنسيقات أحادية الدقة 32 بت (FP32)")["fp32"] == "أحادية الدقة"


def test_dynamic_batching_is_not_said_to_differ_from_continuous_batching():
    # Anyscale writes "continuous batching, also known as dynamic batching": the definition names both uses
    text = "Continuous batching, also known as dynamic batching, raised throughput 23x."
    assert "continuous batching" in term_definition(text, "dynamic-batching")
