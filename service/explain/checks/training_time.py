"""Training-time checks: arithmetic the text writes for a run's duration, and chip-hours or days stated for its tokens."""

import re

from calculators import catalog
from service.explain import restate
from service.explain.checks import verdicts
from service.explain.checks.core import (Inputs, Result, chip_inputs, compare, figure, impossible, model_inputs,
                                         n_chips, needs_more, params_missing, run, unique, worked, written)
from service.explain.checks.job_kind import serving_text
from service.explain.document import Claim, Document
from service.i18n.messages import messages


_FP8 = re.compile(r"\bFP8\b", re.I)  # the text trains in FP8: the share against the BF16 peak is only one reading


def computation(doc: Document, claim: Claim) -> Result | None:
    """Arithmetic written in the text (6.3e24 / (8960 * 4.59e14 * 0.4)): the training-time calculator redoes it."""
    expression = next((f for f in claim.figures if f.quantity == "expression"), None)
    if expression is None:
        return None
    inside = [f for f in claim.figures if expression.start <= f.start < expression.end and f is not expression]
    quantities = {f.quantity: f for f in inside}
    if not ({"total_flops", "n_chips"} <= set(quantities) and ({"peak_flop_per_s", "mfu"} <= set(quantities) or "flop_per_s" in quantities)):
        return None
    inputs = Inputs(doc.lang)
    for name in ("total_flops", "n_chips", "peak_flop_per_s", "mfu"):
        if name in quantities:
            inputs.text(name, quantities[name])
    if "flop_per_s" in quantities:
        inputs.text("achieved_flop_per_s", quantities["flop_per_s"])
    index = run(doc, "training_time", inputs)
    if index is None:
        return None
    time_s = doc.calculations[index]["outputs"]["time_s"]
    stated = next((f for f in claim.figures if f.quantity in ("time_s",) and f.start >= expression.end), None)
    if stated is not None:
        return compare(doc, stated, time_s, "time_s", [index])
    return Result([index], "explained", messages(doc.lang)["verdicts"]["computed"].format(computed=restate.value("time_s", time_s)))


# words that name a phase of a run: where one appears, a token count of another sentence may be another phase's
_PHASE = re.compile(r"\bphase|\bstage\b|long[- ]context|anneal|pre-?train|fine-?tun|warm-?up|post-?train|continued|مرحلة|المرحلة", re.I)


def _one_run(doc: Document, claim: Claim):
    """The text's token count when it states one value and names at most one phase (a spec list of one run, or "the
    pretraining of that model"), else None: two phases named (pre-training and annealing) may each have their own."""
    counts = [f for f in doc.figures if f.quantity == "tokens" and f.value >= _FEWEST_RUN_TOKENS]
    tokens = counts[0] if counts and all(abs(f.value - counts[0].value) <= 0.01 * counts[0].value for f in counts) else None
    phases = {m.group(0).lower().replace("-", "")[:5] for m in _PHASE.finditer(doc.text)}
    return None if tokens is None or len(phases) > 1 else tokens


_FEWEST_RUN_TOKENS = 1e6  # a training run the text times reads millions of tokens at least
_SHORTEST_RUN_S = 3600  # a training run over a token count the text states takes hours at least
_ONE_STEP = re.compile(r"\b(?:one|a|each|every|per|single)\s+(?:training\s+|optimizer\s+)?(?:step|iteration)\b|"
                       r"\bstep time\b|خطوة واحدة|كل خطوة|زمن الخطوة|"
                       r"\bper\s+(?:output\s+|generated\s+)?(?:token|request)\b|/\s*(?:token|tok|request)\b|لكل رمز", re.I)


