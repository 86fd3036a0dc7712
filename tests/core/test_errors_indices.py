"""Error paths of indices and shapes: indices past the end or negative (constructors, assign,
extract, get), duplicates in from_coo, and dimension mismatches of every operation: the
exception type, a message that says what was expected and what was given, and no side effects.

Each case snapshots every container involved with ``to_coo()`` before the call and compares
after it raised (GraphBLAS C API 2.0, section 2.6: an API error leaves the output unmodified);
``raises`` in tests/_errorcases.py, the containers ``A``, ``u``, ``w``, ``C`` in conftest.py.
"""

from __future__ import annotations

import numpy as np
import pytest

import semiring as sr
from semiring import DimensionMismatch, DomainMismatch, IndexOutOfBound, InvalidValue

from _errorcases import PT, mat, raises, vec


# ---------------------------------------------------------------------------------------------
# indices past the end or negative
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("bad,shown", [(4, "4"), (9, "9"), (-1, "-1")])
def test_vector_from_coo_index_out_of_bound(bad, shown):
    idx = np.array([0, bad, 2])
    vals = np.array([1.0, 2.0, 3.0])
    with raises(IndexOutOfBound, rf"expected indices in \[0, 4\); given {shown}", idx, vals):
        sr.Vector.from_coo(idx, vals, size=4)


@pytest.mark.parametrize("which", ["rows", "cols"])
@pytest.mark.parametrize("bad", [-1, 3, 100])
def test_matrix_from_coo_index_out_of_bound(which, bad):
    rows, cols = np.array([0, 1]), np.array([0, 1])
    (rows if which == "rows" else cols)[1] = bad
    with raises(IndexOutOfBound, rf"from_coo {which}: expected indices in \[0, 3\); given {bad}", rows, cols):
        sr.Matrix.from_coo(rows, cols, [1.0, 2.0], nrows=3, ncols=3)


def test_from_coo_uint64_index_beyond_int64():
    idx = np.array([0, 2**63 + 5], dtype=np.uint64)
    with raises(IndexOutOfBound, r"out of range for size 4", idx):
        sr.Vector.from_coo(idx, [1, 2], size=4)


def test_from_coo_non_integral_index():
    with raises(InvalidValue, r"expected integer indices; given non-integral float64"):
        sr.Vector.from_coo([0.5], [1], size=4)


@pytest.mark.parametrize("idx,shown", [([0, 4], "4"), ([-1], "-1"), (7, "7")])
def test_assign_vector_index_out_of_bound(w, idx, shown):
    with raises(IndexOutOfBound, rf"assign indices: expected indices in \[0, 4\); given {shown}", w):
        sr.assign(w, 3, idx)


def test_assign_vector_from_vector_index_out_of_bound(w, u):
    src = vec([0, 1], [1, 2], 2)
    with raises(IndexOutOfBound, r"given 5", w, src):
        sr.assign(w, src, [0, 5], accum=sr.binary.plus)


@pytest.mark.parametrize("rows,cols,what,shown", [([0, 4], [0], "rows", "4"), ([0], [-2], "cols", "-2"),
                                                  ([1], [4], "cols", "4")])
def test_assign_matrix_index_out_of_bound(C, rows, cols, what, shown):
    with raises(IndexOutOfBound, rf"assign {what}: expected indices in \[0, 4\); given {shown}", C):
        sr.assign(C, 1, (rows, cols))


@pytest.mark.parametrize("idx,shown", [([4], "4"), ([0, -1], "-1"), ([10, 0], "10")])
def test_extract_vector_index_out_of_bound(u, w, idx, shown):
    with raises(IndexOutOfBound, rf"extract indices: expected indices in \[0, 4\); given {shown}", u, w):
        sr.extract(u, idx, out=vec([], [], len(idx), dtype="int64"))
    with raises(IndexOutOfBound, rf"given {shown}", u):
        sr.extract(u, idx)


@pytest.mark.parametrize("rows,cols,what,shown", [([4], None, "rows", "4"), (None, [0, 9], "cols", "9"),
                                                  (-1, None, "rows", "-1"), (None, 4, "col", "4")])
