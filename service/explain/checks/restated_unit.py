"""A figure restated at once in brackets in another unit of the same kind ("50usec (0.05 secs)", "3 hours (180
minutes)"): the two are one amount, so where they differ beyond rounding and binary prefixes, the text writes one of
them wrong; said with what the first is in the second's unit."""

import re

from service.explain.checks import verdicts
from service.explain.checks.core import Result, written_number
from service.explain.document import Claim, Document
from service.i18n.messages import messages

_OPEN = re.compile(r"\s*\(\s*(?:~|≈|about\s+|i\.e\.,?\s+|=\s*)?")  # between the figure and its restatement
_CLOSE = re.compile(r"\s*\)")
_KINDS = ("time", "memory", "bandwidth")
_SAME = 1.25  # within this factor the two are one amount (rounding, 1,024 against 1,000 to the third power)


def restated_unit(doc: Document, claim: Claim) -> Result | None:
    """The first figure against its bracketed restatement: inconsistent where they are not one amount."""
    figures = sorted((f for f in claim.figures if verdicts.kind(f.quantity) in _KINDS and f.value > 0), key=lambda f: f.start)
    for first, second in zip(figures, figures[1:]):
        opening = _OPEN.match(doc.text, first.end)
        if not opening or opening.end() != second.start or not _CLOSE.match(doc.text, second.end) \
                or not verdicts.same_kind(first.quantity, second.quantity):
            continue
        if max(first.value, second.value) / min(first.value, second.value) <= _SAME:
            continue
        number = written_number(second)
        unit = re.sub(r"^\s*[~≈]?\s*\d[\d,]*(?:\.\d+)?", "", second.quote).strip()
        if not number or not unit:
            continue
        converted = first.value * number / second.value  # the first amount in the second's unit
        shown = f"{converted:.6f}".rstrip("0").rstrip(".") if converted < 0.01 else f"{converted:,.4g}"
        return Result([], "inconsistent", messages(doc.lang)["verdicts"]["restated_unit"].format(
            first=first.quote, second=second.quote, converted=f"{shown} {unit}"))
    return None
