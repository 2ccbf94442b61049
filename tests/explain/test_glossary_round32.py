"""Round 32 long tail: terms the held-out passages of rounds eighteen and nineteen needed (data/glossary/long_tail_round32.json
and aliases added to older entries), and field acronyms that real text writes in lower case ("tpm, ttft and tpot", "hbm",
"Nccl"), which entries marked `"lowercase": "always"` (or "marked" for TPM) now match. Ordinary words stay ordinary."""

import re

import pytest

from calculators.resources import data_dir
from service.explain import glossary
from tests.support.glossary_files import assert_entries_whole, detected
from service.explain.pipeline import analyse

pytestmark = pytest.mark.skipif(not (data_dir() / "glossary" / "long_tail_round32.json").exists(),
                                reason="round 32 glossary data not present")

NXDI = "https://awsdocs-neuron.readthedocs-hosted.com/en/latest/_sources/libraries/nxd-inference/app-notes/parallelism.rst"
SN40L = "https://62dac.conference-program.com/presentation/?id=SSSN027&sess=sess258"
TENSAI = "https://github.com/mattn/tensai/pull/44"
TENSAI_FIRST = ("-draft loads a smaller same-family model that greedily proposes -spec tokens per step; one batched pass of the "
                "target verifies them all (prefillLogits — the batched forward with the lm_head applied to every position), "
                "accepted prefixes stream out immediately, and on the first disagreement the verifying row supplies the "
                "corrected token while truncate rolls both KV caches back to the accepted length.")
TENSAI_LAST = "Speculation only pays when the target dwarfs the draft, which the README notes."
MJCOURSE = ("المعامل النشط (Active) هو المعامل الذي يُستخدم فعليًا في حساب رمز معين. عندما تقرأ أن DeepSeek-V3 «يفعّل 37 مليار "
            "معامل من أصل 671 مليار»، فهذا يعني أن المعرفة الكلية المخزّنة هائلة (671 مليار) لكن تكلفة معالجة كل رمز تساوي "
            "تكلفة نموذج كثيف بحجم 37 مليار تقريبًا.")
SPARKINFER = ("sparkinfer's decode path is bandwidth-bound: each step pays for reading the routed experts' quantized weights, "
              "even though we only produce one token per pass. Speculative decoding amortizes that cost — a cheap draft "
              "mechanism proposes k candidate tokens, then a single batched forward pass verifies all k at once, so the "
              "expensive weight read is shared across multiple accepted tokens instead of one. This is a direct lever on "
              "bytes-per-token, which is the stated optimization target for Milestone 2 (RTX Spark/GB10, ~273 GB/s).")

