"""Turns human quantities ("900GB/s", "70B", "4M", "1.2e15 FLOP/s", "16 GiB") into SI numbers."""

import math
import re
from functools import lru_cache

import numpy as np

from .errors import CalculatorInputError

# Unit kinds a field can have, with how each is written in words for error messages.
KIND_WORDS = {
    "count": "a count (e.g. 70B, 4M, 4096)",
    "bytes": "bytes (e.g. 80GB, 16 GiB)",
    "bytes_per_s": "bytes per second (e.g. 900GB/s, 400 Gb/s)",
    "flop_per_s": "FLOP per second (e.g. 989 TFLOP/s, 1.2e15)",
    "flops": "a number of floating-point operations (e.g. 3.1e23 FLOPs)",
    "seconds": "seconds (e.g. 1.2s, 300 ms, 2 days)",
    "fraction": "a fraction between 0 and 1 (e.g. 0.4 or 40%)",
}

_NUMBER = re.compile(r"^\s*([+-]?(?:\d[\d,_]*(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)\s*(.*?)\s*$")
_SI = {"": 1.0, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15, "E": 1e18}
_BINARY = {"Ki": 2.0**10, "Mi": 2.0**20, "Gi": 2.0**30, "Ti": 2.0**40, "Pi": 2.0**50, "Ei": 2.0**60}
_COUNT_SUFFIX = {
    "": 1.0, "k": 1e3, "K": 1e3, "thousand": 1e3, "m": 1e6, "M": 1e6, "mn": 1e6, "million": 1e6,
    "B": 1e9, "b": 1e9, "bn": 1e9, "G": 1e9, "billion": 1e9, "T": 1e12, "t": 1e12, "trillion": 1e12,
    "P": 1e15, "quadrillion": 1e15,
}
_COUNT_NOUNS = (
    r"(?:tokens?|params?|parameters?|chips?|gpus?|tpus?|devices?|ranks?|steps?|layers?|heads?|experts?"
    r"|micro-?batch(?:es)?|sequences?|nodes?|stages?)"
)
# A multiplier word (optional) then a noun (optional): "4096 GPUs", "4 M tokens", "70 billion params". The
# multiplier is one of the known words, so a noun alone ("GPUs") is not mistaken for an unknown multiplier.
_COUNT_WORD_FACTORS = {
    "k": 1e3, "thousand": 1e3, "m": 1e6, "mn": 1e6, "million": 1e6, "b": 1e9, "bn": 1e9, "g": 1e9, "billion": 1e9,
    "t": 1e12, "trillion": 1e12, "p": 1e15, "quadrillion": 1e15,
}
_COUNT_RE = re.compile(
    r"^(quadrillion|trillion|billion|million|thousand|mn|bn|[kmbgtp])?\s*" + _COUNT_NOUNS + r"?$", re.IGNORECASE
)
_PREFIX = r"(Ki|Mi|Gi|Ti|Pi|Ei|k|K|M|G|T|P|E)?"
_BYTES_RE = re.compile(r"^" + _PREFIX + r"\s*(B|bytes?|b|bits?)$")
_RATE_RE = re.compile(r"^" + _PREFIX + r"\s*(B|bytes?|b|bits?)\s*(?:/\s*s(?:ec)?|ps|\s+per\s+second)$")
_FLOP_RATE_RE = re.compile(r"^" + _PREFIX + r"\s*(?:FLOP/s|FLOPs/s|flop/s|flops/s|FLOPS|FLOP per second)$")
_FLOP_COUNT_RE = re.compile(r"^" + _PREFIX + r"\s*(?:FLOP|FLOPs|flop|flops)$")
_SECONDS = {
    "s": 1.0, "sec": 1.0, "secs": 1.0, "second": 1.0, "seconds": 1.0, "ms": 1e-3, "us": 1e-6, "µs": 1e-6,
    "μs": 1e-6, "ns": 1e-9, "min": 60.0, "mins": 60.0, "minute": 60.0, "minutes": 60.0, "h": 3600.0,
    "hr": 3600.0, "hrs": 3600.0, "hour": 3600.0, "hours": 3600.0, "d": 86400.0, "day": 86400.0,
    "days": 86400.0,
}


def _prefix_factor(prefix: str | None) -> float:
    if not prefix:
        return 1.0
    return _BINARY.get(prefix) or _SI[prefix]


def _incompatible(field: str, text: str, kind: str) -> CalculatorInputError:
    return CalculatorInputError(field, f"{text!r} is not {KIND_WORDS[kind]}")


