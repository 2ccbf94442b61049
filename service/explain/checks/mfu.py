"""MFU from the text's throughput (or batch and step time), chips, model and the chip's peak, against the MFU it states."""

import re

from calculators import catalog

from service.explain import restate
from service.explain.checks import verdicts
from service.explain.checks.comparison import table_row
from service.explain.checks.core import (Inputs, Result, chip_inputs, chips, compare, computed, discard, figure,
                                         model_inputs, n_chips, needs_more, params_missing, run, worked)
from service.explain.checks.job_kind import serving
from service.explain.document import Claim, Document
from service.i18n.messages import join_names, messages

_FP8 = re.compile(r"\bfp8\b|\bfloat8\b|\be4m3\b", re.I)
_PEAK_NEAR = re.compile(r"\bpeak\b|\btheoretical\b|\bmax(?:imum)?\b|\bpromised\b|الذروة|ذروة|القصوى|النظري", re.I)


LONG_SEQUENCE = 2048  # from here on attention's FLOPs per token are a share of 6N worth counting for a small model
# attention's share over 6N at the sequences models train on (12 x layers x width x sequence / 6N: about 0.27 for Llama 3
# 8B at 8,192 tokens, more for small models at long ones); up to this ratio a stated MFU above 6N's may count it
UNSAID_ATTENTION = 1.5


