"""Shares and scale words the text states about its own numbers, redone: '148 of the 419 failures (30.1%)' is 35.3%;
'42.5 exaflops, i.e. a million trillion' is 42.5 million trillion."""

import re

from service.explain import stated_shares
from service.explain.checks import formats, verdicts
from service.explain.checks.arithmetic import tolerance_of
from service.explain.checks.core import Inputs, Result, discard, run
from service.explain.checks.directions import counts_both, counts_one
from service.explain.document import Claim, Document
from service.i18n.messages import messages

_SLACK_POINTS = 0.5  # data/verdicts.json tolerances.measurement.fraction_slack: texts round shares to whole percents


def share_tolerance(percent: str) -> float:
    """Relative slack for a written percentage: the written-arithmetic 2%, or half a point plus its last digit's rounding."""
    decimals = len(percent.split(".")[1]) if "." in percent else 0
    value = stated_shares.number(percent)
    points = _SLACK_POINTS if value >= 1 else 0.0  # "0.12%" is written to a hundredth of a point: no whole-point rounding
    return min(0.5, max(0.02, (points + 0.5 * 10 ** -decimals) / value))


def share_of_total(doc: Document, claim: Claim) -> Result | None:
    """Each 'part of whole (p%)' of the sentence: part / whole against p. Inconsistent when off; the first finding is said."""
    words = messages(doc.lang)["verdicts"]
    found = stated_shares.shares(claim.quote)
    if not found:
        return None
    indices, said, off = [], [], []
    for share in found[:4]:
        inputs = Inputs(doc.lang)
        total = f"({share.total} - {share.since})" if share.since else share.total  # a range's length: its end less its start
        inputs.expression(f"{stated_shares.number(share.part):g} / {stated_shares.whole_of(share):g}", f"{share.part} / {total}")
        inputs.values["stated_result"] = f"{share.percent}%"
        inputs.sources["stated_result"] = {"source": "text", "quote": f"{share.percent}%"}
        inputs.values["tolerance"] = share_tolerance(share.percent)
        index = run(doc, "arithmetic", inputs)
        if index is None:
            continue
        indices.append(index)
        out = doc.calculations[index]["outputs"]
        fields = {"part": share.part, "total": f"{stated_shares.whole_of(share):,.0f}" if share.since else share.total, "stated": f"{share.percent}%",
                  "computed": _percent(out["value"])}
        (said if out.get("consistent") else off).append(words["share_inconsistent" if not out.get("consistent") else "share_consistent"].format(**fields))
    if not indices:
        return None
    sep = "؛ " if doc.lang == "ar" else "; "
    if off:
        return Result(indices, "inconsistent", sep.join(off + said))
    return Result(indices, "consistent", sep.join(said))


def _percent(value: float) -> str:
    """A share worked out, to a point of a percent, or to two figures where it is below one percent (0.12%, not 0.1%)."""
    return f"{100 * value:.1f}%" if value >= 0.01 else f"{100 * value:.2g}%"


def scale_words(doc: Document, claim: Claim) -> Result | None:
    """'42.5 exaflops, i.e. a million trillion': the figure redone in the scale words the text gives it (written_arithmetic)."""
    found = stated_shares.restated(claim.quote)
    if not found:
        return None
    words = messages(doc.lang)["verdicts"]
    item = found[0]
    figure, scale = stated_shares.in_language(item, doc.lang)
    inputs = Inputs(doc.lang)
    num = item.number
    inputs.expression(f"{stated_shares.number(num):g} * {item.unit:g}", item.figure)
    inputs.values["stated_result"] = f"{item.said:g}"
    inputs.sources["stated_result"] = {"source": "text", "quote": item.words}
    inputs.values["tolerance"] = 0.02
    index = run(doc, "arithmetic", inputs)
    if index is None:
        return None
    if doc.calculations[index]["outputs"].get("consistent"):
        # "6 GW is 6 billion watts", confirmed: a reader learns nothing (a round-12 reader called it noise); only a
        # mismatch is a finding
        discard(doc, index)
        return None
    unit = item.unit
    key = "scale_unit" if not item.coefficient and abs(item.said - unit) <= 0.02 * unit else "scale_inconsistent"
    return Result([index], "inconsistent", words[key].format(
        figure=figure, words=scale, value=f"{item.value:.3g}".replace("e+", "e"), said=f"{item.said:.3g}".replace("e+", "e"),
        factor=f"{item.value / item.said:.3g}", num=num))


