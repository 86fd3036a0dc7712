"""Device-resident, direction-optimizing BFS: one persistent kernel runs every
level, with one grid barrier per level and no host synchronization until the search ends.

Per level, every thread reads the same frontier counters and takes the same direction
decision: Beamer's rule of :mod:`semiring.backends.direction`, evaluated in the kernel with
that module's ALPHA and BETA:

- push (top-down): the frontier is kept in two queues. Vertices of small out-degree are
  expanded by groups of ``TPV`` lanes; vertices of large out-degree are split into chunks of
  ``CHUNK`` edges ("node splitting"), each chunk expanded by a whole block, so one hub cannot
  serialize a level. A neighbour is claimed with ``atomicCAS(level, -1, d + 1)``; the winner
  records the parent and appends the vertex to the next frontier (warp-aggregated atomics).
- pull (bottom-up): one thread per unvisited vertex scans its in-edges and stops at the first
  neighbour on the current level (the ``any`` monoid's early exit), looked up in a frontier
  bitmap (n / 8 bytes, which stays in L2 where the level array would not).

The level array is initialized, and the result written in the Vector's bitmap form, inside
the same launch; the workspace (queues, bitmaps, counters, trace) is kept between searches.

Counters (frontier sizes, frontier out-edges, edges examined) live in a small device array
with three rotating slots, so zeroing the slot of level d + 2 needs no extra barrier.

References: Beamer, Asanovic, Patterson, "Direction-optimizing breadth-first search", SC 2012;
Merrill, Garland, Grimshaw, "Scalable GPU graph traversal", PPoPP 2012 (warp/CTA expansion);
Wang et al., "Gunrock: GPU graph analytics", TOPC 2017; Hong et al., "Accelerating CUDA graph
algorithms at maximum warp", PPoPP 2011 (virtual warps).
"""

from __future__ import annotations

import threading

import numpy as np

from ..._once import once_item
from ..direction import ALPHA, BETA
from ..results import TraversalResult
from . import _persistent as _p

#: Slots of the control array: 8 counters per level, three levels in rotation.
_SLOT = 8
#: Frontier out-edges above which a push level reads a neighbour's level before its CAS.
PRECHECK_EDGES = 65536
#: Frontier out-edges up to which a push level runs on a sub-grid of SUB_BLOCKS_PER_SM blocks per
#: SM behind its own barrier (see the kernel); 0 turns the sub-grid off.
SUB_EDGES = 32768
SUB_BLOCKS_PER_SM = 1
#: Levels a search must have run before it may use the sub-grid (short searches, such as on
#: Kronecker graphs, never do: they gain nothing and each switch costs a grid barrier).
SUB_MIN_DEPTH = 16

