"""Stage 4: for each claim with numbers, the calculator that checks that claim, filled with the text's own figures.

Just over 500 lines: one checker per kind of claim (MFU, time, memory, bandwidth, bubble, roofline,
configuration) sharing the Inputs record of where each input came from; the arithmetic and pipeline
checks live in arith_check.py and pp_check.py.
"""

import json
import re

import calculators
from calculators import catalog, jsonable

from service.explain import grounding, pattern_cache, restate, terms
from service.explain.claims import cue
from service.explain.document import Claim, Document
from service.i18n.messages import join_names, messages

PP_FRAMES = ("pp_only_when_dp_bound", "pp_not_needed", "fast_links_no_pp", "dp_comms_bound", "pp_needed")
MAX_MODELS = 3
MAX_CHIPS = 4
# A stated result agrees with the calculation within this share (twice as wide when the text says "about").
TOLERANCE = 0.1
# Inputs a calculator takes from a chip or a model of the catalog when it is named.
CHIP_FIELDS = {"peak_flop_per_s", "dp_bandwidth_bytes_per_s", "chips_per_node", "memory_bandwidth_bytes_per_s", "bandwidth_bytes_per_s"}
MODEL_FIELDS = {"params", "moe_experts", "moe_top_k", "n_layers", "n_heads", "head_dim", "d_model", "seq_len"}


class Inputs:
    """A calculator's inputs with where each came from (DESIGN.md `input_sources`)."""

    def __init__(self, lang: str):
        self.lang = lang
        self.values: dict = {}
        self.sources: dict[str, dict] = {}
        self.assumptions: list[str] = []

    def text(self, name: str, fig) -> None:
        self.values[name] = fig.value
        self.sources[name] = {"source": "text", "quote": fig.quote}

    def catalog(self, name: str, value, origin: str) -> None:
        self.values[name] = value
        self.sources[name] = {"source": "catalog", "from": origin}

    def derived(self, name: str, value, origin: str) -> None:
        self.values[name] = value
        self.sources[name] = {"source": "derived", "from": origin}

    def assumed(self, name: str, value, key: str, **fields) -> None:
        self.values[name] = value
        sentence = messages(self.lang)["assumed"][key].format(**fields)
        self.sources[name] = {"source": "assumed", "why": sentence}
        self.assumptions.append(sentence)


def _fig(doc: Document, claim: Claim, *quantities: str):
    """The figure of the first of `quantities` the claim states, else the document, else the earlier turns."""
    for pool in (claim.figures, doc.figures, doc.previous.figures if doc.previous else []):
        for quantity in quantities:
            for fig in pool:
                if fig.quantity == quantity and fig.role != "after":
                    return fig
    return None


def _after(claim: Claim, quantity: str):
    """The 'after' figure of a from-to pair in the claim ("from 9% to 5%"), else the single stated one."""
    figs = [f for f in claim.figures if f.quantity == quantity]
    return next((f for f in figs if f.role == "after"), figs[-1] if figs else None)


def _run(doc: Document, name: str, inputs: Inputs) -> int | None:
    """Run a calculator once per distinct input set; its index in doc.calculations, or None when it refuses."""
    key = json.dumps([name, inputs.values], sort_keys=True, default=str)
    for index, existing in enumerate(doc.calculations):
        if existing.get("_key") == key:
            return index
    try:
        result = jsonable(calculators.run(name, dict(inputs.values)))
    except calculators.CalculatorInputError as exc:
        doc.failures.append(f"{name}: {exc}")
        return None
    result["input_sources"] = _sources(result, inputs, doc.lang)
    result["assumptions"] = inputs.assumptions + list(result.get("assumptions") or [])
    result["_key"] = key
    doc.calculations.append(result)
    return len(doc.calculations) - 1


