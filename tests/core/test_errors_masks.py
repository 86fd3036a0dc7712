"""Error paths of the write step: masks and outputs of the wrong size or kind, replace=True
without a mask, and the exception hierarchy: the exception type, a message that says what was
expected and what was given, and no side effects (the output container and the inputs are left
exactly as they were).

Each case snapshots every container involved with ``to_coo()`` before the call and compares
after it raised (GraphBLAS C API 2.0, section 2.6: an API error leaves the output unmodified);
``raises`` in tests/_errorcases.py, the containers ``A``, ``u``, ``w``, ``C`` in conftest.py.
"""

from __future__ import annotations

import numpy as np
import pytest

import semiring as sr
from semiring import DimensionMismatch, DomainMismatch, IndexOutOfBound, InvalidValue, SemiringError

from _errorcases import PT, mat, raises, vec


def test_exception_hierarchy():
    for exc, base in [(DimensionMismatch, ValueError), (DomainMismatch, TypeError),
                      (IndexOutOfBound, IndexError), (InvalidValue, ValueError)]:
        assert issubclass(exc, SemiringError)
        assert issubclass(exc, base)
    assert sr.exceptions.SemiringError is SemiringError


# ---------------------------------------------------------------------------------------------
# masks of the wrong size or kind
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("form", ["bare", "S", "V", "~S", "~V"])
def test_int_vector_mask_of_wrong_size(A, u, w, form):
    m = vec([0, 1], [1, 0], 3)  # int64 values, size 3; output has size 4
    mask = {"bare": m, "S": m.S, "V": m.V, "~S": ~m.S, "~V": ~m.V}[form]
    with raises(DimensionMismatch, r"mask must match the output, Vector of size 4.*given a Vector of size 3",
                A, u, w, m):
        sr.mxv(A, u, PT, mask=mask, out=w)


def test_int_vector_mask_of_wrong_size_new_output(A, u):
    m = vec([0], [1], 5)
    with raises(DimensionMismatch, r"size 4.*given a Vector of size 5", A, u, m):
        sr.vxm(u, A, PT, mask=m.S)


@pytest.mark.parametrize("op", ["mxv", "vxm", "ewise_add", "ewise_mult", "apply", "select", "assign",
                                "extract", "reduce_rowwise"])
def test_matrix_mask_on_vector_op(A, u, w, op):
    M = mat([0], [0], [1], 4, 4)
    calls = {
        "mxv": lambda: sr.mxv(A, u, PT, mask=M.S, out=w),
        "vxm": lambda: sr.vxm(u, A, PT, mask=M.V, out=w),
        "ewise_add": lambda: sr.ewise_add(u, w, sr.binary.plus, mask=M.S, out=w),
        "ewise_mult": lambda: sr.ewise_mult(u, w, sr.binary.plus, mask=~M.S, out=w),
        "apply": lambda: sr.apply(u, sr.unary.ainv, mask=M, out=w),
        "select": lambda: sr.select(u, sr.indexunary.valuegt, 0, mask=M.S, out=w),
        "assign": lambda: sr.assign(w, 1, [0], mask=M.S),
        "extract": lambda: sr.extract(u, [0, 1, 2, 3], mask=M.S, out=w),
        "reduce_rowwise": lambda: sr.reduce_rowwise(A, sr.monoid.plus, mask=M.S, out=w),
    }
    with raises(DimensionMismatch, r"Vector of size 4.*given a Matrix of shape 4x4", A, u, w, M):
        calls[op]()


def test_vector_mask_on_matrix_op(A, C):
    m = vec([0], [1], 16)  # as many positions as the 4x4 output, but a Vector
    with raises(DimensionMismatch, r"Matrix of shape 4x4.*given a Vector of size 16", A, C, m):
        sr.mxm(A, A, PT, mask=m.S, out=C)


def test_matrix_mask_of_wrong_shape(A, C):
    M = mat([0], [0], [True], 4, 3)
    with raises(DimensionMismatch, r"shape 4x4.*given a Matrix of shape 4x3", A, C, M):
        sr.mxm(A, A, PT, mask=M.V, out=C)
    with raises(DimensionMismatch, r"shape 4x4.*given a Matrix of shape 4x3", A, M):
        sr.ewise_add(A, A, sr.binary.plus, mask=~M.S)


