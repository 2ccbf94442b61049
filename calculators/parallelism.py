"""When data parallelism stays compute-bound, when pipeline parallelism is needed, and its bubble."""

import math

import numpy as np
from numpy import ndarray  # bound once: numpy's module defines __getattr__, so the interpreter cannot cache np.ndarray lookups

from .errors import CalculatorInputError
from .formatting import human as h
from .registry import BATCH_TOKENS_BEYOND, MAX_BATCH_TOKENS, Calculator, Field, register
from .scalars import all_true, any_true, is_sweep
from .working import render, step, word

SCALING_BOOK = "Austin et al., How to Scale Your Model (JAX scaling book), training.md and gpus.md: data parallelism is compute-bound while tokens per chip > C/W (x E/k for MoE); model parallelism over M nodes multiplies W by M"
MEGATRON_BUBBLE = "Narayanan et al. 2021 (Megatron-LM), sections 2.2.1-2.2.2: bubble / ideal time = (p-1)/m, interleaved (p-1)/(v m)"
GPIPE = "Huang et al. 2019, GPipe: bubble (K-1)/(M+K-1) of the step, all microbatches' activations held"


def _moe_factor(v: dict, steps: list[dict]):
    experts, top_k = v.get("moe_experts"), v.get("moe_top_k")
    if experts is None and top_k is None:
        return 1.0
    if experts is None or top_k is None:
        raise CalculatorInputError("moe_top_k" if top_k is None else "moe_experts", "is needed with the other MoE field (give moe_experts and moe_top_k together)")
    if any_true(top_k > experts):
        raise CalculatorInputError("moe_top_k", "cannot exceed moe_experts")
    factor = experts / top_k
    steps.append(step("moe.factor", experts=(experts, "count"), top_k=(top_k, "count"), factor=factor))
    return factor


def dp_critical_batch(v: dict):
    """Critical tokens per chip = C / (W x M) x E/k (scaling book, training.md 'data parallelism')."""
    steps: list[dict] = []
    peak, bw, span = v["peak_flop_per_s"], v["bandwidth_bytes_per_s"], v["model_parallel_span"]
    effective = bw * span
    base = peak / effective
    span_note = step("dp_critical_batch.span_note", bandwidth=(bw, "bytes_per_s"), span=(span, "count")) if any_true(span != 1) else ""
    steps.append(step("dp_critical_batch.compute_per_byte", peak=(peak, "flop_per_s"), effective=(effective, "bytes_per_s"), span_note=span_note,
                      base=(base, "count")))
    factor = _moe_factor(v, steps)
    critical = base * factor
    steps.append(step("dp_critical_batch.critical", critical=(critical, "count")))
    assumptions = ["communication overlaps perfectly with compute (the book's roofline); in practice leave a margin",
                   "the bandwidth is the one data-parallel gradient traffic crosses (node egress across nodes, ICI within a TPU pod)"]
    return {"critical_tokens_per_chip": critical}, steps, assumptions


def _power_of_two_at_least(x):
    """Smallest power of two >= max(x, 1), exactly: frexp splits x = m 2^e with m in [0.5, 1) (no rounded log2)."""
    if isinstance(x, ndarray):
        mantissa, exponent = np.frexp(np.maximum(x, 1.0))
        return np.ldexp(1.0, np.where(mantissa == 0.5, exponent - 1, exponent))
    mantissa, exponent = math.frexp(max(float(x), 1.0))
    return math.ldexp(1.0, exponent - 1 if mantissa == 0.5 else exponent)


def _largest_power_of_two_at_most(x: float) -> float:
    return math.ldexp(1.0, math.frexp(max(float(x), 1.0))[1] - 1)


