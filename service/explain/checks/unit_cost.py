"""A price per unit times the units the text states ("each gigawatt needs about $50 billion" and "6 gigawatts": 6 x $50
billion = $300 billion), said in words; nothing in the text states the total, so there is no verdict."""

import re

from service.explain import claims as claim_cues, restate
from service.explain.checks.core import Result, worked
from service.explain.document import Claim, Document
from service.i18n import arabic_numbers
from service.i18n.messages import messages

_WATTS = {"g": 1e9, "m": 1e6, "ج": 1e9, "غ": 1e9, "م": 1e6}  # the unit word's first letter: giga or mega (watts)
# (English, Arabic): the unit's name, one and many ("per gigawatt", "6 gigawatts"; Arabic keeps the unit's one form)
_UNIT_WORDS = ({1e9: ("gigawatt", "gigawatts"), 1e6: ("megawatt", "megawatts")}, {1e9: ("جيجاواط",) * 2, 1e6: ("ميجاواط",) * 2})
_SCALES = ((1e12, "trillion"), (1e9, "billion"), (1e6, "million"))
_UP_TO = re.compile(r"(?:up to|as much as|ما يصل إلى|ما يصل الى|حتى)\s*\$?\s*$", re.I)
_AS_EACH = re.compile(r"(?:\bwith|\bas|\bupon|\bafter|مع نشر|مع|عند|بعد)\s*$", re.I)


def dollars(value: float, lang: str) -> str:
    """An amount of dollars as a reader writes it ("$300 billion", "300 مليار دولار")."""
    if lang == "ar":
        return arabic_numbers.amount(value, "دولار")
    for scale, word in _SCALES:
        if value >= scale:
            return f"${value / scale:,.3g} {word}"
    return f"${value:,.0f}"


def unit_cost(doc: Document, claim: Claim) -> Result | None:
    """The one cost the sentence gives per unit of power, times the one power the text states elsewhere."""
    costs = [f for f in claim.figures if f.quantity == "cost_usd" and f.value > 0]
    spans = claim_cues.cue_spans("per_unit", claim.quote)  # data/claim_cues.json "per_unit": "each gigawatt", "كل جيجاواط"
    if len(costs) != 1 or len({claim.quote[a:b].split(None, 1)[-1].lower() for a, b in spans}) != 1:
        return None
    if _UP_TO.search(doc.text[max(0, costs[0].start - 16):costs[0].start]) \
            or _AS_EACH.search(claim.quote[max(0, spans[0][0] - 16):spans[0][0]]):
        return None  # "up to $100 billion, released as each gigawatt is deployed": a total paid in steps, not a unit price
    unit = claim.quote[spans[0][0]:spans[0][1]].split(None, 1)[-1]
    watts = _WATTS[unit[0].lower()]
    counts = [f for f in doc.figures if f.quantity == "power_w" and f.value > 0 and f.value != watts]
    if len({f.value for f in counts}) != 1:
        return None  # no power stated, or several (5.5 and 1.5 GW): which one the price is applied to is uncertain
    cost, count = costs[0], counts[0]
    index = worked(doc, f"{cost.value:g} * {count.value / watts:g}", f"{cost.quote} x {count.quote}")
    if index is None:
        return None
    total = doc.calculations[index]["outputs"]["value"]
    same = restate.same_language  # an answer in the other language names the figures in its own words
    words = _UNIT_WORDS[doc.lang == "ar"][watts]
    return Result([index], None, messages(doc.lang)["verdicts"]["unit_cost_total"].format(
        cost=cost.quote if same(cost.quote, doc.lang) else dollars(cost.value, doc.lang),
        unit=unit if same(unit, doc.lang) else words[0],
        count=count.quote if same(count.quote, doc.lang) else f"{count.value / watts:g} {words[1]}",
        computed=dollars(total, doc.lang)))
