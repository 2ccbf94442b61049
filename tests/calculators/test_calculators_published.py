"""Calculators reproduce figures that papers, books and repositories published.

Every expectation below is a number printed in the cited source, never the calculator's own output.
Inputs are the source's own inputs (written as a person would, e.g. "238.3K" tokens/s); where an input
had to be taken from a second source, the comment says which. Tolerances follow the source's rounding:
half a unit of the last printed digit, widened only where the source's inputs are themselves rounded
(the comment then says by how much).
"""

import math

import pytest

import calculators

GiB = 2.0**30


def out(name: str, inputs: dict) -> dict:
    return calculators.run(name, inputs)["outputs"]


# ---------------------------------------------------------------------------------------------------
# Table-driven cases: (calculator, inputs, output field, published value, absolute tolerance)
# ---------------------------------------------------------------------------------------------------

PALM_540B = {"params": "540.35B", "n_chips": 6144, "peak_flop_per_s": "275 TFLOP/s", "tokens_per_s": "238.3K"}
PALM_540B_ATTENTION = {"n_layers": 118, "n_heads": 48, "head_dim": 256, "seq_len": 2048}
# MT-NLG 530B (Smith et al. 2022): 105 layers, hidden 20480, 128 heads, vocab 51200, so 12 L h^2 + V h = 529.53B.
MT_NLG = {"params": 12 * 105 * 20480**2 + 51200 * 20480, "n_chips": 2240, "peak_flop_per_s": "312 TFLOP/s", "tokens_per_s": "65.43K"}
MT_NLG_ATTENTION = {"n_layers": 105, "n_heads": 128, "head_dim": 160, "seq_len": 2048}
# Gopher 280B (Rae et al. 2021, Table 1): 80 layers, 128 heads of size 128, 2048-token sequences, 6M-token
# batches (3072 x 2048); 4096 TPU v3 chips at 123 TFLOP/s bf16 (Google Cloud TPU v3 spec).
GOPHER = {"params": "280B", "n_chips": 4096, "peak_flop_per_s": "123 TFLOP/s", "global_batch_tokens": 3072 * 2048,
          "step_time_s": 1 / 0.0152, "n_layers": 80, "n_heads": 128, "head_dim": 128, "seq_len": 2048}

H100_DP = {"peak_flop_per_s": "990 TFLOP/s"}  # scaling book gpus.md uses C = 990e12 for H100 bf16