def mfu(doc: Document, claim: Claim) -> Result | None:
    """The mfu calculator with the text's rate, chips, model and chip."""
    stated = next((f for f in claim.figures if f.quantity == "mfu"), None)
    rate = next((f for f in claim.figures if f.quantity in ("tokens_per_s", "tokens_per_s_per_chip", "step_time_s")), None)
    if stated is None and rate is None or serving(doc, claim):
        return None
    if rate is None and stated.value == 1.0:
        return None  # "a reading above 100% ... MFU is bounded by 1": the bound every MFU has, not one the text measured
    if any(f.quantity == "expression" for f in claim.figures):
        return None  # "MFU = 64 * 8.6e15 / 4.31 / 256 / 989e12 = 50.5%": the text's own working, which the arithmetic check redoes
    own_rate = rate
    if rate is not None and any(f.quantity in ("flop_per_s_per_chip", "achieved_flop_per_s") for f in claim.figures):
        return None  # "199.5 TFLOP/s/GPU | 2839 ms": the row states its own rate per chip (achieved_rate); an MFU from an assumed model would contradict it
    if rate is None and (any(f.quantity in ("peak_flop_per_s", "flop_per_s_per_chip", "achieved_flop_per_s") for f in claim.figures)
                         or sum(f.quantity == "mfu" for f in claim.figures) >= 2):  # two MFUs compared (comparison)
        return None  # an MFU with its rate per chip or the peak it was taken on (achieved_rate, rebased_mfu): no throughput asked
    inputs = Inputs(doc.lang)
    missing = []
    rate = figure(doc, claim, "tokens_per_s", "tokens_per_s_per_chip")
    rate_said = rate.quote if rate is not None else ""  # the throughput as the text gives it, or the batch over the step time
    if rate is not None and rate.quantity == "tokens_per_s_per_chip":
        inputs.derived("n_chips", 1, rate.quote)
        inputs.text("tokens_per_s", rate)
    elif rate is not None:
        inputs.text("tokens_per_s", rate)
        if not n_chips(doc, claim, inputs):
            missing.append(_chips_missing(claim))
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
            said = inputs.sources.get("global_batch_tokens", {})
            rate_said = f"{said.get('quote') or said.get('from') or ''} / {step.quote}".strip(" /")
        if not n_chips(doc, claim, inputs):
            missing.append(_chips_missing(claim))
    if not model_inputs(doc, claim, inputs):
        missing.append(params_missing(doc, claim))
    if not chip_inputs(doc, claim, inputs):
        missing.append("peak_flop_per_s")
    if missing:
        if stated is None or (set(claim.kinds) <= {"measurement"} and (own_rate is None or table_row(doc, claim))):
            return None  # a reported MFU nobody asked to verify (a log line, a table row): listing what is missing is noise
        return needs_more(doc, missing)
    fp8 = _fp8_peak(doc, claim, inputs, stated)
    index = run(doc, "mfu", inputs)
    if index is None:
        return None
    value = doc.calculations[index]["outputs"]["mfu"]
    if stated is not None:
        result = compare(doc, stated, value, "mfu", [index])
        given = doc.calculations[index]["inputs"]
        long = max((f.value for f in doc.figures if f.quantity in ("seq_len", "context_len")), default=0)
        if result.verdict == "inconsistent" and stated.value > value and not given.get("n_layers") and long >= LONG_SEQUENCE:
            # 6 x parameters counts the weights' math only; at a long sequence attention adds FLOPs an "analytic" MFU
            # counts (a Snowball 67B-A2B run at 8,192 tokens: 19.5% stated, 11.4% by 6N): a higher figure is no error
            return Result([index], "needs_more", messages(doc.lang)["verdicts"]["attention_unsaid"].format(
                stated=stated.quote, computed=f"{value:.1%}", seq=f"{long:,.0f}"))
        if result.verdict == "inconsistent" and value < stated.value <= UNSAID_ATTENTION * value and not given.get("n_layers") and not long \
                and (rate is None or rate in claim.figures):  # another sentence's throughput is said as such below
            # no sequence length said: torchtitan's and Megatron's MFU count attention's FLOPs as well (Llama 3 8B at
            # 8,192 tokens: 9.77% logged, 8.1% by 6N, round 95), so a figure a little above 6N's proves no error
            return Result([index], "needs_more", messages(doc.lang)["verdicts"]["attention_seq_unsaid"].format(
                stated=stated.quote, computed=f"{value:.1%}"))
        chips_used = inputs.values.get("n_chips") or 1
        if result.verdict == "inconsistent" and rate is not None and rate.quantity == "tokens_per_s" and chips_used > 1 \
                and abs(value * chips_used / stated.value - 1) <= PER_CHIP_NEAR and not _TOTAL_SCOPE.search(_sentence_around(doc, rate)):
            # "TPS | MFU (%)" rows of 8 GPUs (round 59, PyTorch#179937): a rate per GPU, as torchtitan logs it, comes near
            # the stated MFU and the job's total is 8 times off; which one the text means it does not say
            return Result([index], "needs_more", messages(doc.lang)["verdicts"]["rate_scope_unsaid"].format(
                rate=rate.quote, stated=stated.quote + ("" if "%" in stated.quote or "٪" in stated.quote else "%"), per_chip=f"{value * chips_used:.1%}", total=f"{value:.1%}", chips=f"{chips_used:g}"))
        if result.verdict in ("inconsistent", "needs_more") and rate is not None and rate not in claim.figures:
            # the throughput is another sentence's, which may describe another setting ("turning on activation
            # checkpointing ... falls to 1600 tokens/s"): figures the sentence does not tie together prove no error
            words = messages(doc.lang)["verdicts"]
            # the working stays with the sentence that states the throughput, not under this one
            result = Result([], "needs_more", words["untied_rate"].format(rate=rate.quote, stated=stated.quote))
        return result
    if inputs.sources.get("chip", {}).get("source") == "assumed":
        discard(doc, index)  # an MFU on a chip the text does not name answers nothing it said
        return None
    chips_used = inputs.values.get("n_chips") or 1
    if rate is not None and rate.quantity == "tokens_per_s" and chips_used > 1 and value * chips_used <= 1 \
            and not _TOTAL_SCOPE.search(_sentence_around(doc, rate)):
        # "5378 TPS" on 4 GPUs, no MFU claimed: whether the rate is per GPU (as torchtitan logs it) or the job's total
        # is unsaid, and the MFU nobody asked for would differ fourfold between the two readings; only a rate no single
        # chip could reach ("1,500,000 tokens/sec" on 1,024 H100s) is the total for certain
        discard(doc, index)
        return None
    result = computed(doc, "mfu", value, [index])
    out, given = doc.calculations[index]["outputs"], doc.calculations[index]["inputs"]
    chip = catalog.hardware().get("chip", given["chip"]) if given.get("chip") else None
    if result.verdict is None and chip is not None and rate_said and out.get("model_flop_per_s_per_chip") and out.get("flops_per_token"):
        # what the figure means, not only its value: the model FLOP/s per chip the rate implies, over the chip's peak
        words = messages(doc.lang)["verdicts"]
        six_n = given.get("params") and abs(out["flops_per_token"] - 6 * given["params"]) <= 0.01 * out["flops_per_token"]
        result.why = words["mfu_from_rate_fp8" if fp8 else "mfu_from_rate"].format(
            rate=rate_said, per_token=restate.value("total_flops", out["flops_per_token"]) + (words["six_n"] if six_n else ""),
            flops=restate.value("flop_per_s_per_chip", out["model_flop_per_s_per_chip"]),
            chip=re.sub(r"^(?:NVIDIA|Google|AMD)\s+", "", chip["name"].split(" (")[0]),
            peak=restate.value("peak_flop_per_s", given["peak_flop_per_s"]), computed=restate.value("mfu", value))
    return result


