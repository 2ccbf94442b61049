"""SVG bars for a layout plan: where a step's time goes and where memory goes, for the choice and its runner-ups.

Each row is one layout (evaluate_layout's breakdowns); the time bars share one scale (the slowest step),
the memory bars another (the largest footprint, with the chip's HBM and its memory line marked).
"""

from html import escape

from calculators.formatting import human
from service.http.svg_text import text_width, wrap

WIDTH, ROW, LABEL_W, RIGHT = 760, 30, 290, 80
# Narrower than WIDE (down to MIN_WIDTH, a phone's screen) each label sits above its bar in a taller row.
MIN_WIDTH, WIDE, NARROW_ROW = 300, 560, 42
RTL = ' direction="rtl"'  # on a title or label in a right-to-left language: its words in reading order
TIME_PARTS = ("compute", "pp_bubble", "tp_comm", "dp_comm", "ep_comm", "cp_comm")
MEMORY_PARTS = ("weights", "grads", "optimizer", "activations", "buffers", "reserve")
COLOURS = {"compute": "#2563eb", "pp_bubble": "#dc2626", "tp_comm": "#7c3aed", "dp_comm": "#d97706", "ep_comm": "#059669",
           "cp_comm": "#db2777", "weights": "#1d4ed8", "grads": "#60a5fa", "optimizer": "#f59e0b", "activations": "#10b981",
           "buffers": "#9ca3af"}


def compact_layout(layout: dict) -> str:
    """A layout in the field's own notation, the same in every language: 'TP8 · PP4/v2 · EP16 · DP64 · ZeRO-1 · mb2'."""
    parts = [f"{label}{int(layout[key])}" for key, label in (("tp_degree", "TP"), ("cp_degree", "CP"), ("pp_degree", "PP"),
                                                                  ("ep_degree", "EP"), ("dp_degree", "DP"))
             if int(layout.get(key) or 1) > 1]
    virtual = int(layout.get("virtual_stages") or 1)
    if virtual > 1 and any(part.startswith("PP") for part in parts):
        index = next(i for i, part in enumerate(parts) if part.startswith("PP"))
        parts[index] += f"/v{virtual}"
    zero = int(layout.get("zero_stage") or 0)
    if zero:
        parts.append("FSDP" if zero == 3 else f"ZeRO-{zero}")
    if layout.get("micro_batch"):
        parts.append(f"mb{int(layout['micro_batch'])}")
    return " · ".join(parts) or "1 chip"


def _bars(rows: list[tuple[str, dict]], parts: tuple[str, ...], unit: str, words: dict, top: int, rtl: bool,
          limit: float | None = None, limit_label: str = "", width: int = WIDTH) -> tuple[list[str], int]:
    """One stacked bar per row; returns the SVG pieces and the height used."""
    # On a phone (narrower than WIDE) each layout's label goes above its bar, which then has the whole width.
    narrow = width < WIDE
    label_w, row, bar_at, bar_h = (6, NARROW_ROW, 20, 16) if narrow else (LABEL_W, ROW, 6, ROW - 10)
    scale_max = max([sum(breakdown.get(p, 0) or 0 for p in parts) for _, breakdown in rows] + [limit or 0]) or 1.0
    plot_w = width - label_w - RIGHT
    out = []
    for index, (label, breakdown) in enumerate(rows):
        y = top + index * row
        # Layout labels are the field's Latin notation (TP8 · PP4): left of their bars in every language.
        out.append(f'<text x="6" y="{y + (14 if narrow else 19)}" fill="#111827" direction="ltr">{escape(label)}</text>')
        x = label_w
        total = 0.0
        for part in parts:
            value = breakdown.get(part) or 0.0
            if value <= 0:
                continue
            bar = value / scale_max * plot_w
            out.append(f'<rect class="{part}" x="{x:.1f}" y="{y + bar_at}" width="{max(bar, 0.5):.1f}" height="{bar_h}" '
                       f'fill="{COLOURS[part]}"><title>{escape(words.get(part, part))}: {escape(human(value, unit))}</title></rect>')
            x += bar
            total += value
        out.append(f'<text x="{x + 6:.1f}" y="{y + (bar_at + 13 if narrow else 19)}" fill="#374151">{escape(human(total, unit))}</text>')
    if limit:
        x = label_w + limit / scale_max * plot_w
        height = len(rows) * row
        size = 12 if narrow else 11
        centre = min(x, width - 4 - text_width(limit_label, size) / 2) if narrow else x  # inside the picture
        out.append(f'<line class="limit" x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{top + height}" stroke="#dc2626" '
                   f'stroke-dasharray="4 3"/>')
        out.append(f'<text x="{centre:.1f}" y="{top + height + 14}" text-anchor="middle"{RTL if rtl else ""} '
                   f'fill="#dc2626" font-size="{size}">{escape(limit_label)}</text>')
    return out, len(rows) * row + (22 if limit else 4)


