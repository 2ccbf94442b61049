"""The public core every checker shares: a calculator's inputs with their sources, running it once, and the result it gives a claim."""

import copy
import json
import re
from dataclasses import dataclass, field

import calculators
from calculators import catalog, jsonable
from calculators.arithmetic import evaluate
from calculators.errors import CalculatorInputError

from service.explain import grounding, restate
from service.explain.checks import verdicts
from service.explain.document import Claim, Document
from service.explain.process_cache import CACHE
from service.i18n.messages import join_names, messages

SEARCHES = {"plan_layout"}  # calculators that search (about 0.2 s each): one run per input set per process

MAX_MODELS = 3
MAX_CHIPS = 4
# Inputs a calculator takes from a chip or a model of the catalog when it is named.
CHIP_FIELDS = {"peak_flop_per_s", "dp_bandwidth_bytes_per_s", "chips_per_node", "memory_bandwidth_bytes_per_s", "bandwidth_bytes_per_s"}
_MOE_WORDS = re.compile(r"\bMoE\b|mixture[- ]of[- ]experts|\bexperts?\b|خليط الخبراء|الخبراء", re.I)
_POD_NAME = r"(?:(?:Cloud\s+)?TPU\s*|v\d\w*\s+|Trillium\s+|Ironwood\s+)*"  # "TPU v5p", "Trillium": a generation's name before "pod"
_POD = re.compile(rf"\b(?:full|whole|entire|one|a|single)\s+{_POD_NAME}pod\b|\bpod\b", re.I)
_WHOLE_POD = re.compile(rf"\b(?:full|whole|entire)\s+{_POD_NAME}pod\b", re.I)
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

    def expression(self, expression: str, quote: str) -> None:
        """The arithmetic calculator's expression, written from figures of the text (`quote` says which, as written)."""
        self.values["expression"] = expression
        self.sources["expression"] = {"source": "text", "quote": quote}

    def text_with(self, name: str, value, quote: str, catalog: str) -> None:
        """An input built from the text's figure (quoted) and a catalog value (named): the text's number is in it."""
        self.values[name] = value
        self.sources[name] = {"source": "text", "quote": quote, "with": catalog}

    def catalog(self, name: str, value, origin: str) -> None:
        self.values[name] = value
        self.sources[name] = {"source": "catalog", "from": origin}

    def derived(self, name: str, value, origin: str) -> None:
        self.values[name] = value
        self.sources[name] = {"source": "derived", "from": origin}

    def stated(self, name: str, value, quote: str, tolerance: float, tolerance_from: str | None = None) -> None:
        """The value the text states for the calculation to judge (`stated_result`, `stated_change`) and the tolerance
        its written digits allow, both sourced to the text's words."""
        self.values[name] = value
        self.sources[name] = {"source": "text", "quote": quote}
        self.values["tolerance"] = tolerance
        self.sources["tolerance"] = {"source": "derived", "from": tolerance_from or quote}

    def assumed(self, name: str, value, key: str, **fields) -> None:
        self.values[name] = value
        m = messages(self.lang)
        sentence = m["assumed"][key].format(**fields)
        self.sources[name] = {"source": "assumed", "why": sentence}
        if key in m.get("assumed_short", {}):  # the few words a short answer names it by
            self.sources[name]["short"] = m["assumed_short"][key].format(**fields)
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


def unique(doc: Document, claim: Claim, *quantities: str):
    """The claim's own figure of the first of `quantities`, else the text's when every figure of it there has one value
    (one set-up); None when two values compete (two runs, phases or settings: which one the claim means is uncertain)."""
    for quantity in quantities:
        own = next((f for f in claim.figures if f.quantity == quantity and f.role != "after"), None)
        if own is not None:
            return own
    for quantity in quantities:
        found = [f for f in doc.figures if f.quantity == quantity]
        if found and all(abs(f.value - found[0].value) <= 0.01 * abs(found[0].value) for f in found):
            return found[0]
    return None


