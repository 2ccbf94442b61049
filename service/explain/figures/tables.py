"""Markdown tables: a bare number in a cell measures what its column's header says ("| TP | GBS | Tokens/sec/GPU |")."""

import re

_ROW = re.compile(r"(?m)^[ \t]*\|.*\|[ \t]*$")
_RULE = re.compile(r"^[ \t]*\|(?:[ \t]*:?-{2,}:?[ \t]*\|)+[ \t]*$")
_HEADER_CLEAN = re.compile(r"^[#№]\s*|\s*\((?:#|count|num)\)$", re.IGNORECASE)
_BARE = ("number", "count")


class _Tables:
    """The reader's table rule (a mixin of _Reader: it uses the reader's state and reads each header as a tiny text)."""

    def tables(self) -> None:
        """Each data row's bare cells take the quantity and scale their header gives."""
        if "|" not in self.norm or "--" not in self.norm:
            return
        rows = list(_ROW.finditer(self.norm))
        for i in range(1, len(rows)):
            if not _RULE.match(rows[i].group(0)) or rows[i - 1].end() + 1 != rows[i].start():
                continue
            columns = [self.header_reading(h) for h in _cells(rows[i - 1])]
            j = i + 1
            while j < len(rows) and rows[j].start() == rows[j - 1].end() + 1:
                self.read_row(rows[j], columns)
                j += 1

    def read_row(self, row: re.Match, columns: list) -> None:
        spans = _cell_spans(row)
        for f in self.figs:
            if f.expression or not (row.start() <= f.start < row.end()) or f.quantity not in _BARE or f.unit is not None:
                continue
            k = next((k for k, (a, b) in enumerate(spans) if a <= f.start < b), None)
            if k is None or k >= len(columns) or columns[k] is None:
                continue
            quantity, scale, unit = columns[k]
            f.quantity, f.scale, f.value, f.unit, f.generic = quantity, scale, f.raw * scale, unit, False

    def header_reading(self, header: str):
        """(quantity, scale, unit) a header gives a bare number, read as "<header>=1" and as "1 <header>"; None if neither."""
        header = _HEADER_CLEAN.sub("", header.strip())
        if not header or len(header) > 40 or any(c.isdigit() for c in header[:1]):
            return None
        for text in (f"{header}=1", f"1 {header}"):
            reader = type(self)(text)
            figs = [f for f in reader.read_all() if not f.expression and f.quantity not in _BARE and f.raw == 1]
            if len(figs) == 1:
                return figs[0].quantity, figs[0].scale, figs[0].unit
        return None


def _cells(row: re.Match) -> list[str]:
    return [row.string[a:b] for a, b in _cell_spans(row)]


def _cell_spans(row: re.Match) -> list[tuple[int, int]]:
    """Where each cell of a table row stands in the text, between its pipes."""
    bars = [m.start() for m in re.finditer(r"\|", row.string[row.start():row.end()])]
    return [(row.start() + a + 1, row.start() + b) for a, b in zip(bars, bars[1:])]
