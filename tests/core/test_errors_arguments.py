"""Error paths of arguments: apply with both or neither of left/right, writes into the
read-only cached transpose, and arguments of the wrong kind (lists, arrays, operators, sizes,
devices): the exception type, a message that says what was expected and what was given, and
no side effects.

Each case snapshots every container involved with ``to_coo()`` before the call and compares
after it raised (GraphBLAS C API 2.0, section 2.6: an API error leaves the output unmodified);
``raises`` in tests/_errorcases.py, the containers ``A``, ``u``, ``w``, ``C`` in conftest.py.
"""

from __future__ import annotations

import numpy as np

import semiring as sr
from semiring import InvalidValue

from _errorcases import PT, mat, raises, vec


# ---------------------------------------------------------------------------------------------
# apply: left/right
# ---------------------------------------------------------------------------------------------
def test_apply_binary_with_both_left_and_right(u, w):
    with raises(InvalidValue, r"exactly one bound scalar, left= or right=; given left=1, right=2", u, w):
        sr.apply(u, sr.binary.minus, left=1, right=2, out=w)


def test_apply_binary_with_neither_left_nor_right(u, w):
    with raises(InvalidValue, r"exactly one bound scalar.*given left=None, right=None", u, w):
        sr.apply(u, sr.binary.minus, out=w)
    with raises(InvalidValue, r"exactly one bound scalar", u, w):
        sr.apply(u, sr.binary.minus, thunk=3, out=w)


def test_apply_unary_or_indexunary_with_scalar(u, w):
    with raises(InvalidValue, r"a UnaryOp takes no left/right/thunk", u, w):
        sr.apply(u, sr.unary.ainv, left=1, out=w)
    with raises(InvalidValue, r"an IndexUnaryOp takes thunk=, not left/right", u, w):
        sr.apply(u, sr.indexunary.rowindex, right=1, out=w)


# ---------------------------------------------------------------------------------------------
# the read-only cached transpose
# ---------------------------------------------------------------------------------------------
def test_write_into_cached_transpose(A, u):
    T = A.T
    M = mat([0, 1], [0, 0], [1, 1], 4, 4)
    calls = [
        lambda: sr.mxm(A, A, PT, out=T),
        lambda: sr.ewise_add(A, A, sr.binary.plus, out=T),
        lambda: sr.ewise_mult(A, A, sr.binary.plus, out=T),
        lambda: sr.apply(A, sr.unary.ainv, out=T),
        lambda: sr.select(A, sr.indexunary.tril, out=T),
        lambda: sr.transpose(A, out=T),
        lambda: sr.extract(A, None, None, out=T),
        lambda: sr.kronecker(mat([0], [0], [1], 1, 1), A, sr.binary.times, out=T),
        lambda: sr.mxm(A, A, PT, mask=M.S, accum=sr.binary.plus, out=T),
    ]
    for call in calls:
        with raises(InvalidValue, r"out is a read-only view \(A\.T\); write into sr\.transpose\(A\)", A, T):
            call()
    with raises(InvalidValue, r"read-only", A, T):
        sr.assign(T, 1, ([0], [0]))
    assert A.T is T  # still the cached transpose
    # and it still is the transpose of A
    r, c, v = A.to_coo()
    tr, tc, tv = T.to_coo()
    assert sorted(zip(c.tolist(), r.tolist(), v.tolist())) == list(zip(tr.tolist(), tc.tolist(), tv.tolist()))