def test_extract_matrix_index_out_of_bound(A, rows, cols, what, shown):
    with raises(IndexOutOfBound, rf"extract {what}: expected indices in \[0, 4\); given {shown}", A):
        sr.extract(A, rows, cols)


@pytest.mark.parametrize("i", [4, 5, -1, -4])
def test_vector_get_out_of_bound(u, i):
    with raises(IndexOutOfBound, rf"Vector\.get index: expected indices in \[0, 4\); given {i}", u):
        u.get(i)


def test_vector_get_out_of_bound_bitmap():
    d = sr.Vector.from_dense(np.arange(4.0))
    assert d.format == "bitmap"
    with raises(IndexOutOfBound, r"given 4", d):
        d.get(4)


@pytest.mark.parametrize("i,j,what,shown", [(4, 0, "row", "4"), (-1, 0, "row", "-1"), (0, 4, "col", "4"),
                                            (0, -3, "col", "-3")])
def test_matrix_get_out_of_bound(A, i, j, what, shown):
    with raises(IndexOutOfBound, rf"Matrix\.get {what}: expected indices in \[0, 4\); given {shown}", A):
        A.get(i, j)


# ---------------------------------------------------------------------------------------------
# duplicates in from_coo
# ---------------------------------------------------------------------------------------------
def test_vector_duplicates_without_dup_op():
    idx = np.array([3, 0, 3, 1])
    vals = np.array([1, 2, 3, 4])
    with raises(InvalidValue, r"duplicate entries at index 3: expected unique positions.*dup_op", idx, vals):
        sr.Vector.from_coo(idx, vals, size=5)


def test_matrix_duplicates_without_dup_op():
    rows, cols = np.array([0, 2, 1, 2]), np.array([1, 3, 0, 3])
    with raises(InvalidValue, r"duplicate entries at \(row 2, col 3\).*dup_op", rows, cols):
        sr.Matrix.from_coo(rows, cols, [1.0, 2.0, 3.0, 4.0], nrows=3, ncols=4)


def test_matrix_duplicates_names_the_first_duplicate():
    with raises(InvalidValue, r"\(row 0, col 1\)"):
        sr.Matrix.from_coo([2, 0, 2, 0], [2, 1, 2, 1], [1, 2, 3, 4], nrows=3, ncols=3)


@pytest.mark.parametrize("dup_op,expected", [
    (sr.binary.plus, {0: 2, 1: 4, 3: 1 + 3 + 10}),
    (sr.monoid.plus, {0: 2, 1: 4, 3: 14}),
    (sr.binary.min, {0: 2, 1: 4, 3: 1}),
    (sr.binary.max, {0: 2, 1: 4, 3: 10}),
    (sr.binary.first, {0: 2, 1: 4, 3: 1}),    # in input order: 1, 3, 10
    (sr.binary.second, {0: 2, 1: 4, 3: 10}),
    (sr.binary.times, {0: 2, 1: 4, 3: 30}),
])
def test_vector_duplicates_with_dup_op(dup_op, expected):
    v = sr.Vector.from_coo([3, 0, 3, 1, 3], [1, 2, 3, 4, 10], size=5, dup_op=dup_op)
    i, x = v.to_coo()
    assert dict(zip(i.tolist(), x.tolist())) == expected
    assert v.nvals == 3 and v.dtype == np.int64


def test_matrix_duplicates_with_dup_op():
    M = sr.Matrix.from_coo([1, 0, 1, 1], [2, 0, 2, 2], [1.5, 2.0, 2.5, 4.0], nrows=2, ncols=3,
                           dup_op=sr.binary.plus)
    r, c, v = M.to_coo()
    assert r.tolist() == [0, 1] and c.tolist() == [0, 2] and v.tolist() == [2.0, 8.0]


def test_dup_op_positional_or_wrong_kind():
    with raises(DomainMismatch, r"dup_op.*positional"):
        sr.Vector.from_coo([0, 0], [1, 2], size=2, dup_op=sr.binary.firsti)
    with raises(InvalidValue, r"dup_op: expected a BinaryOp or Monoid; given"):
        sr.Vector.from_coo([0, 0], [1, 2], size=2, dup_op=max)


