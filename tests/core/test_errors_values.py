"""Error paths of values and types: NaN where a boolean is needed (value masks, casts, the
logical operators) and unsupported dtypes in every constructor: the exception type, a message
that says what was expected and what was given, and no side effects.

Each case snapshots every container involved with ``to_coo()`` before the call and compares
after it raised (GraphBLAS C API 2.0, section 2.6: an API error leaves the output unmodified);
``raises`` in tests/_errorcases.py, the containers ``A``, ``u``, ``w``, ``C`` in conftest.py.
"""

from __future__ import annotations

import numpy as np
import pytest

import semiring as sr
from semiring import DomainMismatch, InvalidValue, SemiringError

from _errorcases import PT, mat, raises, vec


# ---------------------------------------------------------------------------------------------
# NaN where a boolean is needed
# ---------------------------------------------------------------------------------------------
def _nan_mask():
    return vec([0, 1, 3], [1.0, np.nan, 0.0], 4)


@pytest.mark.parametrize("form", ["V", "~V", "bare"])
def test_nan_in_float_value_mask(A, u, w, form):
    m = _nan_mask()
    mask = {"V": m.V, "~V": ~m.V, "bare": m}[form]
    with raises(InvalidValue, r"value mask.*boolean is needed.*float64 values hold NaN", A, u, w, m):
        sr.mxv(A, u, PT, mask=mask, out=w)
    with raises(InvalidValue, r"NaN", u, w, m):
        sr.ewise_add(u, w, sr.binary.plus, mask=mask, out=w)
    with raises(InvalidValue, r"NaN", w, m):
        sr.assign(w, 1, None, mask=mask)


def test_nan_in_structural_mask_is_fine(A, u, w):
    # control: a structural mask looks only at presence
    m = _nan_mask()
    sr.mxv(A, u, PT, mask=m.S, out=w)
    i, v = w.to_coo()
    # A u: row 1 = A(1,2)*u(2) = 14, row 3 = A(3,0)*u(0) = 20; mask allows 0, 1, 3; w had 11 at 1, 13 at 3
    assert i.tolist() == [1, 3] and v.tolist() == [14, 20]


def test_nan_in_matrix_value_mask(A, C):
    M = mat([0, 2], [1, 3], [np.nan, 1.0], 4, 4)
    with raises(InvalidValue, r"value mask Matrix\.V.*NaN", A, C, M):
        sr.mxm(A, A, PT, mask=M.V, out=C)


@pytest.mark.parametrize("cls", ["Vector", "Matrix"])
def test_nan_cast_to_bool_in_from_coo(cls):
    vals = np.array([1.0, np.nan])
    with raises(InvalidValue, rf"{cls}\.from_coo values: NaN cannot be cast to a boolean.*float64", vals):
        if cls == "Vector":
            sr.Vector.from_coo([0, 1], vals, size=3, dtype=bool)
        else:
            sr.Matrix.from_coo([0, 1], [0, 1], vals, nrows=3, ncols=3, dtype=bool)


def test_nan_cast_to_bool_in_from_dense():
    arr = np.array([[0.0, np.nan]])
    with raises(InvalidValue, r"Matrix\.from_dense values: NaN cannot be cast to a boolean", arr):
        sr.Matrix.from_dense(arr, dtype="bool")
    with raises(InvalidValue, r"Vector\.from_dense values: NaN cannot be cast to a boolean", arr):
        sr.Vector.from_dense(arr[0], dtype="bool")


def test_nan_cast_to_int_in_from_coo():
    with raises(InvalidValue, r"NaN cannot be cast to an integer \(int32\)"):
        sr.Vector.from_coo([0], [np.nan], size=3, dtype="int32")


def test_nan_through_lor_and_land():
    x = vec([0, 1], [np.nan, 1.0], 3)
    y = vec([0, 2], [1.0, 0.0], 3)
    out = vec([0], [False], 3)
    with raises(InvalidValue, r"NaN cannot be cast to a boolean", x, y, out):
        sr.ewise_add(x, y, sr.binary.lor, out=out)
    with raises(InvalidValue, r"land.*NaN cannot be cast to a boolean", x, y, out):
        sr.ewise_mult(x, y, sr.binary.land, out=out)
    with raises(InvalidValue, r"lxor.*NaN", x, y):
        sr.ewise_mult(x, y, sr.binary.lxor)
    with raises(InvalidValue, r"lnot.*NaN cannot be cast to a boolean", x, out):
        sr.apply(x, sr.unary.lnot, out=out)
    with raises(InvalidValue, r"lor.*NaN", x):
        sr.apply(x, sr.binary.lor, right=True)


