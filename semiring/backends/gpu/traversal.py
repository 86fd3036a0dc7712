"""Device-resident, direction-optimizing BFS: one persistent cooperative kernel runs every
level, with one grid barrier per level and no host synchronization until the search ends.

Per level, every thread reads the same frontier counters and takes the same direction
decision (Beamer's rule with ALPHA and BETA, as the algebra path):

- push (top-down): the frontier is kept in two queues. Vertices of small out-degree are
  expanded by groups of ``TPV`` lanes; vertices of large out-degree are split into chunks of
  ``CHUNK`` edges ("node splitting"), each chunk expanded by a whole block, so one hub cannot
  serialize a level. A neighbour is claimed with ``atomicCAS(level, -1, d + 1)``; the winner
  records the parent and appends the vertex to the next frontier (warp-aggregated atomics).
- pull (bottom-up): one thread per unvisited vertex scans its in-edges and stops at the first
  neighbour on the current level (the ``any`` monoid's early exit).

Counters (frontier sizes, frontier out-edges, edges examined) live in a small device array
with three rotating slots, so zeroing the slot of level d + 2 needs no extra barrier.

References: Beamer, Asanovic, Patterson, "Direction-optimizing breadth-first search", SC 2012;
Merrill, Garland, Grimshaw, "Scalable GPU graph traversal", PPoPP 2012 (warp/CTA expansion);
Wang et al., "Gunrock: GPU graph analytics", TOPC 2017; Hong et al., "Accelerating CUDA graph
algorithms at maximum warp", PPoPP 2011 (virtual warps).
"""

from __future__ import annotations

import numpy as np

from . import _persistent as _p

#: Slots of the control array: 8 counters per level, three levels in rotation.
_SLOT = 8

_SRC = r"""
// A vertex won by this lane (pred) joins the next frontier; count its out-edges and itself.
__device__ __forceinline__ void discovered(bool pred, int v, const IPT* optr, int* qs, ull* ctl_next,
        long long* qb, ull& mf, ull& nq) {
    const long long d = pred ? (long long)(optr[v + 1] - optr[v]) : 0;
    frontier_append(pred, v, d, qs, ctl_next + NSMALL, qb, ctl_next + NBIG);
    mf += (ull)d;
    nq += pred ? 1 : 0;
}

extern "C" __global__ void bfs_fused(const IPT* optr, const IXT* oidx, const IPT2* iptr, const IXT2* iidx,
        int n, long long nnz, int* level, int* parent, int with_parent,
        int* qs0, int* qs1, long long* qb0, long long* qb1, ull* ctl, long long* tr, long long stride, int mode, int max_depth, double alpha, double beta, unsigned* bar) {
    const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const long long nthreads = (long long)gridDim.x * blockDim.x;
    const int lane = lane_id();
    bool pull = (mode == 2);
    ull nq_last = 0;
    long long unexplored = nnz;
    int depth = 0;
    while (true) {
        ull* cur = ctl + (depth % 3) * SLOT;
        ull* nxt = ctl + ((depth + 1) % 3) * SLOT;
        ull* old = ctl + ((depth + 2) % 3) * SLOT;
        const ull nq = ld(cur + NQ), mf = ld(cur + MF);
        if (tid == 0) tr[stride + depth] = (long long)nq;
        if (nq == 0 || depth == max_depth) break;
        if (mode == 0) {
            if (!pull) pull = nq > nq_last && (double)mf > (double)unexplored / alpha;
            else pull = !(nq < nq_last && (double)nq < (double)n / beta);
        }
        if (tid == 0) { for (int k = 0; k < SLOT; ++k) old[k] = 0; }
        int* qs = (depth & 1) ? qs1 : qs0;  int* qs_next = (depth & 1) ? qs0 : qs1;
        long long* qb = (depth & 1) ? qb1 : qb0;  long long* qb_next = (depth & 1) ? qb0 : qb1;
        ull my_mf = 0, my_nq = 0, my_exam = 0;
        const int nd = depth + 1;
        if (!pull) {
            // top-down: claim each unvisited out-neighbour of the frontier with a CAS on its level
            expand(optr, qs, ld(cur + NSMALL), qb, ld(cur + NBIG), tid, nthreads,
                   [&](int u, long long p, bool valid) {
                bool won = false;
                int v = 0;
                if (valid) {
                    v = (int)oidx[p];
                    if (ld(level + v) < 0 && atomicCAS(&level[v], -1, nd) == -1) {
                        won = true;
                        if (with_parent) parent[v] = u;
                    }
                }
                discovered(won, v, optr, qs_next, nxt, qb_next, my_mf, my_nq);
            });
            if (tid == 0) nxt[EXAMINED] = mf;
        } else {
            // bottom-up: each unvisited vertex looks for one in-neighbour on this level
            for (long long base = tid - lane; base < n; base += nthreads) {
                int v = (int)(base + lane);
                bool won = false;
                if (v < n && ld(level + v) < 0) {
                    long long hi = iptr[v + 1];
                    for (long long p = iptr[v]; p < hi; ++p) {
                        int u = (int)iidx[p];
                        ++my_exam;
                        if (ld(level + u) == depth) { level[v] = nd; if (with_parent) parent[v] = u; won = true; break; }
                    }
                }
                discovered(won, v, optr, qs_next, nxt, qb_next, my_mf, my_nq);
            }
            warp_add(my_exam, nxt + EXAMINED);
        }
        warp_add(my_mf, nxt + MF);
        warp_add(my_nq, nxt + NQ);
        if (tid == 0) tr[depth] = pull ? 2 : 1;
        if (!grid_sync(bar)) break;
        if (tid == 0) tr[2 * stride + depth] = (long long)ld(nxt + EXAMINED);
        unexplored -= (long long)mf;
        nq_last = nq;
        ++depth;
    }
    if (tid == 0) { ctl[3 * SLOT] = (ull)depth; ctl[3 * SLOT + 1] = ((volatile unsigned*)bar)[2]; }
}
"""

