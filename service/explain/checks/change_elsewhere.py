"""A change a sentence states both as an amount and as a share ("SP reduced step time by about 91 ms ..., roughly an
8.9% step-time reduction") against the one pair of like figures elsewhere in the text that gives both (a table's
"936.071 ms" and "1027.152 ms": 91.08 ms, 8.87% of the larger). Only agreement is said: two figures of the text that
happen to differ by the amount are no finding unless the share agrees too, and only one pair may."""

import re

from service.explain import pattern_cache
from service.explain.checks import verdicts
from service.explain.checks.core import Result, as_written, worked
from service.explain.checks.difference import decimals
from service.explain.document import Claim, Document
from service.i18n.messages import messages

_KINDS = ("memory", "time", "throughput", "bandwidth", "compute_rate")
# the change verb, then "by" and an approximation word right before the amount
_BY = pattern_cache.lazy(r"\b(?:reduc|cut|lower|sav|shrank|shrink|drop|decreas|fell|fall|improv|increas|rais|grew|grow|gain|sped|speed|boost)"
                         r"\w*\s+(?:[\w-]+\s+){0,3}?by\s+(?P<approx>about\s+|around\s+|roughly\s+|~\s*|≈\s*)?$"
                         # "returns 8.5 GB (-12.4%)", "frees ~2 GB": a verb of giving back or costing right before the amount
                         r"|\b(?:returns?|returned|frees?|freed|saves?|saved|reclaims?|reclaimed|costs?)\s+(?P<approx2>about\s+|around\s+|roughly\s+|~\s*|≈\s*)?$", re.I)
_APPROX = pattern_cache.lazy(r"(?:about|around|roughly|approximately|~|≈)\s*$", re.I)
_SHARE_QUANTITIES = ("percent", "percent_change", "fraction")


def _scale(fig) -> float:
    """The factor from the number as written to the figure's value ("91 ms" -> 0.001); 1 for a number spelled in words."""
    written = re.search(r"\d+(?:\.\d+)?", fig.quote.replace(",", ""))
    return abs(fig.value) / float(written.group()) if written and float(written.group()) else 1.0


def _tolerance(fig, approx: bool) -> float:
    """How far a written figure may be from the exact value: its last digit's rounding, or 5% when said to be approximate."""
    step = 10 ** -decimals(fig.quote) * _scale(fig)
    return max(1.5 * step / 2 + 0.005 * abs(fig.value), 0.05 * abs(fig.value) if approx else 0.0)


def change_elsewhere(doc: Document, claim: Claim) -> Result | None:
    """The amount and the share a sentence states for one change, against the one pair of like figures elsewhere."""
    if claim.calculations:
        return None
    amounts = [f for f in claim.figures if verdicts.kind(f.quantity) in _KINDS and f.value > 0
               and _BY.search(doc.text[max(claim.start, f.start - 60):f.start])]
    shares = [f for f in claim.figures if f.quantity in _SHARE_QUANTITIES and 0 < abs(f.value) < 1]
    if len(amounts) == 1 and len(shares) > 1:  # "costs 18% throughput and returns 8.5 GB (-12.4%)": the amount's own share
        shares = [f for f in shares if re.fullmatch(r"\s*\(\s*[-−+]?\s*", doc.text[amounts[0].end:f.start])]
    if len(amounts) != 1 or len(shares) != 1:
        return None
    amount, share = amounts[0], shares[0]
    said = _BY.search(doc.text[max(claim.start, amount.start - 60):amount.start])
    approx = bool(said.group("approx") or said.group("approx2"))
    share_approx = bool(_APPROX.search(doc.text[max(claim.start, share.start - 16):share.start])) or approx
    kind = verdicts.kind(amount.quantity)
    others = [f for f in doc.figures if not (claim.start <= f.start < claim.end) and verdicts.kind(f.quantity) == kind and f.value > 0]
    found = set()
    for i, a in enumerate(others):
        for b in others[i + 1:]:
            big, small = (a, b) if a.value >= b.value else (b, a)
            difference = big.value - small.value
            if difference <= 0 or abs(difference - amount.value) > _tolerance(amount, approx):
                continue
            for base in (big, small):  # a reduction is a share of the larger, an increase of the smaller
                if abs(difference / base.value - abs(share.value)) <= _tolerance(share, share_approx) / abs(share.value) * abs(share.value):
                    found.add((big.value, small.value, base.value, big, small, base))
    if len({key[:3] for key in found}) != 1:
        return None  # none, or several pairs: which figures the change is between is uncertain
    _, _, _, big, small, base = next(iter(found))
    index = worked(doc, f"({as_written(big)} - {as_written(small)}) / {as_written(base)}", f"({big.quote} - {small.quote}) / {base.quote}")
    if index is None:
        return None
    digits = max(decimals(big.quote), decimals(small.quote))
    unit = re.sub(r"^[\d.,\s~]+", "", big.quote).strip()
    difference = (big.value - small.value) / _scale(big)
    return Result([index], "consistent", messages(doc.lang)["verdicts"]["change_elsewhere"].format(
        big=big.quote, small=small.quote, difference=f"{difference:,.{digits}f} {unit}".strip(),
        share=f"{(big.value - small.value) / base.value:.2%}", base=base.quote, amount=amount.quote, stated_share=share.quote))
