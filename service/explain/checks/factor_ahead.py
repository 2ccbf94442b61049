"""A factor a sentence states before the figures it is about ("PaLM 2 uses nearly five times the training data of its
predecessor." ... "3.6 trillion tokens." ... "780 billion tokens."): redone from the only two figures of one kind in the
sentences that follow, within the factor's rounding. The pairing is read across sentences, so a gap is said, never judged."""

import re

from service.explain.checks import verdicts
from service.explain.checks.arithmetic import tolerance_of
from service.explain.checks.core import Result, said, worked_pair
from service.explain.document import Claim, Document
from service.i18n.messages import messages

SENTENCES_AHEAD = 3  # the figures a factor announces follow within the next few sentences
_FACTORS = ("ratio", "speedup")
_COMPARED = re.compile(r"\b(?:than|compared|predecessor|previous|prior|earlier|before)\b|مقارنة|سابق|السابق|من قبل", re.I)
_AMOUNTS = ("tokens", "compute", "memory", "count", "parameters", "throughput", "compute_rate", "bandwidth", "cost_usd", "energy_wh", "power")


def factor_ahead(doc: Document, claim: Claim) -> Result | None:
    """The one factor of a sentence with no other figure and a comparison word, against the two like figures after it."""
    if claim.calculations or len(claim.figures) != 1 or claim.figures[0].quantity not in _FACTORS or claim.figures[0].value < 1.2:
        return None
    factor = claim.figures[0]
    if not _COMPARED.search(claim.quote):
        return None
    following = [b for a, b in doc.sentences if a >= claim.end][:SENTENCES_AHEAD]
    if not following:
        return None
    ahead = [f for f in doc.figures if claim.end <= f.start and f.end <= following[-1] and f.value > 0]
    kinds = {verdicts.kind(f.quantity) for f in ahead} & set(_AMOUNTS)
    for kind in kinds:
        like = [f for f in ahead if verdicts.kind(f.quantity) == kind]
        everywhere = [f for f in doc.figures if verdicts.kind(f.quantity) == kind]
        if len(like) != 2 or len(everywhere) != 2 or like[0].value == like[1].value:
            continue  # a third figure of the kind anywhere: which two the factor is about is not sure
        big, small = sorted(like, key=lambda f: -f.value)
        index = worked_pair(doc, "{b} / {s}", big, small, f"{big.quote} / {small.quote}")
        if index is None:
            return None
        computed = doc.calculations[index]["outputs"]["value"]
        agrees = abs(computed - factor.value) <= tolerance_of(factor.quote, factor.value, factor.approx) * factor.value
        shown = {"x": said(doc, big), "y": said(doc, small), "computed": f"{computed:.2f}".rstrip("0").rstrip(".") + "x",
                 "stated": _factor_said(doc, factor)}
        words = messages(doc.lang)["verdicts"]
        return Result([index], "consistent" if agrees else None, words["factor_before" if agrees else "factor_before_gap"].format(**shown))
    return None


def _factor_said(doc: Document, factor) -> str:
    """The factor as the answer says it: as written in the answer's language, else its value with an x ("5x" for «خمسة أضعاف»)."""
    text = said(doc, factor)
    return text if re.search(r"[^\d.,\s]", text) else f"{factor.value:g}x"