def training_time(doc: Document, claim: Claim) -> Result | None:
    """GPU-hours or days the text states for a training run, from its tokens and model (and chips, MFU)."""
    quoted = restate.quoted_spans(doc.text)
    stated = next((f for f in claim.figures if f.quantity in ("chip_hours", "time_s", "chip_days")
                   and not any(a <= f.start < b for a, b in quoted)), None)  # “a 3-week run”: words the text discusses
    if stated is None or "computation" in claim.kinds or _ONE_STEP.search(claim.quote) or serving_text(doc):
        return None  # "one step ... requires 170 seconds", "~40 ms per token" of decoding: no run's duration
    if stated.quantity == "time_s" and stated.value < _SHORTEST_RUN_S:
        return None  # "Memory profiling takes 1.32 seconds": a time under an hour is no run over a token count
    if "question" in claim.kinds and sum(f.quantity == "time_s" for f in claim.figures) > 1:
        return None  # "was the training completed in 2 seconds, 2 days, or 2 months?": choices asked about, no run's time
    tokens = next((f for f in claim.figures if f.quantity == "tokens"), None)
    if tokens is None:
        elsewhere = next((f for f in doc.figures if f.quantity == "tokens" and f.value >= _FEWEST_RUN_TOKENS), None)
        if elsewhere is None:  # ("twenty tokens for each parameter" is a ratio's tokens, no run's token count)
            return None
        if any(elsewhere in c.figures and any(f.quantity in ("chip_hours", "time_s", "chip_days") for f in c.figures)
               for c in doc.claims if c is not claim):
            return None  # the sentence with the tokens states its own time: the run's check is made there, once
        tokens = _one_run(doc, claim)
    if tokens is None:
        # a token count from another sentence may be another phase's (pre-training vs annealing): not combined
        return Result([], "needs_more", messages(doc.lang)["verdicts"]["phases"].format(hours=stated.quote, tokens=elsewhere.quote))
    inputs = Inputs(doc.lang)
    if not model_inputs(doc, claim, inputs):
        return needs_more(doc, [params_missing(doc, claim)])
    inputs.text("tokens", tokens)
    if stated.quantity in ("chip_hours", "chip_days") and chip_inputs(doc, claim, inputs):
        # Chip-hours fix the per-chip rate: MFU = tokens x 6N / (chip-seconds x peak); one chip's view keeps it exact.
        hours = stated.value * (24 if stated.quantity == "chip_days" else 1)
        inputs.derived("n_chips", 1, stated.quote)
        inputs.derived("tokens_per_s", tokens.value / (hours * 3600), f"{tokens.quote} / {stated.quote}")
        del inputs.values["tokens"], inputs.sources["tokens"]
        index = run(doc, "mfu", inputs)
        if index is None:
            return Result()
        value = doc.calculations[index]["outputs"]["mfu"]
        if not verdicts.possible("mfu", value):
            return impossible(doc, written("mfu", value), [index])
        m = messages(doc.lang)["verdicts"]
        chip = catalog.hardware().get("chip", inputs.values["chip"]) if inputs.values.get("chip") else {}
        if _FP8.search(doc.text) and chip.get("peak_fp8_flop_per_s") and chip.get("peak_bf16_flop_per_s"):
            # "an FP8 mixed-precision framework ... 2.664M H800 GPU hours": which peak the share is of is the text's to say
            fp8 = value * chip["peak_bf16_flop_per_s"] / chip["peak_fp8_flop_per_s"]
            return Result([index], None, m["implied_mfu_fp8"].format(hours=stated.quote, mfu=restate.value("mfu", value),
                                                                     mfu_fp8=restate.value("mfu", fp8)))
        return Result([index], None, m["implied_mfu"].format(hours=stated.quote, mfu=restate.value("mfu", value)))
    mfu = figure(doc, claim, "mfu")
    if mfu is None:
        # "five weeks with TPU v3-256" and no MFU anywhere: a run's time cannot be checked without one, and saying that
        # it would need one (with the chips the text does name) was read as a wrong statement (round 10)
        return None
    if not (n_chips(doc, claim, inputs) and mfu is not None and chip_inputs(doc, claim, inputs)):
        return needs_more(doc, [q for q, ok in (("n_chips", "n_chips" in inputs.values), ("mfu", mfu is not None),
                                                ("peak_flop_per_s", "chip" in inputs.values or "peak_flop_per_s" in inputs.values)) if not ok])
    inputs.text("mfu", mfu)
    count = figure(doc, claim, "n_chips", "n_ranks")
    if "peak_flop_per_s" not in inputs.values and getattr(count, "chip", None):
        # "2,048 A100 GPUs": the chip the count names is the run's, not another chip the text mentions
        inputs.values["chip"] = count.chip
        inputs.sources["chip"] = {"source": "text", "quote": count.quote}
    index = run(doc, "training_time", inputs)
    if index is None:
        return Result()
    out = doc.calculations[index]["outputs"]
    key = "chip_hours" if stated.quantity == "chip_hours" else "time_s"
    return compare(doc, stated, out[key], key, [index])


