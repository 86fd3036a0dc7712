"""Checks of error paths: ``raises`` asserts the exact exception type and message and that the
containers given to it are left exactly as they were (GraphBLAS C API 2.0, section 2.6: an API
error leaves the output unmodified); ``vec`` and ``mat`` build the containers. The containers
``A``, ``u``, ``w`` and ``C`` that the error tests share are fixtures in conftest.py."""

from __future__ import annotations

from contextlib import contextmanager

import numpy as np
import pytest

import semiring as sr
from semiring import SemiringError

PT = sr.semirings.plus_times


def _snap(x):
    """A deep, comparable snapshot of a Vector, Matrix or NumPy array."""
    if isinstance(x, sr.Matrix):
        r, c, v = x.to_coo()
        return ("Matrix", x.shape, x.dtype, r.copy(), c.copy(), v.copy())
    if isinstance(x, sr.Vector):
        i, v = x.to_coo()
        return ("Vector", x.shape, x.dtype, i.copy(), v.copy())
    a = np.asarray(x)
    return ("array", a.shape, a.dtype, a.copy())


def _same(a, b):
    if a[:3] != b[:3]:
        return False
    for x, y in zip(a[3:], b[3:]):
        if x.dtype != y.dtype or x.shape != y.shape:
            return False
        if not np.array_equal(x, y, equal_nan=x.dtype.kind == "f"):
            return False
    return True


@contextmanager
def raises(exc, match, *untouched):
    """``pytest.raises`` that also checks the exact type and that ``untouched`` are unmodified."""
    assert issubclass(exc, SemiringError)
    before = [_snap(x) for x in untouched]
    with pytest.raises(exc, match=match) as info:
        yield info
    assert type(info.value) is exc, f"expected exactly {exc.__name__}, got {type(info.value).__name__}"
    for x, b in zip(untouched, before):
        assert _same(b, _snap(x)), f"{x!r} was modified by a call that raised {exc.__name__}"


def vec(idx, vals, size, dtype=None):
    return sr.Vector.from_coo(idx, vals, size=size, dtype=dtype)


def mat(rows, cols, vals, nrows, ncols, dtype=None):
    return sr.Matrix.from_coo(rows, cols, vals, nrows=nrows, ncols=ncols, dtype=dtype)
