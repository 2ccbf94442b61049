"""Round 45, serving_ops (issue 18): the long tail of LLM serving (radix tree, prefix-cache hit rate, the scheduler's token
budget, Medusa, token trees, lookahead and n-gram speculation, TBT, Sarathi-Serve, cache-aware routing,
the overlap scheduler, structured outputs, multi-LoRA serving, HiCache) and of training operations (safetensors, Universal
Checkpointing, consolidated and in-memory checkpoints, checkpoint interval, rendezvous, NCCL heartbeat and desync, node health
checks, py-spy, PSU, power swings, ramp rate, power smoothing, rack power density, thermal throttling)
(data/glossary/long_tail_round45_serving_ops.json). Each entry is found in a sentence quoted from its primary source; short or
everyday spellings ("token budget", "cache hit rate", "PSU", "TBT", "heartbeat", "health check", "rendezvous",
"ramp rate") count only beside their field's words."""

import pytest

from calculators.resources import data_dir
from tests.support.glossary_files import assert_entries_whole
from tests.support.glossary_files import assert_found_as
from tests.support.glossary_files import detected as ids  # the detector's finds, shared by the glossary tests

FILE_NAME = "long_tail_round45_serving_ops.json"
pytestmark = pytest.mark.skipif(not (data_dir() / "glossary" / FILE_NAME).exists(),
                                reason="round 45 serving_ops glossary data not present")

SARATHI = "https://arxiv.org/abs/2403.02310"
SGLANG_V04 = "https://lmsys.org/blog/2024-12-04-sglang-v0-4/"
NCCL_ENV = "https://docs.pytorch.org/docs/stable/torch_nccl_environment_variables.html"
GB300 = "https://developer.nvidia.com/blog/how-new-gb300-nvl72-features-provide-steady-power-for-ai/"

