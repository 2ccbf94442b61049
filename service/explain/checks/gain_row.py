"""A table row of percentages labelled as the gain of the two rows above it ("SDMA off | 697.7 ms / step", "SDMA on |
622.0 ms / step", "gain | +10.85 %"): each column redone both ways a gain is written, as the share the new value is
below or above the old ((697.7 - 622.0) / 697.7 = 10.85%) and as old over new less one (12.17%, a speed-up of the
time). Only agreement is said, naming the way that holds: a row that fits neither way may measure something the table
does not show (round 85's readers asked for this check)."""

import re

from service.explain.checks.core import Result, discard, worked
from service.explain.document import Claim, Document
from service.i18n.messages import messages

_LABEL = re.compile(r"\s*\|?\s*(?:gain|speed-?up|improvement|change|delta|diff(?:erence)?|reduction|uplift|saving|savings|Δ)\b\s*\|", re.I)
_PERCENTS = ("percent_change", "fraction", "percent", "speedup_percent")


def _rounding(gain) -> float:
    """How far a percentage may be from its working: half a unit of its last written digit ("10.85 %": 0.005 points;
    "11%": 0.5), with room for the rounding of the values it was worked from."""
    decimals = re.search(r"\d(?:\.(\d+))?\s*%", gain.quote)
    return 0.5 * 10 ** -len(decimals.group(1) or "") / 100 * 1.5 + 1e-4 if decimals else 1e-3


def _line_figures(doc: Document, start: int, end: int, percents: bool) -> list:
    """The figures on one line of the text, its percentages or its other values."""
    return [f for f in doc.figures if start <= f.start < end and (f.quantity in _PERCENTS) == percents]


def gain_row(doc: Document, claim: Claim) -> Result | None:
    """Each column's stated gain against the two rows above it, said where one of the two ways of writing it holds."""
    lines, offset = [], 0
    for line in doc.text.split("\n"):
        lines.append((offset, offset + len(line), line))
        offset += len(line) + 1
    for k, (start, end, line) in enumerate(lines):
        if not (claim.start <= start < claim.start + len(claim.quote)) or k < 2 or not _LABEL.match(line):
            continue
        stated = _line_figures(doc, start, end, True)
        old, new = (_line_figures(doc, lines[k - i][0], lines[k - i][1], False) for i in (2, 1))
        if not stated or len(old) != len(stated) or len(new) != len(stated) or "|" not in lines[k - 1][2] + lines[k - 2][2] \
                or any(a.quantity != b.quantity or a.value <= 0 or b.value <= 0 for a, b in zip(old, new)):
            return None
        indexes, said = [], []
        for a, b, gain in zip(old, new, stated):
            fits = None
            for form, name in (("({a} - {b}) / {a}", "below"), ("({b} - {a}) / {a}", "above"), ("{a} / {b} - 1", "speedup")):
                index = worked(doc, form.format(a=f"{a.value:g}", b=f"{b.value:g}"), f"{a.quote} -> {b.quote}")
                if index is None:
                    continue
                value = doc.calculations[index]["outputs"]["value"]
                if abs(abs(gain.value) - value) <= _rounding(gain) and (name == "below" or (value >= 0) == (gain.value >= 0)):
                    fits = (index, name, value)
                    break
                discard(doc, index)
            if fits is None:
                for index in sorted(indexes, reverse=True):
                    discard(doc, index)
                return None
            indexes.append(fits[0])
            said.append(messages(doc.lang)["verdicts"][f"gain_row_{fits[1]}"].format(old=a.quote, new=b.quote, value=f"{fits[2]:.2%}", stated=gain.quote))
        return Result(indexes, "consistent", "; ".join(said))
    return None
