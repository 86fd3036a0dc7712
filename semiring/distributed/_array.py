"""The per-rank steps of distributed BFS and SSSP as whole-array operations, and the BFS
engine built on them (:class:`ArrayBFS`).

Written on the array API that NumPy and CuPy share (``xp``), so the same code runs on CPU
ranks, on GPU ranks, and on any stand-in for CuPy; :mod:`semiring.distributed._cuda` has the
fused CUDA kernels of the BFS steps for GPU ranks (its engine subclasses :class:`ArrayBFS`). Each step is the local part of a masked
product of the single-device engine, with the exchange between ranks in the middle.
"""

from __future__ import annotations

import numpy as np

from ..backends._xp import repeat
from .matrix import _vid_dtype


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


class ArrayBFS:
    """The per-rank state and steps of a BFS, as whole-array operations (any ``xp``)."""

    def __init__(self, A, AT, parents):
        ctx = A.ctx
        self.ctx, self.xp, self.A, self.AT = ctx, ctx.xp, A, AT
        self.B, self.P, self.lo, self.nl = A.blocks.B, ctx.size, A.lo, A.nlocal
        self.vdt = _vid_dtype(A.n)
        xp = self.xp
        self.level = xp.full(self.nl, -1, dtype=np.int32)
        self.parent = xp.full(self.nl, -1, dtype=np.int64) if parents else None
        self.queue = xp.zeros(0, dtype=np.int64)
        self.outdeg = A.out_degree()
        self.indeg = AT.out_degree() if AT is not A else self.outdeg

    def start(self, source):
        """Level 0 at ``source``; returns this rank's [1 or 0, out-degree, in-degree] of it."""
        st = np.zeros(3, dtype=np.int64)
        if self.lo <= source < self.lo + self.nl:
            s = source - self.lo
            self.level[s] = 0
            if self.parent is not None:
                self.parent[s] = source
            self._enqueue_source(s)
            st[:] = (1, int(self.outdeg[s]), int(self.indeg[s]))
        return st

    def _enqueue_source(self, s):
        """Make the local vertex ``s`` the whole queue."""
        self.queue = self.xp.asarray([s], dtype=np.int64)

    def _stats(self, new):
        xp = self.xp
        out = xp.stack([xp.asarray(new.shape[0], dtype=np.int64), self.outdeg[new].sum(dtype=np.int64),
                        self.indeg[new].sum(dtype=np.int64)])
        return self.ctx.to_host(out, "bfs level statistics")

    def push(self, depth):
        """q<!level.S, replace> = q any.pair A: expand, send targets to owners, keep the new ones."""
        xp, ctx = self.xp, self.ctx
        A = self.A
        pos, which = expand(xp, A.indptr, A.cols, self.queue)
        nbr = A.cols[pos].astype(np.int64)
        nbr, first = xp.unique(nbr, return_index=True)
        send = ctx.to_host(owners_counts(xp, nbr, self.B, self.P), "bfs push counts").astype(np.int64)
        recv = ctx.alltoall(send, f"bfs level {depth} (push counts)")
        arrays = [nbr.astype(self.vdt)]
        if self.parent is not None:
            arrays.append((self.queue[which[first]] + self.lo).astype(self.vdt))
        got = ctx.channel.alltoallv(arrays, send, recv, f"bfs level {depth} (push)")
        loc = got[0].astype(np.int64) - self.lo
        new = self.level[loc] < 0
        loc = loc[new]
        loc, first = xp.unique(loc, return_index=True)
        self.level[loc] = depth
        if self.parent is not None:
            self.parent[loc] = got[1][new][first]
        self.queue = loc
        return self._stats(loc)

    def pull(self, depth):
        """q<!level.S, replace> = AT any.pair q: allgather the frontier bitmap, scan unvisited rows."""
        xp, ctx = self.xp, self.ctx
        words = ctx.channel.allgather(bitmap_words(xp, self.queue, self.B), f"bfs level {depth} (pull bitmap)")
        unv = xp.nonzero(self.level < 0)[0]
        pos, which = expand(xp, self.AT.indptr, self.AT.cols, unv)
        src = self.AT.cols[pos].astype(np.int64)
        hit = test_bits(words, src)
        rows, srcs = which[hit], src[hit]
        first = first_of_runs(xp, rows)  # rows ascend in CSR order: the first hit of each row
        loc = unv[rows[first]]
        self.level[loc] = depth
        if self.parent is not None:
            self.parent[loc] = srcs[first]
        self.queue = loc
        return self._stats(loc)

    def results(self):
        xp = self.xp
        present = self.level >= 0
        level = xp.where(present, self.level, 0).astype(np.int64)
        parent = None if self.parent is None else xp.where(present, self.parent, 0)
        return level, present, parent
