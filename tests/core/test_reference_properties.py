"""Every operation against the dict-of-keys reference (``semiring.testing.reference``), over the
whole write-step grid: mask none/S/V/~S/~V x accum none/plus/min/second x replace x out
None/existing (of any dtype; sometimes the mask is over out itself); plus algebraic laws.
Values are those of ``_strategies`` (every dtype; mostly small, sometimes a type's extremes, NaN,
+-inf or -0.0), so integer arithmetic wraps around and float sums overflow; the reference says
which values any order of a float sum may give, and which typecasts are undefined (where the
library must, or may, raise InvalidValue); a type pair with no common type must raise
DomainMismatch in both.

GraphBLAS C API 2.0, 3.5.4: ``C<M, replace> = accum(C, T)``.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import semiring as sr
from semiring.testing import reference as ref

from _strategies import (
    ACCUMS, GRID, MASK_KINDS, Case, check_against_reference, containers, dims, dtypes, float_rtol, grid_id,
    lib_mask, matrices, out_dtypes, reference_outcome, scalars, small_values, values, vec_dims, vectors,
)

B, M, S, U, IU = sr.binary, sr.monoid, sr.semirings, sr.unary, sr.indexunary
SEMIRINGS = (S.plus_times, S.min_plus, S.max_second, S.lor_land, S.any_pair, S.plus_pair,
             S.min_secondi, S.any_secondi, S.min_first, S.max_times,
             S.min_firsti, S.max_firstj, S.max_secondj)  # positional: i, k, j of A(i,k) (x) B(k,j)
EWISE_OPS = (B.plus, B.minus, B.times, B.min, B.max, B.first, B.second, B.pair, B.eq, B.lt, B.lor,
             M.plus, M.max)
KRON_OPS = (B.times, B.plus, B.first, B.second, B.min, B.minus, B.pair)
APPLY_BINARY_OPS = (B.plus, B.minus, B.times, B.min, B.max, B.first, B.second, B.eq, B.lt)
SELECT_STRUCTURAL = (IU.tril, IU.triu, IU.diag, IU.offdiag, IU.rowle, IU.rowgt, IU.colle, IU.colgt)
SELECT_VALUE = (IU.valueeq, IU.valuene, IU.valuelt, IU.valuele, IU.valuegt, IU.valuege)

SETTINGS = settings(max_examples=11, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                         HealthCheck.data_too_large])
shapes = st.one_of(st.tuples(vec_dims), st.tuples(dims, dims))


def _typed(rule):
    """The dtype a reference type rule gives, or None where the types do not fit (DomainMismatch)."""
    try:
        return rule()
    except sr.DomainMismatch:
        return None


def _monoids_for(dtype):
    base = [M.plus, M.times, M.min, M.max, M.any]
    return base + [M.land, M.lor, M.lxor] if np.dtype(dtype).kind == "b" else base


# -- one case builder per operation ------------------------------------------------------------
@st.composite
def mxv_case(draw, direction):
    m, n = draw(dims), draw(vec_dims)
    A, u, s = draw(matrices(m, n)), draw(vectors(n)), draw(st.sampled_from(SEMIRINGS))
    td = _typed(lambda: ref._o.semiring_output(s, A.dtype, u.dtype))
    rA, ru = ref.from_semiring(A), ref.from_semiring(u)
    return Case((m,), td, lambda **w: sr.mxv(A, u, s, direction=direction, **w),
                lambda **w: ref.mxv(rA, ru, s, **w), (A, u), rtol=float_rtol(s.monoid, td or "int8"))


@st.composite
def vxm_case(draw, direction):
    m, n = draw(vec_dims), draw(dims)
    u, A, s = draw(vectors(m)), draw(matrices(m, n)), draw(st.sampled_from(SEMIRINGS))
    td = _typed(lambda: ref._o.semiring_output(s, u.dtype, A.dtype))
    ru, rA = ref.from_semiring(u), ref.from_semiring(A)
    return Case((n,), td, lambda **w: sr.vxm(u, A, s, direction=direction, **w),
                lambda **w: ref.vxm(ru, rA, s, **w), (u, A), rtol=float_rtol(s.monoid, td or "int8"))


@st.composite
def mxm_case(draw):
    m, k, n = draw(dims), draw(dims), draw(dims)
    A, Bm, s = draw(matrices(m, k)), draw(matrices(k, n)), draw(st.sampled_from(SEMIRINGS))
    td = _typed(lambda: ref._o.semiring_output(s, A.dtype, Bm.dtype))
    rA, rB = ref.from_semiring(A), ref.from_semiring(Bm)
    return Case((m, n), td, lambda **w: sr.mxm(A, Bm, s, **w),
                lambda **w: ref.mxm(rA, rB, s, **w), (A, Bm), rtol=float_rtol(s.monoid, td or "int8"))


@st.composite
def ewise_case(draw, name):
    shape, dx = draw(shapes), draw(dtypes)
    x, y = draw(containers(shape, dx)), draw(containers(shape, st.one_of(st.just(dx), dtypes)))
    op = draw(st.sampled_from(EWISE_OPS))
    td = _typed(lambda: ref._o.binary_output(op, x.dtype, y.dtype))
    rx, ry = ref.from_semiring(x), ref.from_semiring(y)
    lib_f, ref_f = getattr(sr, name), getattr(ref, name)
    return Case(shape, td, lambda **w: lib_f(x, y, op, **w), lambda **w: ref_f(rx, ry, op, **w), (x, y))


@st.composite
def apply_unary_case(draw):
    x = draw(containers(draw(shapes)))
    op = draw(st.sampled_from(sorted(U.UNARY.values(), key=lambda o: o.name)))
    rx = ref.from_semiring(x)
    return Case(x.shape, _typed(lambda: ref._o.unary_output(op, x.dtype)), lambda **w: sr.apply(x, op, **w),
                lambda **w: ref.apply(rx, op, **w), (x,))


@st.composite
def apply_binary_case(draw):
    x = draw(containers(draw(shapes)))
    op = draw(st.sampled_from(APPLY_BINARY_OPS))
    s = draw(scalars(draw(st.one_of(st.just(x.dtype.name), dtypes))))
    side = draw(st.sampled_from(("left", "right")))
    pair = (s.dtype, x.dtype) if side == "left" else (x.dtype, s.dtype)
    td = _typed(lambda: ref._o.binary_output(op, *pair))
    rx = ref.from_semiring(x)
    return Case(x.shape, td, lambda **w: sr.apply(x, op, **{side: s}, **w),
                lambda **w: ref.apply(rx, op, **{side: s}, **w), (x,))


@st.composite
def apply_indexunary_case(draw):
    x = draw(containers(draw(shapes)))
    op = draw(st.sampled_from((IU.rowindex, IU.colindex, IU.diagindex, IU.tril, IU.offdiag)))
    thunk = draw(st.integers(-2, 2))
    rx = ref.from_semiring(x)
    return Case(x.shape, ref._o.indexunary_output(op, x.dtype), lambda **w: sr.apply(x, op, thunk=thunk, **w),
                lambda **w: ref.apply(rx, op, thunk=thunk, **w), (x,))


@st.composite
def select_case(draw):
    x = draw(containers(draw(shapes)))
    if draw(st.booleans()):
        op, thunk = draw(st.sampled_from(SELECT_STRUCTURAL)), draw(st.integers(-2, 2))
    else:
        op, thunk = draw(st.sampled_from(SELECT_VALUE)), draw(scalars(x.dtype))
    rx = ref.from_semiring(x)
    return Case(x.shape, x.dtype, lambda **w: sr.select(x, op, thunk, **w),
                lambda **w: ref.select(rx, op, thunk, **w), (x,))


@st.composite
def reduce_case(draw, name):
    A = draw(matrices())
    m = draw(st.sampled_from(_monoids_for(A.dtype)))
    n = A.nrows if name == "reduce_rowwise" else A.ncols
    rA, lib_f, ref_f = ref.from_semiring(A), getattr(sr, name), getattr(ref, name)
    td = _typed(lambda: ref._o.monoid_domain(m, A.dtype))
    return Case((n,), td, lambda **w: lib_f(A, m, **w), lambda **w: ref_f(rA, m, **w), (A,),
                rtol=float_rtol(m, td or A.dtype))


@st.composite
def index_arg(draw, n, unique):
    """An index argument for assign/extract (None, a slice, a list or an int64 array)."""
    form = draw(st.sampled_from(("none", "slice", "list", "array")))
    if form == "none":
        return None
    if form == "slice":
        bound = st.one_of(st.none(), st.integers(-n - 1, n + 1))
        return slice(draw(bound), draw(bound), draw(st.sampled_from((None, 1, 2, -1))))
    idx = draw(st.lists(st.integers(0, n - 1), unique=unique, max_size=n if unique else 6)) if n else []
    return idx if form == "list" else np.array(idx, dtype=np.int64)


def _count(idx, n):
    return len(ref._index_list(idx, n))


@st.composite
def assign_case(draw, kind):
    shape = (draw(vec_dims),) if kind == "vector" else (draw(dims), draw(dims))
    idx = tuple(draw(index_arg(n, unique=True)) for n in shape)
    sub = tuple(_count(i, n) for i, n in zip(idx, shape))
    indices = idx[0] if kind == "vector" else idx
    if draw(st.booleans()):
        u = draw(containers(sub))
        ru, ud, inputs = ref.from_semiring(u), u.dtype, (u,)
    else:
        u = draw(scalars(draw(dtypes)))
        ru, ud, inputs = u, u.dtype, ()
    return Case(shape, ud, lambda out, **w: sr.assign(out, u, indices, **w),
                lambda out, **w: ref.assign(out, ru, indices, **w), inputs, needs_out=True)


@st.composite
def extract_case(draw, kind):
    if kind == "vector":
        x = draw(vectors())
        rows, cols = draw(index_arg(x.size, unique=False)), None
        shape = (_count(rows, x.size),)
    else:
        x = draw(matrices())
        form = draw(st.sampled_from(("matrix", "row", "col")))
        if form == "row" and x.nrows:
            rows, cols = draw(st.integers(0, x.nrows - 1)), draw(index_arg(x.ncols, unique=False))
            shape = (_count(cols, x.ncols),)
        elif form == "col" and x.ncols:
            rows, cols = draw(index_arg(x.nrows, unique=False)), draw(st.integers(0, x.ncols - 1))
            shape = (_count(rows, x.nrows),)
        else:
            rows, cols = draw(index_arg(x.nrows, unique=False)), draw(index_arg(x.ncols, unique=False))
            shape = (_count(rows, x.nrows), _count(cols, x.ncols))
    rx = ref.from_semiring(x)
    return Case(shape, x.dtype, lambda **w: sr.extract(x, rows, cols, **w),
                lambda **w: ref.extract(rx, rows, cols, **w), (x,))


@st.composite
def transpose_case(draw):
    A = draw(matrices())
    rA = ref.from_semiring(A)
    return Case((A.ncols, A.nrows), A.dtype, lambda **w: sr.transpose(A, **w),
                lambda **w: ref.transpose(rA, **w), (A,))


@st.composite
def kronecker_case(draw):
    small = st.integers(0, 3)
    A, Bm = draw(matrices(draw(small), draw(small))), draw(matrices(draw(small), draw(small)))
    op = draw(st.sampled_from(KRON_OPS))
    rA, rB = ref.from_semiring(A), ref.from_semiring(Bm)
    return Case((A.nrows * Bm.nrows, A.ncols * Bm.ncols), _typed(lambda: ref._o.binary_output(op, A.dtype, Bm.dtype)),
                lambda **w: sr.kronecker(A, Bm, op, **w), lambda **w: ref.kronecker(rA, rB, op, **w), (A, Bm))


CASES = {
    "mxv_push": lambda: mxv_case("push"), "mxv_pull": lambda: mxv_case("pull"),
    "vxm_push": lambda: vxm_case("push"), "vxm_pull": lambda: vxm_case("pull"),
    "mxm": mxm_case,
    "ewise_add": lambda: ewise_case("ewise_add"), "ewise_mult": lambda: ewise_case("ewise_mult"),
    "apply_unary": apply_unary_case, "apply_binary": apply_binary_case,
    "apply_indexunary": apply_indexunary_case, "select": select_case,
    "reduce_rowwise": lambda: reduce_case("reduce_rowwise"),
    "reduce_columnwise": lambda: reduce_case("reduce_columnwise"),
    "assign_vector": lambda: assign_case("vector"), "assign_matrix": lambda: assign_case("matrix"),
    "extract_vector": lambda: extract_case("vector"), "extract_matrix": lambda: extract_case("matrix"),
    "transpose": transpose_case, "kronecker": kronecker_case,
}


# -- the grid -----------------------------------------------------------------------------------
def check_case(opname, mask_kind, accum_name, replace, data):
    """Draw the operation's inputs, an output (or None) and a mask; compare with the reference."""
    accum = ACCUMS[accum_name]
    case = data.draw(CASES[opname](), label="case")
    out = None
    if case.needs_out or data.draw(st.integers(0, 3), label="with out") > 0:
        out = data.draw(containers(case.shape, st.sampled_from(out_dtypes(case.tdtype or "bool"))), label="out")
    mask_parent = None
    if mask_kind is not None:
        if out is not None and data.draw(st.integers(0, 3), label="mask is out's") == 0:
            mask_parent = out  # C<C.S> = ...: the mask is read before C is written
        else:
            mask_parent = data.draw(containers(case.shape, st.sampled_from(("bool", "bool", "int8", "float64"))),
                                    label="mask parent")
    ref_out = None if out is None else ref.from_semiring(out)
    ref_mask = None if mask_parent is None else reference_outcome(
        lambda: ref.mask(mask_kind, ref.from_semiring(mask_parent)))
    if isinstance(ref_mask, Exception):
        expected = ref_mask  # a NaN in a value mask
    else:
        expected = reference_outcome(lambda: case.ref(mask=ref_mask, accum=accum, replace=replace, out=ref_out))
    watched = case.inputs + ((mask_parent,) if mask_parent is not None and mask_parent is not out else ())
    check_against_reference(
        lambda: case.lib(mask=lib_mask(mask_kind, mask_parent), accum=accum, replace=replace, out=out),
        expected, rtol=case.rtol, watched=watched, out=out)


