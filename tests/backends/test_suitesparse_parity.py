"""The SuiteSparse:GraphBLAS CPU backend: parity of every public operation with the NumPy
backend (operands in each of the three forms of tests/_suitesparse_forms.py), and the
operations computed natively by SuiteSparse."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import semiring as sr
from semiring.testing import reference
from semiring.exceptions import InvalidValue, SemiringError

from _strategies import DTYPES, containers, dims, lib_mask, matrices, scalars, vec_dims, vectors
from _suitesparse_forms import B, IU, M, S, U, as_form, numpy_only

pytestmark = pytest.mark.suitesparse

FORMS = ("numpy", "ss", "gb")


# -- parity of every operation ------------------------------------------------------------------
def _mxv(d):
    m, n = d.draw(dims), d.draw(vec_dims)
    s = d.draw(st.sampled_from((S.plus_times, S.min_plus, S.any_pair, S.max_second, S.min_secondi)))
    return (lambda lib, A, u, **w: lib.mxv(A, u, s, **w)), (d.draw(matrices(m, n)), d.draw(vectors(n))), (m,)


def _vxm(d):
    m, n = d.draw(vec_dims), d.draw(dims)
    s = d.draw(st.sampled_from((S.plus_times, S.lor_land, S.any_secondi, S.max_times)))
    return (lambda lib, u, A, **w: lib.vxm(u, A, s, **w)), (d.draw(vectors(m)), d.draw(matrices(m, n))), (n,)


def _mxm(d):
    m, k, n = d.draw(dims), d.draw(dims), d.draw(dims)
    s = d.draw(st.sampled_from((S.plus_times, S.min_plus, S.plus_pair, S.min_firsti)))
    return (lambda lib, A, C, **w: lib.mxm(A, C, s, **w)), (d.draw(matrices(m, k)), d.draw(matrices(k, n))), (m, n)


def _shape(d):
    return d.draw(st.one_of(st.tuples(vec_dims), st.tuples(dims, dims)))


def _ewise(name):
    def case(d):
        shape = _shape(d)
        op = d.draw(st.sampled_from((B.plus, B.minus, B.min, B.first, B.pair, B.eq, M.max)))
        return (lambda lib, x, y, **w: getattr(lib, name)(x, y, op, **w)), (d.draw(containers(shape)), d.draw(containers(shape))), shape
    return case


def _apply(d):
    shape, kind = _shape(d), d.draw(st.sampled_from(("unary", "left", "right", "index")))
    x = d.draw(containers(shape))
    if kind == "unary":
        op = d.draw(st.sampled_from((U.ainv, U.abs, U.identity, U.lnot, U.one)))
        return (lambda lib, x, **w: lib.apply(x, op, **w)), (x,), shape
    if kind == "index":
        op, t = d.draw(st.sampled_from((IU.rowindex, IU.colindex, IU.diagindex))), d.draw(st.integers(-2, 2))
        return (lambda lib, x, **w: lib.apply(x, op, thunk=t, **w)), (x,), shape
    op = d.draw(st.sampled_from((B.plus, B.times, B.max, B.second, B.lt)))
    s = d.draw(scalars(d.draw(st.sampled_from(DTYPES))))
    return (lambda lib, x, **w: lib.apply(x, op, **{kind: s}, **w)), (x,), shape


def _select(d):
    shape = _shape(d)
    op = d.draw(st.sampled_from((IU.tril, IU.triu, IU.offdiag, IU.valuegt, IU.valueeq, IU.rowle)))
    t = d.draw(st.integers(-1, 1))
    return (lambda lib, x, **w: lib.select(x, op, t, **w)), (d.draw(containers(shape)),), shape


def _reduce(name):
    def case(d):
        m, n = d.draw(dims), d.draw(dims)
        mon = d.draw(st.sampled_from((M.plus, M.min, M.max, M.any, M.times)))
        return (lambda lib, A, **w: getattr(lib, name)(A, mon, **w)), (d.draw(matrices(m, n)),), (m,) if name == "reduce_rowwise" else (n,)
    return case


def _index(d, n, unique):
    kind = d.draw(st.sampled_from(("all", "slice", "list")))
    if kind == "all":
        return None, n
    if kind == "slice":
        return slice(None, None, -1), n
    idx = d.draw(st.lists(st.integers(0, max(n - 1, 0)), unique=unique, max_size=n)) if n else []
    return np.array(idx, dtype=np.int64), len(idx)


def _extract(d):
    shape = _shape(d)
    picks = [_index(d, n, unique=False) for n in shape]
    idx = tuple(p[0] for p in picks)
    fn = (lambda lib, x, **w: lib.extract(x, idx[0], **w)) if len(shape) == 1 else (lambda lib, x, **w: lib.extract(x, *idx, **w))
    return fn, (d.draw(containers(shape)),), tuple(p[1] for p in picks)


def _assign(d):
    shape = _shape(d)
    picks = [_index(d, n, unique=True) for n in shape]
    idx = picks[0][0] if len(shape) == 1 else tuple(p[0] for p in picks)
    sub = tuple(p[1] for p in picks)
    if d.draw(st.booleans()):
        return (lambda lib, out, u, **w: lib.assign(out, u, idx, **w)), (d.draw(containers(sub)),), shape
    s = d.draw(scalars(d.draw(st.sampled_from(DTYPES))))
    return (lambda lib, out, **w: lib.assign(out, s, idx, **w)), (), shape


def _transpose(d):
    A = d.draw(matrices())
    return (lambda lib, A, **w: lib.transpose(A, **w)), (A,), (A.ncols, A.nrows)


def _kronecker(d):
    A, C = d.draw(matrices(d.draw(st.integers(0, 3)), d.draw(st.integers(0, 3)))), d.draw(matrices(2, 3))
    op = d.draw(st.sampled_from((B.times, B.plus, B.first, B.pair)))
    return (lambda lib, A, C, **w: lib.kronecker(A, C, op, **w)), (A, C), (A.nrows * 2, A.ncols * 3)


CASES = {"mxv": _mxv, "vxm": _vxm, "mxm": _mxm, "ewise_add": _ewise("ewise_add"), "ewise_mult": _ewise("ewise_mult"),
         "apply": _apply, "select": _select, "reduce_rowwise": _reduce("reduce_rowwise"),
         "reduce_columnwise": _reduce("reduce_columnwise"), "extract": _extract, "assign": _assign,
         "transpose": _transpose, "kronecker": _kronecker}


def _outcome(call):
    try:
        return call(), None
    except SemiringError as exc:
        return None, exc


@pytest.mark.parametrize("opname", sorted(CASES))
@settings(max_examples=30, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_every_operation_matches_the_numpy_backend(opname, data):
    """The same call on NumPy inputs and on inputs in random forms gives the same result (exactly:
    the values, the positions, the dtype) or the same error, and leaves the inputs as they were;
    the result's backend follows the rule of ``semiring.core._validate.follow_inputs``."""
    with numpy_only():
        fn, inputs, shape = CASES[opname](data)
        needs_out = opname == "assign"
        out = data.draw(containers(shape)) if needs_out or data.draw(st.booleans()) else None
        mask_kind = data.draw(st.sampled_from((None, "S", "V", "~S", "~V")))
        mask_parent = None if mask_kind is None else data.draw(containers(shape, st.sampled_from(("bool", "int8"))))
        accum = data.draw(st.sampled_from((None, B.plus, B.second)))
        replace = mask_kind is not None and data.draw(st.booleans())
    forms = data.draw(st.lists(st.sampled_from(FORMS), min_size=len(inputs) + 2, max_size=len(inputs) + 2))
    args = [as_form(x, f) for x, f in zip(inputs, forms)]
    got_out, got_mask = as_form(out, forms[-2]), as_form(mask_parent, forms[-1])
    ref_out = None if out is None else out.dup()

    def call(ins, o, m):
        w = dict(mask=lib_mask(mask_kind, m), accum=accum, replace=replace)
        return fn(sr, o, *ins, **w) if needs_out else fn(sr, *ins, out=o, **w)

    expected, err = _outcome(lambda: call(inputs, ref_out, mask_parent))
    got, got_err = _outcome(lambda: call(args, got_out, got_mask))
    if err is not None:
        assert type(got_err) is type(err) and str(got_err) == str(err)
        return
    assert got_err is None, got_err
    if not got.isequal(expected, check_dtype=True):
        # only an 'any' reduction may differ: each of its values is one of the terms reduced
        rins = [reference.from_semiring(x) for x in inputs]
        rout = None if out is None else reference.from_semiring(out)
        w = dict(mask=reference.mask(mask_kind, None if mask_parent is None else reference.from_semiring(mask_parent)),
                 accum=accum, replace=replace)
        ref = fn(reference, rout, *rins, **w) if needs_out else fn(reference, *rins, out=rout, **w)
        assert any(isinstance(v, reference.Choice) for v in ref.entries.values()), (got.to_coo(), expected.to_coo())
        reference.assert_same(got, ref)
    for x, y in zip(inputs, args):
        assert y.isequal(x, check_dtype=True)
    if out is not None:
        assert got is got_out
    else:
        used = list(forms[:len(inputs)]) + ([forms[-1]] if mask_parent is not None else [])
        wanted = "suitesparse" if any(f != "numpy" for f in used) else "numpy"
        assert got.backend == wanted


