"""Registry of calculators: field specs, validation, name resolution and the result shape."""

import difflib
import math
import re
from dataclasses import dataclass, field as dc_field
from functools import lru_cache
from typing import Any, Callable

import numpy as np
# bound once: numpy's module defines __getattr__, so the interpreter cannot cache np.<name> lookups
from numpy import bool_, floating, ndarray
from numpy import generic as numpy_scalar

from . import catalog
from .errors import CalculatorInputError
from .units import KIND_WORDS, to_number
from .sanity import impossible
from .working import plain, render, step, text_step

REQUIRED = object()  # sentinel: the field has no default

# Bounds shared by every calculator's batch fields (CLI, HTTP, the model's tools and the planner alike). The
# largest published pre-training batches are tens of millions of tokens: 67M for Kimi K2 (arXiv:2507.20534,
# section 2.5), 15,360 sequences of 4,096 tokens (63M) for DeepSeek-V3 (arXiv:2412.19437, section 4.2), 16M
# for Llama 3 405B (arXiv:2407.21783, section 3.4.1); data/models.json cites each. 1e10 tokens is 150 times
# the largest, generous for any future run, yet keeps 1e308 (which rendered "a step of 3e296 days") out.
MAX_BATCH_TOKENS = 1e10
BATCH_TOKENS_BEYOND = "tokens per step; the largest published batches are tens of millions of tokens"
# Sequences in one micro-batch: at most the whole batch (K2's 67M tokens are about 16,000 sequences of 4K);
# 2**20 leaves a margin of 60 times and keeps the planner's memory arithmetic finite.
MAX_MICRO_BATCH = 2**20
MICRO_BATCH_BEYOND = "sequences; a whole step of the largest published runs is about 16,000 sequences"


@dataclass(frozen=True)
class Field:
    """One calculator input: its unit kind, default and constraints."""

    name: str
    kind: str  # a units.KIND_WORDS key, or "choice", "bool", "text", "expression" (a number or written arithmetic)
    doc: str
    default: Any = REQUIRED
    choices: tuple[str, ...] = ()
    integer: bool = False
    allow_zero: bool = False
    minimum: float | None = None  # inclusive lower bound for integers, e.g. 2 ranks
    maximum: float | None = None  # inclusive upper bound beyond which no real job lies (MAX_BATCH_TOKENS above)
    beyond: str = ""  # what exceeding `maximum` means, said in the error
    # a choice as people write it (hyphens for underscores) -> the choice; built once here, not on every call
    aliases: dict = dc_field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self):
        self.aliases.update({c.replace("-", "_"): c for c in self.choices})

    @property
    def required(self) -> bool:
        return self.default is REQUIRED

    def describe_unit(self) -> str:
        if self.kind == "choice":
            return "one of " + ", ".join(self.choices)
        if self.kind == "bool":
            return "true or false"
        if self.kind == "text":
            return "a name"
        if self.kind == "expression":
            return "a number or written arithmetic (e.g. 4.59e14 / 1.8e11, 1 GiB / 450 GB/s, 29%)"
        words = KIND_WORDS[self.kind]
        return "a whole number" if self.integer and self.kind == "count" else words

    def json_schema(self) -> dict:
        if self.kind == "choice":
            schema: dict = {"type": "string", "enum": list(self.choices)}
        elif self.kind == "bool":
            schema = {"type": "boolean"}
        elif self.kind == "text":
            schema = {"type": "string"}
        elif self.kind == "expression":
            schema = {"anyOf": [{"type": "number"}, {"type": "string", "minLength": 1}]}
        else:
            number: dict = {"type": "integer" if self.integer else "number"}
            if self.minimum is not None:
                number["minimum"] = self.minimum
            elif self.allow_zero:
                number["minimum"] = 0
            else:
                number["exclusiveMinimum"] = 0
            if self.kind == "fraction":
                number["maximum"] = 1
            if self.maximum is not None:
                number["maximum"] = self.maximum
            schema = {"anyOf": [number, {"type": "string", "description": "a human quantity, e.g. '900GB/s'"}]}
        schema["description"] = f"{self.doc} ({self.describe_unit()})"
        if not self.required and self.default is not None:
            schema["default"] = self.default
        return schema


