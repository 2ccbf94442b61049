"""The cost model of one parallel layout, vectorised over arrays of layouts: step time and memory, assembled from named parts.

`evaluate(job, lay)` takes layout_inputs.resolve_job's job and a dict of float arrays of equal length (tp, pp, vs, ep, etp, cp,
zero, mb, rc: 0 none 1 selective 2 full, sched: an index into SCHEDULES) and reads them as the typed Job and Layouts of
layout_job. The parts: layout_compute (matrix multiplies, attention, memory-bound kernels, optimizer step), layout_comm
(TP, CP, EP, PP and DP communication), the pipeline bubble here, and layout_memory.
"""

import numpy as np

from .layout_comm import (context_parallel_time, data_parallel_time, expert_parallel_time, exposed_data_parallel, pipeline_p2p_time,
                          tensor_parallel_time)
from .layout_compute import layer_compute, optimizer_step_time, output_layer_time
from .layout_compute import shape_efficiency as _shape_efficiency
from .layout_job import Job, Layouts
from .layout_memory import memory as memory_parts

TIME_PARTS = ("compute", "tp_comm", "pp_bubble", "dp_comm", "ep_comm", "cp_comm")
MEMORY_PARTS = ("weights", "grads", "optimizer", "activations", "buffers", "reserve")
BINDING_PARTS = ("compute", "tp_comm", "pp_bubble", "dp_comm", "ep_comm", "cp_comm", "offload")


def shape_efficiency(job: dict, m, k, n):
    """Speed of an m x k x n GEMM relative to 8192^3 for a resolved job (the working quotes it)."""
    return _shape_efficiency(Job.from_resolved(job), m, k, n)


def flops_per_token(job: dict) -> float:
    """Model FLOPs per token: 6 x active parameters + 12 L a d_head s (PaLM's convention: full, not causal, attention)."""
    return 6 * job["active_params"] + 12 * job["n_layers"] * job["n_heads"] * job["head_dim"] * job["seq_len"]


def bubble_units(lay: Layouts):
    """The pipeline bubble in stage-times per step, by schedule (Narayanan et al. 2021; DeepSeek-V3 report, Table 2)."""
    pp, vs = lay.pipeline, lay.virtual
    return np.select([lay.is_schedule("interleaved"), lay.is_schedule("zero_bubble"), lay.is_schedule("dualpipe")],
                     [(pp - 1) / vs, (pp - 1) / 3, np.maximum(pp / 2 - 1, 0) / 3], default=pp - 1)


def overlapped(exposed_share, comm, compute):
    """Communication left exposed when `exposed_share` of it cannot hide and the rest hides under at most `compute`."""
    return comm - np.minimum((1 - exposed_share) * comm, compute)


