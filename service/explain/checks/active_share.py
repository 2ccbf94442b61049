"""A mixture of experts' active parameters as a share of all of them, when the sentence gives both and no share:
"37B are activated for each token" of "671B total parameters" is 5.5%, what makes a MoE cheap per token."""

import re

from service.explain import restate
from service.explain.checks.core import Result, worked
from service.explain.document import Claim, Document
from service.i18n.messages import messages

# a parameter count said to be the active one: "activating 18.6 to 31.3 billion", "37B are activated", "22B active"
_ACTIVE_NEAR = re.compile(r"\bactiv\w*|نشط|مفعل|مفعّل", re.I)
# the whole model's count: "out of 560 billion total", "671B total parameters", "إجمالي"
_TOTAL_NEAR = re.compile(r"\btotal\b|\bout of\b|\bin all\b|\bof which\b|إجمالي|الإجمالي|من أصل|الكلية|الكلي|منها", re.I)
_STATED_SHARE = re.compile(r"\d\s*%|٪|\bpercent\b|في المئة|بالمئة", re.I)


def _active(doc: Document, claim: Claim, total) -> list:
    """The sentence's active parameter counts (both ends of a range), each smaller than the total."""
    out = []
    for fig in claim.figures:
        if fig is total or fig.quantity not in ("params", "active_params") or not 1e8 <= fig.value < total.value:
            continue
        around = doc.text[max(claim.start, fig.start - 24):min(claim.end, fig.end + 24)]
        if fig.quantity == "active_params" or _ACTIVE_NEAR.search(around):
            out.append(fig)
    return out


def active_share(doc: Document, claim: Claim) -> Result | None:
    """Active / total parameters, said as a share (explained): one total, marked as the whole model's, and the active ones."""
    if claim.calculations or _STATED_SHARE.search(claim.quote):
        return None  # a stated share is share_of_total's to judge
    totals = [f for f in claim.figures if f.quantity == "params"
              and _TOTAL_NEAR.search(doc.text[max(claim.start, f.start - 16):min(claim.end, f.end + 24)])]
    if not totals:
        return None
    total = max(totals, key=lambda f: f.value)  # "31.3 billion parameters (out of 560 billion total)": the whole is the largest
    active = sorted({f.value: f for f in _active(doc, claim, total)}.values(), key=lambda f: f.start)
    if not active or len(active) > 3:
        return None
    indexes, shown = [], {}
    for fig in active:
        index = worked(doc, f"{fig.value / 1e9:g}e9 / {total.value / 1e9:g}e9", f"{fig.quote} / {total.quote}")
        if index is None:
            return None
        indexes.append(index)
        shown[id(fig)] = messages(doc.lang)["verdicts"]["active_share_part"].format(
            active=restate.value("params", fig.value), share=f"{doc.calculations[index]['outputs']['value']:.1%}")
    words = messages(doc.lang)["verdicts"]
    low = next((f for f in active if f.role == "low"), None)
    high = next((f for f in active if f.role == "high"), None)
    parts = []
    if low is not None and high is not None:  # "activating 18.6 to 31.3 billion": one range, said as one
        parts.append(words["active_share_range"].format(low=shown.pop(id(low)), high=shown.pop(id(high))))
    parts += [shown[id(f)] for f in active if id(f) in shown]
    return Result(indexes, None, words["active_share"].format(parts=words["active_share_join"].join(parts),
                                                               total=restate.value("params", total.value)))