def _sources(result: dict, inputs: Inputs, lang: str) -> dict:
    """Every input of a result labelled text, catalog, derived or assumed."""
    given = result["inputs"]
    out = {}
    for name, value in given.items():
        if value is None:
            continue
        if name in inputs.sources:
            out[name] = inputs.sources[name]
        elif given.get("chip") and name in CHIP_FIELDS:
            out[name] = {"source": "catalog", "from": given["chip"]}
        elif given.get("model") and (name in MODEL_FIELDS or name.startswith("moe_")):
            out[name] = {"source": "catalog", "from": given["model"]}
        else:
            out[name] = {"source": "assumed", "why": messages(lang)["assumed"]["calculator_default"].format(name=name)}
    return out


def _agrees(stated: float, computed: float, approx: bool) -> bool:
    tolerance = TOLERANCE * (2 if approx else 1)
    return abs(computed - stated) <= tolerance * abs(stated) + (0.005 if abs(stated) <= 1 else 0)


def _compare(doc: Document, claim: Claim, fig, computed: float, quantity: str) -> None:
    """Set the claim's verdict from a stated figure and the calculator's value of the same quantity."""
    m = messages(doc.lang)["verdicts"]
    ok = _agrees(fig.value, computed, getattr(fig, "approx", False))
    claim.verdict = "consistent" if ok else "inconsistent"
    claim.why = m[claim.verdict].format(stated=fig.quote, computed=restate.value(quantity, computed))


def _needs(doc: Document, claim: Claim, missing: list[str]) -> None:
    m = messages(doc.lang)
    names = [m["quantity_names"].get(q, q) for q in missing]
    claim.verdict = "needs_more"
    claim.why = m["verdicts"]["needs_more"].format(missing=join_names(names, doc.lang))


def _model_inputs(doc: Document, claim: Claim, inputs: Inputs) -> bool:
    """Params from the text (a stated size wins), else the model it names; False when neither is there."""
    fig = _fig(doc, claim, "active_params", "params")
    if fig is not None:
        inputs.text("params", fig)
        return True
    models = claim.models or doc.models() or (doc.previous.models() if doc.previous else [])
    if models:
        inputs.values["model"] = models[0]["id"]
        inputs.sources["model"] = {"source": "text", "quote": models[0]["name"]}
        return True
    return False


def _chip_inputs(doc: Document, claim: Claim, inputs: Inputs) -> bool:
    """The chip's peak from the text, else the chip it names (a figure's chip first)."""
    fig = _fig(doc, claim, "peak_flop_per_s")  # a rate the job reached is not the chip's peak
    if fig is not None:
        inputs.text("peak_flop_per_s", fig)
        return True
    chips = _chips(doc, claim)
    if chips:
        inputs.values["chip"] = chips[0]["id"]
        inputs.sources["chip"] = {"source": "text", "quote": restate.chip_name(chips[0], "en")}
        return True
    return False


def _chips(doc: Document, claim: Claim) -> list[dict]:
    hardware = catalog.hardware()
    from_figures = [hardware.get("chip", f.chip) for f in claim.figures if getattr(f, "chip", None)]
    chips = grounding.unique(from_figures + claim.chips) or doc.chips()
    if not chips and doc.previous:
        chips = doc.previous.chips()
    return chips[:MAX_CHIPS]


def _n_chips(doc: Document, claim: Claim, inputs: Inputs) -> bool:
    fig = _fig(doc, claim, "n_chips", "n_ranks")
    if fig is not None:
        inputs.text("n_chips", fig)
        return True
    return False


# ------------------------------------------------------------------------------------------ the checkers

def _computation(doc: Document, claim: Claim) -> bool:
    """Arithmetic written in the text (6.3e24 / (8960 * 4.59e14 * 0.4)): the training-time calculator redoes it."""
    expression = next((f for f in claim.figures if f.quantity == "expression"), None)
    if expression is None:
        return False
    inside = [f for f in claim.figures if expression.start <= f.start < expression.end and f is not expression]
    quantities = {f.quantity: f for f in inside}
    if {"total_flops", "n_chips"} <= set(quantities) and ({"peak_flop_per_s", "mfu"} <= set(quantities) or "flop_per_s" in quantities):
        inputs = Inputs(doc.lang)
        for name in ("total_flops", "n_chips", "peak_flop_per_s", "mfu"):
            if name in quantities:
                inputs.text(name, quantities[name])
        if "flop_per_s" in quantities:
            inputs.text("achieved_flop_per_s", quantities["flop_per_s"])
        index = _run(doc, "training_time", inputs)
        if index is not None:
            claim.calculations.append(index)
            stated = next((f for f in claim.figures if f.quantity in ("time_s",) and f.start >= expression.end), None)
            if stated is not None:
                _compare(doc, claim, stated, doc.calculations[index]["outputs"]["time_s"], "time_s")
            else:
                claim.verdict = "explained"
                claim.why = messages(doc.lang)["verdicts"]["computed"].format(
                    computed=restate.value("time_s", doc.calculations[index]["outputs"]["time_s"]))
            return True
    return False