_kernels = {}
_MODES = {"auto": 0, "push": 1, "pull": 2}

_INIT = r"""
extern "C" __global__ void bfs_init(const IPT* optr, int s, int* level, int* parent, int with_parent,
        int* qs, long long* qb, ull* ctl) {
    level[s] = 0;
    if (with_parent) parent[s] = s;
    long long d = (long long)(optr[s + 1] - optr[s]);
    if (d < BIG) { qs[0] = s; ctl[NSMALL] = 1; }
    else { long long c = (d + CHUNK - 1) / CHUNK; for (long long k = 0; k < c; ++k) qb[k] = (k << 32) | s; ctl[NBIG] = c; }
    ctl[MF] = (ull)d; ctl[NQ] = 1;
}
"""


def _kernels_for(types):
    """(init, fused) kernels for these index types (compiled once per types and device)."""
    import cupy as cp

    key = (types, cp.cuda.runtime.getDevice())
    if key not in _kernels:
        ipt, ixt, ipt2, ixt2 = types
        head = (f"typedef {ipt} IPT; typedef {ixt} IXT; typedef {ipt2} IPT2; typedef {ixt2} IXT2;\n"
                f"#define SLOT {_SLOT}\n"
                "#define NSMALL 0\n#define NBIG 1\n#define MF 2\n#define EXAMINED 3\n#define NQ 4\n")
        _kernels[key] = (_p.compile_kernel(head + _INIT, "bfs_init"), _p.compile_kernel(head + _SRC, "bfs_fused"))
    return _kernels[key]


def supported(A):
    """Whether the fused kernel can run on A (vertex ids must fit in int32)."""
    return A.nrows < 2**31 - 1


def bfs(A, AT, source, *, parents=False, direction="auto", max_depth=None, alpha=15.0, beta=18.0):
    """Run a whole BFS on the device in one cooperative launch.

    Parameters
    ----------
    A, AT : Matrix on the GPU, shape (n, n)
        Out-edges (push) and in-edges (pull); the same object for an undirected graph.
    source : int
        0 <= source < n (checked by the caller).
    parents : bool
        Also record a BFS-tree parent per reached vertex.
    direction : {"auto", "push", "pull"}
    max_depth : int or None
    alpha, beta : float
        Beamer's switching thresholds (see ``semiring.algorithms.bfs``).

    Returns
    -------
    level : cupy int32 array, shape (n,)
        Hop distance; -1 where unreached.
    parent : cupy int32 array, shape (n,), or None
    trace : list of (direction, frontier, edges_examined, discovered), one per level
        Pull levels count the in-edges actually examined (the scan stops at the first hit).
    launches : int
        Kernel launches issued.
    host_syncs : int
        Device-to-host reads (each waits for the device).
    """
    import cupy as cp

    n = A.nrows
    optr, oidx, iptr, iidx = A._indptr, A._indices, AT._indptr, AT._indices
    types = _p.index_types(optr, oidx, iptr, iidx)
    init, kern = _kernels_for(types)
    level = cp.full(n, -1, dtype=cp.int32)
    parent = cp.full(n, -1, dtype=cp.int32) if parents else level
    launches = 2 if parents else 1  # the fills
    qs0, qs1 = cp.empty(max(n, 1), dtype=cp.int32), cp.empty(max(n, 1), dtype=cp.int32)
    nbig = int(A.nvals) // _p.BIG + int(A.nvals) // _p.CHUNK + 16
    qb0, qb1 = cp.empty(nbig, dtype=cp.int64), cp.empty(nbig, dtype=cp.int64)
    tr = cp.empty((3, n + 2), dtype=cp.int64)  # per level: direction, frontier, edges examined
    ctl = cp.zeros(4 * _SLOT, dtype=cp.uint64)
    init((1,), (1,), (optr, np.int32(source), level, parent, np.int32(parents), qs0, qb0, ctl))
    blocks = _p.grid_size(kern, ("bfs",) + types)
    md = -1 if max_depth is None else int(max_depth)
    bar = _p.barrier()
    kern((blocks,), (_p.BLOCK,), (optr, oidx, iptr, iidx, np.int32(n), np.int64(A.nvals), level, parent,
                                  np.int32(parents), qs0, qs1, qb0, qb1, ctl, tr, np.int64(n + 2),
                                  np.int32(_MODES[direction]), np.int32(md), np.float64(alpha), np.float64(beta), bar))
    launches += 4  # ctl and barrier memsets, init, the search
    depth, failed = (int(x) for x in ctl[3 * _SLOT:3 * _SLOT + 2].get())
    host_syncs = 1
    if failed:
        raise RuntimeError("bfs: a grid barrier timed out (not every block was resident); no result")
    trace = []
    if depth:
        d, front, exam = tr[:, :depth + 1].get()
        launches += 1
        host_syncs += 1
        trace = [("pull" if d[i] == 2 else "push", int(front[i]), int(exam[i]), int(front[i + 1]))
                 for i in range(depth)]
    return level, (parent if parents else None), trace, launches, host_syncs
