// The level-synchronous SSSP strategies (backends/gpu/sssp_strategies.py).
// Defined by the host: IPT, IXT, TD (distances), HASH_SLOTS, HASH_BITS.
#include "common.cuh"
#define CHANGED 0
#define NEGATIVE 1
#define OVERFLOW 2

__device__ __forceinline__ long long atomic_min_td(long long* p, long long x) { return atomicMin(p, x); }

// atomicMin on a double by compare-and-swap (any sign). Returns the value before this
// thread's write, or the current value (<= x) when there was nothing to lower.
__device__ __forceinline__ double atomic_min_td(double* p, double x) {
    ull* a = (ull*)p;
    ull old = *((volatile ull*)a);
    while (x < __longlong_as_double((long long)old)) {
        const ull seen = atomicCAS(a, old, (ull)__double_as_longlong(x));
        if (seen == old) break;
        old = seen;
    }
    return __longlong_as_double((long long)old);
}

__device__ __forceinline__ TD ld_dist(const TD* dist, long long v) { return ((volatile const TD*)dist)[v]; }

// Relax an edge to v of weight wp from a vertex at distance du (finite): true when this thread
// lowered dist[v] (to *nd). A candidate below floor proves a negative cycle: flagged, not written.
__device__ __forceinline__ bool relax(TD du, TD wp, int v, TD* dist, TD floor, ull* flags, TD* nd) {
    if (wp < (TD)0 && du < floor - wp) { flags[NEGATIVE] = 1ull; return false; }
    *nd = du + wp;
    if (!(*nd < ld_dist(dist, v))) return false;
    return *nd < atomic_min_td(dist + v, *nd);
}

// Append v to list q (capacity cap; len[0] its length, len[1] the sum of its out-degrees)
// with per-element global atomics.
__device__ __forceinline__ void append(int v, int* q, long long cap, ull* len, const IPT* optr, ull* flags) {
    const ull k = atomicAdd(len, 1ull);
    if (k >= (ull)cap) { flags[OVERFLOW] = 1ull; return; }
    q[k] = v;
    atomicAdd(len + 1, (ull)(optr[v + 1] - optr[v]));
}

// The worklist entry that owns expanded edge e: the first i with incl[i] > e (incl: inclusive
// prefix sums of the entries' out-degrees, m > 0 entries, e < incl[m - 1]).
__device__ __forceinline__ int owner(const long long* incl, int m, long long e) {
    int lo = 0, hi = m - 1;
    while (lo < hi) {
        const int mid = lo + (hi - lo) / 2;
        if (incl[mid] > e) hi = mid; else lo = mid + 1;
    }
    return lo;
}

// Expanded edge e of worklist (wl, incl, m): its tail u and CSR position p.
__device__ __forceinline__ void edge_of(const IPT* optr, const int* wl, const long long* incl, int m,
                                        long long e, int* u, long long* p) {
    const int i = owner(incl, m, e);
    const long long start = i ? incl[i - 1] : 0;
    *u = wl[i];
    *p = (long long)optr[*u] + (e - start);
}

// Topology-driven round: every edge, one thread each.
extern "C" __global__ void sssp_topology(const IXT* rows, const IXT* oidx, const TD* w, long long nnz,
                                         TD* dist, TD inf, TD floor, ull* flags) {
    bool changed = false;
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x; e < nnz; e += stride) {
        const TD du = ld_dist(dist, (long long)rows[e]);
        if (du == inf) continue;
        TD nd;
        if (relax(du, w[e], (int)oidx[e], dist, floor, flags, &nd)) changed = true;
    }
    if (changed) flags[CHANGED] = 1ull;
}

// Out-degrees of worklist entries (for the prefix sums of the expansion).
extern "C" __global__ void sssp_degrees(const IPT* optr, const int* wl, int m, long long* deg) {
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < m; i += stride) {
        const int u = wl[i];
        deg[i] = (long long)(optr[u + 1] - optr[u]);
    }
}

// Data-driven round, duplicates allowed: every improved target is appended.
extern "C" __global__ void sssp_relax_atomic(const IPT* optr, const IXT* oidx, const TD* w, const int* wl,
        const long long* incl, int m, long long nedges, TD* dist, TD floor, int* next, long long cap,
        ull* next_len, ull* flags) {
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x; e < nedges; e += stride) {
        int u; long long p; TD nd;
        edge_of(optr, wl, incl, m, e, &u, &p);
        const int v = (int)oidx[p];
        if (relax(ld_dist(dist, u), w[p], v, dist, floor, flags, &nd)) append(v, next, cap, next_len, optr, flags);
    }
}

