"""A comparison whose subject is the sentence before ("Llama 2 70B with MHA requires ~67 GB (FP16) for 128 token
context. That's more than a single 80GB A100 GPU."): the one size the sentence before states, against the one this
sentence names. Only where each sentence holds exactly one figure of the kind compared, so "That" can mean nothing else
(round 87 P21's reader: 67 GB is less than 80 GB)."""

import re

from service.explain.checks import verdicts
from service.explain.checks.core import Result, said, worked
from service.explain.document import Claim, Document
from service.i18n.messages import messages

_POINTS_BACK = re.compile(r"^\s*(?:that|this|it|which)(?:'s|’s|\s+is|\s+was|\s+would\s+be|\s+will\s+be)\s+"
                          r"(?:already\s+|still\s+|far\s+|much\s+|way\s+|well\s+)?(?P<way>more|less|larger|smaller|bigger|greater|higher|lower|fewer)\s+than\b", re.I)
_MORE = {"more", "larger", "bigger", "greater", "higher"}
_KINDS = {"memory"}  # sizes: a bound of a card's memory is the comparison readers asked for


def _size(fig) -> bool:
    """A size in bytes of any kind (weights, a cache, a card's memory), never a rate."""
    return (verdicts.kind(fig.quantity) in _KINDS or fig.quantity.endswith("bytes")) and "_per_" not in fig.quantity and fig.value > 0


def anaphoric_comparison(doc: Document, claim: Claim) -> Result | None:
    """The size the sentence before states against the one this sentence compares it with, the text's word kept."""
    found = _POINTS_BACK.match(claim.quote)
    if not found or claim.calculations:
        return None
    here = [f for f in claim.figures if _size(f)]
    before = next((i for i, (a, b) in enumerate(doc.sentences) if a <= claim.start < b or a >= claim.start), None)
    if len(here) != 1 or not before:
        return None
    a, b = doc.sentences[before - 1]
    there = [f for f in doc.figures if a <= f.start < b and f.value > 0 and not f.role]
    sized = [f for f in there if _size(f)]
    if len(sized) != 1 or len(there) > 3:
        return None  # two sizes before, or a row of figures: which one "that" is cannot be told
    subject, other = sized[0], here[0]
    index = worked(doc, f"{subject.value:g} / {other.value:g}", f"{subject.quote} / {other.quote}")
    if index is None:
        return None
    ratio = doc.calculations[index]["outputs"]["value"]
    more = found.group("way").lower() in _MORE
    words = messages(doc.lang)["verdicts"]
    shown = {"subject": said(doc, subject), "other": said(doc, other)}
    if (ratio > 1) == more and abs(ratio - 1) > 0.01:
        return Result([index], "consistent", words["anaphoric_more" if more else "anaphoric_less"].format(**shown))
    if abs(ratio - 1) <= 0.05:
        return Result([index], None, None)  # about equal: neither side is shown wrong
    return Result([index], "inconsistent", words["anaphoric_not_more" if more else "anaphoric_not_less"].format(**shown))