CASES = [
    # --- PaLM (Chowdhery et al. 2022, arXiv:2204.02311), section 4.1 "Training efficiency" and Appendix B ---
    # "The MFU of PaLM 540B is 45.7% without self-attention or 46.2% with it" (238.3K tokens/s, 6144 TPU v4).
    pytest.param("mfu", {**PALM_540B, **PALM_540B_ATTENTION}, "mfu", 0.462, 0.0005, id="palm-540b-mfu-46.2"),
    pytest.param("mfu", PALM_540B, "mfu", 0.457, 0.0005, id="palm-540b-mfu-no-attention-45.7"),
    # PaLM section 4.1: MT-NLG 530B "29.7% without self-attention or 30.2% with it ... 65.43K tokens/sec".
    pytest.param("mfu", MT_NLG, "mfu", 0.297, 0.0005, id="palm-mt-nlg-mfu-no-attention-29.7"),
    pytest.param("mfu", {**MT_NLG, **MT_NLG_ATTENTION}, "mfu", 0.302, 0.0005, id="palm-mt-nlg-mfu-30.2"),
    # PaLM section 4.1: "the MFU number for Gopher is 32.5% based on training speed of 0.0152 steps per second".
    pytest.param("mfu", GOPHER, "mfu", 0.325, 0.0005, id="palm-gopher-mfu-32.5"),

    # --- Narayanan et al. 2021 (Megatron-LM, arXiv:2104.04473), section 5.1, eq. (4): time = 8TP/(nX) ---
    # "GPT-3 (P = 175B) on T = 300 billion tokens on n = 1024 A100 GPUs ... X = 140 teraFLOP/s ... 34 days".
    pytest.param("training_time", {"params": "175B", "tokens": "300B", "n_chips": 1024, "achieved_flop_per_s": "140 TFLOP/s",
                                   "recompute": "full"}, "days", 34, 0.5, id="megatron-eq4-gpt3-34-days"),
    # "1 trillion parameter model ... 450 billion tokens ... 3072 A100 GPUs ... 163 teraFLOP/s ... 84 days";
    # the trillion-parameter row of Table 1 that ran at 163 teraFLOP/s on 3072 GPUs has 1008B parameters.
    pytest.param("training_time", {"params": "1008B", "tokens": "450B", "n_chips": 3072, "achieved_flop_per_s": "163 TFLOP/s",
                                   "recompute": "full"}, "days", 84, 0.5, id="megatron-eq4-1t-84-days"),

    # --- JAX scaling book (jax-ml/scaling-book), gpus.md "Rooflines for LLM Scaling on GPUs" / "Data Parallelism" ---
    # "Within a node, we just need the per-GPU token batch size > 990e12 / 450e9 = 2200."
    pytest.param("dp_critical_batch", {**H100_DP, "bandwidth_bytes_per_s": "450 GB/s"}, "critical_tokens_per_chip", 2200, 0.5,
                 id="scaling-book-h100-in-node-2200"),
    # "Within an SU or at the spine level, BS > 990e12 / 400e9 = 2475."
    pytest.param("dp_critical_batch", {**H100_DP, "bandwidth_bytes_per_s": "400GB/s"}, "critical_tokens_per_chip", 2475, 0.5,
                 id="scaling-book-h100-across-nodes-2475"),
    # "DeepSeek v3 trained on 2048 H800 GPUs with lower 300GB/s ... would need 990e12 / 300e9 = 3300 tokens per GPU".
    pytest.param("dp_critical_batch", {**H100_DP, "bandwidth_bytes_per_s": "300 GB/s"}, "critical_tokens_per_chip", 3300, 0.5,
                 id="scaling-book-h800-3300"),
    # MoE: "the new OpenAI OSS model with k=4 and E=128, this increases to 32 * 2475 = 79,200 across nodes".
    pytest.param("dp_critical_batch", {**H100_DP, "bandwidth_bytes_per_s": "400 GB/s", "moe_experts": 128, "moe_top_k": 4},
                 "critical_tokens_per_chip", 79200, 0.5, id="scaling-book-moe-e128-k4-79200"),
    # gpus.md Quiz 5 Q1: B200 "our critical batch size increases to 2250e12 / 400e9 = 5625".
    pytest.param("dp_critical_batch", {"peak_flop_per_s": "2250 TFLOP/s", "bandwidth_bytes_per_s": "400 GB/s"},
                 "critical_tokens_per_chip", 5625, 0.5, id="scaling-book-b200-5625"),
    # training.md "Fully-Sharded Data Parallelism": "C/W_ici (4.59e14 / 1.8e11 = 2550 for v5p)".
    pytest.param("dp_critical_batch", {"peak_flop_per_s": 4.59e14, "bandwidth_bytes_per_s": 1.8e11}, "critical_tokens_per_chip", 2550, 0.5,
                 id="scaling-book-v5p-one-axis-2550"),
    # training.md: "dedicate all three axes of a TPUv5p pod to pure data parallelism, we 3x our bandwidth ... BS=850"
    # (C = 4.59e14, the v5p figure of the same chapter's "4.59e14 / 1.8e11 = 2550").
    pytest.param("dp_critical_batch", {"peak_flop_per_s": "459 TFLOP/s", "bandwidth_bytes_per_s": 3 * 1.8e11}, "critical_tokens_per_chip",
                 850, 0.5, id="scaling-book-v5p-three-axes-850"),
    # gpus.md Quiz 5 Q2.3: LLaMA-3 70B, 4M-token batch on 4096 H100 with 8-way TP: "4e6 / 4096 = 976" per GPU, comm-bound.
    pytest.param("pp_necessity", {"global_batch_tokens": "4M", "n_chips": 4096, **H100_DP, "dp_bandwidth_bytes_per_s": "400 GB/s",
                                  "chips_per_node": 8, "tp_degree": 8}, "tokens_per_chip", 976, 1.0, id="scaling-book-llama3-70b-976-per-gpu"),
    pytest.param("pp_necessity", {"global_batch_tokens": "4M", "n_chips": 4096, **H100_DP, "dp_bandwidth_bytes_per_s": "400 GB/s",
                                  "chips_per_node": 8, "tp_degree": 8}, "dp_comm_bound", True, 0, id="scaling-book-llama3-70b-comm-bound"),
    # Same question, 8-way pipelining: "from 400GB/s to 8 * 400GB/s = 3200GB/s. The roofline then is 990e12 / 3200e9 = 309".
    pytest.param("pp_necessity", {"global_batch_tokens": "4M", "n_chips": 4096, **H100_DP, "dp_bandwidth_bytes_per_s": "400 GB/s",
                                  "chips_per_node": 8, "tp_degree": 8, "pp_degree": 8}, "effective_dp_bandwidth_bytes_per_s", 3200e9, 0.5e9,
                 id="scaling-book-llama3-70b-pp8-3200GBps"),
    pytest.param("pp_necessity", {"global_batch_tokens": "4M", "n_chips": 4096, **H100_DP, "dp_bandwidth_bytes_per_s": "400 GB/s",
                                  "chips_per_node": 8, "tp_degree": 8, "pp_degree": 8}, "critical_tokens_per_chip", 309, 1.0,
                 id="scaling-book-llama3-70b-pp8-309"),
    pytest.param("pp_necessity", {"global_batch_tokens": "4M", "n_chips": 4096, **H100_DP, "dp_bandwidth_bytes_per_s": "400 GB/s",
                                  "chips_per_node": 8, "tp_degree": 8, "pp_degree": 8}, "dp_comm_bound", False, 0,
                 id="scaling-book-llama3-70b-pp8-compute-bound"),
    # gpus.md Quiz 5 Q3 (Megatron-LM hyperparameters, sequence length 4096): "16B: 192 * 4096 / 192 = 4096 tokens per GPU",
    # "70B: 384 * 4096 / 768 = 2048", "314B: 1536 * 4096 / 3072 = 2048".
    pytest.param("pp_necessity", {"global_batch_tokens": 192 * 4096, "n_chips": 192, **H100_DP, "dp_bandwidth_bytes_per_s": "400 GB/s",
                                  "chips_per_node": 8}, "tokens_per_chip", 4096, 0.5, id="scaling-book-megatron-16b-4096-per-gpu"),
    pytest.param("pp_necessity", {"global_batch_tokens": 384 * 4096, "n_chips": 768, **H100_DP, "dp_bandwidth_bytes_per_s": "400 GB/s",
                                  "chips_per_node": 8, "tp_degree": 8, "pp_degree": 2}, "tokens_per_chip", 2048, 0.5,
                 id="scaling-book-megatron-70b-2048-per-gpu"),
    # ... "because we have 16 and 64-way model (PP + TP) sharding respectively, we get 2x and 8x better throughput at the spine".
    pytest.param("pp_necessity", {"global_batch_tokens": 1536 * 4096, "n_chips": 3072, **H100_DP, "dp_bandwidth_bytes_per_s": "400 GB/s",
                                  "chips_per_node": 8, "tp_degree": 8, "pp_degree": 8}, "effective_dp_bandwidth_bytes_per_s", 8 * 400e9, 0.5e9,
                 id="scaling-book-megatron-314b-8x-bandwidth"),
    # gpus.md Quiz 5 Q2.2: "6 * 70e9 * 15e12 = 6.3e24 bf16 FLOPs".
    pytest.param("training_flops", {"params": "70B", "tokens": "15T"}, "total_flops", 6.3e24, 0.05e24, id="scaling-book-llama3-70b-6.3e24"),
    # ... "at 45% MFU ... Thus the whole thing will take 3.5e6 seconds, or 40 days" (4096 H100 at 990e12).
    pytest.param("training_time", {"params": "70B", "tokens": "15T", "n_chips": 4096, **H100_DP, "mfu": "45%"}, "time_s", 3.5e6, 0.05e6,
                 id="scaling-book-llama3-70b-3.5e6-s"),
    pytest.param("training_time", {"params": "70B", "tokens": "15T", "n_chips": 4096, **H100_DP, "mfu": 0.45}, "days", 40, 0.5,
                 id="scaling-book-llama3-70b-40-days"),
    # training.md: LLaMA-3 70B on "roughly 16e6 / (2550 / 3) = 18,823 chips ... 4.59e14 FLOPs running at 50% ... approximately 17 days".
    pytest.param("training_time", {"params": "70B", "tokens": "15T", "n_chips": 18823, "peak_flop_per_s": 4.59e14, "mfu": "50%"}, "days", 17,
                 0.5, id="scaling-book-llama3-70b-v5p-17-days"),
    # roofline.md: "B > 1.97e14 / 8.20e11 = 240" (TPU v5e critical intensity).
    pytest.param("roofline", {"flops": 1e12, "bytes": 1e9, "peak_flop_per_s": 1.97e14, "memory_bandwidth_bytes_per_s": 8.20e11},
                 "critical_intensity", 240, 0.5, id="scaling-book-v5e-240"),
    # roofline.md Question 5: H100 "9.89e14 / 3.35e12 = 295".
    pytest.param("roofline", {"flops": 1e12, "bytes": 1e9, "peak_flop_per_s": "989 TFLOP/s", "memory_bandwidth_bytes_per_s": "3.35 TB/s"},
                 "critical_intensity", 295, 0.5, id="scaling-book-h100-295"),
    # roofline.md Question 1: int8 "3.94e14 / 8.2e11 = 480".
    pytest.param("roofline", {"flops": 1e12, "bytes": 1e9, "peak_flop_per_s": 3.94e14, "memory_bandwidth_bytes_per_s": "820 GB/s"},
                 "critical_intensity", 480, 0.5, id="scaling-book-v5e-int8-480"),
    # roofline.md: dot product of two bf16[N] vectors: intensity (2N - 1) / (4N + 2) -> 1/2, so memory-bound.
    pytest.param("roofline", {"flops": 2 * 10**9 - 1, "bytes": 4 * 10**9 + 2, "peak_flop_per_s": 1.97e14, "memory_bandwidth_bytes_per_s": 8.2e11},
                 "arithmetic_intensity", 0.5, 0.0005, id="scaling-book-dot-product-0.5"),
    pytest.param("roofline", {"flops": 2 * 10**9 - 1, "bytes": 4 * 10**9 + 2, "peak_flop_per_s": 1.97e14, "memory_bandwidth_bytes_per_s": 8.2e11},
                 "bound", "memory", 0, id="scaling-book-dot-product-memory-bound"),
    # gpus.md Pop Quiz 1: AllGather(bf16[1024, 16384]) on 8xH100 at 450 GB/s: "more precisely, 65us".
    pytest.param("collective_time", {"op": "all_gather", "size_bytes": 2 * 1024 * 16384, "n_ranks": 8, "bandwidth_bytes_per_s": "450 GB/s"},
                 "time_s", 65e-6, 0.5e-6, id="scaling-book-allgather-65us"),
    # gpus.md "Cross-node collectives": node level "AG bandwidth of 450e9 * 8 / (8 - 1) = 514GB/s",
    pytest.param("collective_time", {"op": "all_gather", "size_bytes": "1 GB", "n_ranks": 8, "bandwidth_bytes_per_s": "450 GB/s"},
                 "algbw_bytes_per_s", 514e9, 0.5e9, id="scaling-book-node-ag-514GBps"),
    # ... leaf level "400e9 * 32 / (32 - 1) = 413GB/s".
    pytest.param("collective_time", {"op": "reduce_scatter", "size_bytes": "1 GB", "n_ranks": 32, "bandwidth_bytes_per_s": "400 GB/s"},
                 "algbw_bytes_per_s", 413e9, 0.5e9, id="scaling-book-leaf-rs-413GBps"),
    # gpus.md Quiz 4 Q5: AllGather over exactly 2 nodes "B * (2 - 1) / (2 * 400e9) = B / 800e9".
    pytest.param("collective_time", {"op": "all_gather", "size_bytes": "8 GB", "n_ranks": 2, "bandwidth_bytes_per_s": "400 GB/s"},
                 "algbw_bytes_per_s", 800e9, 0.5e9, id="scaling-book-two-node-ag-800GBps"),

    # --- NVIDIA/nccl-tests doc/PERFORMANCE.md, "Summary": bus bandwidth correction factors ---
    pytest.param("nccl_busbw", {"op": "all_reduce", "n_ranks": 8, "algbw_bytes_per_s": "100 GB/s"}, "bus_factor", 2 * 7 / 8, 1e-12,
                 id="nccl-tests-factor-allreduce"),  # AllReduce: 2*(n-1)/n
    pytest.param("nccl_busbw", {"op": "reduce_scatter", "n_ranks": 8, "algbw_bytes_per_s": "100 GB/s"}, "bus_factor", 7 / 8, 1e-12,
                 id="nccl-tests-factor-reducescatter"),  # ReduceScatter: (n-1)/n
    pytest.param("nccl_busbw", {"op": "all_gather", "n_ranks": 8, "algbw_bytes_per_s": "100 GB/s"}, "bus_factor", 7 / 8, 1e-12,
                 id="nccl-tests-factor-allgather"),  # AllGather: (n-1)/n
    pytest.param("nccl_busbw", {"op": "all_to_all", "n_ranks": 8, "algbw_bytes_per_s": "100 GB/s"}, "bus_factor", 7 / 8, 1e-12,
                 id="nccl-tests-factor-alltoall"),  # AlltoAll: (n-1)/n
    pytest.param("nccl_busbw", {"op": "broadcast", "n_ranks": 8, "algbw_bytes_per_s": "100 GB/s"}, "bus_factor", 1.0, 1e-12,
                 id="nccl-tests-factor-broadcast"),  # Broadcast: 1

    # --- Rajbhandari et al. 2020 (ZeRO, arXiv:1910.02054), Figure 1: 7.5B parameters, K = 12, N_d = 64 ---
    pytest.param("model_state_memory", {"params": "7.5B", "dp_degree": 64}, "bytes_per_chip", 120e9, 0.05e9, id="zero-fig1-baseline-120GB"),
    pytest.param("model_state_memory", {"params": "7.5B", "dp_degree": 64, "zero_stage": 1}, "bytes_per_chip", 31.4e9, 0.05e9,
                 id="zero-fig1-pos-31.4GB"),
    pytest.param("model_state_memory", {"params": "7.5B", "dp_degree": 64, "zero_stage": 2}, "bytes_per_chip", 16.6e9, 0.05e9,
                 id="zero-fig1-pos-g-16.6GB"),
    pytest.param("model_state_memory", {"params": "7.5B", "dp_degree": 64, "zero_stage": 3}, "bytes_per_chip", 1.9e9, 0.05e9,
                 id="zero-fig1-pos-g-p-1.9GB"),

    # --- marin-community/marin issue #6532 (GPipe bubble column of the 8xH100 table) ---
    pytest.param("pipeline_bubble", {"pp_degree": 8, "microbatches": 8, "schedule": "gpipe"}, "bubble_fraction", 0.47, 0.005,
                 id="marin-6532-pp8-m8-47pct"),  # "8-way PP, M=8 ... 47%"
    pytest.param("pipeline_bubble", {"pp_degree": 8, "microbatches": 16, "schedule": "gpipe"}, "bubble_fraction", 0.30, 0.005,
                 id="marin-6532-pp8-m16-30pct"),  # "8-way PP, M=16 ... 30%"
    pytest.param("pipeline_bubble", {"pp_degree": 4, "microbatches": 8, "schedule": "gpipe"}, "bubble_fraction", 0.27, 0.005,
                 id="marin-6532-pp4-m8-27pct"),  # "4-way PP x dps2, M=8 ... 27%"
]


