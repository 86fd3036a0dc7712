"""The reference implementation (``semiring.testing.reference``) against python-graphblas
(SuiteSparse:GraphBLAS), operation by operation, over every dtype both have and the whole
write step (mask none/S/V/~S/~V, accum, replace, an existing output of any dtype).

Each case picks python-graphblas's operator typed at the type the reference says the operands
are combined in (``binary.plus[INT16]`` for int8 with uint8), so that SuiteSparse's typecasts
and kernels, not python-graphblas's own type choice, give the value; the result's dtype is
compared too. Cases the two are not expected to agree on are not compared, and are counted as
Hypothesis events: a typecast C leaves undefined (the reference's ``Undefined``: SuiteSparse
saturates where the library raises), a type pair with no common type (the library raises
``DomainMismatch`` where python-graphblas goes to FP64), and operators python-graphblas does
not define for a type (``bor`` monoids on signed integers).

The promotion table of the reference is also checked against python-graphblas's ``unify``.
"""

from __future__ import annotations

import os
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, note, settings
from hypothesis import strategies as st

try:
    import graphblas as gb
except ImportError as exc:  # pragma: no cover - depends on the environment
    if os.environ.get("CI") == "true":
        raise ImportError(f"CI=true: the reference is checked against python-graphblas, which is missing ({exc})")
    pytest.skip(f"python-graphblas is not installed ({exc}); the reference is not checked against it",
                allow_module_level=True)

import semiring as sr
from semiring.exceptions import DomainMismatch
from semiring.testing import _refscalar
from semiring.testing import reference as ref

from _strategies import ACCUMS, DTYPES, MASK_KINDS, containers, dims, matrices, scalars, vec_dims, vectors

