"""Numbers written for people in calculator steps: 989 TFLOP/s, 400 GB/s, 3,906 tokens."""

import re
from functools import cache

import numpy as np
from numpy import bool_, ndarray  # bound once: numpy's module defines __getattr__, so the interpreter cannot cache np.<name> lookups

_PREFIXES = ((1e18, "E"), (1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k"))
_COUNT_WORDS = ((1e12, "T"), (1e9, "B"), (1e6, "M"))
_SMALLEST_COUNT_WORD = _COUNT_WORDS[-1][0]
_PAST_COUNT_WORDS = 1e15  # a thousand trillion: "2.081e12T" reads worse than the plain exponent "2.081e24"
_SUFFIX = {"flop_per_s": "FLOP/s", "bytes_per_s": "B/s", "bytes": "B", "flops": "FLOP"}


def _sig(value: float, digits: int = 4) -> str:
    """At most `digits` significant figures, no trailing zeros, no exponent for ordinary sizes."""
    text = f"{value:.{digits}g}"
    if "e" in text:
        mantissa, exponent = text.split("e")
        return f"{mantissa}e{int(exponent)}"
    return text


def _sig4(value: float) -> str:
    """_sig(value, 4) with the format fixed: the calculators write a dozen numbers per call."""
    text = "%.4g" % value  # the same text as f"{value:.4g}", written in about half the time
    if "e" in text and 1e4 <= abs(value) < 1e9:
        # "302,921", not "3.029e5": readers who meet a figure of the text in a working want it as the text writes it
        return f"{int(value):,}" if value.is_integer() else f"{float(text):,.0f}"
    if "e" in text:
        mantissa, exponent = text.split("e")
        return f"{mantissa}e{int(exponent)}"
    return text


def _prefixed(suffix: str, scientific_from: float | None = None):
    """Writer of a unit with decimal prefixes: 989 TFLOP/s, 400 GB/s, 16 B; 3 significant digits and an exponent from `scientific_from`."""
    tails = tuple((scale, f" {prefix}{suffix}") for scale, prefix in _PREFIXES)
    bare = " " + suffix

    def write(value: float) -> str:
        magnitude = abs(value)
        if scientific_from is not None and magnitude >= scientific_from:
            return _sig(value, 3) + bare
        for scale, tail in tails:
            if magnitude >= scale:
                return _sig4(value / scale) + tail
        return _sig4(value) + bare

    return write


# beyond exa, scientific notation reads better than zetta
_flops = _prefixed("FLOP", scientific_from=1e21)


# Float constants below, not ints: the interpreter specialises float-with-float arithmetic and comparisons only.
def _seconds(value: float) -> str:
    magnitude = abs(value)
    if magnitude >= 2 * 86400.0:
        return f"{_sig4(value / 86400.0)} days"
    if magnitude >= 7200.0:
        return f"{_sig4(value / 3600.0)} hours"
    if magnitude >= 1.0 or value == 0.0:
        return f"{_sig4(value)} s"
    if magnitude >= 1e-3:
        return f"{_sig4(value * 1e3)} ms"
    return f"{_sig4(value * 1e6)} µs"


def _fraction(value: float) -> str:
    return _sig4(value * 100.0) + "%"


def _count(value: float) -> str:
    magnitude = abs(value)
    if magnitude >= _SMALLEST_COUNT_WORD:  # one test for the common small counts (chips per node, degrees) instead of three
        if magnitude >= _PAST_COUNT_WORDS:
            return _sig4(value)  # never an exponent followed by a count word
        for scale, word in _COUNT_WORDS:
            if magnitude >= scale:
                return f"{_sig4(value / scale)}{word}"
    whole = int(value)  # NaN raises ValueError here, as it always has
    if value.is_integer():
        # below 1,000 there is no separator to write, and str() costs a third of the "," format
        return str(whole) if magnitude < 1000.0 else f"{whole:,}"
    if magnitude < 1000.0:  # 1.25 experts per token, not "1.2": four significant digits, like every other unit
        return _sig4(value)
    return f"{value:,.1f}"


# one writer per unit kind, looked up once instead of testing the unit against each kind in turn
_WRITERS = {unit: _prefixed(suffix) for unit, suffix in _SUFFIX.items()}
_WRITERS.update(flops=_flops, seconds=_seconds, fraction=_fraction, count=_count)


def human(value, unit: str = "") -> str:
    """`value` in `unit` (a calculator unit kind) as a person would write it."""
    if type(value) is float:  # plain floats, by far the most common, skip the type checks
        return _WRITERS.get(unit, _sig4)(value)
    if isinstance(value, ndarray):
        if value.size == 1:
            value = float(value.reshape(-1)[0])
        else:
            return f"[{value.size} values]"
    if isinstance(value, (bool, bool_)):
        return "yes" if value else "no"
    return _WRITERS.get(unit, _sig4)(float(value))


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
    if base.endswith("_per_s"):  # tokens_per_s, sequences_per_s: a count per second
        return "count"
    if base == "s" or base.endswith("_s"):
        return "seconds"
    return "count"


def human_field(name: str, value) -> str:
    """A calculator field's value written for people, in the unit its name declares."""
    if isinstance(value, str) or value is None:
        return "" if value is None else value
    return human(value, unit_for_field(name))
