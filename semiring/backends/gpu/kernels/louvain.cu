// Device Louvain (backends/gpu/louvain.py): local moving in colored steps, per-copy quality,
// and the small scatters of the coarsening and refinement steps.
// Defined by the host: persistent.cuh's constants (BLOCK_THREADS, TPV, BIG, CHUNK).
// Types: row pointers long long, vertex ids int, weights and degrees long long (fixed point:
// every sum of weights is an exact integer, so atomics in any order give the same totals).
#include "persistent.cuh"

// Degree up to which a warp sums a vertex's neighbour communities with shuffles (one neighbour
// per lane); above it, in a hash table in global memory (2 slots per edge).
#define SHUFFLE_MAX 32
#define NO_COMM 0x7fffffff
// -infinity (NVRTC has no math header)
#define NEG_INF __longlong_as_double(0xfff0000000000000LL)

// (s, c) beats (s2, c2): a larger score, ties to the smaller community.
__device__ __forceinline__ bool better(double s, int c, double s2, int c2) {
    return s > s2 || (s == s2 && c < c2);
}

__device__ __forceinline__ void warp_best(double& s, int& c) {
    for (int o = 16; o > 0; o >>= 1) {
        const double s2 = __shfl_xor_sync(FULL, s, o);
        const int c2 = __shfl_xor_sync(FULL, c, o);
        if (better(s2, c2, s, c)) { s = s2; c = c2; }
    }
}

__device__ __forceinline__ long long warp_sum_ll(long long x) {
    for (int o = 16; o > 0; o >>= 1) x += __shfl_xor_sync(FULL, x, o);
    return x;
}

// The score of joining community c: w(v, c) - gamma k_v Sigma(c) / T (the modularity gain times
// m, up to the part that does not depend on c). Every operation rounded on its own (no fused
// multiply-add), in the order of the NumPy model, so both give the same bits.
__device__ __forceinline__ double score(long long wc, double gk, long long sig, double T) {
    return __dsub_rn((double)wc, __ddiv_rn(__dmul_rn(gk, (double)sig), T));
}

// The claim key of a candidate move: its gain per unit degree as a float's bits (positive floats
// order like their bits), then the vertex; the largest key over both communities wins them.
__device__ __forceinline__ ull claim_key(double d, double kvd, int v) {
    const float g = __double2float_rn(__ddiv_rn(d, kvd));
    return ((ull)__float_as_uint(g) << 32) | (ull)(unsigned)v;
}

