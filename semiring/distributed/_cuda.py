"""Fused CUDA kernels of the distributed BFS steps on GPU ranks (``backends/gpu/kernels/distributed_bfs.cu``).

Per level a rank launches a handful of kernels and exchanges once:

- push: ``push_expand`` (one thread per frontier out-edge, the frontier vertex found by binary
  search in the degree prefix sum) claims each target once per level with ``atomicMax`` on a
  level stamp, skips targets it owns and has visited, and appends (target, parent) to the
  target owner's segment of the send buffer (warp-aggregated by ``__match_any_sync``); the
  segments go to their owners (NCCL send/recv) and ``push_receive`` claims the new vertices
  with ``atomicCAS`` on their level, sets their parent, their bit in the next frontier
  bitmap, and appends them to the next frontier queue;
- pull: the frontier bitmap is allgathered (n bits) and ``pull_scan`` (one thread per local
  row, stopping at the first frontier in-neighbour) does the same updates.

Each kernel also sums the out- and in-degree of the vertices it discovers, so the host reads
one small statistics array per level (the one synchronisation the direction decision needs),
plus the per-owner counts on push levels (NCCL needs the message sizes on the host).

References
----------
Merrill, Garland, Grimshaw, "Scalable GPU graph traversal", PPoPP 2012 (warp-aggregated queues).
Beamer, Buluc, Asanovic, Patterson, "Distributed memory breadth-first search revisited", IPDPSW 2013.
"""

from __future__ import annotations

import numpy as np

from ..backends.gpu.compiler import kernel
from ._array import ArrayBFS

_THREADS = 256


def _kernels(cp):
    """The three kernels of ``kernels/distributed_bfs.cu`` (compiled once per device)."""
    return {k: kernel("distributed_bfs.cu", k) for k in ("push_expand", "push_receive", "pull_scan")}


def _grid(count):
    return (max(1, -(-int(count) // _THREADS)),)


class CudaBFS(ArrayBFS):
    """The BFS steps of :class:`~semiring.distributed._array.ArrayBFS` as fused CUDA kernels."""

    def __init__(self, A, AT, parents):
        super().__init__(A, AT, parents)
        cp = self.xp
        if A.cols.dtype != np.int32 or AT.cols.dtype != np.int32:
            raise ValueError("kernels='cuda' needs int32 column ids (n < 2**31 - 1)")
        self.k = _kernels(cp)
        n, P, B = A.n, self.P, self.B
        self.claim = cp.zeros(n, dtype=np.int32)
        self.out_v = cp.empty(P * B, dtype=np.int32)
        self.out_p = cp.empty(P * B, dtype=np.int32)
        self.counts = cp.zeros(P, dtype=np.uint64)
        self.stats = cp.zeros(3, dtype=np.uint64)
        self.queue = cp.zeros(max(self.nl, 1), dtype=np.int64)
        self.next_queue = cp.zeros(max(self.nl, 1), dtype=np.int64)
        self.bits = cp.zeros(B // 32, dtype=np.uint32)
        self.next_bits = cp.zeros(B // 32, dtype=np.uint32)
        self.q = 0
        self.local_edges = 0

    def _enqueue_source(self, s):
        self.queue[0] = s
        self.bits[s >> 5] = np.uint32(1 << (s & 31))

    def start(self, source):
        st = super().start(source)
        self.q, self.local_edges = int(st[0]), int(st[1])
        return st

    def _finish(self):
        st = self.ctx.to_host(self.stats, "bfs level statistics").astype(np.int64)
        self.queue, self.next_queue = self.next_queue, self.queue
        self.bits, self.next_bits = self.next_bits, self.bits
        self.q, self.local_edges = int(st[0]), int(st[1])
        return st

    def _reset(self):
        self.next_bits.fill(0)
        self.stats.fill(0)

    def push(self, depth):
        cp, ctx, A = self.xp, self.ctx, self.A
        q, total = self.q, self.local_edges
        self.counts.fill(0)
        if total:
            fq = self.queue[:q]
            deg = A.indptr[fq + 1] - A.indptr[fq]
            offs = cp.zeros(q + 1, dtype=np.int64)
            cp.cumsum(deg, out=offs[1:])
            self.k["push_expand"](_grid(total), (_THREADS,), (
                A.indptr, A.cols, fq, offs, np.int64(q), np.int64(total), self.claim, np.int32(depth),
                self.level, np.int64(self.lo), np.int64(self.nl), np.int64(self.B), self.out_v, self.out_p,
                self.counts))
        send = ctx.to_host(self.counts, "bfs push counts").astype(np.int64)
        recv = ctx.alltoall(send, f"bfs level {depth} (push counts)")
        displs = np.arange(self.P, dtype=np.int64) * self.B
        arrays = [self.out_v] + ([self.out_p] if self.parent is not None else [])
        got = ctx.channel.alltoallv(arrays, send, recv, f"bfs level {depth} (push)", send_displs=displs)
        rp = got[1] if self.parent is not None else got[0]
        count = int(recv.sum())
        self._reset()
        if count:
            self.k["push_receive"](_grid(count), (_THREADS,), (
                got[0], rp, np.int64(count), np.int64(self.lo), self.level, self._parent_ptr(), np.int32(depth),
                self.next_queue, self.next_bits, self.outdeg, self.indeg, self.stats))
        return self._finish()

    def _parent_ptr(self):
        return self.parent if self.parent is not None else np.intp(0)

    def pull(self, depth):
        ctx, AT = self.ctx, self.AT
        words = ctx.channel.allgather(self.bits, f"bfs level {depth} (pull bitmap)")
        self._reset()
        if self.nl:
            self.k["pull_scan"](_grid(self.nl), (_THREADS,), (
                AT.indptr, AT.cols, np.int64(self.nl), words, self.level, self._parent_ptr(), np.int32(depth),
                self.next_queue, self.next_bits, self.outdeg, self.indeg, self.stats))
        return self._finish()

