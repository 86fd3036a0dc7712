"""Element-wise operations through the write step: ``ewise_add`` (union), ``ewise_mult``
(intersection), ``apply`` and ``select`` (GraphBLAS C API 2.0, sections 4.3.4, 4.3.5, 4.3.8, 4.3.9)."""

from __future__ import annotations

import numpy as np

from .. import dtypes as _dt
from ..backends import _select
from ..backends._xp import xp_of
from ..backends.array import sparse as _sp
from ..exceptions import InvalidValue
from ..ops._base import IndexUnaryOp, UnaryOp
from . import _hyper, _rowptr, _write
from . import _validate as _v
from .matrix import Matrix


def _indices(x):
    """(i, j) int64 arrays of every entry of a Vector (j = 0) or Matrix."""
    if isinstance(x, Matrix):
        return x._row_ids(), x._indices.astype(np.int64, copy=False)
    k, _ = x._keys()
    return k, k * 0


@_v.gpu_memory("ewise_add")
def ewise_add(x, y, op, *, mask=None, accum=None, replace=False, out=None):
    """Union: ``z(i) = op(x(i), y(i))`` where both are present, else the one present value.

    Parameters
    ----------
    x, y : Vector or Matrix of the same shape
    op : BinaryOp, Monoid or str
        ``sr.binary.plus``, ``sr.monoid.min``, ``"max"``, ...; positional operators are refused.
    mask, accum, replace, out
        The write step, as in :func:`semiring.mxv`.

    Returns
    -------
    Vector or Matrix of ``op.output_dtype(x.dtype, y.dtype)`` (or out's dtype).

    Raises
    ------
    DimensionMismatch
        Shapes differ.
    DomainMismatch
        ``op`` cannot take these dtypes, or is positional.
    InvalidValue
        Mixed Vector/Matrix operands, ``replace`` without mask.
    """
    f, zt, mask, accum, r = _ewise("add", x, y, op, out, mask, accum, replace)
    if r is not NotImplemented:
        return r
    full = _both_full(x, y)
    if full is not None:  # the union of two full vectors is their intersection: every position
        tk, xv, yv = full
        tv = _dt.cast(f.eval(xv, yv), zt, f"result of {f.name}", wrap_integers=True)
        return _write.write(out, tk, tv, x.shape, mask, accum, replace)
    xk, xv = x._keys()
    yk, yv = y._keys()
    tk, tv = _sp.union(xk, xv, yk, yv, f, zt)
    return _write.write(out, tk, tv, x.shape, mask, accum, replace)


def _ewise(kind, x, y, op, out, mask, accum, replace):
    """The checks and hand-offs that ``ewise_add`` (``kind="add"``) and ``ewise_mult``
    (``"mult"``) share: ``(op, result dtype, mask, accum, r)``, where ``r`` is the result when a
    kernel (:func:`_offload`) or the hypersparse split computed it, else NotImplemented."""
    what = f"ewise_{kind}"
    _v.container(x, f"{what} x")
    _v.same_shape(x, y, what)
    f = _v.binary_or_monoid(op, what)
    zt = f.output_dtype(x.dtype, y.dtype)
    mask, accum = _write.prepare(out, x.shape, mask, accum, replace, what)
    _v.same_device(x, out, None if mask is None else mask.parent)
    r = _offload("ewise", kind, x, y, f, write=(out, mask, accum, replace))
    if r is NotImplemented and _hyper.huge(x.shape):
        again = ewise_add if kind == "add" else ewise_mult
        r = _hyper.run(lambda axes, a, b, **w: again(a, b, f, **w), [(x, (0, 1)), (y, (0, 1))], x.shape,
                       out, mask, accum, replace)
    return f, zt, mask, accum, r


def _both_full(x, y):
    """(positions, x's values, y's values) when x and y are Vectors with every position present
    (their dense values, no lookup); else None."""
    if isinstance(x, Matrix) or x.nvals != x.size or y.nvals != y.size:
        return None
    xv, yv = x._bitmap()[1], y._bitmap()[1]
    return xp_of(xv).arange(x.size, dtype=np.int64), xv, yv


