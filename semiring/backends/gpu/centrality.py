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


class _Searches:
    """The kernels and state of BFS sweeps for batches of up to ``b_max`` sources over A."""

    def __init__(self, A, b_max, what):
        import cupy as cp

        n = self.n = A.nrows
        self.A, self.b_max = A, b_max
        _memory.require(n * b_max * 20, f"{what}: the {n} x {b_max} search state of a batch", "gpu")
        ipt, ixt = index_types(A._indptr, A._indices)
        defs = {"IPT": ipt, "IXT": ixt, "CH": CHUNK}
        self.k = {name: compiler.kernel("brandes.cu", name, defs)
                  for name in ("br_start", "br_level", "br_sum", "br_sources")}
        self.depth = cp.empty(n * b_max, dtype=cp.int32)
        self.sigma = cp.empty(n * b_max, dtype=cp.float64)
        self.delta = cp.empty(n * b_max, dtype=cp.float64)
        self.grew = cp.zeros(1, dtype=cp.int32)
        # first[v]: v's first chunk (rows of CHUNK entries at most; a hub's row spreads over warps)
        self.first = cp.zeros(n + 1, dtype=cp.int64)
        self.first[1:] = cp.cumsum((cp.diff(A._indptr).astype(cp.int64) + (CHUNK - 1)) // CHUNK)
        self.chunks = n + A._indices.size // CHUNK + 1  # at least first[n]: the grid's size
        self.reads = 0

    def _level(self, b, d, backward):
        A = self.A
        self.k["br_level"](_grid(self.chunks), (BLOCK,),
                           (A._indptr, A._indices, self.first, np.int32(self.n), np.int32(b), np.int32(d),
                            np.int32(backward), self.depth, self.sigma, self.delta, self.grew))

    def forward(self, src):
        """The searches from the cupy int64 sources ``src``: depth and sigma; returns the levels."""
        n, b = self.n, int(src.size)
        self.depth[:n * b].fill(-1)
        self.sigma[:n * b].fill(0)
        self.k["br_start"]((1,), (64,), (src, np.int32(b), self.depth, self.sigma))
        d = 0
        while True:
            self.grew.fill(0)
            self._level(b, d, 0)
            d += 1
            self.reads += 1
            if not _host.read_int(self.grew):
                return d

    def backward(self, b, levels):
        """delta of every level (the deepest has no children: delta = 0 there)."""
        self.delta[:self.n * b].fill(0)
        for level in range(levels - 2, 0, -1):
            self._level(b, level, 1)


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
    run = _Searches(A, min(int(batch), sources.shape[0]), "betweenness_centrality")
    reached = cp.zeros(run.b_max, dtype=cp.uint64)
    for start in range(0, sources.shape[0], run.b_max):
        src = cp.asarray(sources[start:start + run.b_max], dtype=cp.int64)
        b = int(src.size)
        run.backward(b, run.forward(src))
        reached.fill(0)
        run.k["br_sum"](_grid(n), (BLOCK,), (np.int32(n), np.int32(b), run.depth, run.delta,
                                             np.int32(bool(endpoints)), bc, reached))
        if endpoints:
            run.k["br_sources"]((1,), (64,), (src, np.int32(b), reached, bc))
    return run.reads


def levels(A, sources, batch):
    """BFS levels (hop counts) from each source, for all-pairs shortest paths: a batch of
    sources at a time, the same forward sweeps as betweenness.

    Parameters
    ----------
    A : Matrix on the GPU, shape (n, n)
    sources : numpy int64 array
        Any vertices (repeats allowed).
    batch : int
        Sources searched at once.

    Yields
    ------
    (indptr, indices, values, rows)
        The CSR rows of one batch (cupy arrays): row t holds the level of every vertex its
        source reaches (int64, the source at 0); ``rows`` is ``indptr`` on the host (the one
        read of the batch after its levels).
    """
    import cupy as cp

    n = A.nrows
    run = _Searches(A, min(int(batch), sources.shape[0]), "all_pairs_shortest_paths")
    for start in range(0, sources.shape[0], run.b_max):
        src = cp.asarray(sources[start:start + run.b_max], dtype=cp.int64)
        b = int(src.size)
        run.forward(src)
        D = run.depth[:n * b].reshape(n, b).T  # b x n: row t is source t's search
        present = D >= 0
        indptr = cp.zeros(b + 1, dtype=cp.int64)
        indptr[1:] = cp.cumsum(present.sum(axis=1))
        rows = _host.read(indptr)  # then the queue is empty: flatnonzero's own read is free
        flat = cp.flatnonzero(present)
        yield indptr, flat % n, D.ravel()[flat].astype(cp.int64), rows