@pytest.mark.parametrize(("name", "inputs", "field", "published", "tolerance"), CASES)
def test_published_figure(name, inputs, field, published, tolerance):
    value = out(name, inputs)[field]
    if isinstance(published, (bool, str)):
        assert value == published
    else:
        assert value == pytest.approx(published, abs=tolerance)


# ---------------------------------------------------------------------------------------------------
# Korthikanti et al. 2022 (arXiv:2205.05198) and the NVIDIA/Megatron-LM README
# ---------------------------------------------------------------------------------------------------
# Configurations of Korthikanti et al. Table 3 (as encoded in calculon-ai/calculon validation/seqsel/tab5/*.json
# and models/megatron-1T.json): sequence 2048, vocabulary 51200, A100 at 312 TFLOP/s; iteration times with
# sequence parallelism + selective recomputation from Table 5 (calculon/llm/validation.py seqsel_tab5).
KORTHIKANTI = {
    "22B": dict(heads=64, hidden=6144, layers=48, tp=8, pp=1, v=1, gpus=8, batch=4, micro=4, seconds=1.10),
    "175B": dict(heads=96, hidden=12288, layers=96, tp=8, pp=8, v=3, gpus=64, batch=64, micro=1, seconds=13.75),
    "530B": dict(heads=128, hidden=20480, layers=105, tp=8, pp=35, v=3, gpus=280, batch=280, micro=1, seconds=37.83),
    "1T": dict(heads=160, hidden=25600, layers=128, tp=8, pp=64, v=1, gpus=512, batch=512, micro=1, seconds=71.49),
}
SEQ, VOCAB = 2048, 51200


