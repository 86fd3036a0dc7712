"""``transpose`` (GrB_transpose, C API 2.0 section 4.3.11) and ``kronecker`` (GrB_kronecker,
section 4.3.12), through the write step."""

from __future__ import annotations

import numpy as np

from .. import _checks
from .._memory import require
from ..backends import _select
from ..backends._xp import repeat, xp_of
from ..backends.array import sparse as _sp
from ..exceptions import InvalidValue
from . import _hyper, _rowptr, _write
from . import _validate as _v
from .matrix import Matrix


@_v.gpu_memory("transpose")
def transpose(A, *, mask=None, accum=None, replace=False, out=None):
    """``C<mask, replace> = accum(C, A^T)``.

    Parameters
    ----------
    A : Matrix, shape (m, n)
    mask, accum, replace, out
        The write step, for an n x m result.

    Returns
    -------
    Matrix, shape (n, m): a new writable matrix, unlike the cached read-only ``A.T``.

    Raises
    ------
    InvalidValue, DimensionMismatch
        As for the write step (a mask or ``out`` of the wrong shape, ``replace`` without a mask).
    """
    what = "transpose"
    _v.require(A, Matrix, f"{what} A")
    shape = (A.ncols, A.nrows)
    mask, accum = _write.prepare(out, shape, mask, accum, replace, what)
    _v.same_device(A, out, None if mask is None else mask.parent)
    ss = _select.native(A, out, mask)
    if ss is not None:
        C = ss.transpose(A, (out, mask, accum, replace))  # GrB_transpose
        if C is not NotImplemented:
            return C
    if out is None and mask is None:
        T = A.T  # a writable copy of the cached transpose
        return Matrix._from_csr(*shape, T.dtype, _rowptr.astype(T._rowptr, T._indices.dtype), T._indices.copy(),
                                T._values.copy())
    if _hyper.huge(shape):
        return _hyper.run(lambda axes, a, **w: transpose(a, **w), [(A, (1, 0))], shape, out, mask, accum, replace)
    tk, tv = A.T._keys()
    return _write.write(out, tk, tv.copy(), shape, mask, accum, replace)


@_v.gpu_memory("kronecker")
def kronecker(A, B, op, *, mask=None, accum=None, replace=False, out=None):
    """Kronecker product ``C(iA*mB + iB, jA*nB + jB) = op(A(iA,jA), B(iB,jB))``.

    Parameters
    ----------
    A : Matrix, shape (mA, nA)
    B : Matrix, shape (mB, nB)
    op : BinaryOp, Monoid or str
        ``sr.binary.times`` for the usual product.
    mask, accum, replace, out
        The write step, for an (mA*mB) x (nA*nB) result.

    Returns
    -------
    Matrix, shape (mA*mB, nA*nB), with nvals(A) * nvals(B) entries.

    Raises
    ------
    InvalidValue
        A dimension of the result would reach 2**63.
    OutOfMemory
        The nvals(A) * nvals(B) entries of the result would not fit in the memory free now.
    DomainMismatch
        ``op`` cannot take these dtypes, or is positional.
    """
    what = "kronecker"
    _v.require(A, Matrix, f"{what} A")
    _v.require(B, Matrix, f"{what} B")
    f = _v.binary_or_monoid(op, what)
    zt = f.output_dtype(A.dtype, B.dtype)
    shape = (A.nrows * B.nrows, A.ncols * B.ncols)
    if max(shape) > _checks.MAX_DIMENSION:
        raise InvalidValue(f"{what}: a {A.nrows}x{A.ncols} and a {B.nrows}x{B.ncols} matrix give a "
                           f"{shape[0]}x{shape[1]} result; dimensions must be below 2**63")
    mask, accum = _write.prepare(out, shape, mask, accum, replace, what)
    _v.same_device(A, B, out, None if mask is None else mask.parent)
    nv = A.nvals * B.nvals
    # rows, cols, keys or an order, the operands' values, the result: about 5 int64 arrays and 3 value arrays
    require(nv * (40 + A.dtype.itemsize + B.dtype.itemsize + zt.itemsize),
            f"{what}: nvals(A) * nvals(B) = {A.nvals} * {B.nvals} = {nv} entries of a {shape[0]}x{shape[1]} result",
            A.device)
    ai, aj, av = A._row_ids(), A._indices.astype(np.int64), A._values
    bi, bj, bv = B._row_ids(), B._indices.astype(np.int64), B._values
    rows = (ai[:, None] * B.nrows + bi[None, :]).ravel()
    cols = (aj[:, None] * B.ncols + bj[None, :]).ravel()
    x = repeat(av, xp_of(av).full(av.size, bv.size, dtype=np.int64))
    y = xp_of(bv).tile(bv, av.size)
    if _hyper.huge(shape):
        return _hyper.write(out, _hyper.from_pairs(rows, cols, f.eval(x, y), *shape), mask, accum, replace)
    tk, tv = _sp.sort_by_key(rows * shape[1] + cols, f.eval(x, y))
    return _write.write(out, tk, tv, shape, mask, accum, replace)
