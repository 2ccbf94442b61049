"""A training run's chips and how long it ran ("trained on 512 H800 chips for 80 hours"): the chip-hours they make,
the unit compute budgets are compared in, worked out and said without a verdict (the text states no total to check)."""

import re

from service.explain.checks.core import Result, said, worked
from service.explain.document import Claim, Document
from service.i18n.messages import messages

# the run's own duration: trained or ran, then "for/in/over/during 80 hours" (a cluster "built in 19 days" is no run)
_RUN = re.compile(r"\b(?:train(?:ed|ing|s)?|pre-?train(?:ed|ing)?|ran|runs?|running)\b|تدريب|تدريبه|درّب|دُرّب|درب", re.I)
_FOR = re.compile(r"(?:\b(?:for|in|over|during|within|taking|took)\s+(?:just\s+|only\s+|about\s+|roughly\s+|around\s+)?"
                  r"|(?:خلال|لمدة|على\s+مدى|في)\s+(?:نحو\s+|حوالي\s+)?)$", re.I)
_NEAR = 90
_HOUR = 3600


def chip_hours(doc: Document, claim: Claim) -> Result | None:
    """n chips × the run's hours, when the sentence says a run used them for that long and no chip-hours are given."""
    if claim.calculations or not _RUN.search(claim.quote) or any(f.quantity == "chip_hours" for f in doc.figures):
        return None
    chips = [f for f in claim.figures if f.quantity == "n_chips" and f.value >= 2]
    times = [f for f in claim.figures if f.quantity == "time_s" and f.value >= _HOUR and _FOR.search(doc.text[max(0, f.start - 30):f.start])]
    if len(chips) != 1 or len(times) != 1:
        return None  # two counts or two durations: which goes with which is a guess
    count, time = chips[0], times[0]
    if time.value > LONGEST_RUN_S:
        return None  # "operating a 10,000 GPU cluster ... over 18 months" (round 98 P07): a cluster's life, many runs, not one
    if abs(time.start - count.end) > _NEAR and abs(count.start - time.end) > _NEAR:
        return None
    hours = time.value / _HOUR
    index = worked(doc, f"{count.value:g} * {hours:g}", f"{count.quote} × {time.quote}")
    if index is None:
        return None
    words = messages(doc.lang)["verdicts"]
    unit = words["chip_hours_gpu"] if re.search(r"GPU|وحدة معالجة الرسوم", count.quote) else words["chip_hours_chip"]
    why = words["chip_hours"].format(chips=said(doc, count), time=said(doc, time), total=f"{round(count.value * hours):,}", unit=unit)
    costs = [f for f in claim.figures if f.quantity == "cost_usd" and f.value >= MIN_RUN_COST]
    if len(costs) != 1:
        return Result([index], None, why)
    # the run's cost over its chip-hours: the price per chip-hour the text implies ($534,700 / 258,048 = $2.07)
    price = worked(doc, f"{costs[0].value:g} / {count.value * hours:g}", f"{costs[0].quote} / {round(count.value * hours):,}")
    if price is None:
        return Result([index], None, why)
    value = doc.calculations[price]["outputs"]["value"]
    return Result([index, price], None, why + words["chip_hour_price"].format(cost=said(doc, costs[0]), price=f"${value:,.2f}",
                                                                            unit=words["chip_hour_gpu" if unit == words["chip_hours_gpu"] else "chip_hour_chip"]))


LONGEST_RUN_S = 120 * 86400.0  # the longest single pre-training runs last about three months (Llama 3 405B: 54 days)
MIN_RUN_COST = 1000.0  # dollars: a run's cost, not a price per hour or per token
