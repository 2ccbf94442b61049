"""One share said as "more" and again as "less" ("a 37% increase in capacity, or equivalently 37% less hardware"):
x% more of one thing is 1 - 1/(1 + x) less of the other, not x% (40% against 55% MFU: 37.5% more, 27.3% less)."""

from service.explain import restate
from service.explain.checks.core import Result, worked
from service.explain.document import Claim, Document
from service.i18n.messages import messages

_SAME = 0.005  # the two shares are written as one figure ("37%" twice)
_TOLERANCE = 0.02  # within this of 1 - 1/(1 + x) the "less" reading is right


def more_and_less(doc: Document, claim: Claim) -> Result | None:
    """The "less" share against what the "more" share implies, where the sentence gives both as one figure."""
    changes = [f for f in claim.figures if f.quantity == "percent_change" and f.value and f.quote.rstrip().endswith("%")
               and doc.text[max(0, f.start - 1):f.start] not in ("-", "–")]  # "30-50% faster" is a range, not two shares
    more = next((f for f in changes if f.value > 0), None)
    less = next((f for f in changes if f.value < 0 and more is not None and abs(abs(f.value) - more.value) <= _SAME), None)
    if more is None or less is None:
        return None
    index = worked(doc, f"1 - 1 / (1 + {more.value:g})", f"1 - 1 / (1 + {more.quote})")
    if index is None:
        return None
    implied = doc.calculations[index]["outputs"]["value"]
    if abs(implied - abs(less.value)) <= _TOLERANCE:
        return None  # "100% more throughput, or 50% less time": the two agree, the other checks judge the figures
    return Result([index], "inconsistent", messages(doc.lang)["verdicts"]["more_and_less"].format(
        more=more.quote, less=less.quote, implied=restate.value("mfu", implied)))  # written as a share: "27.01%"
