"""Round 51, long-tail terms: FSDP's StateDictType, software-defined networking, a served request's E2EL, the EOS token,
PyTorch's allocated/active/reserved memory counters, DeepCompile, SuperOffload, iperf3, AMD's Pensando Pollara, iso-interactivity,
2D sharding and PyTorch's fake process group (data/glossary/long_tail_round51.json)."""

import json

import pytest

from calculators.resources import data_dir
from service.explain import glossary
from service.explain.compose import explain_offline
from tests.support.glossary_files import assert_arabic_alias_found, assert_entries_complete, assert_found_as, detected

FILE = data_dir() / "glossary" / "long_tail_round51.json"
pytestmark = pytest.mark.skipif(not FILE.exists(), reason="round 51 glossary data not present")

REAL_SENTENCES = [
    # https://github.com/intelligent-machine-learning/dlrover/issues/840
    ("fsdp-state-dict-type", "Now, we use the `StateDictType.FULL_STATE_DICT` to save and load the FSDP state dict.",
     "StateDictType.FULL_STATE_DICT"),
    # https://github.com/facebookresearch/d2go/pull/512
    ("fsdp-state-dict-type", "Currently, when saving and loading checkpoints for FSDP-wrapped modules, we are saving and loading "
                             "using `StateDictType.LOCAL_STATE_DICT`, where the state_dict becomes essentially a single flat "
                             "tensor under the `_flat_param` key.", "StateDictType.LOCAL_STATE_DICT"),
    # https://github.com/topics/sdn (GitHub's topic page)
    ("software-defined-networking", "Software-defined networking (SDN) separates network control from network data forwarding, "
                                    "allowing networks to be programmed and centrally managed with standard protocols.",
     "Software-defined networking"),
    # https://docs.vllm.ai/en/v0.11.0/api/vllm/benchmarks/serve.html (BenchmarkMetrics)
    ("end-to-end-latency", "E2EL stands for end-to-end latency per request.", "E2EL"),
    # https://github.com/NVIDIA/TensorRT-LLM/pull/17249
    ("eos-token", "A request can finish earlier if the model emits an EOS token, reaches a stop condition, or if the benchmark "
                  "client/server applies stop-token handling.", "EOS token"),
    # https://github.com/sgl-project/sglang/pull/12597
    ("eos-token", "https://github.com/sgl-project/sglang/pull/12334 does not handle `--ignore-eos` which is commonly used for "
                  "fixed size isl/osl benchmarking.", "ignore-eos"),
    # https://github.com/karpathy/nanochat/pull/839
    ("cuda-memory-reserved", "It's the Metal caching allocator's **reserved** pool — the analogue of `max_memory_reserved()`, "
                             "not `max_memory_allocated()`, so it isn't comparable to the CUDA number printed under the same "
                             "label.", "max_memory_allocated"),
    # https://github.com/deepspeedai/DeepSpeed/pull/7154
    ("deepcompile", "This PR introduces *DeepCompile*, a new feature that efficiently integrates compiler optimizations with "
                    "other DeepSpeed features.", "DeepCompile"),
    # https://github.com/deepspeedai/DeepSpeed/issues/7966
    ("superoffload", "SuperOffload is designed for Superchips (GH200, GB300, etc.) that provide NVLink-C2C between the CPU and "
                     "GPU.", "SuperOffload"),
    # https://github.com/esnet/iperf/issues/474
    ("iperf3", "Why do I use iperf3 to test performance data much lower than iperf", "iperf3"),
    # https://github.com/ROCm/legacy-rocm-build/issues/5717
    ("pensando-pollara", "If you're using RCCL on AMD Instinct MI300X GPUs with AMD Pollara AI NIC, you might observe performance "
                         "degradation for specific collectives and message sizes.", "Pollara AI NIC"),
    # https://github.com/ROCm/TheRock/issues/7904
    ("pensando-pollara", "In ROCm 7.14.0, AMD SMI NIC telemetry only supports AMD AI NIC Pollara 400 adapters.", "Pollara 400"),
    # https://github.com/SemiAnalysisAI/InferenceX-app/pull/381
    ("iso-interactivity", "Peak iso-interactivity gap: 4.39x at 125 tok/s/user (4,130 vs 941 tok/s/GPU on the "
                          "spline-interpolated Pareto)", "iso-interactivity"),
    # https://github.com/AI-Hypercomputer/torchprime/issues/22
    ("two-d-sharding", "Support both FSDP and 2D sharding with the same trainer", "2D sharding"),
    # https://github.com/pytorch/pytorch/blob/main/torch/testing/_internal/distributed/fake_pg.py
    ("fake-process-group", "A fake process group (not related to FakeTensor) is a process group which doesn't actually do any "
                           "communication, it just hallucinates some communication.", "fake process group"),
]

NEW_IDS = sorted(t["id"] for t in json.loads(FILE.read_text(encoding="utf-8"))["terms"]) if FILE.exists() else []


@pytest.mark.parametrize("term_id, sentence, found_as", REAL_SENTENCES)
def test_round51_term_found_in_a_real_sentence(term_id, sentence, found_as):
    assert_found_as(term_id, sentence, found_as)


def test_every_new_term_has_a_real_sentence_and_full_fields():
    assert_entries_complete(NEW_IDS, {term_id for term_id, _, _ in REAL_SENTENCES}, 12)


@pytest.mark.parametrize("term_id", [t for t in NEW_IDS if glossary.load().by_id[t]["ar_aliases"]] if FILE.exists() else [])
def test_round51_term_found_in_arabic_text(term_id):
    assert_arabic_alias_found(term_id)


@pytest.mark.parametrize("text, term_id", [
    # written for this test: the same words away from their cues
    ("Peak active hours are 9-11am and 7-9pm on weekdays.", "cuda-memory-reserved"),
    ("The frontend team built a fake backend to demo the checkout page.", "fake-process-group"),
    ("The switch reaches EOS next year, so we must replace it.", "eos-token"),
])
def test_the_ordinary_words_are_these_terms_only_where_the_text_is_about_them(text, term_id):
    assert term_id not in {t["id"] for t in explain_offline(text, "en")["terms"]}


def test_a_sharded_state_dict_is_saved_per_rank_not_gathered():
    definition = glossary.load().by_id["fsdp-state-dict-type"]["definition"]
    assert "each rank saves only its own shard" in definition and "nothing is gathered" in definition


def test_a_plain_end_to_end_latency_stays_the_whole_pipeline_measurement():
    # without serving-benchmark words, "end-to-end latency" is still the end-to-end entry (round 46)
    found = detected("The end-to-end latency of a request was 2.1 s.")
    assert "end-to-end" in found and "end-to-end-latency" not in found, found
    beside_ttft = detected("Mean TTFT was 120 ms and the end-to-end latency 4.2 s.")
    assert beside_ttft.get("end-to-end-latency") == "end-to-end latency", beside_ttft
