"""Results no real training job can have (MFU above 100%, a time of zero, FLOP/s above peak), flagged with the likely slip."""

import numpy as np
from numpy import ndarray  # bound once: numpy's module defines __getattr__, so the interpreter cannot cache np.ndarray lookups

from .formatting import unit_for_field
from .working import step

_UTILISATION = ("mfu", "hfu")
_TIMES = ("time_s", "days")
_PER_CHIP_RATES = ("achieved_flop_per_s",)  # inputs that are per chip and cannot exceed the chip's peak


def _largest(value) -> float:
    """The largest value of a scalar or a sweep (NaN entries ignored; NaN when none is a number)."""
    if isinstance(value, ndarray):
        finite = value[np.isfinite(value)] if value.dtype.kind in "fc" else value
        return float(finite.max()) if finite.size else float("nan")
    return float(value)


def _smallest(value) -> float:
    if isinstance(value, ndarray):
        finite = value[np.isfinite(value)] if value.dtype.kind in "fc" else value
        return float(finite.min()) if finite.size else float("nan")
    return float(value)


def likely_cause(excess: float, n_chips=None) -> dict:
    """The slip that best explains a result `excess` times the possible maximum, as a step value.

    Three orders of magnitude or more is a unit slip (a FLOP count for a rate, a prefix left out); within the
    chip count, a whole-job figure taken as a per-chip one; within 8, bits for bytes. Otherwise all three.
    """
    n = _largest(n_chips) if n_chips is not None else 1.0
    if excess >= 1000:
        return step("cause.unit_slip")
    if n > 1 and excess <= n * 1.05:
        return step("cause.whole_job_per_chip", n=(n, "count"))
    if excess <= 8.5:
        return step("cause.bits_bytes")
    return step("cause.any")


def impossible(resolved: dict, outputs: dict) -> list[dict]:
    """Warnings (structured steps) for results that are physically impossible; [] for ordinary results."""
    warnings = []
    for name in _UTILISATION:
        value = outputs.get(name)
        if value is not None and not isinstance(value, str):
            top = _largest(value)
            if top > 1.0:  # float constants, as _largest gives floats: the interpreter specialises float comparisons only
                warnings.append(step("warning.utilisation_above_one", field=name.upper(), value=(top, "fraction"),
                                     cause=likely_cause(top, resolved.get("n_chips"))))
    for name in _TIMES:
        value = outputs.get(name)
        if value is not None and not isinstance(value, str):
            low = _smallest(value)
            if low <= 0.0:
                warnings.append(step("warning.time_not_positive", field=name, value=(low, unit_for_field(name) or "count"),
                                     cause=step("cause.unit_slip")))
    peak = resolved.get("peak_flop_per_s")
    if peak is not None:
        for name in _PER_CHIP_RATES:
            value = resolved.get(name)
            if value is not None:
                excess = _largest(value / peak)
                if excess > 1.0:
                    warnings.append(step("warning.above_peak", field=name, value=(_largest(value), "flop_per_s"),
                                         peak=(_smallest(peak), "flop_per_s"), cause=likely_cause(excess, resolved.get("n_chips"))))
    return warnings