# ---------------------------------------------------------------------------------------------
# dimension mismatches
# ---------------------------------------------------------------------------------------------
def test_mxv_dimension_mismatch(w):
    A = mat([0], [0], [1], 4, 3)
    u = vec([0], [1], 4)
    with raises(DimensionMismatch, r"A is 4x3, so u must have size 3; given size 4", A, u, w):
        sr.mxv(A, u, PT, out=w)


def test_vxm_dimension_mismatch():
    A = mat([0], [0], [1], 3, 4)
    u = vec([0], [1], 4)
    out = vec([0], [9], 4)
    with raises(DimensionMismatch, r"A is 3x4, so u must have size 3; given size 4", A, u, out):
        sr.vxm(u, A, PT, out=out)


def test_mxm_dimension_mismatch():
    A = mat([0], [0], [1], 3, 4)
    B = mat([0], [0], [1], 3, 3)
    C = mat([0], [0], [1], 3, 3)
    with raises(DimensionMismatch, r"inner dimensions differ: A is 3x4, B is 3x3", A, B, C):
        sr.mxm(A, B, PT, out=C)


@pytest.mark.parametrize("fn", [sr.ewise_add, sr.ewise_mult])
def test_ewise_dimension_mismatch(fn):
    x, y = vec([0], [1], 3), vec([0], [1], 4)
    with raises(DimensionMismatch, r"same shape; given \(3,\) and \(4,\)", x, y):
        fn(x, y, sr.binary.plus, out=vec([], [], 3, dtype="int64"))
    A, B = mat([0], [0], [1], 3, 4), mat([0], [0], [1], 4, 3)
    with raises(DimensionMismatch, r"same shape; given \(3, 4\) and \(4, 3\)", A, B):
        fn(A, B, sr.binary.plus)


@pytest.mark.parametrize("fn", [sr.ewise_add, sr.ewise_mult])
def test_ewise_vector_with_matrix(fn):
    x, A = vec([0], [1], 3), mat([0], [0], [1], 3, 1)
    with raises(InvalidValue, r"must both be Vectors or both Matrices; given Vector and Matrix", x, A):
        fn(x, A, sr.binary.plus)


def test_assign_dimension_mismatch(w, C):
    src = vec([0, 1], [1, 2], 3)
    with raises(DimensionMismatch, r"2 indices, so u must have size 2; given size 3", w, src):
        sr.assign(w, src, [0, 1])
    B = mat([0], [0], [1], 3, 3)
    with raises(DimensionMismatch, r"2 rows and 3 cols, so u must be 2x3; given 3x3", C, B):
        sr.assign(C, B, ([0, 1], [0, 1, 2]))


def test_assign_wrong_container_kinds(w, C, A, u):
    with raises(InvalidValue, r"Vector out takes a Vector or scalar u; given a Matrix", w, A):
        sr.assign(w, A, [0])
    with raises(InvalidValue, r"Matrix out takes a Matrix or scalar u; given a Vector", C, u):
        sr.assign(C, u, ([0], [0]))
    with raises(InvalidValue, r"needs indices=\(rows, cols\)", C):
        sr.assign(C, 1, [0, 1])


def test_assign_repeated_index(w):
    with raises(InvalidValue, r"index 2 appears more than once", w):
        sr.assign(w, 1, [2, 0, 2])


def test_from_coo_values_of_wrong_length():
    with raises(DimensionMismatch, r"expected 2 values \(one per index\); given shape \(3,\)"):
        sr.Vector.from_coo([0, 1], [1, 2, 3], size=4)
    with raises(DimensionMismatch, r"expected 1 values.*given shape \(2,\)"):
        sr.Matrix.from_coo([0], [0], [1, 2], nrows=2, ncols=2)


def test_from_coo_rows_cols_of_different_length():
    with raises(InvalidValue, r"rows and cols must have equal length; given 2 and 1"):
        sr.Matrix.from_coo([0, 1], [1], nrows=2, ncols=2)
