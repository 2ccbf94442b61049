"""Numbers written for people in calculator steps: 989 TFLOP/s, 400 GB/s, 3,906 tokens."""

import re
from functools import cache

import numpy as np

_PREFIXES = ((1e18, "E"), (1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k"))
_COUNT_WORDS = ((1e12, "T"), (1e9, "B"), (1e6, "M"))
_SUFFIX = {"flop_per_s": "FLOP/s", "bytes_per_s": "B/s", "bytes": "B", "flops": "FLOP"}


def _sig(value: float, digits: int = 4) -> str:
    """At most `digits` significant figures, no trailing zeros, no exponent for ordinary sizes."""
    text = f"{value:.{digits}g}"
    if "e" in text:
        mantissa, exponent = text.split("e")
        return f"{mantissa}e{int(exponent)}"
    return text


def _sig4(value: float) -> str:
    """_sig(value, 4) with the format spec fixed: the calculators write a dozen numbers per call."""
    text = f"{value:.4g}"
    if "e" in text:
        mantissa, exponent = text.split("e")
        return f"{mantissa}e{int(exponent)}"
    return text


def _prefixed(suffix: str):
    """Writer of a unit with decimal prefixes: 989 TFLOP/s, 400 GB/s, 16 B."""
    tails = tuple((scale, f" {prefix}{suffix}") for scale, prefix in _PREFIXES)
    bare = " " + suffix

    def write(value: float) -> str:
        magnitude = abs(value)
        for scale, tail in tails:
            if magnitude >= scale:
                return _sig4(value / scale) + tail
        return _sig4(value) + bare

    return write


_FLOP_COUNT = _prefixed("FLOP")


def _flops(value: float) -> str:
    if abs(value) >= 1e21:  # beyond exa, scientific notation reads better than zetta
        return f"{_sig(value, 3)} FLOP"
    return _FLOP_COUNT(value)


def _seconds(value: float) -> str:
    magnitude = abs(value)
    if magnitude >= 86400 * 2:
        return f"{_sig4(value / 86400)} days"
    if magnitude >= 7200:
        return f"{_sig4(value / 3600)} hours"
    if magnitude >= 1 or value == 0:
        return f"{_sig4(value)} s"
    if magnitude >= 1e-3:
        return f"{_sig4(value * 1e3)} ms"
    return f"{_sig4(value * 1e6)} µs"


def _fraction(value: float) -> str:
    return f"{_sig4(value * 100)}%"


def _count(value: float) -> str:
    magnitude = abs(value)
    for scale, word in _COUNT_WORDS:
        if magnitude >= scale:
            return f"{_sig4(value / scale)}{word}"
    if value == int(value):
        return f"{int(value):,}"
    if magnitude < 1000:  # 1.25 experts per token, not "1.2": four significant digits, like every other unit
        return _sig4(value)
    return f"{value:,.1f}"


# one writer per unit kind, looked up once instead of testing the unit against each kind in turn
_WRITERS = {unit: _prefixed(suffix) for unit, suffix in _SUFFIX.items()}
_WRITERS.update(flops=_flops, seconds=_seconds, fraction=_fraction, count=_count)


def human(value, unit: str = "") -> str:
    """`value` in `unit` (a calculator unit kind) as a person would write it."""
    if type(value) is not float:  # plain floats, by far the most common, skip the type checks
        if isinstance(value, np.ndarray):
            if value.size == 1:
                value = float(value.reshape(-1)[0])
            else:
                return f"[{value.size} values]"
        if isinstance(value, (bool, np.bool_)):
            return "yes" if value else "no"
        value = float(value)
    writer = _WRITERS.get(unit)
    return _sig4(value) if writer is None else writer(value)


_FRACTION_FIELDS = {"mfu", "hfu", "bubble_over_ideal", "bubble_fraction"}
_PER_THING = re.compile(r"(?:_per_(?!s(?:_|$))[a-z]+)+$")  # "_per_chip", "_per_token"; not "_per_s"
_PLAIN_FIELDS = {"comm_to_compute_ratio", "activation_memory_factor", "bus_factor", "arithmetic_intensity", "critical_intensity",
                 "days", "bytes_per_param", "zero_stage"}


_UNIT_SUFFIXES = (("bytes_per_s", "bytes_per_s"), ("flop_per_s", "flop_per_s"), ("flops", "flops"), ("bytes", "bytes"))


@cache
def unit_for_field(name: str) -> str:
    """The unit kind a field's name declares (DESIGN.md: the unit is in the field name).

    A trailing "_per_<thing>" (per chip, token, layer, node) divides by a count and keeps the unit:
    model_flop_per_s_per_chip is FLOP/s, bytes_per_s_per_chip B/s, flops_per_token FLOP. "_per_s" is a rate
    of whatever precedes it, so tokens_per_s is a count per second, not a duration.
    """
    if name in _FRACTION_FIELDS:
        return "fraction"
    if name in _PLAIN_FIELDS:
        return ""
    base = _PER_THING.sub("", name)
    for suffix, unit in _UNIT_SUFFIXES:
        if base == suffix or base.endswith("_" + suffix) or (unit == "bytes" and base.startswith("bytes")):
            return unit
    if base.endswith("_per_s"):  # tokens_per_s, samples_per_s: a count per second
        return "count"
    if base == "s" or base.endswith("_s"):
        return "seconds"
    return "count"


def human_field(name: str, value) -> str:
    """A calculator field's value written for people, in the unit its name declares."""
    if isinstance(value, str) or value is None:
        return "" if value is None else value
    return human(value, unit_for_field(name))
