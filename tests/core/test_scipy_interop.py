"""Interoperability with scipy.sparse and NumPy, and agreement with scipy as an oracle.

- Matrix <-> scipy.sparse round trips keep values, explicit (stored) zeros and every one of the
  11 supported dtypes; non-canonical input (unsorted indices, duplicates) is handled.
- to_coo/from_coo, to_dense/from_dense round trips for Matrix and Vector; Vector bitmap and
  sparse storage hold the same contents.
- ``plus_times`` products, the transpose and row sums agree with scipy's ``@``, ``.T`` and
  ``.sum(axis=1)`` (including Hypothesis-generated shapes and densities).
"""

from __future__ import annotations

import zlib

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import semiring as sr
from semiring import InvalidValue
from _sparsevalues import random_pattern, sample_values

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64"]
PT = sr.semirings.plus_times


# ---------------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------------
def scipy_entries(S):
    """(rows, cols, values) of a scipy sparse matrix, row-major, duplicates NOT summed."""
    C = sp.coo_array(S)
    order = np.lexsort((C.col, C.row))
    return C.row[order].astype(np.int64), C.col[order].astype(np.int64), np.asarray(C.data)[order]


def assert_entries(A, rows, cols, vals):
    r, c, v = A.to_coo()
    np.testing.assert_array_equal(r, rows)
    np.testing.assert_array_equal(c, cols)
    assert v.dtype == np.asarray(vals).dtype
    np.testing.assert_array_equal(v, vals)


def random_scipy(rng, m, n, density, dtype, explicit_zeros=True):
    r, c = random_pattern(rng, m, n, density)
    if np.dtype(dtype).kind == "f":
        vals = rng.integers(-9, 10, r.size).astype(dtype) + np.asarray(rng.random(r.size), dtype) / 4
    else:
        vals = rng.integers(-9, 10, r.size).astype(dtype)
    if explicit_zeros:
        vals[::5] = 0
    return sp.csr_array((vals, (r, c)), shape=(m, n))


def pattern_counts(S):
    """An int64 copy of S with 1 at every stored entry (explicit zeros included)."""
    P = sp.csr_array(S, copy=True).astype(np.int64)
    P.data[:] = 1
    return P


# ---------------------------------------------------------------------------------------------
# Matrix <-> scipy.sparse
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fmt", ["csr_array", "csr_matrix", "csc_array", "csc_matrix", "coo_array",
                                 "coo_matrix"])
def test_from_scipy_keeps_values_zeros_and_dtype(dtype, fmt):
    rng = np.random.default_rng(zlib.crc32(f"{dtype}-{fmt}".encode()))
    m, n = 7, 5
    r, c = random_pattern(rng, m, n, 0.5)
    vals = sample_values(dtype, r.size, rng)
    assert (vals == 0).any()
    S = getattr(sp, fmt)((vals, (r, c)), shape=(m, n))
    assert S.nnz == r.size  # scipy kept the explicit zeros
    A = sr.Matrix.from_scipy(S)
    assert A.shape == (m, n)
    assert A.dtype == np.dtype(dtype)
    assert A.nvals == r.size  # explicit zeros are entries
    order = np.lexsort((c, r))
    assert_entries(A, r[order], c[order], vals[order])


@pytest.mark.parametrize("dtype", DTYPES)
def test_to_scipy_keeps_values_zeros_and_dtype(dtype):
    rng = np.random.default_rng(1)
    r, c = random_pattern(rng, 6, 9, 0.4)
    vals = sample_values(dtype, r.size, rng)
    A = sr.Matrix.from_coo(r, c, vals, nrows=6, ncols=9)
    S = A.to_scipy()
    assert isinstance(S, sp.csr_array)
    assert S.shape == (6, 9)
    assert S.dtype == np.dtype(dtype)
    assert S.nnz == r.size  # stored zeros survive export
    assert S.has_sorted_indices
    rr, cc, vv = scipy_entries(S)
    np.testing.assert_array_equal(rr, r)
    np.testing.assert_array_equal(cc, c)
    np.testing.assert_array_equal(vv, vals)
    # and back
    B = sr.Matrix.from_scipy(S)
    assert B.dtype == np.dtype(dtype)
    assert_entries(B, r, c, vals)