def _korthikanti_mfu(model: str, recompute: str) -> dict:
    c = KORTHIKANTI[model]
    params = 12 * c["layers"] * c["hidden"] ** 2 + VOCAB * c["hidden"]  # Narayanan et al. eq. (2) without the small terms
    return out("mfu", {
        "params": params, "n_chips": c["gpus"], "peak_flop_per_s": "312 TFLOP/s",
        "global_batch_tokens": c["batch"] * SEQ, "step_time_s": c["seconds"],
        "n_layers": c["layers"], "n_heads": c["heads"], "head_dim": c["hidden"] // c["heads"], "seq_len": SEQ,
        "recompute": recompute,
    })


# Megatron-LM README (NVIDIA/Megatron-LM, "Training Speed and Scalability", 2022-2023 versions), table
# "Model FLOPs Utilization | Hardware FLOPs Utilization": 22B 41.5/43.7, 175B 51.4/52.8, 530B 56.0/57.0, 1T 56.3/57.0.
# Table 5 prints the 22B iteration as 1.10 s, which alone moves its MFU by +-0.19 points: tolerance 0.002 there.
@pytest.mark.parametrize(("model", "published_mfu", "published_hfu", "tolerance"), [
    pytest.param("22B", 0.415, 0.437, 0.002, id="megatron-readme-22b"),     # 41.5% / 43.7%
    pytest.param("175B", 0.514, 0.528, 0.0005, id="megatron-readme-175b"),  # 51.4% / 52.8%
    pytest.param("530B", 0.560, 0.570, 0.0005, id="megatron-readme-530b"),  # 56.0% / 57.0%
    pytest.param("1T", 0.563, 0.570, 0.0005, id="megatron-readme-1t"),      # 56.3% / 57.0%
])
def test_korthikanti_mfu_and_hfu(model, published_mfu, published_hfu, tolerance):
    result = _korthikanti_mfu(model, "selective")
    assert result["mfu"] == pytest.approx(published_mfu, abs=tolerance)
    assert result["hfu"] == pytest.approx(published_hfu, abs=tolerance)


