"""Operator values against hand-derived expectations.

Sources of the expected values: the GraphBLAS C API 2.0 tables of operators and monoids,
and the SuiteSparse:GraphBLAS rules that ``semiring/ops/binary.py`` documents (integer ``div``
truncates toward zero like C; ``x / 0`` is 0 for 0 and the type's max/min for positive/negative
``x``; on bool ``plus``=lor, ``minus``=lxor, ``times``=land, ``div``=first, ``min``=land,
``max``=lor; float ``min``/``max`` are C ``fmin``/``fmax``). Expected numbers are written by hand
or computed with plain Python / NumPy arithmetic, never with the operators under test.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import semiring as sr
from semiring import DomainMismatch, InvalidValue

B, M, U = sr.binary, sr.monoid, sr.unary
DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64"]
SIGNED = ["int8", "int16", "int32", "int64"]
UNSIGNED = ["uint8", "uint16", "uint32", "uint64"]
FLOATS = ["float32", "float64"]


def arr(values, dtype):
    return np.array(values, dtype=dtype)


def check(got, expected, dtype):
    got = np.asarray(got)
    assert got.dtype == np.dtype(dtype), f"dtype {got.dtype}, expected {dtype}"
    np.testing.assert_array_equal(got, np.array(expected, dtype=dtype))


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
F, T = False, True
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


# ---------------------------------------------------------------------------------------------
# positional operators
# ---------------------------------------------------------------------------------------------
def test_positional_ops_are_int64_and_refuse_direct_calls():
    for op in (B.firsti, B.firstj, B.secondi, B.secondj):
        assert op.positional
        for d in ("bool", "uint8", "float32"):
            assert op.output_dtype(d, d) == np.int64
        with pytest.raises(InvalidValue, match="positional"):
            op(arr([1], "int64"), arr([1], "int64"))


# A (3x3):  row 0: cols 1, 2;  row 1: col 2;  row 2: cols 0, 1.   u: u(1) = 10, u(2) = 20.
POS_A = ([0, 0, 1, 2, 2], [1, 2, 2, 0, 1], [5, 6, 7, 8, 9])
POS_U = ([1, 2], [10, 20])
# mxv: w(i) = (+)_k A(i,k) (x) u(k); the k per row: row 0 {1, 2}, row 1 {2}, row 2 {1}
# firsti = i, firstj = k, secondi = k, secondj = j = 0 (u is a column)
MXV_POS = {
    "min_firsti": [0, 1, 2], "max_firsti": [0, 1, 2],
    "min_firstj": [1, 2, 1], "max_firstj": [2, 2, 1],
    "min_secondi": [1, 2, 1], "max_secondi": [2, 2, 1],
    "min_secondj": [0, 0, 0], "max_secondj": [0, 0, 0],
}
# vxm: w(j) = (+)_k u(k) (x) A(k,j); k = 1: j = 2; k = 2: j = 0, 1. So j=0 {2}, j=1 {2}, j=2 {1}
# firsti = 0 (u is a row), firstj = k, secondi = k, secondj = j
VXM_POS = {
    "min_firsti": [0, 0, 0], "min_firstj": [2, 2, 1], "min_secondi": [2, 2, 1], "max_secondi": [2, 2, 1],
    "min_secondj": [0, 1, 2], "max_secondj": [0, 1, 2],
}
# mxm A*A: C(i,j) = (+)_k A(i,k) A(k,j):
# (0,0) k{2}; (0,1) k{2}; (0,2) k{1}; (1,0) k{2}; (1,1) k{2}; (2,1) k{0}; (2,2) k{0, 1}
MXM_KEYS = [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (2, 1), (2, 2)]
MXM_POS = {
    "min_firsti": [0, 0, 0, 1, 1, 2, 2],
    "min_secondi": [2, 2, 1, 2, 2, 0, 0], "max_secondi": [2, 2, 1, 2, 2, 0, 1],
    "min_firstj": [2, 2, 1, 2, 2, 0, 0], "max_firstj": [2, 2, 1, 2, 2, 0, 1],
    "max_secondj": [0, 1, 2, 0, 1, 1, 2],
}


@pytest.fixture
def posA():
    return sr.Matrix.from_coo(*POS_A, nrows=3, ncols=3)


@pytest.fixture
def posu():
    return sr.Vector.from_coo(*POS_U, size=3)


@pytest.mark.parametrize("direction", ["push", "pull"])
@pytest.mark.parametrize("name", sorted(MXV_POS))
def test_positional_semirings_mxv(posA, posu, name, direction):
    w = sr.mxv(posA, posu, sr.semirings.get(name), direction=direction)
    assert w.dtype == np.int64
    i, v = w.to_coo()
    assert i.tolist() == [0, 1, 2] and v.tolist() == MXV_POS[name]


@pytest.mark.parametrize("direction", ["push", "pull"])
@pytest.mark.parametrize("name", sorted(VXM_POS))
def test_positional_semirings_vxm(posA, posu, name, direction):
    w = sr.vxm(posu, posA, sr.semirings.get(name), direction=direction)
    i, v = w.to_coo()
    assert w.dtype == np.int64 and i.tolist() == [0, 1, 2] and v.tolist() == VXM_POS[name]


@pytest.mark.parametrize("name", sorted(MXM_POS))
def test_positional_semirings_mxm(posA, name):
    C = sr.mxm(posA, posA, sr.semirings.get(name))
    r, c, v = C.to_coo()
    assert C.dtype == np.int64
    assert list(zip(r.tolist(), c.tolist())) == MXM_KEYS
    assert v.tolist() == MXM_POS[name]


@pytest.mark.parametrize("direction", ["push", "pull"])
def test_any_secondi_picks_a_valid_parent(posA, posu, direction):
    # any: any one of the candidate k is a valid answer (row 0 may give 1 or 2)
    i, v = sr.mxv(posA, posu, sr.semirings.any_secondi, direction=direction).to_coo()
    assert i.tolist() == [0, 1, 2]
    assert v[0] in (1, 2) and v[1] == 2 and v[2] == 1


def test_positional_semiring_on_float_and_bool_inputs():
    A = sr.Matrix.from_coo([0, 1], [1, 0], [0.5, 1.5], nrows=2, ncols=2)
    u = sr.Vector.from_coo([0, 1], [True, False], size=2)
    w = sr.mxv(A, u, sr.semirings.min_secondi)
    assert w.dtype == np.int64 and w.to_coo()[1].tolist() == [1, 0]


# ---------------------------------------------------------------------------------------------
# monoid identities and terminals per dtype
# ---------------------------------------------------------------------------------------------
def type_max(d):
    d = np.dtype(d)
    return True if d.kind == "b" else (math.inf if d.kind == "f" else int(np.iinfo(d).max))


def type_min(d):
    d = np.dtype(d)
    return False if d.kind == "b" else (-math.inf if d.kind == "f" else int(np.iinfo(d).min))


def expected_identity_terminal(name, d):
    kind = np.dtype(d).kind
    if name == "plus":
        return (False, True) if kind == "b" else (0, None)
    if name == "times":
        return (True, False) if kind == "b" else (1, 0 if kind in "iu" else None)
    if name == "min":
        return type_max(d), type_min(d)
    if name == "max":
        return type_min(d), type_max(d)
    raise AssertionError(name)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", ["plus", "times", "min", "max"])
def test_monoid_identity_and_terminal(name, dtype):
    m = M.get(name)
    ident, term = expected_identity_terminal(name, dtype)
    got_i = m.identity_for(dtype)
    assert np.asarray(got_i).dtype == np.dtype(dtype)
    assert got_i == ident
    got_t = m.terminal_for(dtype)
    if term is None:
        assert got_t is None
    else:
        assert np.asarray(got_t).dtype == np.dtype(dtype)
        assert got_t == term


def test_monoid_examples_from_the_spec():
    assert M.min.identity_for("uint8") == 255 and M.min.terminal_for("uint8") == 0
    assert M.max.identity_for("uint8") == 0 and M.max.terminal_for("uint8") == 255
    assert M.min.identity_for("int8") == 127 and M.min.terminal_for("int8") == -128
    assert M.min.identity_for("float64") == math.inf and M.min.terminal_for("float64") == -math.inf
    assert M.lor.identity_for("bool") == False and M.lor.terminal_for("bool") == True  # noqa: E712
    assert M.land.identity_for("bool") == True and M.land.terminal_for("bool") == False  # noqa: E712
    assert M.lxor.identity_for("bool") == False and M.lxor.terminal_for("bool") is None  # noqa: E712
    assert M.plus.terminal_for("float64") is None and M.times.terminal_for("float32") is None


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", ["plus", "times", "min", "max"])
def test_identity_and_terminal_behave(name, dtype):
    # op(identity, x) == x and op(terminal, x) == terminal on sample values (checked with NumPy)
    m = M.get(name)
    d = np.dtype(dtype)
    if d.kind == "b":
        xs = arr([False, True], d)
    elif d.kind == "f":
        xs = arr([0.0, -1.5, 3.0, 1e30, -1e30], d)
    else:
        info = np.iinfo(d)
        xs = arr([0, 1, 7, info.max, info.min], d)
    ident = np.full(xs.shape, m.identity_for(d), dtype=d)
    np.testing.assert_array_equal(m.op(ident, xs), xs)
    np.testing.assert_array_equal(m.op(xs, ident), xs)
    t = m.terminal_for(d)
    if t is not None:
        np.testing.assert_array_equal(m.op(np.full(xs.shape, t, dtype=d), xs), np.full(xs.shape, t, dtype=d))


@pytest.mark.parametrize("dtype", DTYPES)
def test_reduce_of_nothing_is_the_identity(dtype):
    empty = sr.Vector(4, dtype)
    for name in ("plus", "times", "min", "max"):
        ident, _ = expected_identity_terminal(name, dtype)
        got = sr.reduce_scalar(empty, M.get(name))
        assert got == ident and np.asarray(got).dtype == np.dtype(dtype)
    # rows without entries are absent, not the identity
    A = sr.Matrix.from_coo([1], [0], arr([1], dtype), nrows=3, ncols=2)
    assert sr.reduce_rowwise(A, M.min).to_coo()[0].tolist() == [1]


def test_bool_monoids_refuse_numbers():
    with pytest.raises(DomainMismatch, match="lor"):
        M.lor.identity_for("int64")


def test_any_monoid_and_any_pair():
    v = sr.Vector.from_coo([1, 3], [4, 9], size=5)
    assert sr.reduce_scalar(v, M.any) in (4, 9)
    A = sr.Matrix.from_coo([0, 0, 2], [0, 1, 1], [3.5, 0.0, -1.0], nrows=3, ncols=2)
    u = sr.Vector.from_coo([0, 1], [2.0, 5.0], size=2)
    w = sr.mxv(A, u, sr.semirings.any_pair)
    i, x = w.to_coo()
    assert i.tolist() == [0, 2] and x.tolist() == [1.0, 1.0] and w.dtype == np.float64


# ---------------------------------------------------------------------------------------------
# built-in semirings by hand
# ---------------------------------------------------------------------------------------------
# A (4x3): row 0: (0,0)=2, (0,1)=3, (0,2)=4; row 1: (1,1)=5; row 2: (2,0)=-1, (2,2)=6; row 3: (3,1)=7
# u: u(0)=10, u(2)=1 (u(1) absent).  Terms (A(i,k), u(k)):
#   row 0: (2, 10), (4, 1);  row 1: none;  row 2: (-1, 10), (6, 1);  row 3: none.
SEMI_A = ([0, 0, 0, 1, 2, 2, 3], [0, 1, 2, 1, 0, 2, 1], [2, 3, 4, 5, -1, 6, 7])
SEMI_U = ([0, 2], [10, 1])
SEMI_EXPECTED = {
    "plus_times": [2 * 10 + 4 * 1, -1 * 10 + 6 * 1],
    "min_plus": [min(12, 5), min(9, 7)],
    "max_plus": [max(12, 5), max(9, 7)],
    "min_times": [min(20, 4), min(-10, 6)],
    "max_times": [max(20, 4), max(-10, 6)],
    "plus_pair": [2, 2],
    "any_pair": [1, 1],
    "min_first": [min(2, 4), min(-1, 6)],
    "min_second": [min(10, 1), min(10, 1)],
    "max_second": [10, 10],
    "min_secondi": [0, 0],       # k in {0, 2}
    "plus_plus": [12 + 5, 9 + 7],
    "max_first": [4, 6],
    "plus_first": [6, 5],
    "plus_second": [11, 11],
    "times_times": [20 * 4, -10 * 6],
    "min_max": [min(10, 4), min(10, 6)],
    "max_min": [max(2, 1), max(-1, 1)],
}


@pytest.mark.parametrize("direction", ["push", "pull"])
@pytest.mark.parametrize("name", sorted(SEMI_EXPECTED))
def test_builtin_semirings_mxv_by_hand(name, direction):
    A = sr.Matrix.from_coo(*SEMI_A, nrows=4, ncols=3)
    u = sr.Vector.from_coo(*SEMI_U, size=3)
    w = sr.mxv(A, u, sr.semirings.get(name), direction=direction)
    i, v = w.to_coo()
    assert w.dtype == np.int64
    assert i.tolist() == [0, 2]
    assert v.tolist() == SEMI_EXPECTED[name]


@pytest.mark.parametrize("direction", ["push", "pull"])
def test_any_secondi_by_hand(direction):
    A = sr.Matrix.from_coo(*SEMI_A, nrows=4, ncols=3)
    u = sr.Vector.from_coo(*SEMI_U, size=3)
    i, v = sr.mxv(A, u, sr.semirings.any_secondi, direction=direction).to_coo()
    assert i.tolist() == [0, 2] and all(x in (0, 2) for x in v.tolist())


@pytest.mark.parametrize("direction", ["push", "pull"])
def test_vxm_operand_order(direction):
    # vxm: first = u's value, second = A's value. u(0)=10, u(1)=1; A: (0,0)=2, (1,0)=3, (1,1)=4
    A = sr.Matrix.from_coo([0, 1, 1], [0, 0, 1], [2, 3, 4], nrows=2, ncols=2)
    u = sr.Vector.from_coo([0, 1], [10, 1], size=2)
    # w(0) terms (10, 2), (1, 3); w(1) terms (1, 4)
    assert sr.vxm(u, A, sr.semirings.min_first, direction=direction).to_coo()[1].tolist() == [1, 1]
    assert sr.vxm(u, A, sr.semirings.max_second, direction=direction).to_coo()[1].tolist() == [3, 4]
    assert sr.vxm(u, A, sr.semirings.plus_times, direction=direction).to_coo()[1].tolist() == [23, 4]
    minus = sr.Semiring(M.plus, B.minus)
    assert sr.vxm(u, A, minus, direction=direction).to_coo()[1].tolist() == [(10 - 2) + (1 - 3), 1 - 4]
    assert sr.mxv(A, u, minus, direction=direction).to_coo()[1].tolist() == [2 - 10, (3 - 10) + (4 - 1)]


@pytest.mark.parametrize("direction", ["push", "pull"])
def test_lor_land_on_bool_by_hand(direction):
    # row 0: (F, T), (F, T) -> F;  row 1: (T, T) -> T;  row 2: (T, F) -> F;  row 3: no terms
    A = sr.Matrix.from_coo([0, 0, 1, 2, 3], [0, 1, 1, 2, 2], [F, F, T, T, T], nrows=4, ncols=4)
    u = sr.Vector.from_coo([0, 1, 2], [T, T, F], size=4)
    w = sr.mxv(A, u, sr.semirings.lor_land, direction=direction)
    i, v = w.to_coo()
    assert w.dtype == np.bool_ and i.tolist() == [0, 1, 2, 3] and v.tolist() == [F, T, F, F]
    # row 3: A(3,2)=T but u(2)=F -> land F: present with False


def test_mxm_min_plus_by_hand():
    # shortest 2-hop paths: A = [[., 1, 4], [., ., 2], [1, ., .]]
    A = sr.Matrix.from_coo([0, 0, 1, 2], [1, 2, 2, 0], [1.0, 4.0, 2.0, 1.0], nrows=3, ncols=3)
    C = sr.mxm(A, A, sr.semirings.min_plus)
    r, c, v = C.to_coo()
    # (0,2): 0->1->2 = 3; (0,0): 0->2->0 = 5; (1,0): 1->2->0 = 3; (2,1): 2->0->1 = 2; (2,2): 2->0->2 = 5
    assert list(zip(r.tolist(), c.tolist(), v.tolist())) == [
        (0, 0, 5.0), (0, 2, 3.0), (1, 0, 3.0), (2, 1, 2.0), (2, 2, 5.0)]


# ---------------------------------------------------------------------------------------------
# user-defined operators, monoids and semirings
# ---------------------------------------------------------------------------------------------
def absdiff_vec(x, y):
    return np.abs(x - y)


def absdiff_scalar(x, y):
    return abs(x - y)


@pytest.mark.parametrize("vectorized", [True, False])
def test_user_binaryop_in_ewise_add_and_mult(vectorized):
    op = sr.BinaryOp(absdiff_vec if vectorized else absdiff_scalar, "absdiff", vectorized=vectorized)
    assert op.name == "absdiff"
    u = sr.Vector.from_coo([0, 1, 3], [1.0, 5.0, 2.0], size=5)
    v = sr.Vector.from_coo([1, 2, 3], [3.0, 4.0, 7.0], size=5)
    i, x = sr.ewise_add(u, v, op).to_coo()
    assert i.tolist() == [0, 1, 2, 3] and x.tolist() == [1.0, 2.0, 4.0, 5.0]
    i, x = sr.ewise_mult(u, v, op).to_coo()
    assert i.tolist() == [1, 3] and x.tolist() == [2.0, 5.0]
    # with no common entries the function is never called on values
    e = sr.ewise_mult(u, sr.Vector(5), op)
    assert e.nvals == 0 and e.dtype == np.float64


@pytest.mark.parametrize("vectorized", [True, False])
def test_user_binaryop_as_accum(vectorized):
    op = sr.BinaryOp(absdiff_vec if vectorized else absdiff_scalar, "absdiff", vectorized=vectorized)
    out = sr.Vector.from_coo([0, 1], [10, 10], size=3)
    t = sr.Vector.from_coo([1, 2], [4, 5], size=3)
    sr.ewise_add(t, t, B.first, accum=op, out=out)
    i, x = out.to_coo()
    assert i.tolist() == [0, 1, 2] and x.tolist() == [10, 6, 5]


def test_user_binaryop_output_and_domain():
    gt = sr.BinaryOp(lambda x, y: x > y, "gt_user", output="bool")
    check(gt(arr([1, 5], "int64"), arr([2, 2], "int64")), [F, T], "bool")
    truediv = sr.BinaryOp(lambda x, y: x / y, "truediv",
                          output=lambda d: np.float64 if d.kind in "biu" else d)
    check(truediv(arr([3, 1], "int32"), arr([2, 4], "int32")), [1.5, 0.25], "float64")
    check(truediv(arr([3.0], "float32"), arr([2.0], "float32")), [1.5], "float32")
    # domain: the inputs are cast first (here to int16, so 2.9 -> 2)
    add16 = sr.BinaryOp(lambda x, y: x + y, "add16", domain="int16")
    check(add16(arr([2.9], "float64"), arr([1.2], "float64")), [3], "int16")
    # output=None: the result is cast back to the input type (3/2 -> 1 in int64)
    halfish = sr.BinaryOp(lambda x, y: x / y, "halfish")
    check(halfish(arr([3, 7], "int64"), arr([2, 2], "int64")), [1, 3], "int64")


@pytest.mark.parametrize("vectorized", [True, False])
def test_user_unaryop_in_apply(vectorized):
    if vectorized:
        op = sr.UnaryOp(lambda x: x * x + 1, "sq1")
    else:
        op = sr.UnaryOp(lambda x: x * x + 0.5, "sqh", vectorized=False, output="float64")
    A = sr.Matrix.from_coo([0, 1], [1, 0], [3, -2], nrows=2, ncols=2)
    r, c, v = sr.apply(A, op).to_coo()
    assert r.tolist() == [0, 1] and c.tolist() == [1, 0]
    assert v.tolist() == ([10, 5] if vectorized else [9.5, 4.5])
    assert sr.apply(sr.Matrix(2, 2, "int64"), op).nvals == 0


@pytest.mark.parametrize("vectorized", [True, False])
def test_user_indexunaryop_in_select_and_apply(vectorized):
    if vectorized:
        op = sr.IndexUnaryOp(lambda x, i, j, t: (x % 2 == 0) & (i >= t), "even_below", output="bool")
    else:
        op = sr.IndexUnaryOp(lambda x, i, j, t: bool(x % 2 == 0 and i >= t), "even_below", output="bool",
                             vectorized=False)
    A = sr.Matrix.from_coo([0, 0, 1, 2, 2], [0, 1, 1, 0, 2], [12, 18, 8, 7, 4], nrows=3, ncols=3)
    r, c, v = sr.select(A, op, 1).to_coo()
    # rows >= 1 with even values: (1,1)=8, (2,2)=4
    assert list(zip(r.tolist(), c.tolist(), v.tolist())) == [(1, 1, 8), (2, 2, 4)]
    r, c, v = sr.select(A, op, 0).to_coo()
    assert v.tolist() == [12, 18, 8, 4]
    # a vector: i is the index, j is 0
    u = sr.Vector.from_coo([0, 3, 4], [2, 4, 5], size=6)
    assert sr.select(u, op, 2).to_coo()[0].tolist() == [3]
    weight = sr.IndexUnaryOp(lambda x, i, j, t: x * 10 + i - j + t, "weight", output="int64",
                             vectorized=vectorized)
    r, c, v = sr.apply(A, weight, thunk=100).to_coo()
    assert v.tolist() == [12 * 10 + 100, 18 * 10 - 1 + 100, 8 * 10 + 100, 7 * 10 + 2 + 100, 4 * 10 + 100]


def test_builtin_indexunary_ops_by_hand():
    A = sr.Matrix.from_coo([0, 0, 1, 2, 2], [0, 2, 1, 0, 1], [5, 6, 7, 8, 9], nrows=3, ncols=3)
    kept = lambda op, t=0: list(zip(*[x.tolist() for x in sr.select(A, op, t).to_coo()[:2]]))  # noqa: E731
    I = sr.indexunary  # noqa: E741
    assert kept(I.tril) == [(0, 0), (1, 1), (2, 0), (2, 1)]
    assert kept(I.triu) == [(0, 0), (0, 2), (1, 1)]
    assert kept(I.diag) == [(0, 0), (1, 1)]
    assert kept(I.offdiag) == [(0, 2), (2, 0), (2, 1)]
    assert kept(I.triu, 1) == [(0, 2)]
    assert kept(I.tril, -1) == [(2, 0), (2, 1)]
    assert kept(I.rowle, 0) == [(0, 0), (0, 2)]
    assert kept(I.colgt, 0) == [(0, 2), (1, 1), (2, 1)]
    assert kept(I.valuegt, 7) == [(2, 0), (2, 1)]
    assert kept(I.valueeq, 6) == [(0, 2)]
    assert sr.apply(A, I.diagindex).to_coo()[2].tolist() == [0, 2, 0, -2, -1]
    # j - (i + thunk) (C API 2.0, table 3.8): zero exactly where diag with that thunk keeps
    assert sr.apply(A, I.diagindex, thunk=2).to_coo()[2].tolist() == [-2, 0, -2, -4, -3]
    assert kept(I.diag, 2) == [(0, 2)]


def gcd_scalar(x, y):
    return math.gcd(int(x), int(y))


@pytest.mark.parametrize("vectorized", [True, False])
def test_user_monoid_in_reduce(vectorized):
    op = sr.BinaryOp(np.gcd if vectorized else gcd_scalar, "gcd", vectorized=vectorized)
    gcd = sr.Monoid(op, 0)
    A = sr.Matrix.from_coo([0, 0, 0, 1, 2], [0, 1, 2, 1, 2], [12, 18, 8, 7, 0], nrows=4, ncols=3)
    i, v = sr.reduce_rowwise(A, gcd).to_coo()
    # by hand: gcd(12, 18, 8) = 2; gcd(7) = 7; gcd(0) = 0; row 3 empty -> absent
    assert i.tolist() == [0, 1, 2] and v.tolist() == [2, 7, 0]
    assert sr.reduce_scalar(A, gcd) == 1
    assert sr.reduce_scalar(sr.Vector(3, "int64"), gcd) == 0  # identity
    i, v = sr.reduce_columnwise(A, gcd).to_coo()
    assert i.tolist() == [0, 1, 2] and v.tolist() == [12, 1, 8]


def test_user_monoid_long_rows_and_associativity_only():
    # "first" is associative but not commutative: a row reduces to its first entry (column order)
    first = sr.Monoid(sr.BinaryOp(lambda x, y: x, "ufirst", vectorized=False), 0)
    n = 37
    A = sr.Matrix.from_coo(np.zeros(n, int), np.arange(n), np.arange(100, 100 + n), nrows=2, ncols=n)
    i, v = sr.reduce_rowwise(A, first).to_coo()
    assert i.tolist() == [0] and v.tolist() == [100]
    # a long sum through the pairwise path equals Python's sum
    add = sr.Monoid(sr.BinaryOp(lambda x, y: x + y, "uadd"), 0)
    vals = np.arange(1, 1001)
    u = sr.Vector.from_coo(np.arange(1000), vals, size=1000)
    assert sr.reduce_scalar(u, add) == sum(range(1, 1001))


def test_user_monoid_options():
    m = sr.Monoid(B.max, lambda d: 0 if d.kind != "f" else -math.inf, name="nonneg_max")
    assert m.name == "nonneg_max"
    assert m.identity_for("int16") == 0 and m.identity_for("float64") == -math.inf
    assert m.terminal_for("int16") is None
    m32 = sr.Monoid(B.plus, 0, dtype="int32")
    x = sr.reduce_scalar(sr.Vector.from_coo([0, 1], np.array([3, 4], np.int16), size=2), m32)
    assert x == 7 and np.asarray(x).dtype == np.int32  # int16 casts to int32 without loss
    with pytest.raises(DomainMismatch):
        sr.Monoid(B.plus, np.nan, dtype="int64")  # identity does not fit the dtype


@pytest.mark.parametrize("vectorized", [True, False])
@pytest.mark.parametrize("direction", ["push", "pull"])
def test_user_semiring_in_mxv_vxm_mxm(vectorized, direction):
    if vectorized:
        add = sr.BinaryOp(lambda x, y: np.maximum(x, y), "umax")
        mul = sr.BinaryOp(lambda x, y: x + 2 * y, "lin")
    else:
        add = sr.BinaryOp(lambda x, y: max(x, y), "umax", vectorized=False)
        mul = sr.BinaryOp(lambda x, y: x + 2 * y, "lin", vectorized=False)
    s = sr.Semiring(sr.Monoid(add, -(2**62)), mul)
    assert s.name == "umax_lin"
    A = sr.Matrix.from_coo([0, 0, 1, 2], [0, 1, 1, 0], [1, 2, 3, 4], nrows=3, ncols=2)
    u = sr.Vector.from_coo([0, 1], [10, 20], size=2)
    # mxv: row 0 = max(1 + 20, 2 + 40) = 42; row 1 = 3 + 40 = 43; row 2 = 4 + 20 = 24
    i, v = sr.mxv(A, u, s, direction=direction).to_coo()
    assert i.tolist() == [0, 1, 2] and v.tolist() == [42, 43, 24]
    # vxm: w(j) = max_k u'(k) + 2 A(k, j) with u' of size 3: u'(0) = 5, u'(2) = 1
    up = sr.Vector.from_coo([0, 2], [5, 1], size=3)
    # j = 0: k=0 -> 5 + 2, k=2 -> 1 + 8 => 9;  j = 1: k=0 -> 5 + 4 => 9
    i, v = sr.vxm(up, A, s, direction=direction).to_coo()
    assert i.tolist() == [0, 1] and v.tolist() == [9, 9]
    # mxm A (3x2) * Bm (2x2): Bm = [[1, .], [2, 3]]
    Bm = sr.Matrix.from_coo([0, 1, 1], [0, 0, 1], [1, 2, 3], nrows=2, ncols=2)
    C = sr.mxm(A, Bm, s)
    # (0,0): max(1 + 2, 2 + 4) = 6; (0,1): 2 + 6 = 8; (1,0): 3 + 4 = 7; (1,1): 3 + 6 = 9; (2,0): 4 + 2 = 6
    r, c, v = C.to_coo()
    assert list(zip(r.tolist(), c.tolist(), v.tolist())) == [(0, 0, 6), (0, 1, 8), (1, 0, 7), (1, 1, 9),
                                                             (2, 0, 6)]


def test_user_semiring_with_bool_multiply_into_lor():
    close = sr.BinaryOp(lambda x, y: np.abs(x - y) < 1.0, "close", output="bool")
    s = sr.Semiring(M.lor, close)
    A = sr.Matrix.from_coo([0, 0, 1], [0, 1, 1], [1.0, 5.0, 9.0], nrows=2, ncols=2)
    u = sr.Vector.from_coo([0, 1], [1.5, 2.0], size=2)
    w = sr.mxv(A, u, s)
    # row 0: |1 - 1.5| < 1 -> T; row 1: |9 - 2| -> F
    assert w.dtype == np.bool_ and w.to_coo()[1].tolist() == [T, F]


# ---------------------------------------------------------------------------------------------
# registries
# ---------------------------------------------------------------------------------------------
REQUIRED_SEMIRINGS = ["plus_times", "min_plus", "max_plus", "min_times", "max_times", "lor_land",
                      "any_pair", "plus_pair", "min_first", "min_second", "max_second", "any_secondi",
                      "min_secondi"]


def test_semiring_registry():
    reg = sr.semirings.SEMIRING
    for name in REQUIRED_SEMIRINGS:
        assert name in reg, name
        s = reg[name]
        assert isinstance(s, sr.Semiring)
        assert s.name == name
        assert sr.semirings.get(name) is s
        assert getattr(sr.semirings, name) is s
        monoid, multiply = name.split("_")
        assert s.monoid.name == monoid and s.multiply.name == multiply
    for name, s in reg.items():
        assert isinstance(s, sr.Semiring) and s.name == name


def test_monoid_binary_unary_indexunary_registries():
    for name in ("plus", "times", "min", "max", "land", "lor", "lxor", "any"):
        assert isinstance(M.MONOID[name], sr.Monoid) and M.get(name) is M.MONOID[name] is getattr(M, name)
    for name in ("plus", "minus", "times", "div", "min", "max", "first", "second", "pair", "land", "lor",
                 "lxor", "eq", "ne", "lt", "le", "gt", "ge", "firsti", "firstj", "secondi", "secondj"):
        assert isinstance(B.BINARY[name], sr.BinaryOp) and B.get(name) is getattr(B, name)
    for name in ("identity", "ainv", "minv", "abs", "lnot", "one", "sqrt", "exp", "log"):
        assert isinstance(U.UNARY[name], sr.UnaryOp) and U.get(name) is getattr(U, name)
    for name in ("tril", "triu", "diag", "offdiag", "valuegt", "rowindex"):
        assert isinstance(sr.indexunary.INDEXUNARY[name], sr.IndexUnaryOp)


def test_names_accepted_by_operations():
    A = sr.Matrix.from_coo(*SEMI_A, nrows=4, ncols=3)
    u = sr.Vector.from_coo(*SEMI_U, size=3)
    assert sr.mxv(A, u, "min_plus").to_coo()[1].tolist() == SEMI_EXPECTED["min_plus"]
    assert sr.reduce_scalar(u, "max") == 10
    assert sr.ewise_add(u, u, "plus").to_coo()[1].tolist() == [20, 2]
    assert sr.apply(u, "ainv").to_coo()[1].tolist() == [-10, -1]
    assert sr.select(u, "valuegt", 5).to_coo()[0].tolist() == [0]