def _remedies(v: dict, span_chips: float, tokens_per_chip: float, factor: float, steps: list[dict]) -> str:
    """Why no pipeline degree fits, and what would make the job compute-bound instead; steps for the working, English for the verdict.

    The deepest pipeline that fits (at most one stage per layer, inside the job) is the base of each remedy: the
    batch that would be compute-bound with it, the per-node bandwidth that would, and the expert or tensor
    parallelism that would widen the model-parallel span to the `span_chips` it needs.
    """
    n, peak, bw = v["n_chips"], v["peak_flop_per_s"], v["dp_bandwidth_bytes_per_s"]
    per_node, tp, pp, ep, layers = v["chips_per_node"], v["tp_degree"], v["pp_degree"], v["ep_degree"], v.get("n_layers")
    room = n / (tp * ep)
    limit = min(room, layers) if layers is not None else room
    exact = float(math.ceil(span_chips / (tp * ep) - 1e-9))  # the stages it would take, uneven stages allowed
    why = (step("pp_necessity.no_pp_layers", wanted=(exact, "count"), layers=(layers, "count"))
           if layers is not None and exact > layers else step("pp_necessity.no_pp_chips", wanted=(exact, "count"), n=(n, "count")))
    deepest = max(pp, _largest_power_of_two_at_most(limit))
    if tp * deepest * ep <= per_node:  # a pipeline inside one node widens nothing: the remedies start from the layout as given
        deepest = pp
    span = max(1.0, tp * deepest * ep / per_node)
    batch = peak / (bw * span) * factor * n
    bandwidth = peak * factor / (tokens_per_chip * span)
    found = [why, step("pp_necessity.remedy_batch", batch=(batch, "count"), pp=(deepest, "count")),
             step("pp_necessity.remedy_bandwidth", bandwidth=(bandwidth, "bytes_per_s"), now=(bw, "bytes_per_s"), pp=(deepest, "count"))]
    experts = v.get("moe_experts")
    if experts:
        min_ep = _power_of_two_at_least(span_chips / (tp * deepest))
        if ep < min_ep <= experts and tp * deepest * min_ep <= n:
            found.append(step("pp_necessity.remedy_ep", ep=(min_ep, "count"), pp=(deepest, "count")))
    min_tp = _power_of_two_at_least(span_chips / (deepest * ep))
    if tp < min_tp and min_tp * deepest * ep <= n:
        found.append(step("pp_necessity.remedy_tp", tp=(min_tp, "count"), pp=(deepest, "count"), per_node=(per_node, "count")))
    steps.extend(found)
    return "; ".join(render(found, "en"))


