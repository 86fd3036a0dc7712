// Shared by the persistent (device-resident) kernels: grid barriers, warp-aggregated queue
// appends, warp sums and the two-tier frontier (backends/gpu/_persistent.py explains them).
// Defined by the host: BLOCK_THREADS, TPV, BIG, CHUNK.
#pragma once
#include "common.cuh"
#define FULL 0xffffffffu

// Barriers over co-resident blocks. A group barrier has a 64-bit arrival counter that only grows
// during a launch: a block arriving as number `old` waits until the counter reaches the next
// multiple of the group's size (no reset and no generation word, so the last block to arrive does
// one atomic, not three). Words of bar: [0..1] the grid's counter; [2] a sticky failure flag (a
// block that waits more than ~4e9 cycles without progress sets it, and every later barrier returns
// at once; the kernel then stops and the host raises); [3] blocks that have left (grid_exit);
// [32..33] (another 128-byte line) the counter of a sub-grid (the first `members` blocks, see sub_sync). Progress of either
// counter restarts a waiting block's clock, so blocks idling while a sub-grid works never time out.
__device__ __forceinline__ bool group_sync(unsigned* bar, ull* cnt, const ull* other, unsigned members) {
    __syncthreads();
    if (threadIdx.x == 0) {
        volatile unsigned* vbar = bar;
        if (!vbar[2]) {
            __threadfence();
            const ull old = atomicAdd(cnt, 1ull);
            const ull target = (old / members + 1) * members;
            if (old + 1 != target) {
                // poll only this group's counter; look at the other one (the progress of a working
                // sub-grid) only when the wait grows long, and back off after ~20 us of waiting,
                // so idle blocks do not crowd the L2 slice the working ones use
                volatile ull* vcnt = cnt;
                volatile const ull* voth = other;
                ull seen = *voth;
                long long t0 = clock64(), tw = t0;
                while (*vcnt < target) {
                    const long long now = clock64();
                    if (now - tw > 40000) __nanosleep(200);
                    if (now - t0 > 4000000000LL) {
                        const ull prog = *voth;
                        if (prog == seen) { atomicExch(&bar[2], 1u); break; }
                        seen = prog; t0 = now;
                    }
                }
            }
        }
        __threadfence();
    }
    __syncthreads();
    return ((volatile unsigned*)bar)[2] == 0;
}

// Every block of the grid.
__device__ __forceinline__ bool grid_sync(unsigned* bar) {
    return group_sync(bar, (ull*)bar, (const ull*)(bar + 32), gridDim.x);
}

// The first `members` blocks only (a sub-grid working while the others wait at grid_sync).
__device__ __forceinline__ bool sub_sync(unsigned* bar, unsigned members) {
    return group_sync(bar, (ull*)(bar + 32), (const ull*)bar, members);
}

// After a block's last barrier: the last block out zeroes the counters, so a kept barrier (a
// cached workspace) starts the next launch at zero. Every block must call it once.
__device__ __forceinline__ void grid_exit(unsigned* bar) {
    __syncthreads();
    if (threadIdx.x == 0 && atomicAdd(&bar[3], 1u) == gridDim.x - 1) {
        *((volatile ull*)bar) = 0ull;
        *((volatile ull*)(bar + 32)) = 0ull;
        bar[3] = 0u;
        __threadfence();
    }
}

// Loads of data other blocks write during the kernel: through L2, never a stale L1 line.
template <typename T> __device__ __forceinline__ T ld(const T* p) { return __ldcg(p); }

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

// Expand a two-tier frontier: each big entry by one block, each small vertex by TPV lanes, over
// threads tid = 0 .. nthreads - 1 (whole blocks: the grid or a sub-grid). f(u, p, valid) runs on every lane with warp-uniform trip counts (valid is false on padding
// lanes), so f may use warp ballots. Load balance after Merrill, Garland, Grimshaw (PPoPP 2012).
template <class IP, class F>
__device__ __forceinline__ void expand(const IP* optr, const int* qs, ull nsmall, const long long* qb,
                                       ull nbig, long long tid, long long nthreads, F f) {
    for (ull b = tid / blockDim.x; b < nbig; b += nthreads / blockDim.x) {
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