# "1.8x", "1.8 times", "1.8-fold", "1.8 مرة", "ستة أضعاف" is left out: a factor in words is not parsed
_LESS = re.compile(r"^\s*(?:less|smaller|fewer|lower|slower|أقل|أصغر)", re.I)
_BY = re.compile(r"(?:\bby|بمقدار|ب)\s*$", re.I)
_AGAINST = re.compile(r"\b(?:the|than|compared|vs\.?|versus|over|of|that\s+of|relative)\b|مقارنة|مقابل|عن|من", re.I)
_LIKE_KINDS = ("memory", "compute_rate", "bandwidth", "throughput", "time")
_APPROX = re.compile(r"~|≈|\babout\b|\bapprox\w*|\broughly\b|\baround\b|\bnearly\b|حوالي|نحو|تقريب", re.I)



def _factor_verdict(doc: Document, inputs: Inputs, m: re.Match, before: str, floor: float) -> tuple[int, float, str] | None:
    """The expression in `inputs` against the factor the text states (`m["f"]`): (calculation, result, verdict), within
    the rounding its digits allow (at least `floor`); 'raises it by 1.8 times' (`before`) may mean x1.8 or +180%."""
    stated = float(m["f"])
    decimals = len(m["f"].split(".")[1]) if "." in m["f"] else 0
    tolerance = max(floor, 0.5 * 10 ** -decimals / stated)
    inputs.values["stated_result"] = f"{stated:g}"
    inputs.sources["stated_result"] = {"source": "text", "quote": m.group(0)}
    inputs.values["tolerance"] = tolerance
    index = run(doc, "arithmetic", inputs)
    if index is None:
        return None
    computed = doc.calculations[index]["outputs"]["value"]
    bound = verdicts.stated_bound(before)
    if bound is not None:  # "more than 24 times": a floor, which 25x meets; "up to 3x": a ceiling
        ok = verdicts.within_bound(bound[0], computed, stated, tolerance)
    else:
        ok = abs(computed - stated) <= tolerance * stated or bool(_BY.search(before)) \
            and abs(computed - (stated + 1)) <= tolerance * (stated + 1)
    return index, computed, "consistent" if ok else "inconsistent"


def stated_factor(doc: Document, claim: Claim) -> Result | None:
    """'256 GB, 1.8x the MI300X's 192 GB': the one factor a sentence states between its two like figures, redone (1.33x).
    Only when the factor stands between them and a comparison word leads to the second; else the reading is uncertain."""
    factors = list(verdicts.STATED_FACTOR.finditer(claim.quote))
    if len(factors) != 1:
        return None
    m = factors[0]
    f_start, f_end = claim.start + m.start(), claim.start + m.end()
    if not any(sum(verdicts.kind(f.quantity) == kind for f in claim.figures) == 2 for kind in _LIKE_KINDS):
        return _factor_over_catalog(doc, claim, m)
    for kind in _LIKE_KINDS:
        like = [f for f in claim.figures if verdicts.kind(f.quantity) == kind and f.value > 0]
        if len(like) != 2 or like[0].value == like[1].value:
            continue
        a, b = sorted(like, key=lambda f: f.start)
        if not (a.end <= f_start and f_end <= b.start) or not _AGAINST.search(doc.text[f_end:b.start]):
            return None
        if len(doc.text[f_end:b.start]) > 60:
            return None  # far apart, the factor may be about something else
        less = bool(_LESS.match(doc.text, f_end))
        x, y = (b, a) if less else (a, b)
        if x.value < y.value:
            return None  # 'a is F times b' with a the smaller: the reading is uncertain
        unlike = formats.unlike(doc, x, y)
        if unlike is not None:  # an FP8 peak against an FP64 one: never a ratio
            return Result([], "needs_more", unlike)
        if counts_both(doc, x) and not counts_both(doc, y) and not counts_one(doc, y):
            # "900 GB/s of total bidirectional bandwidth, 14x PCIe 5.0 (64 GB/s)": whether 64 GB/s is one way is unsaid
            return Result([], None, messages(doc.lang)["verdicts"]["factor_directions_unsaid"].format(
                stated=m.group(0).strip(), total=x.quote, other=y.quote, half=f"{x.value / 2e9:g} GB/s",
                computed=f"{x.value / 2 / y.value:.2f}".rstrip("0").rstrip(".")))
        before = doc.text[max(claim.start, f_start - 12):f_start]
        inputs = Inputs(doc.lang)
        inputs.expression(f"{x.value:g} / {y.value:g}", f"{x.quote} / {y.quote}")
        found = _factor_verdict(doc, inputs, m, before, 0.05 if _APPROX.search(before) else 0.02)
        if found is None:
            return None
        index, computed, verdict = found
        shown = f"{computed:.2f}".rstrip("0").rstrip(".")
        bound = verdicts.range_or_bound(before)
        if bound and bound[0].startswith("range:"):  # "2–3x higher": the pair's factor judged against both ends
            verdict = "consistent" if verdicts.within_bound(bound[0], computed, float(m["f"]), 0.05) else "inconsistent"
            bound, stated = None, bound[1] + m.group(0).strip()
        else:
            stated = (bound[1] + " " + m.group(0).strip()) if bound else m.group(0).strip()  # "more than 24 times"
        key = f"factor_bound_{verdict}" if bound else f"factor_{verdict}"
        return Result([index], verdict, messages(doc.lang)["verdicts"][key].format(
            x=x.quote, y=y.quote, computed=shown, stated=stated))
    return None


