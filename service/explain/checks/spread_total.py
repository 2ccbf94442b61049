"""A memory total the text says is spread over a number of chips ("6 TB of GPU memory, distributed over a group of
256 GPUs"): each chip's share worked out and said as a reading. The text states no share to check it against (a
per-GPU figure in another sentence may count other things), so no verdict is given."""

import re

from service.explain import restate
from service.explain.checks import verdicts
from service.explain.checks.core import Result, said, worked
from service.explain.document import Claim, Document
from service.i18n.messages import messages

# between the total and the chip count: a verb of spreading with its preposition, nothing that ends a clause
_SPREAD = re.compile(r"\b(?:distributed|spread|sharded|split|divided|partitioned)\s+(?:evenly\s+)?(?:over|across|among|between)\b"
                     r"|(?:موزع|موزعة|توزع|تتوزع|مقسم|مقسمة|تقسم)\s+(?:بالتساوي\s+)?(?:على|بين)", re.I)
_NEAR = 90  # characters from the total to the count, within one phrase


def spread_total(doc: Document, claim: Claim) -> Result | None:
    """Total memory / the chips it is spread over: each chip's share, said without a verdict."""
    if claim.calculations:
        return None
    for total in claim.figures:
        if verdicts.kind(total.quantity) != "memory" or not total.value:
            continue
        for count in claim.figures:
            if count.quantity != "n_chips" or count.start <= total.end or count.start - total.end > _NEAR or count.value < 2:
                continue
            between = doc.text[total.end:count.start]
            if re.search(r"[.;:!?؛]", between) or not _SPREAD.search(between) \
                    or any(total.end <= f.start < count.start for f in claim.figures if f is not count):
                continue
            index = worked(doc, f"{total.value:g} / {count.value:g}", f"{total.quote} / {count.quote}", "bytes")
            if index is None:
                return None
            share = restate.value(total.quantity, total.value / count.value)
            return Result([index], None, messages(doc.lang)["verdicts"]["spread_total"].format(
                total=said(doc, total), count=said(doc, count), share=share))
    return None
