"""A comparison said in words about a table's columns ("The throughput of W4A8_AWQ is lower than that of FP16 and much
lower than that of FP8" under "| Model | FP8 | W4A8_AWQ | FP16 |" and "| llama-2-7b | 18758 | 10146 | 11116 |"): each
named pair of columns read on every row of the table, its ratio worked out, and the direction set against the words."""

import re

from service.explain.checks.core import Result, worked
from service.explain.document import Claim, Document
from service.i18n.messages import join_names, messages

# magnitude words only: "slower" or "better" turn on whether the column is a time or a rate, which a header rarely says
_COMPARATIVE = re.compile(r"\b(?P<dir>lower|higher|less|more|smaller|larger|greater|bigger)\s+than\s+(?:that\s+of\s+|those\s+of\s+|the\s+)?", re.I)
_BELOW = ("lower", "less", "smaller")
_NUMBER = re.compile(r"^[~≈]?\s*\d[\d,]*(?:\.\d+)?$")
MAX_ROWS = 8  # a longer table is read row by row by the row checkers; a sentence about it names rows as well as columns


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")] if line.count("|") >= 2 else []


def _table(doc: Document) -> tuple[list[str], list[list[str]]] | None:
    """The text's one table: its header (cells without digits... but a name may hold one, "FP8") and its data rows."""
    lines = doc.text.split("\n")
    rows = [(i, _cells(line)) for i, line in enumerate(lines) if _cells(line)]
    rows = [(i, r) for i, r in rows if not all(re.fullmatch(r":?-{2,}:?", c) for c in r if c)]  # the "|---|" rule
    if len(rows) < 2 or any(b - a > 2 for (a, _), (b, _) in zip(rows, rows[1:])):
        return None  # no table, or two tables
    header, data = rows[0][1], [r for _, r in rows[1:]]
    if any(_NUMBER.match(c) for c in header) or len(data) > MAX_ROWS or any(len(r) != len(header) for r in data):
        return None
    return header, data


def _value(cell: str) -> float | None:
    return float(cell.lstrip("~≈ ").replace(",", "")) if _NUMBER.match(cell) else None


def _named(sentence: str, header: list[str]) -> list[tuple[int, int]]:
    """(position, column) of each header cell the sentence names, word-bounded, in order."""
    found = []
    for column, name in enumerate(header):
        if len(name) < 2:
            continue
        for m in re.finditer(rf"(?<![\w-]){re.escape(name)}(?![\w-])", sentence, re.I):
            found.append((m.start(), column))
    return sorted(found)


def table_words(doc: Document, claim: Claim) -> Result | None:
    """Each "A is lower than B" the sentence says of two numeric columns, read on every row of the table."""
    if claim.calculations or claim.figures:
        return None
    table = _table(doc)
    if table is None:
        return None
    header, data = table
    named = _named(claim.quote, header)
    pairs, subject = [], None
    for m in _COMPARATIVE.finditer(claim.quote):
        before = [c for p, c in named if p < m.start()]
        after = [c for p, c in named if p == m.end()]
        subject = before[0] if before else subject  # "A is lower than B and much lower than C": A both times
        if subject is None or not after or after[0] == subject:
            return None  # a comparison whose two sides are not both columns: not this check's
        pairs.append((subject, after[0], m["dir"].lower()))
    if not pairs:
        return None
    words = messages(doc.lang)["verdicts"]
    calculations, said, agree = [], [], True
    for a, b, direction in pairs:
        for row in data:
            x, y = _value(row[a]), _value(row[b])
            if x is None or y is None or y == 0:
                return None
            index = worked(doc, f"{x:g} / {y:g}", f"{header[a]} {row[a]} / {header[b]} {row[b]}")
            if index is None:
                return None
            calculations.append(index)
            holds = x < y if direction in _BELOW else x > y
            agree = agree and holds
            said.append(words["table_words_pair"].format(
                a=header[a], x=row[a], b=header[b], y=row[b], ratio=f"{x / y:.2f}".rstrip("0").rstrip(".") + "x"))
    # a direction the table does not bear out is said, not judged: which column a name means may be misread
    return Result(calculations, "consistent" if agree else None,
                  words["table_words" if agree else "table_words_not"].format(pairs=join_names(said, doc.lang)))
