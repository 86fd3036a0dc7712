// Device-resident near-far delta-stepping SSSP (backends/gpu/paths.py).
// Defined by the host: IPT, IXT, TW (weights), TD (distances), SLOT, and persistent.cuh's constants.
#include "persistent.cuh"
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