@_v.gpu_memory("ewise_mult")
def ewise_mult(x, y, op, *, mask=None, accum=None, replace=False, out=None):
    """Intersection: ``z(i) = op(x(i), y(i))`` where both are present; absent elsewhere.

    Parameters, Returns and Raises as in :func:`ewise_add`.
    """
    f, _, mask, accum, r = _ewise("mult", x, y, op, out, mask, accum, replace)
    if r is not NotImplemented:
        return r
    # Probe the operand with fewer entries into the other: O(small * log(large)), or
    # O(small) against a bitmap vector; two full vectors meet everywhere.
    full = _both_full(x, y)
    if full is not None:
        tk, xv, yv = full
    elif x.nvals <= y.nvals:
        tk, xv = x._keys()
        hit, yv = y._values_at(tk)
        tk, xv = tk[hit], xv[hit]
    else:
        tk, yv = y._keys()
        hit, xv = x._values_at(tk)
        tk, yv = tk[hit], yv[hit]
    tv = f.eval(xv, yv)
    return _write.write(out, tk, tv, x.shape, mask, accum, replace)


@_v.gpu_memory("apply")
def apply(x, op, *, left=None, right=None, thunk=None, mask=None, accum=None, replace=False, out=None):
    """Apply an operator to every entry: ``z(i) = f(x(i))``; the structure is kept.

    Parameters
    ----------
    x : Vector or Matrix
    op : UnaryOp, BinaryOp, IndexUnaryOp or str
        A UnaryOp ``f(x)``; a BinaryOp with a bound scalar (``left=s`` gives ``op(s, x)``,
        ``right=s`` gives ``op(x, s)``; exactly one); an IndexUnaryOp ``f(x, i, j, thunk)``
        (``thunk`` defaults to 0). A str names a built-in unary operator.
    left, right : scalar, optional
        Bound operand for a BinaryOp. A Python scalar takes x's dtype where it fits.
    thunk : scalar, optional
        Parameter of an IndexUnaryOp.
    mask, accum, replace, out
        The write step.

    Returns
    -------
    Vector or Matrix of the operator's output dtype.

    Raises
    ------
    InvalidValue
        Neither or both of left/right with a BinaryOp; left/right/thunk with an operator that
        takes none.
    DomainMismatch
        Operator and dtype do not fit (e.g. a float-only operator on integers).
    """
    what = "apply"
    _v.container(x, f"{what} x")
    if isinstance(op, str):
        from ..ops import unary as _unary

        op = _unary.get(op)
    f = _v.unary_like(op, what)
    if thunk is not None:
        _v.thunk(thunk, f"{what} thunk")
    mask, accum = _write.prepare(out, x.shape, mask, accum, replace, what)
    _v.same_device(x, out, None if mask is None else mask.parent)
    if _hyper.huge(x.shape) and (out is not None or mask is not None):
        def step(axes, a, **w):
            g = _hyper.reindexed_indexunary(f, axes) if isinstance(f, IndexUnaryOp) else f
            return apply(a, g, left=left, right=right, thunk=thunk, **w)

        return _hyper.run(step, [(x, (0, 1))], x.shape, out, mask, accum, replace)
    if isinstance(f, UnaryOp):
        if left is not None or right is not None or thunk is not None:
            raise InvalidValue(f"{what}: a UnaryOp takes no left/right/thunk; given {f.name} with a scalar")
    elif isinstance(f, IndexUnaryOp):
        if left is not None or right is not None:
            raise InvalidValue(f"{what}: an IndexUnaryOp takes thunk=, not left/right")
    else:
        if (left is None) == (right is None) or thunk is not None:
            raise InvalidValue(f"{what}: a BinaryOp needs exactly one bound scalar, left= or right=; "
                               f"given left={left!r}, right={right!r}")
        s = _v.bound_scalar(left if left is not None else right, x.dtype, f"{what} scalar")
        left, right = (s, None) if left is not None else (None, s)
    r = _offload("apply", x, f, left, right, thunk, write=(out, mask, accum, replace))
    if r is not NotImplemented:
        return r
    vals = x._values if isinstance(x, Matrix) else x._keys()[1]
    if isinstance(f, UnaryOp):
        tv = f.eval(vals)
    elif isinstance(f, IndexUnaryOp):
        i, j = _indices(x)
        tv = f.eval(vals, i, j, 0 if thunk is None else thunk)
    else:
        s = left if left is not None else right
        sv = xp_of(vals).full(vals.shape[0], s, dtype=np.asarray(s).dtype)
        tv = f.eval(sv, vals) if left is not None else f.eval(vals, sv)
    if isinstance(x, Matrix) and out is None and mask is None:
        # T is the result, with x's structure
        own = tv is not vals and getattr(tv, "base", None) is None  # not x's array or a view
        return Matrix._from_csr(x.nrows, x.ncols, tv.dtype, _rowptr.astype(x._rowptr, x._indices.dtype),
                                x._indices.copy(), tv if own else tv.copy())
    return _write.write(out, x._keys()[0], tv, x.shape, mask, accum, replace)