# (term id, sentence quoted from the source, what the detector should find); the source is in the comment.
REAL_SENTENCES = [
    # https://arxiv.org/abs/2312.07104 (abstract)
    ("radix-tree", "Additionally, we propose RadixAttention, a novel technique that maintains a Least Recently Used (LRU) cache "
                   "of the Key-Value (KV) cache for all requests in a radix tree, enabling automatic KV cache reuse across "
                   "multiple generation calls at runtime.", "radix tree"),
    # SGLANG_V04 (Cache-Aware Load Balancer)
    ("radix-tree", "The cache-aware load balancer maintains an approximate radix tree of the actual radix tree on the workers.",
     "radix tree"),
    # https://docs.sglang.io/advanced_features/hicache_best_practices.html (Why HiCache Matters)
    ("kv-cache-hit-rate", "By intelligently managing KV caches across GPU memory, host memory, and external storage backends, "
                          "HiCache addresses the fundamental capacity bottleneck that limits cache hit rates in conventional "
                          "systems.", "cache hit rates"),
    # https://docs.vllm.ai/en/stable/usage/metrics/ (the /metrics output of vllm/v1/metrics/loggers.py)
    ("kv-cache-hit-rate", "# HELP vllm:prefix_cache_hits_total Prefix cache hits, in terms of number of cached tokens.",
     "prefix_cache_hits"),
    # SARATHI (section 4.3)
    ("scheduler-token-budget", "This can be handled with a one-time profiling of batches with different number of tokens and "
                               "setting the token budget to maximum number of tokens that can be packed in a batch without "
                               "violating TBT SLO.", "token budget"),
    # https://arxiv.org/abs/2401.10774 (abstract)
    ("medusa-decoding", "Medusa-1: Medusa is directly fine-tuned on top of a frozen backbone LLM, enabling lossless inference "
                        "acceleration.", "Medusa-1"),
    ("medusa-decoding", "In this paper, we present Medusa, an efficient method that augments LLM inference by adding extra "
                        "decoding heads to predict multiple subsequent tokens in parallel.", "Medusa"),
    ("token-tree-verification", "Using a tree-based attention mechanism, Medusa constructs multiple candidate continuations and "
                                "verifies them simultaneously in each decoding step.", "tree-based attention"),
    # https://arxiv.org/abs/2305.09781 (abstract)
    ("token-tree-verification", "A key insight behind SpecInfer is to combine various collectively boost-tuned small language "
                                "models to jointly predict the LLM's outputs; the predictions are organized as a token tree, "
                                "whose nodes each represent a candidate token sequence.", "token tree"),
    # https://arxiv.org/abs/2402.02057 (abstract)
    ("lookahead-decoding", "In this paper, we introduce Lookahead decoding, an exact, parallel decoding algorithm that "
                           "accelerates LLM decoding without needing auxiliary models or data stores.", "Lookahead decoding"),
    # https://docs.vllm.ai/en/latest/features/speculative_decoding/n_gram/
    ("ngram-speculation", "The following code configures vLLM to use speculative decoding where proposals are generated by "
                          "matching n-grams in the prompt.", "n-grams"),
    # SARATHI (Figure 1 caption)
    ("time-between-tokens", "Prioritizing prefills optimizes throughput but sacrifices TBT (time-between-tokens) tail latency",
     "TBT"),
    # SARATHI (abstract; section 4.2)
    ("sarathi-serve", "Sarathi-Serve introduces chunked-prefills which splits a prefill request into near equal sized chunks and "
                      "creates stall-free schedules that adds new requests in a batch without pausing ongoing decodes.",
     "Sarathi-Serve"),
    ("sarathi-serve", "We call this approach stall-free batching (Algorithm 3).", "stall-free batching"),
    # SGLANG_V04
    ("cache-aware-routing", "SGLang v0.4 introduces a cache-aware load balancer for LLM inference engines.",
     "cache-aware load balancer"),
    ("overlap-scheduler", "In this new version, we pushed it to the extreme and achieved a near zero-overhead batch scheduler.",
     "zero-overhead batch scheduler"),
    # https://docs.vllm.ai/en/latest/features/structured_outputs.html
    ("structured-output", "vLLM supports the generation of structured outputs using outlines, lm-format-enforcer, or xgrammar as "
                          "backends for the guided decoding.", "structured outputs"),
    # https://arxiv.org/abs/2311.03285 (abstract)
    ("multi-lora-serving", "To capitalize on these opportunities, we present S-LoRA, a system designed for the scalable serving "
                           "of many LoRA adapters.", "S-LoRA"),
    # https://docs.sglang.io/advanced_features/hicache_design.html
    ("hierarchical-kv-cache", "Inspired by the classic three-level cache design of modern CPUs, HiCache organizes GPU memory as "
                              "L1, host memory as L2, and distributed storage as L3.", "HiCache"),
    # https://huggingface.co/docs/safetensors/index
    ("safetensors", "Safetensors is a new simple format for storing tensors safely (as opposed to pickle) and that is still fast "
                    "(zero-copy).", "Safetensors"),
    # https://www.deepspeed.ai/tutorials/universal-checkpointing/
    ("universal-checkpointing", "This tutorial will guide you through the process of creating ZeRO checkpoints, converting them "
                                "into a Universal format, and resuming training with these universal checkpoints.",
     "universal checkpoints"),
    # https://github.com/deepspeedai/DeepSpeed/blob/master/deepspeed/utils/zero_to_fp32.py (header comment)
    ("checkpoint-consolidation", "This script extracts fp32 consolidated weights from a zero 1, 2 and 3 DeepSpeed checkpoints.",
     "consolidated weights"),
    # https://arxiv.org/abs/2310.12670 (title)
    ("in-memory-checkpointing", "Fault-Tolerant Hybrid-Parallel Training at Scale with Reliable and Efficient In-memory "
                                "Checkpointing", "In-memory Checkpointing"),
    # https://doi.org/10.1145/3600006.3613145 (title, SOSP 2023)
    ("in-memory-checkpointing", "GEMINI: Fast Failure Recovery in Distributed Training with In-Memory Checkpoints",
     "In-Memory Checkpoints"),
    # https://github.com/pytorch/torchtitan/blob/main/torchtitan/config/job_config.py (Checkpoint.interval)
    ("checkpoint-interval", "Checkpointing interval in steps.", "Checkpointing interval"),
    # https://docs.pytorch.org/docs/stable/elastic/rendezvous.html
    ("rendezvous", "In the context of Torch Distributed Elastic we use the term rendezvous to refer to a particular "
                   "functionality that combines a distributed synchronization primitive with peer discovery.", "rendezvous"),
    # NCCL_ENV (TORCH_NCCL_ENABLE_MONITORING, TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC)
    ("nccl-heartbeat-monitor", "If set to 1,enable monitoring thread which aborts the process when the ProcessGroupNCCL Watchdog "
                               "thread gets stuck and no heartbeat is detected after TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC.",
     "heartbeat"),
    ("nccl-heartbeat-monitor", "Control the watchdog heartbeat timeout period after which the monitoring thread will abort the "
                               "process.", "watchdog heartbeat"),
    # NCCL_ENV (TORCH_NCCL_DESYNC_DEBUG)
    ("collective-desync", "This is helpful in figuring out the culprit rank of collective desync.", "collective desync"),
    # https://github.com/mej/nhc (README)
    ("node-health-check", "TORQUE, Slurm, and other schedulers/resource managers provide for a periodic \"node health check\" "
                          "to be performed on each compute node to verify that the node is working properly.",
     "node health check"),
    # https://github.com/benfred/py-spy (README)
    ("py-spy", "py-spy is a sampling profiler for Python programs.", "py-spy"),
    # GB300
    ("psu", "In this blog, we'll detail how NVIDIA addresses this challenge through a new power supply unit (PSU) with energy "
            "storage in the GB300 NVL72.", "power supply unit"),
    ("power-ramp-rate", "If power demand suddenly ramps up, it can take one minute to 90 minutes for generation resources to "
                        "respond because of physical limitations in their ramp rates.", "ramp rates"),
    ("power-smoothing", "We will describe the different solutions for training workloads at the start, for running at full load, "
                        "and for the end of the training run. Then we'll share measured results using this new power "
                        "smoothing solution.", "power smoothing"),
    ("power-swings", "Repeating power transients could cause resonance and stress equipment.", "power transients"),
    # https://arxiv.org/abs/2508.14318 (abstract)
    ("power-swings", "Because compute-heavy phases require much more power than communication phases, large power swings occur.",
     "power swings"),
    # https://www.scribd.com/document/351259957/choosing-the-optimal-data-center-power-density-pdf (executive summary)
    ("rack-power-density", "There are significant savings in developing a data center with an average rack power density of at "
                           "least 5 kW per rack, however, densities higher than ~15 kW per rack show no further relevant "
                           "savings.", "rack power density"),
    # https://docs.nvidia.com/deploy/nvml-api/group__nvmlClocksEventReasons.html
    ("thermal-throttling", "HW Thermal Slowdown (reducing the core clocks by a factor of 2 or more) is engaged", "HW Thermal Slowdown"),
]

