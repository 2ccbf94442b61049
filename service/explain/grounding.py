"""Grounding: which calculators a text calls for, and their inputs from the text, the catalog and stated defaults."""

import json
import math
from dataclasses import dataclass, field
from functools import cache

import calculators
from calculators import catalog
from calculators.resources import data_dir

from service.explain import glossary
from service.explain.quantities import Quantity, find_quantities, first_by_role

MAX_MODELS = 3
MAX_CHIPS = 4


@dataclass
class Grounding:
    """What the text is about, and the calculator runs that check it."""

    models: list[dict] = field(default_factory=list)
    chips: list[dict] = field(default_factory=list)
    quantities: dict[str, Quantity] = field(default_factory=dict)
    topics: list[str] = field(default_factory=list)  # calculator names the text's terms call for
    runs: list[dict] = field(default_factory=list)  # calculator results
    notes: list[tuple[str, str]] = field(default_factory=list)  # (locale key, model name) of each default chosen
    failures: list[str] = field(default_factory=list)


@cache
def grounding_data() -> dict:
    return json.loads((data_dir() / "grounding.json").read_text(encoding="utf-8"))


def _catalog_index(kind: str) -> glossary.Glossary:
    source = catalog.hardware() if kind == "chip" else catalog.models()
    entries = [{"id": e["id"], "term": e["name"], "aliases": e.get("aliases", []), "_entry": e} for e in source.entries]
    return glossary.Glossary(entries, source.version)


@cache
def _index(kind: str) -> glossary.Glossary:
    if kind == "generic":
        entries = [{"id": f"generic:{g['chip']}:{i}", "term": g["aliases"][0], "aliases": g["aliases"], "_chip": g["chip"]}
                   for i, g in enumerate(grounding_data()["generic_hardware"])]
        return glossary.Glossary(entries, "generic")
    return _catalog_index(kind)


def find_models(text: str) -> list[dict]:
    """Catalog models named in the text, in order of appearance."""
    return _unique([m.entry["_entry"] for m in _index("model").find(text)])


def find_chips(text: str) -> list[dict]:
    """Catalog chips named in the text, generic names ("TPU", "GPU") standing for a representative chip."""
    hardware = catalog.hardware()
    found = []
    specific = _index("chip").find(text)
    generic = _index("generic").find(text)
    for match in sorted(specific + generic, key=lambda m: m.start):
        entry = match.entry.get("_entry") or hardware.get("chip", match.entry["_chip"])
        found.append(entry)
    return _unique(found)


def _unique(entries: list[dict]) -> list[dict]:
    seen, out = set(), []
    for entry in entries:
        if entry["id"] not in seen:
            seen.add(entry["id"])
            out.append(entry)
    return out


def _pow2_floor(x: float) -> int:
    return 2 ** int(math.floor(math.log2(x))) if x >= 1 else 1


def expert_parallel_degree(model: dict, chip: dict) -> int:
    """E/k rounded down to a power of two, capped by the chip's fast domain (grounding.json's stated rule)."""
    experts, top_k = model.get("moe_experts"), model.get("moe_top_k")
    if not experts or not top_k:
        return 1
    domain = ((chip.get("scale_up") or {}).get("domain_chips")) or 1
    return max(1, min(_pow2_floor(experts / top_k), _pow2_floor(domain), int(experts)))


def _run(grounding: Grounding, name: str, inputs: dict):
    try:
        result = calculators.run(name, inputs)
    except calculators.CalculatorInputError as exc:
        grounding.failures.append(f"{name}: {exc}")
        return None
    grounding.runs.append(result)
    return result


def _q(grounding: Grounding, role: str):
    quantity = grounding.quantities.get(role)
    return quantity.value if quantity else None


def ground(text: str, matches: list[glossary.Match]) -> Grounding:
    """Run every calculator the text's terms and numbers call for."""
    data = grounding_data()
    grounding = Grounding()
    grounding.models = find_models(text)[:MAX_MODELS]
    grounding.chips = find_chips(text)[:MAX_CHIPS]
    grounding.quantities = first_by_role(find_quantities(text))
    topics = []
    for match in matches:
        name = match.entry.get("calculator")
        if name and name in calculators.names() and name not in topics:
            topics.append(name)
    grounding.topics = topics
    wants = set(topics)
    # A comparison needs something to compare: hardware, a model or a stated scale, not just the word "PP".
    has_context = grounding.models or grounding.chips or {"global_batch_tokens", "n_chips"} & set(grounding.quantities)
    if ("pp_necessity" in wants or "dp_critical_batch" in wants) and has_context:
        _ground_pp(grounding, data)
    if "pipeline_bubble" in wants or {"pp_degree", "microbatches"} <= set(grounding.quantities):
        _ground_bubble(grounding, data)
    if "mfu" in wants or "tokens_per_s" in grounding.quantities:
        _ground_mfu(grounding)
    if {"training_time", "training_flops"} & wants or "tokens" in grounding.quantities:
        _ground_training(grounding)
    if "model_state_memory" in wants and (grounding.models or "params" in grounding.quantities):
        _ground_memory(grounding)
    return grounding


