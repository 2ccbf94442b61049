"""A run's cost the text sets up ("estimate FLOPs as 6 x params x tokens, assume 40% MFU on H100 at 989 TFLOPs, at
$2.50/GPU-hour; report it for a 7B model on 2T tokens"): the FLOP count's chip-hours at the stated share of the stated
peak, and their price at the stated hourly rate, worked out and said without a verdict (no total is stated to check).
Every input is the text's own: with no MFU or no peak written, nothing is assumed and nothing is said."""

import re

from service.explain import pattern_cache, restate
from service.explain.checks.core import Result, said, worked
from service.explain.checks.token_price import HOURLY
from service.explain.document import Claim, Document
from service.i18n.messages import messages

# "2.50 دولار/GPU-ساعة", "2.5 دولار لكل ساعة GPU": an hourly price per chip written in Arabic
_ARABIC_HOURLY = pattern_cache.lazy(r"(?P<hour>\d+(?:\.\d+)?)\s*دولار(?:ات|ًا|ا)?\s*(?:/|لكل|في)\s*(?:(?:GPU|وحدة GPU)[- ]?ساعة"
                                    r"|ساعة(?:[- ](?:GPU|وحدة GPU|شريحة))|(?:GPU|وحدة GPU)[- ]hour)")
_PER_CHIP = pattern_cache.lazy(r"GPU|chip|H100|H200|B200|A100|وحدة|شريحة", re.I)
_STATED_TIME = ("chip_hours", "time_s")  # a run whose hours the text gives is checked against them elsewhere


def budget(doc: Document, claim: Claim, flops_index: int, flops: float) -> Result | None:
    """Chip-hours (and their cost) for `flops` at the text's one MFU and one peak; None unless both are written once."""
    mfu = _one(doc, "mfu")
    peak = _one(doc, "peak_flop_per_s")
    if mfu is None or peak is None or not 0 < mfu.value <= 1 or any(f.quantity in _STATED_TIME for f in doc.figures):
        return None
    hours_index = worked(doc, f"{flops:g} / ({peak.value:g} * {mfu.value:g}) / 3600", f"{peak.quote} × {mfu.quote}")
    if hours_index is None:
        return None
    hours = doc.calculations[hours_index]["outputs"]["value"]
    words = messages(doc.lang)["verdicts"]
    quotes = {name: source.get("quote") for name, source in doc.calculations[flops_index]["input_sources"].items()}
    if not quotes.get("params") or not quotes.get("tokens"):
        return None
    why = words["chip_hours_at"].format(params=quotes["params"], tokens=quotes["tokens"], flops=restate.value("total_flops", flops),
                                        mfu=said(doc, mfu), peak=said(doc, peak), hours=f"{hours:,.0f}")
    indices = [flops_index, hours_index]
    price = _hourly_price(doc.text)
    if price is not None:
        cost_index = worked(doc, f"{hours:g} * {price[0]:g}", price[1])
        if cost_index is not None:
            indices.append(cost_index)
            why += words["chip_hours_cost"].format(price=f"{price[0]:,.2f}", cost=f"${doc.calculations[cost_index]['outputs']['value']:,.0f}")
    return Result(indices, None, why)


def _one(doc: Document, quantity: str):
    """The text's one figure of `quantity`, or None where it gives none or several values."""
    found = [f for f in doc.figures if f.quantity == quantity]
    return found[0] if found and all(abs(f.value - found[0].value) <= 1e-9 * abs(found[0].value) for f in found) else None


def _hourly_price(text: str) -> tuple[float, str] | None:
    """The text's one price per chip-hour (value, as written), or None where it gives none or several."""
    english = [m for m in HOURLY.finditer(text) if _PER_CHIP.search(m.group(0))]
    arabic = list(_ARABIC_HOURLY.finditer(text))
    found = english + arabic
    if len(found) != 1:
        return None
    return float(found[0].group("hour")), found[0].group(0).strip()