NEW_IDS = sorted({
    "radix-tree", "kv-cache-hit-rate", "scheduler-token-budget", "medusa-decoding",
    "token-tree-verification", "lookahead-decoding", "ngram-speculation", "time-between-tokens", "sarathi-serve",
    "cache-aware-routing", "overlap-scheduler", "structured-output", "multi-lora-serving", "hierarchical-kv-cache",
    "safetensors", "universal-checkpointing", "checkpoint-consolidation", "in-memory-checkpointing", "checkpoint-interval",
    "rendezvous", "nccl-heartbeat-monitor", "collective-desync", "node-health-check", "py-spy",
    "psu", "power-swings", "power-ramp-rate", "power-smoothing", "rack-power-density", "thermal-throttling",
})




@pytest.mark.parametrize("term_id, sentence, found_as", REAL_SENTENCES)
def test_round45_serving_ops_term_found_in_a_real_sentence(term_id, sentence, found_as):
    assert_found_as(term_id, sentence, found_as)


def test_new_entries_are_complete_and_sourced():
    assert_entries_whole(FILE_NAME, NEW_IDS, {term_id for term_id, _, _ in REAL_SENTENCES})


@pytest.mark.parametrize("text, term_id", [
    ("يحفظ SGLang ذاكرة المفاتيح والقيم المؤقتة في شجرة جذرية ليعيد استخدام البادئات المشتركة.", "radix-tree"),
    ("ارتفع معدل إصابة ذاكرة المفاتيح والقيم المؤقتة بعد توجيه الطلبات المتشابهة إلى العامل نفسه.", "kv-cache-hit-rate"),
    ("يتحقق النموذج الكبير من شجرة الرموز المرشحة في تمريرة واحدة.", "token-tree-verification"),
    ("قسنا الزمن بين الرموز عند المئين التاسع والتسعين.", "time-between-tokens"),
    ("يضمن فك الترميز المقيَّد أن يكون الإخراج JSON صحيحًا.", "structured-output"),
    ("حوّلنا نقطة الحفظ إلى نقاط الحفظ الشاملة لنغيّر درجة التوازي.", "universal-checkpointing"),
    ("خفّضنا الفاصل بين نقاط الحفظ بعد تكرار الأعطال.", "checkpoint-interval"),
    ("يشغّل العنقود فحص سلامة العقد قبل كل مهمة تدريب.", "node-health-check"),
    ("أبطأ الخنق الحراري إحدى وحدات GPU فتأخرت الرتب كلها.", "thermal-throttling"),
    ("بلغت كثافة الطاقة في الحامل أكثر من مئة كيلوواط.", "rack-power-density"),
    ("تخزّن وحدة إمداد الطاقة الجديدة قدرًا من الطاقة لتنعيم الاستهلاك.", "psu"),
    ("يستخدم torchrun مرحلة الالتقاء عبر c10d قبل بدء التدريب.", "rendezvous"),
])
def test_round45_serving_ops_term_in_an_arabic_sentence(text, term_id):
    assert term_id in ids(text), ids(text)


@pytest.mark.parametrize("text, term_id", [
    # a CPU or GPU hardware cache's hit rate is not the KV cache's
    ("Nsight Compute shows an L2 cache hit rate of 80% for this GEMM kernel.", None),
    # a training run's total tokens is no scheduler budget
    ("The token budget for pretraining was 15T tokens with a global batch of 16M tokens.", None),
    ("The PSU at State College won the game.", None),
    ("We meet for the annual rendezvous in Paris.", None),
    ("TBT: the remaining sections are to be written.", None),
    ("The service exposes a /health endpoint and the load balancer runs a health check every 10 seconds.", None),
    ("The learning rate ramp rate was set so warmup ends after 2000 steps.", None),
])
def test_round45_serving_ops_short_spellings_keep_their_other_senses(text, term_id):
    found = ids(text)
    ours = {"kv-cache-hit-rate", "scheduler-token-budget", "psu", "rendezvous",
            "time-between-tokens", "node-health-check", "power-ramp-rate"}
    assert not ours & set(found), found
    if term_id:
        assert term_id in found, found
