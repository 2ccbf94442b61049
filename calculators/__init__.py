"""Deterministic calculators that ground claims about training large models at scale."""

from . import arithmetic, collectives, flops, memory, parallelism, roofline  # noqa: F401  (they register themselves)
from . import layout_search, layout_steps  # noqa: F401  (evaluate_layout and plan_layout register themselves)
from . import pipeline_memory  # noqa: F401  (pipeline_activation_memory registers itself)
from . import checkpoint_interval  # noqa: F401  (checkpoint_interval registers itself)
from .errors import CalculatorInputError
from .registry import all_calculators, get, jsonable
from .registry import run as _run

__all__ = ["CalculatorInputError", "names", "run", "schema", "summary", "jsonable", "variants"]

# Combinations a comma list may ask for at once: every chip of the catalog, or a few models on a few chips;
# beyond it a request (1 MB of "h100,h100,...") would run a calculator hundreds of thousands of times.
MAX_VARIANTS = 24


def names() -> list[str]:
    """Names of every calculator, in a stable order."""
    return [c.name for c in all_calculators()]


def schema(name: str) -> dict:
    """JSON Schema of a calculator's inputs."""
    return get(name).json_schema()


def summary(name: str) -> str:
    """One line saying what a calculator answers."""
    return get(name).summary


def run(name: str, inputs: dict) -> dict:
    """Run calculator `name` on `inputs`; raises CalculatorInputError for any invalid input."""
    try:
        return _run(name, inputs)
    except CalculatorInputError:
        raise
    except (ArithmeticError, TypeError, ValueError) as exc:  # nothing else escapes, per the contract
        raise CalculatorInputError(None, f"{name}: cannot compute with these inputs ({exc})") from exc


def variants(inputs: dict) -> list[dict]:
    """One input set per chip and per model of a comma list ("h100,tpu-v5p"), to compare them; the CLI and HTTP alike."""
    sets = [dict(inputs)]
    for key in ("chip", "model"):
        value = inputs.get(key)
        if isinstance(value, str) and "," in value:
            names = list(dict.fromkeys(name.strip() for name in value.split(",") if name.strip()))  # once each, in order
            if not names:
                raise CalculatorInputError(key, "is an empty comma list; give a name, or names separated by commas")
            sets = [dict(item, **{key: name}) for item in sets for name in names]
    if len(sets) > MAX_VARIANTS:
        raise CalculatorInputError("chip" if "chip" in inputs else "model",
                                   f"compares {len(sets)} combinations of chip and model; at most {MAX_VARIANTS} at once")
    return sets