def competing(doc: Document, quantity: str) -> list:
    """The text's figures of `quantity` when they hold more than one value (else an empty list)."""
    found = [f for f in doc.figures if f.quantity == quantity]
    return found if len({round(f.value, 6) for f in found}) > 1 else []


def after(claim: Claim, quantity: str):
    """The 'after' figure of a from-to pair in the claim ("from 9% to 5%"), else the single stated one."""
    figs = [f for f in claim.figures if f.quantity == quantity]
    return next((f for f in figs if f.role == "after"), figs[-1] if figs else None)


def has(claim: Claim, quantity: str) -> bool:
    return any(f.quantity == quantity for f in claim.figures)


def _mixture_of_experts(doc: Document) -> bool:
    """Whether the text is about a mixture-of-experts model (the term, or experts named)."""
    return any(t["id"] == "mixture-of-experts" for t in doc.terms) or bool(_MOE_WORDS.search(doc.text))


def _moe_model(models: list[dict], total: float | None) -> dict | None:
    """A named catalog mixture of experts (whose total size is the stated one, when one is stated)."""
    for model in models:
        active, full = model.get("params_active"), model.get("params_total")
        if active and full and active != full and (total is None or abs(total - full) <= 0.15 * full):
            return model
    return None


def model_inputs(doc: Document, claim: Claim, inputs: Inputs) -> bool:
    """Params from the text (a stated size wins, active parameters first), else the model it names; False when neither
    is there, or when the only size stated is a mixture of experts' total (FLOPs are 6 x ACTIVE parameters)."""
    models = claim.models or doc.models() or (doc.previous.models() if doc.previous else [])
    fig = figure(doc, claim, "active_params")
    if fig is None:
        fig = figure(doc, claim, "params")
        if fig is not None and _moe_model(models, fig.value) is not None:
            fig = None  # the named model's total: the catalog gives its active parameters
        elif fig is not None and _mixture_of_experts(doc) and not _dense(claim, models):
            return False
    if fig is not None and claim.models and not any(f is fig or f == fig for f in claim.figures):
        fig = None  # "DeepSeek-V3 ... 14.8T tokens" beside "enough to train a 70B model" later: the sentence's own model wins
    resized = _RESIZED.search(doc.text)
    if fig is not None and resized and doc.text[max(0, fig.start - 1):fig.start][-1:] in "-_.":
        return False  # "Qwen3.6-35B-A3B ... reduced to 20 layers": the size in the name is not the size that ran
    if fig is not None:
        inputs.text("params", fig)
        return True
    if models and resized:
        return False  # "the model reduced to 20 layers": the named model's catalog size is not the size that ran
    if models:
        inputs.values["model"] = models[0]["id"]
        inputs.sources["model"] = {"source": "text", "quote": models[0]["name"]}
        return True
    return False


_DENSE = re.compile(r"\bdense\b|الكثيف", re.I)
# a named model run smaller than published: its layers cut, or a smaller variant of it
_RESIZED = re.compile(r"\b(?:reduced|cut|truncated|trimmed|shrunk|pruned|downsized)\s+(?:down\s+)?to\s+\d+\s+(?:transformer\s+)?layers\b"
                      r"|\bwith\s+(?:only\s+)?(?:the\s+first\s+)?\d+\s+(?:of\s+its\s+\d+\s+)?layers\b|\bfewer\s+layers\b"
                      r"|\b\d+-layer\s+(?:version|variant|subset|slice|cut)\b|\bnum_(?:hidden_)?layers\s*[=:]\s*\d+", re.I)


def _dense(claim: Claim, models: list[dict]) -> bool:
    """Whether the claim's model is dense although the text speaks of experts elsewhere: its sentence says "dense", or
    every model it names is dense in the catalog (GPT-3 beside an MoE in another sentence)."""
    if _DENSE.search(claim.quote) and not _MOE_WORDS.search(claim.quote):
        return True
    named = claim.models
    return bool(named) and not _MOE_WORDS.search(claim.quote) and all(
        not m.get("params_active") or m.get("params_active") == m.get("params_total") for m in named)