PER_CHIP_NEAR = 0.2  # a rate read per chip within 20% of the stated MFU (6N leaves attention out) settles the scope is unsaid
_PER_CHIP_SHARE = re.compile(r"\bper[- ](?:GPU|chip|device|accelerator)\b|\beach (?:GPU|chip)\b|لكل (?:وحدة|شريحة)", re.I)


def achieved_rate(doc: Document, claim: Claim) -> Result | None:
    """"420 TFLOP/s per GPU, which is 42% MFU": the rate per chip over the chip's dense peak (catalog), against the MFU.

    The calculator only divides; the verdict is the table's (data/verdicts.json), so the working never judges on its own."""
    # "52% of peak" (hfu) is the same ratio of the rate to the chip's peak
    stated = next((f for f in claim.figures if f.quantity in ("mfu", "hfu")), None)
    rate = next((f for f in claim.figures if f.quantity in ("flop_per_s_per_chip", "achieved_flop_per_s")), None)
    totals = [f for f in claim.figures if f.quantity == "flop_per_s"]
    counts = [f for f in claim.figures if f.quantity == "n_chips" and f.value > 1]
    # "502 petaFLOP/s on 3072 GPUs (per-GPU throughput of 52% of theoretical peak)": the whole job's rate over its chips
    over = counts[0] if rate is None and len(totals) == 1 and len(counts) == 1 and _PER_CHIP_SHARE.search(claim.quote) else None
    rate = totals[0] if over is not None else rate
    if stated is None or rate is None:
        return None
    found = [c for c in chips(doc, claim) if not doc.named_only_generically(c)]
    if not claim.chips and not any(getattr(f, "chip", None) for f in claim.figures) \
            and len([c for c in doc.chips() if not doc.named_only_generically(c)]) > 1:
        found = []  # a row of a text naming H100, B200 and A100: which chip's peak the share is of is the text's to say
    if not found and over is not None:  # "3072 GPUs" in the sentence after "over 3,000 A100 GPUs": the text's one chip
        found = [c for c in doc.chips() if not doc.named_only_generically(c)]
        found = found if len(found) == 1 else []
    if not found:
        return None if over is not None else _implied_peak(doc, rate, stated)  # "per GPU": the peak the share implies
    chip = found[0]
    precision = "fp8" if _FP8.search(claim.quote) and chip.get("peak_fp8_flop_per_s") else "bf16"
    peak = chip.get(f"peak_{precision}_flop_per_s")
    if not peak:
        return needs_more(doc, ["peak_flop_per_s"])
    inputs = Inputs(doc.lang)
    expression = f"{rate.value / 1e12:g} TFLOP/s / {peak / 1e12:g} TFLOP/s"  # the working reads "420 TFLOP/s / 989 TFLOP/s"
    if over is not None:
        expression = f"{rate.value / 1e12:g} TFLOP/s / {over.value:g} / {peak / 1e12:g} TFLOP/s"
    inputs.text_with("expression", expression, rate.quote, f"{chip['name']} dense {precision} peak ({peak / 1e12:g} TFLOP/s, data/hardware.json)")
    index = run(doc, "arithmetic", inputs)
    if index is None:
        return None
    return compare(doc, stated, doc.calculations[index]["outputs"]["value"], "mfu", [index])


