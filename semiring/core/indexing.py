"""Sub-vector and sub-matrix operations: ``assign`` (GrB_assign, C API 2.0 section 4.3.7) and
``extract`` (GrB_extract, section 4.3.6), both through the write step.

Index arguments are None (all), a slice, or an array of int64 indices; ``assign`` refuses
repeated indices (the specification leaves their result undefined), ``extract`` allows them.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as _dt
from ..backends.cpu import sparse as _sp
from ..exceptions import DimensionMismatch, InvalidValue
from . import _args, _write
from .matrix import Matrix
from .vector import Vector


def _unique(idx, what):
    s = np.sort(idx)
    if s.size > 1 and (s[1:] == s[:-1]).any():
        dup = s[1:][s[1:] == s[:-1]][0]
        raise InvalidValue(f"{what}: index {dup} appears more than once; assign needs distinct indices")


def _region_vector(out, u, I, what):
    """Keys of the region I in out, the mapped values of u there, and a region test."""
    if isinstance(u, Vector):
        if u.size != I.size:
            raise DimensionMismatch(f"{what}: {I.size} indices, so u must have size {I.size}; given size {u.size}")
        uk, uv = u._keys()
        mk, mv = _sp.sort_by_key(I[uk], uv)
    else:
        s = _args.bound_scalar(u, out.dtype, f"{what} scalar")
        mk = np.sort(I)
        mv = np.full(mk.size, s, dtype=np.asarray(s).dtype)
    inside = np.zeros(out.size, dtype=bool)
    inside[I] = True
    return mk, mv, lambda keys: inside[keys]


def _region_matrix(out, u, I, J, what):
    n = out.ncols
    if isinstance(u, Matrix):
        if u.shape != (I.size, J.size):
            raise DimensionMismatch(f"{what}: {I.size} rows and {J.size} cols, so u must be {I.size}x{J.size}; "
                                    f"given {u.nrows}x{u.ncols}")
        mk, mv = _sp.sort_by_key(I[u._row_ids()] * n + J[u._indices], u._values)
    else:
        s = _args.bound_scalar(u, out.dtype, f"{what} scalar")
        mk = np.sort((I[:, None] * n + J[None, :]).ravel())
        mv = np.full(mk.size, s, dtype=np.asarray(s).dtype)
    rin = np.zeros(out.nrows, dtype=bool)
    rin[I] = True
    cin = np.zeros(out.ncols, dtype=bool)
    cin[J] = True
    return mk, mv, lambda keys: rin[keys // max(n, 1)] & cin[keys % max(n, 1)]


def assign(out, u, indices=None, *, mask=None, accum=None, replace=False):
    """``out<mask, replace>(I) = accum(out(I), u)`` (and ``out(I, J)`` for a Matrix).

    Parameters
    ----------
    out : Vector or Matrix
        Modified in place and returned.
    u : Vector, Matrix or scalar
        A Vector of size ``len(I)`` (a Matrix of shape ``len(I) x len(J)``), or a scalar
        written at every position of the region.
    indices : index, or (rows, cols) for a Matrix
        Each an int array, a slice or None (all).
    mask : Mask the shape of ``out``, optional
    accum : BinaryOp, optional
        Without it, entries of out in the region that u lacks are deleted.
    replace : bool

    Returns
    -------
    out

    Raises
    ------
    IndexOutOfBound
        An index past the end.
    InvalidValue
        A repeated index; ``replace`` without mask; a Matrix without (rows, cols).
    DimensionMismatch
        u's shape does not match the index lists.
    """
    what = "assign"
    _args.container(out, f"{what} out")
    if isinstance(out, Vector):
        if isinstance(u, Matrix):
            raise InvalidValue(f"{what}: a Vector out takes a Vector or scalar u; given a Matrix")
        I = _args.index_list(indices, out.size, f"{what} indices")
        _unique(I, what)
        mask, accum = _write.prepare(out, out.shape, mask, accum, replace, what)
        mk, mv, inside = _region_vector(out, u, I, what)
    else:
        if isinstance(u, Vector):
            raise InvalidValue(f"{what}: a Matrix out takes a Matrix or scalar u; given a Vector")
        if indices is None:
            indices = (None, None)
        if not (isinstance(indices, tuple) and len(indices) == 2):
            raise InvalidValue(f"{what}: a Matrix out needs indices=(rows, cols); given {indices!r}")
        I = _args.index_list(indices[0], out.nrows, f"{what} rows")
        J = _args.index_list(indices[1], out.ncols, f"{what} cols")
        _unique(I, what + " rows")
        _unique(J, what + " cols")
        mask, accum = _write.prepare(out, out.shape, mask, accum, replace, what)
        mk, mv, inside = _region_matrix(out, u, I, J, what)
    ck, cv = out._keys()
    in_region = inside(ck)
    if accum is None:
        zk, zv = mk, _dt.cast(mv, out.dtype, f"{what} values")
    else:
        zk, zv = _sp.union(ck[in_region], cv[in_region], mk, mv, accum,
                           accum.output_dtype(out.dtype, mv.dtype))
        zv = _dt.cast(zv, out.dtype, f"{what} result of accum {accum.name}")
    zk, zv = _sp.merge_disjoint(ck[~in_region], cv[~in_region], zk, zv)
    return _write.write(out, zk, zv, out.shape, mask, None, replace)


def extract(x, rows=None, cols=None, *, mask=None, accum=None, replace=False, out=None):
    """``w<mask> = accum(w, u(I))``, ``C<mask> = accum(C, A(I, J))``.

    Parameters
    ----------
    x : Vector or Matrix
    rows : index
        For a Vector, its indices I. For a Matrix, the rows I (an int gives one row as a Vector).
    cols : index, Matrix only
        The columns J (an int gives one column as a Vector, as GrB_Col_extract).
    mask, accum, replace, out
        The write step, for the result's shape.

    Returns
    -------
    Vector of size len(I) (or len(J)), or Matrix of shape len(I) x len(J).

    Raises
    ------
    IndexOutOfBound
        An index past the end.
    InvalidValue
        ``cols`` given for a Vector.
    """
    what = "extract"
    _args.container(x, f"{what} x")
    if isinstance(x, Vector):
        if cols is not None:
            raise InvalidValue(f"{what}: a Vector takes one index list; given cols={cols!r}")
        I = _args.index_list(rows, x.size, f"{what} indices")
        shape = (I.size,)
        mask, accum = _write.prepare(out, shape, mask, accum, replace, what)
        present, dense = x._bitmap()
        hit = present[I]
        tk = np.flatnonzero(hit)
        tv = dense[I[hit]]
        return _write.write(out, tk, tv, shape, mask, accum, replace)
    row_scalar = isinstance(rows, (int, np.integer)) and not isinstance(rows, bool)
    col_scalar = isinstance(cols, (int, np.integer)) and not isinstance(cols, bool)
    if row_scalar and col_scalar:
        raise InvalidValue(f"{what}: one row and one column is a single entry; use A.get(row, col)")
    if col_scalar:  # a column: rows of the transpose
        I = _args.index_list(rows, x.nrows, f"{what} rows")
        (j,) = _args.index_list(cols, x.ncols, f"{what} col")
        return extract(x.T, j, I, mask=mask, accum=accum, replace=replace, out=out)
    I = _args.index_list(rows, x.nrows, f"{what} rows")
    J = _args.index_list(cols, x.ncols, f"{what} cols")
    shape = (J.size,) if row_scalar else (I.size, J.size)
    mask, accum = _write.prepare(out, shape, mask, accum, replace, what)
    counts = x._indptr[I + 1] - x._indptr[I]
    pos = _sp.ragged_arange(x._indptr[I], counts)
    s = np.repeat(np.arange(I.size, dtype=np.int64), counts)
    jorder = np.argsort(J, kind="stable")
    jsorted = J[jorder]
    c = x._indices[pos]
    lo = np.searchsorted(jsorted, c, side="left")
    cnt = np.searchsorted(jsorted, c, side="right") - lo
    t = jorder[_sp.ragged_arange(lo, cnt)]
    keys = np.repeat(s, cnt) * J.size + t
    tk, tv = _sp.sort_by_key(keys, np.repeat(x._values[pos], cnt))
    return _write.write(out, tk, tv, shape, mask, accum, replace)