@pytest.mark.parametrize("cls", [sp.csr_array, sp.csr_matrix])
def test_round_trip_csr_identical_arrays(cls):
    data = np.array([0.0, 1.5, -2.0, 0.0, 3.0])
    indices = np.array([0, 2, 1, 3, 0], dtype=np.int32)
    indptr = np.array([0, 2, 2, 4, 5], dtype=np.int32)
    S = cls((data, indices, indptr), shape=(4, 4))
    T = sr.Matrix.from_scipy(S).to_scipy()
    # the canonical sorted form of S, by hand: row 2 has cols 1, 3 (already sorted)
    np.testing.assert_array_equal(T.indptr, [0, 2, 2, 4, 5])
    np.testing.assert_array_equal(T.indices, [0, 2, 1, 3, 0])
    np.testing.assert_array_equal(T.data, data)
    assert T.nnz == 5


def test_from_scipy_of_unsorted_input_copies_and_leaves_it_alone():
    S = sp.csr_array((np.array([1.0, 2.0, 3.0]), np.array([2, 0, 1]), np.array([0, 2, 3])), shape=(2, 3))
    data0, ind0, ptr0 = S.data.copy(), S.indices.copy(), S.indptr.copy()
    A = sr.Matrix.from_scipy(S)
    np.testing.assert_array_equal(S.data, data0)
    np.testing.assert_array_equal(S.indices, ind0)  # not sorted in place
    np.testing.assert_array_equal(S.indptr, ptr0)
    S.data[:] = 99.0  # not canonical: the matrix was built from a sorted copy
    assert A.to_coo()[2].tolist() == [2.0, 1.0, 3.0]
    # canonical input with copy=True: independent of S
    K = sp.csr_array(np.array([[0.0, 4.0], [5.0, 0.0]]))
    B = sr.Matrix.from_scipy(K, copy=True)
    K.data[:] = -1.0
    K.indices[:] = 0
    assert_entries(B, [0, 1], [1, 0], np.array([4.0, 5.0]))
    # and a writable export (copy=True) is a copy
    E = B.to_scipy(copy=True)
    E.data[:] = 7.0
    assert_entries(B, [0, 1], [1, 0], np.array([4.0, 5.0]))


def test_from_scipy_unsorted_indices():
    # row 0 lists cols 2, 0; row 1 lists col 1
    S = sp.csr_array((np.array([1.0, 2.0, 3.0]), np.array([2, 0, 1]), np.array([0, 2, 3])), shape=(2, 3))
    assert not S.has_sorted_indices
    A = sr.Matrix.from_scipy(S)
    assert_entries(A, [0, 0, 1], [0, 2, 1], np.array([2.0, 1.0, 3.0]))
    assert A.get(0, 2) == 1.0 and A.get(0, 0) == 2.0 and A.get(0, 1) is None


@pytest.mark.parametrize("fmt", ["csr", "coo", "csc"])
def test_from_scipy_duplicates(fmt):
    # (0, 1) given twice: 1 and 2; (1, 0) once: 3
    if fmt == "csr":
        S = sp.csr_array((np.array([1, 2, 3]), np.array([1, 1, 0]), np.array([0, 2, 3])), shape=(2, 3))
    elif fmt == "csc":
        S = sp.csc_array((np.array([3, 1, 2]), np.array([1, 0, 0]), np.array([0, 1, 3, 3])), shape=(2, 3))
    else:
        S = sp.coo_array((np.array([1, 3, 2]), (np.array([0, 1, 0]), np.array([1, 0, 1]))), shape=(2, 3))
    before = scipy_entries(S)
    with pytest.raises(InvalidValue, match=r"duplicate entries at \(row 0, col 1\)"):
        sr.Matrix.from_scipy(S)
    after = scipy_entries(S)
    for x, y in zip(before, after):
        np.testing.assert_array_equal(x, y)  # S not summed in place
    A = sr.Matrix.from_scipy(S, dup_op=sr.binary.plus)
    assert_entries(A, [0, 1], [1, 0], np.array([3, 3]))
    B = sr.Matrix.from_scipy(S, dup_op=sr.binary.max)
    assert_entries(B, [0, 1], [1, 0], np.array([2, 3]))


