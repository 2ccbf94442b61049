"""Products and divisions a text implies with its own figures: a size stated as a product (175B x 16 bytes = 2.8 TB),
a system's rate over its chips, micro-batches per step, experts per GPU, and the MFU that training FLOPs over chips,
peak and time imply. Figures from other sentences are used only when the text gives one value of them (one set-up)."""

import re

from calculators import catalog
from calculators.arithmetic import evaluate
from calculators.errors import CalculatorInputError

from service.explain import restate
from service.explain.checks import names, training_time, verdicts
from service.explain.checks.core import Inputs, Result, chip_inputs, compare, competing, impossible, run, unique, written, said
from service.explain.document import Claim, Document
from service.i18n.messages import join_names, messages

_APPROX = re.compile(r"~|≈|about|approx|roughly|around|nearly|حوالي|نحو|تقريب", re.I)
_BYTES_PER = {"fp32": 4, "float32": 4, "bf16": 2, "bfloat16": 2, "fp16": 2, "float16": 2, "fp8": 1, "int8": 1}
_WEIGHT_FORMAT = re.compile(r"\b(fp32|float32|bf16|bfloat16|fp16|float16|fp8|int8)\s+weights\b|\bweights\s+(?:in|at)\s+(fp32|float32|bf16|bfloat16|fp16|float16|fp8|int8)\b"
                            r"|\b[Ii]n\s+(fp32|float32|bf16|bfloat16|fp16|float16|fp8|int8)\b[^.;]{0,40}?\bof\s+weights\b", re.I)  # "In BF16 that is 350 GB of weights"
