"""Markdown tables: a bare number in a cell measures what its column's header says ("| TP | GBS | Tokens/sec/GPU |")."""

import math
import re

from service.explain.figures.record import _Fig

_ROW = re.compile(r"(?m)^[ \t]*\|.*\|[ \t]*$")
_RULE = re.compile(r"^[ \t]*\|(?:[ \t]*:?-{2,}:?[ \t]*\|)+[ \t]*$")
_HEADER_CLEAN = re.compile(r"^[#№]\s*|\s*\((?:#|count|num)\)$", re.IGNORECASE)
_BARE = ("number", "count")
# a line of a table written with pipes, with or without the outer ones ("a | b | c")
_PIPE_LINE = re.compile(r"(?m)^[^\n|]*\|[^\n]*$")
_RULE_LINE = re.compile(r"^[ \t|:\-+]*-{2,}[ \t|:\-+]*$")
# readings a column's header may make more precise: a cell's own unit says only the kind of value ("60 GB": some bytes)
_PLAIN = frozenset({"number", "count", "bytes", "time_s", "percent", "peak_flop_per_s", "tokens_per_s"})
_PEAK_HEADER = re.compile(r"peak|theoretical|spec|dense|sparse|rated|max", re.IGNORECASE)
_PARENS = re.compile(r"\(([^()]*)\)")
_STATISTIC = re.compile(r"^(?:median|mean|average|avg\.?|p\d{2}|max(?:imum)?|min(?:imum)?)\s+", re.IGNORECASE)
_CELL_NUMBER = re.compile(r"\s*[~≈]?\s*(\d[\d,]*(?:\.\d+)?)(?:\s+([kKM])(?![\w.]))?")


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

    def header_tables(self) -> None:
        """A table of pipes (outer pipes and rule line optional): every row with as many cells as the header reads each
        cell as "<header>: <cell>", so "iter (ms, mean)" over "2839" is an iteration's time and "TFLOPS" over "341" a
        measured rate; a row of another shape is not under that header."""
        if "|" not in self.norm:
            return
        lines = [m for m in _PIPE_LINE.finditer(self.norm) if not _RULE_LINE.match(m.group(0))]
        i = 0
        while i < len(lines):
            header = _line_cells(lines[i])
            j = i + 1
            if len(header) >= 2 and all(_is_label(self.norm[a:b]) for a, b in header):
                labels = [self.norm[a:b].strip() for a, b in header]
                while j < len(lines) and _adjacent(self.norm, lines[j - 1], lines[j]):
                    cells = _line_cells(lines[j])
                    first = self.norm[cells[0][0]:cells[0][1]]
                    named = _is_label(first) and self.header_reading(labels[0]) is not None  # the row's name, before its numbers
                    own_unit = named and bool(_PARENS.search(first))  # "Reduction (%) | 56.1": the row gives its own unit
                    if len(cells) == len(header) + 1 and named:
                        cells = cells[1:]  # "run B | 199.5 | 2839": the rows' names stand in a column the header leaves unnamed
                    if own_unit:
                        j += 1
                        continue
                    if len(cells) != len(header):
                        break
                    for label, span in zip(labels, cells):
                        self.read_cell(label, span)
                    j += 1
            i = max(j, i + 1)

    def read_cell(self, label: str, span: tuple[int, int]) -> None:
        """The one figure of a cell, read again with its column's header as its label, when that says more."""
        a, b = span
        inside = [f for f in self.figs if a <= f.start < b and not f.expression]
        number = _CELL_NUMBER.match(self.norm, a, b)
        if number is None or len(inside) > 1 or inside and (inside[0].start != number.start(1) or inside[0].quantity not in _PLAIN):
            return
        cell = self.norm[number.start(1):b].strip()
        if number.group(2):  # "84 k" in a column of rates: a thousand, written apart
            cell = number.group(1) + number.group(2) + self.norm[number.end():b].rstrip()
        name = _PARENS.sub("", label).strip()
        bare = not any(c.isalpha() for c in self.norm[number.end(1):b]) or number.group(2) and not self.norm[number.end():b].strip()
        texts = [f"{name}: {cell} {part.strip()}" for inner in _PARENS.findall(label) for part in inner.split(",")] if bare else []
        texts += [f"{label}: {cell}", f"{name}: {cell}"] if name != label else [f"{label}: {cell}"]
        if bare:
            texts.append(f": {cell} {name}")  # "Nodes" over "2": two nodes
            plain = _STATISTIC.sub("", name)
            if plain != name:
                texts.append(f": {cell} {plain}")  # "Median tokens/second" over "7190": 7,190 tokens/second
        for text in texts:
            at = text.index(": ") + 2
            got = [f for f in type(self)(text).read_all() if f.start == at and not f.expression]
            if not got:
                continue
            fig = got[0]
            quantity = fig.quantity
            if quantity == "peak_flop_per_s" and not _PEAK_HEADER.search(label) and not self.chip_peak(fig.value):
                quantity = "flop_per_s_per_chip"  # a column of runs' rates: measured, unless it says peak or is a chip's
            if quantity in _BARE or inside and (quantity == inside[0].quantity or not bare and not math.isclose(fig.value, inside[0].value, rel_tol=1e-9)):
                continue
            if inside:
                old = inside[0]
                old.quantity, old.value, old.unit, old.generic = quantity, fig.value, fig.unit or old.unit, False
                old.scale = fig.scale
                if number.group(2):
                    old.end = number.end()
            else:
                self.add(_Fig(number.start(1), number.end(), quantity, fig.value, unit=fig.unit, raw=fig.raw,
                              scale=fig.scale, generic=False))
            return

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
        name = _PARENS.sub("", header).strip()
        units = [part.strip() for inner in _PARENS.findall(header) for part in inner.split(",") if part.strip()]
        # "Train Step Duration (s)": the unit in brackets first, as a cell reads it ("GPU Idle Time (%)" is a share, not GPUs)
        plain = _STATISTIC.sub("", name)  # "Median tokens/second": the statistic taken does not change what is measured
        tries = [f"{name}: 1 {unit}" for unit in units] + [f"{header}=1", f"1 {header}"] + ([f"1 {plain}"] if plain and plain != name else [])
        for text in tries:
            reader = type(self)(text)
            figs = [f for f in reader.read_all() if not f.expression and f.quantity not in _BARE and f.raw == 1
                    and (not text.startswith(name + ": ") or f.start == len(name) + 2)]
            if len(figs) == 1:
                return figs[0].quantity, figs[0].scale, figs[0].unit
        return None