# Korthikanti et al. Figure 1: activation memory per GPU (GiB) of the first pipeline stage, tensor parallel only
# ("none") and with sequence parallelism + selective recomputation ("seqsel"), as transcribed in
# calculon-ai/calculon calculon/llm/validation.py (seqsel_fig1, kProfile ... 'act'). The first 1F1B stage holds
# L layers' worth of one microbatch, times 1 + (p-1)/(p v) when interleaved (Narayanan et al. section 2.2.2).
@pytest.mark.parametrize(("model", "mode", "published_gib"), [
    pytest.param("22B", "none", 59.25, id="korthikanti-fig1-22b-none"),
    pytest.param("22B", "seqsel", 9.5625, id="korthikanti-fig1-22b-seqsel"),
    pytest.param("175B", "none", 66.84375, id="korthikanti-fig1-175b-none"),
    pytest.param("175B", "seqsel", 12.3515625, id="korthikanti-fig1-175b-seqsel"),
    pytest.param("530B", "none", 114.0234375, id="korthikanti-fig1-530b-none"),
    pytest.param("530B", "seqsel", 23.076171875, id="korthikanti-fig1-530b-seqsel"),
    pytest.param("1T", "none", 131.25, id="korthikanti-fig1-1t-none"),
    pytest.param("1T", "seqsel", 26.5625, id="korthikanti-fig1-1t-seqsel"),
])
def test_korthikanti_activation_memory(model, mode, published_gib):
    c = KORTHIKANTI[model]
    memory = out("activation_memory", {
        "seq_len": SEQ, "micro_batch": c["micro"], "d_model": c["hidden"], "n_heads": c["heads"], "n_layers": c["layers"],
        "tp_degree": c["tp"], "sequence_parallel": mode == "seqsel", "recompute": "selective" if mode == "seqsel" else "none",
    })
    pipeline = out("pipeline_bubble", {"pp_degree": c["pp"], "microbatches": c["batch"] // c["micro"], "virtual_stages": c["v"],
                                       "schedule": "interleaved" if c["v"] > 1 else "1f1b"})
    first_stage = memory["bytes_total"] * pipeline["activation_memory_factor"]
    assert first_stage / GiB == pytest.approx(published_gib, rel=1e-6)


