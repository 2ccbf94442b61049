"""A rate achieved in bytes per second on a link the text rates in bits per second ("You should achieve around 48GB/s
from each CX7 NIC at 400Gbps"): the line rate turned into bytes (400 Gb/s / 8 = 50 GB/s) and the share of it achieved
(96%), the conversion readers of round 88 asked for. No verdict: the text states no share to check, and a rate above
the line may count both directions."""

import re

from service.explain.checks.bandwidth import _BITS
from service.explain.checks.core import Result, worked
from service.explain.document import Claim, Document
from service.i18n.messages import messages

_RATES = ("bandwidth_bytes_per_s", "bus_bandwidth_bytes_per_s", "algbw_bytes_per_s", "busbw_bytes_per_s")
# between the achieved rate and the line's: "from each CX7 NIC at", "per port on a", "over a ... link running at"
_AT = re.compile(r"^[^.;:\n]{0,40}?\b(?:at|on|over|of)\s+(?:a\s+|an\s+|the\s+)?(?:[\w-]+\s+){0,2}?$", re.I)


def line_share(doc: Document, claim: Claim) -> Result | None:
    """Bytes achieved against the bits-per-second line rate the sentence names right after them: the share, said."""
    if claim.calculations:
        return None
    rates = [f for f in claim.figures if f.quantity in _RATES and getattr(f, "unit", None) and f.value > 0]
    for achieved, line in zip(rates, rates[1:]):
        if _BITS.search(achieved.unit) or not _BITS.search(line.unit) or not _AT.match(doc.text[achieved.end:line.start]):
            continue
        bits = line.value * 8 / 1e9  # the line rate as written, in Gb/s
        index = worked(doc, f"{achieved.value / 1e9:g} / ({bits:g} / 8)", f"{achieved.quote} / ({line.quote} / 8)")
        if index is None:
            return None
        share = doc.calculations[index]["outputs"]["value"]
        if not 0.05 <= share <= 1.02:
            return Result([index], None, None)  # above the line (both directions, several links) or far below: no reading
        return Result([index], None, messages(doc.lang)["verdicts"]["line_share"].format(
            line=line.quote, bytes=f"{bits / 8:g} GB/s", achieved=achieved.quote, share=f"{share:.0%}"))
    return None
