"""Fused CUDA kernels of the distributed BFS steps on GPU ranks (compiled by CuPy with NVRTC).

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

from .bfs import ArrayBFS

SOURCE = r"""
typedef long long i64;
typedef unsigned long long u64;

__device__ __forceinline__ int lane_id() { return threadIdx.x & 31; }

// Warp-aggregated append: every lane with `want` gets a distinct slot of *counter.
__device__ __forceinline__ u64 warp_slot(bool want, u64* counter) {
    unsigned m = __ballot_sync(0xffffffffu, want);
    int leader = __ffs(m) - 1;
    u64 base = 0;
    if (m && lane_id() == leader) base = atomicAdd(counter, (u64)__popc(m));
    base = __shfl_sync(0xffffffffu, base, leader < 0 ? 0 : leader);
    return base + __popc(m & ((1u << lane_id()) - 1u));
}

// Warp sum of a 64-bit value; lane 0 adds it to *out.
__device__ __forceinline__ void warp_add(i64 x, u64* out) {
    for (int o = 16; o > 0; o >>= 1) x += __shfl_down_sync(0xffffffffu, x, o);
    if (lane_id() == 0 && x) atomicAdd(out, (u64)x);
}

// stats: [0] discovered (also the queue length), [1] their out-degrees, [2] their in-degrees
__device__ __forceinline__ void discovered(bool got, i64 loc, i64* queue, u64* stats,
                                           const i64* outdeg, const i64* indeg) {
    u64 slot = warp_slot(got, &stats[0]);
    if (got) queue[slot] = loc;
    warp_add(got ? outdeg[loc] : 0, &stats[1]);
    warp_add(got ? indeg[loc] : 0, &stats[2]);
}

extern "C" __global__ void push_expand(const i64* __restrict__ indptr, const int* __restrict__ cols,
        const i64* __restrict__ queue, const i64* __restrict__ offs, i64 q, i64 total,
        int* __restrict__ claim, int depth, const int* __restrict__ level, i64 lo, i64 nl,
        i64 B, int* __restrict__ out_v, int* __restrict__ out_p, u64* __restrict__ counts) {
    i64 e = (i64)blockIdx.x * blockDim.x + threadIdx.x;
    int owner = -1, v = 0, src = 0;
    if (e < total) {
        i64 a = 0, b = q;                 // offs[a] <= e < offs[b]
        while (b - a > 1) {
            i64 mid = (a + b) >> 1;
            if (offs[mid] <= e) a = mid; else b = mid;
        }
        i64 u = queue[a];
        v = cols[indptr[u] + (e - offs[a])];
        src = (int)(u + lo);
        i64 lv = (i64)v - lo;
        bool visited = lv >= 0 && lv < nl && level[lv] >= 0;
        if (!visited && atomicMax(&claim[v], depth) < depth) owner = (int)(v / B);
    }
    unsigned active = __ballot_sync(0xffffffffu, owner >= 0);
    if (owner >= 0) {
        unsigned peers = __match_any_sync(active, owner);
        int leader = __ffs(peers) - 1;
        u64 base = 0;
        if (lane_id() == leader) base = atomicAdd(&counts[owner], (u64)__popc(peers));
        base = __shfl_sync(peers, base, leader);
        i64 pos = (i64)owner * B + (i64)(base + __popc(peers & ((1u << lane_id()) - 1u)));
        out_v[pos] = v;
        out_p[pos] = src;
    }
}

extern "C" __global__ void push_receive(const int* __restrict__ rv, const int* __restrict__ rp, i64 count,
        i64 lo, int* __restrict__ level, i64* __restrict__ parent, int depth, i64* __restrict__ queue,
        unsigned* __restrict__ next_bits, const i64* __restrict__ outdeg, const i64* __restrict__ indeg,
        u64* __restrict__ stats) {
    i64 e = (i64)blockIdx.x * blockDim.x + threadIdx.x;
    bool got = false;
    i64 loc = 0;
    if (e < count) {
        loc = (i64)rv[e] - lo;
        if (atomicCAS(&level[loc], -1, depth) == -1) {
            got = true;
            if (parent) parent[loc] = rp[e];
            atomicOr(&next_bits[loc >> 5], 1u << (loc & 31));
        }
    }
    discovered(got, loc, queue, stats, outdeg, indeg);
}

extern "C" __global__ void pull_scan(const i64* __restrict__ indptr, const int* __restrict__ cols, i64 nl,
        const unsigned* __restrict__ bits, int* __restrict__ level, i64* __restrict__ parent, int depth,
        i64* __restrict__ queue, unsigned* __restrict__ next_bits, const i64* __restrict__ outdeg,
        const i64* __restrict__ indeg, u64* __restrict__ stats) {
    i64 r = (i64)blockIdx.x * blockDim.x + threadIdx.x;   // blockDim is a multiple of 32: a warp is one word
    bool got = false;
    if (r < nl && level[r] < 0) {
        for (i64 k = indptr[r], end = indptr[r + 1]; k < end; ++k) {
            int c = cols[k];
            if ((bits[c >> 5] >> (c & 31)) & 1u) {
                got = true;
                level[r] = depth;
                if (parent) parent[r] = c;
                break;
            }
        }
    }
    unsigned word = __ballot_sync(0xffffffffu, got);
    if (lane_id() == 0 && word) next_bits[r >> 5] = word;
    discovered(got, r, queue, stats, outdeg, indeg);
}
"""

_THREADS = 256
_module = {}


def _kernels(cp):
    dev = cp.cuda.Device().id
    if dev not in _module:
        _module[dev] = cp.RawModule(code=SOURCE, options=("-std=c++17",))
    m = _module[dev]
    return {k: m.get_function(k) for k in ("push_expand", "push_receive", "pull_scan")}


def _grid(count):
    return (max(1, -(-int(count) // _THREADS)),)


class CudaBFS(ArrayBFS):
    """The BFS steps of :class:`~semiring.distributed.bfs.ArrayBFS` as fused CUDA kernels."""

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

    def start(self, source):
        st = np.zeros(3, dtype=np.int64)
        if self.lo <= source < self.lo + self.nl:
            s = source - self.lo
            self.level[s] = 0
            if self.parent is not None:
                self.parent[s] = source
            self.queue[0] = s
            self.bits[s >> 5] = np.uint32(1 << (s & 31))
            st[:] = (1, int(self.outdeg[s]), int(self.indeg[s]))
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