_NO_CHIP_PEAK = 2e16  # above every chip's densest low-precision peak in data/hardware.json


def _implied_peak(doc: Document, rate, stated) -> Result | None:
    """"156 TFLOP/s per GPU (50% of peak)" with no chip named: the peak that implies (rate / share), and the catalog chip
    whose dense peak it is, said in words (explained: which chip it was is the text's to say)."""
    if not stated.value or not verdicts.possible("mfu", stated.value):
        return None
    if _PEAK_NEAR.search(doc.text[max(0, rate.start - 30):rate.start]):
        return None  # "peak TFLOPs: 125" is the peak the share is of: dividing it by the share means nothing
    index = worked(doc, f"{rate.value / 1e12:g} TFLOP/s / {stated.value:g}", f"{rate.quote} / {stated.quote}")
    if index is None:
        return None
    peak = doc.calculations[index]["outputs"]["value"]
    if peak > _NO_CHIP_PEAK:
        discard(doc, index)
        return None  # "15.1 PetaFLOPs at 30%": the share belongs to another rate; no one chip has a 50 PFLOP/s peak
    match = [(c, p) for c in catalog.hardware().entries for p in ("bf16", "fp8")
             if c.get(f"peak_{p}_flop_per_s") and abs(c[f"peak_{p}_flop_per_s"] - peak) <= 0.01 * peak]
    m = messages(doc.lang)["verdicts"]
    shown = restate.value("peak_flop_per_s", peak)
    names = list(dict.fromkeys(re.sub(r"^(?:NVIDIA|Google|AMD)\s+", "", re.split(r" \(| SXM| PCIe| NVL", c["name"])[0]) for c, _ in match))
    if match and len({p for _, p in match}) == 1:
        why = m["implied_peak_chip"].format(rate=rate.quote, share=stated.quote, peak=shown, chips=join_names(names[:3], doc.lang),
                                            precision=match[0][1].upper())
    else:
        why = m["implied_peak"].format(rate=rate.quote, share=stated.quote, peak=shown)
    return Result([index], None, why)


def _fp8_peak(doc: Document, claim: Claim, inputs: Inputs, stated) -> bool:
    """A throughput the sentence says was reached in FP8 ("Using FP8 precision: ~1,487,000 tokens/sec", round 102 P21)
    is set against the chip's dense FP8 peak, not its bf16 one; only where no MFU is stated (a stated MFU keeps the peak
    its author most likely used, which frameworks take as bf16's)."""
    chip = catalog.hardware().get("chip", inputs.values["chip"]) if inputs.values.get("chip") else None
    if stated is not None or chip is None or not chip.get("peak_fp8_flop_per_s") or "peak_flop_per_s" in inputs.values \
            or not _FP8.search(claim.quote):
        return False
    inputs.derived("peak_flop_per_s", chip["peak_fp8_flop_per_s"], f"{chip['name']} dense FP8 peak (data/hardware.json)")
    return True


def _chips_missing(claim: Claim) -> str:
    """What the check lacks for the chips: the whole run's count where a degree is stated ("EP64" spans 64 of them,
    which the answer reads as such, but the run may hold more)."""
    return "n_chips_all" if any(f.quantity.endswith("_degree") for f in claim.figures) else "n_chips"


# words that make a throughput the whole job's, summed over its chips ("1.3M tokens/s in total across 104 GPUs")
_TOTAL_SCOPE = re.compile(r"\b(?:total|in all|aggregate|overall|combined|cluster|whole|entire|system|across|over all|all (?:the )?(?:GPUs|chips|nodes))\b"
                          r"|إجمالي|الإجمالي|مجموع|عبر|كامل", re.I)


def _sentence_around(doc: Document, fig) -> str:
    """The sentence a figure stands in (the text around it when it is in none)."""
    for start, end in doc.sentences:
        if start <= fig.start < end:
            return doc.text[start:end]
    return doc.text[max(0, fig.start - 120):fig.end + 120]
