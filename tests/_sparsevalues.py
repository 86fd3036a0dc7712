"""Random sparse operands of the interoperability tests (tests/core/test_scipy_interop.py,
tests/io/test_graphblas_interop.py): values of a dtype over its whole range with explicit
zeros, and random coordinate patterns."""

from __future__ import annotations

import numpy as np


def sample_values(dtype, n, rng, scale=100.0):
    """n values of ``dtype`` spanning its range (floats: standard normal times ``scale``), every
    third one an explicit zero."""
    d = np.dtype(dtype)
    if d.kind == "b":
        v = rng.random(n) < 0.5
    elif d.kind == "f":
        v = (rng.standard_normal(n) * scale).astype(d)
    else:
        info = np.iinfo(d)
        v = rng.integers(info.min, info.max, size=n, dtype=d, endpoint=True)
    v[::3] = 0
    return v


def random_pattern(rng, m, n, density):
    """The int64 row and column indices of an m x n pattern, each position present with
    probability ``density``, in row-major order."""
    r, c = np.nonzero(rng.random((m, n)) < density)
    return r.astype(np.int64), c.astype(np.int64)
