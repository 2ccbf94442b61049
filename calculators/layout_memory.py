"""Memory per chip on a layout's fullest pipeline stage: model state by ZeRO stage, activations by schedule, buffers, and the reserve."""

import numpy as np

from .layout_job import Job, Layouts

BF16, ADAM_STATE = 2.0, 12.0  # bytes per parameter: bf16 weights and gradients; fp32 master weights and two moments
FP8_COPIES = 2.0  # bytes per parameter: an fp8 weight and its fp8 transpose (NVIDIA Transformer Engine's weight caching under fp8)


def activation_bytes_per_token(job: Job, lay: Layouts):
    """(kept, computed): bytes per token a layer keeps for its backward pass, and what the layer being computed holds at its peak."""
    h, a, kv, hd, share, k = job.hidden, job.heads, job.kv_heads, job.head_dim, job.moe_share, job.top_k
    attention = 2 * h + 4 * a * hd + 4 * kv * hd + 4 * h  # inputs, q, k, v, attention output, and the two norms' inputs
    mlp = (1 - share) * (2 * h + 2 * job.mlp_matrices * job.ffn_width)
    if job.moe:
        mlp = mlp + share * (2 * h + k * (2 * h + 6 * job.expert_width) + job.shared_experts * 6 * job.expert_width)
    if not job.fused_attention:  # Korthikanti et al.: 5as/h more per token (scores, softmax, dropout mask), unless recomputed
        attention = attention + np.where(lay.selective_recompute, 0.0, 5 * a * job.seq_len)
    computed = attention + mlp
    # The per-op policy keeps the layer's input, attention's output and every second matrix multiply's output (bf16).
    outputs = a * hd + 2 * kv * hd + 2 * h + (job.mlp_matrices - 1) * (job.ffn_width if share < 1 else job.expert_width * (k + job.shared_experts))
    per_op = np.minimum(2 * h + 2 * a * hd + outputs, computed)
    kept = np.select([lay.full_recompute, lay.op_recompute], [2 * h, per_op], default=computed)  # full recomputation keeps each layer's input only
    return kept, computed


def in_flight(job: Job, lay: Layouts, micro):
    """Micro-batches whose activations the first stage holds at the peak of the schedule's warm-up."""
    pp = lay.pipeline
    count = np.select([lay.is_schedule("gpipe"), lay.is_schedule("dualpipe")], [micro, np.minimum(pp + 1, micro)], default=np.minimum(pp, micro))
    return count * np.where(lay.is_schedule("interleaved"), 1 + (pp - 1) / (pp * lay.virtual), 1.0)


def memory(job: Job, lay: Layouts, tokens, micro, layers_here, dense_here, experts_here, dp_group, expert_group) -> dict:
    """Bytes per chip by part (weights, grads, optimizer, activations, buffers, reserve), and the figures the working quotes."""
    tp, pp, zero = lay.tensor, lay.pipeline, lay.zero
    sharded = dense_here / dp_group + experts_here / np.maximum(expert_group, 1.0)
    unsharded = dense_here + experts_here
    copies = np.where(lay.is_schedule("dualpipe"), 2.0, 1.0)  # DualPipe keeps two copies of the parameters
    # Megatron's --fp8-param-gather keeps the weight itself in fp8 (with its transpose): no bf16 copy beside it
    kept = 0.0 if job.precision == "fp8" and job.fp8_weights == "fp8" else BF16
    weights = kept * np.where(zero >= 3, sharded, unsharded) * copies
    if job.precision == "fp8":  # Transformer Engine caches each weight in fp8 and its transpose for the backward pass: 2 bytes more
        weights = weights + FP8_COPIES * np.where(zero >= 3, sharded, unsharded)
    grads = BF16 * np.where(zero >= 2, sharded, unsharded)
    optimizer = ADAM_STATE * np.where(zero >= 1, sharded, unsharded)
    kept, computed = activation_bytes_per_token(job, lay)
    per_layer = kept * tokens / tp
    one_layer = computed * tokens / tp  # the layer being recomputed or computed
    flight = in_flight(job, lay, micro)
    logits = tokens * job.vocab / tp * job.logits_bytes  # bf16 logits, their fp32 copy, softmax and gradient at the loss
    recomputing = np.where(lay.full_recompute, one_layer, 0.0)
    first = per_layer * layers_here * np.where(pp > 1, flight, 1.0) + recomputing
    last = per_layer * layers_here + recomputing + logits
    activations = np.where(pp > 1, np.maximum(first, last), first + logits)
    routed_layer = job.routed_params / job.layers / (lay.expert * lay.expert_tensor) if job.moe else 0.0
    buffers = np.where(tp > 1, 2 * tokens * job.hidden * 2, 0.0) + np.where(zero >= 3, 2 * BF16 * (job.dense_layer_params / tp + routed_layer), 0.0)
    if job.moe:
        buffers = buffers + np.where(lay.expert > 1, 2 * tokens / tp * job.top_k * job.hidden * 2, 0.0)
    # The allocator's reserve: fragmentation grows with what is allocated and freed each step; the runtime's context is fixed.
    reserve = job.memory_reserve_fraction * (activations + buffers) + job.memory_reserve_bytes
    return {"weights": weights, "grads": grads, "optimizer": optimizer, "activations": activations, "buffers": buffers, "reserve": reserve,
            "per_layer": per_layer, "in_flight": flight, "logits": logits, "sharded": sharded, "unsharded": unsharded}
