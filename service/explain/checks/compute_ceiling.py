"""Decoding's compute ceiling: a dense model spends about two operations per weight on each token it generates (one
multiply, one add), so a chip's arithmetic peak over 2 x parameters is the most tokens per second compute alone allows
(Kaplan et al. 2020, section 2.1; the JAX scaling book, "All About Transformer Inference"). A text that states the three
("989 TFLOP/s ... any 70B model should decode at roughly seven thousand tokens per second") is checked; a rate far from
it is said nothing of: real decoding is limited by memory, not by this ceiling."""

import re

from service.explain import restate
from service.explain.checks import verdicts
from service.explain.checks.core import Result, discard, said, worked
from service.explain.checks.decode_floor import _SPARSE
from service.explain.document import Claim, Document
from service.i18n.messages import messages

_DECODING = re.compile(r"\bdecod\w*|\bgenerat\w*|\binference\b|\bserv\w*|\bper user\b|فك الترميز|توليد|الاستدلال", re.I)


def compute_ceiling(doc: Document, claim: Claim) -> Result | None:
    """Tokens per second against the one arithmetic rate and the one dense model size of the sentence: peak / (2 x P)."""
    rate = next((f for f in claim.figures if verdicts.kind(f.quantity) == "throughput" and f.quantity == "tokens_per_s"), None)
    peaks = [f for f in claim.figures if verdicts.kind(f.quantity) == "compute_rate" and f.value > 0]
    sizes = {f.value for f in claim.figures if f.quantity == "params" and f.value >= 1e8}
    if rate is None or len(peaks) != 1 or len(sizes) != 1 or not _DECODING.search(claim.quote) or _SPARSE.search(doc.text):
        return None  # a training rate spends six operations per weight; a mixture of experts only its active ones
    params = next(f for f in claim.figures if f.quantity == "params" and f.value >= 1e8)
    peak = peaks[0]
    index = worked(doc, f"{peak.value:g} / (2 * {params.value:g})", f"{peak.quote} / (2 x {params.quote})")
    if index is None:
        return None
    computed = doc.calculations[index]["outputs"]["value"]
    if not verdicts.agrees(rate.value, computed, True):
        discard(doc, index)
        return None
    shown_params = params.quote if restate.same_language(params.quote, doc.lang) else restate.value("params", params.value)
    why = messages(doc.lang)["verdicts"]["compute_ceiling"].format(
        peak=peak.quote, params=shown_params, computed=restate.value("tokens_per_s", computed), stated=said(doc, rate))
    return Result([index], "consistent", why)