def evaluate(resolved: dict, lay_arrays: dict) -> dict:
    """Step time, its exposed parts, and memory per chip for every layout in `lay_arrays`."""
    job, lay = Job.from_resolved(resolved), Layouts.from_arrays(lay_arrays)
    tp, pp, vs, ep, zero = lay.tensor, lay.pipeline, lay.virtual, lay.expert, lay.zero
    L = job.layers
    dp, micro, tokens = lay.data(job), lay.microbatches(job), lay.tokens(job)

    # Compute of one layer and micro-batch, and the communication inside it.
    compute = layer_compute(job, lay, tokens)
    compute_layer = compute["total"]
    tp_time = tensor_parallel_time(job, lay, tokens)
    tp_exposed = overlapped(1 - job.tp_overlap, tp_time, compute_layer)
    cp_time = context_parallel_time(job, lay, tokens)
    cp_exposed = np.maximum(0.0, cp_time - compute["attention"])  # ring attention hides its exchange under attention
    ep_time = expert_parallel_time(job, lay, tokens)
    hidden_share = np.where(lay.is_schedule("dualpipe"), 1.0, job.ep_overlap)  # DualPipe overlaps it with another micro-batch
    ep_exposed = ep_time - np.minimum(hidden_share * ep_time, compute_layer)
    layer = compute_layer + tp_exposed + cp_exposed + ep_exposed

    # Pipeline: the slowest stage sets the pace; the last one also runs the output layer.
    head = output_layer_time(job, lay, tokens)
    per_device = np.ceil(L / (pp * vs)) * vs
    stage_units = np.where(pp > 1, np.maximum(per_device, (L + head / layer) / pp), L + head / layer)
    compute_mb = stage_units * compute_layer
    units = bubble_units(lay)
    bubble = np.where(pp > 1, units * stage_units * layer + 2 * (pp - 1) * vs * pipeline_p2p_time(job, lay, tokens), 0.0)

    # Data parallelism over this chip's share of the parameters, overlapped with the backward and forward passes.
    layers_here = np.where(pp > 1, per_device, L)
    embedding_here = np.where(pp > 1, 0.5, 1.0) * job.embedding_params
    dense_here = (job.dense_layer_params * layers_here + embedding_here) / tp
    experts_here = job.routed_params / L * layers_here / (ep * lay.expert_tensor) if job.moe else 0.0 * tp
    rs, dp_group, expert_group = data_parallel_time(job, lay, dense_here, experts_here)
    dp_exposed = np.where(dp_group > 1, exposed_data_parallel(lay, rs, compute_mb, micro), 0.0)

    mem = memory_parts(job, lay, tokens, micro, layers_here, dense_here, experts_here, dp_group, expert_group)
    optimizer, activations = mem["optimizer"], mem["activations"]
    state_params = np.where(zero >= 1, mem["sharded"], mem["unsharded"])

    # Offloading to host memory trades HBM for host-link time.
    offload = np.zeros_like(tp)
    host_bytes = np.zeros_like(tp)
    if job.offload in ("optimizer", "both"):
        host_bytes = host_bytes + optimizer
        offload = offload + 4 * state_params / job.host_bandwidth
        optimizer = np.zeros_like(tp)
    if job.offload in ("activations", "both"):
        host_bytes = host_bytes + np.maximum(activations - 2 * mem["per_layer"], 0.0)
        offload = offload + micro * np.maximum(0.0, 2 * mem["per_layer"] * layers_here / job.host_bandwidth - compute_mb)
        activations = np.minimum(activations, 2 * mem["per_layer"] + mem["logits"])

    optimizer_step = optimizer_step_time(job, state_params)
    times = {
        "compute": (micro * compute_mb + optimizer_step) / job.step_overhead,
        "tp_comm": micro * stage_units * tp_exposed,
        "pp_bubble": bubble,
        "dp_comm": dp_exposed,
        "ep_comm": micro * stage_units * ep_exposed,
        "cp_comm": micro * stage_units * cp_exposed,
        "offload": offload,
    }
    step_time = sum(times.values())
    memory = {"weights": mem["weights"], "grads": mem["grads"], "optimizer": optimizer, "activations": activations, "buffers": mem["buffers"],
              "reserve": mem["reserve"]}
    total = sum(memory.values())
    tokens_per_s = job.batch_tokens / (step_time * job.chips)
    model_flops = flops_per_token(resolved) * tokens_per_s
    fits = (total <= job.memory_line * job.hbm_bytes) & ((host_bytes == 0) | (host_bytes <= job.host_bytes * 0.8))
    return {
        "step_time_s": step_time, "tokens_per_s_per_chip": tokens_per_s, "model_flop_per_s_per_chip": model_flops,
        "mfu": model_flops / job.peak_flops, "times": times, "memory": memory, "memory_bytes_per_chip": total,
        "memory_fraction_of_hbm": total / job.hbm_bytes, "fits_memory": fits, "memory_line": job.memory_line, "dp_degree": dp, "microbatches": micro,
        # figures the working quotes
        "tokens_mb": tokens, "gemm_layer": compute["gemm"], "attention_layer": compute["attention"], "elementwise_layer": compute["memory_bound"],
        "compute_layer": compute_layer, "stage_units": stage_units, "compute_mb": compute_mb, "bubble_units": units,
        "tp_time": tp_time, "cp_time": cp_time, "ep_time": ep_time, "rs_time": rs, "dense_spf": compute["dense_seconds_per_flop"],
        "optimizer_step": optimizer_step, "params_chip": mem["unsharded"], "act_layer": mem["per_layer"], "inflight": mem["in_flight"],
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