def params_missing(doc: Document, claim: Claim) -> str:
    """The figure to name when model_inputs fails: the active parameters of a mixture of experts, else the model size."""
    return "active_params" if figure(doc, claim, "params") is not None and _mixture_of_experts(doc) and not _dense(claim, []) else "params"


def chip_inputs(doc: Document, claim: Claim, inputs: Inputs) -> bool:
    """The chip's peak from the text, else the chip it names (a figure's chip first)."""
    fig = next((f for f in (figure(doc, claim, "peak_flop_per_s"), *doc.figures) if f is not None and f.quantity == "peak_flop_per_s"
                and not _SPARSE_PEAK.match(doc.text, f.end)), None)  # a rate the job reached is not the chip's peak; nor is
    # "3,026 TFLOPs/s of FP8 performance with sparsity" its dense peak, which the text then gives ("half this, 1.513e15")
    if fig is not None:
        inputs.text("peak_flop_per_s", fig)
        return True
    found = chips(doc, claim)
    if found and doc.named_only_generically(found[0]):
        # "per GPU" names no generation: the catalog's stand-in for "GPU" is an assumption, never the text's chip
        inputs.assumed("chip", found[0]["id"], "generic_chip", chip=found[0]["name"],
                       bare=re.sub(r"^(?:NVIDIA|Google|AMD)\s+", "", found[0]["name"]))
        return True
    if found:
        inputs.values["chip"] = found[0]["id"]
        inputs.sources["chip"] = {"source": "text", "quote": restate.chip_name(found[0], "en")}
        return True
    return False


_SPARSE_PEAK = re.compile(r"[^.;,(]{0,30}?\b(?:with|w/)\s+(?:2:4\s+|structured\s+)?sparsity", re.I)


def chips(doc: Document, claim: Claim) -> list[dict]:
    """The catalog chips a claim concerns: its figures' chips and names first, else the text's, else the earlier turns'."""
    hardware = catalog.hardware()
    from_figures = [hardware.get("chip", f.chip) for f in claim.figures if getattr(f, "chip", None)]
    if not from_figures and not claim.chips and re.search(verdicts.table()["other_chips"]["pattern"], claim.quote):
        return []  # "on 10,000 V100s": a chip the catalog lacks, never another chip the text names elsewhere
    found = grounding.unique(from_figures + claim.chips) or doc.chips()
    if not found and doc.previous:
        found = doc.previous.chips()
    # a chip the text names ("A100s") before the stand-in for a bare "GPU"
    found = sorted(found, key=lambda c: doc.named_only_generically(c))
    return found[:MAX_CHIPS]


def pod_chips(doc: Document, claim: Claim, whole: bool = False) -> tuple[int, str] | None:
    """The chip count of a TPU pod the text names ("a v5p pod"; with `whole`, only "a full/whole/entire pod"): its ICI domain."""
    pattern = _WHOLE_POD if whole else _POD
    if not pattern.search(claim.quote) and (whole or not pattern.search(doc.text)):
        return None
    for chip in chips(doc, claim):
        count = (chip.get("topology") or {}).get("fast_domain_chips")
        if chip.get("kind") == "tpu" and count and not doc.named_only_generically(chip):
            return int(count), chip["name"]
    return None