def test_from_scipy_other_formats():
    D = np.array([[0.0, 1.0, 0.0], [2.0, 0.0, 3.0]])
    for S in (sp.lil_array(D), sp.dok_array(D), sp.dia_array(D), sp.bsr_array(D)):
        A = sr.Matrix.from_scipy(S)
        np.testing.assert_array_equal(A.to_dense(0.0), D)
        assert A.nvals == sp.coo_array(S).nnz  # whatever scipy stores is an entry


def test_from_scipy_with_dtype():
    S = sp.csr_array(np.array([[0, 3], [250, 0]], dtype=np.int64))
    A = sr.Matrix.from_scipy(S, dtype="uint8")
    assert A.dtype == np.uint8
    assert_entries(A, [0, 1], [1, 0], np.array([3, 250], np.uint8))
    B = sr.Matrix.from_scipy(S, dtype=bool)
    assert_entries(B, [0, 1], [1, 0], np.array([True, True]))


def test_from_scipy_empty_and_degenerate_shapes():
    for shape in [(0, 0), (3, 0), (0, 4), (3, 4)]:
        A = sr.Matrix.from_scipy(sp.csr_array(shape, dtype=np.float64))
        assert A.shape == shape and A.nvals == 0
        S = A.to_scipy()
        assert S.shape == shape and S.nnz == 0


def test_to_scipy_of_bool_pattern():
    A = sr.Matrix.from_coo([0, 2], [1, 1], nrows=3, ncols=2)  # values=None: bool True pattern
    S = A.to_scipy()
    assert S.dtype == np.bool_
    np.testing.assert_array_equal(S.toarray(), [[False, True], [False, False], [False, True]])


# ---------------------------------------------------------------------------------------------
# to_coo / from_coo / to_dense / from_dense round trips
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", DTYPES)
def test_matrix_coo_round_trip(dtype):
    rng = np.random.default_rng(2)
    r, c = random_pattern(rng, 5, 8, 0.3)
    perm = rng.permutation(r.size)
    vals = sample_values(dtype, r.size, rng)
    A = sr.Matrix.from_coo(r[perm], c[perm], vals[perm], nrows=5, ncols=8)
    assert A.dtype == np.dtype(dtype) and A.nvals == r.size
    assert_entries(A, r, c, vals)  # row-major order regardless of input order
    rr, cc, vv = A.to_coo()
    B = sr.Matrix.from_coo(rr, cc, vv, nrows=5, ncols=8)
    assert B.isequal(A, check_dtype=True)
    rr[:] = 0  # to_coo returns copies
    assert_entries(A, r, c, vals)


@pytest.mark.parametrize("dtype", DTYPES)
def test_vector_coo_round_trip(dtype):
    rng = np.random.default_rng(3)
    for size, k in [(50, 3), (50, 40), (1, 1), (0, 0)]:
        idx = np.sort(rng.choice(size, k, replace=False)).astype(np.int64)
        vals = sample_values(dtype, k, rng)
        perm = rng.permutation(k)
        v = sr.Vector.from_coo(idx[perm], vals[perm], size=size)
        assert v.dtype == np.dtype(dtype) and v.nvals == k and v.size == size
        i, x = v.to_coo()
        np.testing.assert_array_equal(i, idx)
        assert x.dtype == np.dtype(dtype)
        np.testing.assert_array_equal(x, vals)
        assert sr.Vector.from_coo(i, x, size=size).isequal(v, check_dtype=True)


