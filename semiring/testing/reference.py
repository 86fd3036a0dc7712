"""A small dict-of-keys reference implementation of the GraphBLAS C API 2.0 semantics, for tests.

Everything is written here as plain Python over dicts, independently of the library: which
entries exist, which positions a mask allows, what ``replace`` deletes, how ``accum`` merges
old and new entries, how indices map in products, ``assign``, ``extract``, ``transpose`` and
``kronecker``; and, in :mod:`semiring.testing._refscalar`, the type each operator produces
(hard-coded promotion tables) and the value it computes (one small function per built-in
operator, monoid and typecast). The library's operator objects are only matched to those
definitions by name; a user's own operator is evaluated by its own function.

A value the specification leaves open is a stand-in: a :class:`Choice` (an ``any`` result: every
candidate is right), an :class:`Approx` (a float sum or product in an order of the
implementation's choosing: every value within the rounding bound of some order) or an
:class:`Undefined` (a typecast C leaves undefined, which the library refuses with
``InvalidValue``). :func:`expect_raise` says whether a result makes the library raise.

Containers: :class:`RefVector` (``entries: {i: value}``) and :class:`RefMatrix`
(``entries: {(i, j): value}``); values are NumPy scalars of the container's dtype.
Operations never modify their arguments; with ``out=`` they return the new content of ``out``.
A type error (no common type, an operator that does not take the type) raises
``DomainMismatch``; a NaN in a value mask raises ``InvalidValue``, as the library does.

Reference: GraphBLAS C API Specification 2.0, sections 3.5.4 (mask, accumulate, replace) and
4.3 (operations).
"""

from __future__ import annotations

import numpy as np

from ..exceptions import InvalidValue
from ..ops._base import IndexUnaryOp, UnaryOp
from . import _refops as _o
from . import _refscalar as _s
from ._refops import binop, fold
from ._refscalar import Approx, Choice, Undefined, cast

__all__ = [
    "Choice", "Approx", "Undefined", "RefVector", "RefMatrix", "RefMask", "from_semiring", "to_semiring", "mask",
    "cast", "write", "mxv", "vxm", "mxm", "ewise_add", "ewise_mult", "apply", "select", "reduce_rowwise",
    "reduce_columnwise", "reduce_scalar", "assign", "extract", "transpose", "kronecker",
    "assert_same", "values_equal", "expect_raise",
]


# -- containers ---------------------------------------------------------------------------------
class _Ref:
    def __init__(self, shape, dtype, entries=None):
        self.shape = tuple(int(s) for s in shape)
        self.dtype = np.dtype(dtype)
        self.entries = dict(entries or {})
        for key in self.entries:
            if not self._in_range(key):
                raise IndexError(f"{type(self).__name__}: key {key!r} outside shape {self.shape}")

    @property
    def nvals(self):
        return len(self.entries)

    def empty_like(self, dtype=None):
        return _new(self.shape, self.dtype if dtype is None else dtype, {})

    def copy(self):
        return _new(self.shape, self.dtype, self.entries)

    def __repr__(self):
        return f"{type(self).__name__}(shape={self.shape}, dtype={self.dtype.name}, entries={self.entries!r})"


class RefVector(_Ref):
    """A vector: ``entries`` maps an index to a value."""

    def __init__(self, size, dtype, entries=None):
        super().__init__((size,), dtype, entries)

    @property
    def size(self):
        return self.shape[0]

    def _in_range(self, key):
        return isinstance(key, int) and 0 <= key < self.shape[0]

    @staticmethod
    def ij(key):
        return key, 0


class RefMatrix(_Ref):
    """A matrix: ``entries`` maps ``(i, j)`` to a value."""

    def __init__(self, nrows, ncols, dtype, entries=None):
        super().__init__((nrows, ncols), dtype, entries)

    @property
    def nrows(self):
        return self.shape[0]

    @property
    def ncols(self):
        return self.shape[1]

    def _in_range(self, key):
        i, j = key
        return 0 <= i < self.shape[0] and 0 <= j < self.shape[1]

    @staticmethod
    def ij(key):
        return key


