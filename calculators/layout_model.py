"""The cost model of one parallel layout, vectorised over arrays of layouts: step time and memory, piece by piece.

Every function takes `job` (layout_inputs.resolve_job) and `lay`, a dict of float arrays of equal length
(tp, pp, vs, ep, cp, zero, mb, rc: 0 none 1 selective 2 full, sched: an index into SCHEDULES).
"""

import numpy as np

from .layout_inputs import SCHEDULES

GELU_MLP = 2.0
SCHED = {name: float(i) for i, name in enumerate(SCHEDULES)}
TIME_PARTS = ("compute", "tp_comm", "pp_bubble", "dp_comm", "ep_comm", "cp_comm")
MEMORY_PARTS = ("weights", "grads", "optimizer", "activations", "buffers")
BINDING_PARTS = ("compute", "tp_comm", "pp_bubble", "dp_comm", "ep_comm", "cp_comm", "offload")


def shape_efficiency(job: dict, m, k, n):
    """Speed of an m x k x n GEMM (k the inner dimension) relative to 8192^3, from the fit in data/achievable_fraction.json."""
    s = job["shape"]
    ref, ck, cmn = s["reference_dim"], s["k_scale"], s["mn_scale"]

    def one(d, c):  # below about 1000 the fit is not used: a thin dimension halves the speed at most, the memory roofline does the rest
        return np.maximum((1 + (c / ref) ** 2) / (1 + (c / np.maximum(d, 1.0)) ** 2), 0.5)

    return one(m, cmn) * one(n, cmn) * one(k, ck)


def _seconds_per_flop(job: dict, gemms):
    """Seconds per FLOP of a set of linear layers (m, k, n, weight), forward + input grad + weight grad, with the memory roofline."""
    rate = job["peak"] * job["gemm_fraction"]
    bandwidth = job["hbm_bw"] * job["hbm_fraction"]
    seconds = flops = 0.0
    for m, k, n, weight in gemms:
        for mm, kk, nn in ((m, k, n), (m, n, k), (k, m, n)):  # forward, input gradient, weight gradient
            work = 2 * mm * kk * nn * weight
            moved = 2 * (mm * kk + kk * nn + mm * nn) * weight
            seconds = seconds + np.maximum(work / (rate * shape_efficiency(job, mm, kk, nn)), moved / bandwidth)
            flops = flops + work
    return seconds / flops


def _group_time(job: dict, size_bytes, group, stride, fast_bw):
    """Reduce-scatter (or all-gather) of size_bytes over `group` ranks spaced `stride` apart: inside the fast domain first, then the network."""
    eff = job["collective_fraction"]
    inside = np.clip(np.floor(job["domain"] / stride), 1.0, group)
    outside = group / inside
    return (size_bytes * (inside - 1) / inside / (fast_bw * eff)
            + size_bytes / inside * (outside - 1) / outside / (job["network_bw"] * eff))


def _link(job: dict, span, axes_used=1.0):
    """Bandwidth of a collective whose group spans `span` consecutive chips: the fast domain if it fits, else the network."""
    fast = job["fast_bw"] * (axes_used if job["torus_axes"] else 1.0)
    return np.where(span <= job["domain"], fast, job["network_bw"]) * job["collective_fraction"]


def flops_per_token(job: dict) -> float:
    """Model FLOPs per token: 6 x active parameters + 12 L a d_head s (PaLM's convention: full, not causal, attention)."""
    return 6 * job["active_params"] + 12 * job["n_layers"] * job["n_heads"] * job["head_dim"] * job["seq_len"]


