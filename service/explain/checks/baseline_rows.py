"""Result rows of the same fields, one of them the baseline ("with EP: "ttft_avg_ms":5156.38 ..." over "without EP:
"ttft_avg_ms":8072.94 ..."): each other row's field against the baseline's, as the change a reader wants said
(5156.38 / 8072.94 - 1 = -36.1%); said in words, never judged (which way is better is the text's to say)."""

import re

from service.explain.checks.core import Result, worked
from service.explain.document import Claim, Document
from service.i18n.messages import messages

# the row a benchmark is measured against: "without EP", "w/o", "baseline", "before", "no overlap", Arabic "بدون"
_BASELINE = re.compile(r"\bw/o\b|\bwithout\b|\bbaseline\b|\bbefore\b|\bno[ -][A-Za-z]\w*|بدون|(?<![\u0621-\u064A])دون\b|قبل", re.I)
_NAME = re.compile(r"[\"'`]?([A-Za-z][\w.\-/]*)[\"'`]?\s*[:=]\s*$")  # the field a value is set to ('"ttft_avg_ms":')
MOST_FIELDS = 6  # a row of more fields is a table the answer cannot say in one sentence


def _label(doc: Document, claim: Claim) -> str:
    """What a row says before its first figure and that figure's field name ("with EP:", "- without EP:")."""
    before = doc.text[claim.start:claim.figures[0].start] if claim.figures else ""
    return before[:_NAME.search(before).start()] if _NAME.search(before) else before


def _written(fig) -> str:
    """The number as the text writes it ("5156.38", "1,024" -> "1024"), or its value when the quote holds no one number."""
    numbers = re.findall(r"\d+(?:,\d{3})*(?:\.\d+)?", fig.quote)
    return numbers[0].replace(",", "") if len(numbers) == 1 else f"{fig.value:g}"


def _rows(doc: Document, index: int) -> list[Claim]:
    """The claims next to each other, one per line, that state the same fields in the same order."""
    shape = [f.quantity for f in doc.claims[index].figures]
    first = last = index
    while first > 0 and [f.quantity for f in doc.claims[first - 1].figures] == shape:
        first -= 1
    while last + 1 < len(doc.claims) and [f.quantity for f in doc.claims[last + 1].figures] == shape:
        last += 1
    rows = doc.claims[first:last + 1]
    lines_apart = [doc.text[a.end:b.start] for a, b in zip(rows, rows[1:])]
    return rows if all("\n" in gap for gap in lines_apart) else []


def _field(doc: Document, row: Claim, i: int) -> str:
    """The name a row gives its i-th value ("ttft_avg_ms"), or "" when the value has no name of its own."""
    lo = row.figures[i - 1].end if i else row.start
    found = _NAME.search(doc.text[lo:row.figures[i].start])
    return found.group(1) if found else ""


def baseline_rows(doc: Document, claim: Claim) -> Result | None:
    """A row against the one row its table marks as the baseline: every field's change, said in words."""
    if claim not in doc.claims or not 2 <= len(claim.figures) <= MOST_FIELDS or claim.calculations:
        return None
    rows = _rows(doc, doc.claims.index(claim))
    marked = [r for r in rows if _BASELINE.search(_label(doc, r))]
    if len(rows) < 2 or len(marked) != 1 or claim is marked[0] or _BASELINE.search(_label(doc, claim)):
        return None
    base = marked[0]
    names = [_field(doc, claim, i) for i in range(len(claim.figures))]
    if names != [_field(doc, base, i) for i in range(len(base.figures))] or not all(names):
        return None  # the same fields, each named the same in both rows: otherwise which value goes with which is unsure
    m = messages(doc.lang)["verdicts"]
    indexes, parts = [], []
    for name, new, old in zip(names, claim.figures, base.figures):
        if old.value <= 0:
            return None
        same_scale = abs(new.value / old.value - float(_written(new)) / float(_written(old))) < 1e-9 * new.value / old.value
        a, b = (_written(new), _written(old)) if same_scale else (f"{new.value:g}", f"{old.value:g}")
        index = worked(doc, f"{a} / {b} - 1", f"{new.quote} / {old.quote} - 1")
        if index is None:
            return None
        indexes.append(index)
        change = doc.calculations[index]["outputs"]["value"]
        parts.append(m["baseline_rows_part"].format(name=name, old=old.quote.strip(), new=new.quote.strip(),
                                                    change=f"{change:+.1%}".replace("-", "−")))
    row_name = _label(doc, base).strip(" \t-*:•")
    return Result(indexes, None, m["baseline_rows"].format(baseline=row_name, parts=m["active_share_join"].join(parts)))
