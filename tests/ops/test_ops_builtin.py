"""Positional operators, monoid identities and terminals, and the built-in semirings, against
hand-derived expectations (the GraphBLAS C API 2.0 tables; the products written out term by
term in the comments), never computed with the operators under test."""

from __future__ import annotations

import math

import numpy as np
import pytest

import semiring as sr
from semiring import DomainMismatch, InvalidValue
from _ops import B, DTYPES, F, M, SEMI_A, SEMI_EXPECTED, SEMI_U, T, arr


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
# built-in semirings by hand (the operands and the worked products: tests/_ops.py)
# ---------------------------------------------------------------------------------------------
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