@dataclass(frozen=True)
class Calculator:
    """A pure function of validated inputs, with the documentation a person and a model need."""

    name: str
    summary: str
    fields: tuple[Field, ...]
    compute: Callable[[dict], tuple[dict, list[dict | str], list[str]]]  # steps from working.step
    sources: tuple[str, ...]
    takes_chip: bool = False
    takes_model: bool = False
    # which fields `model` fills: names, or field=catalog_field where they differ (memory needs total parameters)
    model_fields: tuple[str, ...] = ()
    # outputs where NaN is a value of its own, "none" (null in JSON), e.g. no pipeline degree fits
    nan_means_none: tuple[str, ...] = ()
    by_name: dict = dc_field(default_factory=dict, compare=False)
    whole_numbers: list = dc_field(default_factory=list, compare=False)  # names of the integer fields

    def __post_init__(self):
        self.by_name.update({f.name: f for f in self.fields})
        self.whole_numbers.extend(f.name for f in self.fields if f.integer)

    def accepted(self) -> list[str]:
        extra = (["chip"] if self.takes_chip else []) + (["model"] if self.takes_model else [])
        return [f.name for f in self.fields] + extra

    def json_schema(self) -> dict:
        properties = {f.name: f.json_schema() for f in self.fields}
        if self.takes_chip:
            properties["chip"] = {"type": "string", "description": "hardware name from the catalog; fills per-chip fields"}
        if self.takes_model:
            properties["model"] = {"type": "string", "description": "model name or alias from the catalog; fills model fields"}
        return {
            "title": self.name,
            "description": self.summary,
            "type": "object",
            "properties": properties,
            "required": [f.name for f in self.fields if f.required],
            "additionalProperties": False,
        }


_REGISTRY: dict[str, Calculator] = {}


def register(calculator: Calculator) -> Calculator:
    _REGISTRY[calculator.name] = calculator
    return calculator


