"""Hostile input to the core: casts that cannot keep a value, user operators returning junk,
bad arguments to every public function, and matrices of huge shape.

- Casts (``semiring.dtypes.cast``): NaN, +-inf and out-of-range floats into an integer type
  raise InvalidValue through every constructor and into every integer output; valid values
  arrive exactly (C truncation toward zero). Expected values are computed here with Python's
  exact integer and float arithmetic.
- User operators: a function that returns None, strings, objects or another shape, or that
  raises, gives a SemiringError naming the operator.
- Bad arguments: every public function, each argument replaced by a value of a wrong kind,
  raises a SemiringError subclass (never a raw Python exception) and leaves ``out`` unchanged.
- Huge shapes: a ``2**40 x 2**40`` matrix is hypersparse (row pointers for its nonempty rows
  only) and every operation on it gives the entries a dict of entries predicts; operations
  that need memory in proportion to the shape raise OutOfMemory before allocating
  (``semiring._memory.available_bytes`` is patched to make that testable).
"""

from __future__ import annotations

import contextlib
import copy
import math
import threading

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import semiring as sr
import semiring._memory as memory
import test_reference_properties as trp
from semiring import DomainMismatch, IndexOutOfBound, InvalidValue, OutOfMemory, SemiringError
from semiring.core import _hyper, _rowptr

INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
N = 2**40
FAST = settings(max_examples=40, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _snap(x):
    if isinstance(x, sr.Matrix):
        return ("M", x.shape, x.dtype) + tuple(a.tolist() for a in x.to_coo())
    if isinstance(x, sr.Vector):
        return ("V", x.shape, x.dtype) + tuple(a.tolist() for a in x.to_coo())
    return None


@contextlib.contextmanager
def raises(exc, match, *untouched):
    """pytest.raises of exactly ``exc`` that also checks ``untouched`` containers are unchanged."""
    before = [_snap(x) for x in untouched]
    with pytest.raises(exc, match=match) as info:
        yield info
    assert type(info.value) is exc, f"expected {exc.__name__}, got {type(info.value).__name__}: {info.value}"
    assert [_snap(x) for x in untouched] == before, "a call that raised modified its output"


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


# =============================================================================================
# bad arguments to every public function
# =============================================================================================
class Junk:
    """An object of no kind the library knows."""

    def __repr__(self):
        return "Junk()"


#: values of no valid kind for any argument
JUNK = st.sampled_from([Junk(), {"a": 1}, [["a"], ["b", "c"]], ("x", 1j), 1j, b"\x00", "no such name",
                        ["a", "b"], [None], object, np.array([["x"]]), lambda *a: None, sr.Vector(7).S,
                        slice("a", "b"), np.dtype("O")]).map(copy.deepcopy)  # (fresh: calls may keep them)
SIZES = st.one_of(JUNK, st.sampled_from([-1, -2**70, 2**64, 2**70, 1.5, 2.0, True, False, None, "3", np.float64(3),
                                         np.array([3]), np.nan]))
INDICES = st.one_of(JUNK, st.sampled_from([[-1], [3], [2**63], [0.5], [np.nan], np.array([[0]]), [True, False],
                                           np.array([0], dtype=np.uint64) + 2**63, "0", 7]))
#: not an operator of any kind, where None is valid (accum=, dup_op=)
OPTIONAL_OPS = st.one_of(JUNK, st.sampled_from([3, 2.5, True, "nosuchop", "plusx", np.array(["plus"])]))
#: ... and where None is not: or an operator of another kind (positional ones are refused
#: outside a semiring's multiply; where they are valid, the call's other kinds are not)
OPS = st.one_of(OPTIONAL_OPS, st.sampled_from([None, sr.unary.ainv, sr.indexunary.tril, sr.binary.firsti]))


def ops_not(kind):
    """OPS without operators of ``kind`` (valid where an argument takes that kind)."""
    return OPS.filter(lambda o: not isinstance(o, kind))
FLAGS = st.one_of(JUNK, st.sampled_from(["yes", 2, 1.0, None, np.array([True, False]), [True]]))
DTYPES = st.one_of(JUNK, st.sampled_from(["complex128", "float16", "str", "int128", 3, np.dtype("U2"), sr.monoid.plus]))
DEVICES = st.one_of(JUNK, st.sampled_from(["tpu", "CPU", 0, np.array(["cpu", "gpu"]), ["cpu"]]))
#: not a container: for an argument that takes a Vector or Matrix (or nothing else)
NOT_CONTAINERS = st.one_of(JUNK, st.sampled_from([None, 3, np.ones(3), sp.csr_array((3, 3))]))
#: no valid Vector or Matrix for a size-3 or 3 x 3 argument, where None is valid (mask=, out=)
CONTAINERS = st.one_of(NOT_CONTAINERS.filter(lambda x: x is not None),
                       st.builds(lambda: sr.Vector(5)), st.builds(lambda: sr.Matrix(2, 4)))
#: ... and where None is not valid either
OPERANDS = st.one_of(CONTAINERS, st.just(None))
#: values of no valid kind for an argument that takes a scalar or an array (None is valid for some)
SCALARS = st.one_of(JUNK, st.sampled_from(["1", [1, 2, 3, 4, 5], np.ones((2, 3, 4)), 2**70, sr.Matrix(4, 4)]))
#: ... and for one where any number is valid (a fill value, a "missing" marker)
NOT_NUMBERS = SCALARS.filter(lambda v: not isinstance(v, int))
#: no array of numbers of the right dimension (from_dense)
ARRAYS = st.one_of(JUNK, st.sampled_from(["1", np.ones((2, 3, 4)), 2**70, None, 3.5, [[[1]]]]))
#: ... and for one where None is not valid either
SCALARS_NOT_NONE = st.one_of(SCALARS, st.just(None))


def _vec():
    return sr.Vector.from_coo([0, 2], [1.0, 2.0], size=3)


def _mat():
    return sr.Matrix.from_coo([0, 1, 2], [1, 2, 0], [1.0, 2.0, 3.0], nrows=3, ncols=3)


def _v_out():
    return sr.Vector.from_coo([1], [5.0], size=3)


def _m_out():
    return sr.Matrix.from_coo([1], [1], [5.0], nrows=3, ncols=3)


#: name -> (call, arguments (name -> (good value factory, strategy of bad values)))
#: ``call(args)`` runs the function with the argument dict; "out" is checked unchanged after a raise.
WRITE = {"mask": (lambda: None, CONTAINERS), "accum": (lambda: None, OPTIONAL_OPS), "replace": (lambda: False, FLAGS)}
SIGNATURES = {
    "mxv": (lambda a: sr.mxv(a["A"], a["u"], a["s"], mask=a["mask"], accum=a["accum"], replace=a["replace"],
                             out=a["out"], direction=a["direction"], trace=a["trace"]),
            {"A": (_mat, OPERANDS), "u": (_vec, OPERANDS), "s": (lambda: "plus_times", OPS),
             "out": (_v_out, CONTAINERS), "direction": (lambda: "auto", st.one_of(DEVICES, st.just(None))),
             "trace": (lambda: None, SCALARS.filter(lambda t: not isinstance(t, list))),
             **WRITE}),
    "vxm": (lambda a: sr.vxm(a["u"], a["A"], a["s"], mask=a["mask"], accum=a["accum"], replace=a["replace"],
                             out=a["out"]),
            {"A": (_mat, OPERANDS), "u": (_vec, OPERANDS), "s": (lambda: "min_plus", OPS),
             "out": (_v_out, CONTAINERS), **WRITE}),
    "mxm": (lambda a: sr.mxm(a["A"], a["B"], a["s"], mask=a["mask"], accum=a["accum"], replace=a["replace"],
                             out=a["out"]),
            {"A": (_mat, OPERANDS), "B": (_mat, OPERANDS), "s": (lambda: "plus_times", OPS),
             "out": (_m_out, CONTAINERS), **WRITE}),
    "ewise_add": (lambda a: sr.ewise_add(a["x"], a["y"], a["op"], mask=a["mask"], accum=a["accum"],
                                         replace=a["replace"], out=a["out"]),
                  {"x": (_mat, OPERANDS), "y": (_mat, OPERANDS), "op": (lambda: "plus", OPS),
                   "out": (_m_out, CONTAINERS), **WRITE}),
    "ewise_mult": (lambda a: sr.ewise_mult(a["x"], a["y"], a["op"], mask=a["mask"], accum=a["accum"],
                                           replace=a["replace"], out=a["out"]),
                   {"x": (_vec, OPERANDS), "y": (_vec, OPERANDS), "op": (lambda: sr.monoid.max, OPS),
                    "out": (_v_out, CONTAINERS), **WRITE}),
    "apply": (lambda a: sr.apply(a["x"], a["op"], right=a["right"], mask=a["mask"], accum=a["accum"],
                                 replace=a["replace"], out=a["out"]),
              {"x": (_mat, OPERANDS), "op": (lambda: sr.binary.times, OPS), "right": (lambda: 2, SCALARS_NOT_NONE),
               "out": (_m_out, CONTAINERS), **WRITE}),
    "apply_indexunary": (lambda a: sr.apply(a["x"], a["op"], thunk=a["thunk"], out=a["out"]),
                         {"x": (_vec, OPERANDS), "op": (lambda: sr.indexunary.rowindex,
                                                          ops_not(sr.IndexUnaryOp)),
                          "thunk": (lambda: 1, SCALARS), "out": (_v_out, CONTAINERS)}),
    "select": (lambda a: sr.select(a["x"], a["op"], a["thunk"], mask=a["mask"], accum=a["accum"],
                                   replace=a["replace"], out=a["out"]),
               {"x": (_mat, OPERANDS), "op": (lambda: "valuegt", ops_not(sr.IndexUnaryOp)),
                "thunk": (lambda: 1.5, SCALARS_NOT_NONE),
                "out": (_m_out, CONTAINERS), **WRITE}),
    "reduce_rowwise": (lambda a: sr.reduce_rowwise(a["A"], a["m"], mask=a["mask"], accum=a["accum"],
                                                   replace=a["replace"], out=a["out"]),
                       {"A": (_mat, OPERANDS), "m": (lambda: "plus", OPS), "out": (_v_out, CONTAINERS), **WRITE}),
    "reduce_columnwise": (lambda a: sr.reduce_columnwise(a["A"], a["m"], out=a["out"]),
                          {"A": (_mat, OPERANDS), "m": (lambda: sr.monoid.min, OPS),
                           "out": (_v_out, CONTAINERS)}),
    "reduce_scalar": (lambda a: sr.reduce_scalar(a["x"], a["m"]),
                      {"x": (_mat, NOT_CONTAINERS), "m": (lambda: "max", OPS)}),
    "assign": (lambda a: sr.assign(a["out"], a["u"], a["idx"], mask=a["mask"], accum=a["accum"],
                                   replace=a["replace"]),
               {"out": (_v_out, st.one_of(NOT_CONTAINERS, st.builds(lambda: sr.Matrix(2, 4)))),
                "u": (lambda: 1.0, SCALARS_NOT_NONE), "idx": (lambda: [0, 2], INDICES),
                **WRITE}),
    "assign_matrix": (lambda a: sr.assign(a["out"], a["u"], (a["rows"], a["cols"])),
                      {"out": (_m_out, st.one_of(NOT_CONTAINERS, st.builds(lambda: sr.Vector(5)))),
                       "u": (lambda: 2, SCALARS_NOT_NONE), "rows": (lambda: [0], INDICES),
                       "cols": (lambda: slice(None), INDICES)}),
    "extract": (lambda a: sr.extract(a["x"], a["rows"], a["cols"], mask=a["mask"], accum=a["accum"],
                                     replace=a["replace"], out=a["out"]),
                {"x": (_mat, OPERANDS), "rows": (lambda: [0, 1, 2], INDICES), "cols": (lambda: [2, 0, 1], INDICES),
                 "out": (_m_out, CONTAINERS), **WRITE}),
    "transpose": (lambda a: sr.transpose(a["A"], mask=a["mask"], accum=a["accum"], replace=a["replace"],
                                         out=a["out"]),
                  {"A": (_mat, OPERANDS), "out": (_m_out, CONTAINERS), **WRITE}),
    "kronecker": (lambda a: sr.kronecker(a["A"], a["B"], a["op"], out=a["out"]),
                  {"A": (lambda: sr.Matrix.from_coo([0], [0], [2.0], nrows=1, ncols=1), OPERANDS),
                   "B": (_mat, OPERANDS), "op": (lambda: "times", OPS), "out": (_m_out, CONTAINERS)}),
    "Matrix": (lambda a: sr.Matrix(a["nrows"], a["ncols"], a["dtype"], device=a["device"]),
               {"nrows": (lambda: 2, SIZES), "ncols": (lambda: 3, SIZES), "dtype": (lambda: "int8", DTYPES),
                "device": (lambda: "cpu", st.one_of(DEVICES, st.just(None)))}),
    "Vector": (lambda a: sr.Vector(a["size"], a["dtype"]),
               {"size": (lambda: 4, SIZES), "dtype": (lambda: "bool", DTYPES)}),
    "Matrix.from_coo": (lambda a: sr.Matrix.from_coo(a["rows"], a["cols"], a["values"], nrows=a["nrows"],
                                                     ncols=a["ncols"], dtype=a["dtype"], dup_op=a["dup_op"]),
                        {"rows": (lambda: [0, 1], INDICES), "cols": (lambda: [1, 0], INDICES),
                         "values": (lambda: [1.0, 2.0], SCALARS), "nrows": (lambda: 2, SIZES),
                         "ncols": (lambda: 2, SIZES), "dtype": (lambda: None, DTYPES),
                         "dup_op": (lambda: None, OPTIONAL_OPS)}),
    "Vector.from_coo": (lambda a: sr.Vector.from_coo(a["idx"], a["values"], size=a["size"], dup_op=a["dup_op"]),
                        {"idx": (lambda: [0, 2], INDICES), "values": (lambda: 1, SCALARS),
                         "size": (lambda: 3, SIZES), "dup_op": (lambda: sr.binary.plus, OPTIONAL_OPS)}),
    "Matrix.from_dense": (lambda a: sr.Matrix.from_dense(a["array"], missing=a["missing"], dtype=a["dtype"]),
                          {"array": (lambda: np.eye(2), ARRAYS), "missing": (lambda: 0.0, NOT_NUMBERS),
                           "dtype": (lambda: "float32", DTYPES)}),
    "Vector.from_dense": (lambda a: sr.Vector.from_dense(a["array"], device=a["device"]),
                          {"array": (lambda: [1, 2], ARRAYS), "device": (lambda: None, DEVICES)}),
    "Matrix.from_scipy": (lambda a: sr.Matrix.from_scipy(a["S"], dtype=a["dtype"], copy=a["copy"]),
                          {"S": (lambda: sp.csr_array(np.eye(2)), NOT_CONTAINERS.filter(lambda x: not sp.issparse(x))),
                           "dtype": (lambda: None, DTYPES),
                           "copy": (lambda: False, FLAGS)}),
    "Matrix methods": (lambda a: (a["A"].get(a["i"], 0), a["A"].to_dense(a["fill"]), a["A"].dup(a["dtype"]),
                                  a["A"].isequal(a["other"], check_dtype=a["flag"]), a["A"].to(a["device"]),
                                  a["A"].to_scipy(copy=a["flag"])),
                       {"A": (_mat, st.nothing()), "i": (lambda: 1, SIZES), "fill": (lambda: 0, NOT_NUMBERS),
                        "dtype": (lambda: None, DTYPES), "other": (_mat, NOT_CONTAINERS), "flag": (lambda: True, FLAGS),
                        "device": (lambda: "cpu", DEVICES)}),
    "Vector methods": (lambda a: (a["u"].get(a["i"]), a["u"].to_dense(a["fill"]), a["u"].dup(a["dtype"]),
                                  a["u"].isequal(a["other"])),
                       {"u": (_vec, st.nothing()), "i": (lambda: 1, SIZES), "fill": (lambda: -1, NOT_NUMBERS),
                        "dtype": (lambda: "int64", DTYPES), "other": (_vec, NOT_CONTAINERS)}),
    "Mask": (lambda a: sr.mxv(_mat(), _vec(), "plus_times", mask=sr.Mask(a["parent"], a["structural"],
                                                                         a["complement"])),
             {"parent": (_vec, OPERANDS), "structural": (lambda: True, FLAGS),
              "complement": (lambda: False, FLAGS)}),
    "BinaryOp": (lambda a: sr.ewise_add(_vec(), _vec(), sr.BinaryOp(a["func"], a["name"], output=a["output"],
                                                                    vectorized=a["vectorized"])),
                 {"func": (lambda: np.add, JUNK.filter(lambda j: not callable(j))),
                  "name": (lambda: "add", JUNK.filter(lambda j: not isinstance(j, str))),
                  "output": (lambda: None, DTYPES), "vectorized": (lambda: True, FLAGS)}),
    "UnaryOp": (lambda a: sr.apply(_vec(), sr.UnaryOp(a["func"], domain=a["domain"], cuda=a["cuda"])),
                {"func": (lambda: np.negative, JUNK.filter(lambda j: not callable(j))),
                 "domain": (lambda: None, DTYPES),
                 "cuda": (lambda: None, JUNK.filter(lambda j: not isinstance(j, str)))}),
    "IndexUnaryOp": (lambda a: sr.select(_vec(), sr.IndexUnaryOp(a["func"], "iu", structural=a["structural"])),
                     {"func": (lambda: (lambda x, i, j, t: i > 0), JUNK.filter(lambda j: not callable(j))),
                      "structural": (lambda: False, FLAGS)}),
    "Monoid": (lambda a: sr.reduce_scalar(_vec(), sr.Monoid(a["op"], a["identity"], dtype=a["dtype"])),
               {"op": (lambda: sr.binary.plus, OPS),
                "identity": (lambda: 0, SCALARS_NOT_NONE.filter(lambda v: not callable(v))),
                "dtype": (lambda: None, DTYPES)}),
    "Semiring": (lambda a: sr.mxv(_mat(), _vec(), sr.Semiring(a["monoid"], a["multiply"])),
                 {"monoid": (lambda: sr.monoid.plus, OPS),
                  "multiply": (lambda: sr.binary.times, ops_not(sr.BinaryOp))}),
    "record": (lambda a: sr.record(a["body"], device=a["device"]),
               {"body": (lambda: (lambda: None), JUNK.filter(lambda j: not callable(j))),
                "device": (lambda: "cpu", DEVICES)}),
    "while_nonempty": (lambda a: sr.while_nonempty(a["u"], a["body"], max_iterations=a["max"]),
                       {"u": (lambda: sr.Vector(3), NOT_CONTAINERS),
                        "body": (lambda: (lambda it: None), JUNK.filter(lambda j: not callable(j))),
                        "max": (lambda: None, SIZES.filter(lambda v: v is not None and not (
                            type(v) is int and v >= 0)))}),
    "registries": (lambda a: (sr.binary.get(a["b"]), sr.unary.get(a["u"]), sr.monoid.get(a["m"]),
                              sr.semirings.get(a["s"]), sr.indexunary.get(a["i"])),
                   {"b": (lambda: "plus", OPS), "u": (lambda: "ainv", OPS), "m": (lambda: "min", OPS),
                    "s": (lambda: "any_pair", OPS), "i": (lambda: "tril", OPS)}),
}


def test_every_public_function_has_bad_argument_cases():
    names = {"mxv", "vxm", "mxm", "ewise_add", "ewise_mult", "apply", "select", "reduce_rowwise",
             "reduce_columnwise", "reduce_scalar", "assign", "extract", "transpose", "kronecker", "Matrix",
             "Vector", "Mask", "BinaryOp", "UnaryOp", "IndexUnaryOp", "Monoid", "Semiring"}
    assert names <= set(SIGNATURES)
    names |= {"record", "while_nonempty"}
    assert names <= set(SIGNATURES)
    # (host_reads takes no argument)
    assert names | {"binary", "unary", "indexunary", "monoid", "semirings", "dtypes", "exceptions", "algorithms",
                    "generators", "io", "host_reads"} >= {n for n in sr.__all__ if not n[0].isupper() or n in names}
    for name in names:  # each call works with its good arguments
        call, params = SIGNATURES[name]
        call({k: make() for k, (make, _) in params.items()})


@settings(max_examples=600, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_bad_arguments_raise_semiring_errors_and_leave_out_unchanged(data):
    name = data.draw(st.sampled_from(sorted(SIGNATURES)), label="function")
    call, params = SIGNATURES[name]
    replaceable = [k for k, (_, bad) in params.items() if bad is not st.nothing()]
    arg = data.draw(st.sampled_from(replaceable), label="argument")
    args = {k: make() for k, (make, _) in params.items()}
    args[arg] = data.draw(params[arg][1], label="bad value")
    out = args.get("out") if isinstance(args.get("out"), (sr.Vector, sr.Matrix)) else None
    before = _snap(out)
    with pytest.raises(SemiringError):
        call(args)
    if out is not None:
        assert _snap(out) == before, f"{name} with a bad {arg} raised but changed out"


@pytest.mark.parametrize("value", [None, "x", 1.5, 1, [1], np.array([True, False])])
def test_replace_must_be_a_bool(value):
    out = _v_out()
    with raises(InvalidValue, r"ewise_add replace: expected True or False", out):
        sr.ewise_add(_vec(), _vec(), "plus", mask=out.S, replace=value, out=out)


def test_dimensions_are_bounded():
    with raises(InvalidValue, r"Matrix nrows: expected a non-negative integer below 2\*\*63; "
                              r"given 9223372036854775808"):
        sr.Matrix(2**63, 1)
    with raises(InvalidValue, r"Vector size: expected a non-negative integer; given 2\.0"):
        sr.Vector(2.0)


def test_slices_of_non_integers_and_zero_steps():
    A = _mat()
    with raises(InvalidValue, r"extract rows: a slice of integers; given slice\('a', None, None\)", A):
        sr.extract(A, slice("a", None))
    out = _v_out()
    with raises(InvalidValue, r"assign indices: a slice step cannot be zero", out):
        sr.assign(out, 1.0, slice(None, None, 0))


# =============================================================================================
# huge shapes
# =============================================================================================
@contextlib.contextmanager
def little_memory(nbytes=2**30):
    """``semiring._memory`` sees ``nbytes`` free: requests past 90% of it raise OutOfMemory."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(memory, "available_bytes", lambda device="cpu": nbytes)
        yield


def _dict(A):
    r, c, v = A.to_coo()
    return {(int(i), int(j)): v_.item() for i, j, v_ in zip(r, c, v)}


def _vdict(u):
    i, v = u.to_coo()
    return {int(k): x.item() for k, x in zip(i, v)}


def _huge(entries, nrows=N, ncols=N, dtype="float64"):
    rows, cols = zip(*entries) if entries else ((), ())
    return sr.Matrix.from_coo(list(rows), list(cols), list(entries.values()), nrows=nrows, ncols=ncols,
                              dtype=dtype if entries else dtype)


EA = {(5, 7): 1.0, (5, N - 1): 3.0, (2**39, 3): 2.0, (N - 1, 0): 4.0}
EB = {(5, 7): 10.0, (9, 3): 20.0, (N - 1, 0): -4.0, (N - 1, N - 1): 1.0}


@pytest.mark.numpy_backend  # the NumPy hypersparse storage and its repr
def test_empty_huge_matrix_costs_nothing():
    with little_memory(2**26):  # 64 MiB free: the dense row pointers would need 8 TiB
        A = sr.Matrix(N, N)
        assert (A.shape, A.nvals, A.format, A.size) == ((N, N), 0, "hypersparse", N * N)
        assert repr(A) == f"<Matrix {N}x{N} nvals=0 dtype=float64 cpu>"
        B = sr.Matrix(2**31, 2**31)
        assert B.format == "hypersparse" and sum(a.nbytes for a in B._rowptr) < 64
        assert [a.size for a in A.to_coo()] == [0, 0, 0]
        assert A.T.shape == (N, N) and A.T.nvals == 0
        assert A.isequal(sr.Matrix(N, N)) and not A.isequal(sr.Matrix(N, N - 1))


@pytest.mark.numpy_backend  # the NumPy hypersparse storage and its repr
def test_huge_matrix_construction_and_access():
    with little_memory(2**26):
        A = _huge(EA)
        assert A.nvals == 4 and A.format == "hypersparse"
        assert _dict(A) == EA
        r, c, _ = A.to_coo()
        assert r.tolist() == sorted(r.tolist())  # row-major order
        assert A.get(5, N - 1) == 3.0 and A.get(5, 6) is None and A.get(N - 1, 0) == 4.0
        assert A.get(6, 7, default=-1) == -1
        D = A.dup()
        assert D.isequal(A) and D is not A and _dict(D) == EA
        assert _dict(A.dup("int64")) == {k: int(v) for k, v in EA.items()}
        assert not A.isequal(_huge({**EA, (5, 7): 1.5}))
        assert _dict(A.T) == {(j, i): v for (i, j), v in EA.items()}
        assert _dict(sr.transpose(A)) == {(j, i): v for (i, j), v in EA.items()}
        assert repr(A) == f"<Matrix {N}x{N} nvals=4 dtype=float64 cpu>"


def test_huge_from_coo_duplicates():
    with raises(InvalidValue, rf"duplicate entries at \(row {2**39}, col {N - 1}\)"):
        sr.Matrix.from_coo([2**39, 1, 2**39], [N - 1, 0, N - 1], [1.0, 2.0, 3.0], nrows=N, ncols=N)
    A = sr.Matrix.from_coo([2**39, 1, 2**39], [N - 1, 0, N - 1], [1.0, 2.0, 3.0], nrows=N, ncols=N,
                           dup_op=sr.binary.plus)
    assert _dict(A) == {(1, 0): 2.0, (2**39, N - 1): 4.0}
    with raises(IndexOutOfBound, rf"expected indices in \[0, {N}\); given {N}"):
        sr.Matrix.from_coo([N], [0], nrows=N, ncols=N)


def test_huge_extract_rows_and_columns():
    with little_memory(2**26):
        A = _huge(EA)
        E = sr.extract(A, [5, 2**39, 6])
        assert E.shape == (3, N) and _dict(E) == {(0, 7): 1.0, (0, N - 1): 3.0, (1, 3): 2.0}
        assert _vdict(sr.extract(A, 5)) == {7: 1.0, N - 1: 3.0}  # one row, a Vector of size N
        assert _vdict(sr.extract(A, None, 3)) == {2**39: 2.0}  # one column
        E = sr.extract(A, [N - 1, 5], [0, 7, N - 1])
        assert _dict(E) == {(0, 0): 4.0, (1, 1): 1.0, (1, 2): 3.0}
        assert _dict(sr.extract(A, None, [7, 0])) == {(5, 0): 1.0, (N - 1, 1): 4.0}


@pytest.mark.parametrize("semiring", ["plus_times", "min_plus", "any_pair", "any_secondi", "max_firsti"])
@pytest.mark.parametrize("direction", ["auto", "push", "pull"])
def test_huge_mxv_vxm_with_a_sparse_vector(semiring, direction):
    s = sr.semirings.get(semiring)
    A = _huge(EA)
    u = sr.Vector.from_coo([7, 3, N - 1], [2.0, 5.0, 1.0], size=N)
    v = sr.Vector.from_coo([5, N - 1], [2.0, 1.0], size=N)

    def expect(terms):  # {output index: [(a, x, i, k, j)]}: reduce by the semiring by hand
        out = {}
        for key, ts in terms.items():
            vals = [{"plus_times": a * x, "min_plus": a + x, "any_pair": 1.0}.get(semiring) for a, x, *_ in ts]
            if semiring == "any_secondi":
                vals = [k for _, _, _, k, _ in ts]
            if semiring == "max_firsti":
                vals = [i for _, _, i, _, _ in ts]
            out[key] = vals
        return out

    mxv_terms, vxm_terms = {}, {}
    for (i, k), a in EA.items():
        if k in _vdict(u):
            mxv_terms.setdefault(i, []).append((a, _vdict(u)[k], i, k, 0))
        if i in _vdict(v):
            vxm_terms.setdefault(k, []).append((_vdict(v)[i], a, 0, i, k))
    with little_memory(2**26):
        got = _vdict(sr.mxv(A, u, s, direction=direction))
    exp = expect(mxv_terms)
    assert set(got) == set(exp)
    for key, vals in exp.items():
        if semiring.startswith("any"):
            assert got[key] in vals
        else:
            assert got[key] == {"plus": sum, "min": min, "max": max}[semiring.split("_")[0]](vals)
    with little_memory(2**26):
        got = _vdict(sr.vxm(v, A, s, direction=direction))
    exp = expect({j: [(x, a, i0, k, j0) for x, a, i0, k, j0 in ts] for j, ts in vxm_terms.items()})
    assert set(got) == set(exp)


def _apply_op(x, y, name):
    return {"plus": x + y, "times": x * y, "min": min(x, y), "second": y}[name]


@pytest.mark.parametrize("op", ["plus", "times", "min", "second"])
def test_huge_ewise_operations(op):
    with little_memory(2**26):
        A, B = _huge(EA), _huge(EB)
        add = _dict(sr.ewise_add(A, B, op))
        mult = _dict(sr.ewise_mult(A, B, op))
    exp_add = {k: _apply_op(EA[k], EB[k], op) if k in EA and k in EB else EA.get(k, EB.get(k)) for k in {*EA, *EB}}
    assert add == exp_add
    assert mult == {k: _apply_op(EA[k], EB[k], op) for k in EA.keys() & EB.keys()}


def test_huge_write_step_mask_accum_replace():
    with little_memory(2**26):
        A, B = _huge(EA), _huge(EB)
        M = _huge({(5, 7): True, (2**39, 3): False, (9, 3): True}, dtype="bool")
        out = B.dup()
        sr.ewise_add(A, A, "plus", mask=M.V, accum=sr.binary.minus, out=out)
        # allowed: (5,7), (9,3); (5,7): 10 - 2; (9,3): no T there, out keeps 20; the rest kept
        assert _dict(out) == {**EB, (5, 7): 10.0 - 2.0}
        out = B.dup()
        sr.ewise_add(A, A, "plus", mask=~M.S, replace=True, out=out)
        # allowed: all but (5,7), (2**39,3), (9,3); there out takes T (an absent T deletes:
        # (N-1,N-1)), and replace deletes out's entries outside the mask
        assert _dict(out) == {(5, N - 1): 6.0, (N - 1, 0): 8.0}
        out = B.dup()
        sr.apply(A, sr.indexunary.rowindex, thunk=1, out=out, accum=sr.binary.plus)
        assert _dict(out) == {(5, 7): 16.0, (5, N - 1): 6.0, (2**39, 3): 2**39 + 1, (9, 3): 20.0,
                              (N - 1, 0): -4.0 + N, (N - 1, N - 1): 1.0}
        out = B.dup()
        sr.select(A, sr.indexunary.colle, 7, mask=~B.S, out=out)
        assert _dict(out) == {**EB, (2**39, 3): 2.0}
        assert _dict(sr.select(A, sr.indexunary.rowgt, 2**39)) == {(N - 1, 0): 4.0}
        assert _dict(sr.select(A, sr.indexunary.diag, -(N - 1))) == {(N - 1, 0): 4.0}
        assert _dict(sr.apply(A, sr.unary.ainv)) == {k: -v for k, v in EA.items()}


def test_huge_transpose_mxm_assign_reduce():
    with little_memory(2**26):
        A, B = _huge(EA), _huge(EB)
        # A^T: (7,5) 1, (N-1,5) 3, (3,2**39) 2, (0,N-1) 4; the mask allows (7,5), (0,N-1), (1,1)
        out = _huge({(7, 5): 100.0, (0, N - 1): 50.0, (1, 1): 7.0})
        sr.transpose(A, mask=out.S, accum=sr.binary.plus, out=out)
        assert _dict(out) == {(7, 5): 101.0, (0, N - 1): 54.0, (1, 1): 7.0}
        C = _dict(sr.mxm(A, sr.transpose(B), "plus_times"))
        exp = {}
        for (i, k), a in EA.items():
            for (j, k2), b in EB.items():
                if k == k2:
                    exp[(i, j)] = exp.get((i, j), 0.0) + a * b
        assert C == exp
        assert _dict(sr.mxm(A, sr.transpose(B), "min_secondi")) == {key: min(
            k for (i, k) in EA for (j, k2) in EB if k == k2 and (i, j) == key) for key in exp}
        out = A.dup()
        sr.assign(out, 9.0, ([5, N - 2], [7, 1]))
        assert _dict(out) == {**EA, (5, 7): 9.0, (5, 1): 9.0, (N - 2, 7): 9.0, (N - 2, 1): 9.0}
        out = A.dup()
        u = sr.Matrix.from_coo([0], [1], [-1.0], nrows=2, ncols=2)
        sr.assign(out, u, ([5, 2**39], [7, 3]))  # the region's entries are replaced by u's
        assert _dict(out) == {(5, 3): -1.0, (5, N - 1): 3.0, (N - 1, 0): 4.0}
        out = A.dup()
        sr.assign(out, B, None, accum=sr.binary.plus)
        assert _dict(out) == {k: EA.get(k, 0.0) + EB.get(k, 0.0) for k in {*EA, *EB}}
        assert _vdict(sr.reduce_rowwise(A, "plus")) == {5: 4.0, 2**39: 2.0, N - 1: 4.0}
        assert _vdict(sr.reduce_columnwise(A, "max")) == {7: 1.0, N - 1: 3.0, 3: 2.0, 0: 4.0}
        assert sr.reduce_scalar(A, "plus") == 10.0


def test_huge_kronecker_and_transposes():
    A = sr.Matrix.from_coo([1, 2**20 - 1], [2, 0], [3.0, 5.0], nrows=2**20, ncols=2**20)
    B = sr.Matrix.from_coo([4], [5], [2.0], nrows=2**20, ncols=2**20)
    with little_memory(2**26):
        K = sr.kronecker(A, B, "times")
        assert K.shape == (N, N) and K.format == "hypersparse"
        assert _dict(K) == {(1 * 2**20 + 4, 2 * 2**20 + 5): 6.0, ((2**20 - 1) * 2**20 + 4, 5): 10.0}
        W = sr.Matrix(1, 2**62)
        assert sr.transpose(W).shape == (2**62, 1) and W.T.nvals == 0
        W = sr.Matrix.from_coo([0, 0], [3, 2**62 - 1], [1, 2], nrows=1, ncols=2**62)
        assert _dict(sr.transpose(W)) == {(3, 0): 1, (2**62 - 1, 0): 2}
    with raises(InvalidValue, r"kronecker: a 1099511627776x1099511627776 and a 1099511627776x1099511627776 "
                              r"matrix give a \d+x\d+ result; dimensions must be below 2\*\*63"):
        sr.kronecker(sr.Matrix(2**40, 2**40), sr.Matrix(2**40, 2**40), "times")


def test_shape_proportional_work_raises_before_allocating():
    A = _huge(EA)
    u = sr.Vector.from_coo([3], [1.0], size=N)
    with little_memory(2**30):
        with raises(OutOfMemory, r"Matrix.to_dense: a dense 1099511627776 x 1099511627776 float64 array"):
            A.to_dense(0.0)
        with raises(OutOfMemory, r"Vector.to_dense: a dense array of 1099511627776"):
            u.to_dense(0.0)
        with raises(OutOfMemory, r"the full row pointers \(1099511627777 offsets\) of a hypersparse matrix"):
            A.to_scipy()
        with raises(OutOfMemory, r"extract rows: a list of 549755813888 indices"):
            sr.extract(A, slice(0, N, 2))
        with raises(OutOfMemory, r"assign rows: a list of 1099511627776 indices", A):
            sr.assign(A, 1.0, (None, [0]))
        with raises(OutOfMemory, r"the mask ~Vector.S: one bool for each of its 1099511627776 positions"):
            # (the NumPy backend's pull tests the mask with one bool per position)
            An, un = A.to("cpu", backend="numpy"), u.to("cpu", backend="numpy")
            sr.mxv(An, un, "plus_times", mask=~un.S, direction="pull")
        big = sr.Matrix.from_coo(np.arange(6000), np.arange(6000), 1.0, nrows=6000, ncols=6000)
        with raises(OutOfMemory, r"kronecker: nvals\(A\) \* nvals\(B\) = 6000 \* 6000 = 36000000 entries"):
            sr.kronecker(big, big, "times")


@pytest.mark.numpy_backend  # the NumPy backend's storage formats
def test_hypersparse_threshold_keeps_normal_matrices_full():
    n = _rowptr.HYPER_MIN_ROWS
    assert sr.Matrix(n - 1, n - 1).format == "csr"
    assert sr.Matrix(n, n).format == "hypersparse"
    dense_rows = sr.Matrix.from_coo(np.arange(n), np.zeros(n, int), nrows=n, ncols=1)
    assert dense_rows.format == "csr"
    few = sr.Matrix.from_coo([0, n - 1], [0, 0], nrows=n, ncols=1)
    assert few.format == "hypersparse"
    assert few._indptr.shape == (n + 1,) and few._indptr[-1] == 2  # built on first use
    assert sr.apply(few, sr.unary.one).format == "hypersparse"


# =============================================================================================
# every operation's semantics with hypersparse storage and with compressed coordinates
# =============================================================================================
@contextlib.contextmanager
def always_hypersparse():
    """Every matrix with a row keeps row pointers for its nonempty rows only."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_rowptr, "HYPER_MIN_ROWS", 0)
        mp.setattr(_rowptr, "HYPER_RATIO", 0)
        yield


@contextlib.contextmanager
def always_compressed():
    """Every matrix operation runs the way it runs for 2**63 or more positions: on copies
    compressed to the ids the operands use (the compressed call itself runs normally)."""
    inside = threading.local()
    real_run = _hyper.run

    def huge(*shapes):
        return not getattr(inside, "on", False) and any(len(s) == 2 for s in shapes)

    def run(fn, *args, **kwargs):
        def marked(*a, **k):
            inside.on = True
            try:
                return fn(*a, **k)
            finally:
                inside.on = False

        return real_run(marked, *args, **kwargs)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_hyper, "huge", huge)
        mp.setattr(_hyper, "run", run)
        yield


@pytest.mark.numpy_backend  # the NumPy backend's hypersparse code paths
def test_the_forced_modes_take_their_paths():
    with always_hypersparse():
        assert sr.Matrix.from_coo([0], [1], nrows=3, ncols=3).format == "hypersparse"
    calls = []
    with always_compressed(), pytest.MonkeyPatch.context() as mp:
        real = _hyper.compress
        mp.setattr(_hyper, "compress", lambda *a: calls.append(1) or real(*a))
        C = sr.ewise_add(_mat(), _mat(), "plus")
    assert len(calls) == 2 and _dict(C) == {(0, 1): 2.0, (1, 2): 4.0, (2, 0): 6.0}


MATRIX_OPS = sorted(op for op in trp.CASES if op not in ("apply_unary", "assign_vector", "extract_vector"))


@pytest.mark.parametrize("mode", [always_hypersparse, always_compressed], ids=["hypersparse", "compressed"])
@settings(max_examples=300, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_operations_match_the_reference(mode, data):
    opname = data.draw(st.sampled_from(MATRIX_OPS if mode is always_compressed else sorted(trp.CASES)), label="op")
    grid = data.draw(st.sampled_from(trp.GRID), label="grid")
    with mode():
        trp.check_case(opname, *grid, data)


# =============================================================================================
# the same on the GPU (CuPy arrays through the same code)
# =============================================================================================
def _host(a):
    return a.get() if hasattr(a, "get") and not isinstance(a, np.ndarray) else np.asarray(a)


@pytest.mark.gpu
@pytest.mark.parametrize("forced", [False, True], ids=["thresholds", "always-hypersparse"])
def test_huge_and_hypersparse_matrices_on_the_gpu_match_the_cpu(forced):
    """Every operation on 2**40 x 2**40 matrices (and, forced, on small hypersparse ones) gives
    on the GPU the entries it gives on the CPU."""
    import cupy as cp

    def entries(x):
        parts = [_host(a).tolist() for a in x.to_coo()]
        return sorted(zip(*parts))

    def run(dev):
        A, B = _huge(EA).to(dev), _huge(EB).to(dev)
        u = sr.Vector.from_coo([7, 3, N - 1], [2.0, 5.0, 1.0], size=N).to(dev)
        got = {"format": A.format, "T": entries(A.T), "transpose": entries(sr.transpose(A)),
               "add": entries(sr.ewise_add(A, B, "plus")), "mult": entries(sr.ewise_mult(A, B, "times")),
               "extract": entries(sr.extract(A, [5, 2**39])), "row": entries(sr.extract(A, 5)),
               "reduce": entries(sr.reduce_rowwise(A, "plus")), "reduce_cols": entries(sr.reduce_columnwise(A, "plus")),
               "mxm": entries(sr.mxm(A, sr.transpose(B), "plus_times")),
               "select": entries(sr.select(A, sr.indexunary.rowle, 2**39)), "get": float(A.get(5, N - 1)),
               "dup": A.dup().isequal(A)}
        out = B.dup()
        sr.ewise_add(A, A, "plus", mask=~B.S, replace=True, out=out)
        got["masked"] = entries(out)
        for direction in ("push", "pull"):
            for s in ("plus_times", "min_plus", "min_secondi"):
                got[f"mxv {s} {direction}"] = entries(sr.mxv(A, u, s, direction=direction))
                got[f"vxm {s} {direction}"] = entries(sr.vxm(u, A, s, direction=direction))
        few = sr.Matrix.from_coo([1, 2**21 - 1], [2, 0], [1.0, 2.0], nrows=2**21, ncols=2**21).to(dev)
        got["few"] = (few.format, entries(few), int(few._indptr[-1]), few._indptr.shape[0])
        K = sr.kronecker(sr.Matrix.from_coo([1], [2], [3.0], nrows=2**20, ncols=2**20).to(dev),
                         sr.Matrix.from_coo([4], [5], [2.0], nrows=2**20, ncols=2**20).to(dev), "times")
        got["kron"] = entries(K)
        return got

    with always_hypersparse() if forced else contextlib.nullcontext():
        cpu, gpu = run("cpu"), run("gpu")
        G = sr.Matrix.from_coo(cp.asarray([0, 2**21 - 1]), cp.asarray([1, 0]), cp.asarray([1.0, 2.0]),
                               nrows=2**21, ncols=2**21, device="gpu")
        assert G.device == "gpu" and G.format == "hypersparse" and entries(G) == [(0, 1, 1.0), (2**21 - 1, 0, 2.0)]
    assert gpu == cpu
