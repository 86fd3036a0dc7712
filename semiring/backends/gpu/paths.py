"""Device-resident delta-stepping SSSP (the near-far variant): one persistent kernel, one grid
barrier per round, no host synchronization until the distances are final.

The vertices whose distance improved are kept in two worklists: *near* (distance below the
current bucket's upper bound ``thr``) and *far*. Each round relaxes the out-edges of the near
list with ``atomicMin`` on the distance (non-negative floats compare like their bit patterns,
so doubles and floats use the integer atomic on their bits); an improved vertex joins the next
near list or the far list, each at most once (per-vertex stamps dedupe the lists, so neither
can outgrow n). When the near list empties, the bucket is done: ``thr`` moves on by ``delta``
(or jumps to the smallest far distance plus ``delta`` when the buckets between are empty), and
the far list is split into the new near list and what stays far; entries already settled are
dropped. The search ends when both lists are empty. Near lists use the BFS kernel's two-tier
load balance (hubs split into chunks of edges, one block each).

References: Meyer, Sanders, "Delta-stepping: a parallelizable shortest path algorithm",
J. Algorithms 49(1), 2003; Davidson, Baxter, Garland, Owens, "Work-efficient parallel GPU
methods for single-source shortest paths", IPDPS 2014 (near-far); Wang et al., "Gunrock",
TOPC 2017.
"""

from __future__ import annotations

import threading

import numpy as np

from ..._once import once_item
from ..results import PathsResult
from . import _persistent as _p

_SLOT = 8