# (term id, text quoted from the source, what the detector should find); the source is in the comment.
REAL_SENTENCES = [
    # NXDI
    ("neuronlink", "When tensors are sharded across multiple EC2 instances, the collective communication at these synchronization points must occur through network interfaces like Elastic Fabric Adapter (EFA) instead of the faster chip-to-chip NeuronLink connections.", "NeuronLink connections"),
    ("aws", "When tensors are sharded across multiple EC2 instances, the collective communication at these synchronization points must occur through network interfaces like Elastic Fabric Adapter (EFA) instead of the faster chip-to-chip NeuronLink connections.", "EC2 instances"),
    ("synchronization-point", "Tensor parallelism has relatively high communication volume and presents a synchronization point in forward pass, making it costly to scale beyond 1 node.", "synchronization point"),
    ("ffn-intermediate-size", "Tensor parallelism is a technique in which a tensor is split into a number of chunks along the intermediate dimension, resulting in sharding not only model parameters but also intermediate activations.", "intermediate dimension"),
    # https://hf1.jingyijun.com/openeurollm/datamix-2b-en/resolve/main/README.md?download=true
    ("lumi-supercomputer", "The model was trained using the Megatron-LM framework on the LUMI HPC supercomputer.", "LUMI HPC supercomputer"),
    ("checkpoint", "Intermediate Checkpoints We have released intermediate checkpoints to provide access to the model's training progression.", "Intermediate Checkpoints"),
    # https://zuwei.org/notes/2025-2/deep-learning-for-computer-vision/11_large_scale_distributed_training/
    ("memory-hierarchy", "Memory hierarchy matters a lot.", "Memory hierarchy"),
    # https://github.com/mlfoundations/open_lm/issues/21
    ("openlm", "just a few datapoints from OpenLM, with default hparams: we get ~2.5K tokens/sec/GPU on 256 A100s for OpenLM-7B, and ~9.5K tokens/sec/GPU on 128 A100s for OpenLM-1B.", "OpenLM"),
    ("sequence-length", "Basically we are now matching the mosaicml numbers on 1 node (~4000 tok/s/gpu for a 7b model with batch size 16, seq length 2048, on 8 A100).", "seq length"),
    # https://rocm.docs.amd.com/projects/primus/en/latest/_sources/04-technical-guides/diffusion-models/fp8_training.md
    ("flux-image-model", "Complete guide for training Flux diffusion models with FP8 (8-bit floating point) precision on AMD MI300X GPUs using Transformer Engine's delayed scaling recipe.", "Flux diffusion models"),
    # https://github.com/swiss-ai/Megatron-LM/pull/122
    ("host-device-copy", "GH200 has 450GB/s H2D bandwidth, which makes it possible to offload experts into CPU RAM while hide the H2D loading with expert computation.", "H2D bandwidth"),
    ("offloading", "GH200 has 450GB/s H2D bandwidth, which makes it possible to offload experts into CPU RAM while hide the H2D loading with expert computation.", "offload experts"),
    # TENSAI (the first sentence, and the first and last together)
    ("greedy-decoding", TENSAI_FIRST, "greedily"),
    ("target-model", TENSAI_FIRST, "target"),
    ("speculative-decoding", TENSAI_FIRST + " " + TENSAI_LAST, "Speculation"),
    # https://nvidia.github.io/TransformerEngine/features/low_precision_training/fp8_delayed_scaling/fp8_delayed_scaling.html
    ("quantization-scaling-factor", "FP8 Delayed Scaling recipe estimates scaling factors from historical amax values rather than computing them for each tensor.", "scaling factors"),
    ("quantization-scaling-factor", "Both this and FP8 Current Scaling recipe use the same FP8 formats (E4M3/E5M2) with one FP32 scaling factor per tensor.", "FP32 scaling factor"),
    # https://waynehacking8.github.io/blog/nccl-nvlink-bandwidth/
    ("alpha-beta-model", "Training all-reduces gradients on big tensors, so it lives in the bandwidth-bound regime where 366 GB/s is good news.", "bandwidth-bound regime"),
    ("alpha-beta-model", "Decode is the opposite: one token at a time means small messages, so you're pinned against the latency floor, not the bandwidth ceiling.", "latency floor"),
    ("ring-all-reduce", "Algorithm ranking at large messages: NVLS > Ring > Tree.", "Ring"),
    ("tree-all-reduce", "Algorithm ranking at large messages: NVLS > Ring > Tree.", "Tree"),
    # SN40L
    ("decode-phase", "However, token generation is inefficient on GPUs for two main reasons: (1) GPUs utilize only 20% of their peak memory bandwidth due to inadequate operator fusion coupled with synchronization overheads at kernel boundaries, and (2) hosting and dynamically switching between a large number of models can be prohibitively expensive and slow.", "token generation"),
    ("memory-bandwidth", "However, token generation is inefficient on GPUs for two main reasons: (1) GPUs utilize only 20% of their peak memory bandwidth due to inadequate operator fusion coupled with synchronization overheads at kernel boundaries, and (2) hosting and dynamically switching between a large number of models can be prohibitively expensive and slow.", "peak memory bandwidth"),
    ("cowos", "The SN40L RDU is a 2.5D CoWoS chiplet-based design containing two RDU dies on a silicon interposer.", "2.5D CoWoS"),
    ("dram", "The chip introduces a new three-tier memory system with on-chip distributed SRAM, on-package HBM, and off-package DDR DRAM.", "DDR DRAM"),
    ("memory-hierarchy", "The chip introduces a new three-tier memory system with on-chip distributed SRAM, on-package HBM, and off-package DDR DRAM.", "three-tier memory system"),
    ("transformer", "On-chip streaming dataflow enables an unprecedented level of operator fusion: entire decoder blocks can be automatically fused into a single kernel call.", "decoder blocks"),
    # https://github.com/pytorch/xla/issues/6274
    ("tpu-slice", "However, I expect you would get much better performance with a pod slice than a group of single-host TPUs.", "pod slice"),
    ("interconnect", "TPU slices communicate via high-speed interconnects that are much faster than typical data center networking.", "high-speed interconnects"),
    # https://github.com/ROCm/TransformerEngine/issues/78
    ("transformer-engine", "@OrenLeung This issue was due to that our dev branch does not have all the recent optimizations on DDP and FSDP from NVTE yet.", "NVTE"),
    # https://github.com/OpenSparseLLMs/Linear-MoE/pull/6
    ("capacity-factor", "CapacityFactor=1.25 if dropping tokens", "CapacityFactor"),
    ("token-dropping", "TokenDropping Acceleration EP Elapsed Time per Iter (ms) GPU Mem (GB)", "TokenDropping"),
    # https://docs.rs/aprender-train/latest/entrenar/train/transformer_trainer/sequence_parallel/index.html
    ("query-key-value", "Each GPU sends its K,V to the next GPU in the ring and receives K,V from the previous GPU.", "K,V"),
    # https://github.com/tenstorrent/tt-metal/issues/35827
    ("query-key-value", "When your sequence is shared, each device only stores a part of keys, queries and values but each query needs them all to compute the result.", "keys, queries and values"),
    # https://github.com/maljefairi/arabic-llm-course/blob/2f24ce9542be2eee5e4e85576b82cc98e01de64f/sections/05-moe.md
    ("token", MJCOURSE, "رمز"),
]

