"""A rate said to be a share of a peak the same sentence states ("420 TFLOP/s per GPU, 42% of the 989 TFLOP/s dense
peak"): rate / peak against the share, to its last written digit; a bound ("under 45% of ...") is met or not. Only
agreement is a verdict: a share that does not come out may be of another quantity than the two rates read."""

import re

from service.explain.checks import verdicts
from service.explain.checks.core import Result, as_written, worked
from service.explain.checks.difference import decimals
from service.explain.document import Claim, Document
from service.i18n.messages import messages

_KINDS = ("bandwidth", "memory_bandwidth_bytes_per_s", "compute_rate", "throughput")
_SHARES = ("hfu", "mfu", "fraction", "percent", "utilization")
_OF = re.compile(r"^\s*of\s+(?:the\s+|its\s+|their\s+|a\s+)?(?:[\w/-]+\s+){0,3}?$", re.I)  # "42% of the " ... "989 TFLOP/s"
_BELOW = re.compile(r"(?:under|below|less than|lower than|not even|barely|<)\s*$", re.I)
_ABOVE = re.compile(r"(?:over|above|more than|higher than|at least|>)\s*$", re.I)


def _kind(fig) -> str:
    """A figure's kind, a memory's bandwidth counted with other bandwidths ("2.9 TB/s" of HBM against a "3.35 TB/s" peak)."""
    return "bandwidth" if fig.quantity == "memory_bandwidth_bytes_per_s" else verdicts.kind(fig.quantity)


def share_of_stated(doc: Document, claim: Claim) -> Result | None:
    """The claim's one share written "P% of <peak>" right before a rate of the kind of another rate in the sentence."""
    if claim.calculations or any(f.quantity == "expression" for f in claim.figures):
        return None
    shares = [f for f in claim.figures if f.quantity in _SHARES and 0 < f.value < 1]
    if len(shares) != 1:
        return None
    share = shares[0]
    after = [f for f in claim.figures if f.start > share.end and _OF.match(doc.text[share.end:f.start])]
    peak = after[0] if after and _kind(after[0]) in _KINDS else None
    if peak is None:
        return None
    rates = [f for f in claim.figures if f is not peak and f.end <= share.start and _kind(f) == _kind(peak)
             and 0 < f.value < peak.value]
    if len(rates) != 1:
        return None  # none before it, or two: which one is the share is uncertain
    rate = rates[0]
    index = worked(doc, f"{as_written(rate)} / {as_written(peak)}", f"{rate.quote} / {peak.quote}")
    if index is None:
        return None
    computed, stated = rate.value / peak.value, share.value
    before = doc.text[max(claim.start, share.start - 14):share.start]
    step = 10 ** -decimals(share.quote) * (0.01 if "%" in share.quote else 1)
    agrees = computed < stated if _BELOW.search(before) else computed > stated if _ABOVE.search(before) \
        else abs(computed - stated) <= 0.5 * step + 0.01 * stated  # "42%" is 41.5% to 42.5%, and 1% for a rounded peak
    words = messages(doc.lang)["verdicts"]
    shown = {"rate": rate.quote, "peak": peak.quote, "computed": f"{computed:.{max(decimals(share.quote), 1)}%}",
             "stated": (before.split()[-1] + " " if (_BELOW.search(before) or _ABOVE.search(before)) else "") + share.quote}
    return Result([index], "consistent" if agrees else None,
                  words["stated_peak_share" if agrees else "stated_peak_share_gap"].format(**shown))  # a gap is said, not judged
