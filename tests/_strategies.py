"""Hypothesis strategies for random sparse Vectors and Matrices, and the write-step grid.

Every dtype semiring stores is drawn. Values are mostly small (integers in [-3, 3], [0, 3]
unsigned, floats in multiples of 1/4 in [-2, 2]), where arithmetic is exact and zeros are
frequent (explicit zeros are entries, and false in a value mask); about one value in eight is
taken where the rules are sharp: a type's extremes (integer min/max and their neighbours, where
arithmetic wraps around; the largest finite floats, where sums overflow) and, for floats, NaN,
+-inf and -0.0. Dimensions are mostly 0..5, where the corner cases live, and now and then up to
40 (vectors: 16..40 often, where a vector with few entries is kept in sparse form).
"""

from __future__ import annotations

import dataclasses
from typing import Callable

import numpy as np
import pytest
from hypothesis import strategies as st

import semiring as sr
from semiring.exceptions import DomainMismatch, InvalidValue
from semiring.testing import reference as ref

DTYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64")
_small_dims = st.one_of(st.integers(0, 5), st.integers(1, 5), st.integers(1, 5))
#: Matrix dimensions: tiny (0..5, rarely 0), and about one in ten 6..40.
dims = st.one_of(*([_small_dims] * 9), st.integers(6, 40))
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


def small_values(dtype):
    """Small values only: integer arithmetic on them never overflows, float arithmetic is exact."""
    d = np.dtype(dtype)
    if d.kind == "b":
        return st.booleans()
    # Hypothesis draws 0 often (about one value in three): explicit zeros are common.
    if d.kind == "u":
        return st.integers(0, 3)
    if d.kind == "i":
        return st.integers(-3, 3)
    return st.integers(-8, 8).map(lambda v: v / 4)


def extreme_values(dtype):
    """The values where a type's rules are sharp: its extremes (and, for floats, NaN, +-inf, -0.0)."""
    d = np.dtype(dtype)
    if d.kind == "b":
        return st.booleans()
    if d.kind == "f":
        big = float(np.finfo(d).max)
        return st.sampled_from((np.nan, np.inf, -np.inf, -0.0, big, -big, big / 2, -big / 3))
    info = np.iinfo(d)
    return st.sampled_from(sorted({int(info.min), int(info.min) + 1, int(info.max) - 1, int(info.max)}))


def values(dtype):
    """Mostly small values, about one in eight an extreme one (see the module docstring)."""
    return st.one_of(*([small_values(dtype)] * 7), extreme_values(dtype))


def scalars(dtype):
    """A NumPy scalar of ``dtype`` (keeps its dtype when bound to an operator)."""
    d = np.dtype(dtype)
    return values(d).map(lambda v: d.type(v))


@st.composite
def _positions(draw, npos):
    """Sorted present positions out of ``npos``: none, all, about half, about 3/4, or a few;
    past 256 positions none, a few or up to 120 scattered ones."""
    modes = ("empty", "full", "half", "dense", "dense", "few") if npos <= 256 else ("empty", "few", "some")
    mode = draw(st.sampled_from(modes))
    if mode == "empty" or npos == 0:
        return []
    if mode == "full":
        return list(range(npos))
    if mode in ("few", "some"):
        cap = 6 if mode == "few" else 120
        return sorted(draw(st.lists(st.integers(0, npos - 1), unique=True, max_size=cap)))
    flags = st.booleans() if mode == "half" else st.integers(0, 3).map(bool)
    return [p for p, hit in enumerate(draw(st.lists(flags, min_size=npos, max_size=npos))) if hit]


def _dtype(draw, dtype):
    if dtype is None:
        return np.dtype(draw(dtypes))
    if isinstance(dtype, st.SearchStrategy):
        return np.dtype(draw(dtype))
    return np.dtype(dtype)


@st.composite
def vectors(draw, size=None, dtype=None, elements=values):
    """A random sparse ``sr.Vector`` (size drawn from ``vec_dims`` unless given; values drawn by
    ``elements(dtype)``, e.g. ``small_values``)."""
    size = draw(vec_dims) if size is None else size
    d = _dtype(draw, dtype)
    idx = draw(_positions(size))
    vals = draw(st.lists(elements(d), min_size=len(idx), max_size=len(idx)))
    return sr.Vector.from_coo(np.array(idx, dtype=np.int64), np.array(vals, dtype=d), size=size, dtype=d)