NEW_IDS = sorted({"neuronlink", "lumi-supercomputer", "memory-hierarchy", "openlm", "flux-image-model", "synchronization-point",
                  "ffn-intermediate-size", "host-device-copy", "greedy-decoding", "tokens-per-minute",
                  "quantization-scaling-factor"})


ids = detected


def terms(text: str, lang: str = "en") -> dict[str, str]:
    return {t["id"]: t.get("found_as") for t in analyse(text, lang).terms}


@pytest.mark.parametrize("term_id, sentence, found_as", REAL_SENTENCES)
def test_round32_term_found_in_a_real_sentence(term_id, sentence, found_as):
    found = ids(sentence)
    assert term_id in found, found
    assert found[term_id].lower() == found_as.lower(), found


def test_new_entries_are_complete_and_sourced():
    covered = {term_id for term_id, _, _ in REAL_SENTENCES} | {"tokens-per-minute"}  # TPM: the lower-case cases below
    assert_entries_whole("long_tail_round32.json", NEW_IDS, covered)


@pytest.mark.parametrize("term_id", NEW_IDS)
def test_round32_term_found_in_arabic_text(term_id):
    entry = glossary.load().by_id[term_id]
    rendering = entry["ar_aliases"][0]
    text = f"في هذا الإعداد يعتمد الفريق على {rendering} لتسريع تدريب النموذج."
    assert term_id in ids(text), (rendering, ids(text))


# Lower-case acronyms as real text writes them: the whole terms stage (analyse) reads them.
LOWER_CASE = [
    # https://github.com/kaito-project/kaito/issues/2305
    ("On a 2xH100 node, enabling expert parallelism helped improve tpm, ttft and tpot for Deepseek-V4-Flash-0731:", "en", "tokens-per-minute", "tpm"),
    ("On a 2xH100 node, enabling expert parallelism helped improve tpm, ttft and tpot for Deepseek-V4-Flash-0731:", "en", "ttft-tpot", "ttft"),
    # https://github.com/LMCache/LMCache/issues/1241
    ("qwen3-30b-fp8 lmcache cpu offload profit When the number of concurrent connections is 10, ttft is reduced by 70%.", "en", "ttft-tpot", "ttft"),
    # https://github.com/young-geng/EasyLM/issues/36
    ("Ran out of memory in memory space hbm.", "en", "hbm", "hbm"),
    # https://github.com/NVIDIA/nccl-tests/issues/169
    ("Hello, I have 6 A100 (80G) machines (each with 8 A100 cards) and using the Roce network, I get around 100GB/s bandwidth on every two machines doing Nccl Test.", "en", "nccl", "Nccl"),
    # https://github.com/NVIDIA/TransformerEngine/issues/1119
    ("I'm using the latest TE build from source on 1xH100 and cudnn installed.", "en", "cudnn", "cudnn"),
    # https://github.com/AhmedAlmaghz/MaghzDocs/blob/5184838ab31ed81e532838e9619dcb638effd947/public/markdown/torch-XLA/amp.md
    ("لا تقم بتعيين علم XLA_USE_F16 عند استخدام AMP على أجهزة Cuda.", "ar", "cuda", "Cuda"),
    # https://clickthis.blog/ar/2022/03/22/utechka-informaczii-o-graficheskom-proczessore-nvidia-h100-hopper-massivnyj-monolitnyj-kristall-postroennyj-na-5-nm-tehproczesse-tsmc-i-soderzhashhij-do-144-sm
    ("كحد أدنى، نحن ننظر إلى 48 جيجابايت من ذاكرة vRAM، على الرغم من أنه مع HBM3 من الممكن أن تصل إلى 96 جيجابايت أو أكثر.", "ar", "vram", "vRAM"),
]


