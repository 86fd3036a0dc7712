"""Binary and unary operator values against hand-derived expectations.

Sources of the expected values: the GraphBLAS C API 2.0 tables of operators and monoids,
and the SuiteSparse:GraphBLAS rules that ``semiring/ops/binary.py`` documents (integer ``div``
truncates toward zero like C; ``x / 0`` is 0 for 0 and the type's max/min for positive/negative
``x``; on bool ``plus``=lor, ``minus``=lxor, ``times``=land, ``div``=first, ``min``=land,
``max``=lor; float ``min``/``max`` are C ``fmin``/``fmax``). Expected numbers are written by hand
or computed with plain Python / NumPy arithmetic, never with the operators under test."""

from __future__ import annotations

import numpy as np
import pytest

import semiring as sr
from semiring import DomainMismatch
from _ops import B, DTYPES, F, M, T, U, arr, check

SIGNED = ["int8", "int16", "int32", "int64"]
UNSIGNED = ["uint8", "uint16", "uint32", "uint64"]
FLOATS = ["float32", "float64"]


# ---------------------------------------------------------------------------------------------
# integer division
# ---------------------------------------------------------------------------------------------
def c_div(a, b, dtype):
    """C integer division (truncation toward zero) with the GraphBLAS x/0 rule, in Python ints."""
    info = np.iinfo(dtype)
    if b == 0:
        return 0 if a == 0 else (info.max if a > 0 else info.min)
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


SIGNED_PAIRS = [(7, 2), (-7, 2), (7, -2), (-7, -2), (6, 3), (-6, 3), (6, -3), (1, 2), (-1, 2),
                (0, 5), (0, -5), (5, 0), (-5, 0), (0, 0), (100, 7), (-100, 7), (127, -1), (-127, 1)]


@pytest.mark.parametrize("dtype", SIGNED)
def test_signed_div_truncates_and_divides_by_zero(dtype):
    x = arr([a for a, _ in SIGNED_PAIRS], dtype)
    y = arr([b for _, b in SIGNED_PAIRS], dtype)
    expected = [c_div(a, b, dtype) for a, b in SIGNED_PAIRS]
    check(B.div(x, y), expected, dtype)
    # rdiv(x, y) = y / x
    check(B.rdiv(y, x), expected, dtype)


def test_signed_div_by_hand():
    # written out: -7/2 = -3 (not -4), 7/-2 = -3, -7/-2 = 3, 5/0 = 127, -5/0 = -128, 0/0 = 0
    check(B.div(arr([-7, 7, -7, 5, -5, 0], "int8"), arr([2, -2, -2, 0, 0, 0], "int8")),
          [-3, -3, 3, 127, -128, 0], "int8")
    check(B.div(arr([9, -9], "int64"), arr([0, 0], "int64")),
          [2**63 - 1, -(2**63)], "int64")


@pytest.mark.parametrize("dtype", UNSIGNED)
def test_unsigned_div(dtype):
    top = int(np.iinfo(dtype).max)
    pairs = [(7, 2), (6, 3), (1, 2), (0, 5), (5, 0), (0, 0), (top, 1), (top, 2), (top, top)]
    x = arr([a for a, _ in pairs], dtype)
    y = arr([b for _, b in pairs], dtype)
    check(B.div(x, y), [c_div(a, b, dtype) for a, b in pairs], dtype)


@pytest.mark.parametrize("dtype", FLOATS)
def test_float_div_is_ieee(dtype):
    got = B.div(arr([7.0, 1.0, -1.0, 0.0, -7.5], dtype), arr([2.0, 0.0, 0.0, 0.0, 2.5], dtype))
    assert got.dtype == np.dtype(dtype)
    assert got[0] == 3.5 and got[1] == np.inf and got[2] == -np.inf and np.isnan(got[3]) and got[4] == -3.0


def test_minv_on_integers_and_floats():
    check(U.minv(arr([1, 2, -1, -2, 0, 3], "int32")), [1, 0, -1, 0, 2**31 - 1, 0], "int32")
    check(U.minv(arr([0, 1, 5], "uint8")), [255, 1, 0], "uint8")
    check(U.minv(arr([4.0, -0.5], "float64")), [0.25, -2.0], "float64")


# ---------------------------------------------------------------------------------------------
# bool rules
# ---------------------------------------------------------------------------------------------
X = arr([False, False, True, True], bool)
Y = arr([False, True, False, True], bool)
BOOL_TABLE = {
    "plus": [F, T, T, T],     # lor
    "minus": [F, T, T, F],    # lxor
    "rminus": [F, T, T, F],   # lxor (symmetric)
    "times": [F, F, F, T],    # land
    "div": [F, F, T, T],      # first
    "rdiv": [F, T, F, T],     # y / x = first(y, x) = y
    "min": [F, F, F, T],      # land
    "max": [F, T, T, T],      # lor
    "first": [F, F, T, T],
    "second": [F, T, F, T],
    "pair": [T, T, T, T],
    "land": [F, F, F, T],
    "lor": [F, T, T, T],
    "lxor": [F, T, T, F],
    "eq": [T, F, F, T],
    "ne": [F, T, T, F],
    "lt": [F, T, F, F],
    "le": [T, T, F, T],
    "gt": [F, F, T, F],
    "ge": [T, F, T, T],
}