// One level's local moving, persistent: the vertices of each color class decide at once
// (phase 1: best neighbouring community from the state at the step's start; a candidate adds
// its degree to J(target) and L(source) and claims both communities with atomicMax), then
// apply (phase 2: a candidate moves if its gain beats its share of the cross terms of all
// candidates into its target and out of its source, or it holds both claims). Vertices of one
// class are never adjacent, so the moves of a step change the modularity by the sum of their
// gains less those cross terms: every step raises it. A pass is one step per class; the level
// ends after a pass without candidates (or max_passes).
//
// ctl (ull): [0..2] candidates of step s (slot s % 3); [3..5] candidates of pass p (slot 3 + p % 3);
// [6] moves; [7] passes; [8] steps; [9] barrier failure.
// Lists and J, L, claim: two sets of n (set s & 1 for step s; the set of step s - 1 is zeroed
// during step s, from its candidate list).
extern "C" __global__ void louvain_move(const long long* ptr, const int* idx, const long long* w,
                                        const long long* k, int n, const int* perm, const long long* cptr,
                                        const int* ncolp, const unsigned char* movable, int prune, double gamma,
                                        double T, double tol, int max_passes, int* comm, long long* sigma,
                                        unsigned char* flag, int* htk, long long* htv, int* qv, int* qa, int* qc,
                                        double* qd, long long* J, long long* L, ull* claim, ull* ctl,
                                        unsigned* bar) {
    const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const long long nthreads = (long long)gridDim.x * blockDim.x;
    const long long gw = tid >> 5, nw = nthreads >> 5;
    const int lane = (int)lane_id();
    const int ncol = *ncolp;
    long long s = 0;
    int pass = 0;
    ull moves = 0;
    bool ok = true;
    for (; pass < max_passes && ok; ++pass) {
        if (tid == 0) ctl[3 + (pass + 1) % 3] = 0;
        for (int col = 0; col < ncol; ++col, ++s) {
            const long long cur = (s & 1) * (long long)n, prv = ((s + 1) & 1) * (long long)n;
            ull* cnt = ctl + (s % 3);
            if (tid == 0) ctl[(s + 1) % 3] = 0;
            // zero the entries of step s - 1 in the other set
            if (s > 0) {
                const ull m = ld(ctl + (s + 2) % 3);
                for (long long i = tid; i < (long long)m; i += nthreads) {
                    const int a = ld(qa + prv + i), c = ld(qc + prv + i);
                    J[prv + c] = 0;
                    L[prv + a] = 0;
                    claim[prv + a] = 0;
                    claim[prv + c] = 0;
                }
            }
            // phase 1: decide (one warp per vertex of the class)
            const long long lo_c = cptr[col], hi_c = cptr[col + 1];
            for (long long i = lo_c + gw; i < hi_c; i += nw) {
                const int v = perm[i];
                const bool go = prune ? (ld(flag + v) != 0) : (movable[v] != 0);
                if (!go) continue;
                if (prune && lane == 0) flag[v] = 0;
                const long long lo = ptr[v], hi = ptr[v + 1], deg = hi - lo;
                const int a = ld(comm + v);
                const long long kv = k[v];
                const double kvd = (double)kv, gk = __dmul_rn(gamma, kvd);
                long long wa = 0;
                double bs = NEG_INF;
                int bc = NO_COMM;
                if (deg <= SHUFFLE_MAX) {
                    int cj = -1;
                    long long wj = 0;
                    if (lane < deg) {
                        const int u = idx[lo + lane];
                        if (u != v) { cj = ld(comm + u); wj = w[lo + lane]; }
                    }
                    long long sj = 0;
                    for (int i2 = 0; i2 < (int)deg; ++i2) {
                        const int ci = __shfl_sync(FULL, cj, i2);
                        const long long wi = __shfl_sync(FULL, wj, i2);
                        if (ci == cj) sj += wi;
                    }
                    if (cj >= 0) {
                        if (cj == a) wa = wj;
                        else { bs = score(sj, gk, ld(sigma + cj), T); bc = cj; }
                    }
                } else {
                    int* tk = htk + 2 * lo;
                    long long* tv = htv + 2 * lo;
                    const long long cap = 2 * deg;
                    for (long long p = lane; p < cap; p += 32) { tk[p] = -1; tv[p] = 0; }
                    __syncwarp();
                    for (long long p = lo + lane; p < hi; p += 32) {
                        const int u = idx[p];
                        if (u == v) continue;
                        const int c = ld(comm + u);
                        const long long x = w[p];
                        if (c == a) { wa += x; continue; }
                        long long h = (long long)((((ull)(unsigned)c * 0x9E3779B97F4A7C15ull) >> 33) % (ull)cap);
                        while (true) {
                            const int old = atomicCAS(tk + h, -1, c);
                            if (old == -1 || old == c) { atomicAdd((ull*)(tv + h), (ull)x); break; }
                            if (++h == cap) h = 0;
                        }
                    }
                    __syncwarp();
                    for (long long p = lane; p < cap; p += 32) {
                        const int c = ld(tk + p);
                        if (c >= 0) {
                            const double sc = score(ld(tv + p), gk, ld(sigma + c), T);
                            if (better(sc, c, bs, bc)) { bs = sc; bc = c; }
                        }
                    }
                }
                wa = warp_sum_ll(wa);
                warp_best(bs, bc);
                if (lane == 0 && bc != NO_COMM) {
                    const double rest = (double)(ld(sigma + a) - kv);  // Sigma(a) without v
                    const double stay = __dsub_rn((double)wa, __ddiv_rn(__dmul_rn(gk, rest), T));
                    const double d = __dsub_rn(bs, stay);
                    if (d > __dmul_rn(tol, kvd)) {
                        const ull pos = atomicAdd(cnt, 1ull);
                        qv[cur + pos] = v;
                        qa[cur + pos] = a;
                        qc[cur + pos] = bc;
                        qd[cur + pos] = d;
                        atomicAdd((ull*)(J + cur + bc), (ull)kv);
                        atomicAdd((ull*)(L + cur + a), (ull)kv);
                        const ull key = claim_key(d, kvd, v);
                        atomicMax(claim + cur + a, key);
                        atomicMax(claim + cur + bc, key);
                    }
                }
            }
            if (!grid_sync(bar)) { ok = false; break; }
            // phase 2: apply (one warp per candidate)
            const ull m = ld(cnt);
            if (tid == 0 && m) ctl[3 + pass % 3] += m;
            for (long long i = gw; i < (long long)m; i += nw) {
                const int v = ld(qv + cur + i), a = ld(qa + cur + i), c = ld(qc + cur + i);
                const double d = ld(qd + cur + i);
                const long long kv = k[v];
                const double kvd = (double)kv;
                const double cross = __dadd_rn((double)(ld(J + cur + c) - kv), (double)(ld(L + cur + a) - kv));
                const double pen = __ddiv_rn(__dmul_rn(__dmul_rn(gamma, kvd), cross), T);
                const ull key = claim_key(d, kvd, v);
                const bool win = d > pen || (ld(claim + cur + a) == key && ld(claim + cur + c) == key);
                if (win) {
                    if (lane == 0) {
                        comm[v] = c;
                        atomicAdd((ull*)(sigma + a), (ull)(-kv));
                        atomicAdd((ull*)(sigma + c), (ull)kv);
                        ++moves;
                    }
                    if (prune) {
                        const long long hi = ptr[v + 1];
                        for (long long p = ptr[v] + lane; p < hi; p += 32) {
                            const int u = idx[p];
                            if (u != v && movable[u]) flag[u] = 1;
                        }
                    }
                } else if (prune && lane == 0) {
                    flag[v] = 1;
                }
            }
            if (!grid_sync(bar)) { ok = false; break; }
        }
        if (!ok || ld(ctl + 3 + pass % 3) == 0) { ++pass; break; }
    }
    if (moves) atomicAdd(ctl + 6, moves);
    if (tid == 0) {
        ctl[7] = (ull)pass;
        ctl[8] = (ull)s;
        ctl[9] = ((volatile unsigned*)bar)[2];
    }
}

