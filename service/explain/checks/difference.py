"""A change the text states as an amount ("memory usage leaps by 13.2GiB") against the two like figures it then gives
("end of step 1=70.4GiB, end of step 2=81.6GiB"): their difference, redone (81.6 - 70.4 = 11.2, not 13.2)."""

import re

from service.explain import pattern_cache
from service.explain.checks import verdicts
from service.explain.checks.core import Result, worked
from service.explain.document import Claim, Document
from service.i18n.messages import messages

# a change by an amount: the verb, then "by" (or Arabic بمقدار) right before the figure
_BY_AMOUNT = pattern_cache.lazy(r"\b(?:leap|jump|increase|grow|rise|rose|drop|decrease|fall|fell|shrink|shrank|go(?:es)? up|go(?:es)? down|"
                                r"climb|balloon|spike)\w*\s+(?:by\s+)?(?:about\s+|~\s*|roughly\s+)?$|بمقدار\s*$", re.I)
_KINDS = ("memory", "time", "throughput", "bandwidth")


def decimals(quote: str) -> int:
    """The decimals a figure is written with ("70.4GiB" -> 1)."""
    grouped = re.search(r"\d{1,3}(?:,\d{3})+(?:\.(\d+))?(?![\d,])", quote)  # "68,704 MB": a thousands comma, no decimals
    if grouped:
        return len(grouped.group(1) or "")
    number = re.search(r"\d+(?:[.,]\d+)?", quote)
    return len(number.group().replace(",", ".").split(".")[1]) if number and re.search(r"[.,]\d", number.group()) else 0


def stated_difference(doc: Document, claim: Claim) -> Result | None:
    """The one amount a sentence says something changed by, against the difference of the only two figures of its kind
    in the rest of the sentence or, when it has none, in the sentence right after; written rounding allowed."""
    amounts = _amounts(doc, claim.start, claim.end)
    if len(amounts) == 1:
        amount = amounts[0]
        kind = verdicts.kind(amount.quantity)
        later = [f for f in claim.figures if f.start > amount.end and verdicts.kind(f.quantity) == kind]
        if not later:
            following = [s for s in doc.sentences if s[0] >= claim.end][:1]
            later = [f for f in doc.figures if following and following[0][0] <= f.start < following[0][1]
                     and verdicts.kind(f.quantity) == kind]
    else:  # "... leaps by 13.2GiB." then this sentence's "step 1=70.4GiB, step 2=81.6GiB": the amount said just before
        before = [s for s in doc.sentences if s[1] <= claim.start][-1:]
        amounts = _amounts(doc, *before[0]) if before and not amounts else []
        if len(amounts) != 1:
            return None
        amount = amounts[0]
        later = [f for f in claim.figures if verdicts.kind(f.quantity) == verdicts.kind(amount.quantity)]
    if len(later) != 2 or any(f.value == amount.value for f in later) or amount.value >= max(f.value for f in later):
        return None  # the pair is not sure, or one of them is the amount itself
    a, b = later
    scale = _unit_scale(amount, a, b)
    if scale is None:
        return None
    index = worked(doc, f"{b.value / scale:.6g} - {a.value / scale:.6g}", f"{b.quote} - {a.quote}")
    if index is None:
        return None
    computed = abs(doc.calculations[index]["outputs"]["value"]) * scale
    step = 10 ** -max(decimals(f.quote) for f in (amount, a, b)) * scale
    agrees = abs(computed - amount.value) <= 1.5 * step + 0.005 * amount.value  # three figures rounded to their last digit
    unit = re.sub(r"^[\d.,\s~]+", "", amount.quote).strip()
    shown = f"{computed / scale:.{max(decimals(a.quote), decimals(b.quote))}f} {unit}".strip()
    verdict = "consistent" if agrees else "inconsistent"
    return Result([index], verdict, messages(doc.lang)["verdicts"][verdict].format(stated=amount.quote, computed=shown))


def _amounts(doc: Document, start: int, end: int) -> list:
    """The figures of [start, end) said as the amount something changed by."""
    return [f for f in doc.figures if start <= f.start < end and verdicts.kind(f.quantity) in _KINDS and f.value > 0
            and _BY_AMOUNT.search(doc.text[max(start, f.start - 40):f.start])]


_SCALES = {"KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12, "KiB": 2.0 ** 10, "MiB": 2.0 ** 20, "GiB": 2.0 ** 30, "TiB": 2.0 ** 40,
           "ms": 1e-3, "s": 1.0, "us": 1e-6, "µs": 1e-6}
_UNIT = re.compile(r"(?<![A-Za-z])([KMGT]i?B|ms|µs|us|s)(?![A-Za-z])")


def _unit_scale(*figs) -> float | None:
    """The one unit the three figures are written in, as its scale (GiB -> 2**30); None when they differ or have none."""
    units = {m.group(1) if (m := _UNIT.search(f.quote)) else None for f in figs}
    unit = units.pop() if len(units) == 1 else None
    return _SCALES.get(unit) if unit else None
