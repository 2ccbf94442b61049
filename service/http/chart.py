"""The SVG chart the service draws: data-parallel communication vs compute time per step as chips grow.

Both curves come from the calculators: pp_necessity swept over chip counts (vectorised) gives tokens
per chip and the communication/compute ratio; training_flops gives the FLOPs of one step. Compute time
per step = step FLOPs / (chips x peak); communication time = compute time x that ratio. Where the
communication line rises above the compute line, data parallelism alone is communication-bound and
pipeline (or other model) parallelism becomes necessary.
"""

import math
from html import escape

import numpy as np

import calculators
from calculators.formatting import human
from service.http.svg_text import FSI, PDI, text_width, wrap
from service.i18n import languages
from service.i18n.messages import messages

WIDTH, HEIGHT = 680, 400
LEFT, RIGHT, TOP, BOTTOM = 78, 24, 56, 64
# Narrower than WIDE (down to MIN_WIDTH, a phone's answer box), the chart is laid out for a phone (see draw).
MIN_WIDTH, WIDE = 256, 560
NARROW_LEFT, NARROW_RIGHT, NARROW_PLOT_HEIGHT = 52, 14, 230
COMPUTE_COLOUR, COMM_COLOUR, PP_COLOUR, MARK_COLOUR = "#2563eb", "#d97706", "#dc2626", "#111827"
MAX_CHIPS = 2**24
HALO = 'stroke="#ffffff" stroke-width="4" stroke-linejoin="round" paint-order="stroke"'  # labels stay legible over lines
# When no model is named: the dense model the scaling book's GPU example uses (data/grounding.json's defaults).
# The crossover does not depend on it (critical tokens per chip involve no parameter count); the times do.
ASSUMED_MODEL = "llama-3-70b"

# Bidirectional isolates (FSI ... PDI, from svg_text): a name or number put into a right-to-left label keeps its own
# direction and its place in the sentence (without them "Kimi K2 على Google TPU v5p: 4M" comes out in the wrong order).

# pp_necessity fields the chart passes through, plus `params` (active parameters) when no model is named.
PASSED = ("model", "chip", "global_batch_tokens", "peak_flop_per_s", "dp_bandwidth_bytes_per_s", "chips_per_node",
          "tp_degree", "pp_degree", "ep_degree", "moe_experts", "moe_top_k", "n_layers")


def sweep(inputs: dict, n_points: int = 72) -> dict:
    """Compute and communication time per step over a range of chip counts, and where PP becomes necessary."""
    inputs = {key: value for key, value in inputs.items() if value not in (None, "")}
    chosen_n = inputs.pop("n_chips", 4096)
    params = inputs.pop("params", None)
    passed = {key: value for key, value in inputs.items() if key in PASSED}
    if "global_batch_tokens" not in passed:
        raise calculators.CalculatorInputError("global_batch_tokens", "is required")
    at_chosen = calculators.run("pp_necessity", {**passed, "n_chips": chosen_n})
    resolved = at_chosen["inputs"]
    flops_inputs = {"tokens": resolved["global_batch_tokens"]}
    assumed = params is None and "model" not in resolved
    if params is not None:
        flops_inputs["params"] = params
    else:
        flops_inputs["model"] = resolved.get("model", ASSUMED_MODEL)
    flops = calculators.run("training_flops", flops_inputs)
    step_flops = flops["outputs"]["total_flops"]
    batch, peak = resolved["global_batch_tokens"], resolved["peak_flop_per_s"]
    critical = at_chosen["outputs"]["critical_tokens_per_chip"]
    crossover = batch / critical  # chips at which tokens per chip fall to the critical batch
    replica = resolved["tp_degree"] * resolved["pp_degree"] * resolved["ep_degree"]
    n_chosen = resolved["n_chips"]
    low = max(replica, 2 ** math.floor(math.log2(max(1.0, min(crossover, n_chosen) / 16))))
    high = min(MAX_CHIPS, 2 ** math.ceil(math.log2(max(crossover, n_chosen, low * 16) * 16)))
    chips = np.unique(np.round(np.geomspace(low, high, n_points)))
    swept = calculators.run("pp_necessity", {**passed, "n_chips": chips})["outputs"]
    compute_s = step_flops / (chips * peak)
    comm_s = compute_s * swept["comm_to_compute_ratio"]
    return {
        "chips": chips,
        "compute_s": compute_s,
        "comm_s": comm_s,
        "crossover_chips": crossover,
        "min_pp_degree": swept["min_pp_degree"],
        "chosen": {"n_chips": n_chosen, "compute_s": step_flops / (n_chosen * peak),
                   "comm_s": step_flops / (n_chosen * peak) * at_chosen["outputs"]["comm_to_compute_ratio"],
                   "dp_comm_bound": at_chosen["outputs"]["dp_comm_bound"],
                   "min_pp_degree": at_chosen["outputs"]["min_pp_degree"]},
        "model": flops["inputs"].get("model"),  # None: a model given by its size alone
        "params": flops["inputs"].get("params"),
        "assumed_model": assumed,
        "chip": resolved.get("chip"),  # None: a chip given by its figures alone
        "batch": batch,
        "calculation": at_chosen,
    }


