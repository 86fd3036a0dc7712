"""python-graphblas interop (``sr.io.from_graphblas`` / ``sr.io.to_graphblas``), and
python-graphblas (SuiteSparse:GraphBLAS) as an oracle for semiring's products.

- Round trips keep every dtype, explicit zeros, shapes (empty ones included) and positions;
  a graphblas object built independently from the same coordinates is equal to the export.
- mxv, vxm and mxm over several semirings, with every mask kind, with and without accum and
  replace, into an output that already holds entries: semiring's result equals the one
  SuiteSparse:GraphBLAS computes on the converted objects, entry for entry and in dtype.

python-graphblas is in the ``test`` extra; without it these tests fail under CI=true and skip
elsewhere.
"""

from __future__ import annotations

import os
import sys
import zlib

import numpy as np
import pytest

import semiring as sr
from semiring import BackendUnavailable, DomainMismatch, InvalidValue
from _sparsevalues import random_pattern, sample_values

try:
    import graphblas as gb
except ImportError as exc:  # pragma: no cover - python-graphblas is a test dependency
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true and python-graphblas is missing (it is in the test extra): {exc}", pytrace=False)
    pytest.skip(f"python-graphblas is not installed: {exc}", allow_module_level=True)

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64"]


def _gb_coo(G):
    """(rows, cols, values) of a graphblas Matrix, row-major, as NumPy int64/values."""
    r, c, v = G.to_coo(sort=True)
    return r.astype(np.int64), c.astype(np.int64), v


# ---------------------------------------------------------------------------------------------
# round trips
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", DTYPES)
def test_matrix_round_trip_keeps_dtype_zeros_and_positions(dtype):
    rng = np.random.default_rng(zlib.crc32(dtype.encode()))
    r, c = random_pattern(rng, 9, 7, 0.4)
    vals = sample_values(dtype, r.size, rng, scale=1e3)
    assert (vals == 0).any()
    A = sr.Matrix.from_coo(r, c, vals, nrows=9, ncols=7)
    G = sr.io.to_graphblas(A)
    assert isinstance(G, gb.Matrix)
    assert (G.nrows, G.ncols, G.nvals) == (9, 7, r.size)  # explicit zeros are entries there too
    assert G.dtype.np_type == np.dtype(dtype)
    # equal to the graphblas matrix built from the same coordinates by graphblas itself
    assert G.isequal(gb.Matrix.from_coo(r, c, vals, dtype=dtype, nrows=9, ncols=7), check_dtype=True)
    gr, gc, gv = _gb_coo(G)
    np.testing.assert_array_equal(gr, r)
    np.testing.assert_array_equal(gc, c)
    np.testing.assert_array_equal(gv, vals)
    B = sr.io.from_graphblas(G)
    assert isinstance(B, sr.Matrix) and B.device == "cpu"
    assert B.isequal(A, check_dtype=True) and B.nvals == r.size


@pytest.mark.parametrize("dtype", DTYPES)
def test_vector_round_trip_keeps_dtype_zeros_and_positions(dtype):
    rng = np.random.default_rng(zlib.crc32(b"v" + dtype.encode()))
    for size, k in [(40, 5), (40, 35), (1, 1), (6, 0), (0, 0)]:
        idx = np.sort(rng.choice(size, k, replace=False)).astype(np.int64)
        vals = sample_values(dtype, k, rng, scale=1e3)
        u = sr.Vector.from_coo(idx, vals, size=size)
        g = sr.io.to_graphblas(u)
        assert isinstance(g, gb.Vector)
        assert (g.size, g.nvals) == (size, k) and g.dtype.np_type == np.dtype(dtype)
        assert g.isequal(gb.Vector.from_coo(idx, vals, dtype=dtype, size=size), check_dtype=True)
        v = sr.io.from_graphblas(g)
        assert isinstance(v, sr.Vector)
        assert v.isequal(u, check_dtype=True) and v.nvals == k
        i, x = v.to_coo()
        np.testing.assert_array_equal(i, idx)
        np.testing.assert_array_equal(x, vals)


def test_from_graphblas_reads_graphblas_built_objects():
    # built on the graphblas side, with an explicit zero at (1, 2) and an empty row 2
    G = gb.Matrix.from_coo([1, 0, 1, 3], [2, 3, 0, 1], [0, 7, -4, 9], nrows=4, ncols=4, dtype="int16")
    A = sr.io.from_graphblas(G)
    assert A.dtype == np.int16 and A.shape == (4, 4) and A.nvals == 4
    r, c, v = A.to_coo()
    assert r.tolist() == [0, 1, 1, 3] and c.tolist() == [3, 0, 2, 1] and v.tolist() == [7, -4, 0, 9]
    assert A.get(1, 2) == 0 and A.get(2, 2) is None
    g = gb.Vector.from_coo([4, 0], [True, False], size=6)
    u = sr.io.from_graphblas(g)
    assert u.dtype == np.bool_ and u.to_coo()[0].tolist() == [0, 4] and u.to_coo()[1].tolist() == [False, True]


