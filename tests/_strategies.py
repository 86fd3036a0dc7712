"""Hypothesis strategies for small random sparse Vectors and Matrices, and the write-step grid.

Values are small (integers in [-3, 3], [0, 3] unsigned, floats in multiples of 1/4 in [-2, 2])
so that integer arithmetic never overflows and float arithmetic on them is exact; zeros are
frequent, so explicit zeros are common (they are entries, and false in a value mask).
"""

from __future__ import annotations

import dataclasses
from typing import Callable

import numpy as np
from hypothesis import strategies as st

import semiring as sr
from semiring.testing import reference as ref

DTYPES = ("bool", "int8", "int64", "uint8", "float32", "float64")
#: Matrix dimensions: tiny (0..5, rarely 0), where every corner case lives.
dims = st.one_of(st.integers(0, 5), st.integers(1, 5), st.integers(1, 5))
#: Vector sizes: also 16..40, where a vector with few entries is kept in sparse (index list)
#: form instead of a bitmap, and products look its entries up by binary search.
vec_dims = st.one_of(dims, st.integers(16, 40))
dtypes = st.sampled_from(DTYPES)

MASK_KINDS = (None, "S", "V", "~S", "~V")
ACCUMS = {"none": None, "plus": sr.binary.plus, "min": sr.binary.min, "second": sr.binary.second}
#: Every (mask kind, accum, replace) combination; replace only with a mask (without one it raises).
GRID = [(m, a, r) for m in MASK_KINDS for a in ACCUMS for r in ((False, True) if m else (False,))]


def grid_id(params):
    m, a, r = params
    return f"mask={m or 'none'}-accum={a}-{'replace' if r else 'keep'}"


def values(dtype):
    d = np.dtype(dtype)
    if d.kind == "b":
        return st.booleans()
    # Hypothesis draws 0 often (about one value in three): explicit zeros are common.
    if d.kind == "u":
        return st.integers(0, 3)
    if d.kind == "i":
        return st.integers(-3, 3)
    return st.integers(-8, 8).map(lambda v: v / 4)


def scalars(dtype):
    """A NumPy scalar of ``dtype`` (keeps its dtype when bound to an operator)."""
    d = np.dtype(dtype)
    return values(d).map(lambda v: d.type(v))


@st.composite
def _positions(draw, npos):
    """Sorted present positions out of ``npos``: none, all, about half, about 3/4, or a few."""
    modes = ("empty", "full", "half", "dense", "dense", "few") if npos <= 256 else ("empty", "few", "few")
    mode = draw(st.sampled_from(modes))
    if mode == "empty" or npos == 0:
        return []
    if mode == "full":
        return list(range(npos))
    if mode == "few":
        return sorted(draw(st.lists(st.integers(0, npos - 1), unique=True, max_size=6)))
    flags = st.booleans() if mode == "half" else st.integers(0, 3).map(bool)
    return [p for p, hit in enumerate(draw(st.lists(flags, min_size=npos, max_size=npos))) if hit]


def _dtype(draw, dtype):
    if dtype is None:
        return np.dtype(draw(dtypes))
    if isinstance(dtype, st.SearchStrategy):
        return np.dtype(draw(dtype))
    return np.dtype(dtype)


@st.composite
def vectors(draw, size=None, dtype=None):
    """A random sparse ``sr.Vector`` (size drawn from ``vec_dims`` unless given)."""
    size = draw(vec_dims) if size is None else size
    d = _dtype(draw, dtype)
    idx = draw(_positions(size))
    vals = draw(st.lists(values(d), min_size=len(idx), max_size=len(idx)))
    return sr.Vector.from_coo(np.array(idx, dtype=np.int64), np.array(vals, dtype=d), size=size, dtype=d)


@st.composite
def matrices(draw, nrows=None, ncols=None, dtype=None):
    """A random sparse ``sr.Matrix`` (dimensions drawn from ``dims`` unless given)."""
    nrows = draw(dims) if nrows is None else nrows
    ncols = draw(dims) if ncols is None else ncols
    d = _dtype(draw, dtype)
    keys = draw(_positions(nrows * ncols))
    vals = draw(st.lists(values(d), min_size=len(keys), max_size=len(keys)))
    rows = np.array([p // ncols for p in keys], dtype=np.int64)
    cols = np.array([p % ncols for p in keys], dtype=np.int64)
    return sr.Matrix.from_coo(rows, cols, np.array(vals, dtype=d), nrows=nrows, ncols=ncols, dtype=d)


def containers(shape, dtype=None):
    return vectors(shape[0], dtype) if len(shape) == 1 else matrices(shape[0], shape[1], dtype)


def out_dtypes(tdtype):
    """Output dtypes T may be cast to deterministically (a negative float into an unsigned
    integer is undefined behaviour in C and platform-dependent in NumPy)."""
    return tuple(d for d in DTYPES if not (np.dtype(tdtype).kind == "f" and np.dtype(d).kind == "u"))


def lib_mask(kind, parent):
    if kind is None:
        return None
    m = parent.S if kind.endswith("S") else parent.V
    return ~m if kind.startswith("~") else m


@dataclasses.dataclass
class Case:
    """One operation on drawn inputs: ``lib(**w)`` calls the library, ``ref(**w)`` the reference,
    where ``w`` is the write step (mask, accum, replace, out)."""

    shape: tuple
    tdtype: np.dtype
    lib: Callable
    ref: Callable
    inputs: tuple = ()
    needs_out: bool = False
    rtol: float = 0.0


def float_rtol(monoid, dtype):
    """A tolerance only where the summation order may differ (plus/times on floats)."""
    if np.dtype(dtype).kind == "f" and monoid.name in ("plus", "times"):
        return 1e-5
    return 0.0


def snapshot(objs):
    return [ref.from_semiring(o) for o in objs]


def assert_unchanged(objs, snaps):
    for o, s in zip(objs, snaps):
        ref.assert_same(o, s)