// Data-driven round with per-block hash culling in shared memory.
extern "C" __global__ void sssp_relax_hash(const IPT* optr, const IXT* oidx, const TD* w, const int* wl,
        const long long* incl, int m, long long nedges, TD* dist, TD floor, int* next, long long cap,
        ull* next_len, ull* flags) {
    __shared__ int table[HASH_SLOTS];
    for (int k = threadIdx.x; k < HASH_SLOTS; k += blockDim.x) table[k] = -1;
    __syncthreads();
    volatile int* t = table;
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x; e < nedges; e += stride) {
        int u; long long p; TD nd;
        edge_of(optr, wl, incl, m, e, &u, &p);
        const int v = (int)oidx[p];
        if (relax(ld_dist(dist, u), w[p], v, dist, floor, flags, &nd)) {
            // a slot holding v means a thread of this block has appended v (it writes before it appends)
            const unsigned slot = ((unsigned)v * 2654435761u) >> (32 - HASH_BITS);
            if (t[slot] != v) {
                t[slot] = v;
                append(v, next, cap, next_len, optr, flags);
            }
        }
    }
}

// Filter pass: the first claimant of each vertex survives (raw length read on the device).
extern "C" __global__ void sssp_filter(const IPT* optr, const int* raw, const ull* raw_len, int* stamp, int round,
                                       int* next, long long cap, ull* next_len, ull* flags) {
    const long long m = (long long)*((volatile const ull*)raw_len);
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < m; i += stride) {
        const int v = raw[i];
        if (atomicExch(stamp + v, round) != round) append(v, next, cap, next_len, optr, flags);
    }
}

// Data-driven round that only flags improved targets (for the prefix-sum compaction).
extern "C" __global__ void sssp_relax_flag(const IPT* optr, const IXT* oidx, const TD* w, const int* wl,
        const long long* incl, int m, long long nedges, TD* dist, TD floor, int* flag, ull* flags) {
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x; e < nedges; e += stride) {
        int u; long long p; TD nd;
        edge_of(optr, wl, incl, m, e, &u, &p);
        const int v = (int)oidx[p];
        if (relax(ld_dist(dist, u), w[p], v, dist, floor, flags, &nd)) flag[v] = 1;
    }
}

// Scatter of the flagged vertices to their scan positions: pos = inclusive scan of the flags
// (pos[v] - 1 is the exclusive scan at a flagged v), dpos = inclusive scan of the flagged
// out-degrees (the next list's incl). Clears the flags; the last thread writes the lengths.
extern "C" __global__ void sssp_scatter(int* flag, const int* pos, const long long* dpos, int n, int* next,
                                        long long* next_incl, ull* next_len) {
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x; v < n; v += stride) {
        if (flag[v]) {
            const int k = pos[v] - 1;
            next[k] = (int)v;
            next_incl[k] = dpos[v];
            flag[v] = 0;
        }
        if (v == n - 1) { next_len[0] = (ull)pos[v]; next_len[1] = (ull)dpos[v]; }
    }
}

// Near-far round: improved targets below thr join the near pile (once per round), the others
// the far pile (once per epoch).
extern "C" __global__ void sssp_relax_near_far(const IPT* optr, const IXT* oidx, const TD* w, const int* wl,
        const long long* incl, int m, long long nedges, TD* dist, TD floor, TD thr, int* near, long long ncap,
        ull* near_len, int* nstamp, int round, int* far, long long fcap, ull* far_len, int* fstamp, int epoch,
        ull* flags) {
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x; e < nedges; e += stride) {
        int u; long long p; TD nd;
        edge_of(optr, wl, incl, m, e, &u, &p);
        const int v = (int)oidx[p];
        if (relax(ld_dist(dist, u), w[p], v, dist, floor, flags, &nd)) {
            if (nd < thr) {
                if (atomicExch(nstamp + v, round) != round) append(v, near, ncap, near_len, optr, flags);
            } else if (atomicExch(fstamp + v, epoch) != epoch) {
                append(v, far, fcap, far_len, optr, flags);
            }
        }
    }
}

// Smallest distance >= lo among the far pile's vertices (into *fmin, preset to inf).
extern "C" __global__ void sssp_far_min(const int* far, const ull* far_len, const TD* dist, TD lo, TD* fmin) {
    const long long m = (long long)*((volatile const ull*)far_len);
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < m; i += stride) {
        const TD d = dist[far[i]];
        if (d >= lo) atomic_min_td(fmin, d);
    }
}

// Split of the far pile at the new threshold thr: below lo dropped (settled), below thr to the
// near pile, the rest to the next epoch's far pile.
extern "C" __global__ void sssp_split(const IPT* optr, const int* far, const ull* far_len, const TD* dist, TD lo,
        TD thr, int* near, long long ncap, ull* near_len, int* nstamp, int round, int* far_next, long long fcap,
        ull* far_next_len, int* fstamp, int epoch, ull* flags) {
    const long long m = (long long)*((volatile const ull*)far_len);
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < m; i += stride) {
        const int v = far[i];
        const TD d = dist[v];
        if (d < lo) continue;
        if (d < thr) {
            if (atomicExch(nstamp + v, round) != round) append(v, near, ncap, near_len, optr, flags);
        } else if (atomicExch(fstamp + v, epoch) != epoch) {
            append(v, far_next, fcap, far_next_len, optr, flags);
        }
    }
}
