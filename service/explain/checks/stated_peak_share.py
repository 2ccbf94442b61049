"""A rate beside the share of a peak it says it is ("623 GB/s | 66.5%" under "% of peak") against the one peak of that
kind the text states elsewhere ("Against the 3090's 936.2 GB/s"): rate / peak, to the written share's last digit.
Only agreement is said: a share that does not come out may be of another peak than the one the text states."""

from service.explain.checks import verdicts
from service.explain.checks.core import Result, as_written, worked
from service.explain.checks.difference import decimals
from service.explain.document import Claim, Document
from service.i18n.messages import messages

_KINDS = ("bandwidth", "memory_bandwidth_bytes_per_s", "compute_rate", "throughput")
_SHARES = ("hfu", "mfu", "fraction", "percent", "utilization")


def stated_peak_share(doc: Document, claim: Claim) -> Result | None:
    """The claim's one rate with a peak over that peak (the text's one largest rate of its kind, outside the claim),
    against the claim's one share."""
    if any(f.quantity == "expression" for f in claim.figures):
        return None  # "480/900 = 53%": the sentence's own arithmetic is redone already
    shares = [f for f in claim.figures if f.quantity in _SHARES and 0 < f.value < 1]
    if len(shares) != 1:
        return None
    share = shares[0]
    step = 10 ** -decimals(share.quote) * (0.01 if "%" in share.quote else 1)  # the written share's last digit
    found = [(rate, peak) for rate in claim.figures if verdicts.kind(rate.quantity) in _KINDS and rate.value > 0
             for peak in [_peak(doc, claim, rate)] if peak is not None and abs(rate.value / peak.value - share.value) <= 0.75 * step + 1e-9]
    if len(found) != 1:
        return None  # none, or two rates whose peaks both give the share: which one it is of is uncertain
    rate, peak = found[0]
    computed = rate.value / peak.value
    index = worked(doc, f"{as_written(rate)} / {as_written(peak)}", f"{rate.quote} / {peak.quote}")
    if index is None:
        return None
    return Result([index], "consistent", messages(doc.lang)["verdicts"]["stated_peak_share"].format(
        rate=rate.quote, peak=peak.quote, computed=f"{computed:.{max(decimals(share.quote), 1)}%}", stated=share.quote))


def _peak(doc: Document, claim: Claim, rate):
    """The one rate of `rate`'s kind outside the claim that is the largest the text names and above `rate`, or None."""
    kind = verdicts.kind(rate.quantity)
    like = [f for f in doc.figures if verdicts.kind(f.quantity) == kind and f.value > 0]
    peaks = {f.value: f for f in like if not (claim.start <= f.start < claim.end) and f.value >= max(g.value for g in like)}
    peak = next(iter(peaks.values())) if len(peaks) == 1 else None
    return peak if peak is not None and peak.value > rate.value else None