def n_chips(doc: Document, claim: Claim, inputs: Inputs) -> bool:
    """The job's chip count: stated, else the chip count of a full pod the claim names (catalog)."""
    fig = figure(doc, claim, "n_chips", "n_ranks")
    if fig is not None:
        inputs.text("n_chips", fig)
        return True
    pod = pod_chips(doc, claim, whole=True)
    if pod is not None:
        inputs.catalog("n_chips", pod[0], f"{pod[1]} pod (data/hardware.json)")
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
    if not verdicts.grounded(inputs.sources):
        # every input from the catalog or assumed: a calculation no sentence of the text asked for (data/verdicts.json)
        doc.failures.append(f"{name}: not run, no input comes from the text")
        return None
    key = json.dumps([name, inputs.values], sort_keys=True, default=str)
    for index, existing in enumerate(doc.calculations):
        if existing.get("_key") == key:
            return index
    try:
        if name in SEARCHES:  # a search over every layout: made once per input set, a fresh copy for each answer
            result = copy.deepcopy(CACHE.get("searches", key, lambda: jsonable(calculators.run(name, dict(inputs.values))), limit=256))
        else:
            result = jsonable(calculators.run(name, dict(inputs.values)))
    except calculators.CalculatorInputError as exc:
        doc.failures.append(f"{name}: {exc}")
        return None
    result["input_sources"] = _sources(result, inputs, doc.lang)
    result["assumptions"] = inputs.assumptions + list(result.get("assumptions") or [])
    result["_key"] = key
    doc.calculations.append(result)
    return len(doc.calculations) - 1


def worked(doc: Document, expression: str, quote: str, unit: str | None = None) -> int | None:
    """The arithmetic calculator on an expression written from the text's figures (`quote` says which): its index;
    `unit` is the result's kind when it is known ("bytes_per_s" for a size over a time), so the working writes it."""
    inputs = Inputs(doc.lang)
    inputs.expression(expression, quote)
    if unit:
        inputs.derived("result_unit", unit, "the kind of quantity the check computes")
    return run(doc, "arithmetic", inputs)


def worked_pair(doc: Document, form: str, big, small, shown: str) -> int | None:
    """`form` ("{b} / {s} - 1") worked on two figures as the text writes them ("3084.44ms / 2383.16ms") where both carry
    the same unit and the calculator reads them so, else on their values: its index."""
    same = re.sub(r"[\d.,\s]", "", big.quote) == re.sub(r"[\d.,\s]", "", small.quote)
    index = worked(doc, form.format(b=as_written(big), s=as_written(small)), shown) if same else None
    numbers = written_numbers(big, small)
    if index is None and numbers is not None:
        index = worked(doc, form.format(b=f"{numbers[0]:g}", s=f"{numbers[1]:g}"), shown)  # "6,250 days" over "675" (days)
    return index if index is not None else worked(doc, form.format(b=f"{big.value:g}", s=f"{small.value:g}"), shown)


_WRITTEN = re.compile(r"\s*[~≈]?\s*(\d[\d,]*(?:\.\d+)?)")


def written_number(fig) -> float | None:
    """The number a figure's quote opens with, as written ("6,250 days" -> 6250), or None."""
    found = _WRITTEN.match(fig.quote)
    return float(found.group(1).replace(",", "")) if found else None


def written_numbers(a, b) -> tuple[float, float] | None:
    """The two figures' numbers as the text writes them, where their ratio is their values' ("6,250 days" and "675",
    both in days): a working in those numbers reads as the text, not as "540,000,000 / 675"."""
    x, y = written_number(a), written_number(b)
    if x is None or y is None or not b.value:
        return None
    return (x, y) if y and abs(a.value / b.value - x / y) <= 1e-6 * abs(x / y) and (x, y) != (a.value, b.value) else None


def pair_as_written(inputs: Inputs, after, before) -> None:
    """The ratio calculator's `after` and `before` from two figures of the text, in the numbers it writes where both
    are of one kind and their ratio is their values' ("6,250 days" over "675" days)."""
    inputs.text("before", before)
    inputs.text("after", after)
    if after.quantity == before.quantity and (numbers := written_numbers(after, before)) is not None:
        inputs.values["after"], inputs.values["before"] = numbers


