"""Hostile input to the core: casts that cannot keep a value and user operators returning junk.

- Casts (``semiring.dtypes.cast``): NaN, +-inf and out-of-range floats into an integer type
  raise InvalidValue through every constructor and into every integer output; valid values
  arrive exactly (C truncation toward zero). Expected values are computed here with Python's
  exact integer and float arithmetic.
- User operators: a function that returns None, strings, objects or another shape, or that
  raises, gives a SemiringError naming the operator."""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import semiring as sr
from semiring import DomainMismatch, InvalidValue
from _core_hostile import _snap, raises

INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
FAST = settings(max_examples=40, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# =============================================================================================
# casts
# =============================================================================================
def test_inf_into_int64_from_coo():
    with raises(InvalidValue, r"Matrix\.from_coo values: inf cannot be cast to int64"):
        sr.Matrix.from_coo([0], [0], [np.inf], nrows=1, ncols=1, dtype="int64")


def test_huge_float_into_int32():
    with raises(InvalidValue, r"Vector\.from_coo values: 1e\+30 cannot be cast to int32: int32 holds integers "
                              r"in \[-2147483648, 2147483647\]"):
        sr.Vector.from_coo([0], [1e30], size=1, dtype="int32")


def test_the_message_names_the_first_bad_value_and_its_position():
    with raises(InvalidValue, r"Matrix\.from_dense values: -1\.0 \(at position \(1, 0\)\) cannot be cast to uint8"):
        sr.Matrix.from_dense(np.array([[0.0, 5.0], [-1.0, -7.0]]), dtype="uint8")
    with raises(InvalidValue, r"NaN cannot be cast to an integer \(int16\).*first at position 1"):
        sr.Vector.from_dense(np.array([1.0, np.nan, np.inf]), dtype="int16")


def test_from_scipy_casts_are_checked():
    S = sp.csr_array(np.array([[0.0, np.inf], [2.0, 0.0]]))
    with raises(InvalidValue, r"Matrix\.from_scipy values: inf .*cannot be cast to int64"):
        sr.Matrix.from_scipy(S, dtype="int64")
    with raises(InvalidValue, r"inf .*cannot be cast to int32"):  # the COO path
        sr.Matrix.from_scipy(S.tocoo(), dtype="int32")


def test_dup_casts_are_checked():
    A = sr.Matrix.from_coo([0, 1], [1, 0], [1.5, np.inf], nrows=2, ncols=2)
    with raises(InvalidValue, r"Matrix\.dup values: inf .*cannot be cast to int64", A):
        A.dup("int64")
    u = sr.Vector.from_coo([0], [300], size=2)
    with raises(InvalidValue, r"Vector\.dup values: 300 cannot be cast to int8", u):
        u.dup("int8")


def test_results_cast_into_an_integer_out_are_checked():
    x = sr.Vector.from_coo([0, 1], [1.0, np.inf], size=3)
    out = sr.Vector.from_coo([2], [7], size=3, dtype="int64")
    with raises(InvalidValue, r"result: inf .*cannot be cast to int64", x, out):
        sr.apply(x, sr.unary.identity, out=out)
    with raises(InvalidValue, r"cannot be cast to int64", x, out):
        sr.ewise_add(x, x, sr.binary.plus, out=out)
    with raises(InvalidValue, r"result of accum plus: inf .*cannot be cast to int64", x, out):
        sr.ewise_mult(x, x, sr.binary.times, out=out, accum=sr.binary.plus)
    with raises(InvalidValue, r"cannot be cast to int64", x, out):
        sr.assign(out, x)
    with raises(InvalidValue, r"cannot be cast to int64", out):
        sr.assign(out, np.inf, [0])
    M = sr.Matrix(2, 2, "int32")
    with raises(InvalidValue, r"1e\+30 cannot be cast to int32", M):
        sr.apply(sr.Matrix.from_coo([0], [0], [1e30], nrows=2, ncols=2), sr.unary.identity, out=M)


def test_float64_overflowing_float32_is_refused_and_inf_kept():
    with raises(InvalidValue, r"1e\+39 cannot be cast to float32: its magnitude exceeds the largest float32"):
        sr.Vector.from_coo([0], [1e39], size=1, dtype="float32")
    u = sr.Vector.from_coo([0, 1, 2], [np.inf, -np.inf, np.nan], size=3, dtype="float32")
    v = u.to_dense()
    assert v.dtype == np.float32 and v[0] == np.inf and v[1] == -np.inf and np.isnan(v[2])


def test_integer_narrowing_refused_on_input_and_wrapping_in_the_algebra():
    with raises(InvalidValue, r"300 cannot be cast to int8"):
        sr.Vector.from_coo([0], [300], size=1, dtype="int8")
    with raises(InvalidValue, r"-1 cannot be cast to uint64"):
        sr.Vector.from_coo([0], [-1], size=1, dtype="uint64")
    with raises(InvalidValue, r"18446744073709551615 cannot be cast to int64"):
        sr.Vector.from_coo([0], np.array([2**64 - 1], dtype=np.uint64), size=1, dtype="int64")
    # the write step typecasts as C does: an integer result into a narrower integer out wraps
    out = sr.Vector(1, "int8")
    sr.apply(sr.Vector.from_coo([0], [300], size=1), sr.unary.identity, out=out)
    assert out.to_coo()[1].tolist() == [300 - 256]


def test_reader_with_an_infinite_value_into_int64(tmp_path):
    f = tmp_path / "inf.mtx"
    f.write_text("%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 inf\n2 2 1.5\n")
    with raises(InvalidValue, r"inf .*cannot be cast to int64"):
        sr.io.read(str(f), dtype="int64")


def _exact_int(v, dtype):
    """The value a float cast into an integer type must give (C: truncation toward zero), or
    None where it has none; computed with Python's exact arithmetic."""
    if not math.isfinite(v):
        return None
    t = math.trunc(v)  # exact for any float
    info = np.iinfo(dtype)
    return t if info.min <= t <= info.max else None


_edge_floats = st.sampled_from([np.nan, np.inf, -np.inf, 1e30, -1e30, 2.0**63, -2.0**63, 2.0**64, 2.0**31,
                                -2.0**31 - 1, 255.9, 256.0, -0.5, -1.0, 127.5, -128.9, -129.0, 0.0, -0.0])
floats_for_cast = st.lists(st.one_of(_edge_floats, st.floats(allow_nan=True, allow_infinity=True, width=64),
                                     st.integers(-300, 300).map(float)), min_size=1, max_size=6)
CONSTRUCTORS = ["Matrix.from_coo", "Vector.from_coo", "Matrix.from_dense", "Vector.from_dense",
                "Matrix.from_scipy", "Matrix.from_scipy(coo)", "apply into out"]


def _construct(kind, vals, dtype):
    """Values out of the container built by ``kind`` from float64 ``vals`` with ``dtype``."""
    n = vals.size
    if kind == "Matrix.from_coo":
        return sr.Matrix.from_coo(np.arange(n), np.zeros(n, int), vals, nrows=n, ncols=1, dtype=dtype).to_coo()[2]
    if kind == "Vector.from_coo":
        return sr.Vector.from_coo(np.arange(n), vals, size=n, dtype=dtype).to_coo()[1]
    if kind == "Matrix.from_dense":
        return sr.Matrix.from_dense(vals.reshape(n, 1), dtype=dtype).to_coo()[2]
    if kind == "Vector.from_dense":
        return sr.Vector.from_dense(vals, dtype=dtype).to_coo()[1]
    if kind == "Matrix.from_scipy":
        S = sp.csr_array((vals, np.zeros(n, int), np.arange(n + 1)), shape=(n, 1))
        return sr.Matrix.from_scipy(S, dtype=dtype).to_coo()[2]
    if kind == "Matrix.from_scipy(coo)":
        return sr.Matrix.from_scipy(sp.coo_array((vals, (np.arange(n), np.zeros(n, int))), shape=(n, 1)),
                                    dtype=dtype).to_coo()[2]
    x = sr.Vector.from_coo(np.arange(n), vals, size=n)
    out = sr.Vector.from_coo([0], [1], size=n, dtype=dtype)
    before = _snap(out)
    try:
        return sr.apply(x, sr.unary.identity, out=out).to_coo()[1]
    except InvalidValue:
        assert _snap(out) == before, "apply raised and changed out"
        raise


@pytest.mark.parametrize("kind", CONSTRUCTORS)
@FAST
@given(vals=floats_for_cast, dtype=st.sampled_from(INTS))
def test_float_casts_into_integers_raise_or_are_exact(kind, vals, dtype):
    vals = np.array(vals, dtype=np.float64)
    expected = [_exact_int(float(v), dtype) for v in vals]
    if any(e is None for e in expected):
        with pytest.raises(InvalidValue, match=rf"cannot be cast to (an integer \()?{dtype}"):
            _construct(kind, vals, dtype)
    else:
        got = _construct(kind, vals, dtype)
        assert got.dtype == np.dtype(dtype)
        assert [int(g) for g in got] == expected


@FAST
@given(vals=st.lists(st.integers(-2**64, 2**64), min_size=1, max_size=6), dtype=st.sampled_from(INTS),
       src=st.sampled_from(["int64", "uint64", "object"]))
def test_integer_casts_on_input_raise_or_are_exact(vals, dtype, src):
    info = np.iinfo(src) if src != "object" else None
    if info is not None and not all(info.min <= v <= info.max for v in vals):
        return  # not representable in the source type
    arr = np.array(vals, dtype=src if src != "object" else None)
    if arr.dtype.kind == "O":
        with pytest.raises(DomainMismatch):
            sr.Vector.from_coo(np.arange(len(vals)), arr, size=len(vals), dtype=dtype)
        return
    target = np.iinfo(dtype)
    if all(target.min <= v <= target.max for v in vals):
        got = sr.Vector.from_coo(np.arange(len(vals)), arr, size=len(vals), dtype=dtype).to_coo()[1]
        assert [int(g) for g in got] == vals
    else:
        with pytest.raises(InvalidValue, match=rf"cannot be cast to {dtype}"):
            sr.Vector.from_coo(np.arange(len(vals)), arr, size=len(vals), dtype=dtype)


# =============================================================================================
# user operators and other reproducers of raw exceptions
# =============================================================================================
def test_ragged_dense_input():
    with raises(InvalidValue, r"Matrix\.from_dense: expected an array \(a rectangular nested list"):
        sr.Matrix.from_dense([[1, 2], [3]])
    with raises(InvalidValue, r"Vector\.from_dense: expected an array"):
        sr.Vector.from_dense([[1, 2], [3]])
    with raises(InvalidValue, r"Vector\.from_coo indices: expected an array"):
        sr.Vector.from_coo([[0], [1, 2]], size=3)


def test_to_dense_fill_value_of_the_wrong_kind():
    A = sr.Matrix.from_coo([0], [1], [2], nrows=2, ncols=2)
    with raises(DomainMismatch, r"Matrix\.to_dense fill_value: expected a number or bool scalar; given 'x'", A):
        A.to_dense(fill_value="x")
    with raises(DomainMismatch, r"Vector\.to_dense fill_value: expected a number or bool scalar; given \[None\]"):
        sr.Vector(2).to_dense(fill_value=[None])
    with raises(InvalidValue, r"fill_value: -1 does not fit uint8"):
        sr.Vector(2, "uint8").to_dense(-1)
    assert A.to_dense(0.5).tolist() == [[0.5, 2.0], [0.5, 0.5]]


U = sr.Vector.from_coo([0, 1], [1.0, 2.0], size=3)


def test_user_binaryop_returning_strings():
    op = sr.BinaryOp(lambda x, y: np.array(["a"] * len(x)), "strs")
    out = U.dup()
    with raises(DomainMismatch, r"operator strs: expected its function to return bool, integer or float values "
                                r"of shape \(2,\); it returned an array of dtype <U1", out):
        sr.ewise_mult(U, U, op, out=out)
    op = sr.BinaryOp(lambda x, y: "a", "str1", vectorized=False)
    with raises(DomainMismatch, r"operator str1: .*it returned an array of dtype <U1"):
        sr.ewise_add(U, U, op)


def test_user_unaryop_returning_none():
    for op in (sr.UnaryOp(lambda x: None, "nothing", vectorized=False), sr.UnaryOp(lambda x: None, "nothing")):
        with raises(DomainMismatch, r"operator nothing: .*it returned (None|an array of dtype object.*None)"):
            sr.apply(U, op)
    op = sr.UnaryOp(lambda x: None if x > 1.5 else 1.0, "some", vectorized=False)
    with raises(DomainMismatch, r"operator some: .*holding None"):
        sr.apply(U, op)


def test_user_op_of_the_wrong_shape_or_raising():
    with raises(InvalidValue, r"operator short: expected its function to return values of shape \(2,\) "
                              r"\(one per entry\); it returned an array of dtype float64 and shape \(1,\)"):
        sr.apply(U, sr.UnaryOp(lambda x: x[:1], "short"))
    with raises(InvalidValue, r"operator boom: its function raised ZeroDivisionError"):
        sr.ewise_add(U, U, sr.BinaryOp(lambda x, y: 1 / 0, "boom", vectorized=False))
    with raises(DomainMismatch, r"operator inone: .*returned None"):
        sr.select(U, sr.IndexUnaryOp(lambda x, i, j, t: None, "inone"))
    with raises(InvalidValue, r"output type of weird: the output function raised KeyError"):
        sr.apply(U, sr.UnaryOp(lambda x: x, "weird", output=lambda d: {}[d]))


def test_scalar_user_function_results_take_their_common_type():
    # numpy.vectorize would type [1, 0.5] by the first result, int, and give [1, 0]
    op = sr.UnaryOp(lambda x: 1 if x < 1.5 else 0.5, "mixed", vectorized=False)
    assert sr.apply(U, op).to_coo()[1].tolist() == [1.0, 0.5]
    assert sr.select(U, sr.IndexUnaryOp(lambda x, i, j, t: True, "always")).nvals == 2  # a scalar broadcasts