def test_from_graphblas_iso_transposed_and_expressions():
    iso = gb.Matrix.from_coo([0, 1, 2], [2, 0, 1], 1.5, nrows=3, ncols=3)  # one value for all: iso-valued
    A = sr.io.from_graphblas(iso)
    assert A.to_coo()[2].tolist() == [1.5, 1.5, 1.5]
    T = sr.io.from_graphblas(iso.T)  # a TransposedMatrix
    assert T.isequal(A.T, check_dtype=True)
    v = gb.Vector.from_coo([2], [2.0], size=3)
    w = sr.io.from_graphblas(iso.mxv(v, gb.semiring.plus_times))  # an unevaluated expression
    # row 0 has (0, 2) = 1.5 and v(2) = 2: 3.0; no other row meets v's entry
    assert w.to_coo()[0].tolist() == [0] and w.to_coo()[1].tolist() == [3.0]


def test_from_graphblas_dtype_and_device_options():
    G = gb.Matrix.from_coo([0, 1], [1, 0], [3, 250], nrows=2, ncols=2)
    A = sr.io.from_graphblas(G, dtype="uint8")
    assert A.dtype == np.uint8 and A.to_coo()[2].tolist() == [3, 250]
    B = sr.io.from_graphblas(G, dtype=bool)
    assert B.dtype == np.bool_ and B.to_coo()[2].tolist() == [True, True]
    with pytest.raises(InvalidValue, match="device"):
        sr.io.from_graphblas(G, device="tpu")


@pytest.mark.parametrize("shape", [(0, 0), (3, 0), (0, 4), (5, 6)])
def test_empty_and_degenerate_shapes(shape):
    A = sr.Matrix(*shape, dtype="float32")
    G = sr.io.to_graphblas(A)
    assert (G.nrows, G.ncols, G.nvals) == shape + (0,) and G.dtype.np_type == np.float32
    B = sr.io.from_graphblas(gb.Matrix("int8", *shape))
    assert B.shape == shape and B.nvals == 0 and B.dtype == np.int8


def test_errors_say_what_was_expected():
    with pytest.raises(InvalidValue, match=r"expected a graphblas.Matrix or graphblas.Vector; given Scalar"):
        sr.io.from_graphblas(gb.Scalar.from_value(1.0))
    with pytest.raises(InvalidValue, match=r"expected a graphblas.Matrix or graphblas.Vector; given ndarray"):
        sr.io.from_graphblas(np.eye(2))
    with pytest.raises(DomainMismatch, match=r"expected one of bool, .*; given complex128"):
        sr.io.from_graphblas(gb.Matrix.from_coo([0], [0], [1 + 2j], nrows=1, ncols=1))
    with pytest.raises(InvalidValue, match=r"expected a semiring Matrix or Vector; given csr_array"):
        import scipy.sparse as sp

        sr.io.to_graphblas(sp.csr_array(np.eye(2)))


def test_missing_graphblas_is_backend_unavailable(monkeypatch):
    monkeypatch.setitem(sys.modules, "graphblas", None)  # makes ``import graphblas`` raise ImportError
    with pytest.raises(BackendUnavailable, match=r"to_graphblas needs python-graphblas \(pip install python-graphblas\)"):
        sr.io.to_graphblas(sr.Vector(3))
    with pytest.raises(BackendUnavailable, match=r"from_graphblas needs python-graphblas"):
        sr.io.from_graphblas(object())


def test_export_is_independent_of_the_matrix():
    """graphblas holds its own copy: changing the export leaves the matrix as it was."""
    A = sr.Matrix.from_coo([0, 1], [1, 1], [1.0, 2.0], nrows=2, ncols=2)
    G = sr.io.to_graphblas(A)
    G[0, 1] << 9.0
    G[0, 0] << 4.0
    assert A.to_coo()[2].tolist() == [1.0, 2.0] and A.nvals == 2


# ---------------------------------------------------------------------------------------------
# python-graphblas as the oracle of the products, the masks, accum and replace
# ---------------------------------------------------------------------------------------------
#: (semiring name, value dtype). plus_times on integers (exact, whatever the order of the sum);
#: min_plus and max_second on floats (exact: min/max pick one term); any_pair and lor_land on bool.
SEMIRINGS = [("plus_times", "int64"), ("min_plus", "float64"), ("max_second", "float64"),
             ("min_plus", "int32"), ("any_pair", "bool"), ("lor_land", "bool"), ("plus_pair", "int64")]
MASKS = [None, "S", "V", "~S", "~V"]
ACCUMS = [None, "plus", "min"]


