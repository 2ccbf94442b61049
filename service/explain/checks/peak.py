"""Share of peak: a rate per chip over the named chip's dense peak at the stated precision (data/hardware.json), and a
stated peak that is the 2:4-sparsity figure (twice the dense one, data/verdicts.json "sparsity")."""

import re
from types import SimpleNamespace

from calculators.layout_inputs import efficiencies

from service.explain import restate
from service.explain.checks import verdicts
from service.explain.checks.comparison import earlier_side
from service.explain.checks.core import Inputs, Result, chips, discard, impossible, run, worked
from service.explain.document import Claim, Document
from service.i18n.messages import messages

# The format a rate is measured in; 16-bit formats share the bf16 peak (the datasheets list FP16 and BF16 together).
_PRECISION = re.compile(r"\b(?:mx)?fp8\b|\bfloat8\b|\be4m3\b|\be5m2\b|\bfp8[_-]mx\b|(?P<b16>\bbf16\b|\bbfloat16\b|\bfp16\b|\bfloat16\b|16-bit)"
                        r"|(?P<other>\bfp32\b|\bfloat32\b|\btf32\b|\b(?:nv|mx)?fp4\b|\bfp64\b|\bint8\b)", re.I)
_RATES = ("flop_per_s_per_chip", "achieved_flop_per_s")
# "beyond the peak tflops of A800", "higher than the theoretical peak": the text itself finds the rate above the peak
_ABOVE_PEAK_SAID = re.compile(r"\b(?:beyond|above|exceeds?|exceeding|over|higher than|more than)\s+(?:the\s+)?(?:\w+\s+){0,2}"
                              r"(?:peak|theoretical|max(?:imum)?)\b|(?:تتجاوز|يتجاوز|أعلى من|أكثر من)\s+(?:ال)?ذروة", re.I)
_RESPECTIVELY = re.compile(r"\brespectively\b|على التوالي|على الترتيب", re.I)
# a rate per framework device: "/device", "per device", or MaxText's step log ("completed step: N, seconds: S, TFLOP/s: R"
# reports per-device TFLOP/s: AI-Hypercomputer/maxtext MaxText/train.py, record_scalar_metrics 'perf/per_device_tflops_per_sec')
_PER_DEVICE = re.compile(r"/\s*device|\bper[- ]device\b|\beach device\b|\bcompleted step\b|لكل جهاز", re.I)
_PER_CHIP = re.compile(r"/\s*chip\b|\bper[- ]chip\b|\beach chip\b|لكل شريحة", re.I)
_ONE_CHIP = re.compile(r"/\s*(?:GPU|chip|device|card)\b|\bper[- ](?:GPU|chip|device|card|accelerator)\b|\beach (?:GPU|chip|device)\b"
                       r"|لكل (?:وحدة|شريحة|جهاز)", re.I)
_ALREADY = 0.05  # a rate within 5% of one whose share of the same peak is already said (log rows of one run) is not said again


def _formats(text: str) -> list[str | None]:
    """The formats a text names, in order: 'fp8', 'bf16', or None for one with no peak in the catalog (fp32, fp4)."""
    return ["bf16" if m.group("b16") else None if m.group("other") else "fp8" for m in _PRECISION.finditer(text)]


def _chip(doc: Document, claim: Claim) -> dict | None:
    """The one chip the claim concerns (its own, else the text's only one); None when it is uncertain or only 'GPU'."""
    own = [c for c in claim.chips] + [c for c in chips(doc, claim) if any(getattr(f, "chip", None) == c["id"] for f in claim.figures)]
    start, end = next(((a, b) for a, b in doc.sentences if a <= claim.start < b), (claim.start, claim.end))
    if re.search(verdicts.table()["other_chips"]["pattern"], doc.text[start:end] if own else doc.text):
        return None  # "Gaudi 2 ... second after H100, offering over 260 TFLOPS per chip": the rate may be the chip the
        # catalog lacks, not the H100 beside it (a round-15 answer set it against the H100's peak)
    found = own or doc.chips()
    found = [c for c in {c["id"]: c for c in found}.values() if not doc.named_only_generically(c)]  # "per GPU" names none
    if len(found) != 1:
        return None
    return found[0]


