"""A factor a sentence states, applied to the one like figure of the sentences just before ("550 TFLOPS" ... "would have
to be at 770 TFLOPS (since it does 7/5 = 1.4x more compute)": 550 x 1.4 = 770), said only when the product holds."""

from service.explain import restate
from service.explain.checks import verdicts
from service.explain.checks.arithmetic import tolerance_of
from service.explain.checks.core import Result, discard, said, worked
from service.explain.document import Claim, Document
from service.i18n.messages import messages

_KINDS = ("compute_rate", "throughput", "bandwidth", "time", "memory")  # data/verdicts.json kinds a factor scales
_FACTORS = ("ratio", "speedup")
SENTENCES_BACK = 2  # how far back the scaled figure may be: the sentence before, or the one before it


def _one(figs: list) -> object | None:
    """The figure when all of them state one value, else None."""
    return figs[0] if figs and len({f.value for f in figs}) == 1 else None


def _earlier(doc: Document, claim: Claim, quantity: str):
    """The one figure of `quantity` in the sentences just before the claim's (every one there states the same value)."""
    before = [s for s in doc.sentences if s[1] <= claim.start][-SENTENCES_BACK:]
    if not before:
        return None
    return _one([f for f in doc.figures if f.quantity == quantity and before[0][0] <= f.start < claim.start])


def scaled_factor(doc: Document, claim: Claim) -> Result | None:
    """The earlier figure times (or over) the sentence's factor against the one like figure the sentence states: consistent
    when it holds within the written-arithmetic tolerance; otherwise which figures go together is uncertain, and nothing is said."""
    factor = _one([f for f in claim.figures if f.quantity in _FACTORS and f.value > 0 and f.value != 1])
    targets = [f for f in claim.figures if verdicts.kind(f.quantity) in _KINDS and f.value > 0]
    if factor is None or len(targets) != 1:
        return None
    target = targets[0]
    base = _earlier(doc, claim, target.quantity)
    if base is None or not base.value:
        return None
    approx = bool(getattr(target, "approx", False) or getattr(base, "approx", False) or getattr(factor, "approx", False))
    tolerance = tolerance_of(target.quote, target.value, approx)
    for op in ("*", "/"):
        index = worked(doc, f"{base.value:g} {op} {factor.value:g}", f"{base.quote} {op} {factor.quote}")
        if index is None:
            continue
        value = doc.calculations[index]["outputs"]["value"]
        if verdicts.possible(target.quantity, value) and abs(value / target.value - 1) <= tolerance:
            return Result([index], "consistent", messages(doc.lang)["verdicts"]["scaled_holds"].format(
                base=said(doc, base), op=("x" if doc.lang == "en" else "×") if op == "*" else ("/" if doc.lang == "en" else "÷"), factor=f"{factor.value:g}",
                computed=restate.value(target.quantity, value), stated=said(doc, target)))
        discard(doc, index)
    return None
