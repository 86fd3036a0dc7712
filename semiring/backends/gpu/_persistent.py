"""Persistent (device-resident) kernels: one launch runs a whole algorithm, its levels or
rounds separated by grid-wide barriers instead of returns to the host.

A grid barrier needs every block resident at once, so the grid is sized from the kernel's
occupancy (blocks per SM x SMs, from the driver's occupancy calculator) and never larger.
The barrier is a counter and a generation word in global memory (sense reversal): the last
block to arrive resets the counter and bumps the generation; the others spin on it.
Shared CUDA helpers (the barrier, warp-aggregated queue appends, warp sums) are defined here
once and prepended to each kernel's source.

References: Xiao, Feng, "Inter-block GPU communication via fast barrier synchronization",
IPDPS 2010; Gupta, Stuart, Owens, "A study of persistent threads style GPU programming for
GPGPU workloads", InPar 2012.
"""

from __future__ import annotations

import numpy as np

#: Threads per block of the persistent kernels.
BLOCK = 256
#: Lanes per small-degree frontier vertex (a "virtual warp").
TPV = 8
#: Out-degree from which a frontier vertex is expanded by blocks, in chunks of CHUNK edges.
BIG = 256
CHUNK = 2048

HELPERS = r"""
#define FULL 0xffffffffu
#define TPV @TPV@
#define BIG @BIG@
#define CHUNK @CHUNK@
typedef unsigned long long ull;

// Grid-wide barrier over co-resident blocks: bar[0] counts arrivals, bar[1] is the generation,
// bar[2] a sticky failure flag: a block that waits more than ~4e9 cycles sets it, and every
// later barrier returns at once (the kernel then stops; the host raises).
__device__ __forceinline__ bool grid_sync(unsigned* bar) {
    __syncthreads();
    if (threadIdx.x == 0) {
        volatile unsigned* vbar = bar;
        if (!vbar[2]) {
            unsigned gen = vbar[1];
            __threadfence();
            if (atomicAdd(&bar[0], 1u) == gridDim.x - 1) {
                atomicExch(&bar[0], 0u);
                __threadfence();
                atomicAdd(&bar[1], 1u);
            } else {
                long long t0 = clock64();
                while (vbar[1] == gen) {
                    if (clock64() - t0 > 4000000000LL) { atomicExch(&bar[2], 1u); break; }
                }
            }
        }
        __threadfence();
    }
    __syncthreads();
    return ((volatile unsigned*)bar)[2] == 0;
}

// Loads of data other blocks write during the kernel: through L2, never a stale L1 line.
template <typename T> __device__ __forceinline__ T ld(const T* p) { return __ldcg(p); }

__device__ __forceinline__ unsigned lane_id() { return threadIdx.x & 31; }

// Append v to q (counter *len) for every lane with pred; one atomic per warp.
// Every lane of the warp must call it (the ballot is over the full warp).
__device__ __forceinline__ void warp_append(bool pred, int v, int* q, ull* len) {
    unsigned m = __ballot_sync(FULL, pred);
    if (!m) return;
    int leader = __ffs(m) - 1;
    ull base = 0;
    if ((int)lane_id() == leader) base = atomicAdd(len, (ull)__popc(m));
    base = __shfl_sync(FULL, base, leader);
    if (pred) q[base + __popc(m & ((1u << lane_id()) - 1))] = v;
}

__device__ __forceinline__ ull warp_sum(ull x) {
    for (int o = 16; o > 0; o >>= 1) x += __shfl_down_sync(FULL, x, o);
    return x;
}

// Add the per-thread x into *to with one atomic per warp (every lane must call).
__device__ __forceinline__ void warp_add(ull x, ull* to) {
    x = warp_sum(x);
    if (lane_id() == 0 && x) atomicAdd(to, x);
}

// Append v (where pred) to a two-tier frontier by its out-degree d: the small queue (one atomic
// per warp), or, from BIG edges on, one entry (chunk << 32 | v) per CHUNK edges ("node splitting").
// Every lane of the warp must call it.
__device__ __forceinline__ void frontier_append(bool pred, int v, long long d, int* qs, ull* nsmall,
                                                long long* qb, ull* nbig) {
    const bool small = pred && d < BIG;
    warp_append(small, v, qs, nsmall);
    if (pred && !small) {
        const long long c = (d + CHUNK - 1) / CHUNK;
        const ull b = atomicAdd(nbig, (ull)c);
        for (long long k = 0; k < c; ++k) qb[b + k] = (k << 32) | (long long)v;
    }
}

// The same for one vertex, by one thread (a search's start).
__device__ __forceinline__ void frontier_append_one(int v, long long d, int* qs, ull* nsmall, long long* qb,
                                                    ull* nbig) {
    if (d < BIG) { qs[*nsmall] = v; *nsmall += 1; return; }
    const long long c = (d + CHUNK - 1) / CHUNK;
    for (long long k = 0; k < c; ++k) qb[*nbig + k] = (k << 32) | (long long)v;
    *nbig += (ull)c;
}

// Expand a two-tier frontier: each big entry by one block, each small vertex by TPV lanes.
// f(u, p, valid) runs on every lane with warp-uniform trip counts (valid is false on padding
// lanes), so f may use warp ballots. Load balance after Merrill, Garland, Grimshaw (PPoPP 2012).
template <class IP, class F>
__device__ __forceinline__ void expand(const IP* optr, const int* qs, ull nsmall, const long long* qb,
                                       ull nbig, long long tid, long long nthreads, F f) {
    for (ull b = blockIdx.x; b < nbig; b += gridDim.x) {
        const long long e = ld(qb + b);
        const int u = (int)(e & 0xffffffffLL);
        const long long lo = (long long)optr[u] + (e >> 32) * CHUNK;
        const long long hi = min((long long)optr[u + 1], lo + CHUNK);
        for (long long base = lo; base < hi; base += blockDim.x) {
            const long long p = base + threadIdx.x;
            f(u, p, p < hi);
        }
    }
    const long long groups = nthreads / TPV, gid = tid / TPV;
    const int sub = (int)(tid % TPV);
    const ull rounded = (nsmall + (32 / TPV) - 1) / (32 / TPV) * (32 / TPV);
    for (ull i = gid; i < rounded; i += groups) {
        int u = 0;
        long long lo = 0, hi = 0;
        if (i < nsmall) { u = ld(qs + i); lo = optr[u]; hi = optr[u + 1]; }
        long long mx = hi - lo;
        for (int o = 16; o > 0; o >>= 1) { long long t = __shfl_xor_sync(FULL, mx, o); mx = t > mx ? t : mx; }
        for (long long j0 = 0; j0 < mx; j0 += TPV) {  // the same trip count on every lane
            const long long p = lo + j0 + sub;
            f(u, p, p < hi);
        }
    }
}
"""