_SRC = r"""
// A vertex won by this lane (pred, out-degree d) joins the next frontier; count its out-edges and itself.
__device__ __forceinline__ void discovered(bool pred, int v, long long d, int* qs, ull* ctl_next,
        long long* qb, ull& mf, ull& nq) {
    if (!pred) d = 0;
    frontier_append(pred, v, d, qs, ctl_next + NSMALL, qb, ctl_next + NBIG);
    mf += (ull)d;
    nq += pred ? 1 : 0;
}

__device__ __forceinline__ bool has_bit(const unsigned* bits, int v) { return (ld(bits + (v >> 5)) >> (v & 31)) & 1u; }

extern "C" __global__ void __launch_bounds__(BLOCK_THREADS, 4) bfs_fused(const IPT* optr, const IXT* oidx, const IPT2* iptr, const IXT2* iidx,
        int n, long long nnz, int source, int* level, int* parent, int with_parent,
        int* qs0, int* qs1, long long* qb0, long long* qb1, unsigned* fbits, ull* ctl, long long* tr, long long trcap,
        int mode, int max_depth, double alpha, double beta, unsigned* bar, int sub_blocks, long long* state,
        long long* out_level, long long* out_parent, bool* out_present) {
    const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const long long nthreads = (long long)gridDim.x * blockDim.x;
    const int lane = lane_id();
    // frontier bitmaps (bit v: v is on the level), three in rotation: read d, write d + 1, clear d + 2
    const long long words = ((long long)n + 31) / 32;
    // start: every level unknown, counters and bitmaps zero, then the source alone on level 0
    for (long long v = tid; v < n; v += nthreads) level[v] = -1;
    for (long long k = tid; k < 3 * words; k += nthreads) fbits[k] = 0u;
    if (tid == 0) { for (int k = 0; k < 3 * SLOT; ++k) ctl[k] = 0; }
    grid_sync(bar);
    if (tid == 0) {
        fbits[source >> 5] = 1u << (source & 31);
        level[source] = 0;
        if (with_parent) parent[source] = source;
        const long long d = (long long)(optr[source + 1] - optr[source]);
        frontier_append_one(source, d, qs0, ctl + NSMALL, qb0, ctl + NBIG);
        ctl[MF] = (ull)d; ctl[NQ] = 1;
    }
    grid_sync(bar);
    bool pull = (mode == 2);
    ull nq_last = 0;
    long long unexplored = nnz;
    int depth = 0, decided = -1;
    // Beamer's rule, once per level (the sub-grid and the grid may both look at the same level)
    auto decide = [&](ull nq, ull mf) {
        if (decided == depth) return;
        decided = depth;
        if (mode == 0) {
            if (!pull) pull = nq > nq_last && (double)mf > (double)unexplored / alpha;
            else pull = !(nq < nq_last && (double)nq < (double)n / beta);
        }
    };
    // One level over threads t = 0 .. nt - 1 (the grid, or the sub-grid of the first blocks).
    auto run_level = [&](ull nq, ull mf, long long t, long long nt) {
        ull* cur = ctl + (depth % 3) * SLOT;
        ull* nxt = ctl + ((depth + 1) % 3) * SLOT;
        ull* old = ctl + ((depth + 2) % 3) * SLOT;
        if (t == 0) { for (int k = 0; k < SLOT; ++k) old[k] = 0; }
        const unsigned* bits = fbits + (depth % 3) * words;
        unsigned* bits_next = fbits + ((depth + 1) % 3) * words;
        unsigned* bits_old = fbits + ((depth + 2) % 3) * words;
        for (long long k = t; k < words; k += nt) bits_old[k] = 0u;
        int* qs = (depth & 1) ? qs1 : qs0;  int* qs_next = (depth & 1) ? qs0 : qs1;
        long long* qb = (depth & 1) ? qb1 : qb0;  long long* qb_next = (depth & 1) ? qb0 : qb1;
        ull my_mf = 0, my_nq = 0, my_exam = 0;
        const int nd = depth + 1;
        if (!pull) {
            // top-down: claim each unvisited out-neighbour of the frontier with a CAS on its level.
            // A small frontier (road graphs) goes straight to the CAS: one dependent round trip
            // less per level; a large one first reads the level, so visited vertices cost no atomic.
            const bool precheck = mf > (ull)PRECHECK;
            expand(optr, qs, ld(cur + NSMALL), qb, ld(cur + NBIG), t, nt,
                   [&](int u, long long p, bool valid) {
                bool won = false;
                int v = 0;
                long long dv = 0;
                if (valid) {
                    v = (int)oidx[p];
                    if (!precheck || ld(level + v) < 0) {
                        dv = (long long)(optr[v + 1] - optr[v]);  // issued before the CAS resolves
                        if (atomicCAS(&level[v], -1, nd) == -1) {
                            won = true;
                            if (with_parent) parent[v] = u;
                            atomicOr(bits_next + (v >> 5), 1u << (v & 31));
                        }
                    }
                }
                discovered(won, v, dv, qs_next, nxt, qb_next, my_mf, my_nq);
            });
            if (t == 0) nxt[EXAMINED] = mf;
        } else {
            // bottom-up: each unvisited vertex looks for one in-neighbour on this level (a bitmap
            // lookup: n / 8 bytes that stay in L2, where level[] would miss); a warp's 32 vertices
            // are one bitmap word, written with one store
            for (long long base = t - lane; base < n; base += nt) {
                int v = (int)(base + lane);
                bool won = false;
                if (v < n && ld(level + v) < 0) {
                    long long hi = iptr[v + 1];
                    for (long long p = iptr[v]; p < hi; ++p) {
                        int u = (int)iidx[p];
                        ++my_exam;
                        if (has_bit(bits, u)) { level[v] = nd; if (with_parent) parent[v] = u; won = true; break; }
                    }
                }
                const unsigned word = __ballot_sync(FULL, won);
                if (lane == 0 && word) bits_next[base >> 5] = word;
                discovered(won, v, won ? (long long)(optr[v + 1] - optr[v]) : 0, qs_next, nxt, qb_next, my_mf, my_nq);
            }
            warp_add(my_exam, nxt + EXAMINED);
        }
        warp_add(my_mf, nxt + MF);
        warp_add(my_nq, nxt + NQ);
        if (t == 0 && depth < trcap) tr[2 + 3 * depth] = pull ? 2 : 1;
    };
    // After a level's barrier: its trace and the heuristic's state.
    auto finish_level = [&](ull nq, ull mf) {
        ull* nxt = ctl + ((depth + 1) % 3) * SLOT;
        if (tid == 0 && depth < trcap) tr[2 + 3 * depth + 2] = (long long)ld(nxt + EXAMINED);
        unexplored -= (long long)mf;
        nq_last = nq;
        ++depth;
    };
    while (true) {
        ull* cur = ctl + (depth % 3) * SLOT;
        ull nq = ld(cur + NQ), mf = ld(cur + MF);
        if (tid == 0 && depth < trcap) tr[2 + 3 * depth + 1] = (long long)nq;
        if (nq == 0 || depth == max_depth) break;
        decide(nq, mf);
        if (depth >= SUB_MIN_DEPTH && !pull && mf <= (ull)SUB_EDGES && sub_blocks < (int)gridDim.x) {
            // A small push frontier of a long search (road graphs): the first sub_blocks blocks run
            // levels alone, behind a barrier over sub_blocks blocks (cheaper than one over the
            // whole grid), until the frontier grows, turns to pull, or the search ends; the other
            // blocks wait at the grid barrier.
            if ((int)blockIdx.x < sub_blocks) {
                const long long nt = (long long)sub_blocks * blockDim.x;
                while (true) {
                    run_level(nq, mf, tid, nt);
                    if (!sub_sync(bar, (unsigned)sub_blocks)) break;
                    finish_level(nq, mf);
                    cur = ctl + (depth % 3) * SLOT;
                    nq = ld(cur + NQ); mf = ld(cur + MF);
                    if (tid == 0 && depth < trcap) tr[2 + 3 * depth + 1] = (long long)nq;
                    if (nq == 0 || depth == max_depth) break;
                    decide(nq, mf);
                    if (pull || mf > (ull)SUB_EDGES) break;
                }
                if (tid == 0) {
                    state[0] = depth; state[1] = (long long)nq_last; state[2] = unexplored;
                    state[3] = pull; state[4] = decided;
                }
            }
            if (!grid_sync(bar)) break;
            depth = (int)ld(state + 0); nq_last = (ull)ld(state + 1); unexplored = ld(state + 2);
            pull = ld(state + 3) != 0; decided = (int)ld(state + 4);
            continue;
        }
        run_level(nq, mf, tid, nthreads);
        if (!grid_sync(bar)) break;
        finish_level(nq, mf);
    }
    // results in the Vector's bitmap form: int64 values (0 where absent) and a presence mask
    for (long long v = tid; v < n; v += nthreads) {
        const int lv = ld(level + v);
        out_present[v] = lv >= 0;
        out_level[v] = lv >= 0 ? lv : 0;
        if (with_parent) out_parent[v] = lv >= 0 ? ld(parent + v) : 0;
    }
    if (tid == 0) { tr[0] = depth; tr[1] = ((volatile unsigned*)bar)[2]; }
    grid_exit(bar);
}
"""

