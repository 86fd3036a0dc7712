"""Row pointers of a CSR matrix, full or hypersparse.

A Matrix stores its entries row by row (column indices and values, rows in order). Where its
rows start is kept in one of two forms, as in SuiteSparse:GraphBLAS (Davis, "Algorithm 1000",
ACM TOMS 2019, the "sparse" and "hypersparse" formats):

- full: ``indptr`` of ``nrows + 1`` offsets; row ``i`` is ``indptr[i]:indptr[i + 1]``;
- hypersparse: ``(rows, ptr)``, the sorted ids of the nonempty rows and ``len(rows) + 1``
  offsets; row ``rows[t]`` is ``ptr[t]:ptr[t + 1]`` and every other row is empty.

The hypersparse form takes memory proportional to the entries, not to ``nrows``, so an empty
or nearly empty matrix of ``2**40`` rows costs nothing. A matrix is hypersparse when it has
at least :data:`HYPER_MIN_ROWS` rows and fewer than ``nrows / HYPER_RATIO`` of them are
nonempty (SuiteSparse's ``hyper_switch`` is 1/16 too). The full form is built from it on first
use by code that indexes rows directly (:func:`full`), after a memory check.

Every function here takes and returns arrays of one module (NumPy or CuPy).
"""

from __future__ import annotations

import numpy as np

from .._memory import require
from ..backends._xp import asnumpy, repeat, xp_of
from ..backends.array.sparse import group_starts

#: Matrices with fewer rows always keep full row pointers (at most 8 MiB of them).
HYPER_MIN_ROWS = 1 << 20
#: A matrix with at least HYPER_MIN_ROWS rows is hypersparse when fewer than
#: ``nrows / HYPER_RATIO`` rows are nonempty.
HYPER_RATIO = 16


def is_hyper(rowptr):
    """True for the hypersparse form ``(rows, ptr)``."""
    return isinstance(rowptr, tuple)


def empty(xp, nrows, dtype=np.int64):
    """Row pointers of a matrix with no entries."""
    if nrows >= HYPER_MIN_ROWS:
        return xp.zeros(0, dtype=np.int64), xp.zeros(1, dtype=dtype)
    return xp.zeros(nrows + 1, dtype=dtype)


def from_rows(rows, nrows, dtype=np.int64):
    """Row pointers of entries whose rows, in storage order, are ``rows`` (sorted int64):
    hypersparse when few rows are nonempty (see the module notes), full otherwise; the
    offsets have ``dtype``."""
    xp = xp_of(rows)
    n = rows.shape[0]
    if nrows >= HYPER_MIN_ROWS:
        starts = group_starts(rows)
        if starts.shape[0] * HYPER_RATIO < nrows:
            ptr = xp.empty(starts.shape[0] + 1, dtype=dtype)
            ptr[:-1] = starts
            ptr[-1] = n
            return rows[starts].astype(np.int64, copy=False), ptr
    indptr = xp.zeros(nrows + 1, dtype=np.int64)
    if n:
        indptr[1:] = xp.cumsum(xp.bincount(rows, minlength=nrows))
    return indptr.astype(dtype, copy=False)


def nvals(rowptr):
    return int((rowptr[1] if is_hyper(rowptr) else rowptr)[-1])


def entry_rows(rowptr, nrows):
    """The row of every entry, in storage order (int64)."""
    if is_hyper(rowptr):
        rows, ptr = rowptr
        return repeat(rows, xp_of(ptr).diff(ptr))
    xp = xp_of(rowptr)
    return repeat(xp.arange(nrows, dtype=np.int64), xp.diff(rowptr))


def nonempty(rowptr):
    """(rows, starts, counts) of the nonempty rows, rows sorted."""
    if is_hyper(rowptr):
        rows, ptr = rowptr
        return rows, ptr[:-1], ptr[1:] - ptr[:-1]
    xp = xp_of(rowptr)
    counts = xp.diff(rowptr)
    rows = xp.flatnonzero(counts)
    return rows, rowptr[rows], counts[rows]


def ranges(rowptr, rows):
    """(starts, counts) of the given rows (an int64 array of valid row ids, any order)."""
    if not is_hyper(rowptr):
        starts = rowptr[rows]
        return starts, rowptr[rows + 1] - starts
    hrows, ptr = rowptr
    xp = xp_of(ptr)
    if hrows.shape[0] == 0:
        z = xp.zeros(rows.shape[0], dtype=ptr.dtype)
        return z, z
    pos = xp.minimum(xp.searchsorted(hrows, rows), hrows.shape[0] - 1)
    starts = ptr[pos]
    counts = xp.where(hrows[pos] == rows, ptr[pos + 1] - starts, 0).astype(ptr.dtype, copy=False)
    return starts, counts


def full(rowptr, nrows, what, device):
    """The full ``nrows + 1`` row pointers (the hypersparse form expanded; a full one as it is).

    Raises OutOfMemory, naming ``what``, when they would not fit in the memory free now."""
    if not is_hyper(rowptr):
        return rowptr
    rows, ptr = rowptr
    require((nrows + 1) * ptr.dtype.itemsize * 2,
            f"{what}: the full row pointers ({nrows + 1} offsets) of a hypersparse matrix with "
            f"{rows.shape[0]} nonempty rows", device)
    xp = xp_of(ptr)
    counts = xp.zeros(nrows + 1, dtype=ptr.dtype)
    counts[rows + 1] = ptr[1:] - ptr[:-1]
    return xp.cumsum(counts, dtype=ptr.dtype)


def astype(rowptr, dtype, move=None):
    """``rowptr`` with offsets of ``dtype`` (copies), moved by ``move`` (an array function) if given."""
    move = move or (lambda a: a)
    if is_hyper(rowptr):
        rows, ptr = rowptr
        return move(rows).astype(np.int64), move(ptr).astype(dtype)
    return move(rowptr).astype(dtype)


def equal(a, b):
    """Two row-pointer storages of one shape give every row the same number of entries."""
    if not is_hyper(a) and not is_hyper(b):
        return np.array_equal(asnumpy(a), asnumpy(b))
    ra, _, ca = (asnumpy(t) for t in nonempty(a))
    rb, _, cb = (asnumpy(t) for t in nonempty(b))
    return np.array_equal(ra, rb) and np.array_equal(ca, cb)
