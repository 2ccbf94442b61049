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
from service.i18n import languages
from service.i18n.messages import messages

WIDTH, HEIGHT = 680, 400
LEFT, RIGHT, TOP, BOTTOM = 78, 24, 56, 64
COMPUTE_COLOUR, COMM_COLOUR, PP_COLOUR, MARK_COLOUR = "#2563eb", "#d97706", "#dc2626", "#111827"
MAX_CHIPS = 2**24
HALO = 'stroke="#ffffff" stroke-width="4" stroke-linejoin="round" paint-order="stroke"'  # labels stay legible over lines
# When no model is named: the dense model the scaling book's GPU example uses (data/grounding.json's defaults).
# The crossover does not depend on it (critical tokens per chip involve no parameter count); the times do.
ASSUMED_MODEL = "llama-3-70b"

# Bidirectional isolates: a name or number put into a right-to-left label keeps its own direction and its
# place in the sentence (without them "Kimi K2 على Google TPU v5p: 4M" comes out in the wrong order).
FSI, PDI = "\u2068", "\u2069"

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


def draw(data: dict, lang: str = "en") -> str:
    """The chart as a standalone SVG document; every piece of text is escaped."""
    words = _Labels(lang)
    model, chip = _names(data)
    model = model or words.format("params_model", params=human(data.get("params") or 0, "count"))
    chip = chip or words["custom_chip"]
    chips, compute_s, comm_s = data["chips"], data["compute_s"], data["comm_s"]
    x0, x1 = math.log2(chips[0]), math.log2(chips[-1])
    finite = np.concatenate([compute_s, comm_s])
    finite = finite[np.isfinite(finite) & (finite > 0)]
    y0 = math.floor(math.log10(finite.min()))
    y1 = math.ceil(math.log10(finite.max()))
    if y1 <= y0:
        y1 = y0 + 1
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def px(n: float) -> float:
        return LEFT + (math.log2(n) - x0) / (x1 - x0) * plot_w

    def py(seconds: float) -> float:
        return TOP + (y1 - math.log10(seconds)) / (y1 - y0) * plot_h

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'role="img" aria-label="{escape(words["aria"])}" font-family="system-ui, sans-serif" font-size="12"'
        + (' direction="rtl"' if words.rtl else "") + ">",
        f"<title>{escape(words['aria'])}</title>",
        f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>',
    ]
    crossover = data["crossover_chips"]
    if crossover < chips[-1]:
        start = px(max(crossover, chips[0]))
        out.append(f'<rect class="pp-region" x="{start:.1f}" y="{TOP}" width="{LEFT + plot_w - start:.1f}" '
                   f'height="{plot_h}" fill="{PP_COLOUR}" fill-opacity="0.07"/>')
        out.append(f'<text x="{LEFT + plot_w - 6}" y="{TOP + 16}" text-anchor="{words.anchor("right")}" {HALO} fill="{PP_COLOUR}">'
                   f'{escape(words["region"])}</text>')
    # grid and axes
    for exponent in range(y0, y1 + 1):
        y = py(10.0**exponent)
        out.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{LEFT + plot_w}" y2="{y:.1f}" stroke="#e5e7eb"/>')
        # Quantities with units ("100 ms") read left to right in every language.
        out.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end" direction="ltr" fill="#374151">'
                   f'{escape(human(10.0**exponent, "seconds"))}</text>')
    step = max(1, math.ceil((x1 - x0) / 10))
    for exponent in range(math.ceil(x0), math.floor(x1) + 1, step):
        x = px(2.0**exponent)
        out.append(f'<line x1="{x:.1f}" y1="{TOP}" x2="{x:.1f}" y2="{TOP + plot_h}" stroke="#f3f4f6"/>')
        out.append(f'<text x="{x:.1f}" y="{TOP + plot_h + 16}" text-anchor="middle" direction="ltr" fill="#374151">'
                   f'{escape(_compact(2.0**exponent))}</text>')
    out.append(f'<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#9ca3af"/>')
    out.append(f'<text x="{LEFT + plot_w / 2}" y="{HEIGHT - 22}" text-anchor="middle" fill="#111827">{escape(words["x"])}</text>')
    out.append(f'<text transform="translate(16 {TOP + plot_h / 2}) rotate(-90)" text-anchor="middle" fill="#111827">'
               f'{escape(words["y"])}</text>')
    # the two curves
    for series, colour, css in ((compute_s, COMPUTE_COLOUR, "compute"), (comm_s, COMM_COLOUR, "comm")):
        points = " ".join(f"{px(n):.1f},{py(s):.1f}" for n, s in zip(chips, series) if np.isfinite(s) and s > 0)
        out.append(f'<polyline class="{css}" points="{points}" fill="none" stroke="{colour}" stroke-width="2.5"/>')
    # where pipeline parallelism becomes necessary
    if chips[0] <= crossover <= chips[-1]:
        x = px(crossover)
        out.append(f'<line class="pp-needed" x1="{x:.1f}" y1="{TOP}" x2="{x:.1f}" y2="{TOP + plot_h}" '
                   f'stroke="{PP_COLOUR}" stroke-width="1.5" stroke-dasharray="5 4"/>')
        label = words.format("needed", n=human(round(crossover), "count"))
        anchor, dx = (words.anchor("right"), -6) if x > LEFT + plot_w * 0.6 else (words.anchor("left"), 6)
        out.append(f'<text x="{x + dx:.1f}" y="{TOP + plot_h - 8}" text-anchor="{anchor}" {HALO} fill="{PP_COLOUR}">'
                   f'{escape(label)}</text>')
    # the reader's configuration
    chosen = data["chosen"]
    if chips[0] <= chosen["n_chips"] <= chips[-1]:
        x = px(chosen["n_chips"])
        for seconds, colour in ((chosen["compute_s"], COMPUTE_COLOUR), (chosen["comm_s"], COMM_COLOUR)):
            if seconds > 0 and math.isfinite(seconds):
                out.append(f'<circle class="chosen" cx="{x:.1f}" cy="{py(seconds):.1f}" r="5" fill="{colour}" '
                           f'stroke="{MARK_COLOUR}" stroke-width="1.5"/>')
        if not chosen["dp_comm_bound"]:
            verdict = words["fine"]
        elif chosen["min_pp_degree"] is None:
            verdict = words["cannot"]
        else:
            verdict = words.format("bound", pp=chosen["min_pp_degree"])
        label = words["you"].format(n=words.value(human(chosen["n_chips"], "count")), verdict=verdict)
        out.append(f'<text class="chosen-label" x="{LEFT + 6}" y="{TOP + 16}" text-anchor="{words.anchor("left")}" '
                   f'{HALO} fill="{MARK_COLOUR}">{escape(label)}</text>')
    # title and legend
    if data.get("assumed_model"):
        model = words["assumed"].format(model=words.value(model))
    else:
        model = words.value(model)
    title = words["title"].format(model=model, chip=words.value(chip), batch=words.value(human(data["batch"], "count")))
    # Titles and the legend start where the reader starts: the left edge, or the right one in a right-to-left language.
    title_x = LEFT + plot_w if words.rtl else LEFT
    out.append(f'<text x="{title_x}" y="22" text-anchor="start" font-size="14" font-weight="bold" fill="#111827">'
               f'{escape(title)}</text>')
    legend_y = 42
    for index, (colour, key) in enumerate(((COMPUTE_COLOUR, "compute"), (COMM_COLOUR, "comm"))):
        if words.rtl:
            x = LEFT + plot_w - index * 250
            line_x, text_x = x - 22, x - 28
        else:
            x = LEFT + index * 250
            line_x, text_x = x, x + 28
        out.append(f'<line x1="{line_x}" y1="{legend_y - 4}" x2="{line_x + 22}" y2="{legend_y - 4}" stroke="{colour}" stroke-width="3"/>')
        out.append(f'<text x="{text_x}" y="{legend_y}" text-anchor="start" fill="#111827">{escape(words[key])}</text>')
    out.append("</svg>")
    return "\n".join(out)