_kernels = {}
_lock = threading.RLock()  # one compilation per key when threads ask together (semiring._once)
_MODES = {"auto": 0, "push": 1, "pull": 2}



def _kernels_for(types):
    """The fused kernel for these index types (compiled once per types and device)."""
    import cupy as cp

    key = (types, PRECHECK_EDGES, SUB_EDGES, SUB_MIN_DEPTH, cp.cuda.runtime.getDevice())

    def build():
        ipt, ixt, ipt2, ixt2 = types
        head = (f"typedef {ipt} IPT; typedef {ixt} IXT; typedef {ipt2} IPT2; typedef {ixt2} IXT2;\n"
                f"#define SLOT {_SLOT}\n#define PRECHECK {PRECHECK_EDGES}\n#define SUB_EDGES {SUB_EDGES}\n#define SUB_MIN_DEPTH {SUB_MIN_DEPTH}\n"
                "#define NSMALL 0\n#define NBIG 1\n#define MF 2\n#define EXAMINED 3\n#define NQ 4\n")
        return _p.compile_kernel(head + _SRC, "bfs_fused")

    return once_item(_kernels, key, build, _lock)


def supported(A):
    """Whether the fused kernel can run on A (vertex ids must fit in int32)."""
    return A.nrows < 2**31 - 1


