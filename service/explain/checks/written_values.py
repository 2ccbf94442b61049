"""How a check writes a computed value for the reader, and reads a stated result with its unit."""

import re

from calculators.arithmetic import evaluate
from calculators.errors import CalculatorInputError
from calculators.formatting import human

from service.explain import restate


def seconds(value: float) -> str:
    """A computed duration: "21.5 s", "19 days", or "5e9 s" where days would need an exponent."""
    return f"{human(value, '')} s" if re.search(r"\de\d", restate.value("time_s", value)) else restate.value("time_s", value)


def shown(value: float, percent: bool = False) -> str:
    """A computed count, share or size as the working writes it ("2.081e24", "43.9%", "1,024")."""
    if percent:
        return human(value, "fraction")
    if abs(value) >= 1e15:  # beyond "1000T" a count reads as "2.081e24", never "2.081e12T"
        return human(value, "")
    return human(value, "count" if abs(value) >= 1000 or float(value).is_integer() else "")


def near(quote: str, value: float) -> bool:
    """Whether a stated result, read with its unit, is within a factor of two of the value (so its unit is the result's)."""
    return abs(value_of(quote) - value) <= 0.5 * abs(value)


def value_of(quote: str) -> float:
    """A stated result read with its unit ("1.28 GB" is 1.28e9), or NaN where it does not read."""
    try:
        return evaluate(quote)
    except (CalculatorInputError, ValueError, ZeroDivisionError):
        return float("nan")