def _random(rng, shape, density, dtype):
    """A semiring object and its graphblas twin (built by graphblas from the same coordinates);
    values include explicit zeros (False for bool), so value masks differ from structural ones."""
    if len(shape) == 1:
        idx = np.flatnonzero(rng.random(shape[0]) < density)
        vals = rng.integers(-3, 6, idx.size).astype(dtype)
        return (sr.Vector.from_coo(idx, vals, size=shape[0], dtype=dtype),
                gb.Vector.from_coo(idx, vals, dtype=dtype, size=shape[0]))
    r, c = random_pattern(rng, *shape, density)
    vals = rng.integers(-3, 6, r.size).astype(dtype)
    return (sr.Matrix.from_coo(r, c, vals, nrows=shape[0], ncols=shape[1], dtype=dtype),
            gb.Matrix.from_coo(r, c, vals, dtype=dtype, nrows=shape[0], ncols=shape[1]))


def _typed(name, dtype):
    """The GraphBLAS semiring of that name for ``dtype`` (``GxB_ANY_PAIR_BOOL``, ...): named by
    type because python-graphblas otherwise computes some semirings on bool in int64."""
    return getattr(gb.semiring, name)[np.dtype(dtype)]


def _masks(sr_m, gb_m, kind):
    if kind is None:
        return None, None
    base = kind.lstrip("~")
    a, b = getattr(sr_m, base), getattr(gb_m, base)
    return (~a, ~b) if kind.startswith("~") else (a, b)


def _agree(semiring_name, dtype, mask, accum, replace, product, seed):
    if replace and mask is None:
        return  # replace=True needs a mask in both libraries
    if accum is not None and np.dtype(dtype) == np.bool_:
        accum = {"plus": "lor", "min": "land"}[accum]
    rng = np.random.default_rng(seed)
    m, k, n = 13, 11, 9
    gsem = _typed(semiring_name, dtype)
    A, gA = _random(rng, (m, k), 0.3, dtype)
    if product == "mxv":
        u, gu = _random(rng, (k,), 0.5, dtype)
        out_shape, args, gexpr = (m,), (A, u), gA.mxv(gu, gsem)
    elif product == "vxm":
        u, gu = _random(rng, (m,), 0.5, dtype)
        out_shape, args, gexpr = (k,), (u, A), gu.vxm(gA, gsem)
    else:
        B, gB = _random(rng, (k, n), 0.3, dtype)
        out_shape, args, gexpr = (m, n), (A, B), gA.mxm(gB, gsem)
    C, gC = _random(rng, out_shape, 0.4, dtype)  # the output holds entries before the write
    M, gM = _random(rng, out_shape, 0.5, "int64")  # explicit zeros: V differs from S
    sm, gm = _masks(M, gM, mask)
    kw = {"mask": sm, "replace": replace, "out": C}
    gkw = {"mask": gm, "replace": replace}
    if accum is not None:
        kw["accum"] = getattr(sr.binary, accum)
        gkw["accum"] = getattr(gb.binary, accum)
    got = getattr(sr, product)(*args, getattr(sr.semirings, semiring_name), **kw)
    assert got is C
    gC(**gkw) << gexpr
    expected = sr.io.from_graphblas(gC)
    assert got.isequal(expected, check_dtype=True), (
        f"{product} {semiring_name} {dtype} mask={mask} accum={accum} replace={replace}:\n"
        f"semiring {got.to_coo()}\ngraphblas {expected.to_coo()}")


@pytest.mark.parametrize("product", ["mxv", "vxm", "mxm"])
@pytest.mark.parametrize("semiring_name,dtype", SEMIRINGS)
def test_products_agree_with_graphblas(product, semiring_name, dtype):
    for mask in MASKS:
        for accum in ACCUMS:
            for replace in (False, True):
                seed = zlib.crc32(f"{product}-{semiring_name}-{dtype}-{mask}-{accum}-{replace}".encode())
                _agree(semiring_name, dtype, mask, accum, replace, product, seed)


@pytest.mark.parametrize("semiring_name,dtype", [("min_plus", "float64"), ("any_pair", "bool")])
def test_new_output_agrees_with_graphblas(semiring_name, dtype):
    """Without ``out=``: a new object with the mask applied (graphblas: ``.new(mask=...)``)."""
    rng = np.random.default_rng(7)
    A, gA = _random(rng, (20, 20), 0.2, dtype)
    u, gu = _random(rng, (20,), 0.3, dtype)
    M, gM = _random(rng, (20,), 0.5, "int64")
    sem, gsem = getattr(sr.semirings, semiring_name), _typed(semiring_name, dtype)
    for kind in MASKS:
        sm, gm = _masks(M, gM, kind)
        got = sr.mxv(A, u, sem, mask=sm)
        expected = sr.io.from_graphblas(gA.mxv(gu, gsem).new(mask=gm))
        assert got.isequal(expected, check_dtype=True), kind