def _names(data: dict) -> tuple[str | None, str | None]:
    """Display names of the model and chip from the catalog (the ids when not found; None when not named)."""
    from calculators import catalog

    def lookup(kind_catalog, key):
        if not data.get(key):
            return None
        try:
            return kind_catalog().get(key, data[key])["name"]
        except calculators.CalculatorInputError:  # a custom value rather than a catalog entry
            return str(data[key])

    return lookup(catalog.models, "model"), lookup(catalog.hardware, "chip")


class _Labels:
    """The chart's words in one language, with every substituted value isolated when the language is right-to-left."""

    def __init__(self, lang: str):
        self.words = messages(lang)["chart"]
        self.rtl = languages.get(lang).direction == "rtl"

    def __getitem__(self, key: str) -> str:
        return self.words[key]

    def value(self, value) -> str:
        return f"{FSI}{value}{PDI}" if self.rtl else str(value)

    def format(self, key: str, **values) -> str:
        return self.words[key].format(**{name: self.value(v) for name, v in values.items()})

    def anchor(self, edge: str) -> str:
        """text-anchor for a label whose `edge` ("left", "right" or "middle") sits at its x."""
        if edge == "middle":
            return "middle"
        return "start" if (edge == "left") != self.rtl else "end"


def _compact(n: float) -> str:
    """Chip counts on the axis: 512, 4,096, 66K, 1M."""
    if n >= 1e6:
        return f"{n / 1e6:.3g}M"
    if n >= 1e5:
        return f"{n / 1e3:.0f}K"
    return f"{int(n):,}"


def _seconds_tick(seconds: float) -> str:
    """A time on the axis: "100 ms", "1000 s", then hours and days by their symbols (h, d), which read in any language."""
    for size, symbol in ((86_400, "d"), (3_600, "h")):
        if seconds >= 10 * size or (symbol == "h" and seconds >= 10_000):
            return f"{seconds / size:.4g} {symbol}"
    return human(seconds, "seconds")