@settings(max_examples=40, deadline=None, derandomize=True)
@given(data=st.data())
def test_reduce_scalar_matches_the_numpy_backend(data):
    with numpy_only():
        x = data.draw(containers(_shape(data)))
    mon = data.draw(st.sampled_from((M.plus, M.min, M.max, M.times, M.any)))
    y = as_form(x, data.draw(st.sampled_from(("ss", "gb"))))
    a, b = sr.reduce_scalar(x, mon), sr.reduce_scalar(y, mon)
    assert type(a) is type(b)
    if mon is M.any:  # any one of the entries' values (the identity when there are none)
        assert reference.values_equal(b, reference.reduce_scalar(reference.from_semiring(x), mon))
    else:
        assert a == b or (np.isnan(a) and np.isnan(b))


@pytest.mark.parametrize("form", ("ss", "gb"))
def test_element_access_and_exports_match(form):
    with numpy_only():
        A = sr.Matrix.from_coo([0, 1, 3], [2, 0, 3], [1.5, 0.0, -2.0], nrows=4, ncols=5)
        u = sr.Vector.from_coo([1, 4], [3, 0], size=6, dtype="int16")
    X, x = as_form(A, form), as_form(u, form)
    assert X.get(0, 2) == 1.5 and X.get(1, 0) == 0.0 and X.get(2, 2) is None
    assert x.get(4) == 0 and x.get(0, default=-1) == -1
    for a, b in zip(X.to_coo(), A.to_coo()):
        assert np.array_equal(a, b) and a.dtype == b.dtype
    assert np.array_equal(X.to_dense(9.0), A.to_dense(9.0)) and np.array_equal(x.to_dense(7), u.to_dense(7))
    S_ = as_form(A, form).to_scipy()
    assert (S_ != A.to_scipy()).nnz == 0 and not S_.data.flags.writeable


