"""Sub-vector and sub-matrix operations: ``assign`` (GrB_assign, C API 2.0 section 4.3.7) and
``extract`` (GrB_extract, section 4.3.6), both through the write step.

Index arguments are None (all), a slice, or an array of int64 indices; ``assign`` refuses
repeated indices (the specification leaves their result undefined), ``extract`` allows them.
"""

from __future__ import annotations

import numpy as np

from .. import _checks
from .. import dtypes as _dt
from ..backends import _select
from ..backends._xp import repeat, xp_of
from ..backends.array import sparse as _sp
from ..exceptions import DimensionMismatch, InvalidValue
from . import _hyper, _rowptr, _write
from . import _validate as _v
from .matrix import Matrix
from .scalar import Scalar
from .vector import Vector


def _unique(idx, what):
    s = np.sort(idx)
    if s.size > 1 and (s[1:] == s[:-1]).any():
        dup = s[1:][s[1:] == s[:-1]][0]
        raise InvalidValue(f"{what}: index {dup} appears more than once; assign needs distinct indices")


def _index_set(idx, n, what):
    """(sorted distinct indices, or None meaning all of 0..n-1) for an assign index argument."""
    if idx is None:
        return None
    if isinstance(idx, slice):
        start, stop, step = idx.indices(n)
        if step == 1 and start == 0 and stop == n:
            return None
        return np.sort(np.arange(start, stop, step, dtype=np.int64))
    arr = np.sort(_v.index_list(idx, n, what))
    _unique(arr, what)
    return arr


class _Region:
    """The positions an assign writes: I (Vector) or I x J (Matrix), each possibly 'all'.

    ``I``/``J`` are the index lists in the user's order (u's entry t goes to I[t]).
    """

    def __init__(self, out, indices, what):
        self.matrix = isinstance(out, Matrix)
        if self.matrix:
            if indices is None:
                indices = (None, None)
            if not (isinstance(indices, tuple) and len(indices) == 2):
                raise InvalidValue(f"{what}: a Matrix out needs indices=(rows, cols); given {indices!r}")
            self.ncols = out.ncols
            self.I = _v.index_list(indices[0], out.nrows, f"{what} rows")
            self.J = _v.index_list(indices[1], out.ncols, f"{what} cols")
            self.rset = _index_set(indices[0], out.nrows, f"{what} rows")
            self.cset = _index_set(indices[1], out.ncols, f"{what} cols")
        else:
            self.I = None if indices is None else _v.index_list(indices, out.size, f"{what} indices")
            self.rset = _index_set(indices, out.size, f"{what} indices")
        self.n = out.nrows if self.matrix else out.size
        xp = _v.xp_for(out.device)
        self.xp = xp
        for name in ("I", "J", "rset", "cset"):
            if getattr(self, name, None) is not None:
                setattr(self, name, xp.asarray(getattr(self, name)))

    def contains(self, keys):
        if not self.matrix:
            return self.xp.ones(keys.shape[0], bool) if self.rset is None else _sp.member(self.rset, keys)
        rows, cols = keys // max(self.ncols, 1), keys % max(self.ncols, 1)
        hit = self.xp.ones(keys.shape[0], bool) if self.rset is None else _sp.member(self.rset, rows)
        return hit if self.cset is None else hit & _sp.member(self.cset, cols)

    def keys(self):
        """Every position of the region, sorted."""
        from .._memory import require

        if not self.matrix:
            return self.xp.arange(self.n, dtype=np.int64) if self.rset is None else self.rset
        rows = self.xp.arange(self.n, dtype=np.int64) if self.rset is None else self.rset
        cols = self.xp.arange(self.ncols, dtype=np.int64) if self.cset is None else self.cset
        require(rows.size * cols.size * 8 * 3, f"assign: the {rows.size} x {cols.size} positions of the region")
        return (rows[:, None] * self.ncols + cols[None, :]).ravel()

    def map_u(self, u, what):
        """u's entries at their positions in out: sorted (keys, values)."""
        if self.matrix:
            I, J = self.I, self.J
            if u.shape != (I.size, J.size):
                raise DimensionMismatch(f"{what}: {I.size} rows and {J.size} cols, so u must be {I.size}x{J.size}; "
                                        f"given {u.nrows}x{u.ncols}")
            return _sp.sort_by_key(I[u._row_ids()] * self.ncols + J[u._indices], u._values)
        size = self.n if self.I is None else self.I.size
        if u.size != size:
            raise DimensionMismatch(f"{what}: {size} indices, so u must have size {size}; given size {u.size}")
        uk, uv = u._keys()
        return (uk, uv) if self.I is None else _sp.sort_by_key(self.I[uk], uv)