def _axes(out: list[str], box: tuple[float, float, float, float], scale: tuple[float, float, float, float],
          words: "_Labels", max_ticks: int, axis_titles: bool, picture_w: float) -> None:
    """Grid lines, tick labels and the frame of the plot `box` (left, top, width, height); the axis titles when asked."""
    left, top, plot_w, plot_h = box
    x0, x1, y0, y1 = scale
    for exponent in range(y0, y1 + 1):
        y = top + (y1 - exponent) / (y1 - y0) * plot_h
        out.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + plot_w}" y2="{y:.1f}" stroke="#e5e7eb"/>')
        # Quantities with units ("100 ms") read left to right in every language.
        out.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end" direction="ltr" fill="#374151">'
                   f'{escape(_seconds_tick(10.0**exponent))}</text>')
    step = max(1, math.ceil((x1 - x0) / max_ticks))
    for exponent in range(math.ceil(x0), math.floor(x1) + 1, step):
        x = left + (exponent - x0) / (x1 - x0) * plot_w
        out.append(f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{top + plot_h}" stroke="#f3f4f6"/>')
        label = _compact(2.0**exponent)
        half = text_width(label, 12) / 2  # a label at the plot's edge stays inside the picture
        centre = min(max(x, half + 2), picture_w - half - 2)
        out.append(f'<text x="{centre:.1f}" y="{top + plot_h + 16}" text-anchor="middle" direction="ltr" fill="#374151">'
                   f'{escape(label)}</text>')
    out.append(f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#9ca3af"/>')
    if axis_titles:
        out.append(f'<text x="{left + plot_w / 2}" y="{top + plot_h + 42}" text-anchor="middle" fill="#111827">'
                   f'{escape(words["x"])}</text>')
        out.append(f'<text transform="translate(16 {top + plot_h / 2}) rotate(-90)" text-anchor="middle" fill="#111827">'
                   f'{escape(words["y"])}</text>')


def _chosen_verdict(chosen: dict, words: "_Labels") -> str:
    if not chosen["dp_comm_bound"]:
        verdict = words["fine"]
    elif chosen["min_pp_degree"] is None:
        verdict = words["cannot"]
    else:
        verdict = words.format("bound", pp=chosen["min_pp_degree"])
    return words["you"].format(n=words.value(human(chosen["n_chips"], "count")), verdict=verdict)


def _title(data: dict, words: "_Labels") -> str:
    model, chip = _names(data)
    model = model or words.format("params_model", params=human(data.get("params") or 0, "count"))
    chip = chip or words["custom_chip"]
    if data.get("assumed_model"):
        model = words["assumed"].format(model=words.value(model))
    else:
        model = words.value(model)
    return words["title"].format(model=model, chip=words.value(chip), batch=words.value(human(data["batch"], "count")))


def draw(data: dict, lang: str = "en", width: int = WIDTH) -> str:
    """The chart as a standalone SVG document `width` px wide; every piece of text is escaped.

    From MIN_WIDTH up to WIDE the chart is laid out for a phone: the title wraps, and the marks inside the
    plot are named in a key above it instead of by labels that would not fit, so its text can be drawn at
    its full size (12 px) in a box that narrow.
    """
    words = _Labels(lang)
    width = int(min(WIDTH, max(MIN_WIDTH, width)))
    chips, compute_s, comm_s = data["chips"], data["compute_s"], data["comm_s"]
    x0, x1 = math.log2(chips[0]), math.log2(chips[-1])
    finite = np.concatenate([compute_s, comm_s])
    finite = finite[np.isfinite(finite) & (finite > 0)]
    y0 = math.floor(math.log10(finite.min()))
    y1 = math.ceil(math.log10(finite.max()))
    if y1 <= y0:
        y1 = y0 + 1
    crossover, chosen = data["crossover_chips"], data["chosen"]
    shaded = crossover < chips[-1]
    crossing = chips[0] <= crossover <= chips[-1]
    marked = chips[0] <= chosen["n_chips"] <= chips[-1]
    title = _title(data, words)
    narrow = width < WIDE
    head: list[str] = []  # the title and key of a narrow chart, laid out from the top before the plot
    if narrow:
        # room on the left for the longest tick label ("2.778 hours"), which a phone cannot give away otherwise
        ticks = [_seconds_tick(10.0**exponent) for exponent in range(y0, y1 + 1)]
        left, right = max(NARROW_LEFT, math.ceil(max(text_width(tick, 12) for tick in ticks)) + 10), NARROW_RIGHT
        edge = width - 8 if words.rtl else 8  # where lines start: the right edge in a right-to-left language
        y = 8
        for line in wrap(title, width - 16, 14, bold=True):
            y += 18
            head.append(f'<text class="title" x="{edge}" y="{y}" text-anchor="start" font-size="14" font-weight="bold" '
                        f'fill="#111827">{escape(line)}</text>')
        y += 6
        key = [("compute", words["compute"]), ("comm", words["comm"])]
        if shaded:
            key.append(("region", words["region"]))
        if crossing:
            key.append(("needed", words.format("needed", n=human(round(crossover), "count"))))
        if marked:
            key.append(("chosen", _chosen_verdict(chosen, words)))
        for kind, text in key:
            lines = wrap(text, width - 16 - 30, 12)
            y += 16
            head.append(_key_mark(kind, width - 8 - 22 if words.rtl else 8, y - 4))
            for index, line in enumerate(lines):
                head.append(f'<text class="key" x="{edge - 30 if words.rtl else edge + 30}" y="{y + index * 16}" '
                            f'text-anchor="start" fill="#111827">{escape(line)}</text>')
            y += 16 * (len(lines) - 1)
        y += 24  # the y-axis title sits above the plot, read along the line like the rest
        head.append(f'<text x="8" y="{y}" text-anchor="{words.anchor("left")}" '
                    f'fill="#111827">{escape(words["y"])}</text>')
        top = y + 10
        plot_w, plot_h = width - left - right, NARROW_PLOT_HEIGHT
        height = top + plot_h + 52
    else:
        left, right, top, bottom = LEFT, RIGHT, TOP, BOTTOM
        plot_w, plot_h, height = width - left - right, HEIGHT - top - bottom, HEIGHT

    def px(n: float) -> float:
        return left + (math.log2(n) - x0) / (x1 - x0) * plot_w

    def py(seconds: float) -> float:
        return top + (y1 - math.log10(seconds)) / (y1 - y0) * plot_h

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'role="img" aria-label="{escape(words["aria"])}" font-family="system-ui, sans-serif" font-size="12"'
        + (' direction="rtl"' if words.rtl else "") + ">",
        f"<title>{escape(words['aria'])}</title>",
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>',
    ]
    if shaded:
        start = px(max(crossover, chips[0]))
        out.append(f'<rect class="pp-region" x="{start:.1f}" y="{top}" width="{left + plot_w - start:.1f}" '
                   f'height="{plot_h}" fill="{PP_COLOUR}" fill-opacity="0.07"/>')
        if not narrow:
            out.append(f'<text x="{left + plot_w - 6}" y="{top + 16}" text-anchor="{words.anchor("right")}" {HALO} '
                       f'fill="{PP_COLOUR}">{escape(words["region"])}</text>')
    _axes(out, (left, top, plot_w, plot_h), (x0, x1, y0, y1), words, max(2, int(plot_w // 52)) if narrow else 10,
          axis_titles=not narrow, picture_w=width)
    if narrow:
        out.append(f'<text x="{left + plot_w / 2}" y="{top + plot_h + 38}" text-anchor="middle" fill="#111827">'
                   f'{escape(words["x"])}</text>')
    # the two curves
    for series, colour, css in ((compute_s, COMPUTE_COLOUR, "compute"), (comm_s, COMM_COLOUR, "comm")):
        points = " ".join(f"{px(n):.1f},{py(s):.1f}" for n, s in zip(chips, series) if np.isfinite(s) and s > 0)
        out.append(f'<polyline class="{css}" points="{points}" fill="none" stroke="{colour}" stroke-width="2.5"/>')
    # where pipeline parallelism becomes necessary
    if crossing:
        x = px(crossover)
        out.append(f'<line class="pp-needed" x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{top + plot_h}" '
                   f'stroke="{PP_COLOUR}" stroke-width="1.5" stroke-dasharray="5 4"/>')
        if not narrow:
            label = words.format("needed", n=human(round(crossover), "count"))
            anchor, dx = (words.anchor("right"), -6) if x > left + plot_w * 0.6 else (words.anchor("left"), 6)
            out.append(f'<text x="{x + dx:.1f}" y="{top + plot_h - 8}" text-anchor="{anchor}" {HALO} fill="{PP_COLOUR}">'
                       f'{escape(label)}</text>')
    # the reader's configuration
    if marked:
        x = px(chosen["n_chips"])
        for seconds, colour in ((chosen["compute_s"], COMPUTE_COLOUR), (chosen["comm_s"], COMM_COLOUR)):
            if seconds > 0 and math.isfinite(seconds):
                out.append(f'<circle class="chosen" cx="{x:.1f}" cy="{py(seconds):.1f}" r="5" fill="{colour}" '
                           f'stroke="{MARK_COLOUR}" stroke-width="1.5"/>')
        if not narrow:
            out.append(f'<text class="chosen-label" x="{left + 6}" y="{top + 16}" text-anchor="{words.anchor("left")}" '
                       f'{HALO} fill="{MARK_COLOUR}">{escape(_chosen_verdict(chosen, words))}</text>')
    if narrow:
        out += head
    else:
        # Titles and the legend start where the reader starts: the left edge, or the right one in a right-to-left language.
        title_x = left + plot_w if words.rtl else left
        out.append(f'<text class="title" x="{title_x}" y="22" text-anchor="start" font-size="14" font-weight="bold" '
                   f'fill="#111827">{escape(title)}</text>')
        legend_y = 42
        for index, (colour, key) in enumerate(((COMPUTE_COLOUR, "compute"), (COMM_COLOUR, "comm"))):
            if words.rtl:
                x = left + plot_w - index * 250
                line_x, text_x = x - 22, x - 28
            else:
                x = left + index * 250
                line_x, text_x = x, x + 28
            out.append(f'<line x1="{line_x}" y1="{legend_y - 4}" x2="{line_x + 22}" y2="{legend_y - 4}" stroke="{colour}" stroke-width="3"/>')
            out.append(f'<text x="{text_x}" y="{legend_y}" text-anchor="start" fill="#111827">{escape(words[key])}</text>')
    out.append("</svg>")
    return "\n".join(out)


def _key_mark(kind: str, x: float, y: float) -> str:
    """The small drawing beside a key entry of a narrow chart: the mark in the plot that the entry names."""
    if kind in ("compute", "comm"):
        colour = COMPUTE_COLOUR if kind == "compute" else COMM_COLOUR
        return f'<line x1="{x}" y1="{y}" x2="{x + 22}" y2="{y}" stroke="{colour}" stroke-width="3"/>'
    if kind == "region":
        return (f'<rect x="{x}" y="{y - 6}" width="22" height="12" fill="{PP_COLOUR}" fill-opacity="0.12" '
                f'stroke="{PP_COLOUR}" stroke-opacity="0.4"/>')
    if kind == "needed":
        return (f'<line x1="{x + 11}" y1="{y - 7}" x2="{x + 11}" y2="{y + 7}" stroke="{PP_COLOUR}" stroke-width="1.5" '
                f'stroke-dasharray="4 3"/>')
    return f'<circle cx="{x + 11}" cy="{y}" r="5" fill="#ffffff" stroke="{MARK_COLOUR}" stroke-width="1.5"/>'