@pytest.mark.parametrize("text, lang, term_id, found_as", LOWER_CASE)
def test_lower_case_acronym_found(text, lang, term_id, found_as):
    found = terms(text, lang)
    assert found.get(term_id) == found_as, found


ALWAYS = ["ttft-tpot", "hbm", "vram", "nccl", "rccl", "rdma", "matrix-multiplication", "gemv", "cuda", "cudnn",
          "feed-forward-network", "grouped-query-attention", "multi-query-attention", "sft", "rlhf", "grpo", "query-key-value",
          "gguf-quant-types", "gptq", "awq", "peft", "spmd", "gspmd", "sdpa", "nvls"]
# Lower-case spellings that are English words or other common abbreviations: never matched "always".
ORDINARY = {"ram", "rank", "gas", "amp", "hip", "sharp", "eagle", "bloom", "nic", "mla", "sla", "tps", "oom", "sgd", "ppo",
            "dpo", "mtp", "qat", "ici", "bert", "cann", "ort", "tpm", "slo", "sm", "ib", "kv", "te", "ep", "tp", "pp", "dp"}


def test_lower_case_modes():
    by_id = glossary.load().by_id
    for term_id in ALWAYS:
        assert by_id[term_id].get("lowercase") == "always", term_id
    assert by_id["tokens-per-minute"].get("lowercase") == "marked"  # TPM is also the Trusted Platform Module
    for entry in glossary.load().entries:
        if entry.get("lowercase") != "always":
            continue
        for name in (entry["term"], *entry.get("aliases", [])):
            if re.fullmatch(r"[A-Za-z]{2,5}", name) and name.isupper():
                assert name.lower() not in ORDINARY, (entry["id"], name)


@pytest.mark.parametrize("text, lang, not_id", [
    ("The tpm module stores the disk encryption keys.", "en", "tokens-per-minute"),
    ("I added more ram to the amp rack and saw a sharp drop in hum.", "en", "ram"),
    ("I added more ram to the amp rack and saw a sharp drop in hum.", "en", "mixed-precision"),
    ("I added more ram to the amp rack and saw a sharp drop in hum.", "en", "sharp"),
    ("The eagle flew over the bloom of wild roses by the hip of the hill.", "en", "eagle-speculative-decoding"),
    ("The eagle flew over the bloom of wild roses by the hip of the hill.", "en", "bloom-model"),
    ("The eagle flew over the bloom of wild roses by the hip of the hill.", "en", "rocm"),
])
def test_lower_case_english_word_is_not_an_acronym(text, lang, not_id):
    assert not_id not in terms(text, lang)


@pytest.mark.parametrize("text, not_id", [
    # https://github.com/gittensor-ai-lab/sparkinfer/issues/47 (speculative decoding's words are there; 'target' is a goal)
    (SPARKINFER, "target-model"),
    ("A greedy algorithm packs sequences into bins to cut padding.", "greedy-decoding"),
    ("Flux syncs Kubernetes manifests from Git to the cluster.", "flux-image-model"),
    ("We set the RoPE scaling factor to four for FP8 inference.", "quantization-scaling-factor"),
    ("The acceptance tests for this draft PR passed.", "draft-acceptance-rate"),
    ("Ring the bell twice; the Tree house is closed on Sundays.", "ring-all-reduce"),
    ("Ring the bell twice; the Tree house is closed on Sundays.", "tree-all-reduce"),
    ("Market speculation pushed GPU prices up again this quarter.", "speculative-decoding"),
    ("The DDR was a state in central Europe until the year of reunification.", "dram"),
])
def test_ordinary_word_keeps_its_ordinary_sense(text, not_id):
    assert not_id not in ids(text), ids(text)
