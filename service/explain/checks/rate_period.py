"""An amount per period beside the rate per second it comes from: "2,000 tokens/s, or about 173M tokens a day" is
2,000 x 86,400 = 172.8M; "42 tokens per second, about 151,000 tokens per hour" is 42 x 3,600 (a round-24 reader
wanted a table's per-hour column checked against its per-second one)."""

import re

from service.explain.checks import verdicts
from service.explain.checks.core import Inputs, Result, run, said
from service.explain.document import Claim, Document
from service.i18n.messages import messages

_PERIODS = (  # the period written right after an amount, and its length in seconds
    (re.compile(r"^\s*(?:a|per|each|every|/)\s*(?:day|d)\b|^\s*daily\b|^\s*(?:في\s+اليوم|يوميًا|يوميا|كل\s+يوم)", re.I), 86_400),
    (re.compile(r"^\s*(?:an?|per|each|every|/)\s*(?:hour|hr|h)\b|^\s*(?:في\s+الساعة|كل\s+ساعة)", re.I), 3_600),
    (re.compile(r"^\s*(?:a|per|each|every|/)\s*(?:minute|min)\b|^\s*(?:في\s+الدقيقة|كل\s+دقيقة)", re.I), 60),
)
_RATE_OF = {"tokens_per_s": "tokens", "samples_per_s": "samples", "requests_per_s": "requests"}
_APPROX = re.compile(r"(?:about|around|roughly|nearly|approximately|~|≈|نحو|حوالي|قرابة)\s*$", re.I)


def period_after(doc: Document, fig) -> int | None:
    """The period written right after an amount ("100B tokens a day", "في اليوم"), in seconds, or None."""
    after = doc.text[fig.end:fig.end + 24]
    return next((seconds for pattern, seconds in _PERIODS if pattern.match(after)), None)


def rate_period(doc: Document, claim: Claim) -> Result | None:
    """rate x period against the amount per period beside it."""
    if claim.calculations:
        return None
    rates = [f for f in claim.figures if f.quantity in _RATE_OF and f.value > 0]
    amounts = [(f, s) for f in claim.figures if f.quantity in _RATE_OF.values() for s in [period_after(doc, f)] if s]
    if not (len(rates) == 1 and len(amounts) == 1 and _RATE_OF[rates[0].quantity] == amounts[0][0].quantity):
        return None
    rate, (amount, seconds) = rates[0], amounts[0]
    rule = verdicts.table()["tolerances"]["written_arithmetic"]
    approx = bool(_APPROX.search(doc.text[max(0, amount.start - 14):amount.start])) or amount.approx
    inputs = Inputs(doc.lang)
    inputs.expression(f"{rate.value:g} * {seconds}", f"{rate.quote} × {seconds:,} s")
    inputs.values["stated_result"] = f"{amount.value:g}"
    inputs.sources["stated_result"] = {"source": "text", "quote": amount.quote}
    inputs.values["tolerance"] = rule["approx_share" if approx else "share"]
    index = run(doc, "arithmetic", inputs)
    if index is None:
        return None
    out = doc.calculations[index]["outputs"]
    key = "rate_period_consistent" if out.get("consistent") else "rate_period_inconsistent"
    return Result([index], "consistent" if out.get("consistent") else "inconsistent", messages(doc.lang)["verdicts"][key].format(
        rate=said(doc, rate), seconds=f"{seconds:,}", computed=f"{out['value']:,.0f}", stated=said(doc, amount)))