def _short(chip: dict, doc: Document | None = None) -> str:
    """The catalog chip the peak is taken from, without its vendor ("H100 SXM"); as the text writes it ("A100") when
    the catalog's name only adds a variant the text never gave (a p4d's "A100" is the 40 GB card, not "A100 SXM 80GB",
    and both have the one peak the check uses)."""
    short = re.sub(r"^(?:NVIDIA|Google|AMD)\s+", "", chip["name"].split(" (")[0].split(" NVL")[0])  # a GPU, not its rack
    written = {doc.text[m.start:m.end].strip() for m in doc.mentions if m.kind == "chip" and m.entry is chip} if doc else set()
    if len(written) == 1:
        (name,) = written
        if name != short and short.lower().startswith(name.lower() + " "):
            return name
    return short


def _peak(chip: dict, precision: str | None) -> float | None:
    return chip.get(f"peak_{precision}_flop_per_s") if precision else None


def share_of_peak(doc: Document, claim: Claim) -> Result | None:
    """"reaching 230 TFLOP/s" on a named H100: 230 / 989 = 23% of the dense BF16 peak, said in words (no MFU stated;
    achieved_rate judges one that is)."""
    if any(f.quantity in ("mfu", "hfu") for f in claim.figures):
        return None
    rates = [f for f in claim.figures if f.quantity in _RATES and not called_peak(doc, f)]  # "the peak FLOPs ... are 1979 TFLOPS"
    chip = _chip(doc, claim) if rates else None
    reference = earlier_side(doc, claim) if chip is not None else set()
    if chip is None:
        return None
    named = _formats(claim.quote)
    rule = verdicts.table()["share_of_peak"]
    conventional = chip.get("kind") == "tpu" or (chip.get("architecture") or {}).get("name") in rule["bf16_by_convention"]
    # with no point about efficiency, a share of a datasheet peak is a calculation nobody asked about (readers counted
    # the peak as an outside figure); only a rate beyond the peak, which no reading makes possible, is still said
    asked = bool(re.search(rule["point_cues"], doc.text, re.I))
    if any(f.quantity in ("tp_degree", "world_size") and f.value > 1 for f in doc.figures) and not _ONE_CHIP.search(claim.quote):
        return None  # "world=4 / tp=4 ... ~1.7 TFLOPs/s": a tensor-parallel group's rate, not one chip's, unless the text says so
    if not named and not _formats(doc.text) and not conventional:
        return None  # no format named and none by convention: the format would be a guess
    if _RESPECTIVELY.search(claim.quote) and len(named) == len(rates):
        formats = named  # "532 and 557 TFLOPs for BF16 and MXFP8 respectively"
    elif len(set(named)) <= 1:
        formats = [named[0] if named else "bf16"] * len(rates)
    else:
        return None  # several formats and no telling which rate is which
    devices = (chip.get("devices_per_chip") or {}).get("count") or 1
    per_device = devices > 1 and bool(_PER_DEVICE.search(claim.quote))
    if devices > 1 and not per_device and not _PER_CHIP.search(claim.quote):
        return None  # a chip JAX splits into devices, and no telling whether the rate is per chip or per device
    calculations, reasons = [], []
    name = _short(chip, doc)
    for rate, precision in zip(rates, formats):
        peak = _peak(chip, precision)
        if not peak or id(rate) in reference:  # the baseline of a comparison: its ratio to the newer figure says enough
            continue
        if per_device:
            peak = peak / devices
        if abs(rate.value / peak - 1) <= _IS_PEAK:
            continue  # "312TFLOPS max" on an A100: the figure is the peak itself, and 312 / 312 = 1 says nothing
        total = _total_peak(doc, peak, rate) if rate.value > peak else None
        if total is not None and not asked:
            continue
        if total is not None:  # "800TFLOPs" beside "275TFLOPs*32 chips=8800TFLOPs": a whole job's rate, over the job's peak
            index = _share_of_total(doc, rate, total)
            if index is not None:
                calculations.append(index)
                reasons.append(messages(doc.lang)["verdicts"]["share_of_total_peak"].format(
                    rate=rate.quote, total=total.quote, share=restate.value("mfu", doc.calculations[index]["outputs"]["value"])))
            continue
        origin = f"{chip['name']} dense {precision} peak ({peak / 1e12:g} TFLOP/s" + (f" per device, 1/{devices} chip" if per_device else "") + ", data/hardware.json)"
        if _said_before(doc, origin, rate.value / peak):
            continue
        given = next((f for f in claim.figures if f is not rate and abs(f.value / peak - 1) <= _IS_PEAK), None)  # "out of 1,979"
        inputs = Inputs(doc.lang)
        if given is not None:
            inputs.expression(f"{rate.value / 1e12:g} TFLOP/s / {peak / 1e12:g} TFLOP/s", f"{rate.quote} / {given.quote}")
        else:
            inputs.text_with("expression", f"{rate.value / 1e12:g} TFLOP/s / {peak / 1e12:g} TFLOP/s", rate.quote, origin)
        index = run(doc, "arithmetic", inputs)
        if index is None:
            continue
        value = doc.calculations[index]["outputs"]["value"]
        if not verdicts.possible("mfu", value) and value < 2 and _ABOVE_PEAK_SAID.search(doc.text):
            # "322 TFLOPS, which is beyond the peak tflops of A800": the text says so itself and asks why; what a rate
            # above peak means is the answer (share_of_peak.above_said in data/verdicts.json)
            calculations.append(index)
            reasons.append(messages(doc.lang)["verdicts"]["above_stated_peak"].format(
                rate=rate.quote, share=restate.value("mfu", value), chip=name, precision=precision.upper(),
                peak=restate.value("peak_flop_per_s", peak)))
            continue
        if not verdicts.possible("mfu", value):
            # above the dense peak: a rate per node, a sparsity peak or another chip; a misreading, never a finding
            return impossible(doc, f"{value * 100:,.0f}%", calculations + [index])
        if not asked:
            discard(doc, index)
            continue
        calculations.append(index)
        key = "share_of_given_peak" if given is not None else "share_of_peak_device" if per_device else "share_of_peak"
        reasons.append(messages(doc.lang)["verdicts"][key].format(
            rate=rate.quote, share=restate.value("mfu", value), chip=name, precision=precision.upper(),
            peak=restate.value("peak_flop_per_s", peak), count=devices, given=given.quote if given is not None else ""))
        if value > verdicts.table()["share_of_peak"]["suspicious_above"]:
            reasons.append(_suspicious(doc, chip, precision))
    if not calculations:
        return None
    asked = _asked_meaning(doc, chip, formats[0], doc.calculations[calculations[0]]["outputs"]["value"]) if len(calculations) == 1 else None
    return Result(calculations, None, "; ".join(reasons + ([asked] if asked else [])))