def _model_inputs(grounding: Grounding) -> list[dict]:
    """`model` names, or explicit params when the text states a size but names no model."""
    if grounding.models:
        return [{"model": m["id"]} for m in grounding.models]
    if "params" in grounding.quantities:
        return [{"params": grounding.quantities["params"].value}]
    return []


def _ground_pp(grounding: Grounding, data: dict):
    hardware = catalog.hardware()
    chips = list(grounding.chips)
    if not any(c["id"] == data["contrast_chip"] for c in chips) and len(chips) < MAX_CHIPS:
        chips.append(hardware.get("chip", data["contrast_chip"]))
        grounding.notes.append(("contrast_chip", ""))
    # With no model named, the check is for a dense model: the model only matters through its experts.
    model_list = grounding.models or [{"id": None, "name": ""}]
    if not grounding.models:
        grounding.notes.append(("dense_model", ""))
    for model in model_list:
        batch = _q(grounding, "global_batch_tokens") or model.get("global_batch_tokens") or data["default_global_batch_tokens"]
        n_chips = _q(grounding, "n_chips") or model.get("training_chip_count") or data["default_n_chips"]
        if not _q(grounding, "global_batch_tokens"):
            grounding.notes.append(("batch_from_model" if model.get("global_batch_tokens") else "default_batch", model["name"]))
        if not _q(grounding, "n_chips"):
            grounding.notes.append(("chips_from_model" if model.get("training_chip_count") else "default_chips", model["name"]))
        for chip in chips:
            inputs = {"chip": chip["id"], "global_batch_tokens": batch, "n_chips": n_chips}
            if model["id"]:
                inputs["model"] = model["id"]
            for role in ("tp_degree", "pp_degree"):
                if _q(grounding, role):
                    inputs[role] = _q(grounding, role)
            ep = expert_parallel_degree(model, chip)
            if ep > 1:
                inputs["ep_degree"] = ep
                grounding.notes.append(("expert_parallel_rule", ""))
            _run(grounding, "pp_necessity", inputs)
    grounding.notes = list(dict.fromkeys(grounding.notes))


def _ground_bubble(grounding: Grounding, data: dict):
    example = data["illustrative_pipeline"]
    needed = [r["outputs"]["min_pp_degree"] for r in grounding.runs
              if r["calculator"] == "pp_necessity" and r["outputs"]["dp_comm_bound"] and r["outputs"]["min_pp_degree"]]
    pp = _q(grounding, "pp_degree") or (max(needed) if needed else example["pp_degree"])
    if pp < 2:
        return
    microbatches = _q(grounding, "microbatches") or example["microbatches"]
    if not _q(grounding, "microbatches"):
        grounding.notes.append(("illustrative_pipeline", ""))
    for schedule, virtual in (("gpipe", 1), ("1f1b", 1), ("interleaved", example["virtual_stages"])):
        _run(grounding, "pipeline_bubble", {"pp_degree": pp, "microbatches": microbatches, "schedule": schedule, "virtual_stages": virtual})


def _ground_mfu(grounding: Grounding):
    rate = _q(grounding, "tokens_per_s")
    batch, step = _q(grounding, "global_batch_tokens"), _q(grounding, "step_time_s")
    n_chips = _q(grounding, "n_chips")
    if not n_chips or not (rate or (batch and step)):
        return
    for model_inputs in _model_inputs(grounding)[:1]:
        for chip in (grounding.chips or [None])[:1]:
            inputs = dict(model_inputs, n_chips=n_chips)
            if chip:
                inputs["chip"] = chip["id"]
            if _q(grounding, "peak_flop_per_s"):
                inputs["peak_flop_per_s"] = _q(grounding, "peak_flop_per_s")
            if rate:
                inputs["tokens_per_s"] = rate
            else:
                inputs.update(global_batch_tokens=batch, step_time_s=step)
            if "params" in grounding.quantities and "model" in inputs:
                inputs["params"] = grounding.quantities["params"].value
            _run(grounding, "mfu", inputs)


def _ground_training(grounding: Grounding):
    tokens = _q(grounding, "tokens")
    if not tokens:
        return
    for model_inputs in _model_inputs(grounding)[:MAX_MODELS]:
        result = _run(grounding, "training_flops", dict(model_inputs, tokens=tokens))
        n_chips, mfu = _q(grounding, "n_chips"), _q(grounding, "mfu")
        if result and n_chips and mfu and (grounding.chips or _q(grounding, "peak_flop_per_s")):
            inputs = dict(model_inputs, tokens=tokens, n_chips=n_chips, mfu=mfu)
            if grounding.chips:
                inputs["chip"] = grounding.chips[0]["id"]
            if _q(grounding, "peak_flop_per_s"):
                inputs["peak_flop_per_s"] = _q(grounding, "peak_flop_per_s")
            _run(grounding, "training_time", inputs)


def _ground_memory(grounding: Grounding):
    for model_inputs in _model_inputs(grounding)[:MAX_MODELS]:
        _run(grounding, "model_state_memory", model_inputs)
