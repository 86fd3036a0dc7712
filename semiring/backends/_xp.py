"""The array module of an array (NumPy or CuPy) and the few primitives they spell differently.

The CPU and GPU backends share the algebra's array code: it asks ``xp_of(array)`` for the module
and calls the functions both provide. ``repeat`` with per-element counts and host transfers
are the exceptions, written here once.
"""

from __future__ import annotations

import numpy as np


def xp_of(a):
    """``numpy`` or ``cupy``, whichever ``a`` belongs to."""
    if type(a).__module__.startswith("cupy"):
        import cupy

        return cupy
    return np


def repeat(values, counts):
    """``numpy.repeat(values, counts)`` for per-element counts, on either module."""
    xp = xp_of(values)
    if xp is np:
        return np.repeat(values, counts)
    ends = xp.cumsum(counts)
    total = int(ends[-1]) if ends.shape[0] else 0
    return values[xp.searchsorted(ends, xp.arange(total, dtype=ends.dtype), side="right")]


def asnumpy(a):
    """A NumPy copy (or the array itself) of a NumPy or CuPy array."""
    return a.get() if hasattr(a, "get") and not isinstance(a, np.ndarray) else np.asarray(a)