# "8 x 24 Gb", "8 dies of 24 Gb": a size in bits (a lower-case b, not a rate), with the count it is multiplied by
_BITS_SIZE = re.compile(r"(?:(?<![\w.])(\d+)\s*(?:[x×*]|\w+\s+of)\s*)?(?<![\w.])(\d+(?:\.\d+)?)\s*([KMGT])b(?:its?)?\b(?!\s*/\s*s|ps)")
_PREFIX = {"K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}
# "a 1x64x4x1 mesh", "(2, 64, 2) mesh", "4x4x4 topology": three or more axis sizes whose product is the device count
# or a quoted axis list as configs write it: mesh_dim='1,64,4,1'
_MESH = re.compile(r"(?<![\w.])(\d+(?:\s*[x×]\s*\d+){2,})(?![\w.])|\((\s*\d+(?:\s*,\s*\d+){2,}\s*)\)"
                   r"|(?<=['\"=])(\d+(?:,\d+){2,})(?=['\"\s,;)]|$)")
_MESH_WORD = re.compile(r"\bmesh(?:_\w+)?\b|\btopology\b|\bshape\b|\baxes\b|\bslice\b|شبكة الأجهزة|طوبولوجيا", re.I)
_PHASE = re.compile(r"\bphase|\bstage\b|long[- ]context|anneal|pre-?train|fine-?tun|warm-?up|post-?train|مرحلة|المرحلة", re.I)
_EXPERTS = ("moe_experts", "experts", "n_experts")
_EACH_CHIP = re.compile(r"\b(?:each|every|per|one)\s+(?:GPU|chip|device|rank|accelerator)\b[^.;]*$|(?:كل|لكل)\s+(?:وحدة|شريحة|جهاز)[^.؛]*$", re.I)


def stated_arithmetic(doc: Document, expression: str, quote: str, stated, approx: bool = False, exact: bool = False) -> int | None:
    """The arithmetic calculator on an expression built from the text's figures, against a stated figure."""
    rule = verdicts.table()["tolerances"]
    inputs = Inputs(doc.lang)
    inputs.values["expression"], inputs.sources["expression"] = expression, {"source": "text", "quote": quote}
    if stated is not None:
        share = rule["whole_numbers"]["share"] if exact else rule["written_arithmetic"]["approx_share" if approx else "share"]
        inputs.values.update(stated_result=_as_stated(stated), tolerance=max(share, 1e-9))
        inputs.sources.update(stated_result={"source": "text", "quote": stated.quote}, tolerance={"source": "derived", "from": stated.quote})
    return run(doc, "arithmetic", inputs)


def _as_stated(stated):
    """A size in bytes as the text writes it ("2.8 TB", so the working shows bytes), else the stated value."""
    if stated.quantity in ("bytes_total", "bytes", "weights_bytes", "size_bytes"):
        try:
            if abs(evaluate(stated.quote) - stated.value) <= 1e-9 * abs(stated.value):
                return stated.quote
        except CalculatorInputError:
            pass
    return stated.value


def product_verdict(doc: Document, index: int, stated, quantity: str) -> Result:
    out = doc.calculations[index]["outputs"]
    verdict = "consistent" if out["consistent"] else "inconsistent"
    computed = restate.value(quantity, out["value"])
    tolerance = doc.calculations[index]["inputs"].get("tolerance") or 0.02
    steps = 0 if out["consistent"] else verdicts.binary_units(stated.quote, stated.value, out["value"], tolerance, whole_unit=True)
    if steps:  # "130 GB" beside "70B params x 2 bytes": the text writes GiB as GB (1,024^3 bytes), as many pages do
        verdict, computed = "consistent", restate.value(quantity, out["value"] / 1.024 ** steps) + messages(doc.lang)["verdicts"]["binary_units"]
        index = _in_binary_units(doc, index, steps)
    return Result([index], verdict, messages(doc.lang)["verdicts"][verdict].format(stated=said(doc, stated), computed=computed))


def _in_binary_units(doc: Document, index: int, steps: int) -> int:
    """The calculation redone with its result read in powers of 1,024, so that its working agrees with the verdict
    ("(7e10 * 2) / 1.024^3 = 130.4 GB: consistent", never "off by 7.7%: inconsistent" under a consistent verdict)."""
    done = doc.calculations[index]
    inputs = Inputs(doc.lang)
    inputs.values = {k: v for k, v in done["inputs"].items() if v is not None}
    inputs.sources = {k: v for k, v in done.get("input_sources", {}).items() if k in inputs.values}
    inputs.values["expression"] = f"({inputs.values['expression']}) / 1.024^{steps}"
    again = run(doc, "arithmetic", inputs)
    if again is None or not doc.calculations[again]["outputs"].get("consistent"):
        return index
    if again == len(doc.calculations) - 1 and index == again - 1 and not any(index in c.calculations for c in doc.claims):
        doc.calculations[index] = doc.calculations.pop()  # the decimal working is no finding: the binary one takes its place
        return index
    return again


def stated_product(doc: Document, claim: Claim) -> Result | None:
    """"175B x 16 bytes, or 2.8 TB": parameters x bytes per parameter against the size stated beside them; "FP16 weights
    are about 350 GB": the text's one parameter count x the format's bytes."""
    params = next((f for f in claim.figures if f.quantity == "params"), None)
    pers = [f for f in claim.figures if f.quantity == "bytes_per_param"]
    if len(pers) > 1:  # "2 bytes per parameter for weights ..., plus about 16 bytes per parameter for Adam's moments"
        return _added_per_param(doc, claim, params, pers)
    per = next(iter(pers), None)
    if per is None:
        params, per = _written_product(doc, claim, params)
    size = next((f for f in claim.figures if f.quantity in ("bytes_total", "bytes", "weights_bytes", "size_bytes") and f is not per
                 and f.value > 1e6 and not PER_CHIP_AFTER.match(doc.text, f.end)), None)  # "26 GB per GPU" is one chip's share
    approx = bool(_APPROX.search(claim.quote))
    if params is not None and per is not None and size is not None:
        index = stated_arithmetic(doc, f"{params.value:g} * {per.value:g}", f"{params.quote} x {per.quote}", size, approx)
        return None if index is None else product_verdict(doc, index, size, "bytes")
    fmt = _WEIGHT_FORMAT.search(claim.quote)
    if fmt is None or size is None or per is not None:
        return None
    params = unique(doc, claim, "params")
    if params is None:
        return None
    width = _BYTES_PER[(fmt.group(1) or fmt.group(2) or fmt.group(3)).lower()]
    index = stated_arithmetic(doc, f"{params.value:g} * {width}", f"{params.quote} x {width} bytes ({fmt.group(0)})", size, approx)
    return None if index is None else product_verdict(doc, index, size, "bytes")


_PLUS = re.compile(r"\bplus\b|\+|\band\b|\bwith\b", re.I)


def _added_per_param(doc: Document, claim: Claim, params, pers: list) -> Result | None:
    """Several bytes per parameter added up ("2 bytes ... plus 16 bytes ..."): the count times their sum against the
    size; written otherwise (a choice, "2 or 4 bytes"), which one the size rests on is a guess, and nothing is judged."""
    if params is None or not all(_PLUS.search(doc.text[a.end:b.start]) for a, b in zip(pers, pers[1:])):
        return None
    size = next((f for f in claim.figures if f.quantity in ("bytes_total", "bytes", "weights_bytes", "size_bytes") and f.value > 1e6
                 and not PER_CHIP_AFTER.match(doc.text, f.end)), None)
    if size is None:
        return None
    total = " + ".join(f"{f.value:g}" for f in pers)
    index = stated_arithmetic(doc, f"{params.value:g} * ({total})", f"{params.quote} x ({' + '.join(f.quote for f in pers)})", size,
                              bool(_APPROX.search(claim.quote)))
    return None if index is None else product_verdict(doc, index, size, "bytes")


PER_CHIP_AFTER = re.compile(r"\s*(?:/\s*|per\s+|each\s+|on\s+each\s+)(?:GPU|rank|device|chip|card|accelerator)s?\b|\s+each\b", re.I)
_TIMES_SIGN = re.compile(r"^\s*\)?\s*[x×*]\s*\(?\s*$")
_BYTES_WORD = re.compile(r"\s*(?:bytes?\b|B\b|بايت)", re.I)


def _written_product(doc: Document, claim: Claim, params):
    """"(300 × 10^6) * (4 bytes) = 1.2 GB", "300M x 4 bytes": a count of parameters times a few bytes written as a
    product (the bytes figure read as a size of 4 bytes, or a bare 4 before the word); (params, per) or (params, None)."""
    for first, second in zip(claim.figures, claim.figures[1:]):
        if not _TIMES_SIGN.match(doc.text[first.end:second.start]):
            continue
        big = first.quantity in ("params", "count", "number") and first.value >= 1e6
        small = second.quantity in ("bytes", "number", "bytes_per_param") and 0 < second.value <= 32 and (
            second.quantity != "number" or _BYTES_WORD.match(doc.text, second.end))
        if big and small:
            return first, second
    return params, None


_PER_POD = re.compile(r"\s+(?:per|in\s+(?:a|one|each))\s+(?:pod|superpod|SuperPod|system)\b", re.I)  # "9,216 chips per pod": the pod's chips


def per_chip_total(doc: Document, claim: Claim) -> Result | None:
    """"9,216 chips give 42.5 exaflops" with "4,614 TFLOPs" per chip stated: the total over the chips against it."""
    total = next((f for f in claim.figures if f.quantity in ("peak_flop_per_s_total", "flop_per_s")), None)
    count = next((f for f in claim.figures if f.quantity == "n_chips"), None) or next(
        (f for f in claim.figures if f.quantity == "chips_per_node" and _PER_POD.match(doc.text, f.end)), None)
    own_per = next((f for f in claim.figures if f.quantity == "peak_flop_per_s"), None)
    named = names.slices(claim.quote)
    if total is None and own_per is not None and own_per.value:
        return _total_elsewhere(doc, claim, own_per)
    if total is not None and count is None and own_per is not None and len(named) == 1:
        return _slice_total(doc, named[0], total, own_per)
    if total is not None and count is None and own_per is not None and own_per.value:
        # "totals 2,200 TFLOPS: each chip has 275 TFLOPS": the chip count the two imply, said
        index = stated_arithmetic(doc, f"{total.value:g} / {own_per.value:g}", f"{total.quote} / {own_per.quote}", None)
        if index is None:
            return None
        value = doc.calculations[index]["outputs"]["value"]
        return Result([index], None, messages(doc.lang)["verdicts"]["chips_implied"].format(
            total=total.quote, per=own_per.quote, computed=f"{value:.3g}"))
    if total is None or count is None or not count.value:
        return None
    per = unique(doc, claim, "peak_flop_per_s", "flop_per_s_per_chip")
    counts = {f.value: f for f in claim.figures if f.quantity == "n_chips" and f.value}
    if len(counts) > 1:  # "256 chips, or 9,216 giving 42.5 exaflops": the total is one configuration's; a wrong pick is
        # a false 'inconsistent', so only the count the per-chip figure bears out is taken, else none
        count = next((c for v, c in counts.items() if per is not None and per.value
                      and abs(total.value / v / per.value - 1) <= 0.05), None)
        if count is None:
            return None
    index = stated_arithmetic(doc, f"{total.value:g} / {count.value:g}", f"{total.quote} / {count.quote}", per, True)
    if index is None:
        return None
    value = doc.calculations[index]["outputs"]["value"]
    if per is not None:
        result = compare(doc, per, value, "peak_flop_per_s", [index])
        return result
    return Result([index], None, messages(doc.lang)["verdicts"]["per_chip_total"].format(
        total=total.quote, chips=count.quote, computed=restate.value("peak_flop_per_s", value)))


def _total_elsewhere(doc: Document, claim: Claim, per) -> Result | None:
    """"9216 chips, each 4614 TFLOPs" with "42.5 exaflops" in another sentence, the text's only total rate: chips x per chip
    against it. Consistent only: which of the sentence's set-ups the total is about is uncertain, so a mismatch says nothing."""
    totals = [f for f in doc.figures if f.quantity in ("peak_flop_per_s_total", "flop_per_s") and f.value > per.value]
    if len({f.value for f in totals}) != 1:
        return None
    total = totals[0]
    for count in (f for f in claim.figures if f.quantity == "n_chips" and f.value > 1):
        product = count.value * per.value
        if abs(product - total.value) > verdicts.table()["tolerances"]["written_arithmetic"]["share"] * total.value:
            continue
        index = stated_arithmetic(doc, f"{count.value:g} * {per.value:g}", f"{count.quote} x {per.quote}", total)
        if index is None:
            return None
        return Result([index], "consistent", messages(doc.lang)["verdicts"]["consistent"].format(
            stated=restate.value("peak_flop_per_s", total.value),
            computed=f"{count.value:,.0f} {'×' if doc.lang == 'ar' else 'x'} {restate.value('peak_flop_per_s', per.value)} = {restate.value('peak_flop_per_s', product)}"))
    return None


def _slice_total(doc: Document, named, total, per) -> Result | None:
    """"A v4-8 totals 2,200 TFLOPS at 275 per chip": the chips the slice's name stands for x the per-chip peak, against the total."""
    reading = names.slice_reading(doc.lang, named)
    index = stated_arithmetic(doc, f"{named.chips} * {per.value:g}", f"{named.quote}: {named.chips} chips x {per.quote}", total, exact=True)
    if index is None:
        return None
    out = doc.calculations[index]["outputs"]
    key = "slice_total_ok" if out["consistent"] else "slice_total"
    why = messages(doc.lang)["verdicts"][key].format(reading=reading, chips=named.chips, per=per.quote,
                                                     computed=restate.value("peak_flop_per_s", out["value"]), stated=total.quote)
    return Result([index], "consistent" if out["consistent"] else "inconsistent", why)


def microbatches(doc: Document, claim: Claim) -> Result | None:
    """Global batch / (micro-batch x DP) = micro-batches per step, against the number stated (whole numbers: exact)."""
    stated = next((f for f in claim.figures if f.quantity == "microbatches"), None)
    batch = unique(doc, claim, "global_batch_sequences")
    micro, dp = unique(doc, claim, "micro_batch"), unique(doc, claim, "dp_degree")
    if batch is None or micro is None or dp is None or not (micro.value and dp.value):
        return None
    if stated is None and not all(f in claim.figures for f in (batch, micro, dp)):
        return None  # the sentence that states the micro-batches (or all three figures) is the one checked
    expression = f"{batch.value:g} / ({micro.value:g} * {dp.value:g})"
    index = stated_arithmetic(doc, expression, f"{batch.quote} / ({micro.quote} x {dp.quote})", stated, exact=True)
    if index is None:
        return None
    value = doc.calculations[index]["outputs"]["value"]
    why = messages(doc.lang)["verdicts"]["microbatches"].format(batch=batch.quote, micro=micro.quote, dp=dp.quote, computed=restate.value("microbatches", value))
    if stated is None:
        return Result([index], None, why)
    verdict = "consistent" if doc.calculations[index]["outputs"]["consistent"] else "inconsistent"
    return Result([index], verdict, why if verdict == "consistent" else messages(doc.lang)["verdicts"][verdict].format(
        stated=stated.quote, computed=restate.value("microbatches", value)))


_SIZED_NAME = re.compile(r"\b[A-Za-z][\w.]*-\d+(?:\.\d+)?[BMT](?:-A\d+(?:\.\d+)?B)?\b")


MODEL_REACH = 60  # characters between a model's name and its EP degree for the catalog's expert count to be the text's subject


_REDUNDANT = re.compile(r"\bredundant\b[^.\n]{0,30}\bexperts?\b|\breplicated\s+experts?\b|\bEPLB\b|خبراء\s+(?:احتياطي|زائد|مكرر)", re.I)


def experts_per_chip(doc: Document, claim: Claim) -> Result | None:
    """Experts / the stated expert-parallel degree = experts per GPU (stated experts, else the named model's), and whether it divides."""
    degrees = [f for f in claim.figures if f.quantity == "ep_degree" and f.value > 1]
    if not degrees or _REDUNDANT.search(doc.text):
        return None  # "256 experts and 32 redundant experts ... each card 9": the copies count too (round 86 P02's 256 / 32 = 8)
    # "each GPU processing two experts" states the result, not the model's expert count
    stated = [f for f in claim.figures if f.quantity in _EXPERTS and _EACH_CHIP.search(doc.text[max(0, f.start - 40):f.start])]
    experts = next((f for f in claim.figures if f.quantity in _EXPERTS and f not in stated), None) or unique(doc, claim, *_EXPERTS)
    if experts in stated:
        experts = None
    if experts is not None and experts not in claim.figures and experts.value < max(d.value for d in degrees):
        return None  # "2 out of 4 experts per rank" elsewhere: fewer experts than GPUs is a count per rank, not the model's
    if experts is not None:
        count, quote, origin = experts.value, f"{experts.value:g}", "the text's expert count"
    elif not re.search(r"\bexperts?\b|خبراء|خبير", claim.quote, re.I) and not any(
            m.kind == "model" and abs(m.start - d.start) <= MODEL_REACH for m in doc.mentions for d in degrees):
        return None  # "TP1/PP8/VPP4/EP32 ... (the first three layers of DeepSeek-v3)": no one said the experts per GPU (round 67)
    else:
        # the sentence's own model, else the text's only one: "Qwen3-235B-A22B ... under DP8+EP8" is not about the Kimi K2
        # the text names elsewhere (round 47, vLLM#43375: K2's 384 experts over EP8 said as 48 per GPU)
        named = claim.models or doc.models()
        models = [m for m in named if m.get("moe_experts")]
        if len(models) != 1 or len(named) != 1 or not claim.models and _SIZED_NAME.search(claim.quote):
            return None  # the sentence names a model the catalog lacks ("Qwen3-235B-A22B"): not the text's other one
        count, quote = float(models[0]["moe_experts"]), f"{models[0]['moe_experts']:g}"
        origin = f"{models[0]['name']}: {quote} routed experts (data/models.json)"
    calculations, reasons, uneven = [], [], False
    m = messages(doc.lang)["verdicts"]
    for ep in degrees:
        inputs = Inputs(doc.lang)
        inputs.text_with("expression", f"{count:g} / {ep.value:g}", ep.quote if experts is None else f"{experts.quote} / {ep.quote}", origin)
        index = run(doc, "arithmetic", inputs)
        if index is None:
            continue
        calculations.append(index)
        value = doc.calculations[index]["outputs"]["value"]
        even = float(value).is_integer()
        uneven |= not even
        key = "experts_uneven" if not even else "expert_per_chip" if value == 1 else "experts_per_chip"
        said = m[key].format(experts=quote, ep=ep.quote, computed=f"{value:g}")
        if experts is None and not reasons:  # a number the text does not give is said with whose it is (a round-24 reader
            said = m["catalog_experts"].format(model=models[0]["name"], count=quote) + said  # counted it wrong), once
        reasons.append(said)
    if not calculations:
        return None
    if len(stated) == 1 and len(calculations) == 1:  # the per-GPU count the text states, judged (whole numbers: exact)
        value = doc.calculations[calculations[0]]["outputs"]["value"]
        return Result(calculations, "consistent" if value == stated[0].value else "inconsistent",
                      "; ".join(reasons) if value == stated[0].value else m["inconsistent"].format(stated=stated[0].quote, computed=f"{value:g}"))
    return Result(calculations, None, "; ".join(reasons))


def implied_mfu(doc: Document, claim: Claim) -> Result | None:
    """Training FLOPs / (chips x peak x time) = the MFU they imply, against a stated MFU; each figure the text's only
    value of its quantity (else needs_more naming the competing figures)."""
    mfu = next((f for f in claim.figures if f.quantity == "mfu"), None)
    time = next((f for f in claim.figures if f.quantity == "time_s"), None)
    if mfu is None and time is None or training_time.phased(claim):
        return None  # a run in phases ("6144 chips for 1200 hours + 3072 chips for 336 hours"): no one chips x time
    flops = next((f for f in claim.figures if f.quantity == "total_flops"), None) or unique(doc, claim, "total_flops")
    if flops is None or (flops not in claim.figures and mfu is None):
        return None
    m = messages(doc.lang)
    for quantity in ("time_s", "n_chips", "total_flops"):
        found = competing(doc, quantity)
        if found and not any(f in claim.figures for f in found):
            return Result([], "needs_more", m["verdicts"]["competing"].format(
                name=m["quantity_names"].get(quantity, quantity), quotes=join_names([f.quote for f in found], doc.lang)))
    time, chips = time or unique(doc, claim, "time_s"), unique(doc, claim, "n_chips")
    inputs = Inputs(doc.lang)
    if time is None or chips is None or not chip_inputs(doc, claim, inputs):
        return None
    if _sentence_of(doc, flops) != _sentence_of(doc, time) and any(_PHASE.search(_sentence_of(doc, f)) for f in (flops, time)):
        # "Pre-training used 3.8e25 FLOPs. The annealing phase took 3 days.": a phase is named, so not one run's figures
        return Result([], "needs_more", m["verdicts"]["phases_flops"].format(flops=flops.quote, time=time.quote))
    peak = inputs.values.get("peak_flop_per_s")
    origin = m["verdicts"]["peak_from_text"]
    if peak is None:  # the named chip's dense 16-bit peak (data/hardware.json)
        chip = catalog.hardware().get("chip", inputs.values["chip"])
        peak = chip.get("peak_bf16_flop_per_s")
        origin = m["verdicts"]["peak_from_catalog"].format(chip=re.sub(r"^(?:NVIDIA|Google|AMD)\s+", "", chip["name"]))
    if not peak:
        return None
    expression = f"{flops.value:g} / ({chips.value:g} * {peak:g} * {time.value:g})"
    calc = Inputs(doc.lang)
    calc.expression(expression, f"{flops.quote} / ({chips.quote} x {restate.value('peak_flop_per_s', peak)} x {time.quote})")
    index = run(doc, "arithmetic", calc)
    if index is None:
        return None
    value = doc.calculations[index]["outputs"]["value"]
    if not verdicts.possible("mfu", value):
        return impossible(doc, written("mfu", value), [index])
    if mfu is not None:
        return compare(doc, mfu, value, "mfu", [index])
    return Result([index], None, m["verdicts"]["implied_mfu_flops"].format(
        flops=flops.quote, chips=chips.quote, peak=restate.value("peak_flop_per_s", peak), time=time.quote, mfu=restate.value("mfu", value),
        origin=origin))


def bits_to_bytes(doc: Document, claim: Claim) -> Result | None:
    """A memory size in bits restated in bytes ("8 x 24 Gb = 24 GB"): equal once divided by 8; off by exactly 8 is bits read as bytes."""
    found = _BITS_SIZE.search(claim.quote)
    if found is None:
        return None
    count = float(found.group(1) or 1)
    bits = float(found.group(2)) * _PREFIX[found.group(3)]
    stated = next((f for f in claim.figures if verdicts.kind(f.quantity) == "memory" and f.start - claim.start >= found.end()), None)
    if stated is None:
        return None
    quote = found.group(0).strip()
    index = stated_arithmetic(doc, f"{count:g} * {bits:g} / 8", f"{quote} / 8 bits per byte", stated, bool(_APPROX.search(claim.quote)))
    if index is None:
        return None
    value = doc.calculations[index]["outputs"]["value"]
    if doc.calculations[index]["outputs"]["consistent"]:
        return product_verdict(doc, index, stated, "bytes")
    if abs(stated.value / value - 8) <= 0.16:  # the bits were read as bytes
        return Result([index], "inconsistent", messages(doc.lang)["verdicts"]["bits_bytes_size"].format(
            first=quote, computed=restate.value("bytes", value), stated=stated.quote))
    return Result([index])  # another factor (per die vs per stack): no finding


def mesh(doc: Document, claim: Claim) -> Result | None:
    """A device mesh or topology written as axis sizes ("1x64x4x1", "(2, 64, 2)", mesh_dim='1,64,4,1') against the chips
    the sentence states for it: the product is the device count (whole numbers: exact). Several meshes in one sentence
    are each paired with the count written after it; when one disagrees, only the disagreement is said."""
    if not _MESH_WORD.search(claim.quote):
        return None
    found = [m for m in _MESH.finditer(claim.quote) if not _thousands(m)]
    counts = [f for f in claim.figures if f.quantity == "n_chips"]
    if not found or not counts:
        return None
    pairs = []
    for i, match in enumerate(found):
        end = found[i + 1].start() if i + 1 < len(found) else len(claim.quote)
        count = next((f for f in counts if match.end() <= f.start - claim.start < end), None)
        if count is None and len(found) == 1 and len(counts) == 1:
            count = counts[0]  # "64 chips with a 4x4x4 mesh": the sentence's one count
        if count is not None:
            pairs.append((match, count))
    results = []
    for match, count in pairs:
        sizes = [int(n) for n in re.findall(r"\d+", next(g for g in match.groups() if g))]
        index = stated_arithmetic(doc, " * ".join(str(n) for n in sizes), match.group(0).strip(), count, exact=True)
        if index is None:
            continue
        result = product_verdict(doc, index, count, "n_chips")
        if result.verdict == "inconsistent":  # the mesh named, its product worked out, the stated count beside it
            written = f"'{match.group(3)}'" if match.group(3) else match.group(0).strip()  # a config value keeps its quotes
            result.why = messages(doc.lang)["verdicts"]["mesh_product"].format(
                mesh=written, product=(" × " if doc.lang == "ar" else " x ").join(str(n) for n in sizes),
                computed=f"{doc.calculations[index]['outputs']['value']:g}",
                stated=count.quote if restate.same_language(count.quote, doc.lang) else f"{count.value:g}")  # no English words in Arabic
        results.append(result)
    wrong = [r for r in results if r.verdict == "inconsistent"]
    if not results:
        return None
    keep = wrong or results
    return Result([i for r in keep for i in r.calculations], keep[0].verdict, "; ".join(r.why for r in keep))


def _thousands(match: re.Match) -> bool:
    """'1,024,000' is one number written with thousands separators, not three axis sizes."""
    text = match.group(3)
    return bool(text) and all(len(part) == 3 for part in text.split(",")[1:]) and len(text.split(",")[0]) <= 3


def flops_per_token(doc: Document, claim: Claim) -> Result | None:
    """A rate per device in FLOP/s beside tokens per second per device: FLOPs per token, and the model size it implies at
    6 FLOPs per parameter per token (Kaplan et al. 2020), said in words."""
    rate = next((f for f in claim.figures if f.quantity == "flop_per_s_per_chip"), None)
    tokens = next((f for f in claim.figures if f.quantity == "tokens_per_s_per_chip"), None)
    stated = unique(doc, claim, "params", "active_params")
    if rate is None or tokens is None or not tokens.value or stated is None:
        return None  # a model size inferred from a log line is a curiosity, not a check, unless the text states the size
    index = stated_arithmetic(doc, f"{rate.value:g} / {tokens.value:g}", f"{rate.quote} / {tokens.quote}", None)
    if index is None:
        return None
    per_token = doc.calculations[index]["outputs"]["value"]
    if not 0.5 <= per_token / 6 / stated.value <= 1.5:  # "DeepSeek V3 671B": 41.6B at 6 FLOPs per parameter is its active
        return Result([index], None, messages(doc.lang)["verdicts"]["flops_per_token_only"].format(  # share, which the
            rate=rate.quote, tokens=tokens.quote, computed=restate.value("total_flops", per_token)))  # text never gives (round 88 P14)
    return Result([index], None, messages(doc.lang)["verdicts"]["flops_per_token"].format(
        rate=rate.quote, tokens=tokens.quote, computed=restate.value("total_flops", per_token), params=restate.value("params", per_token / 6)))


def _sentence_of(doc: Document, fig) -> str:
    """The sentence (claim) a figure is stated in, or the text around it."""
    claim = next((c for c in doc.claims if c.start <= fig.start < c.end), None)
    return claim.quote if claim is not None else doc.text[max(0, fig.start - 80):fig.end + 80]