@_v.gpu_memory("assign")
def assign(out, u, indices=None, *, mask=None, accum=None, replace=False):
    """``out<mask, replace>(I) = accum(out(I), u)`` (and ``out(I, J)`` for a Matrix).

    Parameters
    ----------
    out : Vector or Matrix
        Modified in place and returned.
    u : Vector, Matrix, scalar or Scalar
        A Vector of size ``len(I)`` (a Matrix of shape ``len(I) x len(J)``), or a scalar
        written at every position of the region. A :class:`semiring.Scalar` on the GPU is read
        by the kernel on the device (a loop's iteration counter in a recorded block).
    indices : index, or (rows, cols) for a Matrix
        Each an int array, a slice or None (all).
    mask : Mask the shape of ``out``, optional
    accum : BinaryOp, optional
        Without it, entries of out in the region that u lacks are deleted.
    replace : bool

    Returns
    -------
    out

    Notes
    -----
    Without a complemented mask and without replace, only the region (intersected with the
    mask) can change, and only it is touched: ``level<q.S> = depth`` costs O(nvals(q)).

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
    _v.container(out, f"{what} out")
    if isinstance(out, Vector) and isinstance(u, Matrix):
        raise InvalidValue(f"{what}: a Vector out takes a Vector or scalar u; given a Matrix")
    if isinstance(out, Matrix) and isinstance(u, Vector):
        raise InvalidValue(f"{what}: a Matrix out takes a Matrix or scalar u; given a Vector")
    if isinstance(out, Matrix) and _hyper.huge(out.shape):
        return _assign_huge(out, u, indices, mask, accum, replace, what)
    if isinstance(u, Scalar) and u.device != out.device:
        raise InvalidValue(f"{what}: out is on the {out.device} and the Scalar on the {u.device}; "
                           "move one with .to(device)")
    region = _Region(out, indices, what)
    mask, accum = _write.prepare(out, out.shape, mask, accum, replace, what)
    if isinstance(u, Vector):
        _v.same_device(out, u)
    if out.device == "gpu" and isinstance(out, Vector) and region.rset is None:
        # every position: one kernel on the device (backends/gpu/resident)
        from ..backends.gpu import resident

        value = u if isinstance(u, (Vector, Scalar)) else _v.bound_scalar(u, out.dtype, f"{what} scalar")
        if not isinstance(value, Vector) or value.size == out.size:
            r = resident.assign(value, resident.WriteStep(out, mask, accum, replace))
            if r is not NotImplemented:
                return r
    if isinstance(u, Scalar):
        u = u.value  # (the generic code takes the value on the host)
    scalar = None if isinstance(u, (Vector, Matrix)) else _v.bound_scalar(u, out.dtype, f"{what} scalar")
    ss = _select.native(out, u, mask)
    if ss is not None:
        # SuiteSparse containers: one GrB_assign (I, J in u's order; None: all)
        I = None if region.rset is None else region.I
        J = (None if region.cset is None else region.J) if region.matrix else None
        r = ss.assign(out, u if scalar is None else scalar, I, J, (out, mask, accum, replace))
        if r is not NotImplemented:
            return r
    if scalar is None:
        mk, mv = region.map_u(u, what)
    if (mask is None or not mask.complement) and not replace:
        # Only the region (within the mask) can change: the write step touches it alone.
        positions = region.keys() if mask is None else _restrict(mask.true_keys(), region)
        if scalar is not None:
            mk, mv = positions, region.xp.full(positions.size, scalar, dtype=np.asarray(scalar).dtype)
        return _write.write(out, mk, mv, out.shape, mask, accum, replace, positions=positions)
    if scalar is not None:
        mk = region.keys()
        mv = region.xp.full(mk.size, scalar, dtype=np.asarray(scalar).dtype)
    ck, cv = out._keys()
    in_region = region.contains(ck)
    if accum is None:
        zk, zv = mk, _dt.cast(mv, out.dtype, f"{what} values", wrap_integers=True)
    else:
        zk, zv = _write.accumulate(ck[in_region], cv[in_region], mk, mv, accum, out.dtype)
    zk, zv = _sp.merge_disjoint(ck[~in_region], cv[~in_region], zk, zv)
    return _write.write(out, zk, zv, out.shape, mask, None, replace)


def _assign_huge(out, u, indices, mask, accum, replace, what):
    """``assign`` into a Matrix of 2**63 or more positions: on coordinates compressed to the ids
    that out, the mask, the index lists and u use (see ``_hyper``). A dimension given as "all"
    (None or ``[:]``) stays "all" for a Matrix u (whose entries then give the ids); a scalar
    needs its positions listed, so "all" of a huge dimension raises OutOfMemory."""
    if indices is None:
        indices = (None, None)
    if not (isinstance(indices, tuple) and len(indices) == 2):
        raise InvalidValue(f"{what}: a Matrix out needs indices=(rows, cols); given {indices!r}")
    is_matrix = isinstance(u, Matrix)
    lists = []
    for idx, n, name in ((indices[0], out.nrows, "rows"), (indices[1], out.ncols, "cols")):
        keep_all = is_matrix and _v.covers_all(idx, n, f"{what} {name}")
        lists.append(None if keep_all else _v.index_list(idx, n, f"{what} {name}"))
    I, J = lists
    if is_matrix and u.shape != (out.nrows if I is None else I.size, out.ncols if J is None else J.size):
        ni, nj = (out.nrows if I is None else I.size), (out.ncols if J is None else J.size)
        raise DimensionMismatch(f"{what}: {ni} rows and {nj} cols, so u must be {ni}x{nj}; given {u.nrows}x{u.ncols}")
    mask, accum = _write.prepare(out, out.shape, mask, accum, replace, what)
    _v.same_device(out, u if is_matrix else None, None if mask is None else mask.parent)
    if not is_matrix:
        _v.bound_scalar(u, out.dtype, f"{what} scalar")
    xp = _v.xp_for(out.device)
    lists = [None if lst is None else xp.asarray(lst) for lst in lists]
    operands = []
    if is_matrix:  # u keeps its coordinates along a listed dimension (its row t goes to I[t])
        operands.append((u, tuple(a if lst is None else _hyper.Axis([xp.arange(n, dtype=np.int64)], xp)
                                  for a, lst, n in zip((0, 1), lists, u.shape))))

    def step(axes, *small, mask, accum, replace, out):
        idx = tuple(None if lst is None else ax.rank(lst) for ax, lst in zip(axes, lists))
        return assign(out, small[0] if is_matrix else u, idx, mask=mask, accum=accum, replace=replace)

    return _hyper.run(step, operands, out.shape, out, mask, accum, replace,
                      extra=[[] if lst is None else [lst] for lst in lists])


def _restrict(keys, region):
    if region.rset is None and (not region.matrix or region.cset is None):
        return keys  # the region is everything
    return keys[region.contains(keys)]


@_v.gpu_memory("extract")
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
    _v.container(x, f"{what} x")
    if isinstance(x, Vector):
        if cols is not None:
            raise InvalidValue(f"{what}: a Vector takes one index list; given cols={cols!r}")
        I = _v.index_list(rows, x.size, f"{what} indices")
        shape = (I.size,)
        mask, accum = _write.prepare(out, shape, mask, accum, replace, what)
        _v.same_device(x, out, None if mask is None else mask.parent)
        if x.device == "gpu" and _v.covers_all(rows, x.size, f"{what} indices"):
            from ..backends.gpu import resident

            r = resident.extract(x, resident.WriteStep(out, mask, accum, replace))
            if r is not NotImplemented:
                return r
        ss = _select.native(x, out, mask)
        if ss is not None:
            r = ss.extract(x, I, None, None, (out, mask, accum, replace))  # GrB_Vector_extract
            if r is not NotImplemented:
                return r
        I = _v.xp_for(x.device).asarray(I)
        hit, tv = x._values_at(I)
        tk = xp_of(hit).flatnonzero(hit)
        return _write.write(out, tk, tv, shape, mask, accum, replace)
    row_scalar = _checks.is_integer(rows)
    col_scalar = _checks.is_integer(cols)
    if row_scalar and col_scalar:
        raise InvalidValue(f"{what}: one row and one column is a single entry; use A.get(row, col)")
    if col_scalar:  # a column: rows of the transpose
        if not _v.covers_all(rows, x.nrows, f"{what} rows"):
            _v.index_list(rows, x.nrows, f"{what} rows")  # (checked here for the message)
        (j,) = _v.index_list(cols, x.ncols, f"{what} col")
        return extract(x.T, j, rows, mask=mask, accum=accum, replace=replace, out=out)
    # I or J covering every row or column in order is taken as "all" (no index list is built)
    iall = not row_scalar and _v.covers_all(rows, x.nrows, f"{what} rows")
    jall = _v.covers_all(cols, x.ncols, f"{what} cols")
    I = None if iall else _v.index_list(rows, x.nrows, f"{what} rows")
    J = None if jall else _v.index_list(cols, x.ncols, f"{what} cols")
    ni, nj = (x.nrows if iall else I.size), (x.ncols if jall else J.size)
    shape = (nj,) if row_scalar else (ni, nj)
    mask, accum = _write.prepare(out, shape, mask, accum, replace, what)
    _v.same_device(x, out, None if mask is None else mask.parent)
    ss = _select.native(x, out, mask)
    if ss is not None and not _hyper.huge(shape):
        # GrB_Matrix_extract, or GrB_Col_extract of A' for one row
        r = ss.extract(x, I, J, int(rows) if row_scalar else None, (out, mask, accum, replace))
        if r is not NotImplemented:
            return r
    xp = xp_of(x._indices)
    if iall:  # every entry; result row = its row
        s, c, v = x._row_ids(), x._indices.astype(np.int64, copy=False), x._values
    else:  # the entries of rows I, result row t for I[t]
        I = xp.asarray(I)
        starts, counts = _rowptr.ranges(x._rowptr, I)
        pos = _sp.ragged_arange(starts, counts)
        s = repeat(xp.arange(I.size, dtype=np.int64), counts)
        c, v = x._indices[pos].astype(np.int64, copy=False), x._values[pos]
    if jall:  # (s, c) is row-major already
        r, t = s, c
    else:  # each entry goes to every position t with J[t] == its column
        J = xp.asarray(J)
        jorder = xp.argsort(J, kind="stable") if xp is np else xp.argsort(J)
        jsorted = J[jorder]
        lo = xp.searchsorted(jsorted, c, side="left")
        cnt = xp.searchsorted(jsorted, c, side="right") - lo
        t = jorder[_sp.ragged_arange(lo, cnt)]
        r, v = repeat(s, cnt), repeat(v, cnt)
    if row_scalar:
        tk, tv = (t, v) if jall else _sp.sort_by_key(t, v)
        return _write.write(out, tk, tv, shape, mask, accum, replace)
    if _hyper.huge(shape):
        return _hyper.write(out, _hyper.from_pairs(r, t, v, *shape), mask, accum, replace)
    keys = r * nj + t
    tk, tv = (keys, v) if jall else _sp.sort_by_key(keys, v)
    return _write.write(out, tk, tv, shape, mask, accum, replace)
