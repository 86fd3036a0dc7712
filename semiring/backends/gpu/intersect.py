"""Masked counting products on the GPU by sorted-list intersection (``C<M> = A plus.pair B``).

For every key ``(i, j)`` the mask allows, ``C(i, j)`` is the number of k with ``A(i, k)`` and
``B(k, j)`` stored: the size of the intersection of row i of A with row j of B' (the cached
transpose), both sorted column lists of CSR. A group of lanes takes one key; each lane
binary-searches every GL-th entry of the shorter list in the longer one, and the group sums by
shuffles. Only the mask's keys are computed (the masked dot-product SpGEMM, "dot3" in
SuiteSparse:GraphBLAS); no term outside the mask is formed. One launch, no host read but the
result's size.

References: T. A. Davis, "Algorithm 1000: SuiteSparse:GraphBLAS", ACM TOMS 45(4), 2019 (masked
dot-product method); M. M. Wolf et al., "Fast linear algebra-based triangle counting with
KokkosKernels", IEEE HPEC 2017; Y. Wang et al., "A comparative study on exact triangle counting
algorithms on the GPU", HPGP 2016 (intersection by binary search).
"""

from __future__ import annotations

import numpy as np

from ... import dtypes as _dt
from . import compiler
from ._persistent import index_types

#: Threads per block.
BLOCK = 256


def lanes(A):
    """Lanes per key: A's mean row length rounded up to a power of two, 1 to 32."""
    avg = A.nvals / max(A.nrows, 1)
    g = 1
    while g < 32 and g < avg:
        g *= 2
    return g


def mxm_count_masked(A, B, semiring, mask_keys):
    """``C<M> = A plus.pair B`` at the sorted row-major ``mask_keys`` (cupy int64); returns
    (keys, values) of the entries with at least one term, as the CPU's
    :func:`semiring.backends.cpu.products.mxm_count_masked` (counts cast to the monoid's
    domain, narrow integers wrapping)."""
    import cupy as cp

    z = semiring.monoid.domain_for(semiring.multiply.eval(A._values[:1], B._values[:1], None).dtype)
    nk = int(mask_keys.shape[0])
    if nk == 0 or A.nvals == 0 or B.nvals == 0:
        return cp.zeros(0, dtype=np.int64), cp.zeros(0, dtype=z)
    Bt = B.T
    ipa, ixa = index_types(A._indptr, A._indices)
    ipb, ixb = index_types(Bt._indptr, Bt._indices)
    g = lanes(A)
    defs = {"IPA": ipa, "IXA": ixa, "IPB": ipb, "IXB": ixb, "GL": g}
    keys = cp.ascontiguousarray(mask_keys, dtype=cp.int64)
    counts = cp.empty(nk, dtype=cp.int64)
    blocks = -(-nk * g // BLOCK)
    compiler.kernel("intersect.cu", "count_masked", defs)(
        (blocks,), (BLOCK,), (keys, np.int64(nk), np.int64(B.ncols), A._indptr, A._indices,
                              Bt._indptr, Bt._indices, counts))
    nz = counts > 0
    tk, tv = keys[nz], counts[nz]
    return tk, _dt.cast(tv, z, f"result of {semiring.name}", wrap_integers=True)
