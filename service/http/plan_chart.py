"""SVG bars for a layout plan: where a step's time goes and where memory goes, for the choice and its runner-ups.

Each row is one layout (evaluate_layout's breakdowns); the time bars share one scale (the slowest step),
the memory bars another (the largest footprint, with the chip's HBM and its memory line marked).
"""

from html import escape

from calculators.formatting import human

WIDTH, ROW, LABEL_W, RIGHT = 760, 30, 290, 80
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
          limit: float | None = None, limit_label: str = "") -> tuple[list[str], int]:
    """One stacked bar per row; returns the SVG pieces and the height used."""
    scale_max = max([sum(breakdown.get(p, 0) or 0 for p in parts) for _, breakdown in rows] + [limit or 0]) or 1.0
    plot_w = WIDTH - LABEL_W - RIGHT
    out = []
    for index, (label, breakdown) in enumerate(rows):
        y = top + index * ROW
        # Layout labels are the field's Latin notation (TP8 · PP4): left of their bars in every language.
        out.append(f'<text x="6" y="{y + 19}" fill="#111827" direction="ltr">{escape(label)}</text>')
        x = LABEL_W
        total = 0.0
        for part in parts:
            value = breakdown.get(part) or 0.0
            if value <= 0:
                continue
            width = value / scale_max * plot_w
            out.append(f'<rect class="{part}" x="{x:.1f}" y="{y + 6}" width="{max(width, 0.5):.1f}" height="{ROW - 10}" '
                       f'fill="{COLOURS[part]}"><title>{escape(words.get(part, part))}: {escape(human(value, unit))}</title></rect>')
            x += width
            total += value
        out.append(f'<text x="{x + 6:.1f}" y="{y + 19}" fill="#374151">{escape(human(total, unit))}</text>')
    if limit:
        x = LABEL_W + limit / scale_max * plot_w
        height = len(rows) * ROW
        out.append(f'<line class="limit" x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{top + height}" stroke="#dc2626" '
                   f'stroke-dasharray="4 3"/>')
        out.append(f'<text x="{x:.1f}" y="{top + height + 14}" text-anchor="middle" fill="#dc2626" font-size="11">'
                   f'{escape(limit_label)}</text>')
    return out, len(rows) * ROW + (22 if limit else 4)


def _legend(parts: tuple[str, ...], words: dict, y: int, present: set[str]) -> tuple[list[str], int]:
    """Colour keys under a title, wrapping onto more lines as needed; returns the pieces and the lines used."""
    out, x, lines = [], 6, 1
    for part in parts:
        if part not in present:
            continue
        text = words.get(part, part)
        width = 22 + 6.5 * len(text)
        if x + width > WIDTH - 6 and x > 6:
            x, y, lines = 6, y + 16, lines + 1
        out.append(f'<rect x="{x}" y="{y - 9}" width="10" height="10" fill="{COLOURS[part]}"/>')
        out.append(f'<text x="{x + 14}" y="{y}" fill="#111827" font-size="11">{escape(text)}</text>')
        x += width
    return out, lines


def draw(rows: list[tuple[str, dict, dict]], hbm_bytes: float | None, words: dict, rtl: bool = False, memory_line: float = 0.8) -> str:
    """The plan as one SVG: `rows` are (label, time breakdown in s, memory breakdown in bytes), the choice first."""
    top = 34
    out: list[str] = []
    out.append(f'<text x="{WIDTH - 6 if rtl else 6}" y="{top - 12}" text-anchor="{"end" if rtl else "start"}" font-weight="bold" '
               f'fill="#111827">{escape(words["time_title"])}</text>')
    present_time = {p for _, t, _ in rows for p in TIME_PARTS if (t.get(p) or 0) > 0}
    legend, lines = _legend(TIME_PARTS, words, top + 2, present_time)
    out += legend
    top += 16 * (lines - 1)
    bars, used = _bars([(label, time) for label, time, _ in rows], TIME_PARTS, "seconds", words, top + 10, rtl)
    out += bars
    top += used + 44
    out.append(f'<text x="{WIDTH - 6 if rtl else 6}" y="{top - 12}" text-anchor="{"end" if rtl else "start"}" font-weight="bold" '
               f'fill="#111827">{escape(words["memory_title"])}</text>')
    present_memory = {p for _, _, m in rows for p in MEMORY_PARTS if (m.get(p) or 0) > 0}
    legend, lines = _legend(MEMORY_PARTS, words, top + 2, present_memory)
    out += legend
    top += 16 * (lines - 1)
    limit = memory_line * hbm_bytes if hbm_bytes else None
    bars, used = _bars([(label, memory) for label, _, memory in rows], MEMORY_PARTS, "bytes", words, top + 10, rtl,
                       limit, words["limit"].format(limit=human(limit, "bytes"), line=human(memory_line, "fraction")) if limit else "")
    out += bars
    height = top + used + 16
    header = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}" '
              f'role="img" aria-label="{escape(words["aria"])}" font-family="system-ui, sans-serif" font-size="12">'
              f"<title>{escape(words['aria'])}</title>"
              f'<rect x="0" y="0" width="{WIDTH}" height="{height}" fill="#ffffff"/>')
    return header + "\n".join(out) + "</svg>"