# ---------------------------------------------------------------------------------------------
# wrong argument kinds
# ---------------------------------------------------------------------------------------------
def test_list_where_a_vector_is_expected(A, u, w):
    with raises(InvalidValue, r"mxv u: expected a Vector; given list", A, w):
        sr.mxv(A, [1, 2, 3, 4], PT, out=w)
    with raises(InvalidValue, r"vxm u: expected a Vector; given list", A, w):
        sr.vxm([1, 2, 3, 4], A, PT, out=w)
    with raises(InvalidValue, r"ewise_add x: expected a Vector or Matrix; given list", u):
        sr.ewise_add([1, 2, 3, 4], u, sr.binary.plus)
    with raises(InvalidValue, r"given Vector and list", u):
        sr.ewise_mult(u, [1, 2, 3, 4], sr.binary.plus)
    with raises(InvalidValue, r"apply x: expected a Vector or Matrix; given list"):
        sr.apply([1, 2], sr.unary.ainv)
    with raises(InvalidValue, r"reduce_scalar x: expected a Vector or Matrix; given list"):
        sr.reduce_scalar([1, 2], sr.monoid.plus)


def test_ndarray_where_a_matrix_is_expected(A, u):
    with raises(InvalidValue, r"mxv A: expected a Matrix; given ndarray", u):
        sr.mxv(np.eye(4), u, PT)
    with raises(InvalidValue, r"mxm B: expected a Matrix; given ndarray", A):
        sr.mxm(A, np.eye(4), PT)
    with raises(InvalidValue, r"reduce_rowwise A: expected a Matrix; given Vector", u):
        sr.reduce_rowwise(u, sr.monoid.plus)


def test_operator_of_the_wrong_kind(A, u, w):
    with raises(InvalidValue, r"mxv semiring: expected a Semiring; given BinaryOp", A, u, w):
        sr.mxv(A, u, sr.binary.plus, out=w)
    with raises(InvalidValue, r"expected a Semiring; given Monoid", A, u):
        sr.mxv(A, u, sr.monoid.plus)
    with raises(InvalidValue, r"accum must be a BinaryOp.*given 'plus'", A, u, w):
        sr.mxv(A, u, PT, accum="plus", out=w)
    with raises(InvalidValue, r"select operator: expected a.*IndexUnaryOp; given BinaryOp", A):
        sr.select(A, sr.binary.plus)
    with raises(InvalidValue, r"Monoid: expected a BinaryOp; given"):
        sr.Monoid(sr.monoid.plus, 0)
    with raises(InvalidValue, r"Semiring: expected a Monoid as the additive operator; given BinaryOp"):
        sr.Semiring(sr.binary.plus, sr.binary.times)
    with raises(InvalidValue, r"Semiring: expected a BinaryOp as the multiply; given Monoid"):
        sr.Semiring(sr.monoid.plus, sr.monoid.times)
    with raises(InvalidValue, r"BinaryOp: expected a callable"):
        sr.BinaryOp(3)
    with raises(InvalidValue, r"UnaryOp: expected a callable"):
        sr.UnaryOp("x")
    with raises(InvalidValue, r"IndexUnaryOp: expected a callable"):
        sr.IndexUnaryOp(None)


def test_bad_sizes_and_devices():
    with raises(InvalidValue, r"Vector size: expected a non-negative integer; given -1"):
        sr.Vector(-1)
    with raises(InvalidValue, r"Vector size: expected a non-negative integer; given 2\.0"):
        sr.Vector(2.0)
    with raises(InvalidValue, r"Matrix nrows: expected a non-negative integer; given True"):
        sr.Matrix(True, 2)
    with raises(InvalidValue, r"device: expected 'cpu', 'gpu' or 'auto'; given 'tpu'"):
        sr.Vector(2, device="tpu")


def test_to_dense_without_fill_value():
    v = vec([1], [2.0], 3)
    with raises(InvalidValue, r"2 of 3 positions are absent; give fill_value", v):
        v.to_dense()
    M = mat([1], [1], [2.0], 2, 2)
    with raises(InvalidValue, r"3 of 4 positions are absent; give fill_value", M):
        M.to_dense()


def test_extract_single_entry_and_vector_cols(A, u):
    with raises(InvalidValue, r"single entry; use A\.get\(row, col\)", A):
        sr.extract(A, 1, 2)
    with raises(InvalidValue, r"a Vector takes one index list; given cols=\[0\]", u):
        sr.extract(u, [0], [0])
