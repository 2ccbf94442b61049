"""A factor a sentence states between two named rows of a table above it ("A runs 1.8x faster than B" under the rows
"A | 8.90 s | ..." and "B | 16.38 s | ..."): the rows' first like column redone (16.38 / 8.90 = 1.84x)."""

import re

from service.explain.checks import verdicts
from service.explain.checks.arithmetic import tolerance_of
from service.explain.checks.core import Inputs, Result, run, said
from service.explain.document import Claim, Document
from service.i18n.messages import messages

_ROWS_UP = 12  # rows farther up than this belong to another table
_FACTORS = ("speedup", "ratio")
_SPEED_KINDS = ("time", "throughput", "compute_rate", "bandwidth")
_CELL_END = re.compile(r"^\s*(?:\||:|\t| {2,})")  # what ends a row's label cell: a column bar, a colon, a tab, a gap
_LABEL = re.compile(r"^[A-Za-z\u0600-\u06FF][\w.+\-/ ]{0,30}$")
# the comparison the factor makes, read right after it: "faster"/"higher" (the subject is the better), "slower"/"lower"
_UP = re.compile(r"^\s*(?:faster|quicker|higher|more|greater|better|أسرع|أعلى|أكثر|أفضل)\b", re.I)
_DOWN = re.compile(r"^\s*(?:slower|lower|less|fewer|smaller|worse|أبطأ|أقل|أدنى)\b", re.I)
_THAN = re.compile(r"\b(?:than|over|vs\.?|versus|compared (?:to|with)|relative to)\b|من|مقارنة", re.I)


def row_label(claim: Claim) -> str | None:
    """The row's name: the words before its first figure, when a cell separator ends them ("Ring | 16.38 s")."""
    if not claim.figures:
        return None
    head = claim.quote[:claim.figures[0].start - claim.start]
    m = re.match(r"^\s*\|?\s*(.*?)\s*(?:\||:|\t| {2,})[\s|:]*$", head)
    if m is None or not _LABEL.match(m.group(1)) or len(m.group(1).split()) > 4:
        return None
    return m.group(1).strip()


def _rows_above(doc: Document, index: int) -> dict[str, Claim]:
    """The named rows among the claims above, by lower-cased name; a name given to two rows is no one row's."""
    rows: dict[str, Claim] = {}
    seen: set[str] = set()
    for earlier in doc.claims[max(0, index - _ROWS_UP):index]:
        name = row_label(earlier)
        if name is None:
            continue
        key = name.lower()
        if key in seen:
            rows.pop(key, None)
            continue
        seen.add(key)
        rows[key] = earlier
    return rows


def _named(claim: Claim, rows: dict[str, Claim]) -> list[tuple[int, str]]:
    """(offset, name) of each row named in the sentence, a name inside a longer one ("CuDNN" in "CuDNN varlen") left out."""
    found = []
    for key in rows:
        for m in re.finditer(r"(?<![\w-])" + re.escape(key) + r"(?![\w-])", claim.quote, re.I):
            found.append((m.start(), m.end(), key))
    kept = [f for f in found if not any(o != f and o[0] <= f[0] and f[1] <= o[1] for o in found)]
    return sorted((start, key) for start, _, key in kept)


def named_rows(doc: Document, claim: Claim) -> Result | None:
    """The one factor the sentence states, from its subject row (named first, before the factor) to the row named right
    after it, on the first column both rows give as a time or a rate; a reading that goes the other way is not judged."""
    stated = [f for f in claim.figures if f.quantity in _FACTORS and f.value > 0]
    if len(stated) != 1 or any(verdicts.kind(f.quantity) in _SPEED_KINDS for f in claim.figures):
        return None
    factor = stated[0]
    index = doc.claims.index(claim) if claim in doc.claims else -1
    rows = _rows_above(doc, index) if index > 0 else {}
    if len(rows) < 2:
        return None
    at = factor.start - claim.start
    names = _named(claim, rows)
    before = [key for start, key in names if start < at]
    after = [key for start, key in names if start > at]
    tail = doc.text[factor.end:]
    up, down = _UP.match(tail), _DOWN.match(tail)
    if not before or not after or before[0] == after[0] or not (up or down):
        return None
    if not _THAN.search(claim.quote[factor.end - claim.start:[s for s, k in names if k == after[0]][0]]):
        return None  # the row after the factor is not what it is measured against
    a, b = rows[before[0]], rows[after[0]]
    for fa in a.figures:
        kind = verdicts.kind(fa.quantity)
        fb = next((f for f in b.figures if f.quantity == fa.quantity), None)
        if kind not in _SPEED_KINDS or fb is None or fa.value <= 0 or fb.value <= 0:
            continue
        better_is_smaller = kind == "time"
        a_better = fa.value < fb.value if better_is_smaller else fa.value > fb.value
        if a_better != bool(up):
            return None  # "A is 1.8x faster" where A's figure is the worse: another column or another reading
        big, small = (fa, fb) if fa.value > fb.value else (fb, fa)
        inputs = Inputs(doc.lang)
        inputs.text("before", small)
        inputs.text("after", big)
        inputs.stated("stated_change", f"{factor.value:g}x", factor.quote, tolerance_of(factor.quote, factor.value, factor.approx))
        ran = run(doc, "ratio", inputs)
        if ran is None:
            return None
        out = doc.calculations[ran]["outputs"]
        verdict = "consistent" if out["consistent"] else "inconsistent"
        name_of = {id(a): row_label(a), id(b): row_label(b)}
        return Result([ran], verdict, messages(doc.lang)["verdicts"][f"rows_factor_{verdict}"].format(
            big=name_of[id(a) if big is fa else id(b)], x=said(doc, big), small=name_of[id(b) if big is fa else id(a)],
            y=said(doc, small), computed=f"{out['factor']:.2f}".rstrip("0").rstrip("."), stated=said(doc, factor)))
    return None
