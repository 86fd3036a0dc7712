"""``transpose`` (GrB_transpose, C API 2.0 section 4.3.11) and ``kronecker`` (GrB_kronecker,
section 4.3.12), through the write step."""

from __future__ import annotations

import numpy as np

from ..backends._xp import repeat, xp_of
from ..backends.cpu import sparse as _sp
from . import _args, _write
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
    """
    what = "transpose"
    _args.require(A, Matrix, f"{what} A")
    shape = (A.ncols, A.nrows)
    mask, accum = _write.prepare(out, shape, mask, accum, replace, what)
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
    """
    what = "kronecker"
    _args.require(A, Matrix, f"{what} A")
    _args.require(B, Matrix, f"{what} B")
    f = _args.binary_or_monoid(op, what)
    f.output_dtype(A.dtype, B.dtype)
    shape = (A.nrows * B.nrows, A.ncols * B.ncols)
    mask, accum = _write.prepare(out, shape, mask, accum, replace, what)
    ai, aj, av = A._row_ids(), A._indices.astype(np.int64), A._values
    bi, bj, bv = B._row_ids(), B._indices.astype(np.int64), B._values
    rows = (ai[:, None] * B.nrows + bi[None, :]).ravel()
    cols = (aj[:, None] * B.ncols + bj[None, :]).ravel()
    x = repeat(av, xp_of(av).full(av.size, bv.size, dtype=np.int64))
    y = xp_of(bv).tile(bv, av.size)
    tk, tv = _sp.sort_by_key(rows * shape[1] + cols, f.eval(x, y))
    return _write.write(out, tk, tv, shape, mask, accum, replace)