# ---------------------------------------------------------------------------------------------------
# MosaicML llm-foundry scripts/train/benchmarking/README.md, table "H100 80GB BF16"
# ---------------------------------------------------------------------------------------------------
# MFU = (6 N + 12 L d T) x tokens/s / (GPUs x 989.5e12) (the README's formula; Composer's H100 bf16 peak is
# 1.979e15 / 2); HFU = 4/3 of it with activation checkpointing (full recomputation). Shapes from
# scripts/train/yamls/pretrain/mpt-*.yaml; N is the row's NumParams. Throughput (T/s) is printed to a whole
# token, so MFU and HFU match to their printed 0.01 percentage point.
MPT_SHAPES = {"70b": (80, 64, 8192), "30b": (48, 56, 7168), "7b": (32, 32, 4096), "3b": (32, 20, 2560)}


@pytest.mark.parametrize(("model", "seq", "gpus", "tokens_per_s", "params", "checkpointing", "published_mfu", "published_hfu"), [
    pytest.param("70b", 2048, 64, 66523, 64862437376, True, 42.57, 56.76, id="llm-foundry-70b-2048-64gpu"),
    pytest.param("30b", 2048, 32, 73860, 29975214080, True, 43.92, 58.57, id="llm-foundry-30b-2048-32gpu"),
    pytest.param("30b", 8192, 8, 11072, 30019254272, True, 29.92, 39.9, id="llm-foundry-30b-8192-8gpu"),
    pytest.param("7b", 2048, 8, 85144, 6658859008, False, 46.44, 46.44, id="llm-foundry-7b-2048-8gpu"),
    pytest.param("7b", 65536, 8, 15654, 6918905856, True, 28.59, 38.13, id="llm-foundry-7b-65536-8gpu"),
    pytest.param("3b", 2048, 64, 1441663, 2651837440, False, 40.8, 40.8, id="llm-foundry-3b-2048-64gpu"),
    pytest.param("3b", 512, 8, 223721, 2647905280, False, 46.32, 46.32, id="llm-foundry-3b-512-8gpu"),
])
def test_llm_foundry_mfu_hfu(model, seq, gpus, tokens_per_s, params, checkpointing, published_mfu, published_hfu):
    layers, heads, d_model = MPT_SHAPES[model]
    result = out("mfu", {
        "params": params, "n_chips": gpus, "peak_flop_per_s": 1.979e15 / 2, "tokens_per_s": tokens_per_s,
        "n_layers": layers, "n_heads": heads, "head_dim": d_model // heads, "seq_len": seq,
        "recompute": "full" if checkpointing else "none",
    })
    assert result["mfu"] * 100 == pytest.approx(published_mfu, abs=0.006)
    assert result["hfu"] * 100 == pytest.approx(published_hfu, abs=0.006)