def get(name: str) -> Calculator:
    if not isinstance(name, str) or name not in _REGISTRY:
        close = difflib.get_close_matches(str(name), list(_REGISTRY), n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise CalculatorInputError(None, f"unknown calculator {name!r}{hint} (known: {', '.join(_REGISTRY)})")
    return _REGISTRY[name]


def all_calculators() -> list[Calculator]:
    return list(_REGISTRY.values())


def _validate(spec: Field, value):
    """Parse and check one supplied value; returns a float, array, str or bool."""
    if spec.kind not in KIND_WORDS:
        return _validate_word(spec, value)
    number = to_number(spec.name, value, spec.kind)
    sweep = type(number) is not float  # to_number gives a float, or an array for a sweep
    lowest = np.min(number) if sweep else number
    if spec.minimum is not None and lowest < spec.minimum:
        raise CalculatorInputError(spec.name, f"must be at least {spec.minimum:g}, got {lowest:g}")
    if spec.allow_zero:
        if lowest < 0.0:  # float constants: the interpreter specialises float-with-float comparisons only
            raise CalculatorInputError(spec.name, f"must not be negative, got {lowest:g}")
    elif lowest <= 0.0:
        raise CalculatorInputError(spec.name, f"must be positive, got {lowest:g}")
    if spec.maximum is not None:
        highest = np.max(number) if sweep else number
        if highest > spec.maximum:
            raise CalculatorInputError(spec.name, f"must be at most {spec.maximum:,.0f} ({spec.beyond}), got {highest:g}")
    if spec.kind == "fraction":
        highest = np.max(number) if sweep else number
        if highest > 1.0:
            raise CalculatorInputError(spec.name, f"is a fraction and must be at most 1 (write 46% or 0.46), got {highest:g}")
    if spec.integer:
        whole = np.all(np.floor(number) == number) if sweep else number.is_integer()
        if not whole:
            raise CalculatorInputError(spec.name, f"must be a whole number, got {value!r}")
    return number


def _validate_word(spec: Field, value):
    """Check a value that is not a quantity: a choice, a yes or no, a name or written arithmetic."""
    if spec.kind == "choice":
        text = str(value).strip().lower().replace("-", "_") if isinstance(value, str) else None
        if text is None or text not in spec.aliases:
            raise CalculatorInputError(spec.name, f"expected one of {', '.join(spec.choices)}, got {value!r}")
        return spec.aliases[text]
    if spec.kind == "bool":
        if isinstance(value, (bool, bool_)):
            return bool(value)
        if isinstance(value, str) and value.strip().lower() in ("true", "yes", "1", "on", "false", "no", "0", "off"):
            return value.strip().lower() in ("true", "yes", "1", "on")
        raise CalculatorInputError(spec.name, f"expected true or false, got {value!r}")
    if spec.kind == "text":
        return value
    if spec.kind == "expression":  # parsed by the calculator itself, which knows what the text means
        if isinstance(value, bool) or not isinstance(value, (str, int, float)) or (isinstance(value, str) and not value.strip()):
            raise CalculatorInputError(spec.name, f"expected a number or written arithmetic, got {value!r}")
        if isinstance(value, float) and not math.isfinite(value):
            raise CalculatorInputError(spec.name, f"must be a finite number, got {value!r}")
        return value
    raise ValueError(f"field {spec.name} has an unknown kind {spec.kind!r}")


def _catalog(kind: str) -> "catalog.Catalog":
    """The chip or model catalog; a missing or broken data file is reported against the field that needed it."""
    try:
        return catalog.hardware() if kind == "chip" else catalog.models()
    except (OSError, ValueError, KeyError, TypeError) as exc:
        where = "data/hardware.json" if kind == "chip" else "data/models.json"
        raise CalculatorInputError(kind, f"cannot be looked up: the {kind} catalog ({where}) is not available ({exc}); give the figures directly") from None


def resolve_inputs(calculator: Calculator, inputs: dict) -> tuple[dict, dict, list[dict]]:
    """Validated inputs after defaults and chip/model names, the catalog entries used, and what was assumed.

    The assumptions are structured steps: a generic name taken as the catalog's default ("TPU" as TPU v5p),
    and every default value used that the caller did not give.
    """
    if not isinstance(inputs, dict):
        raise CalculatorInputError(None, f"inputs must be an object of field values, got {type(inputs).__name__}")
    if not calculator.by_name.keys() >= inputs.keys():  # one set comparison in the usual case, every key a field
        for key in inputs:
            if key in calculator.by_name or (key == "chip" and calculator.takes_chip) or (key == "model" and calculator.takes_model):
                continue
            accepted = calculator.accepted()
            if key not in accepted:
                close = difflib.get_close_matches(str(key), accepted, n=2)
                hint = f"; did you mean {', '.join(close)}?" if close else ""
                raise CalculatorInputError(str(key), f"is not an input of {calculator.name}{hint} (inputs: {', '.join(accepted)})")
    filled: dict = {}
    entries: dict = {}
    assumed: list[dict] = []
    if calculator.takes_model and inputs.get("model") is not None:
        entry, generic = _catalog("model").resolve("model", inputs["model"])
        if generic:
            assumed.append(step("assumption.generic_model", name=generic["name"], entry=entry["name"]))
        entries["model"] = entry
        model_values = catalog.model_fields(entry)
        for spec in calculator.model_fields:
            name, _, source = spec.partition("=")
            if (source or name) in model_values:
                filled[name] = model_values[source or name]
    if calculator.takes_chip and inputs.get("chip") is not None:
        entry, generic = _catalog("chip").resolve("chip", inputs["chip"])
        if generic:
            assumed.append(step("assumption.generic_chip", name=generic["name"], entry=entry["name"]))
        entries["chip"] = entry
        filled.update({k: v for k, v in catalog.chip_fields(entry).items() if k in calculator.by_name})
    resolved: dict = {}
    for spec in calculator.fields:
        value = inputs.get(spec.name)
        if value is not None:
            resolved[spec.name] = _validate(spec, value)
        elif spec.name in filled:
            resolved[spec.name] = _validate(spec, filled[spec.name])
        elif spec.default is REQUIRED:
            hint = ""
            if calculator.takes_chip and spec.name in ("peak_flop_per_s", "memory_bandwidth_bytes_per_s", "dp_bandwidth_bytes_per_s", "bandwidth_bytes_per_s"):
                hint = " (or give chip)"
            elif calculator.takes_model and any(f.partition("=")[0] == spec.name for f in calculator.model_fields):
                hint = " (or give model)"
            raise CalculatorInputError(spec.name, f"is required{hint}")
        else:
            resolved[spec.name] = spec.default
            if spec.default is not None:
                assumed.append(step("assumption.default", name=spec.name, value=_default_value(spec)))
    return resolved, entries, assumed


@lru_cache(maxsize=1024)
def _assumption_text(key: str, values: tuple) -> str:
    """The English text of an assumption resolve_inputs made, cached: it holds only names and default values, no computed figures."""
    return render([{"key": key, "values": dict(values)}], "en")[0]


def _default_value(spec: Field):
    """A default as a step value: a number with its unit, or a name written as it is."""
    if spec.kind in ("choice", "text"):
        return str(spec.default)
    if spec.kind == "bool":
        return "true" if spec.default else "false"
    return (spec.default, spec.kind)


def jsonable(value):
    """Plain JSON types from numpy scalars and arrays; NaN and infinity become null (JSON has neither)."""
    if isinstance(value, ndarray):
        if value.dtype.kind in "fc" and not np.all(np.isfinite(value)):
            return jsonable(value.tolist())  # element-wise, so non-finite entries become None
        return value.tolist()
    if isinstance(value, numpy_scalar):
        return jsonable(value.item())
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    return value


_NON_FINITE_WORD = re.compile(r"(?<![\w.])-?(?:inf|nan)(?![\w])")


def _non_finite(value) -> bool:
    if isinstance(value, ndarray):
        return value.dtype.kind in "fc" and not bool(np.all(np.isfinite(value)))
    if isinstance(value, (float, floating)):
        return not math.isfinite(value)
    return False


_ALWAYS_FINITE = (str, bool, int, type(None))  # output types that are never NaN or infinite (a verdict, a flag, a count)


def _plain_outputs(calculator: Calculator, outputs: dict) -> tuple[dict, list[str]]:
    """The outputs with numpy scalars as Python numbers, and the keys of those that are not finite numbers (NaN as "none" aside)."""
    outputs = dict(outputs)
    broken = []
    for key, value in outputs.items():  # one pass over the outputs does both
        if type(value) is float:  # the usual output of one question, tested without a call
            if math.isfinite(value):
                continue
        elif type(value) in _ALWAYS_FINITE:
            continue
        else:
            if isinstance(value, numpy_scalar):
                outputs[key] = value = value.item()
            if not _non_finite(value):
                continue
        if not (key in calculator.nan_means_none and not np.any(np.isinf(value))):
            broken.append(key)
    return outputs, broken


def _check_finite(calculator: Calculator, resolved: dict, broken: list[str], steps: list[str]) -> None:
    """A result that overflowed (1e308 parameters) or divided by a denormal (5e-324 s) is an input error.

    Valid inputs in any physical range give finite figures; the culprit named is the numeric input
    farthest from 1 in orders of magnitude, which is what pushed the arithmetic out of range. `broken`
    names the outputs that are not finite.
    """
    # One search of the steps joined: the newline between two steps is neither a word character nor a dot, so
    # a word is found in the joined text exactly when it is found in one step.
    text = "\n".join(steps)
    if not broken and not (("inf" in text or "nan" in text) and _NON_FINITE_WORD.search(text)):
        return
    magnitudes = []
    for key, value in resolved.items():
        spec = calculator.by_name.get(key)
        if spec is None or spec.kind not in KIND_WORDS or value is None:
            continue
        values = np.abs(np.asarray(value, dtype=np.float64)).ravel()
        values = values[values > 0]
        if values.size:
            extreme = values[np.argmax(np.abs(np.log10(values)))]
            magnitudes.append((abs(math.log10(extreme)), key, float(extreme)))
    what = f"{', '.join(broken)} would not be a finite number" if broken else "the working would overflow"
    if not magnitudes:
        raise CalculatorInputError(None, f"these inputs give no finite result: {what}")
    _, key, extreme = max(magnitudes)
    size = "large" if extreme > 1 else "small"
    raise CalculatorInputError(key, f"{extreme:g} is too {size} for a finite result ({what}); give a realistic value")


def run(name: str, inputs: dict) -> dict:
    """Run calculator `name` on `inputs`; the result object of DESIGN.md, plus "working" (the steps as keys and values)."""
    calculator = get(name)
    resolved, entries, assumed = resolve_inputs(calculator, inputs)
    sweep = ndarray in map(type, resolved.values())  # validated numbers are floats, or exactly ndarrays for a sweep
    context = dict(resolved)
    context["_entries"] = entries
    context["_warnings"] = warned = []  # a calculator may add structured warnings of its own
    context["_sweep"] = sweep  # whether any input is an array, so a calculator need not look at each
    if sweep:
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):  # checked below, as an input error
            outputs, steps, assumptions = calculator.compute(context)
    else:  # plain floats overflow to inf without warnings; errstate costs more than a scalar calculation
        outputs, steps, assumptions = calculator.compute(context)
    working = [item if type(item) is dict else text_step(item) for item in steps]
    if sweep:  # arrays in the working become their size, not a copy of the outputs
        working = plain(working)
    steps = render(working, "en")  # the English text once, here; other languages render "working" on demand
    outputs, broken = _plain_outputs(calculator, outputs)
    _check_finite(calculator, resolved, broken, steps)
    warned += impossible(resolved, outputs)
    if sweep:
        assumed, warned = plain(assumed), plain(warned)
    shown_inputs = dict(resolved)
    for key in calculator.whole_numbers:  # whole-number fields read back as integers
        if type(shown_inputs[key]) is float:  # validated numbers are plain floats (arrays for a sweep)
            shown_inputs[key] = int(shown_inputs[key])
    for kind, entry in entries.items():
        shown_inputs[kind] = entry["id"]
    sources = list(calculator.sources)
    for kind, entry in entries.items():
        sources.append(f"{kind} {entry['id']}: data/{'hardware' if kind == 'chip' else 'models'}.json (figures with their sources)")
    return {
        "calculator": calculator.name,
        "inputs": shown_inputs,
        "outputs": outputs,
        "steps": steps,
        "assumptions": [_assumption_text(item["key"], tuple(item["values"].items())) for item in assumed] + list(assumptions),
        "warnings": render(warned, "en") if warned else [],
        "sources": sources,
        "working": working,
        # the assumptions and warnings above that were made here, as structured steps for other languages
        "notes": {"assumptions": assumed, "warnings": warned},
    }