@pytest.mark.parametrize("dtype", DTYPES)
def test_dense_round_trips(dtype):
    rng = np.random.default_rng(4)
    D = sample_values(dtype, 12, rng).reshape(3, 4)
    A = sr.Matrix.from_dense(D)
    assert A.nvals == 12 and A.dtype == np.dtype(dtype)  # zeros included: every position present
    out = A.to_dense()
    assert out.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(out, D)
    v = sr.Vector.from_dense(D[1])
    assert v.nvals == 4 and v.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(v.to_dense(), D[1])


def test_dense_with_missing_and_fill():
    D = np.array([[1, 0, 3], [0, 0, 6]])
    A = sr.Matrix.from_dense(D, missing=0)
    assert_entries(A, [0, 0, 1], [0, 2, 2], np.array([1, 3, 6]))
    np.testing.assert_array_equal(A.to_dense(0), D)
    F = A.to_dense(np.inf)
    assert F.dtype == np.float64
    np.testing.assert_array_equal(F, [[1, np.inf, 3], [np.inf, np.inf, 6]])
    v = sr.Vector.from_dense([5, -1, 7, -1], missing=-1)
    assert v.to_coo()[0].tolist() == [0, 2]
    np.testing.assert_array_equal(v.to_dense(-1), [5, -1, 7, -1])
    assert v.to_dense(np.inf).dtype == np.float64


def test_vector_from_dense_missing_nan():
    # missing=nan should drop the NaN positions (NaN != NaN, so a naive ``arr != missing`` keeps them)
    v = sr.Vector.from_dense(np.array([1.0, np.nan, 2.0]), missing=np.nan)
    assert v.to_coo()[0].tolist() == [0, 2]


def test_vector_from_dense_bool_via_dtype():
    v = sr.Vector.from_dense(np.array([0.0, 2.5, -1.0]), dtype=bool)
    assert v.dtype == np.bool_ and v.to_coo()[1].tolist() == [False, True, True]


# ---------------------------------------------------------------------------------------------
# Vector storage: bitmap versus sparse
# ---------------------------------------------------------------------------------------------
def test_vector_format_by_density():
    assert sr.Vector.from_dense(np.arange(10.0)).format == "bitmap"
    assert sr.Vector.from_coo([3], [1.0], size=1000).format == "sparse"
    assert sr.Vector.from_coo(np.arange(900), 1.0, size=1000).format == "bitmap"
    assert sr.Vector(100).format == "sparse"


def test_vector_format_switches_with_content():
    w = sr.Vector.from_coo([2], [1], size=100)
    assert w.format == "sparse"
    sr.assign(w, 7, None)  # every position
    assert w.format == "bitmap" and w.nvals == 100
    np.testing.assert_array_equal(w.to_dense(), np.full(100, 7))
    sr.select(w, sr.indexunary.rowle, 0, out=w)  # keep only index 0
    assert w.nvals == 1 and w.format == "sparse"
    assert w.to_coo()[0].tolist() == [0] and w.to_coo()[1].tolist() == [7]


def _both_formats(monkeypatch, build):
    """Build the same vector once forced to sparse storage and once forced to bitmap."""
    monkeypatch.setattr(sr.Vector, "BITMAP_DENSITY", 2.0)  # never bitmap
    sparse = build()
    monkeypatch.setattr(sr.Vector, "BITMAP_DENSITY", 0.0)  # bitmap as soon as non-empty
    bitmap = build()
    monkeypatch.undo()
    return sparse, bitmap


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint64", "float32", "float64"])
def test_vector_contents_identical_in_both_formats(monkeypatch, dtype):
    rng = np.random.default_rng(5)
    idx = np.array([1, 4, 5, 9])
    vals = sample_values(dtype, 4, rng)
    s, b = _both_formats(monkeypatch, lambda: sr.Vector.from_coo(idx, vals, size=12))
    assert s.format == "sparse" and b.format == "bitmap"
    for x in (s, b):
        assert x.nvals == 4 and x.dtype == np.dtype(dtype) and x.size == 12
        i, v = x.to_coo()
        np.testing.assert_array_equal(i, idx)
        np.testing.assert_array_equal(v, vals)
        assert x.get(4) == vals[1] and x.get(0) is None and x.get(11, "absent") == "absent"
    np.testing.assert_array_equal(s.to_dense(0), b.to_dense(0))
    assert s.isequal(b, check_dtype=True) and b.isequal(s)


