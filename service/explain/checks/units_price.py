"""A count of units, a price for each and the total the text gives: "350,000 H100 GPUs at $25,000 to $30,000 each,
about $9 billion" is 350,000 x $25,000 to $30,000 = $8.75 to $10.5 billion, which holds the $9 billion."""

import re

from service.explain.checks import verdicts
from service.explain.checks.core import Inputs, Result, run, said
from service.explain.checks.unit_cost import dollars
from service.explain.document import Claim, Document
from service.i18n.messages import messages

# the price is for one unit: "each", "apiece", "per GPU", "a unit", "لكل وحدة", "للشريحة الواحدة"; "per GPU-hour" is a rent
_EACH = re.compile(r"\s*(?:(?:to|-|–|and)\s*\$?\s*[\d,.]+\s*(?:k|K)?\s*)?(?:each|apiece|a\s+piece|per\s+(?:GPU|chip|unit|card|accelerator|server)(?![- ]?(?:hours?|hr|h|months?|days?|years?)\b)|"
                   r"a\s+(?:GPU|chip|unit|card)|لكل\s+(?:وحدة|شريحة|بطاقة|معالج)|للوحدة|للشريحة)\b", re.I)
_APPROX = re.compile(r"(?:about|around|roughly|nearly|approximately|some|~|≈|نحو|حوالي|قرابة)\s*\$?\s*$", re.I)


def units_price(doc: Document, claim: Claim) -> Result | None:
    """count x price each against the total the sentence states; a price range gives a range of totals."""
    if claim.calculations:
        return None
    counts = [f for f in claim.figures if f.quantity == "n_chips" and f.value >= 2]
    costs = sorted((f for f in claim.figures if f.quantity == "cost_usd" and f.value > 0), key=lambda f: f.start)
    if len(counts) != 1 or len(costs) < 2:
        return None
    prices = [f for f in costs if _EACH.match(doc.text, f.end)]
    if not prices:
        return None
    price, low = prices[0], None
    high = next((f for f in costs if f.start >= price.end and re.fullmatch(r"\s*(?:to|-|–)\s*\$?", doc.text[price.end:f.start])), None)
    if high is not None and _EACH.match(doc.text, high.end):
        price, low = high, price  # "$25,000 to $30,000 each": a range of prices
    total = next((f for f in costs if f.start > price.end and f.value > price.value * counts[0].value / 100), None)
    if total is None:
        return None
    count = counts[0]
    approx = bool(_APPROX.search(doc.text[max(0, total.start - 14):total.start])) or total.approx
    rule = verdicts.table()["tolerances"]["written_arithmetic"]
    share = rule["approx_share" if approx else "share"]
    lo_price = low.value if low is not None else price.value
    products = (count.value * lo_price, count.value * price.value)
    inputs = Inputs(doc.lang)
    inputs.expression(f"{count.value:g} * {price.value:g}", f"{count.quote} × {price.quote}")
    if low is None:
        inputs.values["stated_result"] = f"{total.value:g}"
        inputs.sources["stated_result"] = {"source": "text", "quote": total.quote}
        inputs.values["tolerance"] = share
    index = run(doc, "arithmetic", inputs)
    if index is None:
        return None
    indices = [index]
    if low is not None:  # the range's low end worked out too
        lower = Inputs(doc.lang)
        lower.expression(f"{count.value:g} * {low.value:g}", f"{count.quote} × {low.quote}")
        indices = [i for i in (run(doc, "arithmetic", lower), index) if i is not None]
    holds = products[0] * (1 - share) <= total.value <= products[1] * (1 + share)
    words = messages(doc.lang)["verdicts"]
    fields = {"count": said(doc, count), "price": f"{low.quote} – {price.quote}" if low is not None else price.quote,
              "computed": dollars(products[0], doc.lang) if low is None else f"{dollars(products[0], doc.lang)} – {dollars(products[1], doc.lang)}",
              "stated": total.quote}
    return Result(indices, "consistent" if holds else "inconsistent",
                  words["units_price_consistent" if holds else "units_price_inconsistent"].format(**fields))

