"""A small dict-of-keys reference implementation of the GraphBLAS C API 2.0 semantics, for tests.

Everything structural is written here as plain Python loops over dicts, independently of the
library's algorithms: which entries exist, which positions a mask allows, what ``replace``
deletes, how ``accum`` merges old and new entries, how indices map in products, ``assign``,
``extract``, ``transpose`` and ``kronecker``. Only the scalar arithmetic is delegated to the
library's operator objects, evaluated on 1-element NumPy arrays, so that type promotion and
integer wrap-around agree with the library by construction.

A value produced by an ``any`` monoid is a :class:`Choice`: every one of its candidates is a
correct answer (the specification lets ``any`` return any of the reduced terms).

Containers: :class:`RefVector` (``entries: {i: value}``) and :class:`RefMatrix`
(``entries: {(i, j): value}``); values are NumPy scalars of the container's dtype.
Operations never modify their arguments; with ``out=`` they return the new content of ``out``.

Reference: GraphBLAS C API Specification 2.0, sections 3.5.4 (mask, accumulate, replace) and
4.3 (operations).
"""

from __future__ import annotations

import itertools

import numpy as np

from ..ops._base import BinaryOp, IndexUnaryOp

__all__ = [
    "Choice", "RefVector", "RefMatrix", "RefMask", "from_semiring", "to_semiring", "mask", "cast", "write",
    "mxv", "vxm", "mxm", "ewise_add", "ewise_mult", "apply", "select", "reduce_rowwise",
    "reduce_columnwise", "reduce_scalar", "assign", "extract", "transpose", "kronecker",
    "assert_same", "values_equal",
]


# -- values -------------------------------------------------------------------------------------
class Choice:
    """A set of equally valid values (the result of an ``any`` reduction)."""

    __slots__ = ("values",)

    def __init__(self, values):
        uniq = []
        for v in values:
            if not any(_same_scalar(v, w) for w in uniq):
                uniq.append(v)
        self.values = tuple(uniq)

    def __repr__(self):
        return f"Choice({list(self.values)!r})"


def _same_scalar(a, b, rtol=0.0):
    if np.dtype(type(a)).kind == "f" or np.dtype(type(b)).kind == "f":
        fa, fb = float(a), float(b)
        if np.isnan(fa) or np.isnan(fb):
            return np.isnan(fa) and np.isnan(fb)
        return fa == fb or abs(fa - fb) <= rtol * max(abs(fa), abs(fb), 1.0)
    return bool(a == b)


def _lift(f, *args):
    """Apply ``f`` to scalars, or to every combination of candidates when an argument is a Choice."""
    if not any(isinstance(a, Choice) for a in args):
        return f(*args)
    pools = [a.values if isinstance(a, Choice) else (a,) for a in args]
    return Choice(f(*combo) for combo in itertools.product(*pools))


def cast(x, dtype):
    """Typecast one value to ``dtype`` as C does (bool: ``x != 0``)."""
    d = np.dtype(dtype)

    def one(v):
        arr = np.array([v])
        if d.kind == "b":
            return np.bool_(arr[0] != 0)
        with np.errstate(all="ignore"):
            return arr.astype(d)[0]

    return _lift(one, x)


def binop(op, x, y, idx=None):
    """``op(x, y)``; for a positional operator, the index it picks from ``idx = (i, k, j)``."""
    if getattr(op, "positional", None):
        i, k, j = idx
        pick = {"firsti": i, "firstj": k, "secondi": k, "secondj": j}[op.positional]
        return np.int64(pick)
    return _lift(lambda a, b: op.eval(np.array([a]), np.array([b]))[0], x, y)


def fold(monoid, values, dtype):
    """Reduce ``values`` (in the given order) by ``monoid``; None when there are none."""
    d = monoid.domain_for(dtype)
    vals = [cast(v, d) for v in values]
    if not vals:
        return None
    if getattr(monoid, "is_any", False):
        flat = []
        for v in vals:
            flat.extend(v.values if isinstance(v, Choice) else (v,))
        return Choice(flat)
    acc = vals[0]
    for v in vals[1:]:
        acc = cast(binop(monoid.op, acc, v), d)
    return acc


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
    """``parent.S`` (structural), ``parent.V`` (value), optionally complemented."""

    def __init__(self, parent, structural, complement=False):
        self.parent, self.structural, self.complement = parent, structural, complement

    @property
    def shape(self):
        return self.parent.shape

    def allows(self, key):
        v = self.parent.entries.get(key)
        hit = v is not None and (self.structural or bool(v != 0))
        return hit != self.complement


