"""The public core every checker shares: a calculator's inputs with their sources, running it once, and the result it gives a claim."""

import json
from dataclasses import dataclass, field

import calculators
from calculators import catalog, jsonable

from service.explain import grounding, restate
from service.explain.document import Claim, Document
from service.i18n.messages import join_names, messages

MAX_MODELS = 3
MAX_CHIPS = 4
# A stated result agrees with the calculation within this share (twice as wide when the text says "about").
TOLERANCE = 0.1
# Inputs a calculator takes from a chip or a model of the catalog when it is named.
CHIP_FIELDS = {"peak_flop_per_s", "dp_bandwidth_bytes_per_s", "chips_per_node", "memory_bandwidth_bytes_per_s", "bandwidth_bytes_per_s"}
MODEL_FIELDS = {"params", "moe_experts", "moe_top_k", "n_layers", "n_heads", "head_dim", "d_model", "seq_len"}


@dataclass
class Result:
    """What one checker found for a claim: the calculations it ran and, when it judged, the verdict and why (None leaves them)."""

    calculations: list[int] = field(default_factory=list)
    verdict: str | None = None
    why: str | None = None


class Inputs:
    """A calculator's inputs with where each came from (DESIGN.md `input_sources`)."""

    def __init__(self, lang: str):
        self.lang = lang
        self.values: dict = {}
        self.sources: dict[str, dict] = {}
        self.assumptions: list[str] = []

    def copy(self) -> "Inputs":
        other = Inputs(self.lang)
        other.values, other.sources, other.assumptions = dict(self.values), dict(self.sources), list(self.assumptions)
        return other

    def text(self, name: str, fig) -> None:
        self.values[name] = fig.value
        self.sources[name] = {"source": "text", "quote": fig.quote}

    def catalog(self, name: str, value, origin: str) -> None:
        self.values[name] = value
        self.sources[name] = {"source": "catalog", "from": origin}

    def derived(self, name: str, value, origin: str) -> None:
        self.values[name] = value
        self.sources[name] = {"source": "derived", "from": origin}

    def assumed(self, name: str, value, key: str, **fields) -> None:
        self.values[name] = value
        sentence = messages(self.lang)["assumed"][key].format(**fields)
        self.sources[name] = {"source": "assumed", "why": sentence}
        self.assumptions.append(sentence)


# ------------------------------------------------------------------------------------ inputs from figures

def figure(doc: Document, claim: Claim, *quantities: str):
    """The figure of the first of `quantities` the claim states, else the document, else the earlier turns."""
    for pool in (claim.figures, doc.figures, doc.previous.figures if doc.previous else []):
        for quantity in quantities:
            for fig in pool:
                if fig.quantity == quantity and fig.role != "after":
                    return fig
    return None


def after(claim: Claim, quantity: str):
    """The 'after' figure of a from-to pair in the claim ("from 9% to 5%"), else the single stated one."""
    figs = [f for f in claim.figures if f.quantity == quantity]
    return next((f for f in figs if f.role == "after"), figs[-1] if figs else None)


def has(claim: Claim, quantity: str) -> bool:
    return any(f.quantity == quantity for f in claim.figures)


def model_inputs(doc: Document, claim: Claim, inputs: Inputs) -> bool:
    """Params from the text (a stated size wins), else the model it names; False when neither is there."""
    fig = figure(doc, claim, "active_params", "params")
    if fig is not None:
        inputs.text("params", fig)
        return True
    models = claim.models or doc.models() or (doc.previous.models() if doc.previous else [])
    if models:
        inputs.values["model"] = models[0]["id"]
        inputs.sources["model"] = {"source": "text", "quote": models[0]["name"]}
        return True
    return False


def chip_inputs(doc: Document, claim: Claim, inputs: Inputs) -> bool:
    """The chip's peak from the text, else the chip it names (a figure's chip first)."""
    fig = figure(doc, claim, "peak_flop_per_s")  # a rate the job reached is not the chip's peak
    if fig is not None:
        inputs.text("peak_flop_per_s", fig)
        return True
    found = chips(doc, claim)
    if found:
        inputs.values["chip"] = found[0]["id"]
        inputs.sources["chip"] = {"source": "text", "quote": restate.chip_name(found[0], "en")}
        return True
    return False


