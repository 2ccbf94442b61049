"""Compute time of one transformer layer and micro-batch: matrix multiplies by shape and precision, attention, memory-bound kernels.

Each operation knows its FLOPs or its bytes (Calculon's per-layer operation model, Isaev et al. 2023); its time is FLOPs over
the achievable rate for its shape, or bytes over HBM bandwidth, whichever is longer.
"""

import numpy as np

from .layout_job import Job, Layouts

PASSES = 3.0  # forward, input gradient, weight gradient


def shape_efficiency(job: Job, m, k, n):
    """Speed of an m x k x n GEMM (k the inner dimension) relative to 8192^3, from the fit in data/achievable_fraction.json."""
    ref = job.shape_reference

    def one(d, c):  # below about 1000 the fit is not used: a thin dimension halves the speed at most, the memory roofline does the rest
        return np.maximum((1 + (c / ref) ** 2) / (1 + (c / np.maximum(d, 1.0)) ** 2), 0.5)

    # never above the 8192^3 rate: the maximum achievable matmul (Bekman's MAMF, a maximum over shapes) is within 1% of it on the H100
    return np.minimum(one(m, job.shape_mn_scale) * one(n, job.shape_mn_scale) * one(k, job.shape_k_scale), 1.0)


def seconds_per_flop(job: Job, gemms):
    """Seconds per FLOP of linear layers (m, k, n, weight), forward + input gradient + weight gradient, each at its shape's rate or HBM-bound."""
    rate = job.peak_flops * job.gemm_fraction
    bandwidth = job.hbm_bandwidth * job.hbm_fraction
    seconds = flops = 0.0
    for m, k, n, weight in gemms:
        for mm, kk, nn in ((m, k, n), (m, n, k), (k, m, n)):
            work = 2 * mm * kk * nn * weight
            moved = 2 * (mm * kk + kk * nn + mm * nn) * weight  # bf16 operands and result
            seconds = seconds + np.maximum(work / (rate * shape_efficiency(job, mm, kk, nn)), moved / bandwidth)
            flops = flops + work
    return seconds / flops


def dense_gemms(job: Job, lay: Layouts, tokens):
    """A layer's linear layers outside the routed experts, as (rows, inner, columns, share of layers), split by tensor parallelism."""
    tp, h, share = lay.tensor, job.hidden, job.moe_share
    q_out, kv_out = job.heads * job.head_dim / tp, 2 * job.kv_heads * job.head_dim / tp
    gemms = [(tokens, h, q_out + kv_out, 1.0), (tokens, job.heads * job.head_dim / tp, h, 1.0)]
    shared = job.shared_experts * job.expert_width
    if job.moe and shared:
        gemms += [(tokens, h, 2 * shared / tp, share), (tokens, shared / tp, h, share)]
    if share < 1:  # dense MLP layers (all of them in a dense model)
        gemms += [(tokens, h, (job.mlp_matrices - 1) * job.ffn_width / tp, 1 - share), (tokens, job.ffn_width / tp, h, 1 - share)]
    return gemms


def recompute_factor(lay: Layouts):
    """Full recomputation repeats the forward pass: 4/3 of the matrix work (Korthikanti et al. 2022); the per-op policy half of it."""
    # torchtitan's op-level selective checkpointing saves every matrix multiply's output but each second one
    # (torchtitan/distributed/activation_checkpoint.py, '_custom_policy': "Saves output of all compute ops, except every second mm").
    return np.select([lay.full_recompute, lay.op_recompute], [4.0, 3.5], default=3.0) / 3.0


def elementwise_recompute_factor(lay: Layouts):
    """Element-wise kernels are redone by full recomputation and by the per-op policy (norms, activations are not in its save list)."""
    return np.where(lay.full_recompute | lay.op_recompute, 4.0, 3.0) / 3.0


def _distinct_shapes(lay: Layouts):
    """(first, inverse): one layout per distinct set of matrix shapes (tp, expert TP, EP, micro-batch, CP), and where each layout's is.

    A search scores hundreds of thousands of layouts that share a few hundred shapes; the GEMM rates are computed once per shape.
    """
    code = np.zeros(lay.tensor.shape, dtype=np.int64)
    for column, bits in ((lay.tensor, 16), (lay.expert_tensor, 16), (lay.expert, 16), (lay.micro_batch, 8), (lay.context, 8)):
        code = (code << bits) | np.asarray(column, dtype=np.int64)
    _, first, inverse = np.unique(code, return_index=True, return_inverse=True)
    return first, inverse.reshape(-1)


def matmul_time(job: Job, lay: Layouts, tokens) -> dict:
    """Seconds of a layer's matrix multiplies per micro-batch on one chip: dense layers and routed experts at their own shapes."""
    first, inverse = _distinct_shapes(lay)
    some = Layouts(*(np.asarray(getattr(lay, name))[first] for name in Layouts.__slots__))
    some_tokens = np.asarray(tokens)[first] if np.ndim(tokens) else tokens
    dense_spf = seconds_per_flop(job, dense_gemms(job, some, some_tokens))[inverse]
    passes = recompute_factor(lay)
    seconds = 2 * PASSES * job.dense_layer_params * tokens / lay.tensor * dense_spf * passes
    if job.moe:
        # Tokens each local expert receives: the expert-TP group pools its tokens, EP ranks send theirs; experts split by expert TP.
        per_expert = some_tokens / some.tensor * some.expert_tensor * job.top_k * some.expert / job.experts
        wide = job.expert_width / some.expert_tensor
        expert_spf = seconds_per_flop(job, [(per_expert, job.hidden, 2 * wide, 1.0), (per_expert, wide, job.hidden, 1.0)])[inverse]
        seconds = seconds + 2 * PASSES * job.routed_active / job.layers * tokens / lay.tensor * expert_spf * passes
    return {"seconds": seconds, "dense_seconds_per_flop": dense_spf}


