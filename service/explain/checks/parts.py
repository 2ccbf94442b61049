"""Parts that add up to the whole the same sentence states ("395B tokens: 116B Arabic and 279B English")."""

import re

from service.explain import restate
from service.explain.checks.core import TIME_QUANTITIES, Result, discard, worked
from service.explain.document import Claim, Document
from service.i18n.messages import messages

_COUNTS = ("tokens", "params", "n_chips", "bytes", "memory_bytes", "chip_hours", "cost_usd", "power_w")
_NAMED_SIZE = re.compile(r"[A-Za-z][\w.]*-$")  # a size written as the end of a model's name
_EXACT = 0.005  # written figures that add up do so to their last digit; half a percent covers their rounding
_PART_SHARE = 0.05  # and the sum misses by no more than a twentieth of its smallest part


def _whole_before(doc: Document, claim: Claim, quantity: str):
    """The one figure of `quantity` in the sentence right before the claim's (a whole its parts may follow), or None."""
    before = [s for s in doc.sentences if s[1] <= claim.start][-1:]
    figs = [f for f in doc.figures if f.quantity == quantity and before and before[0][0] <= f.start < before[0][1]]
    return figs[0] if len(figs) == 1 else None


def parts_sum(doc: Document, claim: Claim) -> Result | None:
    """Three or more figures of one quantity in a sentence, one the sum of the others, or two whose sum is the one figure
    of their quantity in the sentence before ("a total of 7 GW." then "5.5 GW ... and 1.5 GW"): the addition said (consistent)."""
    for quantity in _COUNTS:
        figs = [f for f in claim.figures if f.quantity == quantity and f.value > 0]
        if quantity == "params" and sum(bool(_NAMED_SIZE.search(doc.text, 0, f.start)) for f in figs) >= 1:
            continue  # "Qwen2-VL-72B", "InternVL2.5-78B": sizes in models' names are other models, not parts (round 99 P13)
        if len({f.value for f in figs}) != len(figs) or len(figs) < 2:
            continue
        if any(f.role in ("low", "high") for f in figs):
            continue  # "300K-700K B200s" against "1M": the ends of a range are no parts of a total (round 44)
        whole = max(figs, key=lambda f: f.value) if len(figs) >= 3 else _whole_before(doc, claim, quantity)
        if whole is None:
            continue
        parts = [f for f in figs if f is not whole]
        gap = abs(sum(f.value for f in parts) - whole.value)
        if gap > _EXACT * whole.value or any(f.value <= _EXACT * whole.value for f in parts) \
                or gap > _PART_SHARE * min(f.value for f in parts):
            continue  # a "part" within the whole's rounding ("3 + 70B = 70B"), or one the sum misses by a tenth of itself
            # ("22,155 MiB + 600 MB" is 60 MB short of 22,785 MiB: a saving rounded, not parts of a total)
        unit = _one_memory_unit([*parts, whole]) if quantity in ("bytes", "memory_bytes") else None
        scale = _MEMORY_UNITS[unit] if unit else 1.0  # "11.3GiB + 32.6GiB": added in the unit the text wrote, not in GB
        index = worked(doc, " + ".join(f"{f.value / scale:.6g}" for f in parts), " + ".join(f.quote for f in parts))
        if index is None:
            return None
        said = (lambda f: f"{f.value / scale:.6g} {unit}") if unit else (lambda f: _written(quantity, f.value, doc.lang))
        return Result([index], "consistent", messages(doc.lang)["verdicts"]["parts_sum"].format(
            parts=" + ".join(said(f) for f in parts), whole=said(whole)))
    return _factors_sum(doc, claim) or _times_sum(doc, claim)


_PLUS = re.compile(r"^[^.;\n]{0,40}?(?:\+|\bplus\b)", re.I)  # "1x for weights + 1x for gradients"
_LISTED = re.compile(r"^[^.;\n]{0,40}?(?:,|\band\b|،|\sو)", re.I)  # "2x for weights, 2x for gradients and 12x for ..."


def _factors_sum(doc: Document, claim: Claim) -> Result | None:
    """A factor the sentence then splits into added parts ("4.2x the model size: 1x for weights + 1x for gradients + 2x
    for optimizer state + 20% for activations"), a percentage being that share of the base: the parts' sum against the
    factor, consistent where they agree; a sum that misses is said without a verdict (a part may be of another base)."""
    factors = [f for f in claim.figures if f.quantity in ("ratio", "percent")]
    whole = next((f for f in factors if f.quantity == "ratio" and f.value > 1), None)
    if whole is None:
        return None
    parts = [f for f in factors if f.start > whole.end]
    if len(parts) < 2 or not re.match(r"\s*(?:\w+\s+){0,6}?[\w)]*\s*[:=]", doc.text[whole.end:parts[0].start]):
        return None  # the factor first, then a colon or an equals sign before its parts
    gaps = [doc.text[a.end:b.start] for a, b in zip(parts, parts[1:])]
    added = all(_PLUS.match(gap) for gap in gaps)  # written as a sum; a list ("a, b and c") may be factors that multiply
    if not added and not all(_PLUS.match(gap) or _LISTED.match(gap) for gap in gaps):
        return None
    index = worked(doc, " + ".join(f"{f.value:g}" for f in parts), " + ".join(f.quote for f in parts))
    if index is None:
        return None
    total = doc.calculations[index]["outputs"]["value"]
    m = messages(doc.lang)["verdicts"]
    shown = {"parts": " + ".join(f"{f.value:g}" for f in parts), "sum": f"{total:g}", "stated": whole.quote,
             "note": m["factors_sum_percent"] if any(f.quantity == "percent" for f in parts) else ""}
    if abs(total - whole.value) <= _EXACT * whole.value + 0.05:
        return Result([index], "consistent", m["factors_sum"].format(**shown))
    if not added:
        discard(doc, index)
        return None
    return Result([index], None, m["factors_sum_gap"].format(**shown))