def mask(kind, parent):
    """Mask from a kind ``None``, ``"S"``, ``"V"``, ``"~S"``, ``"~V"`` over a Ref container."""
    if kind is None:
        return None
    return RefMask(parent, structural=kind.endswith("S"), complement=kind.startswith("~"))


# -- the write step -----------------------------------------------------------------------------
def write(C, T, mask=None, accum=None, replace=False):
    """``C<mask, replace> = accum(C, T)``; returns the new C (a new object). ``C=None``: empty of T's dtype."""
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
            Z[p] = cast(t, C.dtype)
    else:
        zt = accum.output_dtype(C.dtype, T.dtype)
        for p in set(C.entries) | set(T.entries):
            if p in C.entries and p in T.entries:
                z = binop(accum, C.entries[p], T.entries[p])
            elif p in C.entries:
                z = C.entries[p]
            else:
                z = T.entries[p]
            Z[p] = cast(cast(z, zt), C.dtype)
    # C<mask, replace> = Z.
    R = {}
    for p in set(C.entries) | set(Z):
        if mask is None or mask.allows(p):
            if p in Z:
                R[p] = Z[p]
        elif not replace and p in C.entries:
            R[p] = C.entries[p]
    return _new(C.shape, C.dtype, R)


def _finish(T, mask, accum, replace, out):
    return write(out, T, mask, accum, replace)


# -- products -----------------------------------------------------------------------------------
def _check(cond, msg):
    if not cond:
        raise ValueError(msg)


def mxv(A, u, semiring, *, mask=None, accum=None, replace=False, out=None):
    """``w(i) = (+)_k A(i,k) (x) u(k)``, u taken as an n x 1 column (j = 0)."""
    _check(A.ncols == u.size, "mxv: A.ncols != u.size")
    zd = semiring.multiply.output_dtype(A.dtype, u.dtype)
    T = RefVector(A.nrows, semiring.output_dtype(A.dtype, u.dtype))
    for i in range(A.nrows):
        terms = [binop(semiring.multiply, A.entries[(i, k)], u.entries[k], (i, k, 0))
                 for k in range(A.ncols) if (i, k) in A.entries and k in u.entries]
        if terms:
            T.entries[i] = cast(fold(semiring.monoid, terms, zd), T.dtype)
    return _finish(T, mask, accum, replace, out)


def vxm(u, A, semiring, *, mask=None, accum=None, replace=False, out=None):
    """``w(j) = (+)_k u(k) (x) A(k,j)``, u taken as a 1 x m row (i = 0)."""
    _check(A.nrows == u.size, "vxm: A.nrows != u.size")
    zd = semiring.multiply.output_dtype(u.dtype, A.dtype)
    T = RefVector(A.ncols, semiring.output_dtype(u.dtype, A.dtype))
    for j in range(A.ncols):
        terms = [binop(semiring.multiply, u.entries[k], A.entries[(k, j)], (0, k, j))
                 for k in range(A.nrows) if k in u.entries and (k, j) in A.entries]
        if terms:
            T.entries[j] = cast(fold(semiring.monoid, terms, zd), T.dtype)
    return _finish(T, mask, accum, replace, out)


def mxm(A, B, semiring, *, mask=None, accum=None, replace=False, out=None):
    """``C(i,j) = (+)_k A(i,k) (x) B(k,j)``."""
    _check(A.ncols == B.nrows, "mxm: inner dimensions differ")
    zd = semiring.multiply.output_dtype(A.dtype, B.dtype)
    T = RefMatrix(A.nrows, B.ncols, semiring.output_dtype(A.dtype, B.dtype))
    terms = {}  # (i, j) -> product terms, in increasing k
    for (i, k) in sorted(A.entries):
        for (k2, j) in sorted(B.entries):
            if k2 == k:
                terms.setdefault((i, j), []).append(
                    binop(semiring.multiply, A.entries[(i, k)], B.entries[(k, j)], (i, k, j)))
    for p, ts in terms.items():
        T.entries[p] = cast(fold(semiring.monoid, ts, zd), T.dtype)
    return _finish(T, mask, accum, replace, out)


# -- element-wise -------------------------------------------------------------------------------
def _binary(op):
    return getattr(op, "op", op)  # a Monoid stands for its operator


def ewise_add(x, y, op, *, mask=None, accum=None, replace=False, out=None):
    """Union: ``op(x, y)`` where both are present, else the one present value."""
    _check(x.shape == y.shape, "ewise_add: shapes differ")
    op = _binary(op)
    T = x.empty_like(op.output_dtype(x.dtype, y.dtype))
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
    T = x.empty_like(op.output_dtype(x.dtype, y.dtype))
    for p in x.entries:
        if p in y.entries:
            T.entries[p] = cast(binop(op, x.entries[p], y.entries[p]), T.dtype)
    return _finish(T, mask, accum, replace, out)


