"""Hostile input to the core: bad arguments to every public function. Each argument replaced
by a value of a wrong kind raises a SemiringError subclass (never a raw Python exception) and
leaves ``out`` unchanged."""

from __future__ import annotations

import copy

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import semiring as sr
from semiring import InvalidValue, SemiringError
from _core_hostile import _mat, _snap, raises


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
