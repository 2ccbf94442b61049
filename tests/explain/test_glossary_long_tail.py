"""The glossary's long tail (issue 11 item 6): terms as real training docs write them, the Arabic
machine-translation table, and page clutter read as clutter (issue 11 item 4)."""

import json

import pytest

try:
    from service.explain import glossary
except ImportError:  # before the move to service/explain/
    from service import glossary

from calculators.resources import data_dir
from service.explain import terms
from service.explain.pipeline import analyse

pytestmark = pytest.mark.skipif(not list((data_dir() / "glossary").glob("*.json")), reason="glossary data not present")

TT = "https://github.com/pytorch/torchtitan/blob/main/"
MEG = "https://github.com/NVIDIA/Megatron-LM/blob/main/"
ZPP = "https://github.com/deepspeedai/DeepSpeed/blob/master/docs/_tutorials/zeropp.md"

# (term id, sentence quoted from the source, what the detector should find); the source is in the comment.
REAL_SENTENCES = [
    # TT + torchtitan/models/deepseek_v3/MTP.md
    ("loss-parallel", "When `global_vocab_size` is configured, `MTPLoss` uses the vocab size required by the loss-parallel cross entropy path.", "loss-parallel"),
    # https://pytorch.org/docs/stable/_modules/torch/distributed/pipelining/schedules.html (__all__)
    ("looped-bfs", '"ScheduleGPipe", "ScheduleInterleaved1F1B", "ScheduleLoopedBFS", "ScheduleInterleavedZeroBubble",', "ScheduleLoopedBFS"),
    # ZPP
    ("zero-quantized-weights", "*qwZ* applies block-based quantization to reduce ZeRO parameter all-gather communication volume by half from FP16 to INT8.", "qwZ"),
    ("zero-hierarchical-partitioning", "*hpZ* eliminates inter-node backward parameter all-gather communication through data remapping and recomputation.", "hpZ"),
    ("zero-quantized-gradients", "*qgZ* replaces gradients allreduce collective with a new communication efficient all-to-all based quantized gradient averaging.", "qgZ"),
    ("zero-plus-plus", "ZeRO++ consists of three key designs, namely quantized weights (*qwZ*), hiearchical partitioning ZeRO (*hpZ*), and quantized gradients (*qgZ*):", "ZeRO++"),
    # MEG + docs/user-guide/features/megatron_fsdp.md
    ("megatron-fsdp", "Megatron-FSDP checkpoints have a `module.` prefix pre-pended to all model parameter names in the state dictionary", "Megatron-FSDP"),
    ("state-dict", "Megatron-FSDP checkpoints have a `module.` prefix pre-pended to all model parameter names in the state dictionary", "state dictionary"),
    # TT + README.md (key features)
    ("torchft", "10. [TorchFT](https://github.com/pytorch/torchft) integration", "TorchFT"),
    ("flight-recorder", "[Debugging tools](docs/debugging.md) including CPU/GPU profiling, memory profiling, Flight Recorder, etc.", "Flight Recorder"),
    ("torch-compile", "5. `torch.compile` support", "torch.compile"),
    ("meta-device-init", "2. [Meta device](https://pytorch.org/docs/stable/meta.html) initialization", "Meta device"),
    ("fp8-all-gather", "[Float8](https://discuss.pytorch.org/t/distributed-w-torchtitan-enabling-float8-all-gather-in-fsdp2/209323) support", "float8-all-gather"),
    # https://github.com/deepseek-ai/EPLB (README)
    ("eplb", "As described in the DeepSeek-V3 paper, we adopt a redundant experts strategy that duplicates heavy-loaded experts.", "redundant experts"),
    # https://github.com/sgl-project/sglang/blob/main/docs/advanced_features/expert_parallelism.md
    ("eplb", "SGLang's Expert Parallelism Load Balancer (EPLB) dynamically monitors expert usage, reassigns experts to balance workload", "Expert Parallelism Load Balancer"),
    # MEG + megatron/core/transformer/moe/README.md (also the FP8 note on recipes with current scaling)
    ("token-permutation", "Memory efficient token permutation by moving the probs multiplication from unpermutation to activation function of GroupedMLP.", "token permutation"),
    ("hybridep", "Add HybridEP backend to Flex Dispatcher(GB200, B200, H100 supported)", "HybridEP"),
    ("moe-dispatch-combine", "Support DeepSeek's DeepEP for efficient token dispatching (--moe-token-dispatcher-type flex --moe-enable-deepep)", "token dispatching"),
    ("fp8-current-scaling", "For blockwise and MXFP8 recipes with current scaling, training loss curves show negligible difference compared to BF16 baselines.", "current scaling"),
    # https://github.com/deepseek-ai/DeepEP (README)
    ("moe-dispatch-combine", "It provides high-throughput and low-latency all-to-all GPU kernels, which are also as known as MoE dispatch and combine.", "MoE dispatch"),
    # TT + torchtitan/components/quantization/mxfp8.md
    ("microscaling", "MXFP8 is a microscaling format from the MX OCP spec that uses block-based scaling to maintain numerical accuracy while leveraging low-precision tensor cores.", "MXFP8"),
    ("microscaling", "with RCEIL rounding mode when computing the e8m0 scale factors.", "e8m0"),
    ("torchao", "TorchAO v0.14.0 or newer", "TorchAO"),
    # TT + torchtitan/components/quantization/float8.md
    ("fp8-recipe", "* `recipe_name`: Float8 recipe name. Options: `\"rowwise\"` (default), `\"rowwise_with_gw_hp\"`.", "recipe_name"),
    ("fp8-rowwise-scaling", "For float8 with rowwise scaling, configure it in your config_registry function:", "rowwise scaling"),
    # TT + benchmarks/asyncTP_llama3_h100_2025-06_torchtitan.md
    ("fp8-tensorwise-scaling", "| float8 tensorwise | 809.8 | 942.4 | 1.16 |", "float8 tensorwise"),
    # https://nvidia.github.io/TransformerEngine/features/low_precision_training/fp8_delayed_scaling/fp8_delayed_scaling.html
    ("fp8-delayed-scaling", "FP8 Delayed Scaling recipe estimates scaling factors from historical amax values rather than computing them for each tensor.", "Delayed Scaling"),
    # MEG + megatron/core/distributed/fsdp/src/docs/mfsdp_design.md
    ("fp8-blockwise-scaling", "blockwise quantization support. Currently, a 32x1 mxfp8 block may be sharded across", "blockwise quantization"),
    # MEG + docs/llama_mistral.md
    ("swiglu", "Megatron performs batch matrix multiplications in a couple places, such as within self attention and in SwiGLU, that Llama performs separately.", "SwiGLU"),
    # MEG + megatron/core/resharding/README.md
    ("nvshmem", "nvshmem      NVSHMEM pipelined GPU-to-GPU (requires nvshmem library)", "NVSHMEM"),
    # MEG + megatron/core/transformer/moe/README.md (HybridEP row)
    ("ibgda", "NVIDIA's optimized dispatcher using TMA and IBGDA, fewer SMs, native MNNVL support", "IBGDA"),
    ("multi-node-nvlink", "NVIDIA's optimized dispatcher using TMA and IBGDA, fewer SMs, native MNNVL support", "MNNVL"),
    # https://docs.pytorch.org/docs/stable/nn.attention.html
    ("sdpa", "This module contains functions and classes that alter the behavior of torch.nn.functional.scaled_dot_product_attention", "scaled_dot_product_attention"),
    ("flex-attention", "This module implements the user facing API for flex_attention in PyTorch.", "flex_attention"),
    ("pytorch", "This module implements the user facing API for flex_attention in PyTorch.", "PyTorch"),
    # https://docs.pytorch.org/docs/stable/generated/torch.nn.attention.SDPBackend.html
    ("cudnn", "CUDNN_ATTENTION: The cuDNN backend for scaled dot product attention.", "CUDNN_ATTENTION"),
    # TT + docs/fsdp.md
    ("state-dict", "`model.state_dict()`: full state dict", "model.state_dict"),
    # MEG + docs/user-guide/features/cuda_graph.md
    ("cuda-graphs", "CUDA Graphs reduce kernel-launch overhead by recording GPU operations once and replaying the recording on subsequent iterations.", "CUDA Graphs"),
    # https://github.com/deepspeedai/DeepSpeed/blob/master/docs/_tutorials/autotuning.md
    ("gradient-accumulation", "z1_tmbspg3_gas1 means the experiment uses ZeRO stage 1, train micro-batch size per GPU (tmbspg) of 3, and gradient accumulation steps (gas) of 1.", "gradient accumulation steps"),
    # MEG + docs (CUDA graph notes on MoE): "expert parallel (EP) all-to-all ... That A2A path typically needs the host"
    ("all-to-all", "That A2A path typically needs the host to coordinate collectives and to sync with the GPU", "A2A"),
    # TT + README.md
    ("tensor-parallelism", "run distributed inference with Tensor Parallel", "Tensor Parallel"),
]