def _new(shape, dtype, entries):
    if len(shape) == 1:
        return RefVector(shape[0], dtype, entries)
    return RefMatrix(shape[0], shape[1], dtype, entries)


def _host(a):
    return np.asarray(a.get() if hasattr(a, "get") and not isinstance(a, np.ndarray) else a)  # CuPy -> NumPy


def from_semiring(x):
    """A RefVector / RefMatrix holding the entries of a ``semiring.Vector`` / ``Matrix``."""
    coo = x.to_coo()
    if len(coo) == 2:
        idx, vals = (_host(a) for a in coo)
        return RefVector(x.size, x.dtype, {int(i): vals[t] for t, i in enumerate(idx)})
    rows, cols, vals = (_host(a) for a in coo)
    return RefMatrix(x.nrows, x.ncols, x.dtype,
                     {(int(i), int(j)): vals[t] for t, (i, j) in enumerate(zip(rows, cols))})


def to_semiring(r, device="cpu"):
    """A ``semiring.Vector`` / ``Matrix`` with the entries of a RefVector / RefMatrix (no Choice values)."""
    import semiring as sr

    keys = sorted(r.entries)
    if any(isinstance(r.entries[p], Choice) for p in keys):
        raise ValueError("to_semiring: a Choice (an 'any' result) has no single value")
    vals = np.array([r.entries[p] for p in keys], dtype=r.dtype)
    if isinstance(r, RefVector):
        return sr.Vector.from_coo(np.array(keys, dtype=np.int64), vals, size=r.size, dtype=r.dtype, device=device)
    rows = np.array([i for i, _ in keys], dtype=np.int64)
    cols = np.array([j for _, j in keys], dtype=np.int64)
    return sr.Matrix.from_coo(rows, cols, vals, nrows=r.nrows, ncols=r.ncols, dtype=r.dtype, device=device)


class RefMask:
    """``parent.S`` (structural), ``parent.V`` (value), optionally complemented.

    A value mask reads its values as booleans (nonzero is true); a NaN there raises
    InvalidValue (the library refuses it before any work; C would read it as true)."""

    def __init__(self, parent, structural, complement=False):
        self.parent, self.structural, self.complement = parent, structural, complement
        if not structural:
            for v in parent.entries.values():
                if isinstance(_s.cast(v, "bool"), Undefined):
                    raise InvalidValue("value mask: a NaN is not a boolean")

    @property
    def shape(self):
        return self.parent.shape

    def allows(self, key):
        v = self.parent.entries.get(key)
        hit = v is not None and (self.structural or bool(_s.cast(v, "bool")))
        return hit != self.complement


def mask(kind, parent):
    """Mask from a kind ``None``, ``"S"``, ``"V"``, ``"~S"``, ``"~V"`` over a Ref container."""
    if kind is None:
        return None
    return RefMask(parent, structural=kind.endswith("S"), complement=kind.startswith("~"))


# -- the write step -----------------------------------------------------------------------------
def _into(v, dtype):
    """Typecast ``v`` into the output's type; an undefined cast here is final (see Undefined)."""
    z = cast(v, dtype)
    plain = not isinstance(v, (Undefined, Approx, Choice))
    return Undefined(z.why, final=True) if isinstance(z, Undefined) and plain else z


