"""An amount the text says a share of another comes to: "accepting 5-15% compute waste ... For a $10M training run,
that is $500K-1.5M wasted" is 5% x $10M = $500K and 15% x $10M = $1.5M. The share is the sentence's own or the one
sentence before it; the whole is the largest amount of the sentence and the parts the others of its kind. Only an
agreement is said: a part that is not the share of that whole may be a share of something else."""

from service.explain import restate
from service.explain.checks import verdicts
from service.explain.checks.core import Result, discard, said, worked
from service.explain.document import Claim, Document
from service.i18n.messages import messages

_AMOUNTS = ("cost_usd", "time_s", "gpu_hours", "chip_hours", "bytes", "memory_bytes", "tokens", "energy_wh", "power_w")
_SHOWN = {"cost_usd": "${}", "power_w": "{} W", "energy_wh": "{} Wh", "gpu_hours": "{} GPU-hours", "chip_hours": "{} chip-hours"}


def _shares(doc: Document, claim: Claim) -> list:
    """The claim's percentages, else those of the sentence right before it (one value, or the two ends of a range)."""
    own = [f for f in claim.figures if f.quantity in ("percent", "fraction") and 0 < f.value < 1]
    if own:
        return own
    before = [(a, b) for a, b in doc.sentences if b <= claim.start]
    if not before:
        return []
    a, b = before[-1]
    return [f for f in doc.figures if a <= f.start < b and f.quantity in ("percent", "fraction") and 0 < f.value < 1]


def share_of_amount(doc: Document, claim: Claim) -> Result | None:
    """Parts of one amount against share x whole: one share and one part, or a range of shares and a range of parts."""
    if claim.calculations:
        return None
    for quantity in _AMOUNTS:
        amounts = sorted((f for f in claim.figures if f.quantity == quantity and f.value > 0), key=lambda f: f.start)
        if len(amounts) >= 2:
            break
    else:
        return None
    whole = max(amounts, key=lambda f: f.value)
    parts = sorted((f for f in amounts if f is not whole), key=lambda f: f.value)
    shares = sorted(_shares(doc, claim), key=lambda f: f.value)
    if any(verdicts.stated_bound(doc.text[max(0, s.start - 24):s.start]) for s in shares):
        return None  # "over 60% of each iteration": a bound, and of a whole the sentence may not name
    if not parts or len(parts) != len(shares) or len(parts) > 2 or whole.start < min(p.start for p in parts) - 200:
        return None
    found, said_parts = [], []
    for share, part in zip(shares, parts):
        index = worked(doc, f"{share.value:g} * {whole.value:g}", f"{share.quote} x {whole.quote}")
        if index is None:
            return None
        found.append(index)
        computed = doc.calculations[index]["outputs"]["value"]
        if abs(part.value / whole.value - share.value) > 0.01 + 0.05 * share.value:  # as shares: 80.7 µs is no 24% of 105.8 µs, 2 s no 60% of 4 s
            for i in found:
                discard(doc, i)
            return None  # the part is a share of something else, or the text's own rounding: nothing to say
        shown = restate.value(quantity, computed)  # a bare number for a cost or a power: its unit is written around it
        said_parts.append(messages(doc.lang)["verdicts"]["share_of_amount_item"].format(
            share=f"{share.value * 100:g}%", whole=said(doc, whole), computed=_SHOWN.get(quantity, "{}").format(shown)))
    words = messages(doc.lang)["verdicts"]
    return Result(found, "consistent", words["share_of_amount"].format(
        items=words["share_of_amount_join"].join(said_parts), stated=" – ".join(said(doc, p) for p in parts)))