def evaluate(job: dict, lay: dict) -> dict:
    """Step time, its exposed parts, and memory per chip for every layout in `lay`."""
    tp, pp, vs, ep, cp, zero, mb, rc, sched = (lay[k] for k in ("tp", "pp", "vs", "ep", "cp", "zero", "mb", "rc", "sched"))
    etp = lay.get("etp", tp)  # tensor parallelism inside the experts (Megatron's parallel folding lets it differ from tp)
    n, L, h, s = job["n_chips"], job["n_layers"], job["d_model"], job["seq_len"]
    a, kv, hd, ff, V = job["n_heads"], job["n_kv_heads"], job["head_dim"], job["d_ff"], job["vocab_size"]
    dp = n / (tp * pp * cp)
    sequences = job["batch_tokens"] / s
    micro = np.ceil(sequences / (dp * mb))  # micro-batches per step; a remainder costs a whole micro-batch
    tokens = s * mb / cp  # tokens of one micro-batch on one chip
    full, selective = rc == 2, rc == 1
    moe_share = job["moe_layers"] / L if job["moe"] else 0.0
    k = job["moe_top_k"] if job["moe"] else 0.0

    # Compute per layer per micro-batch: GEMMs at their shape's speed, fused attention, element-wise kernels.
    q_out, kv_out = a * hd / tp, 2 * kv * hd / tp
    dense_gemms = [(tokens, h, q_out + kv_out, 1.0), (tokens, a * hd / tp, h, 1.0)]
    if job["moe"]:
        shared = job["moe_shared_experts"] * job["moe_d_ff"]
        if shared:
            dense_gemms += [(tokens, h, 2 * shared / tp, moe_share), (tokens, shared / tp, h, moe_share)]
        if job["moe_layers"] < L:
            dense_gemms += [(tokens, h, (job["mlp_matrices"] - 1) * ff / tp, 1 - moe_share), (tokens, ff / tp, h, 1 - moe_share)]
    else:
        dense_gemms += [(tokens, h, (job["mlp_matrices"] - 1) * ff / tp, 1.0), (tokens, ff / tp, h, 1.0)]
    dense_spf = _seconds_per_flop(job, dense_gemms)
    passes = np.where(full, 4.0, 3.0) / 3.0  # full recomputation repeats the forward pass (4/3 of the work)
    gemm_layer = 6 * job["dense_layer_params"] * tokens / tp * dense_spf * passes
    if job["moe"]:
        per_expert = tokens / tp * etp * k * ep / job["moe_experts"]  # tokens each local expert receives per micro-batch
        wide = job["moe_d_ff"] / etp
        expert_spf = _seconds_per_flop(job, [(per_expert, h, 2 * wide, 1.0), (per_expert, wide, h, 1.0)])
        gemm_layer = gemm_layer + 6 * job["routed_active"] / L * tokens / tp * expert_spf * passes
    if job["fused_attention"]:  # a FlashAttention-style kernel skips the masked half: causal FLOPs, and keeps no s x s matrix
        attention = 6 * a * hd * s * tokens / tp / (job["peak_bf16"] * job["attention_fraction"])
    else:  # scores and probabilities written out: two batched GEMMs over the full s x s, and the softmax and dropout pass over them
        scores = _seconds_per_flop(job, [(s, hd, s, 1.0), (s, s, hd, 1.0)])
        attention = 12 * a * hd * s * tokens / tp * scores + 20 * a * s * tokens / tp / (job["hbm_bw"] * job["hbm_fraction"])
    attention = attention * np.where(full | selective, 4.0, 3.0) / 3.0
    mlp_elements = (1 - moe_share) * job["mlp_matrices"] * ff + moe_share * (k + job["moe_shared_experts"]) * 3 * job["moe_d_ff"]
    elementwise = 2 * 3 * (10 * h + mlp_elements) * tokens / tp * passes / (job["hbm_bw"] * job["hbm_fraction"])
    compute_layer = gemm_layer + attention + elementwise
    head = 6 * V * h * tokens / tp * _seconds_per_flop(job, [(tokens, h, np.maximum(V / tp, 1.0), 1.0)]) if V else 0.0

    # Communication inside a layer, per micro-batch, and how much of it hides under compute.
    torus = job["torus_axes"]
    collectives = np.where(full, 12.0, 8.0)  # sequence parallelism: 2 all-gathers + 2 reduce-scatters per pass
    def ring(d):  # half the collectives (attention's or the MLP's) over d chips
        return np.where(d > 1, collectives / 2 * tokens * h * 2 * (d - 1) / d / _link(job, d), 0.0)
    tp_time = ring(tp) + (1 - moe_share) * ring(tp) + moe_share * ring(etp)  # MoE layers' MLP gathers over the expert TP group
    tp_exposed = tp_time - np.minimum(job["tp_overlap"] * tp_time, compute_layer)
    kv_bytes = tokens * 2 * np.maximum(kv / tp, 1.0) * hd * 2
    cp_time = np.where(cp > 1, np.where(full, 4.0, 3.0) * (cp - 1) * kv_bytes / _link(job, tp * cp), 0.0)
    cp_exposed = np.maximum(0.0, cp_time - attention)
    if job["moe"]:
        per_copy = tokens / tp * h * ((1.0 if job["precision"] == "fp8" else 2.0) + 2.0)  # dispatch (fp8 under fp8) and combine, bf16
        inside = np.clip(np.floor(job["domain"] / etp), 1.0, ep)  # expert ranks: expert TP innermost, then EP (parallel folding)
        domains = ep / inside
        # A token crosses the network once per other domain holding one of its k experts, then fans out inside it (DeepEP).
        remote = (domains - 1) * (1 - (1 - 1 / domains) ** k)
        local = k * (inside - 1) / ep
        pair = per_copy * (local / (job["fast_bw"] * job["collective_fraction"]) + remote / (job["network_bw"] * job["collective_fraction"]))
        ep_time = np.where(ep > 1, np.where(full, 3.0, 2.0) * pair * moe_share, 0.0)
        dualpipe = sched == SCHED["dualpipe"]
        ep_hidden = np.where(dualpipe, np.minimum(ep_time, compute_layer), np.minimum(job["ep_overlap"] * ep_time, compute_layer))
        ep_exposed = ep_time - ep_hidden
    else:
        ep_time = ep_exposed = np.zeros_like(tp)
    layer = compute_layer + tp_exposed + cp_exposed + ep_exposed

    # Pipeline: the slowest stage sets the pace; the last one also runs the output layer.
    per_device = np.ceil(L / (pp * vs)) * vs
    stage_units = np.where(pp > 1, np.maximum(per_device, (L + head / layer) / pp), L + head / layer)
    stage = stage_units * layer  # one micro-batch through the slowest stage
    compute_mb = stage_units * compute_layer
    bubble_units = np.select([sched == SCHED["interleaved"], sched == SCHED["zero_bubble"], sched == SCHED["dualpipe"]],
                             [(pp - 1) / vs, (pp - 1) / 3, np.maximum(pp / 2 - 1, 0) / 3], default=pp - 1)
    p2p = tokens * h * 2 / tp / _link(job, n / pp)
    bubble = np.where(pp > 1, bubble_units * stage + 2 * (pp - 1) * vs * p2p, 0.0)

    # Data parallelism: gradient reduce-scatter and parameter all-gather, overlapped with the backward and forward passes.
    layers_here = np.where(pp > 1, np.ceil(L / (pp * vs)) * vs, L)
    emb_share = np.where(pp > 1, 0.5, 1.0) * job["embedding_params"]
    dense_chip = (job["dense_layer_params"] * layers_here + emb_share) / tp
    expert_chip = job["routed_params"] / L * layers_here / (ep * etp) if job["moe"] else 0.0 * tp
    dp_group, expert_group = dp * cp, dp * cp * tp / (ep * etp)
    dp_axes = np.maximum(1.0, torus - (tp > 1) - (cp > 1) - (ep > 1)) if torus else 1.0
    fast_dp = job["fast_bw"] * dp_axes
    rs = (_group_time(job, 2 * dense_chip, dp_group, tp, fast_dp)
          + np.where(expert_group > 1, _group_time(job, 2 * expert_chip, expert_group, etp * ep, fast_dp), 0.0))
    backward, forward = compute_mb * 2 / 3, compute_mb / 3
    dp_exposed = np.select(
        [zero == 0, zero == 1, zero == 2],
        [np.maximum(0.0, 2 * rs - backward),
         np.maximum(0.0, rs - backward) + np.maximum(0.0, rs - forward),
         micro * np.maximum(0.0, rs - backward) + np.maximum(0.0, rs - forward)],
        default=micro * (np.maximum(0.0, rs - forward) + np.maximum(0.0, 2 * rs - backward)))
    dp_exposed = np.where(dp_group > 1, dp_exposed, 0.0)

    # Memory per chip on the fullest stage.
    sharded = dense_chip / dp_group + expert_chip / np.maximum(expert_group, 1.0)
    unsharded = dense_chip + expert_chip
    copies = np.where(sched == SCHED["dualpipe"], 2.0, 1.0)  # DualPipe keeps two copies of the parameters
    weights = 2 * np.where(zero >= 3, sharded, unsharded) * copies
    grads = 2 * np.where(zero >= 2, sharded, unsharded)
    optimizer = 12 * np.where(zero >= 1, sharded, unsharded)
    attn_act = 2 * h + 4 * a * hd + 4 * kv * hd + 4 * h  # inputs, q, k, v, attention output, and the two norms' inputs
    mlp_act = (1 - moe_share) * (2 * h + 2 * job["mlp_matrices"] * ff)
    if job["moe"]:
        mlp_act = mlp_act + moe_share * (2 * h + k * (2 * h + 6 * job["moe_d_ff"]) + job["moe_shared_experts"] * 6 * job["moe_d_ff"])
    if not job["fused_attention"]:  # Korthikanti et al.: 5as/h more per token (scores, softmax, dropout mask), unless recomputed
        attn_act = attn_act + np.where(selective, 0.0, 5 * a * s)
    kept = np.where(full, 2 * h, attn_act + mlp_act)  # full recomputation keeps each layer's input only
    act_layer = kept * tokens / tp
    one_layer = (attn_act + mlp_act) * tokens / tp  # the layer being recomputed or computed
    inflight = np.select([sched == SCHED["gpipe"], sched == SCHED["dualpipe"]], [micro, np.minimum(pp + 1, micro)],
                         default=np.minimum(pp, micro))
    inflight = inflight * np.where(sched == SCHED["interleaved"], 1 + (pp - 1) / (pp * vs), 1.0)
    logits = tokens * V / tp * 6  # bf16 logits and their fp32 softmax
    first = act_layer * layers_here * np.where(pp > 1, inflight, 1.0) + np.where(full, one_layer, 0.0)
    last = act_layer * layers_here + np.where(full, one_layer, 0.0) + logits
    activations = np.where(pp > 1, np.maximum(first, last), first + logits)
    buffers = (np.where(tp > 1, 2 * tokens * h * 2, 0.0) + np.where(zero >= 3, 2 * 2 * (job["dense_layer_params"] / tp
               + (job["routed_params"] / L / (ep * etp) if job["moe"] else 0.0)), 0.0))
    if job["moe"]:
        buffers = buffers + np.where(ep > 1, 2 * tokens / tp * k * h * 2, 0.0)

    # Offloading to host memory trades HBM for host-link time.
    offload = np.zeros_like(tp)
    host_bytes = np.zeros_like(tp)
    if job["offload"] in ("optimizer", "both"):
        host_bytes = host_bytes + optimizer
        offload = offload + 4 * np.where(zero >= 1, sharded, unsharded) / job["host_bw"]
        optimizer = np.zeros_like(tp)
    if job["offload"] in ("activations", "both"):
        host_bytes = host_bytes + np.maximum(activations - 2 * act_layer, 0.0)
        offload = offload + micro * np.maximum(0.0, 2 * act_layer * layers_here / job["host_bw"] - compute_mb)
        activations = np.minimum(activations, 2 * act_layer + logits)

    optimizer_step = 30 * np.where(zero >= 1, sharded, unsharded) / (job["hbm_bw"] * job["hbm_fraction"])
    times = {
        "compute": (micro * compute_mb + optimizer_step) / job["step_overhead"],
        "tp_comm": micro * stage_units * tp_exposed,
        "pp_bubble": bubble,
        "dp_comm": dp_exposed,
        "ep_comm": micro * stage_units * ep_exposed,
        "cp_comm": micro * stage_units * cp_exposed,
        "offload": offload,
    }
    step_time = sum(times.values())
    memory = {"weights": weights, "grads": grads, "optimizer": optimizer, "activations": activations, "buffers": buffers}
    total = sum(memory.values())
    tokens_per_s = job["batch_tokens"] / (step_time * n)
    model_flops = flops_per_token(job) * tokens_per_s
    fits = (total <= 0.8 * job["hbm"]) & ((host_bytes == 0) | (host_bytes <= (job["host_bytes"] or 0) * 0.8))
    return {
        "step_time_s": step_time, "tokens_per_s_per_chip": tokens_per_s, "model_flop_per_s_per_chip": model_flops,
        "mfu": model_flops / job["peak"], "times": times, "memory": memory, "memory_bytes_per_chip": total,
        "memory_fraction_of_hbm": total / job["hbm"], "fits_memory": fits, "dp_degree": dp, "microbatches": micro,
        # figures the working quotes
        "tokens_mb": tokens, "gemm_layer": gemm_layer, "attention_layer": attention, "elementwise_layer": elementwise,
        "compute_layer": compute_layer, "stage_units": stage_units, "compute_mb": compute_mb, "bubble_units": bubble_units,
        "tp_time": tp_time, "cp_time": cp_time, "ep_time": ep_time, "rs_time": rs, "dense_spf": dense_spf,
        "optimizer_step": optimizer_step, "params_chip": unsharded, "act_layer": act_layer, "inflight": inflight,
        "host_bytes": host_bytes,
    }


def binding(result: dict):
    """What limits each layout: memory when it does not fit, else the largest part of its step time (compute included)."""
    names = np.array(BINDING_PARTS)
    stacked = np.stack([result["times"][name] for name in BINDING_PARTS])
    label = names[np.argmax(stacked, axis=0)]
    label = np.where(label == "offload", "memory", label)  # offloading is there because memory is short
    return np.where(result["fits_memory"], label, "memory")


def binding_share(result: dict, bind, i: int) -> float:
    """The share of layout i's step time that its binding constraint takes (memory: the share of HBM it needs)."""
    if bind[i] == "memory" and not result["fits_memory"][i]:
        return float(result["memory_fraction_of_hbm"][i])
    part = "offload" if bind[i] == "memory" else str(bind[i])
    return float(result["times"][part][i] / result["step_time_s"][i])