@pytest.mark.parametrize("name", sorted(BOOL_TABLE))
def test_bool_rules(name):
    op = B.get(name)
    check(op(X, Y), BOOL_TABLE[name], "bool")
    assert op.output_dtype("bool", "bool") == np.bool_


def test_bool_monoids_reduce_like_logic():
    v = sr.Vector.from_coo([0, 1, 2], [True, False, True], size=4)
    assert sr.reduce_scalar(v, M.plus) == True  # noqa: E712  lor
    assert sr.reduce_scalar(v, M.times) == False  # noqa: E712  land
    assert sr.reduce_scalar(v, M.min) == False  # noqa: E712  land
    assert sr.reduce_scalar(v, M.max) == True  # noqa: E712  lor
    assert sr.reduce_scalar(v, M.lxor) == False  # noqa: E712  T xor F xor T
    assert sr.reduce_scalar(v, M.plus).dtype == np.bool_


@pytest.mark.parametrize("dtype", ["int64", "float64"])
def test_reduce_rows_by_the_lor_operator(dtype):
    # the operator lor has the bool domain: reducing numbers by it casts them to bool (nonzero is
    # True) and gives bool, whether the row has one entry or several (the monoid lor refuses
    # numbers instead: test_bool_monoids_refuse_numbers)
    A = sr.Matrix.from_coo([0, 1, 1, 2], [0, 0, 1, 1], arr([2, 0, 3, 0], dtype), nrows=3, ncols=2)
    w = sr.reduce_rowwise(A, B.lor)
    i, v = w.to_coo()
    assert i.tolist() == [0, 1, 2]
    assert w.dtype == np.bool_, f"lor reduction returned {w.dtype} values {v.tolist()}"
    assert v.tolist() == [T, T, F]


def test_logical_ops_cast_numbers_to_bool():
    # land/lor/lxor have the bool domain: nonzero is True
    check(B.land(arr([0, 2, -3, 0], "int64"), arr([5, 0, 7, 0], "int64")), [F, F, T, F], "bool")
    check(B.lor(arr([0.0, 0.5, 0.0], "float64"), arr([0.0, 0.0, -2.0], "float64")), [F, T, T], "bool")
    check(B.lxor(arr([1, 1, 0], "uint8"), arr([1, 0, 0], "uint8")), [F, T, F], "bool")
    check(U.lnot(arr([0, 3, -1], "int16")), [T, F, F], "bool")


# ---------------------------------------------------------------------------------------------
# arithmetic on numbers, comparisons, first/second/pair
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", [d for d in DTYPES if d != "bool"])
def test_arithmetic_and_selection_ops(dtype):
    xs, ys = [1, 5, 3, 0, 7], [4, 2, 3, 6, 7]
    x, y = arr(xs, dtype), arr(ys, dtype)
    check(B.plus(x, y), [a + b for a, b in zip(xs, ys)], dtype)
    check(B.times(x, y), [a * b for a, b in zip(xs, ys)], dtype)
    check(B.min(x, y), [min(a, b) for a, b in zip(xs, ys)], dtype)
    check(B.max(x, y), [max(a, b) for a, b in zip(xs, ys)], dtype)
    check(B.first(x, y), xs, dtype)
    check(B.second(x, y), ys, dtype)
    check(B.any(x, y), ys, dtype)
    check(B.pair(x, y), [1] * 5, dtype)
    check(B.oneb(x, y), [1] * 5, dtype)
    # minus where the result is representable in every type: larger - smaller
    hi = [max(a, b) for a, b in zip(xs, ys)]
    lo = [min(a, b) for a, b in zip(xs, ys)]
    diff = [h - l for h, l in zip(hi, lo)]
    check(B.minus(arr(hi, dtype), arr(lo, dtype)), diff, dtype)
    check(B.rminus(arr(lo, dtype), arr(hi, dtype)), diff, dtype)
    if dtype not in UNSIGNED:
        check(B.minus(x, y), [a - b for a, b in zip(xs, ys)], dtype)
        check(B.rminus(x, y), [b - a for a, b in zip(xs, ys)], dtype)


@pytest.mark.parametrize("dtype", [d for d in DTYPES if d != "bool"])
def test_comparisons_output_bool(dtype):
    x, y = arr([1, 2, 3], dtype), arr([2, 2, 2], dtype)
    check(B.eq(x, y), [F, T, F], "bool")
    check(B.ne(x, y), [T, F, T], "bool")
    check(B.lt(x, y), [T, F, F], "bool")
    check(B.le(x, y), [T, T, F], "bool")
    check(B.gt(x, y), [F, F, T], "bool")
    check(B.ge(x, y), [F, T, T], "bool")
    for name in ("eq", "ne", "lt", "le", "gt", "ge"):
        assert B.get(name).output_dtype(dtype, dtype) == np.bool_


