"""What a price per chip-hour and a price per million tokens imply together: "On an H100 at $2.50/GPU-hour, a deployment
lands around $1.50-$2.50 per million output tokens" is $2.50 / $1.50 = 1.7 million tokens per GPU-hour, about 460
tokens per second per GPU (280 at $2.50): the throughput the prices assume, said without a verdict (the text states none)."""

import re

from service.explain import pattern_cache
from service.explain.checks.core import Result, worked
from service.explain.document import Claim, Document
from service.i18n.messages import messages

_MONEY = r"\$\s?(?P<{0}>\d+(?:\.\d+)?)"
# "$2.50/GPU-hour", "$2.50 per GPU hour", "$4/hr per H100"
HOURLY = pattern_cache.lazy(_MONEY.format("hour") + r"\s*(?:/|per|an?)\s*(?:(?:GPU|chip|H100|H200|B200|A100)[- ]?)?(?:hour|hr|h)\b", re.I)
# "$1.50-$2.50 per million output tokens", "$2 per 1M tokens", "$0.60/M tokens"
_PER_MILLION = pattern_cache.lazy(_MONEY.format("low") + r"(?:\s*(?:-|–|to)\s*" + _MONEY.format("high") + r")?\s*(?:/|per)\s*"
                                  r"(?:(?:one\s+)?million|1\s?M|M)\b\s*(?:(?:input|output|generated)\s+)?(?:tokens?)?", re.I)
WINDOW = 2  # sentences: the hourly price may be said in the sentence before the price per token


def token_price(doc: Document, claim: Claim) -> Result | None:
    """The tokens per second per chip that an hourly price and a price per million tokens assume."""
    per_token = _PER_MILLION.search(claim.quote)
    if per_token is None or claim.calculations:
        return None
    index = doc.claims.index(claim)
    nearby = " ".join(c.quote for c in doc.claims[max(0, index - WINDOW + 1):index + 1])
    hourly = [m for m in HOURLY.finditer(nearby)]
    if len(hourly) != 1:
        return None  # no hourly price, or several: which one the token price rests on is a guess
    hour = float(hourly[0].group("hour"))
    prices = [float(per_token.group("low"))] + ([float(per_token.group("high"))] if per_token.group("high") else [])
    rates, calculations = [], []
    for price in prices:
        ran = worked(doc, f"{hour:g} / {price:g} * 1000000 / 3600", f"${hour:g} per hour / ${price:g} per million tokens")
        if ran is None:
            return None
        calculations.append(ran)
        rates.append(doc.calculations[ran]["outputs"]["value"])
    m = messages(doc.lang)["verdicts"]
    rate = f"{min(rates):,.0f}" if len(rates) == 1 else m["token_price_range"].format(low=f"{min(rates):,.0f}", high=f"{max(rates):,.0f}")
    if doc.lang == "en":
        shown_hour, shown_token = hourly[0].group(0).strip(), per_token.group(0).strip()
    else:  # the prices in the answer's words, not the text's English ("$2.50/GPU-hour")
        shown_hour = m["token_price_hourly"].format(price=f"${hour:g}")
        shown_token = m["token_price_per_million"].format(price=" - ".join(f"${p:g}" for p in prices))
    return Result(calculations, None, m["token_price"].format(hourly=shown_hour, per_token=shown_token, rate=rate))