def pp_necessity(v: dict):
    """Is the job DP-communication bound, and which pipeline degree lifts it out (scaling book gpus.md)."""
    steps: list[dict] = []
    batch, n, peak, bw = v["global_batch_tokens"], v["n_chips"], v["peak_flop_per_s"], v["dp_bandwidth_bytes_per_s"]
    per_node, tp, pp, ep = v["chips_per_node"], v["tp_degree"], v["pp_degree"], v["ep_degree"]
    sweep = v["_sweep"] and any(is_sweep(x) for x in (batch, n, peak, bw, per_node, tp, pp, ep, v.get("moe_experts"), v.get("moe_top_k"),
                                                     v.get("n_layers")))
    group = tp * pp * ep
    if any_true(group > n):
        raise CalculatorInputError("n_chips", "is smaller than tp_degree x pp_degree x ep_degree, one model replica")
    tokens_per_chip = batch / n
    tokens_value = (tokens_per_chip, "count")
    steps.append(step("pp_necessity.tokens_per_chip", batch=(batch, "count"), n=(n, "count"), tokens_per_chip=tokens_value))
    span = np.maximum(1.0, group / per_node) if sweep else max(1.0, group / per_node)
    effective = bw * span
    span_value, effective_value = (span, "count"), (effective, "bytes_per_s")
    steps.append(step("pp_necessity.span", group=(group, "count"), per_node=(per_node, "count"), span=span_value, bandwidth=(bw, "bytes_per_s"),
                      effective=effective_value))
    base = peak / effective
    factor = _moe_factor(v, steps)
    critical = base * factor
    critical_value = (critical, "count")
    steps.append(step("pp_necessity.critical", peak=(peak, "flop_per_s"), effective=effective_value, factor=factor, critical=critical_value))
    ratio = critical / tokens_per_chip
    bound = tokens_per_chip < critical
    conclusion = "word.per_configuration" if sweep else "word.dp_comm_bound" if bound else "word.compute_hides_comm"
    steps.append(step("pp_necessity.ratio", critical=critical_value, tokens_per_chip=tokens_value, ratio=ratio, conclusion=word(conclusion)))
    # Smallest power-of-two PP degree whose span brings the critical batch under tokens per chip; a stage holds at
    # least one layer, so never more stages than layers.
    layers = v.get("n_layers")
    needed_span = (peak / bw) * factor / tokens_per_chip
    min_batch = critical * n  # the global batch at which this layout is compute-bound
    if sweep:
        stages = needed_span * per_node / (tp * ep)
        min_pp = np.where(needed_span <= 1.0, 1.0, _power_of_two_at_least(stages))
        if layers is not None:  # as below: uneven stages where the power of two exceeds the layers
            exact = np.ceil(stages - 1e-9)
            min_pp = np.where((min_pp > layers) & (exact <= layers), exact, min_pp)
        feasible = min_pp * tp * ep <= n
        if layers is not None:
            feasible = feasible & (min_pp <= layers)
        min_pp_value = np.where(feasible, min_pp, np.nan)
    else:
        min_pp = 1.0 if needed_span <= 1.0 else _power_of_two_at_least(needed_span * per_node / (tp * ep))
        if layers is not None and min_pp > layers:
            exact = math.ceil(needed_span * per_node / (tp * ep) - 1e-9)  # uneven stages: any degree up to the layers
            if exact <= layers:
                min_pp = float(exact)
        feasible = min_pp * tp * ep <= n and (layers is None or min_pp <= layers)
        min_pp_value = min_pp if feasible else math.nan
    if not sweep:
        min_pp_out = None if math.isnan(min_pp_value) else int(min_pp_value)
        tokens_text, critical_text = h(tokens_per_chip, 'count'), h(critical, 'count')
        if layers is not None and pp > layers:
            v["_warnings"].append(step("warning.pp_beyond_layers", pp=(pp, "count"), layers=(layers, "count")))
        if not bound and (min_pp_out == 1 or pp == 1):
            verdict = (f"compute-bound without pipeline parallelism: {tokens_text} tokens per chip is at least the "
                       f"{critical_text} needed")
        elif not bound:  # compute-bound only thanks to the pipeline degree already in use
            verdict = (f"compute-bound with pipeline parallelism of degree {h(pp, 'count')}: {tokens_text} tokens per chip is at least "
                       f"the {critical_text} needed; without it the job would be DP-communication bound"
                       + (f" (degree {min_pp_out} is the least that avoids it)" if min_pp_out is not None else ""))
        elif min_pp_out is None:
            remedy = _remedies(v, needed_span * per_node, tokens_per_chip, factor, steps)
            verdict = f"DP-communication bound ({tokens_text} tokens per chip < {critical_text}); " + remedy
        else:
            verdict = (f"DP-communication bound: {tokens_text} tokens per chip < {critical_text}; pipeline parallelism of degree "
                       f"{min_pp_out} (or other model parallelism spanning as many chips) makes it compute-bound")
            experts = v.get("moe_experts")
            if experts and ep == 1:  # for a mixture of experts, spreading the experts widens the span just as well
                min_ep = _power_of_two_at_least(needed_span * per_node / (tp * pp))
                if min_ep <= experts and min_ep * tp * pp <= n:
                    verdict += f"; so does expert parallelism over {int(min_ep)} chips (ep_degree)"
        if min_pp_out is not None:
            steps.append(step("pp_necessity.min_pp", min_pp=(min_pp_out, "count")))
        elif not bound:  # when bound, _remedies wrote why no degree fits and what would
            steps.append(step("pp_necessity.min_pp_none"))
        outputs_verdict = verdict
    else:
        min_pp_out = min_pp_value
        outputs_verdict = np.where(~bound, "compute_bound", np.where(feasible, "needs_pp", "pp_cannot_fix"))
    assumptions = [
        "perfect overlap of gradient communication with compute (the scaling book's roofline); real systems need some margin",
        "dp bandwidth is what gradient traffic crosses at cluster scale: a GPU node's scale-out egress shared by its chips, or a TPU chip's ICI links",
        "pipeline stages sit on different nodes; the pipeline bubble and activation memory are separate costs (see pipeline_bubble)",
    ]
    if v.get("n_layers") is None:
        assumptions.append("the model's layer count is not known, so the pipeline degree is not capped by it (a stage needs at least one layer)")
    if any_true(factor > 1) and all_true(ep == 1):
        assumptions.append("no expert parallelism: experts are replicated on every chip; expert parallelism across nodes (ep_degree) also widens the span")
    outputs = {
        "tokens_per_chip": tokens_per_chip,
        "critical_tokens_per_chip": critical,
        "effective_dp_bandwidth_bytes_per_s": effective,
        "comm_to_compute_ratio": ratio,
        "dp_comm_bound": bound if is_sweep(bound) else bool(bound),
        "min_pp_degree": min_pp_out,
        "min_global_batch_tokens": min_batch,
        "verdict": outputs_verdict,
    }
    return outputs, steps, assumptions