def hours_over_chips(doc: Document, claim: Claim) -> Result | None:
    """"2.788M GPU hours on 2,048 GPUs is about 57 days": chip-hours (or chip-days, "355 GPU-years") / chips is the run's
    duration; the chip-time may stand in the text's one such figure before the claim ("355 GPU-years ...; with 1,000 GPUs")."""
    hours = next((f for f in claim.figures if f.quantity in ("chip_hours", "chip_days")), None)
    if hours is None:
        earlier = [f for f in doc.figures if f.quantity in ("chip_hours", "chip_days")]
        hours = earlier[0] if len(earlier) == 1 and earlier[0].end <= claim.start else None
    count = next((f for f in claim.figures if f.quantity == "n_chips"), None)
    stated = next((f for f in claim.figures if f.quantity == "time_s"), None)
    if hours is None or stated is None or phased(claim):
        return None
    if count is None:  # "256 instances (each with 8 H100 GPUs)": the chips are the servers times the chips in each
        nodes = [f for f in claim.figures if f.quantity == "n_nodes"]
        each = [f for f in claim.figures if f.quantity == "chips_per_node"]
        if len(nodes) != 1 or len(each) != 1:
            return None
        return _in_days(doc, f"{hours.value:g} / ({nodes[0].value:g} * {each[0].value:g})", hours,
                        f"{hours.quote} / ({nodes[0].quote} × {each[0].quote})", stated)
    return _in_days(doc, f"{hours.value:g} / {count.value:g}", hours, f"{hours.quote} / {count.quote}", stated)


def phased(claim: Claim) -> bool:
    """Whether the sentence gives a run in phases, each its chips and time ("6144 TPU v4 chips for 1200 hours + 3072
    chips for 336 hours", round 102 P01): no one count and duration is the whole run's."""
    return sum(f.quantity == "n_chips" for f in claim.figures) >= 2 and sum(f.quantity == "time_s" for f in claim.figures) >= 2


def _in_days(doc: Document, per_chip: str, hours, quote: str, stated) -> Result | None:
    """Chip-time over chips worked out in days (the working reads "6.5e6 / (256 * 8) / 24 = 132.2"), set against the
    duration the text states."""
    index = worked(doc, per_chip + (" / 24" if hours.quantity == "chip_hours" else ""), quote)
    return None if index is None else compare(doc, stated, doc.calculations[index]["outputs"]["value"] * 86400, "time_s", [index])


def rate_from_chip_hours(doc: Document, claim: Claim) -> Result | None:
    """"150B tokens training cost 1.5K A100 GPU hours, which means 27777 token/s per A100": tokens over chip-seconds is
    one chip's rate, all three figures in the claim's own sentence."""
    start, end = next(((a, b) for a, b in doc.sentences if a <= claim.start < b), (claim.start, claim.end))
    figures = [f for f in doc.figures if start <= f.start < end]  # "..., which means ...": the clause's own sentence
    tokens = next((f for f in figures if f.quantity == "tokens"), None)
    hours = next((f for f in figures if f.quantity in ("chip_hours", "chip_days")), None)
    stated = next((f for f in claim.figures if f.quantity == "tokens_per_s_per_chip"), None)
    if tokens is None or hours is None or stated is None:
        return None
    return _judged(doc, f"{tokens.value:g} / ({hours.value:g} * {_SECONDS[hours.quantity]})", f"{tokens.quote} / {hours.quote}",
                   stated, "tokens_per_s_per_chip")