NEW_IDS = sorted({"loss-parallel", "looped-bfs", "zero-quantized-weights", "zero-hierarchical-partitioning", "zero-quantized-gradients",
                  "megatron-fsdp", "torchft", "flight-recorder", "eplb", "token-permutation", "moe-dispatch-combine", "hybridep",
                  "microscaling", "fp8-recipe", "fp8-tensorwise-scaling", "fp8-rowwise-scaling", "fp8-delayed-scaling",
                  "fp8-current-scaling", "fp8-blockwise-scaling", "fp8-all-gather", "swiglu", "nvshmem", "ibgda",
                  "multi-node-nvlink", "sdpa", "state-dict", "cuda-graphs", "torch-compile", "flex-attention", "torchao",
                  "cudnn", "meta-device-init", "pytorch"})


def ids(text: str) -> dict[str, str]:
    return {m.entry["id"]: m.found_as for m in glossary.detect(text)}


@pytest.mark.parametrize("term_id, sentence, found_as", REAL_SENTENCES)
def test_long_tail_term_found_in_a_real_sentence(term_id, sentence, found_as):
    found = ids(sentence)
    assert term_id in found, found
    assert found[term_id].replace("-", " ").lower() == found_as.replace("-", " ").lower(), found


def test_every_new_term_has_a_real_sentence_and_full_fields():
    by_id = glossary.load().by_id
    covered = {term_id for term_id, _, _ in REAL_SENTENCES}
    for term_id in NEW_IDS:
        assert term_id in covered, term_id
        entry = by_id[term_id]
        for key in ("term", "expansion", "definition", "intuition", "category", "aliases", "ar_aliases"):
            assert entry.get(key), (term_id, key)
        assert all(entry["ar"].get(k) for k in ("term", "definition", "intuition")), term_id
        assert entry["source"]["url"].startswith("https://"), term_id