def _bubble(doc: Document, claim: Claim) -> bool:
    """A pipeline bubble the text states, checked with its own pipeline depth, virtual stages and micro-batches."""
    stated = [f for f in claim.figures if f.quantity == "bubble_fraction"]
    if not stated and not (_has(claim, "pp_degree") and _has(claim, "microbatches")):
        return False
    pp = _fig(doc, claim, "pp_degree")
    if pp is None:
        _needs(doc, claim, ["pp_degree"])
        return True
    virtual = _fig(doc, claim, "virtual_stages")
    before = next((f for f in stated if f.role == "before"), None)
    after = _after(claim, "bubble_fraction")
    base = Inputs(doc.lang)
    base.text("pp_degree", pp)
    how = _microbatches(doc, claim, base, pp, before)
    if how is None:
        _needs(doc, claim, ["microbatches"])
        return True
    schedules = [("1f1b", None, before or (after if virtual is None else None))]
    if virtual is not None and virtual.value > 1:
        schedules.append(("interleaved", virtual, after))
    for schedule, v, stated_fig in schedules:
        inputs = Inputs(doc.lang)
        inputs.values, inputs.sources, inputs.assumptions = dict(base.values), dict(base.sources), list(base.assumptions)
        inputs.values["schedule"] = schedule
        if v is not None:
            inputs.sources["schedule"] = {"source": "text", "quote": v.quote}
            inputs.text("virtual_stages", v)
        else:
            inputs.sources["schedule"] = {"source": "assumed", "why": messages(doc.lang)["assumed"]["one_f_one_b"]}
        index = _run(doc, "pipeline_bubble", inputs)
        if index is None:
            continue
        claim.calculations.append(index)
        # A bubble that fixed the micro-batch count cannot check itself; an assumed count checks nothing.
        if stated_fig is not None and how in ("stated", "derived") or (how == "bubble" and stated_fig is not None and stated_fig is not before):
            _compare(doc, claim, stated_fig, doc.calculations[index]["outputs"]["bubble_fraction"], "bubble_fraction")
    if claim.calculations and not claim.why:
        run = doc.calculations[claim.calculations[-1]]
        claim.why = messages(doc.lang)["verdicts"]["computed"].format(computed=restate.value("bubble_fraction", run["outputs"]["bubble_fraction"]))
    return True


def _has(claim: Claim, quantity: str) -> bool:
    return any(f.quantity == quantity for f in claim.figures)


def _microbatches(doc: Document, claim: Claim, inputs: Inputs, pp, before) -> str | None:
    """Micro-batches per step: stated; or global batch / (data-parallel degree x micro-batch size); or implied by a stated bubble."""
    stated = _fig(doc, claim, "microbatches")
    if stated is not None:
        inputs.text("microbatches", stated)
        return "stated"
    batch = _fig(doc, claim, "global_batch_sequences")
    dp = _dp_degree(doc, claim)
    micro = _fig(doc, claim, "micro_batch")
    if batch is not None and dp is not None and micro is not None:
        inputs.derived("microbatches", max(1, round(batch.value / (dp[0] * micro.value))),
                       f"{batch.quote} / ({dp[1]} x {micro.quote})")
        return "derived"
    if before is not None and 0 < before.value < 1:
        # The 'before' bubble (p-1)/(m+p-1) fixes m; the 'after' figure is then checked against it.
        implied = max(1, round((pp.value - 1) * (1 / before.value - 1)))
        inputs.values["microbatches"] = implied
        inputs.sources["microbatches"] = {"source": "derived", "from": f"{before.quote} bubble with {pp.quote}"}
        return "bubble"
    if batch is not None and dp is not None:
        inputs.assumed("microbatches", max(1, round(batch.value / dp[0])), "one_sequence_per_microbatch",
                       batch=batch.quote, dp=dp[1])
        return "assumed"
    return None