def _kind(op):
    if isinstance(op, BinaryOp) or hasattr(op, "op"):
        return "binary"
    if isinstance(op, IndexUnaryOp):
        return "indexunary"
    return "unary"


def apply(x, op, *, left=None, right=None, thunk=None, mask=None, accum=None, replace=False, out=None):
    """``f(x)`` (UnaryOp), ``op(left, x)`` / ``op(x, right)`` (BinaryOp; pass NumPy scalars), or
    ``f(x, i, j, thunk)`` (IndexUnaryOp; j = 0 for a vector)."""
    kind = _kind(op)
    op = _binary(op) if kind == "binary" else op
    if kind == "unary":
        T = x.empty_like(op.output_dtype(x.dtype))
        for p, v in x.entries.items():
            T.entries[p] = cast(op.eval(np.array([v]))[0], T.dtype)
    elif kind == "indexunary":
        t = 0 if thunk is None else thunk
        T = x.empty_like(op.output_dtype(x.dtype))
        for p, v in x.entries.items():
            i, j = x.ij(p)
            T.entries[p] = cast(op.eval(np.array([v]), np.array([i]), np.array([j]), t)[0], T.dtype)
    else:
        _check((left is None) != (right is None), "apply: exactly one of left/right")
        s = np.asarray(left if left is not None else right)[()]
        dt = op.output_dtype(s.dtype, x.dtype) if left is not None else op.output_dtype(x.dtype, s.dtype)
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
        if bool(op.eval(np.array([v]), np.array([i]), np.array([j]), thunk)[0] != 0):
            T.entries[p] = v
    return _finish(T, mask, accum, replace, out)


# -- reductions ---------------------------------------------------------------------------------
def reduce_rowwise(A, monoid, *, mask=None, accum=None, replace=False, out=None):
    """``w(i) = (+)_j A(i,j)``, folded in column order; empty rows absent."""
    T = RefVector(A.nrows, monoid.domain_for(A.dtype))
    for i in range(A.nrows):
        terms = [A.entries[(i, j)] for j in range(A.ncols) if (i, j) in A.entries]
        if terms:
            T.entries[i] = fold(monoid, terms, A.dtype)
    return _finish(T, mask, accum, replace, out)


def reduce_columnwise(A, monoid, *, mask=None, accum=None, replace=False, out=None):
    """``w(j) = (+)_i A(i,j)``, folded in row order; empty columns absent."""
    T = RefVector(A.ncols, monoid.domain_for(A.dtype))
    for j in range(A.ncols):
        terms = [A.entries[(i, j)] for i in range(A.nrows) if (i, j) in A.entries]
        if terms:
            T.entries[j] = fold(monoid, terms, A.dtype)
    return _finish(T, mask, accum, replace, out)


def reduce_scalar(x, monoid):
    """``(+)`` of every entry in index (row-major) order; the identity when there is none."""
    r = fold(monoid, [x.entries[p] for p in sorted(x.entries)], x.dtype)
    return monoid.identity_for(x.dtype) if r is None else r


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
            Z[p] = cast(v, C.dtype)
    else:
        zt = accum.output_dtype(C.dtype, udtype)
        for p in region:
            if p in C.entries and p in t:
                z = binop(accum, C.entries[p], t[p])
            elif p in C.entries:
                z = C.entries[p]
            elif p in t:
                z = t[p]
            else:
                continue
            Z[p] = cast(cast(z, zt), C.dtype)
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
    T = RefMatrix(A.nrows * B.nrows, A.ncols * B.ncols, op.output_dtype(A.dtype, B.dtype))
    for (ia, ja), a in A.entries.items():
        for (ib, jb), b in B.entries.items():
            T.entries[(ia * B.nrows + ib, ja * B.ncols + jb)] = cast(binop(op, a, b), T.dtype)
    return _finish(T, mask, accum, replace, out)


# -- comparison ---------------------------------------------------------------------------------
def values_equal(actual, expected, rtol=0.0):
    """``actual`` (a scalar) equals ``expected`` (a scalar or a Choice of valid values)."""
    if isinstance(expected, Choice):
        return any(_same_scalar(actual, e, rtol) for e in expected.values)
    return _same_scalar(actual, expected, rtol)


def assert_same(actual, expected, *, rtol=0.0, check_dtype=True):
    """Assert a ``semiring`` Vector/Matrix has exactly the expected shape, dtype, entries and values."""
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