@st.composite
def matrices(draw, nrows=None, ncols=None, dtype=None, elements=values):
    """A random sparse ``sr.Matrix`` (dimensions drawn from ``dims`` unless given; values as for
    :func:`vectors`)."""
    nrows = draw(dims) if nrows is None else nrows
    ncols = draw(dims) if ncols is None else ncols
    d = _dtype(draw, dtype)
    keys = draw(_positions(nrows * ncols))
    vals = draw(st.lists(elements(d), min_size=len(keys), max_size=len(keys)))
    rows = np.array([p // ncols for p in keys], dtype=np.int64)
    cols = np.array([p % ncols for p in keys], dtype=np.int64)
    return sr.Matrix.from_coo(rows, cols, np.array(vals, dtype=d), nrows=nrows, ncols=ncols, dtype=d)


def containers(shape, dtype=None):
    return vectors(shape[0], dtype) if len(shape) == 1 else matrices(shape[0], shape[1], dtype)


def out_dtypes(tdtype):
    """Output dtypes T may be written into: every one (a value C leaves undefined there, such as
    NaN or -1.0 into an unsigned type, is the reference's Undefined: the library raises)."""
    return DTYPES


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


def reference_outcome(ref_call):
    """The reference's result, or the DomainMismatch / InvalidValue it raised (no common type, an
    operator that does not take the type, a NaN in a value mask)."""
    try:
        return ref_call()
    except (DomainMismatch, InvalidValue) as exc:
        return exc


def check_against_reference(lib_call, expected, *, rtol=0.0, watched=(), out=None):
    """Call the library and hold it to the reference's outcome ``expected``:

    - an exception: the library raises DomainMismatch or InvalidValue and changes nothing;
    - a result with an undefined typecast in a value it keeps (``expect_raise == "must"``): the
      library raises InvalidValue and changes nothing; one elsewhere (``"may"``): it raises so,
      or returns what the reference says (an Undefined value accepts anything);
    - otherwise the library returns (into ``out``, when given) what the reference says.

    ``watched`` are inputs that must come out unchanged. Returns the library's result, or None
    when it raised."""
    objs = list(watched) + ([out] if out is not None else [])
    before = snapshot(objs)
    if isinstance(expected, Exception):
        with pytest.raises((DomainMismatch, InvalidValue)):
            lib_call()
        assert_unchanged(objs, before)
        return None
    state = ref.expect_raise(expected)
    try:
        got = lib_call()
    except InvalidValue as exc:
        if state is None:
            raise AssertionError(f"the library raised {exc!r} where the reference computes {expected!r}") from exc
        assert_unchanged(objs, before)
        return None
    assert state != "must", f"expected InvalidValue: a value the output keeps has an undefined typecast: {expected!r}"
    if out is not None:
        assert got is out, "with out=, the operation must write into out and return it"
    ref.assert_same(got, expected, rtol=rtol)
    assert_unchanged(watched, before[:len(watched)])
    return got


@st.composite
def clique_graphs(draw, min_clique=65, max_clique=72, max_rest=40):
    """A graph that needs 64 or more colours: a clique of ``min_clique..max_clique`` vertices
    (more colours than the bits of one 64-bit word, where a colouring that keeps its neighbours'
    colours in a bitset moves to a second word) embedded among up to ``max_rest`` other vertices,
    with random sparse edges everywhere (self-loops too) and the vertices shuffled.

    Returns ``(n, rows, cols, clique)``: int64 edge arrays, symmetric (each edge both ways), and
    the clique's size (a lower bound on the colours)."""
    k = draw(st.integers(min_clique, max_clique))
    n = k + draw(st.integers(0, max_rest))
    perm = np.array(draw(st.permutations(range(n))), dtype=np.int64)
    members = perm[:k]
    r, c = np.meshgrid(members, members, indexing="ij")
    off = r != c
    extra = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=2 * n))
    er = np.array([u for u, _ in extra], dtype=np.int64)
    ec = np.array([v for _, v in extra], dtype=np.int64)
    rows = np.concatenate([r[off], er, ec])
    cols = np.concatenate([c[off], ec, er])
    return n, rows, cols, k
