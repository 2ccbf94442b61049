"""Communication of one layout: tensor, context, expert, pipeline and data parallelism, and how much of each hides under compute.

Collectives run at a fraction of the links' one-way bandwidth (bus bandwidth below the link rate, as nccl-tests measure) and
pay a latency per step of the ring: a ring over r ranks takes r - 1 steps, so small messages over many ranks cost more than
their bytes. Ranks are placed tensor-parallel innermost, then context, expert and data, then pipeline (Megatron-LM's order).
"""

import numpy as np

from .layout_job import Job, Layouts


def link_bandwidth(job: Job, span, axes_used=1.0):
    """Bus bandwidth of a collective whose group spans `span` consecutive chips: the fast domain's if it fits, else the network's."""
    fast = job.fast_bandwidth * (axes_used if job.torus_axes else 1.0)
    return np.where(span <= job.fast_domain, fast, job.network_bandwidth) * job.collective_fraction


def ring_time(job: Job, size_bytes, ranks, bandwidth):
    """Reduce-scatter or all-gather of size_bytes over `ranks` in a ring: (r-1)/r of the bytes over the bandwidth, plus r-1 latencies."""
    return np.where(ranks > 1, size_bytes * (ranks - 1) / ranks / bandwidth + (ranks - 1) * job.collective_latency_s, 0.0)


def hierarchical_time(job: Job, size_bytes, group, stride, fast_bandwidth):
    """Reduce-scatter of size_bytes over `group` ranks spaced `stride` apart: inside the fast domain first, then across domains."""
    inside = np.clip(np.floor(job.fast_domain / stride), 1.0, group)
    outside = group / inside
    return (ring_time(job, size_bytes, inside, fast_bandwidth * job.collective_fraction)
            + ring_time(job, size_bytes / inside, outside, job.network_bandwidth * job.collective_fraction))


def tensor_parallel_time(job: Job, lay: Layouts, tokens):
    """Sequence-parallel all-gathers and reduce-scatters of a layer per micro-batch: attention's over TP, the MoE MLP's over expert TP."""
    collectives = np.where(lay.full_recompute, 12.0, 8.0)  # 2 all-gathers + 2 reduce-scatters per pass; recomputation repeats the forward's

    def half(ranks):  # attention's (or the MLP's) half of them
        return np.where(ranks > 1, collectives / 2 * ring_time(job, tokens * job.hidden * 2, ranks, link_bandwidth(job, ranks)), 0.0)

    share = job.moe_share
    return half(lay.tensor) + (1 - share) * half(lay.tensor) + share * half(lay.expert_tensor)


def context_parallel_time(job: Job, lay: Layouts, tokens):
    """Ring attention: keys and values pass around the context-parallel group once per pass."""
    tp, cp = lay.tensor, lay.context
    kv_bytes = tokens * 2 * np.maximum(job.kv_heads / tp, 1.0) * job.head_dim * 2
    steps = np.where(lay.full_recompute, 4.0, 3.0) * (cp - 1)
    return np.where(cp > 1, steps * (kv_bytes / link_bandwidth(job, tp * cp) + job.collective_latency_s), 0.0)


def expert_parallel_time(job: Job, lay: Layouts, tokens):
    """All-to-all dispatch and combine of a MoE layer per micro-batch, averaged over all layers."""
    if not job.moe:
        return np.zeros_like(lay.tensor)
    ep, k = lay.expert, job.top_k
    per_copy = tokens / lay.tensor * job.hidden * ((1.0 if job.precision == "fp8" else 2.0) + 2.0)  # dispatch (fp8 under fp8) and combine, bf16
    inside = np.clip(np.floor(job.fast_domain / lay.expert_tensor), 1.0, ep)  # expert ranks: expert TP innermost, then EP
    domains = ep / inside
    # A token crosses the network once per other domain holding one of its k experts, then fans out inside it (DeepEP).
    remote = (domains - 1) * (1 - (1 - 1 / domains) ** k)
    local = k * (inside - 1) / ep
    pair = per_copy * (local / (job.fast_bandwidth * job.collective_fraction) + remote / (job.network_bandwidth * job.collective_fraction))
    pair = pair + 2 * job.collective_latency_s * np.minimum(ep - 1, domains + inside)
    return np.where(ep > 1, np.where(lay.full_recompute, 3.0, 2.0) * pair * job.moe_share, 0.0)


def pipeline_p2p_time(job: Job, lay: Layouts, tokens):
    """One activation (or its gradient) sent to the next pipeline stage, per micro-batch."""
    return tokens * job.hidden * 2 / lay.tensor / link_bandwidth(job, job.chips / lay.pipeline) + job.collective_latency_s


def data_parallel_time(job: Job, lay: Layouts, dense_here, experts_here):
    """Gradient reduce-scatter (or parameter all-gather) of this chip's parameters over its data-parallel and expert-data-parallel groups."""
    tp, cp, ep, etp = lay.tensor, lay.context, lay.expert, lay.expert_tensor
    dp = lay.data(job)
    dp_group, expert_group = dp * cp, dp * cp * tp / (ep * etp)
    dp_axes = np.maximum(1.0, job.torus_axes - (tp > 1) - (cp > 1) - (ep > 1)) if job.torus_axes else 1.0
    fast = job.fast_bandwidth * dp_axes
    dense = hierarchical_time(job, 2 * dense_here, dp_group, tp, fast)
    experts = np.where(expert_group > 1, hierarchical_time(job, 2 * experts_here, expert_group, etp * ep, fast), 0.0)
    return dense + experts, dp_group, expert_group


def exposed_data_parallel(lay: Layouts, rs, compute_mb, micro):
    """What ZeRO's gradient and parameter collectives leave exposed after overlapping the backward and forward passes."""
    backward, forward = compute_mb * 2 / 3, compute_mb / 3
    zero = lay.zero
    return np.select(
        [zero == 0, zero == 1, zero == 2],
        [np.maximum(0.0, 2 * rs - backward),  # all-reduce = reduce-scatter + all-gather, under the last backward
         np.maximum(0.0, rs - backward) + np.maximum(0.0, rs - forward),  # gradients, then updated parameters
         micro * np.maximum(0.0, rs - backward) + np.maximum(0.0, rs - forward)],  # gradients reduced every micro-batch
        default=micro * (np.maximum(0.0, rs - forward) + np.maximum(0.0, 2 * rs - backward)))  # FSDP gathers parameters every pass