def test_nan_through_lor_land_semiring():
    A = mat([0, 1], [0, 1], [np.nan, 2.0], 2, 2)
    u = vec([0, 1], [1.0, 1.0], 2)
    out = vec([1], [True], 2)
    with raises(InvalidValue, r"land.*NaN cannot be cast to a boolean", A, u, out):
        sr.mxv(A, u, sr.semirings.lor_land, out=out)
    with raises(InvalidValue, r"NaN", A, u, out):
        sr.vxm(u, A, sr.semirings.lor_land, out=out)


@pytest.mark.parametrize("ncols", [1, 2])
def test_nan_through_lor_reduction(ncols):
    # a row holding NaN reduced with the lor operator: NaN is not a boolean
    A = mat([0] * ncols, list(range(ncols)), [np.nan] + [1.0] * (ncols - 1), 1, ncols)
    with pytest.raises((InvalidValue, DomainMismatch), match=r"NaN|bool") as info:
        sr.reduce_rowwise(A, sr.binary.lor)
    assert isinstance(info.value, SemiringError)


def test_nan_into_bool_output():
    x = vec([0], [np.nan], 3)
    out = vec([1], [True], 3)
    with raises(InvalidValue, r"NaN cannot be cast to a boolean", x, out):
        sr.ewise_add(x, x, sr.binary.plus, out=out)


def test_nan_from_select_predicate():
    x = vec([0, 1], [np.nan, 2.0], 3)
    pred = sr.IndexUnaryOp(lambda v, i, j, t: v, "value_as_pred", output="float64")
    with raises(InvalidValue, r"select predicate value_as_pred: NaN cannot be cast to a boolean", x):
        sr.select(x, pred)


# ---------------------------------------------------------------------------------------------
# unsupported dtypes
# ---------------------------------------------------------------------------------------------
BAD_DTYPES = [np.complex64, np.complex128, np.float16, object, "U3", "S3", np.longdouble]


def _bad_ok(d):
    # np.longdouble is float64 on some platforms (e.g. Windows): then it is supported
    return np.dtype(d) not in sr.dtypes.SUPPORTED


def _says_given(msg, d):
    d = np.dtype(d)
    return d.name in msg or str(d) in msg


@pytest.mark.parametrize("d", BAD_DTYPES)
def test_unsupported_dtype_in_constructors(d):
    if not _bad_ok(d):
        pytest.skip("longdouble is float64 here")
    for make in (lambda: sr.Vector(3, d), lambda: sr.Matrix(2, 2, d)):
        with pytest.raises(DomainMismatch, match=r"expected one of bool, int8.*float64; given") as info:
            make()
        assert _says_given(str(info.value), d)


@pytest.mark.parametrize("d", BAD_DTYPES)
def test_unsupported_dtype_values_in_from_coo(d):
    if not _bad_ok(d):
        pytest.skip("longdouble is float64 here")
    vals = np.array([1, 0], dtype=d)
    makers = [
        lambda: sr.Vector.from_coo([0, 1], vals, size=3),
        lambda: sr.Matrix.from_coo([0, 1], [1, 0], vals, nrows=2, ncols=2),
        lambda: sr.Vector.from_coo([0, 1], [1, 2], size=3, dtype=d),
        lambda: sr.Matrix.from_coo([0, 1], [1, 0], [1, 2], nrows=2, ncols=2, dtype=d),
    ]
    for make in makers:
        with pytest.raises(DomainMismatch, match=r"expected.*given") as info:
            make()
        assert _says_given(str(info.value), d), str(info.value)


@pytest.mark.parametrize("d", BAD_DTYPES)
def test_unsupported_dtype_in_from_dense(d):
    if not _bad_ok(d):
        pytest.skip("longdouble is float64 here")
    arr = np.array([[1, 0], [0, 1]], dtype=d)
    for make in (lambda: sr.Vector.from_dense(arr[0]), lambda: sr.Matrix.from_dense(arr)):
        with pytest.raises(DomainMismatch, match=r"expected one of .*; given") as info:
            make()
        assert _says_given(str(info.value), d)


def test_unsupported_dtype_in_from_scipy():
    import scipy.sparse as sp

    S = sp.csr_array(np.eye(2, dtype=np.complex128))
    with pytest.raises(DomainMismatch, match=r"from_scipy dtype: expected one of .*; given complex128"):
        sr.Matrix.from_scipy(S)


def test_unknown_dtype_name():
    with pytest.raises(DomainMismatch, match=r"expected one of bool.*; given 'notatype'"):
        sr.Vector(3, "notatype")
