"""Counts given with their share of a whole the text states once, elsewhere: "of the 419 interruptions ... a faulty GPU
caused 148, accounting for 30.1 percent" is 148 / 419 against 30.1%. The whole is the largest count of that kind the
text gives in another sentence, and a share is judged only when some share of the text agrees with that whole (so the
whole is the one the author divided by)."""

import re

from service.explain.checks.core import Inputs, Result, run
from service.explain.checks.shares import share_tolerance
from service.explain.document import Claim, Document
from service.i18n.messages import messages

_COUNTED = ("n_failures", "n_chips", "n_nodes", "n_ranks")  # things a report counts and breaks down by cause or kind
_PERCENT_WORD = re.compile(r"\s*(?:%|percent|per\s+cent|في\s*المائة|بالمئة|بالمائة)", re.I)
# "4.5 and 4.1 percent": the first number of a pair takes the unit written after the second
_PAIRED_PERCENT = re.compile(r"\s*(?:and|,|و)\s*\d+(?:\.\d+)?\s*(?:%|percent|per\s+cent|في\s*المائة|بالمئة|بالمائة)", re.I)
# "35, or 8.4 percent": a bare number with its share after it counts what the sentence's other counts count
_SHARE_AFTER = re.compile(r",?\s*(?:or|accounting\s+for|making\s+up|[–—-]|أي|بنسبة)\s*\d+(?:\.\d+)?\s*(?:%|percent|per\s+cent|في\s*المائة|بالمئة|بالمائة)", re.I)
MAX_ROWS = 5


def _percent(doc: Document, fig) -> float | None:
    """The share a figure states, in percent, or None."""
    if fig.quantity in ("percent", "fraction") and _PERCENT_WORD.search(fig.quote):
        return fig.value * 100
    if 0 < fig.value < 100 and _PAIRED_PERCENT.match(doc.text, fig.end):
        return float(fig.value)
    return None


def _rows(doc: Document, claim: Claim) -> list[tuple]:
    """(count, percent) in the order the sentence gives them, when it gives as many shares as counts."""
    counts, shares = [], []
    for fig in claim.figures:
        share = _percent(doc, fig)
        if share is not None:
            shares.append((fig, share))
        elif float(fig.value).is_integer() and fig.value >= 1 and (
                fig.quantity in _COUNTED or (fig.quantity == "number" and _SHARE_AFTER.match(doc.text, fig.end))):
            counts.append(fig)
    if not counts or len(counts) != len(shares) or len(counts) > MAX_ROWS:
        return []
    if any(count.start > share[0].start for count, share in zip(counts, shares)) and len(counts) == 1:
        return []  # "30.1 percent ... 148": a share before its count is another reading
    return list(zip(counts, shares))


def share_of_whole(doc: Document, claim: Claim) -> Result | None:
    """Each count / the text's one whole of its kind against the share written beside it."""
    rows = _rows(doc, claim)
    if not rows:
        return None
    kinds = {count.quantity for count, _ in rows} - {"number"}
    if len(kinds) != 1:
        return None  # counts of different things, or bare numbers only
    quantity = kinds.pop()
    largest = max(count.value for count, _ in rows)
    # the whole of a breakdown is the largest count of its kind the text gives elsewhere (the other rows are smaller)
    whole = max((f for f in doc.figures if f.quantity == quantity and not claim.start <= f.start < claim.end),
                key=lambda f: f.value, default=None)
    if whole is None or whole.value <= largest:
        return None
    holds = [_agrees(count.value, whole.value, share) for count, (_, share) in rows]
    if not any(holds) and not _others_agree(doc, claim, whole):
        return None  # no share agrees with this whole anywhere: the author may have divided by another
    words = messages(doc.lang)["verdicts"]
    indices, agree, off = [], [], []
    for count, (fig, share) in rows:
        written = f"{share:g}"
        inputs = Inputs(doc.lang)
        inputs.expression(f"{count.value:g} / {whole.value:g}", f"{count.quote} / {whole.quote}")
        inputs.values["stated_result"] = f"{written}%"
        inputs.sources["stated_result"] = {"source": "text", "quote": fig.quote}
        inputs.values["tolerance"] = share_tolerance(written)
        index = run(doc, "arithmetic", inputs)
        if index is None:
            continue
        indices.append(index)
        out = doc.calculations[index]["outputs"]
        key = "share_consistent" if out.get("consistent") else "share_inconsistent"
        (agree if out.get("consistent") else off).append(words[key].format(
            part=count.quote, total=whole.quote, stated=f"{written}%", computed=f"{100 * out['value']:.1f}%"))
    if not indices:
        return None
    sep = "؛ " if doc.lang == "ar" else "; "
    return Result(indices, "inconsistent" if off else "consistent", sep.join(off + agree))


def _agrees(count: float, whole: float, share: float) -> bool:
    """count / whole within the rounding of the share written (shares.share_tolerance)."""
    return abs(100 * count / whole - share) <= share_tolerance(f"{share:g}") * share


def _others_agree(doc: Document, claim: Claim, whole) -> bool:
    """Whether a share in another sentence of the text agrees with `whole` (evidence that the author divided by it)."""
    for other in doc.claims:
        if other is claim:
            continue
        for count, (_, share) in _rows(doc, other):
            if count.quantity in (whole.quantity, "number") and count.value < whole.value and _agrees(count.value, whole.value, share):
                return True
    return False