def test_operations_agree_across_formats(monkeypatch):
    A = sr.Matrix.from_coo([0, 0, 1, 2, 3], [1, 3, 2, 0, 3], [1.0, 2.0, 3.0, 4.0, 5.0], nrows=4, ncols=4)
    us, ub = _both_formats(monkeypatch, lambda: sr.Vector.from_coo([1, 3], [10.0, 0.0], size=4))
    assert us.format == "sparse" and ub.format == "bitmap"
    for semiring in (PT, sr.semirings.min_plus, sr.semirings.any_secondi):
        for direction in ("push", "pull"):
            a = sr.mxv(A, us, semiring, direction=direction)
            b = sr.mxv(A, ub, semiring, direction=direction)
            assert a.isequal(b, check_dtype=True)
            a = sr.vxm(us, A, semiring, direction=direction)
            b = sr.vxm(ub, A, semiring, direction=direction)
            assert a.isequal(b, check_dtype=True)
    # plus_times by hand: row 0 = 1*10 + 2*0 = 10; row 3 = 5*0 = 0 (an explicit zero)
    i, v = sr.mxv(A, ub, PT).to_coo()
    assert i.tolist() == [0, 3] and v.tolist() == [10.0, 0.0]
    assert sr.ewise_add(us, ub, sr.binary.plus).isequal(sr.ewise_add(ub, us, sr.binary.plus))
    assert sr.reduce_scalar(us, sr.monoid.plus) == sr.reduce_scalar(ub, sr.monoid.plus) == 10.0


# ---------------------------------------------------------------------------------------------
# agreement with scipy: products, transpose, row sums
# ---------------------------------------------------------------------------------------------
def _check_mxm(SA, SB, dtype):
    A, B = sr.Matrix.from_scipy(SA), sr.Matrix.from_scipy(SB)
    C = sr.mxm(A, B, PT)
    assert C.shape == (SA.shape[0], SB.shape[1])
    assert C.dtype == np.dtype(dtype)
    expected = (SA @ SB).toarray()
    got = C.to_dense(0)
    # structure: (i, j) is present iff some k has A(i,k) and B(k,j) stored (explicit zeros count)
    terms = (pattern_counts(SA) @ pattern_counts(SB)).toarray()
    r, c, v = C.to_coo()
    present = np.zeros(C.shape, bool)
    present[r, c] = True
    np.testing.assert_array_equal(present, terms > 0)
    if np.dtype(dtype).kind == "f":
        np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-9)
        np.testing.assert_allclose(v, expected[r, c], rtol=1e-12, atol=1e-9)
    else:
        np.testing.assert_array_equal(got, expected)
        np.testing.assert_array_equal(v, expected[r, c])