def write(C, T, mask=None, accum=None, replace=False):
    """``C<mask, replace> = accum(C, T)``; returns the new C (a new object). ``C=None``: empty of T's dtype.

    With ``accum``, an entry of only one of C and T is typecast straight into C's type (not
    through the accumulator's output type, which the C API's Z would have: SuiteSparse does
    so, and only then does an entry of C that T does not touch keep its value exactly).

    The returned container's ``undefined`` says whether an undefined typecast happened on the
    way: None, ``"may"`` (somewhere: the library may raise InvalidValue) or ``"must"`` (in a
    value the output keeps: the library must raise)."""
    if replace and mask is None:
        raise ValueError("replace=True needs a mask")
    if C is None:
        C = T.empty_like()
    if C.shape != T.shape or (mask is not None and mask.shape != C.shape):
        raise ValueError(f"shape mismatch: C {C.shape}, T {T.shape}, mask {None if mask is None else mask.shape}")
    # Z = accum(C, T); without accum Z = T.
    Z = {}
    if accum is None:
        for p, t in T.entries.items():
            Z[p] = _into(t, C.dtype)
    else:
        zt = _o.binary_output(accum, C.dtype, T.dtype)
        for p in set(C.entries) | set(T.entries):
            if p in C.entries and p in T.entries:
                Z[p] = _into(cast(binop(accum, C.entries[p], T.entries[p]), zt), C.dtype)
            else:  # the one present value, straight into C's type (as SuiteSparse:GraphBLAS does)
                Z[p] = _into(C.entries[p] if p in C.entries else T.entries[p], C.dtype)
    # C<mask, replace> = Z.
    R = {}
    for p in set(C.entries) | set(Z):
        if mask is None or mask.allows(p):
            if p in Z:
                R[p] = Z[p]
        elif not replace and p in C.entries:
            R[p] = C.entries[p]
    out = _new(C.shape, C.dtype, R)
    seen = [v for v in list(T.entries.values()) + list(Z.values()) if _undefined(v)]
    if any(_undefined(v, final=True) for v in R.values()):
        out.undefined = "must"
    elif seen or getattr(T, "undefined", None):
        out.undefined = "may"
    return out


def _undefined(v, final=False):
    if isinstance(v, Choice):
        return any(_undefined(w, final) for w in v.values)
    return isinstance(v, Undefined) and (v.final or not final)


def expect_raise(result):
    """None, ``"may"`` or ``"must"``: whether the library may or must raise InvalidValue for
    the operation that gave ``result`` (an undefined typecast, see :class:`Undefined`)."""
    return getattr(result, "undefined", None)


def _finish(T, mask, accum, replace, out):
    return write(out, T, mask, accum, replace)


# -- products -----------------------------------------------------------------------------------
def _check(cond, msg):
    if not cond:
        raise ValueError(msg)


def _product(T, pairs, semiring, dx, dy):
    """``T(p) = (+) over the terms`` for each output position p; ``pairs[p]`` lists the
    operands ``(x, y, (i, k, j))`` of its terms in increasing k."""
    zd = _o.binary_output(semiring.multiply, dx, dy)
    for p, ops in pairs.items():
        if ops:
            terms = [binop(semiring.multiply, x, y, idx) for x, y, idx in ops]
            T.entries[p] = cast(fold(semiring.monoid, terms, zd), T.dtype)
    return T


def mxv(A, u, semiring, *, mask=None, accum=None, replace=False, out=None):
    """``w(i) = (+)_k A(i,k) (x) u(k)``, u taken as an n x 1 column (j = 0)."""
    _check(A.ncols == u.size, "mxv: A.ncols != u.size")
    T = RefVector(A.nrows, _o.semiring_output(semiring, A.dtype, u.dtype))
    pairs = {i: [(A.entries[(i, k)], u.entries[k], (i, k, 0)) for k in range(A.ncols)
                 if (i, k) in A.entries and k in u.entries] for i in range(A.nrows)}
    return _finish(_product(T, pairs, semiring, A.dtype, u.dtype), mask, accum, replace, out)


def vxm(u, A, semiring, *, mask=None, accum=None, replace=False, out=None):
    """``w(j) = (+)_k u(k) (x) A(k,j)``, u taken as a 1 x m row (i = 0)."""
    _check(A.nrows == u.size, "vxm: A.nrows != u.size")
    T = RefVector(A.ncols, _o.semiring_output(semiring, u.dtype, A.dtype))
    pairs = {j: [(u.entries[k], A.entries[(k, j)], (0, k, j)) for k in range(A.nrows)
                 if k in u.entries and (k, j) in A.entries] for j in range(A.ncols)}
    return _finish(_product(T, pairs, semiring, u.dtype, A.dtype), mask, accum, replace, out)


