"""Deterministic calculators that ground claims about training large models at scale."""

from . import arithmetic, collectives, flops, memory, parallelism, roofline  # noqa: F401  (they register themselves)
from . import layout_search, layout_steps  # noqa: F401  (evaluate_layout and plan_layout register themselves)
from . import pipeline_memory  # noqa: F401  (pipeline_activation_memory registers itself)
from .errors import CalculatorInputError
from .registry import all_calculators, get, jsonable
from .registry import run as _run

__all__ = ["CalculatorInputError", "names", "run", "schema", "summary", "jsonable"]


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
