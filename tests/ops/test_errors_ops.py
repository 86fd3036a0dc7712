"""Error paths of the operators: semirings whose monoid cannot take the multiply's output,
positional operators where they are not allowed, unknown built-in names, int64 with uint64 (no
common integer type) and float-only unary operators on integers: the exception type, a message
that says what was expected and what was given, and no side effects.

Each case snapshots every container involved with ``to_coo()`` before the call and compares
after it raised (GraphBLAS C API 2.0, section 2.6: an API error leaves the output unmodified);
``raises`` in tests/_errorcases.py, the containers ``A``, ``u``, ``w``, ``C`` in conftest.py.
"""

from __future__ import annotations

import numpy as np
import pytest

import semiring as sr
from semiring import DomainMismatch, InvalidValue

from _errorcases import PT, mat, raises, vec


# ---------------------------------------------------------------------------------------------
# semirings whose monoid cannot take the multiply's output
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("monoid,multiply", [
    (sr.monoid.lor, sr.binary.firsti), (sr.monoid.land, sr.binary.secondj),
    (sr.monoid.lxor, sr.binary.secondi), (sr.monoid.lor, sr.binary.firstj),
])
def test_semiring_construction_refuses_positional_into_bool_monoid(monoid, multiply):
    with pytest.raises(DomainMismatch, match=rf"{monoid.name}.*{multiply.name}.*int64") as info:
        sr.Semiring(monoid, multiply)
    assert type(info.value) is DomainMismatch
    assert "bool" in str(info.value)  # says what the monoid takes


def test_lor_land_is_fine_on_int64(A, u):
    # control: land casts to bool first, so the lor monoid gets bool
    got = sr.mxv(A, u, sr.semirings.lor_land)
    assert got.dtype == np.bool_
    i, v = got.to_coo()
    # row 1 has A(1,2)=2 and u(2)=7 -> True; row 3 has A(3,0)=4 and u(0)=5 -> True
    assert i.tolist() == [1, 3] and v.tolist() == [True, True]


@pytest.mark.parametrize("dtype", ["int64", "int8", "uint32", "float64"])
def test_lor_plus_on_numbers_raises_at_call_time(dtype, w):
    lor_plus = sr.Semiring(sr.monoid.lor, sr.binary.plus)  # polymorphic: fine at construction
    A = mat([0, 1], [1, 2], [1, 2], 4, 4, dtype=dtype)
    u = vec([1, 2], [3, 4], 4, dtype=dtype)
    C = mat([0], [0], [1], 4, 4, dtype=dtype)
    msg = rf"lor.*plus.*{dtype}"
    with raises(DomainMismatch, msg, A, u, w):
        sr.mxv(A, u, lor_plus, out=w)
    with raises(DomainMismatch, msg, A, u, w):
        sr.vxm(u, A, lor_plus, out=w)
    with raises(DomainMismatch, msg, A, C):
        sr.mxm(A, A, lor_plus, out=C)


def test_lor_plus_on_bool_is_fine():
    lor_plus = sr.Semiring(sr.monoid.lor, sr.binary.plus)
    A = mat([0, 1], [1, 2], [True, False], 3, 3)
    u = vec([1, 2], [False, False], 3)
    i, v = sr.mxv(A, u, lor_plus).to_coo()
    assert i.tolist() == [0, 1] and v.tolist() == [True, False]  # plus on bool is lor


def test_monoid_with_fixed_dtype_refuses_lossy_input(A, w):
    m32 = sr.Monoid(sr.binary.plus, 0, dtype="int32")
    with raises(DomainMismatch, r"takes int32.*given int64", A, w):
        sr.reduce_rowwise(A, m32, out=w)
    with raises(DomainMismatch, r"takes int32.*given int64", A):
        sr.reduce_scalar(A, m32)


def test_bool_monoid_on_int_matrix_in_reduce(A, w):
    with raises(DomainMismatch, r"lor takes bool.*given int64", A, w):
        sr.reduce_rowwise(A, sr.monoid.lor, out=w)


# ---------------------------------------------------------------------------------------------
# positional operators where they are not allowed
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("pos", [sr.binary.firsti, sr.binary.firstj, sr.binary.secondi, sr.binary.secondj])
def test_positional_operator_as_accum(A, u, w, pos):
    with raises(DomainMismatch, rf"accum.*positional.*{pos.name}.*only valid as a semiring's multiply", A, u, w):
        sr.mxv(A, u, PT, accum=pos, out=w)
    with raises(DomainMismatch, rf"positional.*{pos.name}", u, w):
        sr.ewise_add(u, w, sr.binary.plus, accum=pos, out=w)


@pytest.mark.parametrize("pos", [sr.binary.firsti, sr.binary.secondj])
def test_positional_operator_in_ewise_apply_kronecker(A, u, w, pos):
    with raises(DomainMismatch, rf"ewise_add: positional operator {pos.name}", u, w):
        sr.ewise_add(u, w, pos, out=w)
    with raises(DomainMismatch, rf"ewise_mult: positional operator {pos.name}", u, w):
        sr.ewise_mult(u, w, pos, out=w)
    with raises(DomainMismatch, rf"positional operator {pos.name}", u, w):
        sr.apply(u, pos, right=1, out=w)
    with raises(DomainMismatch, rf"kronecker: positional operator {pos.name}", A):
        sr.kronecker(A, A, pos)


