"""Round 52, long-tail terms: DDP's no_sync() and Accelerate's accumulate(), the optimizer's update norm, DCGM's tensor-active
metric, block-sparse attention, idempotent operations, the per-launch cost of GPU kernels, vLLM's FP8 E5M2 KV cache and the
NVSwitch island (data/glossary/long_tail_round52.json)."""

import json

import pytest

from calculators.resources import data_dir
from service.explain import glossary
from service.explain.compose import explain_offline
from tests.support.glossary_files import assert_arabic_alias_found, assert_entries_complete, assert_found_as, detected

FILE = data_dir() / "glossary" / "long_tail_round52.json"
pytestmark = pytest.mark.skipif(not FILE.exists(), reason="round 52 glossary data not present")

REAL_SENTENCES = [
    # https://github.com/karpathy/nanochat/pull/33
    ("ddp-no-sync", "This optimization is inline with other implementations such as fairseq, which use model.no_sync() to "
                    "disable gradient synchronization until the final micro-step.", "model.no_sync()"),
    # https://github.com/NVIDIA/apex/issues/1175
    ("ddp-no-sync", "no_sync equivalent used for gradient accumulation", "no_sync"),
    # https://github.com/goodfire-ai/spd/pull/216
    ("ddp-no-sync", "Use DDP.no_sync() context manager to skip gradient synchronization during intermediate gradient "
                    "accumulation steps", "DDP.no_sync"),
    # https://github.com/marin-community/marin/issues/1368
    ("update-norm", "Adam update norm spikes (2x) precedes loss spikes but not every update norm spike leads to loss spikes.",
     "Adam update norm"),
    # https://drpranayjha.com/?p=8272
    ("tensor-active-metric", "The honest signals come from DCGM profiling fields: SM active, Tensor Core active, and memory "
                             "bandwidth, exposed by dcgm-exporter into Prometheus and Grafana, and shipped automatically by "
                             "the GPU Operator.", "Tensor Core active"),
    # https://github.com/microsoft/DeepSpeed/discussions/1696
    ("blocksparse-attention", "I see that DeepSpeed used Triton to implement block-sparse attention.", "block-sparse attention"),
    # https://facebookresearch.github.io/xformers/tutorials/blocksparse.html
    ("blocksparse-attention", "BlockSparse attention uses Triton to limit the attention computations to some tiles, which you "
                              "define at construction time.", "BlockSparse attention"),
    # https://github.com/facebookresearch/fairseq2/pull/247
    ("idempotent-operation", "Makes `save_checkpoint` idempotent by using a marker file instead of a global symbolic link",
     "idempotent"),
    # https://docs.nvidia.com/cuda/cuda-programming-guide/04-special-topics/cuda-graphs.html
    ("kernel-launch-overhead", "Separating out the definition of a graph from its execution enables a number of optimizations: "
                               "first, CPU launch costs are reduced compared to streams, because much of the setup is done in "
                               "advance", "CPU launch costs"),
    # https://genesis-embodied-ai.github.io/quadrants/user_guide/performance.html
    ("kernel-launch-overhead", "Every launch carries a fixed overhead that is independent of how much data the kernel processes "
                               "- that per-launch overhead is what we call kernel launch latency.", "per-launch overhead"),
    # https://github.com/vllm-project/vllm/issues/4827
    ("fp8-e5m2-kv-cache", "Can I still use FP8 E5M2 KV Cache if my GPU capability is less than 8.9?", "FP8 E5M2 KV Cache"),
    # https://github.com/vllm-project/vllm/issues/8409
    ("fp8-e5m2-kv-cache", "ValueError: fp8_e5m2 kv-cache is not supported with fp8 checkpoints.", "fp8_e5m2 kv-cache"),
    # AI Systems Performance Engineering (Chris Fregly, O'Reilly), the chapter on NCCL's communication algorithms
    ("nvlink-domain-island", "For instance, four GPUs on the same NUMA node or within a single NVSwitch island is much better "
                             "than spanning all eight GPUs across slower links.", "NVSwitch island"),
]

NEW_IDS = sorted(t["id"] for t in json.loads(FILE.read_text(encoding="utf-8"))["terms"]) if FILE.exists() else []


@pytest.mark.parametrize("term_id, sentence, found_as", REAL_SENTENCES)
def test_round52_term_found_in_a_real_sentence(term_id, sentence, found_as):
    assert_found_as(term_id, sentence, found_as)


def test_every_new_term_has_a_real_sentence_and_full_fields():
    assert_entries_complete(NEW_IDS, {term_id for term_id, _, _ in REAL_SENTENCES}, 8)


@pytest.mark.parametrize("term_id", [t for t in NEW_IDS if glossary.load().by_id[t]["ar_aliases"]] if FILE.exists() else [])
def test_round52_term_found_in_arabic_text(term_id):
    assert_arabic_alias_found(term_id)


@pytest.mark.parametrize("text, term_id", [
    # written for this test: the same words away from their cues
    ("There is no sync between the two teams yet.", "ddp-no-sync"),
    ("We need to update norms for code review.", "update-norm"),
    ("A projection matrix is idempotent.", "idempotent-operation"),
    ("The rocket's launch latency was two days.", "kernel-launch-overhead"),
    ("Keep the tensor active while you edit it.", "tensor-active-metric"),
])
def test_the_ordinary_words_are_these_terms_only_where_the_text_is_about_them(text, term_id):
    assert term_id not in {t["id"] for t in explain_offline(text, "en")["terms"]}


@pytest.mark.parametrize("text, owner, found_as", [
    # the older entries keep their words: this round adds only the forms they do not own
    ("In practice, a DGX H100 node is one 8-GPU NVLink island.", "nvlink-domain", "NVLink island"),
    ("The E5M2 format trades precision for range.", "fp8", "E5M2"),
    ("CUDA graphs reduce kernel launch overhead by capturing a sequence of GPU operations into a graph.", "dispatch-overhead",
     "kernel launch overhead"),
    ("Watch DCGM_FI_PROF_PIPE_TENSOR_ACTIVE on every node.", "dcgm", "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE"),
])
def test_the_older_entries_keep_their_aliases(text, owner, found_as):
    assert_found_as(owner, text, found_as)


def test_the_launch_overhead_is_a_cost_per_launch_that_adds_up():
    definition = glossary.load().by_id["kernel-launch-overhead"]["definition"]
    assert "cost per launch" in definition and "adds up" in definition


def test_accelerates_accumulate_is_the_same_skip():
    found = detected("with accelerator.accumulate(model):")
    assert found.get("ddp-no-sync") == "accelerator.accumulate", found
