"""MFU from the text's throughput (or batch and step time), chips, model and the chip's peak, against the MFU it states."""

import re

from service.explain import restate
from service.explain.checks.core import (Inputs, Result, chip_inputs, chips, compare, computed, figure, model_inputs, n_chips,
                                         needs_more, params_missing, run)
from service.explain.document import Claim, Document

_FP8 = re.compile(r"\bfp8\b|\bfloat8\b|\be4m3\b", re.I)


def mfu(doc: Document, claim: Claim) -> Result | None:
    """The mfu calculator with the text's rate, chips, model and chip."""
    stated = next((f for f in claim.figures if f.quantity == "mfu"), None)
    rate = next((f for f in claim.figures if f.quantity in ("tokens_per_s", "tokens_per_s_per_chip", "step_time_s")), None)
    if stated is None and rate is None:
        return None
    if rate is None and sum(f.quantity == "peak_flop_per_s" for f in claim.figures) >= 2:
        return None  # a sentence weighing two peaks for its MFU (rebased_mfu): its throughput is not what it asks about
    inputs = Inputs(doc.lang)
    missing = []
    rate = figure(doc, claim, "tokens_per_s", "tokens_per_s_per_chip")
    if rate is not None and rate.quantity == "tokens_per_s_per_chip":
        inputs.derived("n_chips", 1, rate.quote)
        inputs.text("tokens_per_s", rate)
    elif rate is not None:
        inputs.text("tokens_per_s", rate)
        if not n_chips(doc, claim, inputs):
            missing.append("n_chips")
    else:
        batch, step = figure(doc, claim, "global_batch_tokens"), figure(doc, claim, "step_time_s")
        if batch is None:
            sequences, seq = figure(doc, claim, "global_batch_sequences"), figure(doc, claim, "seq_len")
            if sequences is not None and seq is not None:
                inputs.derived("global_batch_tokens", sequences.value * seq.value, f"{sequences.quote} x {seq.quote}")
                batch = True
        else:
            inputs.text("global_batch_tokens", batch)
        if batch is None or step is None:
            missing.append("tokens_per_s")
        else:
            inputs.text("step_time_s", step)
        if not n_chips(doc, claim, inputs):
            missing.append("n_chips")
    if not model_inputs(doc, claim, inputs):
        missing.append(params_missing(doc, claim))
    if not chip_inputs(doc, claim, inputs):
        missing.append("peak_flop_per_s")
    if missing:
        return needs_more(doc, missing) if stated is not None else None
    index = run(doc, "mfu", inputs)
    if index is None:
        return None
    value = doc.calculations[index]["outputs"]["mfu"]
    if stated is not None:
        return compare(doc, stated, value, "mfu", [index])
    return computed(doc, "mfu", value, [index])


def achieved_rate(doc: Document, claim: Claim) -> Result | None:
    """"420 TFLOP/s per GPU, which is 42% MFU": the rate per chip over the chip's dense peak (catalog), against the MFU.

    The calculator only divides; the verdict is the table's (data/verdicts.json), so the working never judges on its own."""
    # "52% of peak" (hfu) is the same ratio of the rate to the chip's peak
    stated = next((f for f in claim.figures if f.quantity in ("mfu", "hfu")), None)
    rate = next((f for f in claim.figures if f.quantity in ("flop_per_s_per_chip", "achieved_flop_per_s")), None)
    if stated is None or rate is None:
        return None
    found = chips(doc, claim)
    if not found:
        return needs_more(doc, ["peak_flop_per_s"])
    chip = found[0]
    precision = "fp8" if _FP8.search(claim.quote) and chip.get("peak_fp8_flop_per_s") else "bf16"
    peak = chip.get(f"peak_{precision}_flop_per_s")
    if not peak:
        return needs_more(doc, ["peak_flop_per_s"])
    inputs = Inputs(doc.lang)
    expression = f"{rate.value / 1e12:g} TFLOP/s / {peak / 1e12:g} TFLOP/s"  # the working reads "420 TFLOP/s / 989 TFLOP/s"
    if doc.named_only_generically(chip):  # "per GPU": which GPU's peak is our assumption, said in words
        inputs.assumed("expression", expression, "generic_peak", chip=chip["name"], precision=precision,
                       peak=restate.value("peak_flop_per_s", peak), bare=re.sub(r"^(?:NVIDIA|Google|AMD)\s+", "", chip["name"]))
        inputs.sources["rate"] = {"source": "text", "quote": rate.quote}  # the text's own figure, for the grounding rule
    else:
        inputs.text_with("expression", expression, rate.quote,
                         f"{chip['name']} dense {precision} peak ({peak / 1e12:g} TFLOP/s, data/hardware.json)")
    index = run(doc, "arithmetic", inputs)
    if index is None:
        return None
    return compare(doc, stated, doc.calculations[index]["outputs"]["value"], "mfu", [index])