def _dp_degree(doc: Document, claim: Claim) -> tuple[float, str] | None:
    """The data-parallel degree: stated, or chips / (TP x PP x CP) when those are stated."""
    dp = _fig(doc, claim, "dp_degree")
    if dp is not None:
        return dp.value, dp.quote
    chips, tp, pp = _fig(doc, claim, "n_chips"), _fig(doc, claim, "tp_degree"), _fig(doc, claim, "pp_degree")
    if chips is not None and (tp is not None or pp is not None):
        group = (tp.value if tp else 1) * (pp.value if pp else 1)
        return chips.value / group, f"{chips.quote} / ({' x '.join(f.quote for f in (tp, pp) if f)})"
    return None


def _mfu(doc: Document, claim: Claim) -> bool:
    """MFU from the text's throughput (or batch and step time, or GPU-hours and tokens), chips and the chip's peak."""
    stated = next((f for f in claim.figures if f.quantity == "mfu"), None)
    rate = next((f for f in claim.figures if f.quantity in ("tokens_per_s", "tokens_per_s_per_chip", "step_time_s")), None)
    if stated is None and rate is None:
        return False
    inputs = Inputs(doc.lang)
    missing = []
    rate = _fig(doc, claim, "tokens_per_s", "tokens_per_s_per_chip")
    if rate is not None and rate.quantity == "tokens_per_s_per_chip":
        inputs.derived("n_chips", 1, rate.quote)
        inputs.text("tokens_per_s", rate)
    elif rate is not None:
        inputs.text("tokens_per_s", rate)
        if not _n_chips(doc, claim, inputs):
            missing.append("n_chips")
    else:
        batch, step = _fig(doc, claim, "global_batch_tokens"), _fig(doc, claim, "step_time_s")
        if batch is None:
            sequences, seq = _fig(doc, claim, "global_batch_sequences"), _fig(doc, claim, "seq_len")
            if sequences is not None and seq is not None:
                inputs.derived("global_batch_tokens", sequences.value * seq.value, f"{sequences.quote} x {seq.quote}")
                batch = True
        elif batch is not None:
            inputs.text("global_batch_tokens", batch)
        if batch is None or step is None:
            missing.append("tokens_per_s")
        else:
            inputs.text("step_time_s", step)
        if not _n_chips(doc, claim, inputs):
            missing.append("n_chips")
    if not _model_inputs(doc, claim, inputs):
        missing.append("params")
    if not _chip_inputs(doc, claim, inputs):
        missing.append("peak_flop_per_s")
    if missing:
        if stated is not None:
            _needs(doc, claim, missing)
        return stated is not None
    index = _run(doc, "mfu", inputs)
    if index is None:
        return False
    claim.calculations.append(index)
    computed = doc.calculations[index]["outputs"]["mfu"]
    if stated is not None:
        _compare(doc, claim, stated, computed, "mfu")
    else:
        claim.why = messages(doc.lang)["verdicts"]["computed"].format(computed=restate.value("mfu", computed))
    return True


