"""Reductions by a monoid: ``reduce_rowwise``, ``reduce_columnwise`` (to a Vector, through the
write step) and ``reduce_scalar`` (GraphBLAS C API 2.0, section 4.3.10, GrB_reduce)."""

from __future__ import annotations

from ..backends import _select
from ..backends.array.reduce import reduce_all, reduce_runs, reduce_segments
from ..ops.monoid import Monoid
from . import _rowptr, _write
from . import _validate as _v
from .matrix import Matrix


def _reduce_rows(A, op, what):
    nonempty, starts, _ = _rowptr.nonempty(A._rowptr)
    if isinstance(op, Monoid):
        return nonempty, reduce_segments(op, A._values, starts)
    return nonempty, reduce_runs(op, A._values, starts)


def _monoid_or_op(m, what):
    if isinstance(m, Monoid):
        return m
    return _v.binary_or_monoid(m, what) if not isinstance(m, str) else _v.monoid(m, what)


@_v.gpu_memory("reduce_rowwise")
def reduce_rowwise(A, monoid, *, mask=None, accum=None, replace=False, out=None):
    """``w(i) = ⊕_j A(i,j)``; rows without entries are absent in ``w``.

    Parameters
    ----------
    A : Matrix, shape (m, n)
    monoid : Monoid, BinaryOp or str
        ``sr.monoid.plus`` gives out-degrees of a pattern matrix (with int values), ``min``
        the lightest out-edge. A BinaryOp must be associative.
    mask, accum, replace, out
        The write step, for a size-m Vector.

    Returns
    -------
    Vector, size m.

    Raises
    ------
    DomainMismatch
        The monoid cannot take A's dtype.
    InvalidValue, DimensionMismatch
        As for the write step.
    """
    what = "reduce_rowwise"
    _v.require(A, Matrix, f"{what} A")
    m = _monoid_or_op(monoid, what)
    mask, accum = _write.prepare(out, (A.nrows,), mask, accum, replace, what)
    w = _on_device(A, m, False, out, mask, accum, replace)
    if w is not NotImplemented:
        return w
    tk, tv = _reduce_rows(A, m, what)
    return _write.write(out, tk, tv, (A.nrows,), mask, accum, replace)


@_v.gpu_memory("reduce_columnwise")
def reduce_columnwise(A, monoid, *, mask=None, accum=None, replace=False, out=None):
    """``w(j) = ⊕_i A(i,j)``, computed on the cached transpose. See :func:`reduce_rowwise`.

    Returns
    -------
    Vector, size n.
    """
    what = "reduce_columnwise"
    _v.require(A, Matrix, f"{what} A")
    m = _monoid_or_op(monoid, what)
    mask, accum = _write.prepare(out, (A.ncols,), mask, accum, replace, what)
    w = _on_device(A, m, True, out, mask, accum, replace)
    if w is not NotImplemented:
        return w
    tk, tv = _reduce_rows(A.T, m, what)
    return _write.write(out, tk, tv, (A.ncols,), mask, accum, replace)


def _on_device(A, m, columns, out, mask, accum, replace):
    """The reduction on the GPU without a host read (``backends/gpu/resident``), or by
    SuiteSparse:GraphBLAS for SuiteSparse containers, or NotImplemented (a BinaryOp that is not
    a monoid, a NumPy matrix, a case the kernels refuse)."""
    ss = _select.native(A, out, mask)
    if ss is not None:
        what = "reduce_columnwise" if columns else "reduce_rowwise"
        return ss.reduce_lines(A, m, columns, (out, mask, accum, replace), what)
    if A.device != "gpu" or not isinstance(m, Monoid):
        return NotImplemented
    from ..backends.gpu import resident

    return resident.reduce_lines(A, m, columns, resident.WriteStep(out, mask, accum, replace))


@_v.gpu_memory("reduce_scalar")
def reduce_scalar(x, monoid):
    """``s = ⊕ x(i)`` over every entry of a Vector or Matrix.

    Parameters
    ----------
    x : Vector or Matrix
    monoid : Monoid or str

    Returns
    -------
    NumPy scalar of the monoid's domain for x's dtype
        The monoid's identity if x has no entries (as GrB_reduce to a non-opaque scalar).

    Raises
    ------
    DomainMismatch
        The monoid cannot take x's dtype.
    """
    what = "reduce_scalar"
    _v.container(x, f"{what} x")
    m = _v.monoid(monoid, what)
    if x.device == "gpu" and not isinstance(x, Matrix):
        from ..backends.gpu import resident

        s = resident.reduce_scalar(x, m)  # one kernel, one read of the value
        if s is not NotImplemented:
            return s
    ss = _select.native(x)
    if ss is not None:
        s = ss.reduce_scalar(x, m)  # GrB_reduce into a C scalar
        if s is not NotImplemented:
            return s
    vals = x._values if isinstance(x, Matrix) else x._keys()[1]
    return reduce_all(m, vals)