@pytest.mark.parametrize("pos", [sr.binary.firsti, sr.binary.secondi])
def test_positional_operator_in_monoid(pos):
    with pytest.raises(DomainMismatch, match=rf"Monoid: a positional operator \({pos.name}\) is only valid"):
        sr.Monoid(pos, 0)


def test_positional_operator_called_directly():
    with pytest.raises(InvalidValue, match=r"firsti is positional: it needs entry indices"):
        sr.binary.firsti(np.array([1]), np.array([2]))


# ---------------------------------------------------------------------------------------------
# unknown built-in names
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("getter,kind,known", [
    (sr.semirings.get, "semiring", "plus_times"),
    (sr.monoid.get, "monoid", "plus"),
    (sr.binary.get, "binary operator", "plus"),
    (sr.unary.get, "unary operator", "ainv"),
    (sr.indexunary.get, "index-unary operator", "tril"),
])
def test_unknown_builtin_name(getter, kind, known):
    with pytest.raises(InvalidValue, match=rf"no built-in {kind} 'nope'; expected one of \[.*'{known}'") as info:
        getter("nope")
    assert type(info.value) is InvalidValue


def test_unknown_names_passed_to_operations(A, u, w):
    with raises(InvalidValue, r"no built-in semiring 'nope'", A, u, w):
        sr.mxv(A, u, "nope", out=w)
    with raises(InvalidValue, r"no built-in monoid 'nope'", A, w):
        sr.reduce_rowwise(A, "nope", out=w)
    with raises(InvalidValue, r"no built-in binary operator 'nope'", u, w):
        sr.ewise_add(u, w, "nope", out=w)
    with raises(InvalidValue, r"no built-in unary operator 'nope'", u, w):
        sr.apply(u, "nope", out=w)
    with raises(InvalidValue, r"no built-in index-unary operator 'nope'", A):
        sr.select(A, "nope")


# ---------------------------------------------------------------------------------------------
# int64 with uint64: no common integer type
# ---------------------------------------------------------------------------------------------
MIX = r"int64 and uint64 have no common integer type|uint64 and int64 have no common integer type"


def test_int64_uint64_elementwise(u, w):
    uu = vec([0, 1], np.array([1, 2], dtype=np.uint64), 4)
    with raises(DomainMismatch, MIX, u, uu, w):
        sr.ewise_add(u, uu, sr.binary.plus, out=w)
    with raises(DomainMismatch, MIX, u, uu, w):
        sr.ewise_mult(uu, u, sr.binary.times, out=w)
    with raises(DomainMismatch, MIX, uu):
        sr.apply(uu, sr.binary.plus, right=-1)  # -1 does not fit uint64: an int64 scalar
    with raises(DomainMismatch, MIX, uu, w):
        sr.apply(uu, sr.binary.minus, left=np.int64(3), out=w)


def test_int64_uint64_products(A, u, w):
    Au = A.dup("uint64")
    uu = u.dup("uint64")
    C = mat([0], [0], [1], 4, 4)
    with raises(DomainMismatch, MIX, A, uu, w):
        sr.mxv(A, uu, PT, out=w)
    with raises(DomainMismatch, MIX, Au, u, w):
        sr.vxm(u, Au, sr.semirings.min_plus, out=w)
    with raises(DomainMismatch, MIX, A, Au, C):
        sr.mxm(A, Au, PT, out=C)


def test_other_int_uint_mixes_that_need_float():
    x = vec([0], np.array([1], np.int32), 2)
    y = vec([0], np.array([1], np.uint64), 2)
    with raises(DomainMismatch, r"int32 and uint64 have no common integer type", x, y):
        sr.ewise_add(x, y, sr.binary.plus)
    # control: uint32 with int64 fits int64
    z = sr.ewise_add(vec([0], np.array([1], np.uint32), 2), vec([0], [2], 2), sr.binary.plus)
    assert z.dtype == np.int64 and z.to_coo()[1].tolist() == [3]


def test_uint64_result_accumulated_into_int64_out():
    A = mat([0], [0], np.array([2], np.uint64), 1, 1)
    q = vec([0], np.array([3], np.uint64), 1)
    out = vec([0], [5], 1)  # int64
    with raises(DomainMismatch, MIX, A, q, out):
        sr.mxv(A, q, PT, accum=sr.binary.plus, out=out)


# ---------------------------------------------------------------------------------------------
# float-only unary operators on integers
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("op", [sr.unary.sqrt, sr.unary.exp, sr.unary.log])
@pytest.mark.parametrize("dtype", ["int8", "int64", "uint16", "bool"])
def test_float_only_unary_on_ints(op, dtype):
    x = vec([0, 2], [1, 4], 3, dtype=dtype)
    out = vec([1], [7.0], 3)
    with raises(DomainMismatch, rf"unary {op.name}: expected a float32/float64 input; given {dtype}", x, out):
        sr.apply(x, op, out=out)
    M = mat([0], [0], [4], 2, 2, dtype=dtype)
    with raises(DomainMismatch, rf"given {dtype}", M):
        sr.apply(M, op.name)
    with pytest.raises(DomainMismatch, match=rf"given {dtype}"):
        op(np.array([1, 4], dtype=dtype))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_float_unary_on_floats_is_fine(dtype):
    x = vec([0, 2], [1.0, 4.0], 3, dtype=dtype)
    r = sr.apply(x, sr.unary.sqrt)
    assert r.dtype == np.dtype(dtype) and r.to_coo()[1].tolist() == [1.0, 2.0]
