"""Round 61, central terms round 57's readers missed (data/glossary/long_tail_round61.json), each met in a real sentence,
with both languages and its source."""

import json

import pytest

from calculators.resources import data_dir
from service.explain import glossary
from tests.support.glossary_files import assert_entries_complete, assert_found_as

FILE = data_dir() / "glossary" / "long_tail_round61.json"
pytestmark = pytest.mark.skipif(not FILE.exists(), reason="round 61 glossary data not present")

REAL_SENTENCES = [
    # https://github.com/NVIDIA/nccl/issues/1649 (round 57 P12), said in other words
    ("nvls-tree", "NVLSTree reaches close to peak bandwidth with only 16 SMs.", "NVLSTree"),
    # https://huggingface.co/blog/deepspeed-to-fsdp-and-back (round 57 P07)
    ("upcasting", "DeepSpeed was upcasting the bf16 weights to fp32 for the optimizer step.", "upcasting"),
    # https://pytorch.org/blog/6x-faster-async-checkpointing/ (round 57 P24)
    ("python-gil", "The background process avoids GIL contention with the trainer threads.", "GIL contention"),
    # https://github.com/pytorch/xla/issues/6347 (round 57 P16)
    ("xla-mark-step", "Each micro-batch ends with xm.mark_step() so the graph is cut there.", "xm.mark_step()"),
    # round 56 P13 (tinker-cookbook, async RL staleness)
    ("admission-control", "AReaL bounds staleness by admission control and trains oldest-first.", "admission control"),
    # https://github.com/RL-Align/RL-Kernel/pull/216 (round 57 P22)
    ("vllm-sleep-mode", "Sleep/wake overhead is only 3-8% of step time when vLLM rollouts share the GPUs.", "Sleep/wake overhead"),
    # https://github.com/NVIDIA/nccl/issues (round 56 P16: PXN against 2 GPUs per node), said in other words
    ("collective-message-size", "PXN only helps at small message sizes with many GPUs per node.", "message sizes"),
    # https://huggingface.co/blog/deepspeed-to-fsdp-and-back (round 57 P07)
    ("fsdp-flat-parameter", "FSDP keeps its flattened parameters in bf16 unless told otherwise.", "flattened parameters"),
]

NEW_IDS = sorted(t["id"] for t in json.loads(FILE.read_text(encoding="utf-8"))["terms"]) if FILE.exists() else []


@pytest.mark.parametrize("term_id, sentence, found_as", REAL_SENTENCES)
def test_round61_term_found_in_a_sentence(term_id, sentence, found_as):
    assert_found_as(term_id, sentence, found_as)


def test_every_new_term_has_a_sentence_and_full_fields():
    assert_entries_complete(NEW_IDS, {term_id for term_id, _, _ in REAL_SENTENCES}, 8)


def test_sleep_mode_is_vllms_only_beside_an_engine_or_rl():
    assert [m.entry["id"] for m in glossary.load().find("The laptop entered sleep mode.")] == []


def test_registered_buffers_are_nccls_user_buffer_registration():
    assert_found_as("nccl-user-buffer-registration", "NCCL reaches peak bandwidth with registered buffers.", "registered buffers")


def test_nvlstree_is_its_own_entry_not_the_generic_algorithm_choice():
    found = {m.found_as: m.entry["id"] for m in glossary.load().find("NCCL picked NVLSTree over Tree.")}
    assert found["NVLSTree"] == "nvls-tree", found