def _check_mxv(SA, present, xvals, dtype):
    A = sr.Matrix.from_scipy(SA)
    idx = np.flatnonzero(present)
    u = sr.Vector.from_coo(idx, xvals[idx], size=SA.shape[1])
    dense_u = np.where(present, xvals, 0).astype(dtype)
    expected = SA @ dense_u
    rows_with_terms = (pattern_counts(SA) @ present.astype(np.int64)) > 0
    for direction in ("push", "pull"):
        w = sr.mxv(A, u, PT, direction=direction)
        assert w.dtype == np.dtype(dtype) and w.size == SA.shape[0]
        i, v = w.to_coo()
        np.testing.assert_array_equal(i, np.flatnonzero(rows_with_terms))
        if np.dtype(dtype).kind == "f":
            np.testing.assert_allclose(w.to_dense(0), expected, rtol=1e-12, atol=1e-9)
        else:
            np.testing.assert_array_equal(w.to_dense(0), expected)
    # vxm against x @ S
    ST = sp.csr_array(SA.T)
    w = sr.vxm(u, sr.Matrix.from_scipy(ST), PT)
    if np.dtype(dtype).kind == "f":
        np.testing.assert_allclose(w.to_dense(0), dense_u @ ST, rtol=1e-12, atol=1e-9)
    else:
        np.testing.assert_array_equal(w.to_dense(0), dense_u @ ST)


@pytest.mark.parametrize("dtype", ["float64", "int64"])
@pytest.mark.parametrize("m,k,n,density", [(20, 30, 10, 0.1), (15, 15, 15, 0.4), (1, 40, 1, 0.5),
                                           (30, 1, 30, 0.5), (8, 8, 8, 1.0), (5, 6, 7, 0.0)])
def test_mxm_plus_times_matches_scipy(dtype, m, k, n, density):
    rng = np.random.default_rng(m * 1000 + k * 10 + n)
    SA = random_scipy(rng, m, k, density, dtype)
    SB = random_scipy(rng, k, n, density, dtype)
    _check_mxm(SA, SB, dtype)


@pytest.mark.parametrize("dtype", ["float64", "int64"])
@pytest.mark.parametrize("m,n,density,udensity", [(25, 40, 0.1, 0.3), (40, 25, 0.3, 1.0),
                                                  (10, 10, 0.5, 0.05), (6, 9, 0.0, 0.5)])
def test_mxv_plus_times_matches_scipy(dtype, m, n, density, udensity):
    rng = np.random.default_rng(m * 100 + n)
    SA = random_scipy(rng, m, n, density, dtype)
    present = rng.random(n) < udensity
    xvals = rng.integers(-9, 10, n).astype(dtype)
    _check_mxv(SA, present, xvals, dtype)


def test_mxm_larger_random_float64():
    rng = np.random.default_rng(7)
    SA = random_scipy(rng, 200, 150, 0.05, "float64", explicit_zeros=False)
    SB = random_scipy(rng, 150, 120, 0.05, "float64", explicit_zeros=False)
    _check_mxm(SA, SB, "float64")


@st.composite
def product_case(draw):
    m = draw(st.integers(0, 12))
    k = draw(st.integers(0, 12))
    n = draw(st.integers(0, 12))
    density = draw(st.sampled_from([0.0, 0.1, 0.3, 0.6, 1.0]))
    dtype = draw(st.sampled_from(["float64", "int64"]))
    seed = draw(st.integers(0, 2**32 - 1))
    return m, k, n, density, dtype, seed


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(product_case())
def test_products_match_scipy_hypothesis(case):
    m, k, n, density, dtype, seed = case
    rng = np.random.default_rng(seed)
    SA = random_scipy(rng, m, k, density, dtype)
    SB = random_scipy(rng, k, n, density, dtype)
    _check_mxm(SA, SB, dtype)
    present = rng.random(k) < 0.5
    xvals = rng.integers(-9, 10, k).astype(dtype)
    _check_mxv(SA, present, xvals, dtype)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10), st.integers(0, 10), st.sampled_from([0.0, 0.2, 0.5, 1.0]),
       st.sampled_from(DTYPES), st.integers(0, 2**32 - 1))