def discard(doc: Document, index: int) -> None:
    """Take back the calculation just run when its result is no finding (it is the last, and no claim cites it yet)."""
    if index == len(doc.calculations) - 1 and not any(index in c.calculations for c in doc.claims):
        doc.calculations.pop()


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
            # a calculator's convention for a field the text leaves out, said in words but no assumption about the text
            out[name] = {"source": "assumed", "why": messages(lang)["assumed"]["calculator_default"].format(name=name),
                         "calculator_default": True}
    return out


# ------------------------------------------------------------------------------------ results

def compare(doc: Document, fig, computed: float, quantity: str, calculations: list[int] | None = None,
            shown: str | None = None) -> Result:
    """The verdict from a stated figure and the calculator's value, under data/verdicts.json: like with like, possible,
    and an inconsistency never built on an assumed input; `shown` writes the value in the stated figure's own unit."""
    m = messages(doc.lang)["verdicts"]
    calculations = list(calculations or [])
    shown = shown or restate.value(quantity, computed)
    if not verdicts.same_kind(fig.quantity, quantity):
        return Result(calculations, "needs_more", m["uncertain_kind"].format(stated=fig.quote, computed=shown))
    if not verdicts.possible(quantity, computed):
        return impossible(doc, written(quantity, computed), calculations)
    verdict = "consistent" if verdicts.agrees(fig.value, computed, getattr(fig, "approx", False)) else "inconsistent"
    if verdict == "inconsistent" and verdicts.misread(fig.value, computed):
        return Result([], "needs_more", m["misread_pair"].format(stated=fig.quote))  # ours to doubt: no working shown
    if verdict == "inconsistent":
        assumed = assumed_in(doc, calculations)
        if assumed:
            names = assumed_names(doc, calculations)
            return Result(calculations, "needs_more", m["rests_on_assumption"].format(
                stated=fig.quote, computed=shown, assumed=join_names(names, doc.lang)))
    return Result(calculations, verdict, m[verdict].format(stated=said(doc, fig), computed=shown))


_UNITS = ((86400.0, "days"), (3600.0, "hours"), (60.0, "minutes"), (1.0, "seconds"))


def duration(doc: Document, low: float, high: float) -> str:
    """A computed time (or range) in the one unit that suits its longer end, in words of the answer's language."""
    scale, unit = next(((s, u) for s, u in _UNITS if high >= 1.5 * s or s == 1.0), _UNITS[-1])
    words = messages(doc.lang)["verdicts"]["steps_time_units"][unit]
    number = (lambda x: f"{x / scale:.2g}" if x / scale < 10 else f"{x / scale:,.0f}")
    if abs(high - low) <= 1e-9 * high:
        return words.format(value=number(low))
    return words.format(value=messages(doc.lang)["verdicts"]["steps_time_range"].format(low=number(low), high=number(high)))


def as_written(fig) -> str:
    """A figure in the working as the text wrote it ("47 days", "512 MB"), where the calculator reads it so, else in base units."""
    written = re.sub(r"(?<=\d)-(?=[A-Za-z])", " ", re.sub(r"^[^\d]*", "", fig.quote).strip())  # "54-day": 54 day
    try:
        return written if abs(evaluate(written) / fig.value - 1) < 1e-6 else f"{fig.value:g}"
    except (CalculatorInputError, ZeroDivisionError):
        return f"{fig.value:g}"