@pytest.mark.parametrize("term_id", NEW_IDS)
def test_long_tail_term_found_in_arabic_text(term_id):
    entry = glossary.load().by_id[term_id]
    rendering = entry["ar_aliases"][0]
    text = f"في هذا الإعداد يعتمد الفريق على {rendering} لتسريع تدريب النموذج."
    found = ids(text)
    assert term_id in found, (rendering, found)


@pytest.mark.parametrize("text, term_id", [
    ("قمنا بضبط حجم توازي الموتر على ثمانية مع تفعيل موازن حمل توازي الخبراء", "eplb"),
    ("تستخدم المكتبة مكتبة NVSHMEM لنقل الرموز بين المعالجات", "nvshmem"),
    ("يعتمد التدريب على صيغ التحجيم الدقيق مع التحجيم الآني", "microscaling"),
    ("يعتمد التدريب على صيغ التحجيم الدقيق مع التحجيم الآني", "fp8-current-scaling"),
    ("نستخدم الإرسال والتجميع مع تبديل ترتيب الرموز في طبقة الخبراء", "token-permutation"),
])
def test_long_tail_term_in_an_arabic_sentence(text, term_id):
    assert term_id in ids(text), ids(text)


def test_moved_aliases_name_one_entry():
    assert ids("MXFP8 training")["microscaling"] == "MXFP8 training"
    assert "fp8" not in ids("MXFP8 training")
    assert "swiglu" in ids("an FFN with SwiGLU") and ids("an FFN with SwiGLU")["feed-forward-network"] == "FFN"


def test_parallel_size_spellings():
    found = ids("--tensor-model-parallel-size 8 --pipeline-model-parallel-size 4, and in torchtitan tensor_parallel_degree and data_parallel_shard_degree")
    assert {"tensor-parallelism", "pipeline-parallelism", "fsdp"} <= set(found), found


# --- the Arabic machine-translation table -------------------------------------------------------

TABLE = json.loads((data_dir() / "mistranslations_ar.json").read_text(encoding="utf-8"))


def test_mistranslation_table_loads_and_names_real_terms():
    entries = TABLE["entries"]
    assert len(entries) >= 40
    by_id = glossary.load().by_id
    for item in entries:
        assert set(item) >= {"mistranslation", "term_id", "why", "why_ar", "source"}, item
        assert item["term_id"] in by_id, item
        assert all(item[k].strip() for k in ("mistranslation", "why", "why_ar", "source")), item
    phrases = [item["mistranslation"] for item in entries]
    assert len(phrases) == len(set(phrases))