def _legend(parts: tuple[str, ...], words: dict, y: int, present: set[str], width: int = WIDTH,
            rtl: bool = False) -> tuple[list[str], int]:
    """Colour keys under a title, wrapping onto more lines as needed; returns the pieces and the lines used."""
    narrow = width < WIDE
    # a right-to-left name keeps its words in reading order ("تبادل all-to-all لتوازي الخبراء"), its left edge at x
    words_direction = ' direction="rtl" text-anchor="end"' if rtl else ""
    size = 12 if narrow else 11
    out, x, lines = [], 6, 1
    for part in parts:
        if part not in present:
            continue
        text = words.get(part, part)
        room = 22 + (text_width(text, size) if narrow else 6.5 * len(text))
        if x + room > width - 6 and x > 6:
            x, y, lines = 6, y + 16, lines + 1
        out.append(f'<rect x="{x}" y="{y - 9}" width="10" height="10" fill="{COLOURS[part]}"/>')
        out.append(f'<text x="{x + 14}" y="{y}"{words_direction} fill="#111827" font-size="{size}">{escape(text)}</text>')
        x += room
    return out, lines


def _heading(text: str, top: int, rtl: bool, width: int) -> tuple[list[str], int]:
    """A section's bold title above `top`, on as many lines as it needs at `width`; returns the pieces and extra height."""
    lines = wrap(text, width - 12, 12, bold=True) if width < WIDE else [text]
    extra = 16 * (len(lines) - 1)
    return [f'<text x="{width - 6 if rtl else 6}" y="{top - 12 + 16 * index}" text-anchor="start"{RTL if rtl else ""} '
            f'font-weight="bold" fill="#111827">{escape(line)}</text>' for index, line in enumerate(lines)], extra


def draw(rows: list[tuple[str, dict, dict]], hbm_bytes: float | None, words: dict, rtl: bool = False,
         width: int = WIDTH, memory_line: float = 0.8) -> str:
    """The plan as one SVG `width` px wide: `rows` are (label, time breakdown in s, memory breakdown in bytes), the choice first."""
    width = int(min(WIDTH, max(MIN_WIDTH, width)))
    top = 34
    out: list[str] = []
    title, extra = _heading(words["time_title"], top, rtl, width)
    out += title
    top += extra
    present_time = {p for _, t, _ in rows for p in TIME_PARTS if (t.get(p) or 0) > 0}
    legend, lines = _legend(TIME_PARTS, words, top + 2, present_time, width, rtl)
    out += legend
    top += 16 * (lines - 1)
    bars, used = _bars([(label, time) for label, time, _ in rows], TIME_PARTS, "seconds", words, top + 10, rtl, width=width)
    out += bars
    top += used + 44
    title, extra = _heading(words["memory_title"], top, rtl, width)
    out += title
    top += extra
    present_memory = {p for _, _, m in rows for p in MEMORY_PARTS if (m.get(p) or 0) > 0}
    legend, lines = _legend(MEMORY_PARTS, words, top + 2, present_memory, width, rtl)
    out += legend
    top += 16 * (lines - 1)
    limit = memory_line * hbm_bytes if hbm_bytes else None
    bars, used = _bars([(label, memory) for label, _, memory in rows], MEMORY_PARTS, "bytes", words, top + 10, rtl,
                       limit, words["limit"].format(limit=human(limit, "bytes"), line=human(memory_line, "fraction")) if limit else "",
                       width)
    out += bars
    height = top + used + 16
    header = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
              f'role="img" aria-label="{escape(words["aria"])}" font-family="system-ui, sans-serif" font-size="12">'
              f"<title>{escape(words['aria'])}</title>"
              f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>')
    return header + "\n".join(out) + "</svg>"
