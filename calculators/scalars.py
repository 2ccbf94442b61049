"""Element-wise helpers with numpy's path for a sweep's arrays and plain Python's for one question's floats (same values either way)."""

# A numpy function called on Python floats converts them to arrays and back, which costs more than a whole scalar calculation.

import numpy as np
from numpy import ndarray  # bound once: numpy's module defines __getattr__, so the interpreter cannot cache np.ndarray lookups


def is_sweep(x) -> bool:
    """True for an array of configurations (a sweep), False for one question's plain numbers."""
    return isinstance(x, ndarray) and x.ndim > 0


def any_true(x) -> bool:
    """np.any of an array, bool() of a plain value."""
    return bool(x.any()) if isinstance(x, ndarray) else bool(x)


def all_true(x) -> bool:
    """np.all of an array, bool() of a plain value."""
    return bool(x.all()) if isinstance(x, ndarray) else bool(x)


def maximum(a, b):
    """np.maximum when either is an array, max() of two plain numbers."""
    return np.maximum(a, b) if isinstance(a, ndarray) or isinstance(b, ndarray) else max(a, b)
