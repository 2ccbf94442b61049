"""A table column that is, in every row, the ratio or the difference of two other columns ("ratio" = measured ms/step /
roofline ms/step: 7.01 / 4.40 = 1.59; "non-bandwidth ms/step" = 7.01 - 4.40 = 2.61): said once, on the first row, as
the table's own arithmetic agreeing. Every row must agree to the column's last written digit; two rows at least, so
numbers that happen to fit one row are no finding. Only agreement is said."""

import re

from service.explain.checks.core import Result, worked
from service.explain.checks.table_rows import _cells, _lines
from service.explain.document import Claim, Document
from service.i18n.messages import messages

_NUMBER = re.compile(r"^[~≈]?\s*(-?\d[\d,\s]*(?:\.\d+)?)\s*(?:[×x%]|[a-zA-Z/]{1,12})?\s*[↑↓]?\s*$")  # "1.8× ↑": a speed-up marked up
_UNIT = re.compile(r"\(([^()]+)\)\s*$")  # "TileOPs (ms)": a column's unit in brackets after its name
_COARSE = 0.1  # a written value whose last digit is worth more than a tenth of it ("0.01") fits too much by chance
_OPERATIONS = (("/", lambda a, b: a / b if b else None), ("-", lambda a, b: a - b))
MIN_ROWS = 2


def _number(cell: str) -> tuple[float, int] | None:
    """A cell's number and its decimals ("1.59×" -> (1.59, 2), "3 770" -> (3770, 0)), or None."""
    m = _NUMBER.match(cell.strip())
    if not m:
        return None
    digits = re.sub(r"[,\s]", "", m.group(1))
    try:
        value = float(digits)
    except ValueError:
        return None
    return value, len(digits.split(".")[1]) if "." in digits else 0


def _table(doc: Document, at: int) -> tuple[list[str], list[list], int] | None:
    """The header's names, the rows' numbers per column (None where a cell holds no one number), and which row holds `at`."""
    block, here = _lines(doc.text, at)
    if not block:
        return None
    lines = [line for line in block if not re.fullmatch(r"[\s|:-]+", line[1])]
    header = [c[2] for c in _cells(*lines[0])]
    if any(_number(name) for name in header if name):
        return None  # no header of names: which column is which is unsure
    rows = [[_number(c[2]) for c in _cells(*line)] for line in lines[1:]]
    if len(rows) < MIN_ROWS or any(len(r) != len(header) for r in rows):
        return None
    starts = [line[0] for line in lines[1:]]
    row = max((k for k, s in enumerate(starts) if s <= at), default=-1)
    units = [re.sub(r"[\d.,\s~≈↑↓+-]", "", c[2]).lower() for c in _cells(*lines[1])]  # "140 GB" -> "gb", "70B" -> "b"
    return header, rows, row, units


def _relations(header: list[str], rows: list[list], units: list[str]) -> list[tuple[int, int, str, int]]:
    """(a, b, operation, column) for each column that is a op b in every row, to its last written digit."""
    found = []
    columns = range(len(header))
    for target in columns:
        if any(r[target] is None for r in rows) or len({r[target][0] for r in rows}) < 2 \
                or any(0.6 * 10 ** -r[target][1] > _COARSE * abs(r[target][0]) for r in rows):
            continue  # a column of one value, or of values rounded to their first digit ("0.01 ms"), fits too much by chance
        for a in columns:
            for b in columns:
                if len({a, b, target}) < 3 or any(r[a] is None or r[b] is None for r in rows):
                    continue
                for name, operation in _OPERATIONS:
                    if not _units_agree(header, a, b, target, name) or not _cells_agree(units, a, b, target, name):
                        continue  # "vLLM (ms)" / "vLLM (TB/s)" is no time; "140 GB" - "70B" is no "70 GB" (round 88 P17)
                    if all(_fits(operation(r[a][0], r[b][0]), r[target]) for r in rows):
                        found.append((a, b, name, target))
                        break
    return found


def _cells_agree(units: list[str], a: int, b: int, target: int, name: str) -> bool:
    """Whether the units the cells themselves carry allow the operation: a difference of one unit ("140 GB" - "70 GB"),
    never of bytes and a parameter count ("140 GB" - "70B"); a ratio of one unit, or a unit over a bare count."""
    ua, ub, ut = (units[k] if k < len(units) else "" for k in (a, b, target))
    if name == "-":
        return ua == ub == ut
    return ua == ub and ut in ("", "x", "×", "%") or ut == ua and not ub


def _units_agree(header: list[str], a: int, b: int, target: int, name: str) -> bool:
    """Whether the columns' units (in brackets after their names) allow the operation: a difference of one unit, a
    ratio of one unit (a unitless factor), or a quantity of one unit over a count; columns with no unit pass."""
    unit = lambda k: (m.group(1).strip().lower() if (m := _UNIT.search(header[k])) else None)  # noqa: E731
    ua, ub, ut = unit(a), unit(b), unit(target)
    if name == "-":
        return len({u for u in (ua, ub, ut) if u}) <= 1
    if ut is None or ut in ("x", "×", "%"):
        return ua == ub  # a speed-up "vs vLLM" is TB/s over TB/s
    return ut == ua and ub is None


def _fits(value: float | None, written: tuple[float, int]) -> bool:
    """Whether a computed value rounds to the written one (to its last digit, a little slack for the operands' own rounding)."""
    return value is not None and abs(value - written[0]) <= 0.6 * 10 ** -written[1] + 1e-9 + 0.002 * abs(written[0])


def column_relation(doc: Document, claim: Claim) -> Result | None:
    """On a table's first row: each column the others give, by ratio or difference, in every row."""
    table = _table(doc, claim.start)
    if table is None:
        return None
    header, rows, row, units = table
    if row != 0:
        return None  # said once, on the first row
    relations, used = [], set()
    for a, b, name, target in sorted(_relations(header, rows, units), key=lambda r: -r[3]):
        if frozenset((a, b, target, name)) not in used:  # "a - b = t" and "a - t = b" are one relation: the derived column is
            used.add(frozenset((a, b, target, name)))     # the rightmost, as tables put it
            relations.append((a, b, name, target))
    relations.sort(key=lambda r: r[3])
    if not relations or any(not header[k] for a, b, _, t in relations for k in (a, b, t)):
        return None
    m = messages(doc.lang)["verdicts"]
    block, _ = _lines(doc.text, claim.start)
    first = [c[2] for c in _cells(*[line for line in block if not re.fullmatch(r"[\s|:-]+", line[1])][1])]
    indexes, parts = [], []
    for a, b, name, target in relations[:3]:
        expression = f"{rows[0][a][0]:g} {name} {rows[0][b][0]:g}"
        index = worked(doc, expression, f"{first[a]} {name} {first[b]}")
        if index is None:
            continue
        indexes.append(index)
        parts.append(m["column_relation_part"].format(target=header[target], a=header[a], b=header[b],
                                                      op="÷" if name == "/" and doc.lang == "ar" else name,
                                                      example=f"{first[a]} {name} {first[b]} = {first[target]}"))
    if not parts:
        return None
    return Result(indexes, "consistent", m["column_relation"].format(rows=len(rows), parts=m["active_share_join"].join(parts)))