def mxm(A, B, semiring, *, mask=None, accum=None, replace=False, out=None):
    """``C(i,j) = (+)_k A(i,k) (x) B(k,j)``."""
    _check(A.ncols == B.nrows, "mxm: inner dimensions differ")
    T = RefMatrix(A.nrows, B.ncols, _o.semiring_output(semiring, A.dtype, B.dtype))
    rows_of_b = {}
    for (k, j) in sorted(B.entries):
        rows_of_b.setdefault(k, []).append(j)
    pairs = {}  # (i, j) -> operands of the product terms, in increasing k
    for (i, k) in sorted(A.entries):
        for j in rows_of_b.get(k, ()):
            pairs.setdefault((i, j), []).append((A.entries[(i, k)], B.entries[(k, j)], (i, k, j)))
    return _finish(_product(T, pairs, semiring, A.dtype, B.dtype), mask, accum, replace, out)


# -- element-wise -------------------------------------------------------------------------------
def _binary(op):
    return getattr(op, "op", op)  # a Monoid stands for its operator


def ewise_add(x, y, op, *, mask=None, accum=None, replace=False, out=None):
    """Union: ``op(x, y)`` where both are present, else the one present value."""
    _check(x.shape == y.shape, "ewise_add: shapes differ")
    op = _binary(op)
    T = x.empty_like(_o.binary_output(op, x.dtype, y.dtype))
    for p in set(x.entries) | set(y.entries):
        if p in x.entries and p in y.entries:
            T.entries[p] = cast(binop(op, x.entries[p], y.entries[p]), T.dtype)
        else:
            T.entries[p] = cast(x.entries[p] if p in x.entries else y.entries[p], T.dtype)
    return _finish(T, mask, accum, replace, out)


def ewise_mult(x, y, op, *, mask=None, accum=None, replace=False, out=None):
    """Intersection: ``op(x, y)`` where both are present."""
    _check(x.shape == y.shape, "ewise_mult: shapes differ")
    op = _binary(op)
    T = x.empty_like(_o.binary_output(op, x.dtype, y.dtype))
    for p in x.entries:
        if p in y.entries:
            T.entries[p] = cast(binop(op, x.entries[p], y.entries[p]), T.dtype)
    return _finish(T, mask, accum, replace, out)


def _kind(op):
    if isinstance(op, IndexUnaryOp):
        return "indexunary"
    if isinstance(op, UnaryOp):
        return "unary"
    return "binary"  # a BinaryOp, or a Monoid standing for its operator


def apply(x, op, *, left=None, right=None, thunk=None, mask=None, accum=None, replace=False, out=None):
    """``f(x)`` (UnaryOp), ``op(left, x)`` / ``op(x, right)`` (BinaryOp; pass NumPy scalars), or
    ``f(x, i, j, thunk)`` (IndexUnaryOp; j = 0 for a vector)."""
    kind = _kind(op)
    if kind == "unary":
        T = x.empty_like(_o.unary_output(op, x.dtype))
        for p, v in x.entries.items():
            T.entries[p] = _o.unop(op, v, x.dtype)
    elif kind == "indexunary":
        t = 0 if thunk is None else thunk
        T = x.empty_like(_o.indexunary_output(op, x.dtype))
        for p, v in x.entries.items():
            i, j = x.ij(p)
            T.entries[p] = cast(_o.indexop(op, v, i, j, t, x.dtype), T.dtype)
    else:
        op = _binary(op)
        _check((left is None) != (right is None), "apply: exactly one of left/right")
        s = np.asarray(left if left is not None else right)[()]
        dt = _o.binary_output(op, s.dtype, x.dtype) if left is not None else _o.binary_output(op, x.dtype, s.dtype)
        T = x.empty_like(dt)
        for p, v in x.entries.items():
            z = binop(op, s, v) if left is not None else binop(op, v, s)
            T.entries[p] = cast(z, T.dtype)
    return _finish(T, mask, accum, replace, out)