# ---------------------------------------------------------------------------------------------------
# nccl-tests output tables: busbw from size and time (or from algbw)
# ---------------------------------------------------------------------------------------------------
# lessizzmore/create-a3mega-ztan-fork, file ztan-NCCL-test-result: all_reduce_perf, -np 16 (2 nodes x 8 H100),
# out-of-place columns size (B), time (us), algbw (GB/s), busbw (GB/s). Tolerance: half of the printed 0.01 GB/s
# plus what the printed time's own rounding (half a unit of its last digit) moves the bandwidth.
@pytest.mark.parametrize(("size", "time_us", "time_step_us", "algbw", "busbw"), [
    pytest.param(8589934592, "47535", 1.0, 180.71, 338.82, id="a3mega-16rank-8GiB"),
    pytest.param(4294967296, "24361", 1.0, 176.31, 330.58, id="a3mega-16rank-4GiB"),
    pytest.param(1073741824, "6759.0", 0.1, 158.86, 297.86, id="a3mega-16rank-1GiB"),
    pytest.param(536870912, "3817.5", 0.1, 140.63, 263.69, id="a3mega-16rank-512MiB"),
    pytest.param(134217728, "1652.2", 0.1, 81.24, 152.32, id="a3mega-16rank-128MiB"),
])
def test_nccl_tests_table_rows(size, time_us, time_step_us, algbw, busbw):
    result = out("nccl_busbw", {"op": "all_reduce", "n_ranks": 16, "size_bytes": size, "time_s": f"{time_us} us"})
    relative_time_error = 0.5 * time_step_us / float(time_us)
    assert result["algbw_bytes_per_s"] / 1e9 == pytest.approx(algbw, abs=0.005 + algbw * relative_time_error)
    assert result["busbw_bytes_per_s"] / 1e9 == pytest.approx(busbw, abs=0.005 + busbw * relative_time_error)