_SRC = r"""
#define NSMALL 0
#define NBIG 1
#define NQ 2
#define RELAXED 3

__device__ __forceinline__ ull key_of(long long d) { return (ull)d; }
__device__ __forceinline__ ull key_of(double d) { return (ull)__double_as_longlong(d); }
__device__ __forceinline__ ull key_of(float d) { return (ull)__float_as_uint(d); }
__device__ __forceinline__ long long dist_of(ull k, long long) { return (long long)k; }
__device__ __forceinline__ double dist_of(ull k, double) { return __longlong_as_double((long long)k); }
__device__ __forceinline__ float dist_of(ull k, float) { return __uint_as_float((unsigned)k); }
__device__ __forceinline__ long long atomic_min(long long* p, long long x) { return atomicMin(p, x); }
__device__ __forceinline__ double atomic_min(double* p, double x) {
    return __longlong_as_double(atomicMin((long long*)p, __double_as_longlong(x)));
}
__device__ __forceinline__ float atomic_min(float* p, float x) {
    return __int_as_float(atomicMin((int*)p, __float_as_int(x)));
}

// Put v (where pred) on a worklist once per stamp.
__device__ __forceinline__ bool claim(bool pred, int* mark, int v, int stamp) {
    return pred && atomicExch(&mark[v], stamp) != stamp;
}

extern "C" __global__ void sssp_fused(const IPT* optr, const IXT* oidx, const TW* w, int n, TD delta,
        TD* dist, int* nmark, int* fmark, int* qs0, int* qs1, long long* qb0, long long* qb1,
        int* far0, int* far1, ull* ctl, unsigned* bar) {
    const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const long long nthreads = (long long)gridDim.x * blockDim.x;
    const int lane = lane_id();
    ull* farc = ctl + 3 * SLOT;       // far-list sizes, three epochs in rotation
    ull* farmin = ctl + 3 * SLOT + 3; // smallest distance put on each epoch's far list (as a key)
    TD thr = delta;
    int it = 0, epoch = 0;
    long long rounds = 0, splits = 0;
    while (true) {
        ull* cur = ctl + (it % 3) * SLOT;
        ull* nxt = ctl + ((it + 1) % 3) * SLOT;
        ull* old = ctl + ((it + 2) % 3) * SLOT;
        const ull nq = ld(cur + NQ);
        if (tid == 0) { for (int k = 0; k < SLOT; ++k) old[k] = 0; }
        int* qs = (it & 1) ? qs1 : qs0;  int* qs_next = (it & 1) ? qs0 : qs1;
        long long* qb = (it & 1) ? qb1 : qb0;  long long* qb_next = (it & 1) ? qb0 : qb1;
        int* far = (epoch & 1) ? far1 : far0;  int* far_next = (epoch & 1) ? far0 : far1;
        const int stamp = it + 1;
        ull my_relaxed = 0;
        if (nq > 0) {
            // relax the near list's out-edges
            expand(optr, qs, ld(cur + NSMALL), qb, ld(cur + NBIG), tid, nthreads,
                   [&](int u, long long p, bool valid) {
                bool to_near = false, to_far = false;
                int v = 0;
                long long d = 0;
                if (valid) {
                    v = (int)oidx[p];
                    const TD nd = ld(dist + u) + (TD)w[p];
                    ++my_relaxed;
                    if (nd < ld(dist + v) && nd < atomic_min(dist + v, nd)) {
                        if (nd < thr) to_near = true;
                        else {
                            to_far = true;
                            atomicMin(farmin + epoch % 3, key_of(nd));
                        }
                    }
                }
                to_near = claim(to_near, nmark, v, stamp);
                if (to_near) d = (long long)(optr[v + 1] - optr[v]);
                frontier_append(to_near, v, d, qs_next, nxt + NSMALL, qb_next, nxt + NBIG);
                warp_append(claim(to_far, fmark, v, epoch), v, far, farc + epoch % 3);
                warp_add(to_near ? 1ull : 0ull, nxt + NQ);
            });
            ++rounds;
        } else {
            // the bucket is settled: split the far list into the next near list and the rest
            const ull nfar = ld(farc + epoch % 3);
            if (nfar == 0) break;
            const TD lo = thr;
            thr = thr + delta;
            const TD mf = dist_of(ld(farmin + epoch % 3), delta);
            if (mf + delta > thr) thr = mf + delta;  // skip empty buckets
            if (tid == 0) { farc[(epoch + 2) % 3] = 0; farmin[(epoch + 2) % 3] = ~0ull; }
            const int e2 = epoch + 1;
            for (long long base = tid - lane; base < (long long)nfar; base += nthreads) {
                const long long i = base + lane;
                int v = 0;
                bool keep_near = false, keep_far = false;
                if (i < (long long)nfar) {
                    v = ld(far + i);
                    const TD dv = ld(dist + v);
                    if (dv >= lo) {  // below lo it was settled through a near list already
                        if (dv < thr) keep_near = true;
                        else { keep_far = true; atomicMin(farmin + e2 % 3, key_of(dv)); }
                    }
                }
                keep_near = claim(keep_near, nmark, v, stamp);
                const long long d = keep_near ? (long long)(optr[v + 1] - optr[v]) : 0;
                frontier_append(keep_near, v, d, qs_next, nxt + NSMALL, qb_next, nxt + NBIG);
                warp_add(keep_near ? 1ull : 0ull, nxt + NQ);
                warp_append(claim(keep_far, fmark, v, e2), v, far_next, farc + e2 % 3);
            }
            epoch = e2;
            ++splits;
        }
        warp_add(my_relaxed, ctl + 3 * SLOT + 6);
        if (!grid_sync(bar)) break;
        ++it;
    }
    if (tid == 0) {
        ctl[4 * SLOT] = (ull)rounds;
        ctl[4 * SLOT + 1] = (ull)splits;
        ctl[4 * SLOT + 2] = ((volatile unsigned*)bar)[2];
    }
}

extern "C" __global__ void sssp_init(const IPT* optr, int s, TD* dist, int* nmark, int* qs, long long* qb,
                                     ull* ctl) {
    dist[s] = (TD)0;
    nmark[s] = 0;
    const long long d = (long long)(optr[s + 1] - optr[s]);
    if (d < BIG) { qs[0] = s; ctl[NSMALL] = 1; }
    else { const long long c = (d + CHUNK - 1) / CHUNK; for (long long k = 0; k < c; ++k) qb[k] = (k << 32) | s; ctl[NBIG] = c; }
    ctl[NQ] = 1;
    for (int k = 0; k < 3; ++k) ctl[3 * SLOT + 3 + k] = ~0ull;
}
"""

