"""A markdown table's rows against its first ("| vLLM only | 14.68 reqs/sec | ... |" over "| vLLM + CPU (500GB) |
13.13 reqs/sec | ... |" under "| | Request processing rate | ... |"): each column that holds one figure in both rows,
new / first - 1, said in words under the header's name (13.13 / 14.68 - 1 = -10.6%); never judged (which way is better
is the text's to say)."""


from service.explain.checks.core import Result, worked_pair
from service.explain.claim_names import SEPARATOR
from service.explain.document import Claim, Document
from service.i18n.messages import messages

MOST_COLUMNS = 6  # a row of more columns is a table the answer cannot say in one sentence
MOST_ROWS = 4  # rows past the first, each said against it


def _lines(text: str, at: int) -> tuple[list[tuple[int, str]], int]:
    """The block of table lines (start, line) around offset `at`, and the index of the line holding it."""
    lines, offset = [], 0
    for line in text.split("\n"):
        lines.append((offset, line))
        offset += len(line) + 1
    here = max(k for k, (start, _) in enumerate(lines) if start <= at)
    is_row = lambda k: lines[k][1].count("|") >= 2  # noqa: E731
    if not is_row(here):
        return [], -1
    first = last = here
    while first > 0 and is_row(first - 1):
        first -= 1
    while last + 1 < len(lines) and is_row(last + 1):
        last += 1
    return lines[first:last + 1], here - first


def _cells(start: int, line: str) -> list[tuple[int, int, str]]:
    """(start, end, text) of each cell of a table line, the outer bars dropped."""
    out, pos = [], start
    for piece in line.split("|"):
        out.append((pos, pos + len(piece), piece.strip()))
        pos += len(piece) + 1
    if line.strip().startswith("|"):
        out = out[1:]
    if line.strip().endswith("|"):
        out = out[:-1]
    return out


def _figure(doc: Document, cell: tuple[int, int, str]):
    """The one figure a cell holds, or None (none, or several)."""
    inside = [f for f in doc.figures if cell[0] <= f.start < cell[1]]
    return inside[0] if len(inside) == 1 else None


def table_rows(doc: Document, claim: Claim) -> Result | None:
    """A row of a markdown table (a header, a separator line, two to five rows) against the table's first row."""
    if claim.calculations:
        return None
    block, here = _lines(doc.text, claim.start)
    separators = [k for k, (_, line) in enumerate(block) if SEPARATOR.match(line)]
    if len(separators) != 1 or separators[0] != 1:
        return None  # a header right above one separator line: otherwise which name goes with which column is unsure
    header, rows = _cells(*block[0]), [_cells(*line) for line in block[2:]]
    if here < 3 or not 2 <= len(rows) <= MOST_ROWS + 1 or any(len(r) != len(header) for r in rows) \
            or not 2 <= len(header) <= MOST_COLUMNS + 1:
        return None  # the first row is what the others are said against; each row has the header's columns
    base, row = rows[0], rows[here - 2]
    m = messages(doc.lang)["verdicts"]
    indexes, parts = [], []
    for column in range(1, len(header)):
        name, old, new = header[column][2], _figure(doc, base[column]), _figure(doc, row[column])
        if not name or old is None or new is None or old.value <= 0 or old.quantity != new.quantity:
            continue
        index = worked_pair(doc, "{b} / {s} - 1", new, old, f"{new.quote} / {old.quote} - 1")
        if index is None:
            continue
        indexes.append(index)
        change = doc.calculations[index]["outputs"]["value"]
        parts.append(m["baseline_rows_part"].format(name=name, old=base[column][2], new=row[column][2],
                                                    change=f"{change:+.1%}".replace("-", "−")))
    if not parts or not base[0][2]:
        return None
    return Result(indexes, None, m["baseline_rows"].format(baseline=base[0][2], parts=m["active_share_join"].join(parts)))