_TOTAL = re.compile(r"\b(?:in total|total|altogether|overall|adds? up to|sums? to|so|end-to-end)\b|إجمالي|المجموع|مجموع|أي\s", re.I)
_TIME_UNITS = {"us": 1e-6, "µs": 1e-6, "μs": 1e-6, "ms": 1e-3, "s": 1.0, "min": 60.0, "h": 3600.0}
_TIME_WRITTEN = re.compile(r"(?<![A-Za-z])(us|µs|μs|ms|s|min|h)\b")


def _times_sum(doc: Document, claim: Claim) -> Result | None:
    """Three or more times in a sentence that totals them ("dispatch 120 us, combine 180 us and notify 20 us, so 320 us
    in all"), the largest the sum of the others: the addition said (consistent); a sum that misses is not judged."""
    figs = [f for f in claim.figures if f.quantity in TIME_QUANTITIES and f.value > 0]
    if len(figs) < 3 or len({f.value for f in figs}) != len(figs) or not _TOTAL.search(claim.quote):
        return None
    whole = max(figs, key=lambda f: f.value)
    parts = [f for f in figs if f is not whole]
    if abs(sum(f.value for f in parts) - whole.value) > _EXACT * whole.value:
        return None
    units = {m.group(1) if (m := _TIME_WRITTEN.search(f.quote)) else None for f in figs}
    unit = units.pop() if len(units) == 1 and None not in units else "s"
    scale = _TIME_UNITS[unit]
    change = [f for f in parts if _BY_DIFFERENCE.search(doc.text[max(0, f.start - 70):f.start])]
    if len(change) == 1 and len(parts) == 2:  # "64 s ... 59 s ... reduced this cadence by about 5 seconds": the gap between
        other = next(f for f in parts if f is not change[0])  # two runs, said as the difference it is, not as parts of a total
        index = worked(doc, f"{whole.value / scale:.6g} - {other.value / scale:.6g}", f"{whole.quote} - {other.quote}")
        return None if index is None else Result([index], "consistent", messages(doc.lang)["verdicts"]["consistent"].format(
            stated=change[0].quote, computed=f"{doc.calculations[index]['outputs']['value']:.6g} {unit}"))
    index = worked(doc, " + ".join(f"{f.value / scale:.6g}" for f in parts), " + ".join(f.quote for f in parts))
    if index is None:
        return None
    return Result([index], "consistent", messages(doc.lang)["verdicts"]["parts_sum"].format(
        parts=" + ".join(f"{f.value / scale:.6g} {unit}" for f in parts), whole=f"{whole.value / scale:.6g} {unit}"))


_BY_DIFFERENCE = re.compile(r"\b(?:reduc\w*|cut|sav\w*|shav\w*|faster|slower|drop\w*|fell|improv\w*)\b[^.;\n]{0,50}?\bby\s+(?:about\s+|around\s+|~\s*|roughly\s+)?$", re.I)
_MEMORY_UNITS = {"KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12, "KiB": 2.0 ** 10, "MiB": 2.0 ** 20, "GiB": 2.0 ** 30, "TiB": 2.0 ** 40}
_UNIT_WRITTEN = re.compile(r"(?<![A-Za-z])([KMGT]i?B)\b")


def _one_memory_unit(figs) -> str | None:
    """The one memory unit every figure is written in ("GiB" for 11.3GiB, 32.6GiB and 43.9GiB), or None."""
    units = {m.group(1) if (m := _UNIT_WRITTEN.search(f.quote)) else None for f in figs}
    unit = units.pop() if len(units) == 1 else None
    return unit if unit in _MEMORY_UNITS else None


_AR_SCALES = ((1e12, "تريليون"), (1e9, "مليار"), (1e6, "مليون"))


def _written(quantity: str, value: float, lang: str) -> str:
    """A count as the answer writes it: "116B" in English, "116 مليار" in Arabic (no Latin scale letter in Arabic prose)."""
    if quantity == "power_w":  # "5.5 GW", "5.5 جيجاواط": the unit said, never a bare "5.5B"
        scale, unit = (1e9, ("GW", "جيجاواط")) if value >= 1e9 else (1e6, ("MW", "ميجاواط"))
        return f"{value / scale:g} {unit[lang == 'ar']}"
    if lang == "ar" and quantity not in ("bytes", "memory_bytes"):
        for scale, word in _AR_SCALES:
            if value >= scale:
                return f"{value / scale:g} {word}"
    return restate.value(quantity, value)