def attention_time(job: Job, lay: Layouts, tokens):
    """Seconds of the attention core (scores, softmax, weighted values) per layer and micro-batch on one chip."""
    a, hd, s, tp = job.heads, job.head_dim, job.seq_len, lay.tensor
    recomputed = lay.full_recompute | lay.selective_recompute
    if job.fused_attention:  # a FlashAttention-style kernel skips the masked half: causal FLOPs, and keeps no s x s matrix
        # FlashAttention's backward recomputes the scores: 2.5 forwards, as its benchmarks count the work its efficiency is quoted on
        # (flash-attention benchmarks/benchmark_flash_attention.py, flops(): bwd 2.5 f, fwd_bwd 3.5 f); recomputation adds a forward
        forwards = 3.5 + recomputed
        return forwards * 2 * a * hd * s * tokens / tp / (job.peak_bf16_flops * job.attention_fraction)
    else:  # scores and probabilities written out: two batched GEMMs over the full s x s, and the softmax and dropout passes over them
        scores = seconds_per_flop(job, [(s, hd, s, 1.0), (s, s, hd, 1.0)])
        seconds = 12 * a * hd * s * tokens / tp * scores + 20 * a * s * tokens / tp / (job.hbm_bandwidth * job.hbm_fraction)
    return seconds * np.where(recomputed, 4.0, 3.0) / 3.0


def memory_bound_time(job: Job, lay: Layouts, tokens):
    """Norms, activation functions, residual adds and dropout of a layer per micro-batch: bf16 bytes read and written over HBM bandwidth."""
    share, k = job.moe_share, job.top_k
    mlp_elements = (1 - share) * job.mlp_matrices * job.ffn_width + share * (k + job.shared_experts) * 3 * job.expert_width
    elements = 10 * job.hidden + mlp_elements  # per token: two norms, residuals, dropout on h; the MLP's activation on its width
    # each element read and written in bf16 per pass; memory_bound_passes (calibrated) counts the extra kernels a real stack runs over them
    seconds = 2 * PASSES * job.memory_bound_passes * elements * tokens / lay.tensor * elementwise_recompute_factor(lay) / (job.hbm_bandwidth * job.hbm_fraction)
    return seconds + fp8_cast_time(job, lay, tokens)


FP8_CAST_BYTES = 6.0  # per element: bf16 read for the scale (amax) and again for the cast, an fp8 copy and its fp8 transpose written


def fp8_cast_time(job: Job, lay: Layouts, tokens):
    """Seconds of fp8's casts per layer and micro-batch: each linear layer's input and output gradient scaled, cast and transposed."""
    # Hopper's fp8 matrix multiplies take only the 'TN' layout (cuBLAS, cublasLtMatmul FP8 requirements), so the weight-gradient GEMM
    # needs the input and the gradient transposed too: Transformer Engine's fused cast-transpose, torchao's float8 casts. Weights are
    # cast once per step and left out.
    if job.precision != "fp8":
        return 0.0
    h, a, kv, hd, share, k = job.hidden, job.heads, job.kv_heads, job.head_dim, job.moe_share, job.top_k
    attention_in, attention_grad = h + a * hd, (a + 2 * kv) * hd + h  # QKV and output projections
    dense_in, dense_grad = h + job.ffn_width, (job.mlp_matrices - 1) * job.ffn_width + h
    routed = k + job.shared_experts
    expert_in, expert_grad = routed * (h + job.expert_width), routed * (2 * job.expert_width + h)
    inputs = attention_in + (1 - share) * dense_in + share * expert_in
    grads = attention_grad + (1 - share) * dense_grad + share * expert_grad
    forward_passes = recompute_factor(lay) * 3 - 2  # the forward's casts again when the forward is recomputed
    return FP8_CAST_BYTES * (inputs * forward_passes + grads) * tokens / lay.tensor / (job.hbm_bandwidth * job.hbm_fraction)


def output_layer_time(job: Job, lay: Layouts, tokens):
    """Seconds of the output layer (logits over the vocabulary) per micro-batch, on the last pipeline stage."""
    if not job.vocab:
        return 0.0
    first, inverse = _distinct_shapes(lay)
    some_tokens = np.asarray(tokens)[first] if np.ndim(tokens) else tokens
    spf = seconds_per_flop(job, [(some_tokens, job.hidden, np.maximum(job.vocab / lay.tensor[first], 1.0), 1.0)])[inverse]
    return 2 * PASSES * job.vocab * job.hidden * tokens / lay.tensor * spf


def optimizer_step_time(job: Job, params_here):
    """Adam's update: fp32 master weights, two moments and the gradient read and written (30 bytes per parameter), HBM-bound."""
    return 30 * params_here / (job.hbm_bandwidth * job.hbm_fraction)


def layer_compute(job: Job, lay: Layouts, tokens) -> dict:
    """All compute of one layer and micro-batch on one chip, by part."""
    matmuls = matmul_time(job, lay, tokens)
    attention = attention_time(job, lay, tokens)
    memory_bound = memory_bound_time(job, lay, tokens)
    return {"gemm": matmuls["seconds"], "attention": attention, "memory_bound": memory_bound,
            "total": matmuls["seconds"] + attention + memory_bound, "dense_seconds_per_flop": matmuls["dense_seconds_per_flop"]}