@pytest.mark.parametrize("grid", GRID, ids=grid_id)
@pytest.mark.parametrize("opname", sorted(CASES))
@SETTINGS
@given(data=st.data())
def test_operation_matches_reference(opname, grid, data):
    check_case(opname, *grid, data)


# The same checks with storage thresholds forced one way or the other (these constants pick
# code paths: bitmap vs sparse vectors, mxm row chunks), so each path meets every semantics.
FORCED = [("Vector.BITMAP_DENSITY", 0.0), ("Vector.BITMAP_DENSITY", 2.0), ("MXM_CHUNK_TERMS", 1),
          ("MXM_CHUNK_TERMS", 3)]


@pytest.mark.parametrize("forced", FORCED, ids=lambda f: f"{f[0]}={f[1]}")
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.data_too_large])
@given(data=st.data())
def test_operation_matches_reference_on_every_path(forced, data):
    import semiring.backends.array.products as array_products

    name, value = forced
    ops = ["mxm"] if name == "MXM_CHUNK_TERMS" else [o for o in sorted(CASES) if o != "mxm"]
    opname, grid = data.draw(st.sampled_from(ops), label="op"), data.draw(st.sampled_from(GRID), label="grid")
    with pytest.MonkeyPatch.context() as mp:
        if name == "MXM_CHUNK_TERMS":
            mp.setattr(array_products, "MXM_CHUNK_TERMS", value)
        else:
            mp.setattr(sr.Vector, "BITMAP_DENSITY", value)
        check_case(opname, *grid, data)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_pull_products_look_up_a_sparse_vector(data):
    """Pull mxv/vxm with a long vector of few entries, kept in sparse form (so few lookups are
    binary searches), and a matrix whose few entries fall mostly on them, so that terms meet."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sr.Vector, "BITMAP_DENSITY", 2.0)  # never a bitmap
        _check_pull_sparse(data)


def _check_pull_sparse(data):
    n, m = data.draw(st.integers(32, 40), label="n"), data.draw(st.integers(1, 2), label="m")
    d, s = data.draw(dtypes, label="dtype"), data.draw(st.sampled_from(SEMIRINGS), label="semiring")
    idx = sorted(data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=2, unique=True), label="idx"))
    u = sr.Vector.from_coo(idx, np.array(data.draw(st.lists(values(d), min_size=len(idx), max_size=len(idx))), d),
                           size=n, dtype=d)
    cols = st.one_of(st.sampled_from(idx), st.integers(0, n - 1))
    keys = sorted({(i, data.draw(cols)) for i in range(m) for _ in range(data.draw(st.integers(0, 2)))})
    A = sr.Matrix.from_coo([i for i, _ in keys], [j for _, j in keys],
                           np.array(data.draw(st.lists(values(d), min_size=len(keys), max_size=len(keys))), d),
                           nrows=m, ncols=n, dtype=d)
    mask_kind, accum_name, replace = data.draw(st.sampled_from(GRID), label="grid")
    mp = data.draw(vectors(m, "bool"), label="mask parent")
    w = data.draw(vectors(m, st.sampled_from(out_dtypes(d))), label="out")
    rA, ru, rw, rm = (ref.from_semiring(x) for x in (A, u, w, mp))
    kw = dict(accum=ACCUMS[accum_name], replace=replace)
    rtol = float_rtol(s.monoid, d)
    check_against_reference(lambda: sr.vxm(u, A.T, s, direction="pull"),
                            reference_outcome(lambda: ref.vxm(ru, ref.from_semiring(A.T), s)), rtol=rtol)
    expected = reference_outcome(lambda: ref.mxv(rA, ru, s, mask=ref.mask(mask_kind, rm), out=rw, **kw))
    check_against_reference(lambda: sr.mxv(A, u, s, direction="pull", mask=lib_mask(mask_kind, mp), out=w, **kw),
                            expected, rtol=rtol, watched=(A, u), out=w)


@pytest.mark.parametrize("opname", ["mxv_pull", "ewise_add", "apply_unary", "extract_vector", "transpose"])
@settings(max_examples=3, deadline=None)
@given(data=st.data())
def test_replace_without_mask_is_invalid(opname, data):
    case = data.draw(CASES[opname]())
    assume(case.tdtype is not None)  # (types that do not fit may be refused first)
    out = data.draw(containers(case.shape))
    before = ref.from_semiring(out)
    with pytest.raises(sr.InvalidValue):
        case.lib(mask=None, accum=None, replace=True, out=out)
    ref.assert_same(out, before)


# -- reduce to a scalar -------------------------------------------------------------------------
@pytest.mark.parametrize("monoid", ["plus", "times", "min", "max", "any", "land", "lor", "lxor"])
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_reduce_scalar_matches_reference(monoid, data):
    m = getattr(M, monoid)
    x = data.draw(shapes.flatmap(lambda shape: containers(shape, None if monoid not in ("land", "lor", "lxor")
                                                          else st.sampled_from(("bool", "bool", "int8", "float32")))))
    expected = reference_outcome(lambda: ref.reduce_scalar(ref.from_semiring(x), m))
    if isinstance(expected, Exception):  # a bool monoid on numbers
        with pytest.raises(type(expected)):
            sr.reduce_scalar(x, m)
        return
    got = sr.reduce_scalar(x, m)
    assert np.asarray(got).dtype == ref._o.monoid_domain(m, x.dtype)
    assert ref.values_equal(got, expected), (got, expected)


# -- algebraic laws -----------------------------------------------------------------------------
MONOID_DTYPES = [(m, d) for m in ("plus", "times", "min", "max") for d in ("bool", "int8", "int64", "uint8")]
MONOID_DTYPES += [(m, "bool") for m in ("land", "lor", "lxor")] + [("min", "float64"), ("max", "float32")]


@pytest.mark.parametrize("monoid, dtype", MONOID_DTYPES)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_monoid_identity_associativity_commutativity(monoid, dtype, data):
    m, d = getattr(M, monoid), np.dtype(dtype)
    x, y, z = (np.array(data.draw(st.lists(values(d), min_size=4, max_size=4)), dtype=d) for _ in range(3))
    op, e = m.op.eval, np.full(4, m.identity_for(d), dtype=d)
    # min/max on floats ignore NaN (C fmin/fmax): the identity is one for every number, and
    # with NaN gives itself
    x_or_e = np.where(np.isnan(x), e, x) if d.kind == "f" else x
    np.testing.assert_array_equal(op(e, x), x_or_e)
    np.testing.assert_array_equal(op(x, e), x_or_e)
    np.testing.assert_array_equal(op(op(x, y), z), op(x, op(y, z)))
    np.testing.assert_array_equal(op(x, y), op(y, x))
    t = m.terminal_for(d)
    if t is not None:
        np.testing.assert_array_equal(op(np.full(4, t, dtype=d), x), np.full(4, t, dtype=d))
    # and the library's reductions agree with a left fold, empty giving the identity
    u = sr.Vector.from_dense(x)
    np.testing.assert_array_equal(sr.reduce_scalar(u, m), op(op(op(x[:1], x[1:2]), x[2:3]), x[3:4])[0])
    np.testing.assert_array_equal(sr.reduce_scalar(sr.Vector(3, d), m), m.identity_for(d))


# plus_times distributes over wrapped-around integers too (arithmetic modulo 2**bits); min_plus
# only where plus does not overflow, so it draws small values.
DISTRIBUTIVE = [("plus_times", "int8"), ("plus_times", "int64"), ("plus_times", "uint16"), ("min_plus", "int8"),
                ("min_plus", "int64"), ("lor_land", "bool")]


@pytest.mark.parametrize("semiring, dtype", DISTRIBUTIVE)
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_semiring_distributivity(semiring, dtype, data):
    s = getattr(S, semiring)
    add, mul = s.monoid.op, s.multiply
    elements = small_values if semiring == "min_plus" else values
    a, b, c = (np.array(data.draw(st.lists(elements(dtype), min_size=5, max_size=5)), dtype=dtype) for _ in range(3))
    np.testing.assert_array_equal(mul.eval(a, add.eval(b, c)), add.eval(mul.eval(a, b), mul.eval(a, c)))
    np.testing.assert_array_equal(mul.eval(add.eval(b, c), a), add.eval(mul.eval(b, a), mul.eval(c, a)))
    # A (+).(x) (u (+) v) == (A (+).(x) u) (+) (A (+).(x) v), on sparse operands
    m, n = data.draw(dims), data.draw(dims)
    A, u, v = (data.draw(matrices(m, n, dtype, elements)), data.draw(vectors(n, dtype, elements)),
               data.draw(vectors(n, dtype, elements)))
    lhs = sr.mxv(A, sr.ewise_add(u, v, s.monoid), s)
    rhs = sr.ewise_add(sr.mxv(A, u, s), sr.mxv(A, v, s), s.monoid)
    ref.assert_same(lhs, ref.from_semiring(rhs))


# mxv(A, u, s1) == vxm(u, A^T, s2) where s2's multiply is s1's with its operands swapped.
TRANSPOSE_PAIRS = [("plus_times", "plus_times"), ("min_plus", "min_plus"), ("lor_land", "lor_land"),
                   ("max_times", "max_times"), ("plus_pair", "plus_pair"), ("min_first", "min_second"),
                   ("min_secondi", "min_firstj"), ("max_second", "max_first")]


@pytest.mark.parametrize("s1, s2", TRANSPOSE_PAIRS)
@pytest.mark.parametrize("direction", ["push", "pull"])
@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_mxv_equals_vxm_of_transpose(s1, s2, direction, data):
    m, n, d = data.draw(dims), data.draw(dims), data.draw(dtypes)
    A, u = data.draw(matrices(m, n, d)), data.draw(vectors(n, d))
    # both equal the reference's mxv (a float sum: any order, so each within its bounds)
    expected = reference_outcome(lambda: ref.mxv(ref.from_semiring(A), ref.from_semiring(u), getattr(S, s1)))
    check_against_reference(lambda: sr.mxv(A, u, getattr(S, s1), direction=direction), expected)
    check_against_reference(lambda: sr.vxm(u, A.T, getattr(S, s2), direction=direction), expected)
    check_against_reference(lambda: sr.vxm(u, sr.transpose(A), getattr(S, s2)), expected)


@pytest.mark.parametrize("semiring", ["plus_times", "min_plus"])
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_mxm_associativity(semiring, data):
    s = getattr(S, semiring)
    a, b, c, d = (data.draw(dims) for _ in range(4))
    elements = small_values if semiring == "min_plus" else values  # (min_plus: where plus does not overflow)
    A, Bm, C = (data.draw(matrices(r, c_, "int64", elements)) for r, c_ in ((a, b), (b, c), (c, d)))
    ref.assert_same(sr.mxm(sr.mxm(A, Bm, s), C, s), ref.from_semiring(sr.mxm(A, sr.mxm(Bm, C, s), s)))


# -- aliasing: an operand is also the output ----------------------------------------------------
@pytest.mark.parametrize("mask_kind", MASK_KINDS)
@pytest.mark.parametrize("accum_name", ["none", "plus"])
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_output_aliases_an_input(mask_kind, accum_name, data):
    n, d = data.draw(dims), data.draw(dtypes)
    A, w = data.draw(matrices(n, n, d)), data.draw(vectors(n, d))
    accum, s = ACCUMS[accum_name], data.draw(st.sampled_from((S.plus_times, S.min_plus, S.any_secondi)))
    rA, rw = ref.from_semiring(A), ref.from_semiring(w)
    # w<mask> = accum(w, A (+).(x) w), the mask over w itself: everything is read before w is written
    expected = reference_outcome(lambda: ref.mxv(rA, rw, s, mask=ref.mask(mask_kind, rw), accum=accum, out=rw))
    check_against_reference(lambda: sr.mxv(A, w, s, mask=lib_mask(mask_kind, w), accum=accum, out=w), expected,
                            rtol=float_rtol(s.monoid, d), watched=(A,), out=w)
    rw = ref.from_semiring(w)
    expected = reference_outcome(lambda: ref.ewise_add(rw, rw, B.plus, mask=ref.mask(mask_kind, rw), accum=accum,
                                                       out=rw))
    check_against_reference(lambda: sr.ewise_add(w, w, B.plus, mask=lib_mask(mask_kind, w), accum=accum, out=w),
                            expected, out=w)


# -- the reference itself, on hand-computed examples (C API 2.0, 3.5.4) -------------------------
# C = {0: 1, 1: 2, 2: 3}, T = {1: 10, 3: 30}; mask parent M = {1: True, 2: False, 3: True}.
WRITE_EXAMPLES = [
    (None, None, False, {1: 10, 3: 30}),                  # no mask: C = T (absent in T: deleted)
    (None, "plus", False, {0: 1, 1: 12, 2: 3, 3: 30}),    # accum: union, plus where both
    ("S", None, False, {0: 1, 1: 10, 3: 30}),             # allowed 1, 2, 3 take T; 0 kept
    ("S", None, True, {1: 10, 3: 30}),                    # ... and 0 deleted by replace
    ("V", None, False, {0: 1, 1: 10, 2: 3, 3: 30}),       # allowed 1, 3 (2 holds False)
    ("~V", "plus", False, {0: 1, 1: 2, 2: 3}),            # allowed 0, 2 (T has none there); 1 kept
    ("~S", "plus", True, {0: 1}),                         # allowed 0 only; the rest deleted
    ("~S", "second", False, {0: 1, 1: 2, 2: 3}),          # allowed 0 only, where T has nothing
]


@pytest.mark.parametrize("mask_kind, accum_name, replace, expected", WRITE_EXAMPLES)
def test_write_step_hand_examples(mask_kind, accum_name, replace, expected):
    C = sr.Vector.from_coo([0, 1, 2], [1, 2, 3], size=4, dtype="int64")
    Mv = sr.Vector.from_coo([1, 2, 3], [True, False, True], size=4)
    T = sr.Vector.from_coo([1, 3], [10, 30], size=4, dtype="int64")
    accum = ACCUMS[accum_name or "none"]
    got_ref = ref.write(ref.from_semiring(C), ref.from_semiring(T), ref.mask(mask_kind, ref.from_semiring(Mv)),
                        accum, replace)
    assert got_ref.entries == expected
    # the library, through an operation whose T is exactly T: apply(T, identity)
    got = sr.apply(T, U.identity, mask=lib_mask(mask_kind, Mv), accum=accum, replace=replace, out=C)
    assert ref.from_semiring(got).entries == expected
