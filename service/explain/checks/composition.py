"""Shares of one whole the sentence says it is made of ("the data consists of 87% code and 13% natural language"):
their sum said against 100%, and a sum over 100% (a machine translation's "137%" beside 87%) called inconsistent."""

import re

from service.explain import claims as cues
from service.explain.checks.core import Result, worked
from service.explain.document import Claim, Document
from service.i18n.messages import messages

# a share that changes or compares is no part of a whole ("87% more code", «زيادة 20%»)
_CHANGE = re.compile(r"\b(?:more|less|fewer|faster|slower|higher|lower|increase\w*|decrease\w*|improve\w*|up|down|gain\w*|drop\w*)\b"
                     r"|زيادة|أسرع|أبطأ|أكثر|أقل|ارتفاع|انخفاض|تحسن", re.I)
_ROUNDING = 0.011  # written shares are rounded: a sum within a point of 100% adds up


def composition(doc: Document, claim: Claim) -> Result | None:
    """Two or more percentages after "consists of" / «تتكون من» in one sentence, none of them a change."""
    said = cues.cue_spans("composition", claim.quote)  # a whole said to be made of its parts (data/claim_cues.json)
    if not said or claim.calculations:
        return None
    after = claim.start + said[0][1]
    shares = [f for f in claim.figures if f.quantity == "percent" and f.start >= after]
    if len(shares) < 2 or any(_CHANGE.search(doc.text[f.end:f.end + 12]) or _CHANGE.search(doc.text[max(0, f.start - 12):f.start])
                              for f in shares):
        return None
    total = sum(f.value for f in shares)
    if total < 1 - _ROUNDING:
        return None  # the sentence may name only some of the parts
    index = worked(doc, " + ".join(f"{f.value * 100:g}" for f in shares), " + ".join(f.quote for f in shares))
    if index is None:
        return None
    m = messages(doc.lang)["verdicts"]
    shown = {"parts": " + ".join(f"{f.value * 100:g}%" for f in shares), "sum": f"{total * 100:g}%"}
    if total <= 1 + _ROUNDING:
        return Result([index], "consistent", m["composition_whole"].format(**shown))
    return Result([index], "inconsistent", m["composition_over"].format(**shown))
