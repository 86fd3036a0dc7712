"""Blocked Floyd-Warshall on the device: a dense distance matrix, closed tile by tile.

The n x n distances are split into T x T tiles (T = :data:`TILE`). Round kb closes the pivots
of tile kb in three launches: the diagonal tile (each of its pivots in turn, in shared memory),
then the tiles of its row and column (against the closed diagonal tile), then every other tile
as a ``min.plus`` product of its column tile and row tile (both final by then). The rounds are
queued back to back with no host synchronization; the host reads once at the end (the first
vertex on a negative cycle, if any) and once more for the result's number of entries.

References: G. J. Katz, J. T. Kider, "All-pairs shortest-paths for large graphs on the GPU",
Graphics Hardware 2008; G. Venkataraman, S. Sahni, S. Mukhopadhyaya, "A blocked all-pairs
shortest-paths algorithm", ACM J. Exp. Algorithmics 8, 2003.
"""

from __future__ import annotations

import numpy as np

from ... import _host
from . import compiler

#: Tile side (threads per block: TILE x TILE).
TILE = 32

_TYPES = {
    np.dtype(np.float64): ("double", "__longlong_as_double(0x7ff0000000000000ll)", 1),
    np.dtype(np.int64): ("long long", "0x7fffffffffffffffll", 0),
}


def distances(W):
    """All-pairs shortest-path lengths of the weight Matrix W (int64 or float64, on the GPU).

    Returns
    -------
    D : cupy array, shape (n, n), W's dtype
        ``+inf`` (float64) or ``2**63 - 1`` (int64) where there is no path; the diagonal is
        ``min(0, shortest cycle)``.
    negative : int
        The first vertex whose diagonal is negative (it lies on a negative cycle), or -1.
    """
    import cupy as cp

    n = W.nrows
    vt, inf, is_float = _TYPES[np.dtype(W.dtype)]
    defs = {"VT": vt, "INFINITE": inf, "IS_FLOAT": is_float, "T": TILE}
    infinite = np.inf if is_float else np.iinfo(np.int64).max
    D = cp.full((n, n), infinite, dtype=W.dtype)
    r, c, v = W.to_coo()
    D[r, c] = v
    diag = cp.arange(n)
    D[diag, diag] = cp.minimum(D[diag, diag], 0)
    if n == 0:
        return D, -1
    tiles = -(-n // TILE)
    nn = np.int32(n)
    diagonal, panels, rest = (compiler.kernel("floyd_warshall.cu", name, defs)
                              for name in ("fw_diagonal", "fw_panels", "fw_rest"))
    for kb in range(tiles):
        k = np.int32(kb)
        diagonal((1,), (TILE, TILE), (D, nn, k))
        panels((tiles, 2), (TILE, TILE), (D, nn, k))
        rest((tiles, tiles), (TILE, TILE), (D, nn, k))
    first = cp.full(1, n, dtype=cp.int32)
    compiler.kernel("floyd_warshall.cu", "fw_negative", defs)((max(1, min(1024, -(-n // 256))),), (256,),
                                                               (D, nn, first))
    k = _host.read_int(first)
    return D, (-1 if k == n else k)


def to_matrix(D, dtype):
    """The Matrix of the finite entries of the dense distances D (n x n, on the GPU)."""
    import cupy as cp

    from ...core.matrix import Matrix

    n = D.shape[0]
    infinite = np.inf if np.dtype(dtype).kind == "f" else np.iinfo(np.int64).max
    present = D != infinite
    indptr = cp.zeros(n + 1, dtype=cp.int64)
    indptr[1:] = cp.cumsum(present.sum(axis=1))
    total = _host.read_int(indptr[-1:])  # then the queue is empty: flatnonzero's own read is free
    flat = cp.flatnonzero(present)
    idx = np.int64 if max(n, total) >= 2**31 else np.int32
    return Matrix._from_csr(n, n, dtype, indptr.astype(idx), (flat % n).astype(idx), D.reshape(-1)[flat])