def chips(doc: Document, claim: Claim) -> list[dict]:
    """The catalog chips a claim concerns: its figures' chips and names first, else the text's, else the earlier turns'."""
    hardware = catalog.hardware()
    from_figures = [hardware.get("chip", f.chip) for f in claim.figures if getattr(f, "chip", None)]
    found = grounding.unique(from_figures + claim.chips) or doc.chips()
    if not found and doc.previous:
        found = doc.previous.chips()
    return found[:MAX_CHIPS]


def n_chips(doc: Document, claim: Claim, inputs: Inputs) -> bool:
    fig = figure(doc, claim, "n_chips", "n_ranks")
    if fig is not None:
        inputs.text("n_chips", fig)
        return True
    return False


def dp_degree(doc: Document, claim: Claim) -> tuple[float, str] | None:
    """The data-parallel degree: stated, or chips / (TP x PP x CP) when those are stated."""
    dp = figure(doc, claim, "dp_degree")
    if dp is not None:
        return dp.value, dp.quote
    count, tp, pp = figure(doc, claim, "n_chips"), figure(doc, claim, "tp_degree"), figure(doc, claim, "pp_degree")
    if count is not None and (tp is not None or pp is not None):
        group = (tp.value if tp else 1) * (pp.value if pp else 1)
        return count.value / group, f"{count.quote} / ({' x '.join(f.quote for f in (tp, pp) if f)})"
    return None


# ------------------------------------------------------------------------------------ running a calculator

def run(doc: Document, name: str, inputs: Inputs) -> int | None:
    """Run a calculator once per distinct input set; its index in doc.calculations, or None when it refuses."""
    key = json.dumps([name, inputs.values], sort_keys=True, default=str)
    for index, existing in enumerate(doc.calculations):
        if existing.get("_key") == key:
            return index
    try:
        result = jsonable(calculators.run(name, dict(inputs.values)))
    except calculators.CalculatorInputError as exc:
        doc.failures.append(f"{name}: {exc}")
        return None
    result["input_sources"] = _sources(result, inputs, doc.lang)
    result["assumptions"] = inputs.assumptions + list(result.get("assumptions") or [])
    result["_key"] = key
    doc.calculations.append(result)
    return len(doc.calculations) - 1


def _sources(result: dict, inputs: Inputs, lang: str) -> dict:
    """Every input of a result labelled text, catalog, derived or assumed."""
    given = result["inputs"]
    out = {}
    for name, value in given.items():
        if value is None:
            continue
        if name in inputs.sources:
            out[name] = inputs.sources[name]
        elif given.get("chip") and name in CHIP_FIELDS:
            out[name] = {"source": "catalog", "from": given["chip"]}
        elif given.get("model") and (name in MODEL_FIELDS or name.startswith("moe_")):
            out[name] = {"source": "catalog", "from": given["model"]}
        else:
            out[name] = {"source": "assumed", "why": messages(lang)["assumed"]["calculator_default"].format(name=name)}
    return out


# ------------------------------------------------------------------------------------ results

def agrees(stated: float, computed: float, approx: bool) -> bool:
    tolerance = TOLERANCE * (2 if approx else 1)
    return abs(computed - stated) <= tolerance * abs(stated) + (0.005 if abs(stated) <= 1 else 0)


def compare(doc: Document, fig, computed: float, quantity: str, calculations: list[int] | None = None) -> Result:
    """The verdict from a stated figure and the calculator's value of the same quantity."""
    m = messages(doc.lang)["verdicts"]
    verdict = "consistent" if agrees(fig.value, computed, getattr(fig, "approx", False)) else "inconsistent"
    return Result(list(calculations or []), verdict, m[verdict].format(stated=fig.quote, computed=restate.value(quantity, computed)))


def computed(doc: Document, quantity: str, value: float, calculations: list[int]) -> Result:
    """A calculation that checks nothing stated: its value, said as the why (the verdict stays as it was)."""
    return Result(list(calculations), None, messages(doc.lang)["verdicts"]["computed"].format(computed=restate.value(quantity, value)))


def needs_more(doc: Document, missing: list[str], calculations: list[int] | None = None) -> Result:
    """`needs_more`, naming the figures the text would also need to give."""
    m = messages(doc.lang)
    names = [m["quantity_names"].get(q, q) for q in missing]
    return Result(list(calculations or []), "needs_more", m["verdicts"]["needs_more"].format(missing=join_names(names, doc.lang)))