def test_transpose_and_scipy_round_trip_hypothesis(m, n, density, dtype, seed):
    rng = np.random.default_rng(seed)
    r, c = random_pattern(rng, m, n, density)
    vals = sample_values(dtype, r.size, rng)
    S = sp.csr_array((vals, (r, c)), shape=(m, n))
    A = sr.Matrix.from_scipy(S)
    assert A.nvals == r.size and A.dtype == np.dtype(dtype)
    # A.T equals scipy's transpose, explicit zeros and dtype included
    T = A.T
    assert T.shape == (n, m) and T.dtype == np.dtype(dtype)
    tr, tc, tv = scipy_entries(S.T)
    assert_entries(T, tr, tc, tv)
    # sr.transpose (writable copy) too
    assert_entries(sr.transpose(A), tr, tc, tv)
    # and the export of A is S again
    rr, cc, vv = scipy_entries(A.to_scipy())
    sr_, sc, sv = scipy_entries(S)
    np.testing.assert_array_equal(rr, sr_)
    np.testing.assert_array_equal(cc, sc)
    np.testing.assert_array_equal(vv, sv)


def test_transpose_matches_scipy_fixed():
    # 3x4 with an explicit zero at (1, 1)
    rows, cols = np.array([0, 0, 1, 1, 2, 2]), np.array([1, 3, 0, 1, 2, 3])
    S = sp.csr_array((np.array([1.0, 2.0, 3.0, 0.0, 4.0, 5.0]), (rows, cols)), shape=(3, 4))
    assert S.nnz == 6
    A = sr.Matrix.from_scipy(S)
    assert A.T.nvals == 6
    expected = np.full((4, 3), -1.0)  # by hand: the transpose, -1 where absent
    expected[1, 0], expected[3, 0], expected[0, 1], expected[1, 1] = 1.0, 2.0, 3.0, 0.0
    expected[2, 2], expected[3, 2] = 4.0, 5.0
    np.testing.assert_array_equal(A.T.to_dense(-1.0), expected)
    np.testing.assert_array_equal(S.T.toarray(), np.where(expected == -1.0, 0.0, expected))
    assert A.T.T.isequal(A, check_dtype=True)  # A.T is a snapshot; its transpose equals A


@pytest.mark.parametrize("dtype", ["float64", "int64"])
def test_reduce_rowwise_plus_matches_scipy_sum(dtype):
    rng = np.random.default_rng(11)
    S = random_scipy(rng, 30, 20, 0.15, dtype)
    A = sr.Matrix.from_scipy(S)
    w = sr.reduce_rowwise(A, sr.monoid.plus)
    expected = np.asarray(S.sum(axis=1)).ravel()
    has_entries = np.diff(S.indptr) > 0
    assert not has_entries.all()  # some rows are empty: absent, not zero
    i, v = w.to_coo()
    np.testing.assert_array_equal(i, np.flatnonzero(has_entries))
    assert w.dtype == np.dtype(dtype)
    if dtype == "float64":
        np.testing.assert_allclose(v, expected[has_entries], rtol=1e-12)
    else:
        np.testing.assert_array_equal(v, expected[has_entries])
    # the column sums through the cached transpose
    wc = sr.reduce_columnwise(A, sr.monoid.plus)
    col_has = np.diff(sp.csc_array(S).indptr) > 0
    expected_c = np.asarray(S.sum(axis=0)).ravel()
    ic, vc = wc.to_coo()
    np.testing.assert_array_equal(ic, np.flatnonzero(col_has))
    np.testing.assert_allclose(vc, expected_c[col_has], rtol=1e-12)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 15), st.integers(0, 15), st.sampled_from([0.0, 0.1, 0.4, 1.0]),
       st.integers(0, 2**32 - 1))
def test_reduce_rowwise_plus_hypothesis(m, n, density, seed):
    rng = np.random.default_rng(seed)
    S = random_scipy(rng, m, n, density, "int64")
    w = sr.reduce_rowwise(sr.Matrix.from_scipy(S), sr.monoid.plus)
    has = np.diff(S.indptr) > 0
    i, v = w.to_coo()
    np.testing.assert_array_equal(i, np.flatnonzero(has))
    np.testing.assert_array_equal(v, np.asarray(S.sum(axis=1)).ravel()[has])