// Per-copy sums of a partition's quality: block (b, r) adds, over the vertices v = vstart[r] + b,
// + b + B, ... of copy r, the weight of v's edges inside its community and sigma(v)^2 (sigma is
// indexed by community label; a copy's labels are its own vertex ids). Fixed order: the same
// bits every run.
extern "C" __global__ void louvain_quality(const long long* ptr, const int* idx, const long long* w,
                                           const int* comm, const long long* sigma, const long long* vstart,
                                           long long* part_in, double* part_sq) {
    const int r = blockIdx.y;
    const long long B = (long long)gridDim.x * blockDim.x;
    const long long v0 = vstart[r], v1 = vstart[r + 1];
    long long in = 0;
    double sq = 0.0;
    for (long long v = v0 + (long long)blockIdx.x * blockDim.x + threadIdx.x; v < v1; v += B) {
        const int c = comm[v];
        for (long long p = ptr[v]; p < ptr[v + 1]; ++p)
            if (comm[idx[p]] == c) in += w[p];
        const double s = (double)sigma[v];
        sq = __dadd_rn(sq, __dmul_rn(s, s));
    }
    __shared__ double part[BLOCK_THREADS];
    const long long tin = block_sum(in);
    part[threadIdx.x] = sq;
    __syncthreads();
    for (int o = blockDim.x / 2; o > 0; o >>= 1) {
        if ((int)threadIdx.x < o) part[threadIdx.x] = __dadd_rn(part[threadIdx.x], part[threadIdx.x + o]);
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        const long long at = (long long)r * gridDim.x + blockIdx.x;
        part_in[at] = tin;
        part_sq[at] = part[0];
    }
}

// out[to[i]] += x[i] (exact: integer atomics).
extern "C" __global__ void louvain_scatter_add(const int* to, const long long* x, long long m, long long* out) {
    GRID_STRIDE(i, m) atomicAdd((ull*)(out + to[i]), (ull)x[i]);
}

// rep[label[v]] = the smallest v with that label.
extern "C" __global__ void louvain_first(const int* label, long long m, int* rep) {
    GRID_STRIDE(i, m) atomicMin(rep + label[i], (int)i);
}

// The ends of the runs of equal sorted keys: ukey[seg[i]] = key, ends[seg[i]] = csum[i] at the
// last entry of each run (csum: the inclusive prefix sums of the weights in key order).
extern "C" __global__ void louvain_runs(const long long* keys, const long long* csum, const long long* seg,
                                        long long m, long long* ukey, long long* ends) {
    GRID_STRIDE(i, m) {
        if (i == m - 1 || keys[i + 1] != keys[i]) {
            ukey[seg[i]] = keys[i];
            ends[seg[i]] = csum[i];
        }
    }
}