def select(x, op, thunk=0, *, mask=None, accum=None, replace=False, out=None):
    """Keep the entries where ``f(x, i, j, thunk)`` is true."""
    T = x.empty_like()
    for p, v in x.entries.items():
        i, j = x.ij(p)
        keep = cast(_o.indexop(op, v, i, j, thunk, x.dtype), "bool")
        if isinstance(keep, (Choice, Undefined)):
            raise ValueError(f"select: the predicate {op.name} has no single value at {p}: {keep!r}")
        if keep:
            T.entries[p] = v
    return _finish(T, mask, accum, replace, out)


# -- reductions ---------------------------------------------------------------------------------
def reduce_rowwise(A, monoid, *, mask=None, accum=None, replace=False, out=None):
    """``w(i) = (+)_j A(i,j)``; empty rows absent."""
    T = RefVector(A.nrows, _o.monoid_domain(monoid, A.dtype))
    for i in range(A.nrows):
        terms = [A.entries[(i, j)] for j in range(A.ncols) if (i, j) in A.entries]
        if terms:
            T.entries[i] = fold(monoid, terms, A.dtype)
    return _finish(T, mask, accum, replace, out)


def reduce_columnwise(A, monoid, *, mask=None, accum=None, replace=False, out=None):
    """``w(j) = (+)_i A(i,j)``; empty columns absent."""
    T = RefVector(A.ncols, _o.monoid_domain(monoid, A.dtype))
    for j in range(A.ncols):
        terms = [A.entries[(i, j)] for i in range(A.nrows) if (i, j) in A.entries]
        if terms:
            T.entries[j] = fold(monoid, terms, A.dtype)
    return _finish(T, mask, accum, replace, out)


def reduce_scalar(x, monoid):
    """``(+)`` of every entry; the identity when there is none."""
    r = fold(monoid, [x.entries[p] for p in sorted(x.entries)], x.dtype)
    return _o.identity(monoid, x.dtype) if r is None else r


# -- indexing and structure ---------------------------------------------------------------------
def _index_list(idx, n):
    if idx is None:
        return list(range(n))
    if isinstance(idx, slice):
        return list(range(n))[idx]
    if isinstance(idx, (int, np.integer)):
        return [int(idx)]
    return [int(i) for i in idx]


def assign(out, u, indices=None, *, mask=None, accum=None, replace=False):
    """GrB_assign: ``out<mask, replace>(I[, J]) = accum(out(I[, J]), u)``; u a container or a
    NumPy scalar. Returns the new content of ``out``."""
    C = out
    if isinstance(C, RefVector):
        I = _index_list(indices, C.size)
        region = set(I)
        if isinstance(u, _Ref):
            _check(u.shape == (len(I),), "assign: u size != len(I)")
            t = {I[a]: v for a, v in u.entries.items()}
        else:
            t = {p: u for p in I}
    else:
        rows, cols = (None, None) if indices is None else indices
        I, J = _index_list(rows, C.nrows), _index_list(cols, C.ncols)
        region = {(i, j) for i in I for j in J}
        if isinstance(u, _Ref):
            _check(u.shape == (len(I), len(J)), "assign: u shape != (len(I), len(J))")
            t = {(I[a], J[b]): v for (a, b), v in u.entries.items()}
        else:
            t = {p: u for p in region}
    _check(len(region) == len(I) * (1 if isinstance(C, RefVector) else len(J)), "assign: repeated index")
    udtype = u.dtype if isinstance(u, _Ref) else np.asarray(u).dtype
    Z = {p: v for p, v in C.entries.items() if p not in region}
    if accum is None:
        for p, v in t.items():
            Z[p] = _into(v, C.dtype)
    else:
        zt = _o.binary_output(accum, C.dtype, udtype)
        for p in region:
            if p in C.entries and p in t:
                Z[p] = _into(cast(binop(accum, C.entries[p], t[p]), zt), C.dtype)
            elif p in C.entries or p in t:
                Z[p] = _into(C.entries[p] if p in C.entries else t[p], C.dtype)
    return write(C, _new(C.shape, C.dtype, Z), mask, None, replace)