def _line_cells(line: re.Match) -> list[tuple[int, int]]:
    """The cells of one pipe line, outer pipes optional, as spans of the text."""
    a, b = line.start(), line.end()
    bars = [a + m.start() for m in re.finditer(r"\|", line.group(0))]
    edges = ([] if line.group(0)[:bars[0] - a].strip() == "" else [a - 1]) + bars
    if line.group(0)[bars[-1] - a + 1:].strip():
        edges.append(b)
    return [(x + 1, y) for x, y in zip(edges, edges[1:])]


def _is_label(cell: str) -> bool:
    """A header cell names its column: a word, no figure."""
    cell = cell.strip()
    return bool(cell) and len(cell) <= 40 and any(c.isalpha() for c in cell) and not any(c.isdigit() for c in cell[:1])


def _adjacent(text: str, one: re.Match, two: re.Match) -> bool:
    """Two pipe lines with nothing between them but a rule line."""
    between = text[one.end():two.start()]
    return all(_RULE_LINE.match(x) for x in between.split("\n")[1:-1]) and between.count("\n") <= 2


def _cells(row: re.Match) -> list[str]:
    return [row.string[a:b] for a, b in _cell_spans(row)]


def _cell_spans(row: re.Match) -> list[tuple[int, int]]:
    """Where each cell of a table row stands in the text, between its pipes."""
    bars = [m.start() for m in re.finditer(r"\|", row.string[row.start():row.end()])]
    return [(row.start() + a + 1, row.start() + b) for a, b in zip(bars, bars[1:])]
