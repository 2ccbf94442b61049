"""The number format a compute-rate figure is in (FP8, BF16, FP64), so that figures in different formats are never
compared as a ratio (data/verdicts.json "unlike_formats")."""

import re

from service.explain.checks import verdicts
from service.explain.checks.memory import number_formats
from service.explain.document import Document
from service.i18n.messages import messages

_PEAKS = {"peak_flop_per_s", "peak_flop_per_s_total"}
_PER_CHIP = {"peak_flop_per_s", "flop_per_s_per_chip"}
_PEAK_FIELDS = (("peak_fp8_flop_per_s", "FP8"), ("peak_bf16_flop_per_s", "BF16"))


def _rule() -> dict:
    return verdicts.table()["unlike_formats"]


def _sentence(doc: Document, fig) -> tuple[int, int]:
    claim = next((c for c in doc.claims if c.start <= fig.start < c.end), None)
    return (claim.start, claim.end) if claim is not None else (0, len(doc.text))


def _nearest(doc: Document, at: int, lo: int, hi: int):
    """The compute-rate figure of the sentence [lo, hi) nearest to a word at `at`, within the table's reach."""
    near = _rule()["near_chars"]
    rates = [f for f in doc.figures if lo <= f.start < hi and verdicts.kind(f.quantity) in ("compute_rate", "compute")]
    best = min(rates, key=lambda f: min(abs(f.start - at), abs(f.end - at)), default=None)
    return best if best is not None and min(abs(best.start - at), abs(best.end - at)) <= near else None


def format_of(doc: Document, fig) -> str | None:
    """The format a compute-rate figure is in: a precision written in its sentence nearer to it than to any other
    rate, an FP64-ranked supercomputer named nearest to it, or the named accelerator's catalog peak the text states."""
    rule, (lo, hi) = _rule(), _sentence(doc, fig)
    sentence = doc.text[lo:hi]
    for pattern, _, name in number_formats():
        if any(_nearest(doc, lo + m.start(), lo, hi) is fig for m in pattern.finditer(sentence)):
            return name.upper()
    systems = rule["fp64_systems"]
    for name in systems["names"]:
        for m in re.finditer(r"(?<!\w)" + re.escape(name) + r"(?!\w)", sentence, re.I):
            if _nearest(doc, lo + m.start(), lo, hi) is fig:
                return systems["format"]
    for chip in doc.chips():
        for field, name in _PEAK_FIELDS:
            peak = chip.get(field)
            if peak and any(f.quantity in _PER_CHIP and abs(f.value - peak) <= 0.005 * peak for f in doc.figures):
                return name  # the text's per-chip peak is this chip's peak in that format, so its totals are too
    return None


def unlike(doc: Document, x, y) -> str | None:
    """Why two compute-rate figures are not like for like (their formats differ), or None when they may be compared."""
    if verdicts.kind(x.quantity) != "compute_rate" or verdicts.kind(y.quantity) != "compute_rate":
        return None
    a, b = format_of(doc, x), format_of(doc, y)
    if a is None or b is None or a.split()[0] == b.split()[0]:
        return None
    if not ({x.quantity, y.quantity} & _PEAKS or "FP64" in (a.split()[0], b.split()[0])):
        return None  # achieved rates in two formats (an FP8 run against a BF16 one) are a real speed-up
    return messages(doc.lang)["verdicts"]["unlike_formats"].format(first=x.quote, first_format=a, second=y.quote, second_format=b)