def said(doc: Document, fig) -> str:
    """A figure of the text as the answer says it: its quote, or its reading when the quote is in the other language
    ("1.2 جيجابايت" in an English answer reads "1.2 GB")."""
    if restate.same_language(fig.quote, doc.lang) or not any(c.isalpha() for c in fig.quote):
        return fig.quote
    reading = restate.figure(fig, doc.lang) or fig.quote
    if doc.lang == "en" and not restate.same_language(reading, doc.lang):
        reading = restate.value(fig.quantity, fig.value)  # "1.2 GB": an English answer writes the value, not the Arabic words
    elif doc.lang != "en" and (fig.quantity.startswith("n_") or fig.quantity == "number") and re.search(r"\b[a-z]{3,}\b", reading):  # "419 interruptions", not "GPU"
        reading = f"{fig.value:,.0f}"  # "466 job interruptions" in an Arabic answer: the count, its noun said by the sentence
    elif doc.lang != "en" and fig.quantity in TIME_QUANTITIES and _SPELLED_TIME.search(reading) and "/" not in reading:
        reading = duration(doc, fig.value, fig.value)  # "three weeks" in an Arabic answer: "3 أسبوع" is no better; days are
    return reading


TIME_QUANTITIES = ("time_s", "step_time_s", "latency_s")  # the quantities that are a stretch of time
_SPELLED_TIME = re.compile(r"\b(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?)\b", re.I)  # "three weeks", not "7.8ms/step"


def computed(doc: Document, quantity: str, value: float, calculations: list[int]) -> Result:
    """A calculation that checks nothing stated: its value, said as the why (the verdict stays as it was); an impossible one is no finding."""
    if not verdicts.possible(quantity, value):
        return impossible(doc, written(quantity, value), calculations)
    return Result(list(calculations), None, messages(doc.lang)["verdicts"]["computed"].format(computed=restate.value(quantity, value)))


def written(quantity: str, value: float) -> str:
    """A value as the answer writes it; an impossible share reads as a whole percentage ("17,692%", not "1.769e4%")."""
    if verdicts.kind(quantity) in ("fraction_of_peak", "fraction") and abs(value) >= 10:
        return f"{value * 100:,.0f}%"
    return restate.value(quantity, value)


def impossible(doc: Document, shown: str, calculations: list[int]) -> Result:
    """needs_more for a result outside the physical bounds, naming the figures whose reading is uncertain."""
    quotes = []
    for index in calculations:
        for name, source in doc.calculations[index]["input_sources"].items():
            said = source.get("quote") or source.get("from") or ""
            # the figures read from the text, not the chip or model names that fed the calculation
            if source.get("source") in ("text", "derived") and name not in ("chip", "model") and any(c.isdigit() for c in said):
                quotes.append(f"«{said}»" if doc.lang == "ar" else f"“{said}”")
    return Result(list(calculations), "needs_more", messages(doc.lang)["verdicts"]["impossible"].format(
        computed=shown, quotes=join_names(list(dict.fromkeys(quotes)), doc.lang)))


def assumed_names(doc: Document, calculations: list[int]) -> list[str]:
    """The assumptions of the calculations in a few words each (their short form, else the quantity's name)."""
    names = messages(doc.lang)["quantity_names"]
    found = []
    for index in calculations:
        for name, source in doc.calculations[index]["input_sources"].items():
            if name in verdicts.assumed_inputs({name: source}):
                found.append(source.get("short") or names.get(name, name))
    return list(dict.fromkeys(found))


def assumed_in(doc: Document, calculations: list[int]) -> list[str]:
    """The inputs the calculations took as assumptions."""
    found: list[str] = []
    for index in calculations:
        found += verdicts.assumed_inputs(doc.calculations[index]["input_sources"])
    return list(dict.fromkeys(found))


def needs_more(doc: Document, missing: list[str], calculations: list[int] | None = None) -> Result:
    """`needs_more`, naming the figures the text would also need to give."""
    m = messages(doc.lang)
    names = [m["quantity_names"].get(q, q) for q in missing]
    return Result(list(calculations or []), "needs_more", m["verdicts"]["needs_more"].format(missing=join_names(names, doc.lang)))


def multiplied(doc: Document, fig) -> bool:
    """Whether the figure is one unit's amount written with its count ("2×256GB"), not an amount of its own."""
    return bool(re.search(r"\d\s*[×x]\s*$", doc.text[max(0, fig.start - 6):fig.start]))
