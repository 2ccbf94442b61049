"""Text in the service's SVG charts: how wide a label will be drawn, and a label broken into lines that fit.

An SVG has no line breaking of its own, and the service has no font metrics, so widths are estimated
from the characters, on the generous side: a line that is estimated to fit is narrower in DejaVu Sans and
Noto Sans (the fonts the browser tests draw with, checked there with getBBox).
"""

import re

FSI, PDI = "\u2068", "\u2069"  # a bidirectional isolate: a name or number kept whole inside a right-to-left label
_NARROW = set(" .,:;()|'·")
_JOINED = "\x00"  # never in a label: marks a word of a broken name that the next word continues


def text_width(text: str, size: float, bold: bool = False) -> float:
    """The estimated width in px of `text` drawn at `size` px."""
    shown = [c for c in text if c not in (FSI, PDI, _JOINED)]
    return sum(0.36 if c in _NARROW else 0.72 if c.isupper() or c in "mwMW%" else 0.62 for c in shown) \
        * size * (1.08 if bold else 1.0)


def wrap(text: str, room: float, size: float, bold: bool = False) -> list[str]:
    """`text` in lines that fit `room` px, broken at spaces; an isolated name or number stays whole on its line."""
    units = []
    for unit in re.findall(rf"\S*{FSI}[^{PDI}]*{PDI}\S*|\S+", text):
        if FSI in unit and " " in unit and text_width(unit, size, bold) > room:
            # a name too long for a line ("NVIDIA GB200 NVL72 (per Blackwell GPU)") breaks, each word isolated
            before, rest = unit.split(FSI, 1)
            inner, after = rest.split(PDI, 1)
            # (_JOINED marks the words that go on; on one line they are one isolate again, so keep their order)
            words = [f"{FSI}{word}{PDI}{_JOINED}" for word in inner.split(" ")]
            words[0], words[-1] = before + words[0], words[-1][:-1] + after
            units += words
        else:
            units.append(unit)
    lines: list[str] = []
    for unit in units:
        line = f"{lines[-1]} {unit}" if lines else unit
        if lines and text_width(line, size, bold) <= room:
            lines[-1] = line
        else:
            lines.append(unit)
    return [line.replace(f"{PDI}{_JOINED} {FSI}", " ").replace(_JOINED, "") for line in lines] or [""]
