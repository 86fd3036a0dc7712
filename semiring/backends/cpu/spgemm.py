"""Arithmetic ``mxm`` on the CPU through SciPy's compiled SpGEMM (Gustavson's row-by-row
product): ``plus_times``, ``plus_first``, ``plus_second`` and ``plus_pair`` on float32/float64.

GraphBLAS's ``C(i,j)`` is present when some term ``A(i,k) B(k,j)`` is, whatever the terms sum
to, while SciPy drops the entries whose sum is exactly zero. So the structure comes from the
product of the two patterns (``ones(A) @ ones(B)`` counts the terms; sums of ones are exact and
never zero), and the values from ``X @ Y`` (A's values or ones times B's values or ones), read
at the counted positions (0 where SciPy dropped a cancelled sum). Within a row SciPy adds the
terms in the order of A's entries, as the array layer's reduction does. The write step (mask,
accumulator, replace) is the common one.

Not used (``NotImplemented``: the array layer, or the masked ``plus_pair`` path, computes the
product) when the monoid is not the built-in ``plus`` or the multiply not one of the four, a
type is not float32/float64 or differs from the multiply's input type (no cast), an operand is
hypersparse or empty, or a mask (not complemented) allows fewer outputs than a MASK_FRACTION of
the product's rows times its columns' worth (the masked paths then form fewer terms).

Reference: F. G. Gustavson, "Two fast algorithms for sparse matrices: multiplication and
permuted transposition", ACM TOMS 4(3), 1978.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from ...core._rowptr import is_hyper
from .spmv import USES, _FLOATS, _form

#: A non-complemented mask with fewer entries than this fraction of ``m x n`` leaves the
#: product to the masked paths.
MASK_FRACTION = 1 / 64

#: Products computed here so far (process-wide; tells a test which path ran).
calls = [0]


def _csr(M, dtype, pattern):
    """M as a SciPy CSR sharing its index arrays: its values (of ``dtype``) or ones."""
    def build():
        data = np.ones(M.nvals, dtype=dtype) if pattern else M._values
        return sp.csr_array((data, M._indices, M._rowptr), shape=(M._nrows, M._ncols), copy=False)

    return _form(M, ("csr", np.dtype(dtype), pattern), build)


#: Mean entries per row of a SpGEMM result above which its columns are sorted by transposing
#: twice (measured: 16 x 65,536 with 566k entries, 51 ms against 71 ms by per-row sorts).
LONG_ROWS = 64


def _sorted_keys(C, ncols):
    """Row-major keys and data of a SciPy CSR result (its columns sorted first: for long rows by
    two transpositions, O(nnz + n), rather than sorting each row)."""
    if C.nnz > LONG_ROWS * C.shape[0] and not C.has_sorted_indices:
        C = C.tocsc().tocsr()  # (a transposition's columns come out sorted)
    else:
        C.sort_indices()
    rows = np.repeat(np.arange(C.shape[0], dtype=np.int64), np.diff(C.indptr))
    return rows * ncols + C.indices.astype(np.int64, copy=False), C.data


def mxm(A, B, semiring, mask):
    """``(keys, values)`` of ``T = A semiring B`` by SciPy SpGEMM, or ``NotImplemented``."""
    m, f = semiring.monoid, semiring.multiply
    if m.is_any or not (m.op.builtin and m.op.name == "plus") or not (f.builtin and f.name in USES):
        return NotImplemented
    if A.nvals == 0 or B.nvals == 0 or is_hyper(A._rowptr) or is_hyper(B._rowptr):
        return NotImplemented
    tz = semiring.output_dtype(A._dtype, B._dtype)
    if tz not in _FLOATS or f.input_dtype(A._dtype, B._dtype) != tz:
        return NotImplemented
    uses_a, uses_b = USES[f.name]
    if (uses_a and A._dtype != tz) or (uses_b and B._dtype != tz):
        return NotImplemented
    if mask is not None and not mask.complement and mask.parent.nvals < MASK_FRACTION * A._nrows * B._ncols:
        return NotImplemented
    calls[0] += 1
    n = B._ncols
    # count = ones(A) @ ones(B)   (the terms of each output: T's structure; plus_pair's values)
    keys, counts = _sorted_keys(_csr(A, np.float64, True) @ _csr(B, np.float64, True), n)
    if not (uses_a or uses_b):
        return keys, counts.astype(tz)
    # V = X @ Y   (the values; SciPy leaves out the sums that cancel to 0)
    vk, vv = _sorted_keys(_csr(A, tz, not uses_a) @ _csr(B, tz, not uses_b), n)
    values = np.zeros(keys.shape[0], dtype=tz)
    values[np.searchsorted(keys, vk)] = vv
    return keys, values