def _training_time(doc: Document, claim: Claim) -> bool:
    """GPU-hours or days the text states for a training run, from its tokens and model (and chips, MFU)."""
    stated = next((f for f in claim.figures if f.quantity in ("chip_hours", "time_s", "chip_days")), None)
    tokens = _fig(doc, claim, "tokens")
    if stated is None or tokens is None or "computation" in claim.kinds:
        return False
    inputs = Inputs(doc.lang)
    if not _model_inputs(doc, claim, inputs):
        _needs(doc, claim, ["params"])
        return True
    inputs.text("tokens", tokens)
    if stated.quantity in ("chip_hours", "chip_days") and _chip_inputs(doc, claim, inputs):
        # Chip-hours fix the per-chip rate: MFU = tokens x 6N / (chip-seconds x peak); one chip's view keeps it exact.
        hours = stated.value * (24 if stated.quantity == "chip_days" else 1)
        inputs.derived("n_chips", 1, stated.quote)
        inputs.derived("tokens_per_s", tokens.value / (hours * 3600), f"{tokens.quote} / {stated.quote}")
        del inputs.values["tokens"], inputs.sources["tokens"]
        index = _run(doc, "mfu", inputs)
        if index is not None:
            claim.calculations.append(index)
            claim.why = messages(doc.lang)["verdicts"]["implied_mfu"].format(
                hours=stated.quote, mfu=restate.value("mfu", doc.calculations[index]["outputs"]["mfu"]))
        return True
    mfu = _fig(doc, claim, "mfu")
    if not (_n_chips(doc, claim, inputs) and mfu is not None and _chip_inputs(doc, claim, inputs)):
        _needs(doc, claim, [q for q, ok in (("n_chips", "n_chips" in inputs.values), ("mfu", mfu is not None),
                                            ("peak_flop_per_s", "chip" in inputs.values or "peak_flop_per_s" in inputs.values)) if not ok])
        return True
    inputs.text("mfu", mfu)
    index = _run(doc, "training_time", inputs)
    if index is not None:
        claim.calculations.append(index)
        out = doc.calculations[index]["outputs"]
        key = "chip_hours" if stated.quantity == "chip_hours" else "time_s"
        _compare(doc, claim, stated, out[key], key)
    return True


def _bus_bandwidth(doc: Document, claim: Claim) -> bool:
    """nccl-tests: bus bandwidth from algorithm bandwidth, the collective and the number of ranks."""
    algbw = next((f for f in claim.figures if f.quantity == "algbw_bytes_per_s"), None)
    busbw = next((f for f in claim.figures if f.quantity == "bus_bandwidth_bytes_per_s"), None)
    if algbw is None:
        return False
    op = _collective(claim.quote) or _collective(doc.text)
    inputs = Inputs(doc.lang)
    ranks = _fig(doc, claim, "n_ranks", "n_chips")
    if op is None or ranks is None:
        _needs(doc, claim, [q for q, ok in (("op", op), ("n_ranks", ranks)) if not ok])
        return True
    inputs.values["op"], inputs.sources["op"] = op, {"source": "text", "quote": op}
    inputs.text("n_ranks", ranks)
    inputs.text("algbw_bytes_per_s", algbw)
    index = _run(doc, "nccl_busbw", inputs)
    if index is not None:
        claim.calculations.append(index)
        computed = doc.calculations[index]["outputs"]["busbw_bytes_per_s"]
        if busbw is not None:
            _compare(doc, claim, busbw, computed, "busbw_bytes_per_s")
        else:
            claim.why = messages(doc.lang)["verdicts"]["computed"].format(computed=restate.value("busbw_bytes_per_s", computed))
    return True


def _collective(text: str) -> str | None:
    for lang in ("en", "ar"):
        for op, pattern in terms.cues()[lang]["collective_ops"].items():
            if pattern_cache.lazy(pattern, re.I).search(text):
                return op
    return None


def _collective_time(doc: Document, claim: Claim) -> bool:
    """The time of a collective of a stated size over a stated bandwidth."""
    size = next((f for f in claim.figures if f.quantity in ("size_bytes", "bytes")), None)
    bandwidth = next((f for f in claim.figures if f.quantity in ("bandwidth_bytes_per_s", "bus_bandwidth_bytes_per_s")), None)
    op = _collective(claim.quote)
    if size is None or bandwidth is None or op is None:
        return False
    ranks = _fig(doc, claim, "n_ranks", "n_chips")
    if ranks is None:
        _needs(doc, claim, ["n_ranks"])
        return True
    inputs = Inputs(doc.lang)
    inputs.values["op"], inputs.sources["op"] = op, {"source": "text", "quote": op}
    inputs.text("size_bytes", size)
    inputs.text("n_ranks", ranks)
    inputs.text("bandwidth_bytes_per_s", bandwidth)
    index = _run(doc, "collective_time", inputs)
    if index is not None:
        claim.calculations.append(index)
        stated = next((f for f in claim.figures if f.quantity == "time_s"), None)
        computed = doc.calculations[index]["outputs"]["time_s"]
        if stated is not None:
            _compare(doc, claim, stated, computed, "time_s")
        else:
            claim.why = messages(doc.lang)["verdicts"]["computed"].format(computed=restate.value("time_s", computed))
    return True


