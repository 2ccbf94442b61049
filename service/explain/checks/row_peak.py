"""The best row of a benchmark table as a share of the one peak rate the text states ("H20 has only 148 TFLOPS" over
"CuDNN: 0.545ms, 126.1 TFLOPS": 85.2%), when the text asks a question: how much headroom is left is what it asks."""

import re

from service.explain.checks import verdicts
from service.explain.checks.core import Result, said, worked
from service.explain.checks.named_rows import row_label
from service.explain.document import Claim, Document
from service.i18n.messages import messages

_KIND = "compute_rate"
_TERA = re.compile(r"\bT(?:FLOP/?s|FLOPS)\b", re.I)  # like with like: rates written in the same unit as the peak


def _rate(fig) -> bool:
    return verdicts.kind(fig.quantity) == _KIND and fig.value > 0 and bool(_TERA.search(fig.quote))


def row_peak(doc: Document, claim: Claim) -> Result | None:
    """Said on the row with the highest rate only (one share, not one per row); needs the passage's only other rate,
    outside the rows, to be above every row's (a 'peak' below a measurement is no peak)."""
    if "?" not in doc.text or row_label(claim) is None:
        return None
    own = [f for f in claim.figures if _rate(f)]
    if len(own) != 1:
        return None
    rows = [c for c in doc.claims if row_label(c) is not None]
    row_rates = [f for c in rows for f in c.figures if _rate(f)]
    in_rows = {f.start for c in rows for f in c.figures}
    peaks = [f for f in doc.figures if _rate(f) and f.start not in in_rows]
    if len(peaks) != 1 or len(row_rates) < 2 or max(row_rates, key=lambda f: f.value) is not own[0]:
        return None
    peak, best = peaks[0], own[0]
    if peak.value <= best.value:
        return None
    if any(abs(c["outputs"].get("value", 0) - best.value / peak.value) <= 0.005 * best.value / peak.value
           and ((c.get("input_sources") or {}).get("expression") or {}).get("quote") == best.quote for c in doc.calculations):
        return None  # the chip's catalog peak is the one the text states: share_of_peak has said this share already
    index = worked(doc, f"{best.value:g} / {peak.value:g}", f"{best.quote} / {peak.quote}")
    if index is None:
        return None
    share = doc.calculations[index]["outputs"]["value"]
    if not verdicts.possible("mfu", share):
        return None
    return Result([index], None, messages(doc.lang)["verdicts"]["row_peak"].format(
        best=said(doc, best), peak=said(doc, peak), share=f"{100 * share:.1f}%"))