def test_comparison_with_nan():
    x, y = arr([np.nan, 1.0], "float64"), arr([np.nan, np.nan], "float64")
    check(B.eq(x, y), [F, F], "bool")
    check(B.ne(x, y), [T, T], "bool")
    check(B.lt(x, y), [F, F], "bool")


def test_signed_integer_overflow_wraps_like_c():
    check(B.plus(arr([127, -128], "int8"), arr([1, -1], "int8")), [-128, 127], "int8")
    check(B.times(arr([16], "int8"), arr([16], "int8")), [0], "int8")
    check(B.minus(arr([0], "uint8"), arr([1], "uint8")), [255], "uint8")


def test_mixed_input_types_follow_result_type():
    # int8 with uint8 -> int16; int8 with float32 -> float32; bool with int8 -> int8
    r = B.plus(arr([-1], "int8"), arr([200], "uint8"))
    check(r, [199], "int16")
    check(B.plus(arr([1], "int8"), arr([0.5], "float32")), [1.5], "float32")
    check(B.plus(arr([True], "bool"), arr([5], "int8")), [6], "int8")
    check(B.plus(arr([3], "uint32"), arr([-4], "int64")), [-1], "int64")
    with pytest.raises(DomainMismatch):
        B.plus(arr([1], "int64"), arr([1], "uint64"))


# ---------------------------------------------------------------------------------------------
# fmin / fmax: NaN is ignored
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", FLOATS)
def test_min_max_ignore_nan(dtype):
    nan = np.nan
    x = arr([nan, 1.0, nan, -np.inf, 2.0], dtype)
    y = arr([2.0, nan, nan, 5.0, np.inf], dtype)
    lo, hi = B.min(x, y), B.max(x, y)
    assert lo.dtype == hi.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(lo, arr([2.0, 1.0, nan, -np.inf, 2.0], dtype))
    np.testing.assert_array_equal(hi, arr([2.0, 1.0, nan, 5.0, np.inf], dtype))


@pytest.mark.parametrize("dtype", FLOATS)
def test_min_max_monoids_ignore_nan(dtype):
    v = sr.Vector.from_coo([0, 1, 2, 3], arr([np.nan, 3.0, -1.5, np.nan], dtype), size=5)
    assert sr.reduce_scalar(v, M.min) == -1.5
    assert sr.reduce_scalar(v, M.max) == 3.0
    allnan = sr.Vector.from_coo([0, 1], arr([np.nan, np.nan], dtype), size=2)
    assert np.isnan(sr.reduce_scalar(allnan, M.min))
    # row-wise too: row 0 = {nan, 4}, row 1 = {nan}
    A = sr.Matrix.from_coo([0, 0, 1], [0, 1, 1], arr([np.nan, 4.0, np.nan], dtype), nrows=2, ncols=2)
    i, x = sr.reduce_rowwise(A, M.min).to_coo()
    assert i.tolist() == [0, 1] and x[0] == 4.0 and np.isnan(x[1]) and x.dtype == np.dtype(dtype)


def test_min_plus_skips_nan_terms():
    # row 0 terms: nan + 1 = nan, 2 + 3 = 5 -> fmin gives 5
    A = sr.Matrix.from_coo([0, 0], [0, 1], [np.nan, 2.0], nrows=1, ncols=2)
    u = sr.Vector.from_coo([0, 1], [1.0, 3.0], size=2)
    for direction in ("push", "pull"):
        assert sr.mxv(A, u, sr.semirings.min_plus, direction=direction).to_coo()[1].tolist() == [5.0]


# ---------------------------------------------------------------------------------------------
# unary operators
# ---------------------------------------------------------------------------------------------
def test_unary_values():
    check(U.identity(arr([3, -4], "int16")), [3, -4], "int16")
    check(U.ainv(arr([3, -4], "int16")), [-3, 4], "int16")
    check(U.ainv(arr([T, F], bool)), [T, F], "bool")  # ainv on bool is the identity
    check(U.ainv(arr([1], "uint8")), [255], "uint8")  # C wrap-around
    check(U.abs(arr([-3, 4], "int32")), [3, 4], "int32")
    check(U.abs(arr([-2.5], "float32")), [2.5], "float32")
    check(U.abs(arr([7], "uint16")), [7], "uint16")
    check(U.one(arr([3.5, 0.0], "float32")), [1.0, 1.0], "float32")
    check(U.one(arr([F], bool)), [T], "bool")
    check(U.sqrt(arr([4.0, 2.25], "float64")), [2.0, 1.5], "float64")
    check(U.exp(arr([0.0], "float32")), [1.0], "float32")
    check(U.log(arr([1.0], "float64")), [0.0], "float64")
