"""User-defined operators, monoids and semirings (Python functions, checked against the same
functions applied by hand), and the registries of the built-in names."""

from __future__ import annotations

import math

import numpy as np
import pytest

import semiring as sr
from semiring import DomainMismatch
from _ops import B, F, M, SEMI_A, SEMI_EXPECTED, SEMI_U, T, U, arr, check


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
