"""Chip-hours the text works out from a total of FLOPs and a rate per chip it stated before ("15.7T tokens needs 41.4T
TFLOPs ... gives 416 TFLOP/s; so we get 27.6M H100 hours"): total / rate / 3600, against the hours stated (round 91's
reader found "cannot be checked without the model size" beside the text's own figures). Only agreement is said."""

from service.explain.checks import verdicts
from service.explain.checks.core import Result, discard, said, worked
from service.explain.document import Claim, Document
from service.i18n.messages import messages

_RATES = ("flop_per_s_per_chip", "peak_flop_per_s", "achieved_flop_per_s")


def hours_from_flops(doc: Document, claim: Claim) -> Result | None:
    """The claim's chip-hours against the text's one total of FLOPs over the last per-chip rate stated after it."""
    hours = [f for f in claim.figures if f.quantity == "chip_hours" and f.value > 0]
    totals = [f for f in doc.figures if f.quantity == "total_flops" and f.value > 0 and f.start < claim.start]
    if len(hours) != 1 or len(totals) != 1 or claim.calculations:
        return None
    rates = [f for f in doc.figures if f.quantity in _RATES and totals[0].end <= f.start < claim.start and f.value > 0
             and "/s" in f.quote.replace(" ", "").lower()]  # "2.54 TFLOPs" a token needs is an amount, not a rate
    if not rates:
        return None
    total, rate = totals[0], rates[-1]
    index = worked(doc, f"{total.value:g} / {rate.value:g} / 3600", f"{total.quote} / {rate.quote} / 3600 s")
    if index is None:
        return None
    computed = doc.calculations[index]["outputs"]["value"]
    if not verdicts.agrees(hours[0].value, computed, True):
        discard(doc, index)
        return None  # another rate or total than the ones read: no finding
    return Result([index], "consistent", messages(doc.lang)["verdicts"]["hours_from_flops"].format(
        total=said(doc, total), rate=said(doc, rate), computed=f"{computed / 1e6:.3g}M", stated=said(doc, hours[0])))