def _memory(doc: Document, claim: Claim) -> bool:
    """Model-state memory (weights, gradients, optimizer states, ZeRO sharding) against the memory the text states."""
    stated = next((f for f in claim.figures if f.quantity in ("bytes", "hbm_bytes", "size_bytes")), None)
    if stated is None or "activation" in claim.quote.lower():
        return False
    inputs = Inputs(doc.lang)
    if not _model_inputs(doc, claim, inputs):
        return False
    zero, dp = _fig(doc, claim, "zero_stage"), _fig(doc, claim, "dp_degree", "n_ranks")
    if zero is not None:
        inputs.text("zero_stage", zero)
        if dp is not None:
            inputs.text("dp_degree", dp)
    index = _run(doc, "model_state_memory", inputs)
    if index is None:
        return False
    claim.calculations.append(index)
    out = doc.calculations[index]["outputs"]
    options = [("bytes_total", out["bytes_total"]), ("bytes_per_chip", out["bytes_per_chip"])]
    name, computed = min(options, key=lambda item: abs(item[1] - stated.value))
    _compare(doc, claim, stated, computed, name)
    if claim.verdict == "inconsistent":  # a partial figure (optimizer states only) is explained, not wrong
        claim.verdict = "explained"
    return True


def _roofline(doc: Document, claim: Claim) -> bool:
    """Compute- or memory-bound, from the FLOPs and bytes the text states."""
    flops = next((f for f in claim.figures if f.quantity in ("total_flops", "flops_per_step")), None)
    size = next((f for f in claim.figures if f.quantity in ("bytes", "size_bytes")), None)
    if flops is None or size is None:
        return False
    inputs = Inputs(doc.lang)
    inputs.text("flops", flops)
    inputs.text("bytes", size)
    if not _chip_inputs(doc, claim, inputs):
        _needs(doc, claim, ["peak_flop_per_s"])
        return True
    index = _run(doc, "roofline", inputs)
    if index is not None:
        claim.calculations.append(index)
        bound = doc.calculations[index]["outputs"]["bound"]
        said = "compute" if cue("compute_bound_words", claim.quote) else "memory" if cue("memory_bound_words", claim.quote) else None
        m = messages(doc.lang)
        word = m["bound_words"].get(bound, bound) if doc.lang != "en" else bound
        claim.verdict = "explained" if said is None else "consistent" if said == bound else "inconsistent"
        claim.why = m["verdicts"]["bound"].format(bound=word)
    return True