@pytest.mark.parametrize("item", TABLE["entries"], ids=lambda item: item["term_id"])
def test_each_mistranslation_is_detected_as_its_term(item):
    sentence = f"قال الكاتب إن {item['mistranslation']} مهم في هذا التدريب."
    found = ids(sentence)
    assert item["term_id"] in found, (item["mistranslation"], found)


def test_seed_corrections_stay_in_the_glossary_entries():
    # The table generalises the entries' own `mistranslations` fields; those stay where they are.
    by_id = glossary.load().by_id
    for term_id in ("virtual-pipeline-parallelism", "auxiliary-loss-free-balancing", "dp-comms-bound"):
        assert by_id[term_id].get("mistranslations"), term_id


def test_the_usual_arabic_for_bandwidth_is_never_corrected():
    # Rounds 39 and 40's blind readers: «النطاق الترددي» is the usual Arabic for network bandwidth, so "correcting" it
    # as a radio term was a wrong statement. It is still read as bandwidth; only a real mistranslation is corrected.
    for text in ("النطاق الترددي بين الشرائح يحد من سرعة التدريب.", "يبلغ النطاق الترددي للذاكرة 3.35 تيرابايت/ث.",
                 "ذاكرة عالية النطاق الترددي بسعة 80 جيجابايت."):
        matches = glossary.detect(text)
        assert {"bandwidth", "memory-bandwidth", "hbm"} & {m.entry["id"] for m in matches}, text
        assert not terms.mistranslations(text, matches, "ar"), text


# --- page clutter (issue 11 item 4) --------------------------------------------------------------

def _reading(text: str, term_id: str) -> dict:
    match = next(m for m in glossary.detect(text) if m.entry["id"] == term_id)
    return (match.entry.get("readings") or [{}])[match.reading]


@pytest.mark.parametrize("text, term_id", [
    ("Pump.fun to raise $1B token sale, traders speculating on airdrop", "token"),
    ("Industry experts say the new chip will sell out, analysts agree.", "expert"),
    ("أخبر كبير الخبراء Jingyuan أنه باستخدام TPUs", "expert"),
    ("لقد ضاعت قليلا في جميع الاختصارات، لذلك طلبت من كلود شرحها دون استخدام أي اختصارات", "claude"),
    ("I asked Grok to explain the thread.", "grok"),
])
def test_page_clutter_takes_its_clutter_reading(text, term_id):
    reading = _reading(text, term_id)
    assert reading.get("clutter") is True, reading


@pytest.mark.parametrize("text, term_id", [
    ("Each token is routed to the top-k experts by the router of the MoE layer.", "token"),
    ("The router sends each token to two experts in the MoE layer.", "expert"),
    ("Claude Opus is a model trained by Anthropic.", "claude"),
])
def test_technical_senses_are_not_clutter(text, term_id):
    assert not _reading(text, term_id).get("clutter")


def test_tldr_entry_is_marked_as_clutter():
    assert glossary.load().by_id["tldr"].get("clutter") is True


@pytest.mark.parametrize("text, term_id, not_id", [
    # round 15 readers: "tile quantization" glossed as number-format quantization, CUDA_VISIBLE_DEVICES as an empty
    # "variable whose name reads 'visible devices'", Adam's "moment estimates" as the whole optimizer state
    ("The GEMM loses 12% to tile quantization when N is just past a multiple of 128.", "tile-wave-quantization", "quantization"),
    ("Launch each worker with CUDA_VISIBLE_DEVICES=0,1 on the node.", "cuda-visible-devices", None),
    ("Adam stores first and second moment estimates for every parameter.", "adam-moments", "optimizer-state"),
])
def test_round15_terms_are_read_in_their_own_sense(text, term_id, not_id):
    found = {t["id"] for t in analyse(text, "en").terms}
    assert term_id in found and (not_id is None or not_id not in found)


def test_nccl_debug_subsys_selects_what_is_logged_not_the_network():
    # a round-14 reader: NCCL_DEBUG_SUBSYS glossed with the generic NCCL variable's "which network cards to use"
    found = {t["id"]: t for t in analyse("Set NCCL_DEBUG=INFO and NCCL_DEBUG_SUBSYS=INIT,GRAPH and send the logs.", "en").terms}
    assert "logged" in found["nccl-debug-subsys"]["definition"]
