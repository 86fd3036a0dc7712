// Batched Bellman-Ford: shortest-path distances from b sources at once (backends/gpu/multi_source.py).
// The b searches share vertex-major arrays of n x b: `keys` (the distance from source s to vertex v
// as an order-preserving unsigned key; UNREACHED where s has not reached v) and three rotating
// activity bytes per pair (`act`: pair (v, s) improved in the round before). A warp serves one
// chunk of a vertex's out-row, its lanes the sources (32 at a time), so the b states of a vertex
// are one coalesced read.
// Defined by the host: IPT, IXT (index types of W's CSR), FLOAT (1: float64 weights and
// distances; 0: int64), CH (row entries per chunk, at most 32), and persistent.cuh's constants.
#include "persistent.cuh"

#define UNREACHED (~0ull)
#define SIGN 0x8000000000000000ull
#define I64_MAX 0x7fffffffffffffffLL

#if FLOAT
typedef double dist_t;
// Doubles as keys that compare as the values do (negative values with every bit flipped, others
// with the sign bit set); -0.0 becomes +0.0 first (x + 0.0), +inf is below every NaN pattern.
__device__ __forceinline__ ull key_of(double x) {
    const ull u = (ull)__double_as_longlong(x + 0.0);
    return (u & SIGN) ? ~u : (u | SIGN);
}
__device__ __forceinline__ double value_of(ull k) {
    return __longlong_as_double((long long)((k & SIGN) ? (k & ~SIGN) : ~k));
}
#else
typedef long long dist_t;
__device__ __forceinline__ ull key_of(long long x) { return (ull)x ^ SIGN; }
__device__ __forceinline__ long long value_of(ull k) { return (long long)(k ^ SIGN); }
#endif

// The candidate x + w of a search at distance x over an edge of weight w, or false for none.
// Floats: a NaN sum (-inf + inf) is +inf, the length of a walk through an edge of no path.
// Integers: a sum at or above INT64_MAX is no candidate (longer than any simple path: only walks
// around a negative cycle get there); a sum below `floor` (minus the largest weight times n - 1,
// shorter than any simple path) proves a negative cycle: *cycle is set and the sum dropped, which
// also keeps int64 from overflowing.
#if FLOAT
__device__ __forceinline__ bool candidate(double x, double w, double, double* c, bool*) {
    const double t = x + w;
    *c = (t != t) ? __longlong_as_double(0x7ff0000000000000LL) : t;
    return true;
}
#else
__device__ __forceinline__ bool candidate(long long x, long long w, long long floor, long long* c, bool* cycle) {
    if (w < 0 && x < floor - w) { *cycle = true; return false; }
    if (w > 0 && x >= I64_MAX - w) return false;
    *c = x + w;
    return true;
}
#endif

// first[v] .. first[v + 1]: the chunks of v's row; cv[c] = the vertex of chunk c.
extern "C" __global__ void ms_chunks(const long long* first, int n, int* cv) {
    GRID_STRIDE(v, n) {
        for (long long c = first[v]; c < first[v + 1]; ++c) cv[c] = (int)v;
    }
}

// A batch's start: keys(src[s], s) = 0, every other key UNREACHED; the pairs (src[s], s) active
// in round 1 (act buffer 1 % 3); flags and control words zero.
extern "C" __global__ void ms_fill(const long long* src, int n, int b, ull* keys, unsigned char* act,
                                   int* flags, ull* ctl) {
    const long long nb = (long long)n * b;
    GRID_STRIDE(i, nb) {
        const long long v = i / b;
        const bool start = src[i - v * b] == v;
        keys[i] = start ? key_of((dist_t)0) : UNREACHED;
        act[i] = 0;
        act[nb + i] = start;
        act[2 * nb + i] = 0;
    }
    GRID_STRIDE(s, b) flags[s] = 0;
    GRID_STRIDE(k, 8) ctl[k] = 0;
}

