"""What chips cost for a time: "you lose up to 100 minutes of training. On a 256-GPU cluster at $4/GPU-hour, that is
$17,000 of wasted compute" is 256 x $4 x 100/60 h = $1,707: the chips times the hourly price times the hours against
the cost the sentence states, with the time from the sentence or, where it points back ("that is"), the one before."""

import re

from service.explain import pattern_cache
from service.explain.checks import verdicts
from service.explain.checks.core import Result, discard, said, worked
from service.explain.checks.token_price import HOURLY
from service.explain.document import Claim, Document
from service.i18n.messages import messages

_POINTS_BACK = pattern_cache.lazy(r"\b(?:that|this|which|it)(?:'s|’s|\s+(?:is|comes to|means|amounts to|costs?|adds up to|works out to))\b", re.I)
_PER_CHIP = pattern_cache.lazy(r"GPU|chip|H100|H200|B200|A100", re.I)
MIN_HOURS = 1 / 60  # a minute at least: a step's time is no stretch of a cluster's use


def cluster_cost(doc: Document, claim: Claim) -> Result | None:
    """Chips x an hourly price x hours against a stated cost; a gap beyond the written-arithmetic tolerance is inconsistent."""
    priced = _priced(doc, claim)  # the sentence that gives the hourly price: this one, or the one just before it
    hourly = list(HOURLY.finditer(priced.quote))
    chips = [f for f in priced.figures if f.quantity == "n_chips" and f.value >= 2]
    if len(hourly) != 1 or len(chips) != 1 or claim.calculations:
        return None
    whole = not _PER_CHIP.search(hourly[0].group(0))  # "$200/hour" may be the cluster's price or each chip's
    at = priced.start + hourly[0].start()
    costs = [f for f in claim.figures if f.quantity == "cost_usd" and not at <= f.start < priced.start + hourly[0].end()
             and f.value >= 100]
    times = [f for f in claim.figures if f.quantity == "time_s" and f.value >= MIN_HOURS * 3600]
    if not times and _POINTS_BACK.search(claim.quote):
        index = doc.claims.index(claim)
        before = doc.claims[index - 1] if index else None
        times = [f for f in (before.figures if before else []) if f.quantity == "time_s" and f.value >= MIN_HOURS * 3600]
    if len(costs) != 1 or len(times) != 1:
        return None
    price, hours = float(hourly[0].group("hour")), times[0].value / 3600
    if whole:
        return _whole_cluster(doc, price, times[0], costs[0], hours)
    ran = worked(doc, f"{chips[0].value:g} * {price:g} * {hours:g}", f"{chips[0].quote} × ${price:g} per hour × {times[0].quote}")
    if ran is None:
        return None
    computed = doc.calculations[ran]["outputs"]["value"]
    stated = costs[0]
    shown = {"chips": said(doc, chips[0]), "price": f"${price:g}", "time": said(doc, times[0]), "computed": f"${computed:,.0f}",
             "stated": said(doc, stated)}
    m = messages(doc.lang)["verdicts"]
    if verdicts.agrees(stated.value, computed, True):
        return Result([ran], "consistent", m["cluster_cost"].format(**shown))
    return Result([ran], "inconsistent", m["cluster_cost_gap"].format(**shown))


def _priced(doc: Document, claim: Claim) -> Claim:
    """The claim itself, or, when it states a cost and a time but no price ("saved 3 hours ago, wasting $165"), the
    sentence right before it when that one gives the only hourly price ("an 8x H100 cluster costing $55 an hour")."""
    index = doc.claims.index(claim)
    before = doc.claims[index - 1] if index else None
    if HOURLY.search(claim.quote) or before is None or not any(f.quantity == "cost_usd" for f in claim.figures):
        return claim
    between = doc.text[before.start + len(before.quote):claim.start]
    return before if not between.strip(" \t.") and len(list(HOURLY.finditer(before.quote))) == 1 else claim


def _whole_cluster(doc: Document, price: float, time, stated, hours: float) -> Result | None:
    """"On a 64-GPU cluster at $200/hour, that's $14,000" after "a 72-hour run": the price read as the cluster's, said
    only where it gives the stated cost (72 x $200 = $14,400); a gap may mean a price per chip, so it is never judged."""
    ran = worked(doc, f"{price:g} * {hours:g}", f"${price:g} per hour × {time.quote}")
    if ran is None:
        return None
    computed = doc.calculations[ran]["outputs"]["value"]
    if not verdicts.agrees(stated.value, computed, True):
        discard(doc, ran)
        return None
    shown = {"price": f"${price:g}", "time": messages(doc.lang)["cross_figures"]["units"]["hours"].format(n=f"{hours:,.4g}"), "computed": f"${computed:,.0f}", "stated": said(doc, stated)}
    return Result([ran], "consistent", messages(doc.lang)["verdicts"]["cluster_cost_whole"].format(**shown))
