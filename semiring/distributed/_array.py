"""The per-rank steps of distributed BFS and SSSP as whole-array operations.

Written on the array API that NumPy and CuPy share (``xp``), so the same code runs on CPU
ranks, on GPU ranks, and on any stand-in for CuPy; :mod:`semiring.distributed._cuda` has the
fused CUDA kernels of the BFS steps for GPU ranks. Each step is the local part of a masked
product of the single-device engine, with the exchange between ranks in the middle.
"""

from __future__ import annotations

import numpy as np

from ..backends._xp import repeat


def expand(xp, indptr, cols, rows):
    """(edge positions, row of each edge as an index into ``rows``) for the CSR rows ``rows``."""
    starts = indptr[rows]
    deg = indptr[rows + 1] - starts
    total = int(deg.sum()) if deg.shape[0] else 0
    if not total:
        z = xp.zeros(0, dtype=np.int64)
        return z, z
    offs = xp.cumsum(deg) - deg
    which = repeat(xp.arange(rows.shape[0], dtype=np.int64), deg)
    pos = xp.arange(total, dtype=np.int64) - offs[which] + starts[which]
    return pos, which


def owners_counts(xp, ids, B, P):
    """Per-rank counts of sorted global ids (rank r owns [r B, (r + 1) B))."""
    bounds = xp.arange(P + 1, dtype=np.int64) * B
    edges = xp.searchsorted(ids, bounds)
    return edges[1:] - edges[:-1]


def first_of_runs(xp, keys):
    """Start of each run of equal values in sorted ``keys`` (int64 positions)."""
    if keys.shape[0] == 0:
        return xp.zeros(0, dtype=np.int64)
    head = xp.ones(keys.shape[0], dtype=bool)
    head[1:] = keys[1:] != keys[:-1]
    return xp.nonzero(head)[0]


def min_by_key(xp, keys, vals):
    """Sorted unique keys and the smallest value of each (a min-reduce by key)."""
    from ..ops import binary
    from ..backends.array.reduce import reduce_runs

    order = xp.argsort(keys)
    keys, vals = keys[order], vals[order]
    starts = first_of_runs(xp, keys)
    if starts.shape[0] == keys.shape[0]:
        return keys, vals
    return keys[starts], reduce_runs(binary.min, vals, starts)


def bitmap_words(xp, local_ids, B):
    """The 32-bit words (uint32, B / 32 of them) of a bitmap of B local rows with ``local_ids`` set:
    bit i in word i // 32, bit i % 32 (little-endian bit order)."""
    mask = xp.zeros(B, dtype=bool)
    mask[local_ids] = True
    return xp.packbits(mask, bitorder="little").view(np.uint32)


def test_bits(words, ids):
    """For global ids, whether their bit is set in the allgathered bitmap ``words``."""
    return ((words[ids >> 5] >> (ids & 31).astype(np.uint32)) & np.uint32(1)).astype(bool)


def row_chunks(xp, indptr, rows, budget):
    """Split ``rows`` into consecutive pieces whose out-edges number about ``budget`` at most
    (a single row with more edges is a piece of its own)."""
    if rows.shape[0] == 0:
        return [rows]
    deg = indptr[rows + 1] - indptr[rows]
    ends = xp.cumsum(deg)
    total = int(ends[-1])
    if total <= budget:
        return [rows]
    cuts = [int(c) for c in xp.searchsorted(ends, xp.arange(budget, total, budget, dtype=np.int64), side="right")
            .tolist()]
    bounds = sorted(set([0] + cuts + [rows.shape[0]]))
    return [rows[a:b] for a, b in zip(bounds[:-1], bounds[1:]) if b > a]
