"""A change a sentence states for a model size ("~48% faster for 33B model") against the table the text gives under a
heading with that size ("33B model  master  this PR" over "prompt 1  117ms/tok  79ms/tok"): each row's two figures of
one kind redone, the larger over the smaller (117 / 79 = 1.48, 48% faster). Which column is the old one is not assumed,
and a sentence is paired with a table by its size only, so a gap is said with the rows' own changes, never judged."""

import re

from service.explain.checks import verdicts
from service.explain.checks.core import Result, said, worked
from service.explain.document import Claim, Document
from service.i18n.messages import messages

_DIRECTION = re.compile(r"\s*(?:faster|quicker|slower|higher|lower|more|less|better|worse|أسرع|أبطأ|أعلى|أقل)\b", re.I)
_KINDS = ("time", "throughput", "bandwidth")
_ROWS = 8  # lines read under a heading: a longer run is another table
_SIZES = ("params", "active_params")


def _stated(doc: Document, claim: Claim) -> list[tuple]:
    """(stated change, model size) for each "N% faster ... for <size>" of the sentence, the size the next one after
    the change and before the next change."""
    changes = [f for f in claim.figures if f.quantity == "percent_change" and f.value > 0
               and _DIRECTION.match(doc.text, f.end)]
    out = []
    for k, change in enumerate(changes):
        stop = changes[k + 1].start if k + 1 < len(changes) else claim.end
        size = next((f for f in claim.figures if f.quantity in _SIZES and change.end < f.start < stop), None)
        if size is not None:
            out.append((change, size))
    return out


def _lines(text: str) -> list[tuple[int, int]]:
    spans, at = [], 0
    for line in text.split("\n"):
        spans.append((at, at + len(line)))
        at += len(line) + 1
    return spans


def _table_rows(doc: Document, claim: Claim, size) -> list[tuple]:
    """The rows under the one heading line (outside the sentence) naming the same size: (first, second) figures of one
    kind per row; [] when no heading, or several, name it."""
    lines = _lines(doc.text)
    sized = [f for f in doc.figures if f.quantity in _SIZES and f.value == size.value and not claim.start <= f.start < claim.end]
    headings = [k for k, (a, b) in enumerate(lines) if any(a <= f.start < b for f in sized)]
    if len(headings) != 1:
        return []
    rows = []
    for a, b in lines[headings[0] + 1:headings[0] + 1 + _ROWS]:
        figures = [f for f in doc.figures if a <= f.start < b]
        if not doc.text[a:b].strip() or any(f.quantity in _SIZES for f in figures):
            break  # a blank line or the next heading ends the table
        for kind in _KINDS:
            same = [f for f in figures if verdicts.kind(f.quantity) == kind and f.value > 0]
            if len(same) == 2:
                rows.append((same[0], same[1], doc.text[a:same[0].start].strip(" |:\t") or "", kind))
    return rows


def sized_rows(doc: Document, claim: Claim) -> Result | None:
    """Each stated change for a size against its table's rows: consistent when every row of the kind the change speaks
    of gives it within the measurement tolerance; otherwise the rows' changes are said."""
    words = messages(doc.lang)["verdicts"]
    indices, parts, agree = [], [], []
    tolerance = verdicts.table()["tolerances"]["measurement"]
    for change, size in _stated(doc, claim):
        rows = _table_rows(doc, claim, size)
        timed = [r for r in rows if r[3] == "time"]
        rows = timed or rows  # "faster" of token generation is first its time per token
        if not rows:
            continue
        said_rows = []
        for first, second, label, _ in rows:
            big, small = (first, second) if first.value >= second.value else (second, first)
            index = worked(doc, f"{big.value:g} / {small.value:g}", f"{said(doc, big)} / {said(doc, small)}")
            if index is None:
                return None
            indices.append(index)
            gap = doc.calculations[index]["outputs"]["value"] - 1
            share = tolerance["share"] * (tolerance["approx_factor"] if change.approx else 1)
            agree.append(abs(gap - change.value) <= share * change.value + tolerance["fraction_slack"])
            said_rows.append(words["sized_row"].format(label=label or said(doc, size), big=said(doc, big),
                                                       small=said(doc, small), factor=f"{gap + 1:.2f}",
                                                       gap=f"{gap * 100:.0f}%"))
        parts.append(words["sized_rows"].format(size=said(doc, size), rows="; ".join(said_rows), stated=said(doc, change)))
    if not parts:
        return None
    return Result(indices, "consistent" if all(agree) else None, "; ".join(parts))