def _suspicious(doc: Document, chip: dict, precision: str) -> str:
    """A share above data/verdicts.json share_of_peak.suspicious_above: higher than training reaches, said with the best GEMM's share."""
    words = messages(doc.lang)["verdicts"]
    limit = restate.value("mfu", verdicts.table()["share_of_peak"]["suspicious_above"])
    gemm = ((efficiencies()["gemm"].get(chip["id"]) or {}).get(precision) or {}).get("fraction")
    if gemm and precision in ("bf16", "fp16"):  # the other-format hint (FP8) fits a 16-bit peak only
        return words["share_suspicious_gemm"].format(limit=limit, gemm=restate.value("mfu", round(gemm, 2)), precision=precision.upper())
    return words["share_suspicious"].format(limit=limit, precision=precision.upper())


_IS_PEAK = 0.01  # a stated rate within 1% of the chip's peak is that peak, not a rate achieved


def _total_peak(doc: Document, peak: float, rate):
    """A peak the text states for many chips together (a whole multiple of one chip's, "8800TFLOPs" = 32 x 275) that the
    rate fits under, strictly: the same figure written twice is one rate, not a rate and its total; None when there is
    none, or more than one."""
    totals = [f for f in doc.figures if (f.quantity in ("peak_flop_per_s", "peak_flop_per_s_total") or _peak_count(doc, f)) and f.value > peak
              and round(f.value / peak) >= 2 and abs(f.value / peak - round(f.value / peak)) <= 0.01 * f.value / peak
              and rate.value < f.value * (1 - 1e-9)]  # the rate's own value again ("why not use 1979 TFLOPS") is no total
    return totals[0] if len({f.value for f in totals}) == 1 else None


_PEAK_WORDS = re.compile(r"\bpeak\b|\btheoretical\b|\bmax(?:imum)?\b|ذروة|القصوى|النظري", re.I)


def called_peak(doc: Document, fig) -> bool:
    """Whether the words just before a rate, in its own clause, call it a peak ("the peak FLOPs of the H800 seem to be
    1979 TFLOPS"): a spec-sheet figure, not a rate a run reached."""
    before = doc.text[max(0, fig.start - 60):fig.start]
    return bool(_PEAK_WORDS.search(re.split(r"[.;!?\n]", before)[-1]))