def pipeline_bubble(v: dict):
    """Bubble over ideal (p-1)/(v m) and fraction (p-1)/(v m + p - 1); interleaving costs 1+(p-1)/(p v) activations."""
    p, m, virtual, schedule = v["pp_degree"], v["microbatches"], v["virtual_stages"], v["schedule"]
    steps: list[dict] = []
    assumptions: list[str] = []
    if any_true(virtual > 1) and schedule != "interleaved":
        if schedule == "gpipe":
            raise CalculatorInputError("virtual_stages", "above 1 needs schedule interleaved (GPipe has one stage per device)")
        schedule = "interleaved"
        steps.append(step("pipeline_bubble.interleaved_implied"))
    if schedule != "interleaved":
        virtual = virtual * 0 + 1.0
    over_ideal = (p - 1) / (virtual * m)
    fraction = (p - 1) / (virtual * m + p - 1)
    steps.append(step("pipeline_bubble.over_ideal", p=(p, "count"), v=(virtual, "count"), m=(m, "count"), over_ideal=(over_ideal, "fraction")))
    steps.append(step("pipeline_bubble.fraction", fraction=(fraction, "fraction")))
    if schedule == "gpipe":
        inflight = m
        memory = m / np.minimum(p, m)
        steps.append(step("pipeline_bubble.gpipe", m=(m, "count"), memory=memory))
    elif schedule == "1f1b":
        inflight = np.minimum(p, m)
        memory = inflight * 0 + 1.0
        steps.append(step("pipeline_bubble.1f1b", inflight=(inflight, "count")))
    else:
        inflight = np.minimum(p, m)
        memory = 1 + (p - 1) / (p * virtual)
        steps.append(step("pipeline_bubble.interleaved", memory=memory, v=(virtual, "count")))
        if not is_sweep(m) and not is_sweep(p) and m % p:
            assumptions.append(f"Megatron-LM's interleaved schedule needs microbatches divisible by pp_degree ({h(m, 'count')} is not a multiple of {h(p, 'count')})")
    assumptions.append("equal stage times and negligible point-to-point transfer time; zero-bubble and DualPipe schedules fill part of this bubble")
    outputs = {"bubble_over_ideal": over_ideal, "bubble_fraction": fraction, "peak_inflight_microbatches": inflight, "activation_memory_factor": memory}
    return outputs, steps, assumptions


_PEAK = Field("peak_flop_per_s", "flop_per_s", "peak dense bf16 FLOP/s per chip (C)")
_MOE = (
    Field("moe_experts", "count", "experts per MoE layer (dense model if absent)", default=None, integer=True),
    Field("moe_top_k", "count", "experts each token is routed to", default=None, integer=True),
)

register(Calculator(
    name="dp_critical_batch",
    summary="Smallest tokens per chip per step at which data-parallel training stays compute-bound (C/W x E/k).",
    fields=(
        _PEAK,
        Field("bandwidth_bytes_per_s", "bytes_per_s", "bandwidth data-parallel gradient traffic crosses (W)"),
        *_MOE,
        Field("model_parallel_span", "count", "nodes a model-parallel group spans (multiplies W)", default=1.0),
    ),
    compute=dp_critical_batch,
    sources=(SCALING_BOOK,),
    takes_chip=True,
    takes_model=True,
    model_fields=("moe_experts", "moe_top_k"),
))

register(Calculator(
    name="pp_necessity",
    nan_means_none=("min_pp_degree",),
    summary="Is training DP-communication bound at this batch and scale, and what pipeline degree would fix it?",
    fields=(
        Field("global_batch_tokens", "count", "tokens per optimizer step across the job", minimum=1.0, maximum=MAX_BATCH_TOKENS, beyond=BATCH_TOKENS_BEYOND),
        Field("n_chips", "count", "chips in the job", integer=True),
        _PEAK,
        Field("dp_bandwidth_bytes_per_s", "bytes_per_s", "bandwidth data-parallel traffic crosses per node (W)"),
        Field("chips_per_node", "count", "chips sharing that bandwidth (a GPU node; 1 for a TPU chip's own ICI links)", integer=True),
        Field("tp_degree", "count", "tensor-parallel degree", default=1.0, integer=True),
        Field("pp_degree", "count", "pipeline-parallel degree already used", default=1.0, integer=True),
        Field("ep_degree", "count", "expert-parallel degree (experts split over this many chips)", default=1.0, integer=True),
        *_MOE,
        Field("n_layers", "count", "transformer layers: a pipeline has at most one stage per layer (from model)", default=None, integer=True),
    ),
    compute=pp_necessity,
    sources=(SCALING_BOOK,),
    takes_chip=True,
    takes_model=True,
    model_fields=("moe_experts", "moe_top_k", "n_layers"),
))

register(Calculator(
    name="pipeline_bubble",
    summary="Idle share of a pipeline-parallel step (the bubble) and its activation-memory cost, by schedule.",
    fields=(
        Field("pp_degree", "count", "pipeline stages (p)", integer=True),
        Field("microbatches", "count", "microbatches per step (m)", integer=True),
        Field("virtual_stages", "count", "model chunks per device for the interleaved schedule (v)", default=1.0, integer=True),
        Field("schedule", "choice", "pipeline schedule", default="1f1b", choices=("1f1b", "gpipe", "interleaved")),
    ),
    compute=pipeline_bubble,
    sources=(MEGATRON_BUBBLE, GPIPE),
))
