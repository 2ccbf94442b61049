"""Round 58, central terms round 54's readers missed: GSPO, zigzag ring attention and Microsoft's Nebula
(data/glossary/long_tail_round58.json), and the alias "backup nodes"."""

import json

import pytest

from calculators.resources import data_dir
from service.explain import glossary
from tests.support.glossary_files import assert_arabic_alias_found, assert_entries_complete, assert_found_as, detected

FILE = data_dir() / "glossary" / "long_tail_round58.json"
pytestmark = pytest.mark.skipif(not FILE.exists(), reason="round 58 glossary data not present")

REAL_SENTENCES = [
    # https://github.com/modelscope/twinkle (Sequence Parallel page; round 54 P03), said in other words
    ("zigzag-ring-attention", "The module combines Ulysses-style all-to-all with ZigZag Ring Attention for long inputs.",
     "ZigZag Ring Attention"),
    # https://github.com/zhuzilin/ring-flash-attention (README)
    ("zigzag-ring-attention", "Use zigzag_ring_flash_attn_func when the mask is causal.", "zigzag_ring_flash_attn"),
    # https://discuss.pytorch.org/t/question-on-saving-checkpoint-asynchronously/187316 (round 54 P05)
    ("nebula-checkpointing", "Projects like JAX, PyTorch Lightning and Microsoft Nebula have already implemented it.",
     "Microsoft Nebula"),
    # https://www.deepspeed.ai/docs/config-json/ (the nebula block of the DeepSpeed config)
    ("nebula-checkpointing", "Set enabled to true in nebula_config to write checkpoints in the background.", "nebula_config"),
    # https://arxiv.org/abs/2507.18071 (abstract)
    ("gspo", "We introduce Group Sequence Policy Optimization (GSPO), a stable reinforcement learning algorithm.",
     "Group Sequence Policy Optimization"),
    # round 54 P04 (ThakiCloud's Arabic post on GSPO), in English
    ("gspo", "GSPO converges faster than GRPO when training mixture-of-experts models.", "GSPO"),
    # https://pytorch.org/blog/ (TorchTitan MoE pre-training on AMD MI325X; round 55 P10), where Primus-Turbo is "AMD's
    # open-source kernel library", not the Primus training framework
    ("primus-turbo", "AMD and Meta tuned TorchTitan and Primus-Turbo, AMD's open-source kernel library, for MI325X GPUs.",
     "Primus-Turbo"),
    ("primus-turbo", "Set use_primus_turbo so the grouped GEMMs run on primus_turbo kernels.", "primus_turbo"),
]

NEW_IDS = sorted(t["id"] for t in json.loads(FILE.read_text(encoding="utf-8"))["terms"]) if FILE.exists() else []


@pytest.mark.parametrize("term_id, sentence, found_as", REAL_SENTENCES)
def test_round58_term_found_in_a_sentence(term_id, sentence, found_as):
    assert_found_as(term_id, sentence, found_as)


def test_every_new_term_has_a_sentence_and_full_fields():
    assert_entries_complete(NEW_IDS, {term_id for term_id, _, _ in REAL_SENTENCES}, 4)


@pytest.mark.parametrize("term_id", [t for t in NEW_IDS if glossary.load().by_id[t]["ar_aliases"]] if FILE.exists() else [])
def test_round58_term_found_in_arabic_text(term_id):
    assert_arabic_alias_found(term_id)


def test_backup_nodes_are_spare_nodes():
    # round 54 P07 (OLMo 2's "backup nodes", standing by to replace a failed node)
    found = detected("We keep backup nodes ready so a failed node is replaced within minutes.")
    assert found.get("spare-nodes") == "backup nodes", found
    # a zigzag ring is still a ring: the general entry stays for the plain phrase
    assert "zigzag-ring-attention" not in detected("Ring attention passes keys and values around a ring of GPUs.")


def test_spellings_round_54_wrote():
    # round 54 P24 (Megatron-LM #2662): "the global batchsize"; round 54 P06 (qwisp #168): "8-bit KV saves 80-320MB"
    assert detected("With tp_comm_overlap the global batchsize is 128.").get("global-batch-size") == "global batchsize"
    assert detected("At that context, 8-bit KV saves 80-320MB.").get("kv-cache-quantization") == "8-bit KV"