def _peak_count(doc: Document, fig) -> bool:
    """"17600 TFLOPs of peak compute": a count of FLOPs written where a peak rate is meant (TFLOPs for TFLOP/s), in a
    sentence that calls it the peak."""
    if fig.quantity != "total_flops" or not re.search(r"FLOPS?$", fig.quote, re.I):
        return False
    start = max(doc.text.rfind(".", 0, fig.start), doc.text.rfind("\n", 0, fig.start)) + 1
    end = min([i for i in (doc.text.find(".", fig.end), doc.text.find("\n", fig.end)) if i >= 0] or [len(doc.text)])
    return bool(_PEAK_WORDS.search(doc.text[start:end]))


def _share_of_total(doc: Document, rate, total) -> int | None:
    """The arithmetic of a rate over a total peak, both the text's figures."""
    index = worked(doc, f"{rate.value / 1e12:g} TFLOP/s / {total.value / 1e12:g} TFLOP/s", f"{rate.quote} / {total.quote}")
    if index is None or not verdicts.possible("mfu", doc.calculations[index]["outputs"]["value"]):
        return None
    return index


def _said_before(doc: Document, origin: str, share: float) -> bool:
    """Whether an earlier claim already said a rate's share of the same peak within _ALREADY (one run's log rows)."""
    for calc in doc.calculations:
        source = (calc.get("input_sources") or {}).get("expression") or {}
        value = (calc.get("outputs") or {}).get("value")
        if source.get("with") == origin and value and abs(value - share) <= _ALREADY * value:
            return True
    return False


def _asked_meaning(doc: Document, chip: dict, precision: str | None, share: float) -> str | None:
    """"What would be a reasonable throughput?": the share read as MFU beside the best large GEMM's share of that peak."""
    if not precision or not re.search(verdicts.table()["share_of_peak"]["question_cues"], doc.text, re.I):
        return None
    gemm = ((efficiencies()["gemm"].get(chip["id"]) or {}).get(precision) or {}).get("fraction")
    if not gemm:
        return None
    said = messages(doc.lang)["verdicts"]["share_meaning"].format(
        share=restate.value("mfu", share), chip=_short(chip, doc), gemm=restate.value("mfu", round(gemm, 2)))  # the benchmark's whole percent
    return None if any(said in c.why for c in doc.claims) else said  # said once per answer


def sparsity_peak(doc: Document, claim: Claim) -> Result | None:
    """A stated peak equal to twice the named NVIDIA chip's dense peak is its 2:4-sparsity figure: said, with the dense one;
    a dense figure stated beside it is checked to be half."""
    rule = verdicts.table()["sparsity"]
    peaks = [f for f in claim.figures if f.quantity == "peak_flop_per_s" or f.quantity in _RATES and called_peak(doc, f)]
    if not peaks:
        return None
    named = [p for p in _formats(claim.quote) if p] or [p for p in _formats(doc.text) if p]  # "... for FP8 workloads"
    # two formats: which is unsure, except "bf16/fp16", which share one peak on every NVIDIA tensor core
    precision = named[0] if len(set(named)) == 1 else "bf16" if not named or set(named) <= {"bf16", "fp16"} else None
    if precision is None:
        return None  # a round-16 answer called the H100's dense FP8 peak (1,979) its BF16 sparse one in an FP8 passage
    candidates = [c for c in list({c["id"]: c for c in claim.chips + chips(doc, claim)}.values()) if c.get("vendor") in rule["vendors"]]
    found = None
    for chip in candidates:  # the chip whose dense peak is exactly half a stated one (the value tells which chip it is)
        dense = _peak(chip, precision)
        sparse = next((f for f in peaks if dense and abs(f.value - rule["factor"] * dense) <= 0.01 * rule["factor"] * dense), None)
        if sparse is not None:
            found = (chip, dense, sparse)
            break
    if found is None:
        return None
    chip, dense, sparse = found
    if _divides(claim, sparse):
        return None  # "480 / 1979 = 24.3%": the share against the dense peak is sparse_denominator's
    inputs = Inputs(doc.lang)
    inputs.expression(f"{sparse.value / 1e12:g} TFLOP/s / {rule['factor']}", sparse.quote)
    stated_dense = next((f for f in peaks if f is not sparse and abs(f.value - dense) <= 0.01 * dense), None)
    index = run(doc, "arithmetic", inputs)
    if index is None:
        return None
    why = messages(doc.lang)["verdicts"]["sparse_peak"].format(stated=sparse.quote, chip=_short(chip),
                                                              precision=precision.upper(), dense=restate.value("peak_flop_per_s", dense))
    return Result([index], "consistent" if stated_dense is not None else None, why)


_DIVISION = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s*/\s*(\d+(?:\.\d+)?)(?![\w.])")