def change_across(doc: Document, claim: Claim) -> Result | None:
    """'The throughput dropped by 5%.' then 'It dropped from 149 to 140 TFLOPs.': the pair's change against the one change the
    sentence right before states, when both go the same way (149 -> 140 is 6.0%, not 5%). Anything less clear is not judged."""
    pair = [f for f in claim.figures if f.role in ("before", "after")]
    if len(pair) != 2 or any(f.quantity in ("percent_change", "speedup", "ratio", "percent") for f in claim.figures):
        return None
    before, after = sorted(pair, key=lambda f: f.role != "before")
    if before.role != "before" or verdicts.kind(before.quantity) != verdicts.kind(after.quantity) or not (before.value > 0 and after.value > 0):
        return None
    index = doc.claims.index(claim) if claim in doc.claims else -1
    if index < 1:
        return None
    previous = doc.claims[index - 1]
    if doc.text[previous.end:claim.start].strip():
        return None  # not the sentence right before
    changes = [f for f in previous.figures if f.quantity == "percent_change"]
    if len(changes) != 1 or any(f.role in ("before", "after") or verdicts.kind(f.quantity) == verdicts.kind(before.quantity)
                                for f in previous.figures):
        return None
    stated = changes[0]
    if not stated.value or (stated.value < 0) != (after.value < before.value):
        return None  # a change said without its direction, or the other way: another change
    inputs = Inputs(doc.lang)
    inputs.text("before", before)
    inputs.text("after", after)
    approx = stated.approx or bool(_APPROX.search(doc.text[max(0, stated.start - 16):stated.start]))
    inputs.stated("stated_change", stated.value, stated.quote, tolerance_of(stated.quote, abs(stated.value), approx))
    run_index = run(doc, "ratio", inputs)
    if run_index is None:
        return None
    out = doc.calculations[run_index]["outputs"]
    verdict = "consistent" if out["consistent"] else "inconsistent"
    return Result([run_index], verdict, messages(doc.lang)["verdicts"][f"change_across_{verdict}"].format(
        before=before.quote, after=after.quote, computed=f"{100 * abs(out['change']):.1f}%", stated=stated.quote))


_CAPACITY = re.compile(r"\bcapacity\b|\bmemory\b|\bHBM|سعة|ذاكرة", re.I)


def _factor_over_catalog(doc: Document, claim: Claim, m) -> Result | None:
    """'256 GB of HBM3E, 1.8 times the capacity of the MI300X': the one memory size the sentence states, over the memory
    data/hardware.json gives the one chip named after the factor; judged as stated_factor is."""
    sizes = [f for f in claim.figures if verdicts.kind(f.quantity) == "memory" and f.value > 0]
    if len(sizes) != 1 or len(claim.chips) != 1 or not _CAPACITY.search(claim.quote):
        return None
    size, chip = sizes[0], claim.chips[0]
    memory = chip.get("hbm_bytes")
    after = claim.quote[m.end():m.end() + 60]
    named = [a for a in [chip.get("name", "")] + list(chip.get("aliases") or []) if a and a.lower() in after.lower()]
    if not memory or not named or size.end > claim.start + m.start() or not _AGAINST.search(after):
        return None
    if any(a.lower() in claim.quote[:m.start()].lower() for a in [chip.get("name", "")] + list(chip.get("aliases") or []) if a):
        return None  # the named chip is also the figure's own: whose memory the factor compares is uncertain
    if size.value <= memory:
        return None
    stated = float(m["f"])
    inputs = Inputs(doc.lang)
    inputs.text_with("expression", f"{size.value:g} / {memory:g}", size.quote, f"{chip['name']} memory ({memory / 1e9:g} GB, data/hardware.json)")
    found = _factor_verdict(doc, inputs, m, claim.quote[max(0, m.start() - 12):m.start()], 0.02)
    if found is None:
        return None
    index, computed, verdict = found
    return Result([index], verdict, messages(doc.lang)["verdicts"][f"factor_catalog_{verdict}"].format(
        x=f"{size.value / 1e9:g} GB", chip=named[0], memory=f"{memory / 1e9:g} GB", computed=f"{computed:.2f}".rstrip("0").rstrip("."),
        stated=m.group(0).strip() if doc.lang == "ar" else f"{stated:g}x"))
