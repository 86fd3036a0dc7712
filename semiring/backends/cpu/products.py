"""Semiring products on the CPU: the array layer's products (:mod:`semiring.backends.array.products`)
run on NumPy, with SciPy's compiled CSR code where it wins:

- the push gather of a large frontier's rows (``vxm`` and the edge-centric product);
- ``plus.pair`` under a mask (``mxm_count_masked``: triangle counting), SciPy's SpGEMM of the
  patterns intersected with the mask.

Everything else (``mxv``, ``mxm``, the masked dot-product ``mxm_dot``) is the array layer's code.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from ... import dtypes as _dt
from ...core import _rowptr
from ..array import products as _generic
from ..array.products import mxm, mxm_dot, mxv
from ..array.sparse import ragged_arange

__all__ = ["mxv", "vxm", "mxm", "mxm_dot", "edge", "counts_terms", "mxm_count_masked"]

#: Terms from which a push gathers the frontier's rows with SciPy (below, its per-call overhead
#: exceeds the gain over the NumPy gather).
SCIPY_GATHER_TERMS = 1 << 14


def _rows_of(A, rows):
    """(entries per row, column indices, values) of the given rows of A, concatenated in order.

    SciPy's CSR row gather (one compiled pass) from :data:`SCIPY_GATHER_TERMS` terms on; below,
    or for hypersparse rows, a ragged arange (as :func:`semiring.backends.array.products.rows_of`)."""
    rowptr = A._rowptr
    starts, counts = _rowptr.ranges(rowptr, rows)
    if not _rowptr.is_hyper(rowptr) and int(counts.sum()) >= SCIPY_GATHER_TERMS:
        S = sp.csr_array((A._values, A._indices, rowptr), shape=A.shape, copy=False)
        B = S[rows]
        return counts, B.indices, B.data
    pos = ragged_arange(starts, counts)
    return counts, A._indices[pos], A._values[pos]


def vxm(u_idx, u_vals, A, semiring, keep=None, flip=False):
    """The array layer's push (:func:`semiring.backends.array.products.vxm`) with SciPy's row gather."""
    return _generic.vxm(u_idx, u_vals, A, semiring, keep=keep, flip=flip, gather=_rows_of)


def edge(A, u, semiring, keep=None, is_vxm=False):
    """The array layer's edge-centric product (:func:`semiring.backends.array.products.edge`)
    with SciPy's row gather."""
    return _generic.edge(A, u, semiring, keep=keep, is_vxm=is_vxm, gather=_rows_of)


#: Product terms a masked counting product (``mxm_count_masked``) hands to SciPy at once.
COUNT_CHUNK_TERMS = 1 << 25


def counts_terms(semiring):
    """True for ``plus.pair``: the product counts the terms of each output entry (built-in
    plus monoid and pair multiply), so SciPy's SpGEMM of the patterns computes it exactly."""
    from ...ops import binary as _b
    from ...ops import monoid as _m

    return semiring.monoid is _m.plus and semiring.multiply is _b.pair


def mxm_count_masked(A, B, semiring, mask_keys):
    """``C<M> = A plus.pair B`` on the CPU with SciPy's compiled SpGEMM; returns (keys, values).

    ``C(i,j)`` = the number of k with ``A(i,k)`` and ``B(k,j)`` stored (explicit zeros count),
    kept only at the sorted row-major ``mask_keys``. Only rows holding a mask key are multiplied,
    in chunks of about :data:`COUNT_CHUNK_TERMS` terms; each chunk's product is intersected with
    the mask rows (SciPy's elementwise product with a ones pattern). Counts are at least 1, so
    SciPy never drops an entry as a numerical zero. The counts are cast as the generic kernel's
    ``plus`` over ``pair``'s ones would give them (bool: True; narrow integers wrap).

    Measured on Kronecker scale 16 (``L plus.pair L`` masked by L, 95 M terms, 2 cores): 8.2 s
    by the generic expansion, about 1 s here.
    """
    m, n = A.nrows, B.ncols
    z = semiring.monoid.domain_for(semiring.multiply.eval(A._values[:1], B._values[:1], None).dtype)
    if mask_keys.shape[0] == 0 or A.nvals == 0 or B.nvals == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=z)
    SA = sp.csr_array((np.ones(A.nvals, dtype=np.int64), A._indices, A._indptr), shape=A.shape, copy=False)
    SB = sp.csr_array((np.ones(B.nvals, dtype=np.int64), B._indices, B._indptr), shape=B.shape, copy=False)
    mrow = mask_keys // n
    mptr = np.searchsorted(mrow, np.arange(m + 1, dtype=np.int64))
    SM = sp.csr_array((np.ones(mask_keys.shape[0], dtype=np.int64), mask_keys - mrow * n, mptr),
                      shape=(m, n), copy=False)
    rows = np.flatnonzero(np.diff(mptr))
    degB = np.diff(B._indptr)
    # terms of row i: the sum of B's row lengths over the columns of A's row i
    at = np.concatenate([np.zeros(1, np.int64), np.cumsum(degB[A._indices], dtype=np.int64)])
    csum = np.cumsum((at[A._indptr[1:]] - at[A._indptr[:-1]])[rows])
    out_k, out_v = [], []
    start = 0
    while start < rows.shape[0]:
        base = csum[start - 1] if start else 0
        stop = max(start + 1, int(np.searchsorted(csum, base + COUNT_CHUNK_TERMS, side="right")))
        chunk = rows[start:stop]
        start = stop
        C = sp.csr_array((SA[chunk] @ SB).multiply(SM[chunk]))
        C.sum_duplicates()  # canonical: sorted column indices, no repeats
        if C.nnz:
            local = np.repeat(np.arange(chunk.shape[0]), np.diff(C.indptr))
            out_k.append(chunk[local] * n + C.indices)
            out_v.append(_dt.cast(C.data, z, f"result of {semiring.name}", wrap_integers=True))
    if not out_k:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=z)
    return np.concatenate(out_k), np.concatenate(out_v)