def extract(x, rows=None, cols=None, *, mask=None, accum=None, replace=False, out=None):
    """``x(I)`` for a vector; ``A(I, J)`` for a matrix; an int row (col) gives a vector over J (I)."""
    if isinstance(x, RefVector):
        I = _index_list(rows, x.size)
        T = RefVector(len(I), x.dtype, {a: x.entries[i] for a, i in enumerate(I) if i in x.entries})
    elif isinstance(rows, (int, np.integer)) and not isinstance(rows, bool):
        J = _index_list(cols, x.ncols)
        T = RefVector(len(J), x.dtype, {b: x.entries[(rows, j)] for b, j in enumerate(J) if (rows, j) in x.entries})
    elif isinstance(cols, (int, np.integer)) and not isinstance(cols, bool):
        I = _index_list(rows, x.nrows)
        T = RefVector(len(I), x.dtype, {a: x.entries[(i, cols)] for a, i in enumerate(I) if (i, cols) in x.entries})
    else:
        I, J = _index_list(rows, x.nrows), _index_list(cols, x.ncols)
        T = RefMatrix(len(I), len(J), x.dtype)
        for a, i in enumerate(I):
            for b, j in enumerate(J):
                if (i, j) in x.entries:
                    T.entries[(a, b)] = x.entries[(i, j)]
    return _finish(T, mask, accum, replace, out)


def transpose(A, *, mask=None, accum=None, replace=False, out=None):
    """``T(j, i) = A(i, j)``."""
    T = RefMatrix(A.ncols, A.nrows, A.dtype, {(j, i): v for (i, j), v in A.entries.items()})
    return _finish(T, mask, accum, replace, out)


def kronecker(A, B, op, *, mask=None, accum=None, replace=False, out=None):
    """``T(iA*mB + iB, jA*nB + jB) = op(A(iA,jA), B(iB,jB))``."""
    op = _binary(op)
    T = RefMatrix(A.nrows * B.nrows, A.ncols * B.ncols, _o.binary_output(op, A.dtype, B.dtype))
    for (ia, ja), a in A.entries.items():
        for (ib, jb), b in B.entries.items():
            T.entries[(ia * B.nrows + ib, ja * B.ncols + jb)] = cast(binop(op, a, b), T.dtype)
    return _finish(T, mask, accum, replace, out)


# -- comparison ---------------------------------------------------------------------------------
def values_equal(actual, expected, rtol=0.0):
    """``actual`` (a plain scalar) is a value ``expected`` allows: equal to it (NaN equal to NaN,
    -0.0 to 0.0; within ``rtol`` for floats), one of a Choice's candidates, inside an Approx's
    range, or anything for an Undefined."""
    return _s.accepts(expected, actual, rtol)


def assert_same(actual, expected, *, rtol=0.0, check_dtype=True):
    """Assert a ``semiring`` Vector/Matrix has exactly the expected shape, dtype, entries and
    values (as :func:`values_equal` allows)."""
    got = from_semiring(actual)
    assert got.shape == expected.shape, f"shape {got.shape} != expected {expected.shape}"
    if check_dtype:
        assert got.dtype == expected.dtype, f"dtype {got.dtype} != expected {expected.dtype}"
    extra = sorted(set(got.entries) - set(expected.entries))
    missing = sorted(set(expected.entries) - set(got.entries))
    assert not extra and not missing, (
        f"structure differs: unexpected entries at {extra}, missing entries at {missing}\n"
        f"got      {got.entries}\nexpected {expected.entries}"
    )
    bad = [(p, got.entries[p], expected.entries[p]) for p in sorted(got.entries)
           if not values_equal(got.entries[p], expected.entries[p], rtol)]
    assert not bad, f"values differ at (position, got, expected): {bad}"