def test_mask_of_wrong_kind(A, u, w):
    with raises(InvalidValue, r"mask must be u\.S, u\.V.*given list", A, u, w):
        sr.mxv(A, u, PT, mask=[1, 0, 1, 0], out=w)
    with raises(InvalidValue, r"mask must be.*given ndarray", A, u, w):
        sr.mxv(A, u, PT, mask=np.ones(4, bool), out=w)


# ---------------------------------------------------------------------------------------------
# out of the wrong size or kind
# ---------------------------------------------------------------------------------------------
def test_out_of_wrong_size_vector(A, u):
    out = vec([0, 2], [1, 2], 3)
    with raises(DimensionMismatch, r"out must have size 4; given size 3", A, u, out):
        sr.mxv(A, u, PT, out=out)
    with raises(DimensionMismatch, r"out must have size 4; given size 3", A, u, out):
        sr.vxm(u, A, PT, out=out)
    with raises(DimensionMismatch, r"out must have size 4; given size 3", u, out):
        sr.ewise_add(u, u, sr.binary.plus, out=out)
    with raises(DimensionMismatch, r"out must have size 4; given size 3", u, out):
        sr.apply(u, sr.unary.identity, out=out)
    with raises(DimensionMismatch, r"out must have size 4; given size 3", A, out):
        sr.reduce_rowwise(A, sr.monoid.plus, out=out)
    with raises(DimensionMismatch, r"out must have size 2; given size 3", u, out):
        sr.extract(u, [0, 1], out=out)


def test_out_of_wrong_shape_matrix(A):
    out = mat([0], [0], [9], 4, 5)
    with raises(DimensionMismatch, r"out must have shape 4x4; given shape 4x5", A, out):
        sr.mxm(A, A, PT, out=out)
    with raises(DimensionMismatch, r"out must have shape 4x4; given shape 4x5", A, out):
        sr.ewise_mult(A, A, sr.binary.times, out=out)
    with raises(DimensionMismatch, r"out must have shape 4x4; given shape 4x5", A, out):
        sr.transpose(A, out=out)


def test_out_of_wrong_kind(A, u, w, C):
    with raises(InvalidValue, r"out must be a Vector; given Matrix", A, u, C):
        sr.mxv(A, u, PT, out=C)
    with raises(InvalidValue, r"out must be a Matrix; given Vector", A, w):
        sr.mxm(A, A, PT, out=w)
    with raises(InvalidValue, r"out must be a Vector; given ndarray", A, u):
        sr.mxv(A, u, PT, out=np.zeros(4))
    with raises(InvalidValue, r"out must be a Matrix; given Vector", A, w):
        sr.select(A, sr.indexunary.tril, out=w)


# ---------------------------------------------------------------------------------------------
# replace=True without a mask
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("op", ["mxv", "vxm", "mxm", "ewise_add", "ewise_mult", "apply", "select",
                                "assign_vector", "assign_matrix", "extract", "reduce_rowwise",
                                "reduce_columnwise", "transpose"])
def test_replace_without_mask(A, u, w, C, op):
    calls = {
        "mxv": lambda: sr.mxv(A, u, PT, replace=True, out=w),
        "vxm": lambda: sr.vxm(u, A, PT, replace=True, out=w),
        "mxm": lambda: sr.mxm(A, A, PT, replace=True, out=C),
        "ewise_add": lambda: sr.ewise_add(u, w, sr.binary.plus, replace=True, out=w),
        "ewise_mult": lambda: sr.ewise_mult(A, C, sr.binary.plus, replace=True, out=C),
        "apply": lambda: sr.apply(u, sr.unary.ainv, replace=True, out=w),
        "select": lambda: sr.select(A, sr.indexunary.tril, replace=True, out=C),
        "assign_vector": lambda: sr.assign(w, u, None, replace=True),
        "assign_matrix": lambda: sr.assign(C, 5, ([0], [1]), replace=True),
        "extract": lambda: sr.extract(u, [0, 1, 2, 3], replace=True, out=w),
        "reduce_rowwise": lambda: sr.reduce_rowwise(A, sr.monoid.plus, replace=True, out=w),
        "reduce_columnwise": lambda: sr.reduce_columnwise(A, sr.monoid.plus, replace=True, out=w),
        "transpose": lambda: sr.transpose(A, replace=True, out=C),
    }
    with raises(InvalidValue, r"replace=True needs a mask.*given mask=None", A, u, w, C):
        calls[op]()


def test_replace_without_mask_no_out(A, u):
    with raises(InvalidValue, r"replace=True needs a mask", A, u):
        sr.mxv(A, u, PT, replace=True)
