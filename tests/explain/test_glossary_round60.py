"""Round 60, central terms round 56's readers missed (data/glossary/long_tail_round60.json) and aliases added to older
entries ("async tensor parallelism", "co-locate mode"), each met in a real sentence, with both languages and its source."""

import json

import pytest

from calculators.resources import data_dir
from service.explain import glossary
from service.explain.compose import explain_offline
from tests.support.glossary_files import assert_arabic_alias_found, assert_entries_complete, assert_found_as

FILE = data_dir() / "glossary" / "long_tail_round60.json"
pytestmark = pytest.mark.skipif(not FILE.exists(), reason="round 60 glossary data not present")

REAL_SENTENCES = [
    # https://blog.vllm.ai/2025/02/17/distributed-inference.html (round 56 P18), said in other words
    ("super-linear-scaling", "Going from one to two GPUs gives super-linear scaling, because the KV cache gets more room.",
     "super-linear scaling"),
    # round 56 P07 (a Codingmall answer on one TPU core against eight), in English
    ("tpu-core", "Training on a single TPU core is slower than on all eight TPU cores.", "single TPU core"),
    # round 56 P11 (Cloud TPU against Colab TPU), in English
    ("google-colab", "A Colab TPU is free but its sessions are short.", "Colab TPU"),
    # https://github.com/pytorch/pytorch/issues/67570 (round 56 P05)
    ("optimizer-in-backward", "We propose running the optimizer in backward to cut peak memory by about 15%.",
     "optimizer in backward"),
    # round 56 P03 (openxla/xla #1539)
    ("exposed-communication", "Most of the wgrad all-reduce time is still exposed communication.", "exposed communication"),
    # round 56 P09 (Red Hat on OpenShift networking)
    ("vnic", "Each training pod gets vNICs created with SR-IOV.", "vNICs"),
    # https://huggingface.co/blog/vllm-colocate (round 56 P21)
    ("trl-vllm-server-mode", "In server mode vLLM runs on its own GPUs and GRPO sends it prompts.", "server mode"),
]

NEW_IDS = sorted(t["id"] for t in json.loads(FILE.read_text(encoding="utf-8"))["terms"]) if FILE.exists() else []


@pytest.mark.parametrize("term_id, sentence, found_as", REAL_SENTENCES)
def test_round60_term_found_in_a_sentence(term_id, sentence, found_as):
    assert_found_as(term_id, sentence, found_as)


def test_every_new_term_has_a_sentence_and_full_fields():
    assert_entries_complete(NEW_IDS, {term_id for term_id, _, _ in REAL_SENTENCES}, 7)


@pytest.mark.parametrize("term_id", [t for t in NEW_IDS if glossary.load().by_id[t]["ar_aliases"]] if FILE.exists() else [])
def test_round60_term_found_in_arabic_text(term_id):
    assert_arabic_alias_found(term_id)


def test_aliases_added_to_older_entries():
    # round 56 P24 (PyTorch forum: "Introducing Async Tensor Parallelism in TorchTitan"); round 56 P21 ("co-locate mode")
    assert_found_as("async-tensor-parallelism", "Introducing Async Tensor Parallelism in TorchTitan.", "Async Tensor Parallelism")
    assert_found_as("vllm-colocation", "In co-locate mode vLLM shares the training GPUs.", "co-locate mode")


def test_server_mode_is_trls_only_beside_vllm_or_trl():
    ids = [t["id"] for t in explain_offline("The database runs in server mode on each node.", "en")["terms"]]
    assert "trl-vllm-server-mode" not in ids