_kernels = {}
_lock = threading.RLock()  # one compilation per key when threads ask together (semiring._once)

#: CUDA type of the distances per weight kind: integers add in int64, floats in their own type.
_DIST = {"i": ("long long", np.int64), "u": ("long long", np.int64), "f4": ("float", np.float32),
         "f8": ("double", np.float64)}


def dist_type(wdtype):
    """(CUDA type, NumPy dtype) of the distances for weights of ``wdtype``, or None if unsupported."""
    wdtype = np.dtype(wdtype)
    if wdtype.kind in "iu" and wdtype != np.uint64:
        return _DIST["i"]
    if wdtype.kind == "f" and wdtype.itemsize in (4, 8):
        return _DIST[f"f{wdtype.itemsize}"]
    return None


def _ctype(dtype):
    from .reduce import CTYPE

    return CTYPE[np.dtype(dtype).name]


def _kernels_for(ipt, ixt, wdtype):
    import cupy as cp

    td, _ = dist_type(wdtype)
    key = (ipt, ixt, np.dtype(wdtype).name, cp.cuda.runtime.getDevice())

    def build():
        head = (f"typedef {ipt} IPT; typedef {ixt} IXT; typedef {_ctype(wdtype)} TW; typedef {td} TD;\n"
                f"#define SLOT {_SLOT}\n")
        return _p.compile_kernel(head + _SRC, "sssp_init"), _p.compile_kernel(head + _SRC, "sssp_fused")

    return once_item(_kernels, key, build, _lock)


def sssp(W, source, delta):
    """Distances from ``source`` over the non-negative weights of W, all on the device.

    Parameters
    ----------
    W : Matrix on the GPU, shape (n, n)
        Weighted out-edges; weights >= 0 (checked by the caller), of an integer type other
        than uint64 or float32/float64.
    source : int
    delta : number > 0
        Bucket width.

    Returns
    -------
    PathsResult
        ``dist`` (cupy, shape (n,): int64 for integer weights with INT64_MAX where unreached,
        else the weight's float type with inf), ``rounds`` (relaxation rounds, grid barriers
        between them; splits not counted), ``splits`` (bucket advances), ``relaxations``
        (edges relaxed), ``launches``, ``host_syncs``.
    """
    import cupy as cp

    n = W.nrows
    optr, oidx = W._indptr, W._indices
    ipt, ixt = _p.index_types(optr, oidx)
    init, kern = _kernels_for(ipt, ixt, W.dtype)
    _, dt = dist_type(W.dtype)
    inf = np.iinfo(np.int64).max if dt == np.int64 else np.inf
    dist = cp.full(n, inf, dtype=dt)
    nmark = cp.full(n, -1, dtype=cp.int32)
    fmark = cp.full(n, -1, dtype=cp.int32)
    qs0, qs1, far0, far1 = (cp.empty(max(n, 1), dtype=cp.int32) for _ in range(4))
    nbig = int(W.nvals) // _p.BIG + int(W.nvals) // _p.CHUNK + 16
    qb0, qb1 = cp.empty(nbig, dtype=cp.int64), cp.empty(nbig, dtype=cp.int64)
    ctl = cp.zeros(5 * _SLOT, dtype=cp.uint64)
    bar = _p.barrier()
    init((1,), (1,), (optr, np.int32(source), dist, nmark, qs0, qb0, ctl))
    blocks = _p.grid_size(kern, ("sssp", ipt, ixt, np.dtype(W.dtype).name))
    kern((blocks,), (_p.BLOCK,), (optr, oidx, W._values, np.int32(n), dt(delta), dist, nmark, fmark,
                                  qs0, qs1, qb0, qb1, far0, far1, ctl, bar))
    c = ctl.get()
    rounds, splits, failed = (int(x) for x in c[4 * _SLOT:4 * _SLOT + 3])
    if failed:
        raise RuntimeError("sssp: a grid barrier timed out (not every block was resident); no result")
    # launches: 3 fills + ctl and barrier memsets + init + the search
    return PathsResult(dist, rounds, launches=7, host_syncs=1, splits=splits, relaxations=int(c[3 * _SLOT + 6]))
