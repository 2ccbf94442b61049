"""A gap in percentage points the text states between two percentages of the sentence ("a median 22.398% MFU, 0.102pp
under the pre-registered 22.5%"): the difference redone (22.5 - 22.398 = 0.102 points), written rounding allowed."""

import re

from service.explain.checks import verdicts
from service.explain.checks.core import Result, said, worked
from service.explain.checks.difference import decimals
from service.explain.document import Claim, Document
from service.i18n.messages import messages

_AGAINST = re.compile(r"^\s*(?:under|below|above|over|higher than|lower than|more than|less than|short of|from)\s+"
                      r"(?:the\s+|a\s+|an\s+)?(?:[\w-]+\s+){0,3}$", re.I)  # "0.102pp under the pre-registered 22.5%"
_SHARES = ("fraction_of_peak", "fraction", "percent")


def point_difference(doc: Document, claim: Claim) -> Result | None:
    """The one points gap whose reference percentage follows it and whose measured percentage comes before it."""
    found = []
    for gap in (f for f in claim.figures if f.quantity == "percentage_points" and f.value > 0):
        after = next((f for f in claim.figures if f.start > gap.end and verdicts.kind(f.quantity) in _SHARES), None)
        before = [f for f in claim.figures if f.end <= gap.start and verdicts.kind(f.quantity) in _SHARES]
        if after is not None and before and _AGAINST.match(doc.text[gap.end:after.start]):
            # "22.398% MFU and 346,950 tokens/s at 1.444% dropped, 0.102pp under 22.5%": the measured share is the one
            # nearest the reference, not the nearest in the sentence
            found.append((gap, min(before, key=lambda f: abs(f.value - after.value)), after))
    if len(found) != 1:
        return None
    gap, measured, reference = found[0]
    high, low = sorted((reference, measured), key=lambda f: f.value, reverse=True)  # the gap as the larger less the smaller
    index = worked(doc, f"{high.value * 100:.6g} - {low.value * 100:.6g}", f"{said(doc, high)} - {said(doc, low)}")
    if index is None:
        return None
    computed = doc.calculations[index]["outputs"]["value"]
    step = 10 ** -max(decimals(f.quote) for f in (gap, measured, reference))
    agrees = abs(computed - gap.value * 100) <= 1.5 * step + 0.005 * gap.value * 100
    if not agrees and verdicts.misread(gap.value * 100, computed):
        return None  # thirty times apart: the shares were paired wrongly, not the author's slip
    verdict = "consistent" if agrees else "inconsistent"
    shown = f"{computed:.{max(decimals(measured.quote), decimals(reference.quote))}f} pp"
    return Result([index], verdict, messages(doc.lang)["verdicts"][verdict].format(stated=gap.quote, computed=shown))
