"""Operations on matrices whose positions do not fit in int64 keys, by compressing coordinates.

Most operations address matrix entries by the row-major key ``row * ncols + col``; for a
matrix of ``2**63`` or more positions (``2**40 x 2**40``) that key overflows. Such a matrix
holds few entries (its rows are stored hypersparse), so these operations run on a compressed
copy instead: each dimension is replaced by the sorted distinct ids the operands use along it
(an :class:`Axis`), every matrix by its entries at the ranks of their ids (:func:`compress`),
the operation runs on those small matrices through the usual code, and the result is mapped
back (:func:`expand`). Ranks keep the order of ids, so row-major order, masks, ``replace`` and
accumulation are the same on both sides; positions that no operand uses hold nothing on
either side. Index-dependent operators (positional multiplies, index-unary operators) see the
original ids (:func:`reindexed_semiring`, :func:`reindexed_indexunary`).

The same compression serves ``mxm`` on hypersparse operands, whose kernels index rows directly.
"""

from __future__ import annotations

import numpy as np

from ..backends._xp import xp_of
from ..exceptions import InvalidValue
from ..ops._base import BinaryOp, IndexUnaryOp
from ..ops.semiring import Semiring
from . import _rowptr
from .mask import Mask
from .matrix import _MAX_KEYS, Matrix


def huge(*shapes):
    """True when one of the 2-d ``shapes`` has more positions than int64 keys address."""
    return any(len(s) == 2 and s[0] * s[1] > _MAX_KEYS for s in shapes)


class Axis:
    """The sorted distinct ids (int64) of one dimension that some operands use."""

    def __init__(self, parts, xp=np):
        if parts:
            ids = xp.sort(xp.concatenate([xp.asarray(p).astype(np.int64, copy=False) for p in parts]))
        else:
            ids = xp.zeros(0, dtype=np.int64)
        if ids.shape[0] > 1:
            keep = xp.ones(ids.shape[0], dtype=bool)
            keep[1:] = ids[1:] != ids[:-1]
            ids = ids[keep]
        self.ids = ids
        self.size = int(ids.shape[0])

    def rank(self, ids):
        """Position of each of ``ids`` (all present) in the axis."""
        return xp_of(self.ids).searchsorted(self.ids, ids)


def compress(A, raxis, caxis):
    """A's entries at the ranks of their rows in ``raxis`` and columns in ``caxis``: a
    ``raxis.size x caxis.size`` matrix (keys fit: both sizes are at most the entries)."""
    rows = raxis.rank(A._row_ids())
    cols = caxis.rank(A._indices)
    if raxis.size * caxis.size > _MAX_KEYS:
        raise InvalidValue(f"{A!r}: its entries use {raxis.size} rows and {caxis.size} columns, too many to "
                           "address by int64 keys")
    return Matrix._from_csr(raxis.size, caxis.size, A.dtype, _rowptr.from_rows(rows, raxis.size),
                            cols.astype(np.int64), A._values)


def expand(S, raxis, caxis, nrows, ncols):
    """The ``nrows x ncols`` matrix of S's entries at the ids of their ranks (``compress``
    inverted)."""
    rows = raxis.ids[S._row_ids()]
    cols = caxis.ids[S._indices]
    return Matrix._from_csr(nrows, ncols, S.dtype, _rowptr.from_rows(rows, nrows), cols, S._values)


def from_pairs(rows, cols, vals, nrows, ncols):
    """A matrix of entries at (rows[t], cols[t]) (distinct positions, any order)."""
    xp = xp_of(rows)
    order = xp.lexsort(xp.stack([cols, rows]))  # by row, then column
    rows, cols = rows[order], cols[order]
    return Matrix._from_csr(nrows, ncols, vals.dtype, _rowptr.from_rows(rows, nrows), cols, vals[order])


def run(fn, operands, shape, out, mask, accum, replace, naxes=2, extra=None):
    """``fn(axes, *small, mask=, accum=, replace=, out=)`` on compressed operands, the result
    mapped back to ``shape`` (written into ``out`` when given, which is returned).

    ``operands`` are ``(matrix, (row axis, column axis))``, each axis a number in
    ``range(naxes)`` or an :class:`Axis` of its own; the result, ``out`` and the mask are on
    axes (0, 1). ``extra[a]`` lists more ids that axis ``a`` must hold (index lists).
    Nothing is written into ``out`` unless ``fn`` returns."""
    parts = [list(extra[a]) if extra else [] for a in range(naxes)]
    others = [M for M in (out, None if mask is None else mask.parent) if M is not None]
    for M, (ra, ca) in [*operands, *((M, (0, 1)) for M in others)]:
        if isinstance(ra, int):
            parts[ra].append(M._row_ids())
        if isinstance(ca, int):
            parts[ca].append(M._indices)
    xp = xp_of((operands[0][0] if operands else others[0])._indices)
    axes = [Axis(p, xp) for p in parts]

    def axis(a):
        return axes[a] if isinstance(a, int) else a

    small = [compress(M, axis(ra), axis(ca)) for M, (ra, ca) in operands]
    small_out = None if out is None else compress(out, axes[0], axes[1])
    small_mask = None if mask is None else Mask(compress(mask.parent, axes[0], axes[1]), mask.structural,
                                                mask.complement)
    r = fn(axes, *small, mask=small_mask, accum=accum, replace=replace, out=small_out)
    big = expand(r, axes[0], axes[1], *shape)
    if out is None:
        return big
    out._set_csr(big._rowptr, big._indices, big._values)
    return out


def write(out, T, mask, accum, replace):
    """The write step ``out<mask, replace> = accum(out, T)`` for a result ``T`` given as a
    Matrix of any shape (keys or not)."""
    from . import _write

    if out is None and mask is None:
        return T
    if not huge(T.shape):
        tk, tv = T._keys()
        return _write.write(out, tk, tv, T.shape, mask, accum, replace)

    def step(axes, t, mask, accum, replace, out):
        tk, tv = t._keys()
        return _write.write(out, tk, tv, t.shape, mask, accum, replace)

    return run(step, [(T, (0, 1))], T.shape, out, mask, accum, replace)


class _ReindexedIndexUnary(IndexUnaryOp):
    """An index-unary operator evaluated at the original ids of compressed indices."""

    def __init__(self, op, rows, cols):
        self.__dict__.update(op.__dict__)
        self._base, self._rmap, self._cmap = op, rows, cols

    def eval(self, x, i, j, thunk):
        i = None if i is None else self._rmap[i]
        j = None if j is None else self._cmap[j]
        return self._base.eval(x, i, j, thunk)


def reindexed_indexunary(op, axes):
    """``op`` reading indices (i, j) as ids of ``axes[0]``, ``axes[1]``."""
    return _ReindexedIndexUnary(op, axes[0].ids, axes[1].ids)


class _ReindexedPositional(BinaryOp):
    """A positional multiply (``firsti``, ...) giving the original ids of compressed indices."""

    def __init__(self, op, maps):
        self.__dict__.update(op.__dict__)
        self._base, self._maps = op, maps

    def eval(self, x, y, idx=None):
        return self._base.eval(x, y, tuple(m[t] for m, t in zip(self._maps, idx)))


def reindexed_semiring(s, axes):
    """``s`` for ``mxm`` on compressed operands (axes i, j, k = 0, 1, 2): a positional multiply
    gives the original ids, before the monoid reduces them."""
    if not s.multiply.positional:
        return s
    i, j, k = (a.ids for a in axes)
    return Semiring(s.monoid, _ReindexedPositional(s.multiply, (i, k, j)), name=s.name)
