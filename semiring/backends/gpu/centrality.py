"""Brandes' betweenness on the device, a batch of sources at a time, without the algebra.

The batch's b searches share vertex-major state arrays (n x b): a warp serves one vertex and
its lanes the sources, so the b states of a neighbour are one coalesced read. The forward sweep
pushes level d to level d + 1 (rows cut into chunks of :data:`CHUNK` entries, a warp each,
so a hub's row is spread over many warps) (an unreached (vertex, source) pair joins by compare-and-swap on
its depth and gains the shortest-path counts of its parents by ``atomicAdd``), reading one flag
per level to know when the searches are over; the backward sweep pulls each level's
dependencies from the next one's (``delta(v) = sigma(v) sum (1 + delta(w)) / sigma(w)`` over the
children w), with no host read; a last pass adds every vertex's dependencies over the sources.
The same sums as the ``plus.first`` products of the algebra engine, in another order.

References: U. Brandes, "A faster algorithm for betweenness centrality", J. Math. Sociology
25(2), 2001; A. McLaughlin, D. A. Bader, "Scalable and high performance betweenness
centrality on the GPU", SC 2014 (per-level sweeps, sources in parallel).
"""

from __future__ import annotations

import numpy as np

from ... import _host, _memory
from . import compiler
from ._persistent import index_types

#: Threads per block (eight warps).
BLOCK = 256
#: Row entries per warp: a longer row is cut into chunks served by several warps.
CHUNK = 128


def _grid(n):
    return (max(1, min(65535, -(-int(n) * 32 // BLOCK))),)


def accumulate(A, sources, batch, endpoints, bc):
    """bc += the raw (unscaled) betweenness sums of ``sources`` on the pattern of A.

    Parameters
    ----------
    A : Matrix on the GPU, shape (n, n)
        Edge i -> j where ``A[i, j]`` is present (for an undirected graph, A is symmetric).
    sources : numpy int64 array
        Distinct vertices.
    batch : int
        Sources searched at once.
    endpoints : bool
        networkx's ``endpoints``.
    bc : cupy float64 array, shape (n,)
        Added to in place.

    Returns
    -------
    int
        Host reads (one per BFS level of each batch).
    """
    import cupy as cp

    n = A.nrows
    b_max = min(int(batch), sources.shape[0])
    _memory.require(n * b_max * 20, f"betweenness_centrality: the {n} x {b_max} search state of a batch", "gpu")
    ipt, ixt = index_types(A._indptr, A._indices)
    defs = {"IPT": ipt, "IXT": ixt, "CH": CHUNK}
    k = {name: compiler.kernel("brandes.cu", name, defs)
         for name in ("br_start", "br_level", "br_sum", "br_sources")}
    depth = cp.empty(n * b_max, dtype=cp.int32)
    sigma = cp.empty(n * b_max, dtype=cp.float64)
    delta = cp.empty(n * b_max, dtype=cp.float64)
    grew = cp.zeros(1, dtype=cp.int32)
    reached = cp.zeros(b_max, dtype=cp.uint64)
    nn, reads = np.int32(n), 0
    # first[v]: v's first chunk (rows of CHUNK entries at most; a hub's row spreads over warps)
    first = cp.zeros(n + 1, dtype=cp.int64)
    first[1:] = cp.cumsum((cp.diff(A._indptr).astype(cp.int64) + (CHUNK - 1)) // CHUNK)
    chunks = n + A._indices.size // CHUNK + 1  # at least first[n]: the grid's size
    for start in range(0, sources.shape[0], b_max):
        src = cp.asarray(sources[start:start + b_max], dtype=cp.int64)
        b = int(src.size)
        bb = np.int32(b)
        depth[:n * b].fill(-1)
        sigma[:n * b].fill(0)
        delta[:n * b].fill(0)
        k["br_start"]((1,), (64,), (src, bb, depth, sigma))
        d = 0
        while True:
            grew.fill(0)
            k["br_level"](_grid(chunks), (BLOCK,),
                          (A._indptr, A._indices, first, nn, bb, np.int32(d), np.int32(0), depth, sigma, delta, grew))
            d += 1
            reads += 1
            if not _host.read_int(grew):
                break
        # levels 0 .. d - 1; the deepest has no children (delta = 0)
        for level in range(d - 2, 0, -1):
            k["br_level"](_grid(chunks), (BLOCK,), (A._indptr, A._indices, first, nn, bb, np.int32(level),
                                                     np.int32(1), depth, sigma, delta, grew))
        reached.fill(0)
        k["br_sum"](_grid(n), (BLOCK,), (nn, bb, depth, delta, np.int32(bool(endpoints)), bc, reached))
        if endpoints:
            k["br_sources"]((1,), (64,), (src, bb, reached, bc))
    return reads