def _layout(doc: Document, claim: Claim) -> bool:
    """A parallel layout with its measured MFU, scored by the layout planner when it is installed."""
    if "configuration" not in claim.kinds or "evaluate_layout" not in calculators.names():
        return False
    stated = next((f for f in claim.figures if f.quantity == "mfu"), None)
    rate = next((f for f in claim.figures if f.quantity == "flop_per_s_per_chip"), None)
    inputs = Inputs(doc.lang)
    if not (_model_inputs(doc, claim, inputs) and _n_chips(doc, claim, inputs) and _chip_inputs(doc, claim, inputs)):
        return False
    models = claim.models or doc.models()
    if models and "model" not in inputs.values:  # the planner needs the architecture a stated size leaves out
        inputs.values["model"] = models[0]["id"]
        inputs.sources["model"] = {"source": "text", "quote": models[0]["name"]}
    for name in ("tp_degree", "pp_degree", "virtual_stages", "ep_degree", "cp_degree", "micro_batch", "seq_len", "zero_stage"):
        fig = _fig(doc, claim, name)
        if fig is not None:
            inputs.text(name, fig)
    # Sharding named as a term (FSDP, ZeRO-3) rather than a degree: the stage it means is derived from it.
    sharded = {"fsdp": 3, "zero-3": 3, "zero-2": 2, "zero-1": 1}
    found = [t for t in doc.terms if t["id"] in sharded and t.get("found_as", "") in claim.quote]
    if "zero_stage" not in inputs.values and found:
        inputs.derived("zero_stage", sharded[found[0]["id"]], found[0]["found_as"])
    batch = _fig(doc, claim, "global_batch_tokens")
    sequences, seq = _fig(doc, claim, "global_batch_sequences"), _fig(doc, claim, "seq_len")
    if batch is not None:
        inputs.text("global_batch_tokens", batch)
    elif sequences is not None and seq is not None:
        inputs.derived("global_batch_tokens", sequences.value * seq.value, f"{sequences.quote} x {seq.quote}")
    else:
        return False
    index = _run(doc, "evaluate_layout", inputs)
    if index is None:
        return False
    claim.calculations.append(index)
    outputs = doc.calculations[index]["outputs"]
    computed = outputs.get("mfu")
    if stated is None and rate is not None and outputs.get("model_flop_per_s_per_chip"):
        # A rate per chip is checked the same way, against the planner's model FLOP/s per chip.
        stated, computed = rate, outputs["model_flop_per_s_per_chip"]
    if stated is not None and computed is not None:
        # The planner's MFU is a model's estimate, not a measurement: only a gap of 2x or more is flagged.
        ratio = stated.value / computed if computed else 0
        claim.verdict = "consistent" if 0.5 <= ratio <= 2 else "inconsistent"
        field = "mfu" if stated.quantity == "mfu" else "model_flop_per_s_per_chip"
        claim.why = messages(doc.lang)["verdicts"]["estimate"].format(stated=stated.quote, computed=restate.value(field, computed))
    return True


def _training_flops(doc: Document, claim: Claim) -> bool:
    """Total training FLOPs for the tokens and model the text states."""
    tokens = next((f for f in claim.figures if f.quantity == "tokens"), None)
    # a model size stated beside its training tokens is a computation a reader wants, measured or not
    if tokens is None or not ("measurement" in claim.kinds or any(f.quantity in ("params", "active_params") for f in claim.figures)):
        return False
    inputs = Inputs(doc.lang)
    if not _model_inputs(doc, claim, inputs):
        return False
    inputs.text("tokens", tokens)
    index = _run(doc, "training_flops", inputs)
    if index is None:
        return False
    claim.calculations.append(index)
    computed = doc.calculations[index]["outputs"]["total_flops"]
    stated = next((f for f in claim.figures if f.quantity == "total_flops"), None)
    if stated is not None:
        _compare(doc, claim, stated, computed, "total_flops")
    else:
        claim.why = messages(doc.lang)["verdicts"]["computed"].format(computed=restate.value("total_flops", computed))
    return True


CHECKERS = (_computation, _bubble, _mfu, _training_time, _bus_bandwidth, _collective_time, _memory, _roofline,
            _layout, _training_flops)


def check_claims(doc: Document) -> None:
    """Fill doc.calculations and each claim's calculations, verdict and why."""
    from service.explain import arith_check, pp_check

    pp_done: dict[str, list[int]] = {}
    for claim in doc.claims:
        own = (claim.verdict, claim.why) if arith_check.check(doc, claim) else None
        if own is None and claim.frame in PP_FRAMES:
            pp_check.check(doc, claim, pp_done)
            continue  # with checks of its own numbers, a frame's general check would only add defaults
        claim.verdict, claim.why = "explained", ""
        for checker in CHECKERS:
            if own is not None and checker is _computation:
                continue  # the written arithmetic is already redone
            if checker(doc, claim) and claim.verdict != "explained":
                break
        if own is not None:  # both kinds of check speak; an inconsistency is said first
            outcome = arith_check.Outcome()
            outcome.add(*own)
            if claim.why:
                outcome.add(claim.verdict, claim.why)
            outcome.apply(claim)
        claim.calculations = list(dict.fromkeys(claim.calculations))
    for result in doc.calculations:
        result.pop("_key", None)