// The searches, persistent (one grid barrier per round). Round r (1, 2, ...): every pair (u, s)
// that improved in round r - 1 (act[r % 3]) relaxes u's out-edges from its current distance x:
// keys(v, s) = min(keys(v, s), key(x + w)) by atomicMin, read first so that only improvements
// write, and an improved pair is marked for round r + 1 (act[(r + 1) % 3]); round r also clears
// act[(r + 2) % 3] (read in round r - 1, written in round r + 1) and the next round's change word.
// Improvements made during a round are seen at once (the rounds are chaotic, not Jacobi): after
// round r every distance is at most synchronous Bellman-Ford's after r rounds, so without a
// negative cycle round n changes nothing. The loop ends after a round without an improvement, or
// after round rmax (= n); flags[s] |= 1 where source s improved in round rmax, |= 2 where its
// distances fell below `floor` (integers): both prove a negative cycle reachable from s.
// ctl: [0..2] "a pair improved" of the rounds in rotation, [3] rounds run, [4] barrier failure.
extern "C" __global__ void ms_search(const IPT* ptr, const IXT* idx, const dist_t* w, const long long* first,
                                     const int* cv, int n, int b, int rmax, dist_t floor, ull* keys,
                                     unsigned char* act, int* flags, ull* ctl, unsigned* bar) {
    const int lane = lane_id();
    const long long warp = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const long long warps = ((long long)gridDim.x * blockDim.x) >> 5;
    const long long nb = (long long)n * b;
    const long long chunks = first[n];
    int r = 1;
    for (;; ++r) {
        const unsigned char* cur = act + (r % 3) * nb;
        unsigned char* nxt = act + ((r + 1) % 3) * nb;
        unsigned char* old = act + ((r + 2) % 3) * nb;
        if (warp == 0 && lane == 0) ctl[(r + 1) % 3] = 0;
        bool fell = false;
        for (long long c = warp; c < chunks; c += warps) {
            const int v = cv[c];
            const long long lo = (long long)ptr[v] + (long long)CH * (c - first[v]);
            const int cnt = (int)(min((long long)ptr[v + 1], lo + CH) - lo);
            const bool head = c == first[v];
            // the chunk's heads and weights, one entry per lane
            const int tl = lane < cnt ? (int)idx[lo + lane] : 0;
            const dist_t wl = lane < cnt ? w[lo + lane] : (dist_t)0;
            for (int s0 = 0; s0 < b; s0 += 32) {
                const int s = s0 + lane;
                const long long i = (long long)v * b + s;
                const bool on = s < b && ld(cur + i);
                if (head && s < b) old[i] = 0;
                if (!__any_sync(FULL, on)) continue;
                const dist_t x = on ? value_of(ld(keys + i)) : (dist_t)0;
                bool cycle = false;
                for (int j = 0; j < cnt; ++j) {
                    const int t = __shfl_sync(FULL, tl, j);
                    const dist_t wt = __shfl_sync(FULL, wl, j);
                    dist_t cand;
                    if (!on || !candidate(x, wt, floor, &cand, &cycle)) continue;
                    const long long k = (long long)t * b + s;
                    const ull ck = key_of(cand);
                    if (ck < ld(keys + k)) {
                        atomicMin(keys + k, ck);
                        nxt[k] = 1;
                        fell = true;
                        if (r == rmax) atomicOr(flags + s, 1);
                    }
                }
                if (cycle) atomicOr(flags + s, 2);
            }
        }
        if (__any_sync(FULL, fell) && lane == 0) ctl[r % 3] = 1;
        if (!grid_sync(bar)) break;
        if (ld(ctl + r % 3) == 0 || r >= rmax) break;
    }
    if (warp == 0 && lane == 0) {
        ctl[3] = (ull)r;
        ctl[4] = ((volatile unsigned*)bar)[2];
    }
    grid_exit(bar);
}

// Block s: summary[s] = the vertices source s reached, summary[b + s] = flags[s]; block 0 also
// copies the rounds and the barrier failure to summary[2b], summary[2b + 1] (one host read).
extern "C" __global__ void ms_count(int n, int b, const ull* keys, const int* flags, const ull* ctl,
                                    long long* summary) {
    const int s = blockIdx.x;
    long long mine = 0;
    for (long long v = threadIdx.x; v < n; v += blockDim.x) mine += keys[v * b + s] != UNREACHED;
    const long long total = block_sum(mine);
    if (threadIdx.x == 0) {
        summary[s] = total;
        summary[b + s] = flags[s];
        if (s == 0) {
            summary[2 * b] = (long long)ctl[3];
            summary[2 * b + 1] = (long long)ctl[4];
        }
    }
}

// Block s writes row s of the batch's result in CSR order: the vertices source s reached,
// increasing, from position sum(summary[0 .. s)), and their distances.
template <typename OT>
__device__ __forceinline__ void rows(int n, int b, const ull* keys, const long long* summary, OT* out_idx,
                                     dist_t* out_val) {
    __shared__ long long tot[32];
    __shared__ long long start;
    const int s = blockIdx.x, lane = lane_id(), wid = threadIdx.x >> 5, nw = blockDim.x >> 5;
    if (threadIdx.x == 0) {
        long long o = 0;
        for (int t = 0; t < s; ++t) o += summary[t];
        start = o;
    }
    __syncthreads();
    long long base = start;
    for (long long v0 = 0; v0 < n; v0 += blockDim.x) {
        const long long v = v0 + threadIdx.x;
        const ull k = v < n ? keys[v * b + s] : UNREACHED;
        const bool here = k != UNREACHED;
        const unsigned m = __ballot_sync(FULL, here);
        if (lane == 0) tot[wid] = __popc(m);
        __syncthreads();
        long long before = 0, all = 0;
        for (int q = 0; q < nw; ++q) {
            const long long c = tot[q];
            before += q < wid ? c : 0;
            all += c;
        }
        if (here) {
            const long long p = base + before + __popc(m & ((1u << lane) - 1u));
            out_idx[p] = (OT)v;
            out_val[p] = value_of(k);
        }
        base += all;
        __syncthreads();
    }
}

extern "C" __global__ void ms_rows32(int n, int b, const ull* keys, const long long* summary, int* out_idx,
                                     dist_t* out_val) {
    rows<int>(n, b, keys, summary, out_idx, out_val);
}

extern "C" __global__ void ms_rows64(int n, int b, const ull* keys, const long long* summary, long long* out_idx,
                                     dist_t* out_val) {
    rows<long long>(n, b, keys, summary, out_idx, out_val);
}
