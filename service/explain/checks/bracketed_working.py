"""A figure followed by the working that gives it, in brackets: "around 2,186 tokens per second (3.4 × 643)",
"2.8 TB (175B × 16 bytes)". The working is redone against the figure before it (written-arithmetic tolerance)."""

import re

from service.explain.checks.core import Result
from service.explain.checks.products import product_verdict, stated_arithmetic
from service.explain.document import Claim, Document

_APPROX_BEFORE = re.compile(r"(?:~|≈|about|around|approx\w*|roughly|nearly|some|حوالي|نحو|قرابة)\s*$", re.I)
_LEADING_NUMBER = re.compile(r"[\d][\d,]*(?:\.\d+)?")


def bracketed_working(doc: Document, claim: Claim) -> Result | None:
    """The first figure of the claim followed at once by a bracketed expression: the expression against it. A figure in
    other units than the working's plain numbers is judged only when the two agree (its unit may scale it)."""
    figures = sorted(claim.figures, key=lambda f: f.start)
    for before, working in zip(figures, figures[1:]):
        if working.quantity != "expression" or not working.quote.lstrip().startswith("(") or before.quantity == "expression":
            continue
        if doc.text[before.end:working.start].strip():
            continue  # "(3.4 × 643)" must follow the figure it gives, with nothing between
        expression = working.quote.strip().strip("()")
        approx = bool(_APPROX_BEFORE.search(doc.text[max(0, before.start - 12):before.start]))
        written = _LEADING_NUMBER.search(before.quote)
        plain = written is not None and abs(float(written.group().replace(",", "")) - before.value) <= 1e-9 * abs(before.value)
        if not plain and not (working.value and abs(working.value - before.value) <= 0.05 * abs(before.value)):
            continue  # "2.8 TB (175B × 16)": only agreement is said where the figure's unit scales it
        index = stated_arithmetic(doc, expression, working.quote, before, approx)
        if index is None:
            continue
        return product_verdict(doc, index, before, before.quantity)
    return None