_SECONDS = {"chip_hours": 3600, "chip_days": 86400}  # a chip-hour or a chip-day in chip-seconds


def _judged(doc: Document, expression: str, quote: str, stated, quantity: str) -> Result | None:
    """Arithmetic on the text's figures, set against the figure it states."""
    index = worked(doc, expression, quote)
    return None if index is None else compare(doc, stated, doc.calculations[index]["outputs"]["value"], quantity, [index])


_PER_SECOND = re.compile(r"\s*(?:/\s*s(?:ec(?:ond)?)?\b|per\s+sec(?:ond)?\b|في الثانية)", re.I)


def _sequence_rate(doc: Document, claim: Claim):
    """The text's one rate in sequences per second ("465.45 Sequences/Sec"), or None."""
    found = [f for f in claim.figures + doc.figures if f.quantity == "sequences_per_s"
             or f.quantity == "sequences" and _PER_SECOND.match(doc.text, f.end)]
    return found[0] if found and len({f.value for f in found}) == 1 else None


def step_time(doc: Document, claim: Claim) -> Result | None:
    """"So it costs 4.4s per step": the global batch over the rate the text gives (2048 sequences / 465.45 per second)."""
    stated = next((f for f in claim.figures if f.quantity == "step_time_s"
                   or f.quantity == "time_s" and _ONE_STEP.search(claim.quote)), None)
    if stated is None:
        return None
    pairs = ((unique(doc, claim, "global_batch_sequences"), _sequence_rate(doc, claim)),
             (unique(doc, claim, "global_batch_tokens"), unique(doc, claim, "tokens_per_s")))
    batch, rate = next(((b, r) for b, r in pairs if b is not None and r is not None), (None, None))
    # "18.02 s/step, 232.7k tokens/s ... at batch 1024 x seq 4096": all three in the sentence that states the step time
    # (a ceiling's step time elsewhere is another run's, which the measured rate does not give)
    sequences, seq, tokens_rate = (next((f for f in claim.figures if f.quantity == q), None)
                                   for q in ("global_batch_sequences", "seq_len", "tokens_per_s"))
    if batch is None and None not in (sequences, seq, tokens_rate):
        index = worked(doc, f"{sequences.value:g} * {seq.value:g} / {tokens_rate.value:g}",
                       f"{sequences.quote} x {seq.quote} / {tokens_rate.quote}")
        return None if index is None else compare(doc, stated, doc.calculations[index]["outputs"]["value"], "step_time_s", [index])
    if batch is None:
        return None
    index = worked(doc, f"{batch.value:g} / {rate.value:g}", f"{batch.quote} / {rate.quote}")
    if index is None:
        return None
    return compare(doc, stated, doc.calculations[index]["outputs"]["value"], "step_time_s", [index])


def time_from_expression(doc: Document, ops: list[float], source: dict) -> int | None:
    """FLOPs / (chips × peak × MFU), or FLOPs / a whole system's rate, as a text writes it out: training_time with the
    written numbers (the arithmetic check's textbook shape); the calculation's index, or None."""
    rest = ops[1:]
    inputs = Inputs(doc.lang)
    inputs.values["total_flops"], inputs.sources["total_flops"] = ops[0], source
    chips = [o for o in rest if o.is_integer() and 1 < o < 1e7]
    peaks = [o for o in rest if o >= 1e11]
    fractions = [o for o in rest if 0 < o < 1]
    if len(rest) == 1 and peaks:
        inputs.derived("n_chips", 1, "the rate is the whole system's")
        inputs.values["achieved_flop_per_s"], inputs.sources["achieved_flop_per_s"] = peaks[0], source
    elif len(chips) == 1 and len(peaks) == 1 and len(fractions) == 1 and len(rest) == 3:
        for name, value in (("n_chips", chips[0]), ("peak_flop_per_s", peaks[0]), ("mfu", fractions[0])):
            inputs.values[name], inputs.sources[name] = value, source
    else:
        return None
    return run(doc, "training_time", inputs)
