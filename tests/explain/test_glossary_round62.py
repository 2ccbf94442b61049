"""Round 62, central terms round 57's readers missed (data/glossary/long_tail_round62.json) and aliases added to older
entries, each met in a real sentence, with both languages and its source."""

import json

import pytest

from calculators.resources import data_dir
from service.explain import glossary
from tests.support.glossary_files import assert_entries_complete, assert_found_as

FILE = data_dir() / "glossary" / "long_tail_round62.json"
pytestmark = pytest.mark.skipif(not FILE.exists(), reason="round 62 glossary data not present")

REAL_SENTENCES = [
    # https://github.com/karpathy/llm.c/pull/422 (round 57 P06): "-r 1 (recompute GeLU)"
    ("gelu", "But with -r 1 (recompute GeLU) I can fit batch size 12.", "GeLU"),
    # https://github.com/deepspeedai/DeepSpeed/blob/master/blogs/deepspeed-chat/README.md (round 57 P08)
    ("deepspeed-hybrid-engine", "The effective throughput of DeepSpeed-HE during Stage 3 of the RLHF training depends on both phases.", "DeepSpeed-HE"),
    # https://github.com/verl-project/verl/issues/7167 (round 57 P13), said in other words
    ("weight-broadcast-group", "Adding all the trainer GPUs to the broadcast group raised the bandwidth of the weight sync to the vLLM rollout ranks.",
     "broadcast group"),
    # https://github.com/pytorch/pytorch/issues/22340 (round 57 P20), said in other words
    ("ddp-reducer", "The c10d::Reducer starts an all-reduce as soon as a bucket is full.", "c10d::Reducer"),
    # https://github.com/thinking-machines-lab/tinker-cookbook (round 56 P13, async RL staleness)
    ("discard-and-requeue", "The old discard-and-requeue behavior regenerated slow prompts again and again.", "discard-and-requeue"),
    # https://tinker-docs.thinkingmachines.ai/cookbook/api-reference/rl/trajectorygroup
    ("trajectory-group", "Each trajectory group holds the rollouts of one prompt, whose rewards are centred together.", "trajectory group"),
    # https://github.com/radixark/Megatron-LM/pull/61 (round 57 P19)
    ("checkpoint-write-bucket", "Synchronous torch_dist save stages all write buckets to host memory before any file write starts.", "write buckets"),
]

NEW_IDS = sorted(t["id"] for t in json.loads(FILE.read_text(encoding="utf-8"))["terms"]) if FILE.exists() else []


@pytest.mark.parametrize("term_id, sentence, found_as", REAL_SENTENCES)
def test_round62_term_found_in_a_sentence(term_id, sentence, found_as):
    assert_found_as(term_id, sentence, found_as)


def test_every_new_term_has_a_sentence_and_full_fields():
    assert_entries_complete(NEW_IDS, {term_id for term_id, _, _ in REAL_SENTENCES}, 7)


@pytest.mark.parametrize("sentence", [
    "Upload the results to the S3 write bucket every night.",  # a storage bucket
    "Join the broadcast group on the chat server for announcements.",  # a chat channel
    "Our hybrid engine car gets 50 miles per gallon.",  # no DeepSpeed-Chat
])
def test_context_aliases_stay_out_of_other_senses(sentence):
    found = {m.entry["id"] for m in glossary.load().find(sentence)}
    assert not found & {"checkpoint-write-bucket", "weight-broadcast-group", "deepspeed-hybrid-engine"}, found


@pytest.mark.parametrize("term_id, sentence, found_as", [
    # round 57 P06 (llm.c #422): "Option to recompute forward activations during backward pass."
    ("activation-checkpointing", "Option to recompute forward activations during backward pass.", "recompute forward activations"),
    # round 57 P08 (DeepSpeed-Chat): "running the reference actor model with just a couple of forward and backward passes"
    ("reference-model", "The RL training phase runs the reference actor model with a couple of forward passes.", "reference actor model"),
    # round 57 P21 (torchtitan #2842): "usually experts are thin"
    ("fine-grained-experts", "With thin experts, ETP makes the GEMMs too small.", "thin experts"),
])
def test_aliases_added_to_older_entries(term_id, sentence, found_as):
    assert_found_as(term_id, sentence, found_as)