@_v.gpu_memory("select")
def select(x, op, thunk=0, *, mask=None, accum=None, replace=False, out=None):
    """Keep the entries where an index-unary predicate holds: ``z(i) = x(i) if f(x(i), i, j, thunk)``.

    Parameters
    ----------
    x : Vector or Matrix
    op : IndexUnaryOp or str
        ``sr.indexunary.tril`` (``j <= i + thunk``), ``triu``, ``diag``, ``offdiag``, ``rowle``,
        ``rowgt``, ``colle``, ``colgt``, ``valueeq``/``ne``/``lt``/``le``/``gt``/``ge``
        (``x op thunk``), or a user IndexUnaryOp returning bool.
    thunk : scalar, default 0
    mask, accum, replace, out
        The write step.

    Returns
    -------
    Vector or Matrix of x's dtype.

    Raises
    ------
    InvalidValue
        ``op`` is not an index-unary operator, or its result has NaN (not a boolean).
    """
    what = "select"
    _v.container(x, f"{what} x")
    f = _v.indexunary(op, what)
    _v.thunk(thunk, f"{what} thunk")
    mask, accum = _write.prepare(out, x.shape, mask, accum, replace, what)
    _v.same_device(x, out, None if mask is None else mask.parent)
    if _hyper.huge(x.shape) and (out is not None or mask is not None):
        return _hyper.run(lambda axes, a, **w: select(a, _hyper.reindexed_indexunary(f, axes), thunk, **w),
                          [(x, (0, 1))], x.shape, out, mask, accum, replace)
    r = _offload("select", x, f, thunk, write=(out, mask, accum, replace))
    if r is not NotImplemented:
        return r
    vals = x._values if isinstance(x, Matrix) else x._keys()[1]
    i, j = (None, None) if _value_only(f) else _indices(x)
    keep = f.eval(vals, i, j, thunk)
    if keep.dtype.kind != "b":
        from .. import dtypes as _dt

        keep = _dt.cast(keep, "bool", f"{what} predicate {f.name}")
    if isinstance(x, Matrix) and out is None and mask is None:
        # T is the result: keep the selected entries of the CSR arrays, rows in place
        xp = xp_of(x._indices)
        sel = xp.flatnonzero(keep)
        if _rowptr.is_hyper(x._rowptr):
            rowptr = _rowptr.from_rows(x._row_ids()[sel], x.nrows, x._indices.dtype)
        else:  # a row's new start: the kept entries before its old start
            kept_before = xp.concatenate([xp.zeros(1, dtype=np.int64), xp.cumsum(keep, dtype=np.int64)])
            rowptr = kept_before[x._rowptr].astype(x._rowptr.dtype, copy=False)
        return Matrix._from_csr(x.nrows, x.ncols, x.dtype, rowptr, x._indices[sel], vals[sel])
    keys = x._keys()[0]
    return _write.write(out, keys[keep], vals[keep], x.shape, mask, accum, replace)


def _offload(name, *args, write):
    """The operation computed by a device-resident GPU kernel (:func:`_resident`) or by
    SuiteSparse:GraphBLAS (:func:`_native`), or NotImplemented where neither takes it."""
    r = _resident(name, *args, write=write)
    return _native(name, *args, write=write) if r is NotImplemented else r


def _resident(name, *args, write):
    """The device-resident GPU kernel for this operation (``backends/gpu/resident``), or
    NotImplemented: CPU operands, a Matrix, or a case the kernels do not compute exactly."""
    if args[1 if name == "ewise" else 0].device != "gpu" or write[0] is not None and write[0].device != "gpu":
        return NotImplemented
    from ..backends.gpu import resident

    return getattr(resident, name)(*args, resident.WriteStep(*write))


def _native(name, *args, write):
    """The operation computed by SuiteSparse:GraphBLAS (``backends/suitesparse/dispatch``) when
    an operand or the output is a SuiteSparse container, or NotImplemented."""
    operands = args[1:3] if name == "ewise" else args[:1]
    ss = _select.native(*operands, *write[:2])
    if ss is None:
        return NotImplemented
    return getattr(ss, name)(*args, write)


def _value_only(f):
    """A built-in operator on values alone (``valuelt``, ...): no indices needed."""
    return f.builtin and not f.structural and f.name.startswith("value")