S, B, M, U, IU = sr.semirings, sr.binary, sr.monoid, sr.unary, sr.indexunary
SETTINGS = settings(max_examples=20, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

_GB_NAME = {"div": "cdiv"}  # GrB_DIV (C division); python-graphblas's "truediv" is its own
_BOOL_NAME = {"plus": "lor", "times": "land", "min": "land", "max": "lor", "minus": "lxor"}  # SuiteSparse on bool
_POSITIONAL = ("firsti", "firstj", "secondi", "secondj")


class NoOperator(Exception):
    """python-graphblas has no operator of this name and type."""


def _typed(module, name, dtype):
    d = np.dtype(dtype).name
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            op = getattr(getattr(module, "ss", module), name) if name.split("_")[-1] in _POSITIONAL \
                else getattr(module, name)
            typed = op[gb_dtype(d)]
        except (AttributeError, KeyError, TypeError) as exc:
            raise NoOperator(f"{module.__name__}.{name}[{d}]") from exc
    if getattr(typed, "type", None) is not None and typed.type.np_type != np.dtype(d):
        raise NoOperator(f"{module.__name__}.{name}[{d}] (python-graphblas gives {typed})")  # bitwise on signed
    return typed


def gb_binary(op, t):
    name = _GB_NAME.get(op.name, op.name)
    return _typed(gb.binary, name, t)


def gb_monoid(m, t):
    name = _BOOL_NAME.get(m.name, m.name) if np.dtype(t).kind == "b" else m.name
    return _typed(gb.monoid, name, t)


def gb_semiring(s, t):
    mon, mul = s.monoid.name, _GB_NAME.get(s.multiply.name, s.multiply.name)
    if np.dtype(t).kind == "b":
        mon, mul = _BOOL_NAME.get(mon, mon), _BOOL_NAME.get(mul, mul)
    return _typed(gb.semiring, f"{mon}_{mul}", t)


def gb_dtype(d):
    return np.dtype(d).name.upper().replace("FLOAT", "FP")


def to_gb(r):
    keys = sorted(r.entries)
    vals = np.array([r.entries[k] for k in keys], dtype=r.dtype)
    if isinstance(r, ref.RefVector):
        return gb.Vector.from_coo(np.array(keys, dtype=np.int64), vals, size=r.size, dtype=gb_dtype(r.dtype))
    rows = np.array([k[0] for k in keys], dtype=np.int64)
    cols = np.array([k[1] for k in keys], dtype=np.int64)
    return gb.Matrix.from_coo(rows, cols, vals, nrows=r.nrows, ncols=r.ncols, dtype=gb_dtype(r.dtype))


def from_gb(x):
    d = x.dtype.np_type
    if isinstance(x, gb.Vector):
        idx, vals = x.to_coo()
        return ref.RefVector(x.size, d, {int(i): vals[t] for t, i in enumerate(idx)})
    rows, cols, vals = x.to_coo()
    return ref.RefMatrix(x.nrows, x.ncols, d, {(int(i), int(j)): vals[t] for t, (i, j) in enumerate(zip(rows, cols))})


def gb_mask(kind, parent):
    if kind is None:
        return None
    m = parent.S if kind.endswith("S") else parent.V
    return ~m if kind.startswith("~") else m


def assert_agree(got, expected):
    """A python-graphblas result (as a Ref container) has the reference's type, entries and values."""
    assert got.dtype == expected.dtype, f"dtype {got.dtype} (python-graphblas) != {expected.dtype} (reference)"
    assert set(got.entries) == set(expected.entries), (
        f"structure differs:\npython-graphblas {got.entries}\nreference        {expected.entries}")
    bad = [(p, got.entries[p], expected.entries[p]) for p in sorted(got.entries)
           if not ref.values_equal(got.entries[p], expected.entries[p])]
    assert not bad, f"values differ at (position, python-graphblas, reference): {bad}"


# -- the cases: (shape of T, dtype of T, reference(**w), python-graphblas expression) ------------
def _ref(x):
    return ref.from_semiring(x)


SEMIRINGS = [s for s in S.SEMIRING.values() if not s.name.startswith("bor_second")]
BINARY_OPS = [op for name, op in B.BINARY.items() if name != "oneb" and not op.positional]
MONOIDS = list(M.MONOID.values())


@st.composite
def product_case(draw, kind):
    s = draw(st.sampled_from(SEMIRINGS))
    dx, dy = draw(st.sampled_from(DTYPES)), draw(st.sampled_from(DTYPES))
    m, k, n = draw(dims), draw(vec_dims if kind != "mxm" else dims), draw(dims)
    if kind == "mxv":
        a, b, shape = draw(matrices(m, k, dx)), draw(vectors(k, dy)), (m,)
    elif kind == "vxm":
        a, b, shape = draw(vectors(k, dx)), draw(matrices(k, n, dy)), (n,)
    else:
        a, b, shape = draw(matrices(m, k, dx)), draw(matrices(k, n, dy)), (m, n)
    ra, rb = _ref(a), _ref(b)
    t = ref._o.binary_types(s.multiply, ra.dtype, rb.dtype)[0]
    op = gb_semiring(s, t)
    note(f"{kind} {s.name} on {ra.dtype} and {rb.dtype}: python-graphblas {op}")
    ga, gbb = to_gb(ra), to_gb(rb)
    expr = {"mxv": lambda: ga.mxv(gbb, op), "vxm": lambda: ga.vxm(gbb, op), "mxm": lambda: ga.mxm(gbb, op)}[kind]
    return shape, lambda **w: getattr(ref, kind)(ra, rb, s, **w), expr


@st.composite
def ewise_case(draw, kind):
    op = draw(st.sampled_from(BINARY_OPS + MONOIDS))
    shape = draw(st.one_of(st.tuples(vec_dims), st.tuples(dims, dims)))
    x, y = draw(containers(shape)), draw(containers(shape))
    rx, ry = _ref(x), _ref(y)
    t = ref._o.binary_types(op, rx.dtype, ry.dtype)[0]
    gop = gb_monoid(op, t) if isinstance(op, sr.Monoid) else gb_binary(op, t)
    gx, gy = to_gb(rx), to_gb(ry)
    return shape, lambda **w: getattr(ref, kind)(rx, ry, op, **w), lambda: getattr(gx, kind)(gy, gop)


@st.composite
def apply_case(draw, kind):
    shape = draw(st.one_of(st.tuples(vec_dims), st.tuples(dims, dims)))
    x = draw(containers(shape))
    rx = _ref(x)
    gx = to_gb(rx)
    if kind == "unary":
        op = draw(st.sampled_from(list(U.UNARY.values())))
        gop = _typed(gb.unary, op.name, "bool" if op.name == "lnot" else rx.dtype)
        return shape, lambda **w: ref.apply(rx, op, **w), lambda: gx.apply(gop)
    if kind == "binary":
        op = draw(st.sampled_from(BINARY_OPS))
        s = draw(scalars(draw(st.sampled_from(DTYPES))))
        left = draw(st.booleans())
        t = ref._o.binary_types(op, *((s.dtype, rx.dtype) if left else (rx.dtype, s.dtype)))[0]
        gop, side = gb_binary(op, t), {"left" if left else "right": s}
        return shape, lambda **w: ref.apply(rx, op, **side, **w), lambda: gx.apply(gop, **side)
    op = draw(st.sampled_from([IU.rowindex, IU.colindex, IU.diagindex]))
    thunk = draw(st.integers(-3, 3))
    gop = _typed(gb.indexunary, op.name, "int64")  # (positional: x's values are not read)
    return shape, lambda **w: ref.apply(rx, op, thunk=thunk, **w), lambda: gx.apply(gop, thunk)


@st.composite
def select_case(draw):
    shape = draw(st.one_of(st.tuples(vec_dims), st.tuples(dims, dims)))
    x = draw(containers(shape))
    rx = _ref(x)
    gx = to_gb(rx)
    op = draw(st.sampled_from(list(IU.INDEXUNARY.values())[:14]))
    if op.name.startswith("value"):
        thunk = draw(scalars(rx.dtype))
        gop = _typed(gb.select, op.name, rx.dtype)
    else:
        thunk, gop = draw(st.integers(-3, 3)), getattr(gb.select, op.name)
    return shape, lambda **w: ref.select(rx, op, thunk, **w), lambda: gx.select(gop, thunk)


@st.composite
def reduce_case(draw, kind):
    A = draw(matrices())
    m = draw(st.sampled_from(MONOIDS))
    rA = _ref(A)
    gop = gb_monoid(m, ref._o.monoid_domain(m, rA.dtype))
    gA = to_gb(rA)
    n = A.nrows if kind == "reduce_rowwise" else A.ncols
    return (n,), lambda **w: getattr(ref, kind)(rA, m, **w), lambda: getattr(gA, kind)(gop)


@st.composite
def index_list(draw, n, unique):
    if draw(st.booleans()):
        return slice(draw(st.one_of(st.none(), st.integers(0, n))), draw(st.one_of(st.none(), st.integers(0, n))))
    idx = draw(st.lists(st.integers(0, n - 1), unique=unique, max_size=n if unique else 6)) if n else []
    return np.array(idx, dtype=np.int64)


@st.composite
def assign_case(draw):
    shape = draw(st.one_of(st.tuples(vec_dims), st.tuples(dims, dims)))
    idx = tuple(draw(index_list(n, unique=True)) for n in shape)
    sub = tuple(len(ref._index_list(i, n)) for i, n in zip(idx, shape))
    indices = idx[0] if len(shape) == 1 else idx
    if draw(st.booleans()):
        ru = _ref(draw(containers(sub)))
        gu = to_gb(ru)
    else:
        ru = gu = draw(scalars(draw(st.sampled_from(DTYPES))))
    return shape, (lambda out, **w: ref.assign(out, ru, indices, **w)), (indices, gu, ru.dtype)


@st.composite
def extract_case(draw):
    if draw(st.booleans()):
        x = _ref(draw(vectors()))
        I = draw(index_list(x.size, unique=False))
        return (len(ref._index_list(I, x.size)),), lambda **w: ref.extract(x, I, **w), lambda: to_gb(x)[I]
    x = _ref(draw(matrices()))
    I, J = draw(index_list(x.nrows, unique=False)), draw(index_list(x.ncols, unique=False))
    shape = (len(ref._index_list(I, x.nrows)), len(ref._index_list(J, x.ncols)))
    return shape, lambda **w: ref.extract(x, I, J, **w), lambda: to_gb(x)[I, J]


@st.composite
def transpose_case(draw):
    x = _ref(draw(matrices()))
    return (x.ncols, x.nrows), lambda **w: ref.transpose(x, **w), lambda: to_gb(x).T


CASES = {
    "mxv": lambda: product_case("mxv"), "vxm": lambda: product_case("vxm"), "mxm": lambda: product_case("mxm"),
    "ewise_add": lambda: ewise_case("ewise_add"), "ewise_mult": lambda: ewise_case("ewise_mult"),
    "apply_unary": lambda: apply_case("unary"), "apply_binary": lambda: apply_case("binary"),
    "apply_indexunary": lambda: apply_case("indexunary"), "select": select_case,
    "reduce_rowwise": lambda: reduce_case("reduce_rowwise"),
    "reduce_columnwise": lambda: reduce_case("reduce_columnwise"),
    "assign": assign_case, "extract": extract_case, "transpose": transpose_case,
}


def _write_step(data, shape):
    """A drawn write step: (reference kwargs, python-graphblas output or None, its mask, accum, replace)."""
    mask_kind = data.draw(st.sampled_from(MASK_KINDS), label="mask")
    accum = ACCUMS[data.draw(st.sampled_from(sorted(ACCUMS)), label="accum")]
    replace = mask_kind is not None and data.draw(st.booleans(), label="replace")
    out = data.draw(st.one_of(st.none(), containers(shape)), label="out")
    parent = None
    if mask_kind is not None:  # masks of bool or integer values (a NaN in a value mask is refused)
        parent = data.draw(containers(shape, st.sampled_from(("bool", "int8", "uint64"))), label="mask parent")
    rout = None if out is None else _ref(out)
    rmask = None if parent is None else ref.mask(mask_kind, _ref(parent))
    gmask = None if parent is None else gb_mask(mask_kind, to_gb(_ref(parent)))
    return dict(mask=rmask, accum=accum, replace=replace, out=rout), rout, gmask, accum, replace


def _gb_accum(accum, out, tdtype):
    if accum is None or out is None:
        return None
    return gb_binary(accum, ref._o.binary_types(accum, out.dtype, tdtype)[0])


@pytest.mark.parametrize("opname", sorted(CASES))
@SETTINGS
@given(data=st.data())
def test_reference_agrees_with_python_graphblas(opname, data):
    try:
        shape, ref_f, gb_f = data.draw(CASES[opname](), label="case")
        w, rout, gmask, accum, replace = _write_step(data, shape)
        if opname == "assign":
            if rout is None:
                rout = _ref(data.draw(containers(shape), label="assign out"))
                w["out"] = rout
            expected = ref_f(**w)
        else:
            expected = ref_f(**w)
        tdtype = gb_f[2] if opname == "assign" else _t_dtype(ref_f)
        gacc = _gb_accum(accum, rout, tdtype)
    except NoOperator as exc:
        event(f"python-graphblas has no {exc}")
        return
    except DomainMismatch:
        event("no common type / operator not defined on the type (not compared)")
        return
    if ref.expect_raise(expected):
        event("an undefined typecast (not compared)")
        return
    event("compared")
    kw = {} if gmask is None else {"mask": gmask}
    if opname == "assign":
        indices, u, _ = gb_f
        C = to_gb(rout)
        target = C(accum=gacc, replace=replace, **kw)
        if isinstance(indices, tuple):
            target[indices[0], indices[1]] << u
        else:
            target[indices] << u
        got = from_gb(C)
    elif rout is None:
        got = from_gb(gb_f().new(**kw))
    else:
        C = to_gb(rout)
        C(accum=gacc, replace=replace, **kw) << gb_f()
        got = from_gb(C)
    assert_agree(got, expected)


def _t_dtype(ref_f):
    """The dtype of the operation's result T (the reference's, before the write step)."""
    return ref_f(mask=None, accum=None, replace=False, out=None).dtype


@pytest.mark.parametrize("name", ["plus", "times", "min", "max", "any", "land", "lor", "lxor"])
@SETTINGS
@given(x=st.one_of(st.tuples(vec_dims), st.tuples(dims, dims)).flatmap(containers))
def test_reduce_to_scalar_agrees_with_python_graphblas(name, x):
    m = getattr(M, name)
    rx = _ref(x)
    try:
        d = ref._o.monoid_domain(m, rx.dtype)
    except DomainMismatch:
        event("monoid not defined on the type (not compared)")
        return
    expected = ref.reduce_scalar(rx, m)
    gx = to_gb(rx)
    got = (gx.reduce if isinstance(gx, gb.Vector) else gx.reduce_scalar)(gb_monoid(m, d)).new()
    assert np.dtype(got.dtype.np_type) == d
    value = got.value if got.nvals else ref._o.identity(m, d)  # (python-graphblas: no entry for nothing)
    assert ref.values_equal(d.type(value), expected), (value, expected)


def test_promotion_table_agrees_with_python_graphblas():
    """Where the reference names a common type, python-graphblas's unify gives the same one; where
    it names none (uint64 with a signed type) python-graphblas goes to FP64."""
    for (a, b), c in _refscalar.PROMOTION.items():
        assert _refscalar.PROMOTION[(b, a)] == c
        u = gb.dtypes.unify(gb.dtypes.lookup_dtype(a), gb.dtypes.lookup_dtype(b))
        assert u.np_type == np.dtype(c if c is not None else "float64"), (a, b, c, u)


# -- every operator on every type pair, at the values where the rules matter ---------------------
ALL_DTYPES = tuple(_refscalar.DTYPES)


def special_values(d):
    """0, 1, -1 (wrapped for unsigned), 2, the extremes, and for floats -0.0, +-inf and NaN."""
    d = np.dtype(d)
    if d.kind == "b":
        return [False, True]
    if d.kind == "f":
        big = float(np.finfo(d).max)
        return [0.0, -0.0, 1.0, -1.0, 2.5, -7.0, big, -big, np.inf, -np.inf, np.nan]
    lo, hi = _refscalar.int_range(d)
    return sorted({0, 1, 2, hi, hi - 1, lo, lo + 1, 7 % (hi + 1), max(lo, -7), max(lo, -1)})


def _pairs(dx, dy):
    xs, ys = special_values(dx), special_values(dy)
    x = ref.RefVector(len(xs) * len(ys), dx, {k: np.dtype(dx).type(a) for k, (a, _) in
                                               enumerate((a, b) for a in xs for b in ys)})
    y = ref.RefVector(len(xs) * len(ys), dy, {k: np.dtype(dy).type(b) for k, (_, b) in
                                               enumerate((a, b) for a in xs for b in ys)})
    return x, y


def _compare_defined(got, expected, what):
    assert got.dtype == expected.dtype, f"{what}: dtype {got.dtype} (python-graphblas) != {expected.dtype}"
    bad = [(p, got.entries.get(p), v) for p, v in expected.entries.items()
           if not isinstance(v, ref.Undefined) and not ref.values_equal(got.entries[p], v)]
    assert not bad, f"{what}: (position, python-graphblas, reference): {bad}"


#: Every type with itself, and mixed pairs that reach every row of the promotion table.
TYPE_PAIRS = [(d, d) for d in ALL_DTYPES] + [
    ("bool", "int8"), ("int8", "uint8"), ("int16", "uint32"), ("uint8", "int64"), ("int32", "float32"),
    ("uint16", "float32"), ("uint64", "float64"), ("float32", "float64"), ("bool", "float32"), ("uint8", "uint64"),
    ("int64", "uint64"),
]


@pytest.mark.parametrize("name", sorted(n for n in B.BINARY if n != "oneb" and not B.BINARY[n].positional))
def test_binary_operator_agrees_on_special_values(name):
    op, compared = B.BINARY[name], 0
    for dx, dy in TYPE_PAIRS:
        for dx, dy in ((dx, dy), (dy, dx)) if dx != dy else ((dx, dy),):
            try:
                t = ref._o.binary_types(op, dx, dy)[0]
                gop = gb_binary(op, t)
            except (DomainMismatch, NoOperator):
                continue
            x, y = _pairs(dx, dy)
            expected = ref.ewise_mult(x, y, op)
            got = from_gb(to_gb(x).ewise_mult(to_gb(y), gop).new())
            _compare_defined(got, expected, f"{name}({dx}, {dy}) as {gop}")
            compared += 1
    assert compared >= 10


@pytest.mark.parametrize("name", sorted(U.UNARY))
def test_unary_operator_agrees_on_special_values(name):
    op, compared = U.UNARY[name], 0
    for d in ALL_DTYPES:
        try:
            ref._o.unary_output(op, d)
            gop = _typed(gb.unary, name, "bool" if name == "lnot" else d)
        except (DomainMismatch, NoOperator):
            continue
        vals = special_values(d)
        x = ref.RefVector(len(vals), d, {k: np.dtype(d).type(v) for k, v in enumerate(vals)})
        _compare_defined(from_gb(to_gb(x).apply(gop).new()), ref.apply(x, op), f"{name}({d}) as {gop}")
        compared += 1
    assert compared >= 2


@pytest.mark.parametrize("name", sorted(n for n in M.MONOID))
def test_monoid_identity_agrees(name):
    """The reduction of nothing is the identity (python-graphblas: the monoid's identity value)."""
    m, compared = M.MONOID[name], 0
    for d in ALL_DTYPES:
        try:
            dom = ref._o.monoid_domain(m, d)
            gop = gb_monoid(m, dom)
        except (DomainMismatch, NoOperator):
            continue
        if name != "any":
            assert ref.values_equal(dom.type(gop.identity), ref.reduce_scalar(ref.RefVector(0, d), m)), (name, d)
            compared += 1
    assert compared >= (0 if name == "any" else 1)
