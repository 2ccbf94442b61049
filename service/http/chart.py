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

WIDTH, HEIGHT = 680, 400
LEFT, RIGHT, TOP, BOTTOM = 78, 24, 56, 64
COMPUTE_COLOUR, COMM_COLOUR, PP_COLOUR, MARK_COLOUR = "#2563eb", "#d97706", "#dc2626", "#111827"
MAX_CHIPS = 2**24
# When no model is named: the dense model the scaling book's GPU example uses (data/grounding.json's defaults).
# The crossover does not depend on it (critical tokens per chip involve no parameter count); the times do.
ASSUMED_MODEL = "llama-3-70b"

LABELS = {
    "en": {
        "title": "{model} on {chip}: {batch} tokens per step",
        "assumed": "{model} (assumed)",
        "x": "chips (log scale)",
        "y": "time per step (log scale)",
        "compute": "compute time per step",
        "comm": "data-parallel communication time",
        "needed": "pipeline parallelism needed beyond ≈ {n} chips",
        "region": "DP-communication bound",
        "you": "{n} chips: {verdict}",
        "bound": "needs PP of degree {pp}",
        "cannot": "no PP degree that fits fixes it",
        "fine": "compute-bound, no PP needed",
        "aria": "Data-parallel communication time and compute time per step against the number of chips",
    },
    "ar": {
        "title": "{model} على {chip}: {batch} رمز في كل خطوة",
        "assumed": "{model} (مفترض)",
        "x": "عدد الشرائح (مقياس لوغاريتمي)",
        "y": "الزمن لكل خطوة (مقياس لوغاريتمي)",
        "compute": "زمن الحساب لكل خطوة",
        "comm": "زمن اتصالات توازي البيانات",
        "needed": "يلزم توازي خطوط الأنابيب بعد ≈ {n} شريحة",
        "region": "محدود باتصالات توازي البيانات",
        "you": "{n} شريحة: {verdict}",
        "bound": "يلزم توازي خطوط أنابيب بدرجة {pp}",
        "cannot": "لا تكفي أي درجة لتوازي خطوط الأنابيب",
        "fine": "محدود بالحساب، لا حاجة لتوازي خطوط الأنابيب",
        "aria": "زمن اتصالات توازي البيانات وزمن الحساب لكل خطوة مقابل عدد الشرائح",
    },
}

# pp_necessity fields the chart passes through, plus `params` (active parameters) when no model is named.
PASSED = ("model", "chip", "global_batch_tokens", "peak_flop_per_s", "dp_bandwidth_bytes_per_s", "chips_per_node",
          "tp_degree", "pp_degree", "ep_degree", "moe_experts", "moe_top_k")


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
        "model": flops["inputs"].get("model") or f"{human(flops['inputs']['params'], 'count')} parameters",
        "assumed_model": assumed,
        "chip": resolved.get("chip") or "custom chip",
        "batch": batch,
        "calculation": at_chosen,
    }


def _names(data: dict) -> tuple[str, str]:
    """Display names of the model and chip from the catalog (the ids when not found)."""
    from calculators import catalog

    def lookup(kind_catalog, key):
        try:
            return kind_catalog().get(key, data[key])["name"]
        except calculators.CalculatorInputError:  # a custom value rather than a catalog entry
            return str(data[key])

    return lookup(catalog.models, "model"), lookup(catalog.hardware, "chip")


def _compact(n: float) -> str:
    """Chip counts on the axis: 512, 4,096, 66K, 1M."""
    if n >= 1e6:
        return f"{n / 1e6:.3g}M"
    if n >= 1e5:
        return f"{n / 1e3:.0f}K"
    return f"{int(n):,}"


def draw(data: dict, lang: str = "en") -> str:
    """The chart as a standalone SVG document; every piece of text is escaped."""
    words = LABELS.get(lang, LABELS["en"])
    model, chip = _names(data)
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
        f'role="img" aria-label="{escape(words["aria"])}" font-family="system-ui, sans-serif" font-size="12">',
        f"<title>{escape(words['aria'])}</title>",
        f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>',
    ]
    crossover = data["crossover_chips"]
    if crossover < chips[-1]:
        start = px(max(crossover, chips[0]))
        out.append(f'<rect class="pp-region" x="{start:.1f}" y="{TOP}" width="{LEFT + plot_w - start:.1f}" '
                   f'height="{plot_h}" fill="{PP_COLOUR}" fill-opacity="0.07"/>')
        out.append(f'<text x="{LEFT + plot_w - 6}" y="{TOP + 16}" text-anchor="end" fill="{PP_COLOUR}">'
                   f'{escape(words["region"])}</text>')
    # grid and axes
    for exponent in range(y0, y1 + 1):
        y = py(10.0**exponent)
        out.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{LEFT + plot_w}" y2="{y:.1f}" stroke="#e5e7eb"/>')
        out.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end" fill="#374151">'
                   f'{escape(human(10.0**exponent, "seconds"))}</text>')
    step = max(1, math.ceil((x1 - x0) / 10))
    for exponent in range(math.ceil(x0), math.floor(x1) + 1, step):
        x = px(2.0**exponent)
        out.append(f'<line x1="{x:.1f}" y1="{TOP}" x2="{x:.1f}" y2="{TOP + plot_h}" stroke="#f3f4f6"/>')
        out.append(f'<text x="{x:.1f}" y="{TOP + plot_h + 16}" text-anchor="middle" fill="#374151">'
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
        label = words["needed"].format(n=human(round(crossover), "count"))
        anchor, dx = ("end", -6) if x > LEFT + plot_w * 0.6 else ("start", 6)
        out.append(f'<text x="{x + dx:.1f}" y="{TOP + plot_h - 8}" text-anchor="{anchor}" fill="{PP_COLOUR}">'
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
            verdict = words["bound"].format(pp=chosen["min_pp_degree"])
        out.append(f'<text class="chosen-label" x="{LEFT + 6}" y="{TOP + 16}" fill="{MARK_COLOUR}">'
                   f'{escape(words["you"].format(n=human(chosen["n_chips"], "count"), verdict=verdict))}</text>')
    # title and legend
    if data.get("assumed_model"):
        model = words["assumed"].format(model=model)
    title = words["title"].format(model=model, chip=chip, batch=human(data["batch"], "count"))
    out.append(f'<text x="{LEFT}" y="22" font-size="14" font-weight="bold" fill="#111827">{escape(title)}</text>')
    legend_y = 42
    for index, (colour, key) in enumerate(((COMPUTE_COLOUR, "compute"), (COMM_COLOUR, "comm"))):
        x = LEFT + index * 250
        out.append(f'<line x1="{x}" y1="{legend_y - 4}" x2="{x + 22}" y2="{legend_y - 4}" stroke="{colour}" stroke-width="3"/>')
        out.append(f'<text x="{x + 28}" y="{legend_y}" fill="#111827">{escape(words[key])}</text>')
    out.append("</svg>")
    return "\n".join(out)