# stas00/ml-engineering network/benchmarks/results/all-reduce-8xH200.md: all_reduce_bench.py on 8x H200, columns
# payload, busbw, algbw (busbw = algbw x 2(n-1)/n as in nccl-tests). algbw is printed to 0.01 GBps, so busbw is
# known to 1.75 x 0.005 plus its own printing.
@pytest.mark.parametrize(("algbw", "busbw"), [
    pytest.param("275.58GBps", 482.26, id="ml-engineering-8xh200-16GiB"),
    pytest.param("264.90GBps", 463.58, id="ml-engineering-8xh200-1GiB"),
    pytest.param("229.67GBps", 401.93, id="ml-engineering-8xh200-128MiB"),
    pytest.param("0.82GBps", 1.44, id="ml-engineering-8xh200-32KiB"),
])
def test_ml_engineering_busbw(algbw, busbw):
    result = out("nccl_busbw", {"op": "all_reduce", "n_ranks": 8, "algbw_bytes_per_s": algbw})
    assert result["busbw_bytes_per_s"] / 1e9 == pytest.approx(busbw, abs=1.75 * 0.005 + 0.005)


# ---------------------------------------------------------------------------------------------------
# Derived published figures that combine a calculator output with the source's own arithmetic
# ---------------------------------------------------------------------------------------------------
def test_scaling_book_llama3_16k_h100_needs_40m_batch():
    # gpus.md "Data Parallelism": "LLaMA-3, which trained on 16000 H100s would need a batch size of at least 40M tokens".
    critical = out("dp_critical_batch", {**H100_DP, "bandwidth_bytes_per_s": "400 GB/s"})["critical_tokens_per_chip"]
    assert critical * 16000 == pytest.approx(40e6, abs=0.5e6)


def test_scaling_book_deepseek_v3_needs_6_7m_batch():
    # gpus.md: DeepSeek v3 on 2048 H800 "would need 990e12 / 300e9 = 3300 tokens per GPU, or about 6.7M".
    critical = out("dp_critical_batch", {**H100_DP, "bandwidth_bytes_per_s": "300 GB/s"})["critical_tokens_per_chip"]
    assert critical * 2048 == pytest.approx(6.7e6, abs=0.1e6)


def test_scaling_book_v5p_llama3_chip_count():
    # training.md: "split a batch of 16M tokens over roughly 16e6 / (2550 / 3) = 18,823 chips".
    critical = out("dp_critical_batch", {"peak_flop_per_s": 4.59e14, "bandwidth_bytes_per_s": 3 * 1.8e11})["critical_tokens_per_chip"]
    assert math.floor(16e6 / critical) == 18823


def test_scaling_book_deepseek_v2_chip_count():
    # training.md: DeepSeek-V2's ~40M-token batch "would allow us to scale to roughly 47,000 chips" (three v5p axes).
    critical = out("dp_critical_batch", {"peak_flop_per_s": 4.59e14, "bandwidth_bytes_per_s": 3 * 1.8e11})["critical_tokens_per_chip"]
    assert 40e6 / critical == pytest.approx(47000, rel=0.01)


def test_llama3_405b_training_compute():
    # Dubey et al. 2024 (The Llama 3 Herd of Models, arXiv:2407.21783), section 1: 405B parameters on 15.6T tokens,
    # "a total of 3.8 x 10^25 FLOPs".
    assert out("training_flops", {"params": "405B", "tokens": "15.6T"})["total_flops"] == pytest.approx(3.8e25, abs=0.05e25)