def bfs(A, AT, source, *, parents=False, direction="auto", max_depth=None, alpha=ALPHA, beta=BETA):
    """Run a whole BFS on the device in one persistent launch.

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
        Beamer's switching thresholds (:mod:`semiring.backends.direction`).

    Returns
    -------
    TraversalResult
        ``level`` (cupy int64, shape (n,), 0 where unreached), ``present`` (cupy bool),
        ``parent`` (cupy int64 or None), ``nvals``, ``trace`` (one entry per level; pull
        levels count the in-edges actually examined, the scan stopping at the first hit),
        ``launches`` (kernel launches issued), ``host_syncs`` (device-to-host reads, each
        waiting for the device).
    """
    import cupy as cp

    n = A.nrows
    optr, oidx, iptr, iidx = A._indptr, A._indices, AT._indptr, AT._indices
    types = _p.index_types(optr, oidx, iptr, iidx)
    kern = _kernels_for(types)
    key, ws = _workspace(n, int(A.nvals), parents)
    out_level = cp.empty(n, dtype=cp.int64)
    out_parent = cp.empty(n, dtype=cp.int64) if parents else out_level
    present = cp.empty(n, dtype=cp.bool_)
    blocks = _p.grid_size(kern, ("bfs",) + types)
    md = -1 if max_depth is None else int(max_depth)
    sub = min(blocks, max(1, SUB_BLOCKS_PER_SM) * _p.sm_count()) if SUB_EDGES > 0 else blocks
    kern((blocks,), (_p.BLOCK,), (optr, oidx, iptr, iidx, np.int32(n), np.int64(A.nvals), np.int32(source),
                                  ws["level"], ws["parent"], np.int32(parents), ws["qs0"], ws["qs1"], ws["qb0"],
                                  ws["qb1"], ws["fbits"], ws["ctl"], ws["tr"], np.int64(n + 2), np.int32(_MODES[direction]),
                                  np.int32(md), np.float64(alpha), np.float64(beta), ws["bar"], np.int32(sub), ws["state"], out_level,
                                  out_parent, present))
    launches, host_syncs = 1, 1
    head = ws["tr"][:2 + 3 * _TRACE].get()
    depth, failed = int(head[0]), int(head[1])
    if failed:
        ws["bar"][:] = 0
        _release(key, ws)
        raise RuntimeError("bfs: a grid barrier timed out (not every block was resident); no result")
    if depth >= _TRACE:  # a long search: the rest of its trace
        head = ws["tr"][:2 + 3 * (depth + 1)].get()
        host_syncs += 1
    _release(key, ws)
    lv = head[2:2 + 3 * (depth + 1)].reshape(-1, 3)
    trace = [("pull" if lv[i, 0] == 2 else "push", int(lv[i, 1]), int(lv[i, 2]), int(lv[i + 1, 1]))
             for i in range(depth)]
    nvals = 1 + sum(s[3] for s in trace)
    return TraversalResult.from_rows(out_level, present, (out_parent if parents else None), nvals, trace, launches,
                                     host_syncs)


#: Trace levels read back with the result in one copy (longer searches take a second copy).
_TRACE = 128
_workspaces = {}  # the idle workspace, one graph size at a time


def _workspace(n, nnz, parents):
    """``(key, ws)``: queues, counters, trace and barrier of a search on n vertices, kept
    between calls (the barrier words are left zeroed by every completed barrier).

    A search takes the idle workspace out of ``_workspaces`` and gives it back with
    :func:`_release` when done, so concurrent searches (other threads) never share one."""
    import cupy as cp

    key = (n, nnz, cp.cuda.runtime.getDevice())
    with _lock:
        ws = _workspaces.pop(key, None)
    if ws is None:
        nbig = nnz // _p.BIG + nnz // _p.CHUNK + 16
        ws = {"level": cp.empty(max(n, 1), dtype=cp.int32), "parent": cp.empty(max(n, 1), dtype=cp.int32),
              "qs0": cp.empty(max(n, 1), dtype=cp.int32), "qs1": cp.empty(max(n, 1), dtype=cp.int32),
              "qb0": cp.empty(nbig, dtype=cp.int64), "qb1": cp.empty(nbig, dtype=cp.int64),
              "fbits": cp.empty(3 * ((n + 31) // 32) + 1, dtype=cp.uint32),
              "ctl": cp.zeros(4 * _SLOT, dtype=cp.uint64), "tr": cp.zeros(2 + 3 * (n + 2), dtype=cp.int64),
              "bar": _p.barrier(), "state": cp.zeros(8, dtype=cp.int64)}
    return key, ws


def _release(key, ws):
    """Keep ``ws`` (its search completed) as the idle workspace for the next search."""
    with _lock:
        _workspaces.clear()  # one graph size at a time
        _workspaces[key] = ws