_grid_cache = {}


def compile_kernel(src, name):
    """A RawKernel for ``src`` (HELPERS prepended)."""
    import cupy as cp

    head = HELPERS.replace("@TPV@", str(TPV)).replace("@BIG@", str(BIG)).replace("@CHUNK@", str(CHUNK))
    return cp.RawKernel(head + src, name, options=("--std=c++17",))


def grid_size(kernel, key):
    """Blocks for a persistent launch of ``kernel``: all co-resident (occupancy x SMs), as
    the driver's occupancy calculator says; without it, one block per SM."""
    import cupy as cp

    dev = cp.cuda.runtime.getDevice()
    if (key, dev) not in _grid_cache:
        sms = cp.cuda.runtime.getDeviceProperties(dev)["multiProcessorCount"]
        try:
            from cupy.cuda import driver

            per_sm = int(driver.occupancyMaxActiveBlocksPerMultiprocessor(kernel.kernel.ptr, BLOCK, 0))
        except Exception:  # no occupancy calculator: the safe minimum
            per_sm = 1
        _grid_cache[(key, dev)] = max(1, min(per_sm, 2048 // BLOCK)) * sms
    return _grid_cache[(key, dev)]


def barrier():
    """Fresh barrier words (zeroed) for one persistent launch."""
    import cupy as cp

    return cp.zeros(4, dtype=cp.uint32)


def index_types(*arrays):
    """CUDA type names of index arrays (int or long long)."""
    return tuple("int" if a.dtype == np.int32 else "long long" for a in arrays)
