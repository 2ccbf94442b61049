"""Round 47, readers' gaps (issue 18): Lion, PodDisruptionBudget and AWS Deep Learning Containers, which round 42's
blind readers found missing where the passage turned on them, and the InfiniBand HCA, glossed as a network card (data/glossary/long_tail_round47.json)."""

import json

import pytest

from calculators.resources import data_dir
from service.explain import glossary
from tests.support.glossary_files import assert_arabic_alias_found, assert_entries_complete, assert_found_as

FILE = data_dir() / "glossary" / "long_tail_round47.json"
pytestmark = pytest.mark.skipif(not FILE.exists(), reason="round 47 glossary data not present")

REAL_SENTENCES = [
    # https://github.com/mosaicml/llm-foundry/issues/437 (round 42, P10)
    ("lion-optimizer", "To be specific, if finetuning MPT-30B with Lion, this would take about 4 (weights) + 4 (grads) + "
                       "4 (lion momentum) = 12 bytes/param", "Lion"),
    # https://arxiv.org/abs/2302.06675 (its abstract)
    ("lion-optimizer", "Our method discovers a simple and effective optimization algorithm, Lion (EvoLved Sign Momentum).",
     "Lion"),
    # https://kubernetes.io/docs/tasks/run-application/configure-pdb/
    ("pod-disruption-budget", "A PodDisruptionBudget has three fields: A label selector .spec.selector to specify the set "
                              "of pods to which it applies.", "PodDisruptionBudget"),
    # https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html (NCCL_IB_HCA)
    ("host-channel-adapter", "The NCCL_IB_HCA variable specifies which Host Channel Adapter (RDMA) interfaces to use for "
                             "communication.", "Host Channel Adapter"),
    # https://arxiv.org/abs/2305.13245 (GQA, its abstract)
    ("multi-head-attention", "We show that uptrained GQA achieves quality close to multi-head attention with comparable "
                             "speed to MQA.", "multi-head attention"),
    # https://www.reddit.com/r/hardware/comments/1o35mt6/ (round 43, P19)
    ("exaflops", "It should be 1.4 EFLOPS (exaflops) not petaflops.", "EFLOPS"),
    # https://arxiv.org/abs/2312.12705 (its abstract: an amount, loosely)
    ("exaflops", "training a one trillion parameter GPT-style model on 20 trillion tokens requires a staggering 120 million "
                 "exaflops of computation", "exaflops"),
    # https://docs.aws.amazon.com/deep-learning-containers/latest/devguide/what-is-dlc.html
    ("aws-deep-learning-containers", "AWS Deep Learning Containers (DLCs) are a set of Docker images for training and "
                                     "serving models in TensorFlow, TensorFlow 2, PyTorch, and MXNet.",
     "AWS Deep Learning Containers"),
]

NEW_IDS = sorted(t["id"] for t in json.loads(FILE.read_text(encoding="utf-8"))["terms"]) if FILE.exists() else []


@pytest.mark.parametrize("term_id, sentence, found_as", REAL_SENTENCES)
def test_round47_term_found_in_a_real_sentence(term_id, sentence, found_as):
    assert_found_as(term_id, sentence, found_as)


def test_every_new_term_has_a_real_sentence_and_full_fields():
    assert_entries_complete(NEW_IDS, {term_id for term_id, _, _ in REAL_SENTENCES}, 6)


@pytest.mark.parametrize("term_id", [t for t in NEW_IDS if glossary.load().by_id[t]["ar_aliases"]] if FILE.exists() else [])
def test_round47_term_found_in_arabic_text(term_id):
    assert_arabic_alias_found(term_id)


def test_the_optimizer_state_sense_no_longer_speaks_for_adam_alone():
    # round 42 (P10): "for Adam in mixed precision this is ..." beside a Lion run read as a contradiction of its 4+4+4 bytes
    definition = glossary.load().by_id["optimizer-state"]["definition"]
    assert "Lion keep one" in definition and "for Adam in mixed precision" not in definition


def test_an_hca_is_no_network_card_and_requests_per_minute_no_rate_limit():
    # round 47 review (Q13, Q11): "**HCAs** (network interface card)"; "600 RPM" (a throughput target) as an API cap
    found = {m.entry["id"] for m in glossary.detect("Each node has four HCAs; the target is 600 requests per minute.")}
    assert "host-channel-adapter" in found and "nic" not in found and "api-rate-limits" not in found


def test_mha_is_multi_head_attention_and_eflops_keeps_its_prefix():
    # round 43 (P33, P19): "**MHA** (attention)" for the property GQA and MQA change; "**EFLOPS** (floating-point
    # operations per second)" without the exa that the passage turns on
    found = {m.entry["id"]: m for m in glossary.load().find("MHA, GQA and MQA at 4.6 EFLOPS of INT4", extended=True)}
    assert "multi-head-attention" in found and "attention" not in found
    assert "exaflops" in found and "flop-per-second" not in found