def _scale(field: str, text: str, unit: str, kind: str) -> float:
    """The factor that turns a number written with `unit` into the SI unit of `kind`."""
    if kind == "count":
        if unit in _COUNT_SUFFIX:
            return _COUNT_SUFFIX[unit]
        match = _COUNT_RE.match(unit)
        if match:
            return _COUNT_WORD_FACTORS.get((match.group(1) or "").lower(), 1.0)
        raise _incompatible(field, text, kind)
    if kind == "fraction":
        if unit == "%":
            return 0.01
        if unit == "":
            return 1.0
        raise _incompatible(field, text, kind)
    if kind == "seconds":
        if unit == "":
            return 1.0
        if unit in _SECONDS:
            return _SECONDS[unit]
        raise _incompatible(field, text, kind)
    if unit in _SI or unit in _BINARY:  # a bare prefix multiplies: "80G" bytes, "400G" B/s
        return _prefix_factor(unit)
    if kind == "bytes":
        match = _BYTES_RE.match(unit)
        if match:
            bits = match.group(2) == "b" or match.group(2).startswith("bit")
            return _prefix_factor(match.group(1)) / (8.0 if bits else 1.0)
    elif kind == "bytes_per_s":
        match = _RATE_RE.match(unit)
        if match:
            bits = match.group(2) == "b" or match.group(2).startswith("bit")
            return _prefix_factor(match.group(1)) / (8.0 if bits else 1.0)
        if unit.lower().endswith("bps") and _RATE_RE.match(unit[:-3] + "b/s"):  # "Gbps"
            return _prefix_factor(_RATE_RE.match(unit[:-3] + "b/s").group(1)) / 8.0
    elif kind == "flop_per_s":
        match = _FLOP_RATE_RE.match(unit)
        if match:
            return _prefix_factor(match.group(1))
        if _FLOP_COUNT_RE.match(unit):
            raise CalculatorInputError(field, f"{text!r} is a number of operations (FLOPs); a rate is written FLOP/s")
    elif kind == "flops":
        match = _FLOP_COUNT_RE.match(unit)
        if match:
            return _prefix_factor(match.group(1))
    raise _incompatible(field, text, kind)


@lru_cache(maxsize=4096)  # the same few strings ("989 TFLOP/s", "400 GB/s") recur; their regexes cost microseconds
def parse_text(field: str, text: str, kind: str) -> float:
    """Parse one human quantity string into a float in the SI unit of `kind`."""
    match = _NUMBER.match(text)
    if not match:
        lowered = text.strip().lower()
        if lowered in ("nan", "inf", "+inf", "-inf", "infinity", "-infinity"):
            raise CalculatorInputError(field, f"must be a finite number, got {text!r}")
        raise CalculatorInputError(field, f"{text!r} is not a quantity; expected {KIND_WORDS[kind]}")
    number = float(match.group(1).replace(",", "").replace("_", ""))
    return number * _scale(field, text, match.group(2), kind)


def to_number(field: str, value, kind: str):
    """A float, or a float64 array for sweeps, from a number, a human string or a sequence of them."""
    if type(value) is str:  # the usual input, a human quantity, tested first
        number = parse_text(field, value, kind)
    elif isinstance(value, bool) or value is None:
        raise CalculatorInputError(field, f"expected {KIND_WORDS[kind]}, got {value!r}")
    elif isinstance(value, (int, float)):
        try:
            number = float(value)
        except OverflowError:  # an int beyond the float range, e.g. 10**400
            raise CalculatorInputError(field, f"is too large to compute with, got a number of {len(str(value))} digits") from None
    elif isinstance(value, str):
        number = parse_text(field, value, kind)
    elif isinstance(value, np.ndarray) or isinstance(value, (list, tuple)):
        try:
            array = np.asarray(value)
            if array.dtype.kind in "UO":
                items = [to_number(field, item, kind) for item in array.ravel()]
                if any(isinstance(item, np.ndarray) for item in items):
                    raise ValueError("nested sequences")
                array = np.array(items, dtype=np.float64).reshape(array.shape)
            elif array.dtype.kind not in "iuf":
                raise CalculatorInputError(field, f"expected numbers, got an array of {array.dtype}")
            array = array.astype(np.float64)
        except (ValueError, TypeError, OverflowError) as exc:
            if isinstance(exc, CalculatorInputError):
                raise
            raise CalculatorInputError(field, f"expected a number or a flat, even array of numbers ({exc})") from None
        if array.size == 0:
            raise CalculatorInputError(field, "is an empty array")
        if not np.all(np.isfinite(array)):
            raise CalculatorInputError(field, "must be finite; the array holds NaN or infinity")
        return array
    elif isinstance(value, (np.integer, np.floating)):
        number = float(value)
    else:
        raise CalculatorInputError(field, f"expected {KIND_WORDS[kind]}, got {type(value).__name__}")
    if not math.isfinite(number):
        raise CalculatorInputError(field, f"must be a finite number, got {number!r}")
    return number