def _divides(claim: Claim, figure) -> bool:
    """Whether a figure is the divisor of a division written in the claim ("480 / 1979")."""
    return any(float(m.group(2)) * 1e12 == figure.value or abs(float(m.group(2)) * 1e12 - figure.value) <= 0.001 * figure.value
               for m in _DIVISION.finditer(claim.quote))


def sparse_denominator(doc: Document, claim: Claim) -> Result | None:
    """"the util of GPU is 420/1979" on an H200: 1979 TFLOP/s is its 2:4-sparsity peak, so the share against the dense
    peak (420 / 989.5) is said beside it (data/verdicts.json "sparsity")."""
    stated = [f for f in claim.figures if f.quantity == "peak_flop_per_s"]
    if stated and not any(_divides(claim, f) for f in stated):
        return None  # a peak stated as a figure, not divided by: sparsity_peak says what it is
    rule = verdicts.table()["sparsity"]
    candidates = [c for c in {c["id"]: c for c in claim.chips + chips(doc, claim)}.values()
                  if c.get("vendor") in rule["vendors"] and not doc.named_only_generically(c)]
    for found in _DIVISION.finditer(claim.quote):
        rate, peak = float(found.group(1)), float(found.group(2))
        for chip in candidates:
            dense = (chip.get("peak_bf16_flop_per_s") or 0) / 1e12
            if not dense or abs(peak - rule["factor"] * dense) > 0.01 * peak or rate >= peak:
                continue
            inputs = Inputs(doc.lang)
            inputs.text_with("expression", f"{rate:g} / ({peak:g} / {rule['factor']})", found.group(0),
                             f"{chip['name']} dense BF16 peak ({dense:g} TFLOP/s, data/hardware.json)")
            index = run(doc, "arithmetic", inputs)
            if index is None:
                return None
            value = doc.calculations[index]["outputs"]["value"]
            return Result([index], None, messages(doc.lang)["verdicts"]["sparse_denominator"].format(
                peak=found.group(2), chip=_short(chip), rate=found.group(1), half=f"{peak / rule['factor']:g}",
                share=restate.value("mfu", value)))
    return None


_BASED_ON = re.compile(r"(?:based\s+on|against|relative\s+to|denominator(?:\s+of)?|computed\s+(?:with|from)|using)\W+(?:\w+\W+){0,2}$", re.I)


def rebased_mfu(doc: Document, claim: Claim) -> Result | None:
    """"104% MFU ... based on 312 TFLOPS; the chip is 989": the stated MFU x the peak it was based on / the right peak."""
    mfu = next((f for f in claim.figures if f.quantity in ("mfu", "hfu")), None)
    peaks = [f for f in claim.figures if f.quantity == "peak_flop_per_s"]
    if mfu is None or not peaks:
        return None
    old = next((f for f in peaks if _BASED_ON.search(doc.text[max(0, f.start - 40):f.start])), None)
    if old is None:
        return None
    rule = verdicts.table()["sparsity"]
    others = [f for f in peaks if f is not old and not any(abs(f.value - rule["factor"] * g.value) <= 0.01 * f.value for g in peaks)]
    if len(others) == 1:
        new = others[0]
    else:
        # "104% MFU on h100 ... based on a100 312 tflops": the dense peak of the other chip the sentence names, quoted
        # from the text when it states it ("h100 is 989 tflops"), else from data/hardware.json
        dense = [(c, c.get("peak_bf16_flop_per_s")) for c in claim.chips if c.get("peak_bf16_flop_per_s")]
        dense = [(c, p) for c, p in dense if abs(p - old.value) > 0.01 * p]
        if others or len(dense) != 1:
            return None
        chip, peak = dense[0]
        new = next((f for f in doc.figures if f.quantity == "peak_flop_per_s" and abs(f.value - peak) <= 0.01 * peak), None) \
            or SimpleNamespace(value=peak, quote=f"{_short(chip)} {restate.value('peak_flop_per_s', peak)}")
    index = worked(doc, f"{mfu.value:g} * {old.value / 1e12:g} / {new.value / 1e12:g}", f"{mfu.quote} x {old.quote} / {new.quote}")
    if index is None:
        return None
    value = doc.calculations[index]["outputs"]["value"]
    if not verdicts.possible("mfu", value):
        return impossible(doc, f"{value * 100:,.0f}%", [index])
    return Result([index], None, messages(doc.lang)["verdicts"]["rebased_mfu"].format(
        mfu=mfu.quote, old=old.quote, new=new.quote, computed=restate.value("mfu", value)))