def test_docstring_examples():
    import doctest

    from semiring.backends import _select

    result = doctest.testmod(_select, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0


# -- native computation ---------------------------------------------------------------------------
def _native_calls(A, u, m):
    """Built-in operators on SuiteSparse containers: each call is one GraphBLAS call."""
    n = A.nrows
    w = sr.Vector(n, "float64", backend="suitesparse")
    return {
        "mxv": lambda: sr.mxv(A, u, S.min_plus, mask=~m.S, replace=True, out=w, accum=B.min),
        "vxm": lambda: sr.vxm(u, A, S.any_secondi, mask=m.V),
        "mxm": lambda: sr.mxm(A, A, S.plus_pair, mask=A.S),
        "ewise_add": lambda: sr.ewise_add(u, m, B.plus),
        "ewise_mult": lambda: sr.ewise_mult(u, u, M.min, mask=m.S),
        "apply": lambda: (sr.apply(u, U.ainv), sr.apply(A, B.times, right=2), sr.apply(u, IU.rowindex, thunk=1)),
        "select": lambda: (sr.select(A, IU.tril, -1), sr.select(u, IU.valuegt, 2.0)),
        "reduce_rowwise": lambda: sr.reduce_rowwise(A, M.plus),
        "reduce_columnwise": lambda: sr.reduce_columnwise(A, "max"),
        "reduce_scalar": lambda: sr.reduce_scalar(A, M.plus),
        "assign": lambda: (sr.assign(w, 3.0, mask=u.S), sr.assign(w, u, [*range(n)][::-1], accum=B.plus)),
        "extract": lambda: (sr.extract(u, [2, 0, 2]), sr.extract(A, [1, 0], None), sr.extract(A, 1, None),
                            sr.extract(A, None, 2)),
        "transpose": lambda: sr.transpose(A, mask=A.S),
    }


@pytest.mark.parametrize("opname", ("apply", "assign", "ewise_add", "ewise_mult", "extract", "mxm", "mxv",
                                    "reduce_columnwise", "reduce_rowwise", "reduce_scalar", "select", "transpose",
                                    "vxm"))
def test_built_in_operators_compute_in_suitesparse(opname):
    """With built-in operators and casts that cannot fail, no operation on SuiteSparse containers
    falls back to the NumPy code (the dispatch counts fallbacks by operation), and each result
    equals the NumPy backend's."""
    from semiring.backends.suitesparse import dispatch

    rng = np.random.default_rng(7)
    n = 9
    S_ = sp.random(n, n, density=0.4, random_state=rng, format="coo")
    with numpy_only():
        A = sr.Matrix.from_coo(S_.row, S_.col, np.round(S_.data * 10), nrows=n, ncols=n)
        u = sr.Vector.from_coo([0, 3, 4, 8], [1.0, 5.0, 2.0, 7.0], size=n)
        m = sr.Vector.from_coo([1, 3, 5], [True, False, True], size=n)
    dispatch.FALLBACKS.clear()
    got = _native_calls(*(as_form(x, "gb") for x in (A, u, m)))[opname]()
    assert dict(dispatch.FALLBACKS) == {}
    with numpy_only():
        expected = _native_calls(A, u, m)[opname]()
    for g, e in zip(got if isinstance(got, tuple) else (got,), expected if isinstance(expected, tuple) else (expected,)):
        if opname == "vxm":  # any: a valid choice of the reduced terms
            assert g.isequal(sr.vxm(u, A, S.min_secondi, mask=m.V)) or g.nvals == e.nvals
        elif hasattr(e, "nvals"):
            assert g.backend == "suitesparse" and g.isequal(e, check_dtype=True)
        else:
            assert g == e and type(g) is type(e)


def test_what_suitesparse_would_compute_differently_runs_on_numpy():
    """Cases where the C library's answer differs from semiring's are computed by the NumPy
    code: a user-defined operator, a float into bool (NaN raises in semiring), a float64 result
    into a float32 ``out`` (semiring refuses values past float32's range), a select thunk the
    value type cannot hold."""
    from semiring.backends.suitesparse import dispatch

    u = sr.Vector.from_coo([0, 1, 2], [1.0, np.nan, 3.0], size=3, backend="suitesparse")
    b = sr.Vector.from_coo([0, 1, 2], [1, 2, 3], dtype="int8", size=3, backend="suitesparse")
    dispatch.FALLBACKS.clear()
    twice = sr.UnaryOp(lambda x: 2 * x, "twice")
    assert sr.apply(b, twice).to_coo()[1].tolist() == [2, 4, 6]
    with pytest.raises(InvalidValue):
        sr.ewise_mult(u, u, B.land)  # NaN is not a boolean
    big = sr.Vector.from_coo([0], [1e300], size=3, backend="suitesparse")
    with pytest.raises(InvalidValue):
        sr.apply(big, U.identity, out=sr.Vector(3, "float32", backend="suitesparse"))
    assert sr.select(b, IU.valuelt, 1.5).to_coo()[0].tolist() == [0]
    assert dict(dispatch.FALLBACKS) == {"apply": 2, "ewise_mult": 1, "select": 1}
