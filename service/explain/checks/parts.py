"""Parts that add up to the whole the same sentence states ("395B tokens: 116B Arabic and 279B English")."""

from service.explain import restate
from service.explain.checks.core import Inputs, Result, run
from service.explain.document import Claim, Document
from service.i18n.messages import messages

_COUNTS = ("tokens", "params", "n_chips", "bytes", "memory_bytes", "chip_hours", "cost_usd", "power_w")
_EXACT = 0.005  # written figures that add up do so to their last digit; half a percent covers their rounding
_PART_SHARE = 0.05  # and the sum misses by no more than a twentieth of its smallest part


def _whole_before(doc: Document, claim: Claim, quantity: str):
    """The one figure of `quantity` in the sentence right before the claim's (a whole its parts may follow), or None."""
    before = [s for s in doc.sentences if s[1] <= claim.start][-1:]
    figs = [f for f in doc.figures if f.quantity == quantity and before and before[0][0] <= f.start < before[0][1]]
    return figs[0] if len(figs) == 1 else None


def parts_sum(doc: Document, claim: Claim) -> Result | None:
    """Three or more figures of one quantity in a sentence, one the sum of the others, or two whose sum is the one figure
    of their quantity in the sentence before ("a total of 7 GW." then "5.5 GW ... and 1.5 GW"): the addition said (consistent)."""
    for quantity in _COUNTS:
        figs = [f for f in claim.figures if f.quantity == quantity and f.value > 0]
        if len({f.value for f in figs}) != len(figs) or len(figs) < 2:
            continue
        whole = max(figs, key=lambda f: f.value) if len(figs) >= 3 else _whole_before(doc, claim, quantity)
        if whole is None:
            continue
        parts = [f for f in figs if f is not whole]
        gap = abs(sum(f.value for f in parts) - whole.value)
        if gap > _EXACT * whole.value or any(f.value <= _EXACT * whole.value for f in parts) \
                or gap > _PART_SHARE * min(f.value for f in parts):
            continue  # a "part" within the whole's rounding ("3 + 70B = 70B"), or one the sum misses by a tenth of itself
            # ("22,155 MiB + 600 MB" is 60 MB short of 22,785 MiB: a saving rounded, not parts of a total)
        inputs = Inputs(doc.lang)
        inputs.expression(" + ".join(f"{f.value:g}" for f in parts), " + ".join(f.quote for f in parts))
        index = run(doc, "arithmetic", inputs)
        if index is None:
            return None
        return Result([index], "consistent", messages(doc.lang)["verdicts"]["parts_sum"].format(
            parts=" + ".join(_written(quantity, f.value, doc.lang) for f in parts), whole=_written(quantity, whole.value, doc.lang)))
    return None


_AR_SCALES = ((1e12, "تريليون"), (1e9, "مليار"), (1e6, "مليون"))


def _written(quantity: str, value: float, lang: str) -> str:
    """A count as the answer writes it: "116B" in English, "116 مليار" in Arabic (no Latin scale letter in Arabic prose)."""
    if quantity == "power_w":  # "5.5 GW", "5.5 جيجاواط": the unit said, never a bare "5.5B"
        scale, unit = (1e9, ("GW", "جيجاواط")) if value >= 1e9 else (1e6, ("MW", "ميجاواط"))
        return f"{value / scale:g} {unit[lang == 'ar']}"
    if lang == "ar" and quantity not in ("bytes", "memory_bytes"):
        for scale, word in _AR_SCALES:
            if value >= scale:
                return f"{value / scale:g} {word}"
    return restate.value(quantity, value)
