// Device Louvain (backends/gpu/louvain.py): coloring, local moving in colored steps, per-copy
// quality, and the small scatters of the coarsening and refinement steps.
// Defined by the host: persistent.cuh's constants (BLOCK_THREADS, TPV, BIG, CHUNK) and HUB_DEG.
// Types: row pointers long long, vertex ids int, weights and degrees long long (fixed point:
// every sum of weights is an exact integer, so atomics in any order give the same totals).
//
// Degree tiers of a vertex v (deg = its stored entries, self-loop included):
//   deg <= 32:       one warp, a neighbour per lane, sums by shuffles;
//   deg <= BLOCK_DEG: one warp, hash table in global memory (slots [2 ptr[v], 2 ptr[v + 1]));
//   deg <= HUB_DEG:   one block, the same table;
//   deg >  HUB_DEG:   a hub: a color class of its own, the whole grid on the same table.
// (The host sorts each class's vertices so that the block-tier ones come first; BLOCK_DEG is
// the host's.)
#include "persistent.cuh"
#include "priority.cuh"

#define SHUFFLE_MAX 32
#define NO_COMM 0x7fffffff
#define HUB_DONE 0x7fffffff
// -infinity (NVRTC has no math header)
#define NEG_INF __longlong_as_double(0xfff0000000000000LL)

// ---------------------------------------------------------------------------------------------
// coloring: Jones-Plassmann on the non-hub vertices, one warp per vertex
// ---------------------------------------------------------------------------------------------


__device__ __forceinline__ ull warp_or(ull x) {
    for (int o = 16; o > 0; o >>= 1) x |= __shfl_xor_sync(FULL, x, o);
    return x;
}

// Colors of the vertices of degree <= HUB_DEG, ignoring hubs and self-loops: in round r every
// uncolored vertex none of whose uncolored (or colored in round r) neighbours has a higher
// priority takes the smallest color no neighbour colored before round r has. The result is
// the greedy coloring in decreasing priority. Hubs keep color -1 (the host numbers them).
// ctl (ull): [0..2] worklist sizes (slot r % 3 for round r); [3] rounds; [4] barrier failure.
extern "C" __global__ void louvain_color(const long long* ptr, const int* idx, int n, ull seed, int* color,
                                         int* done, int* q0, int* q1, ull* ctl, unsigned* bar) {
    const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const long long nthreads = (long long)gridDim.x * blockDim.x;
    const long long gw = tid >> 5, nw = nthreads >> 5;
    const int lane = (int)lane_id();
    for (long long base = tid - lane; base < n; base += nthreads) {
        const long long i = base + lane;
        bool small = false;
        if (i < n) {
            small = ptr[i + 1] - ptr[i] <= HUB_DEG;
            done[i] = small ? -1 : HUB_DONE;
            color[i] = -1;
        }
        warp_append(small, (int)i, q0, ctl + 0);
    }
    int r = 0;
    bool ok = grid_sync(bar);
    ull count = ok ? ld(ctl + 0) : 0;
    while (count > 0) {
        const int* q = (r & 1) ? q1 : q0;
        int* qn = (r & 1) ? q0 : q1;
        ull* cnt_next = ctl + ((r + 1) % 3);
        if (tid == 0) ctl[(r + 2) % 3] = 0;
        for (long long i = gw; i < (long long)count; i += nw) {
            const int v = ld(q + i);
            const long long lo = ptr[v], hi = ptr[v + 1];
            const long long pv = priority((ull)v, seed);
            bool waits = false;
            for (long long base = lo; base < hi && !waits; base += 32) {
                const long long p = base + lane;
                bool w = false;
                if (p < hi) {
                    const int u = idx[p];
                    if (u != v) {
                        const int du = ld(done + u);
                        w = (du < 0 || du == r) && priority((ull)u, seed) > pv;
                    }
                }
                waits = __any_sync(FULL, w);
            }
            if (!waits) {
                int c = 0;
                for (int cbase = 0;; cbase += 64) {
                    ull used = 0;
                    for (long long p = lo + lane; p < hi; p += 32) {
                        const int u = idx[p];
                        const int du = ld(done + u);
                        if (u != v && du >= 0 && du < r) {
                            const int kk = ld(color + u) - cbase;
                            if (kk >= 0 && kk < 64) used |= 1ull << kk;
                        }
                    }
                    used = warp_or(used);
                    if (used != ~0ull) { c = cbase + __ffsll((long long)~used) - 1; break; }
                }
                if (lane == 0) { color[v] = c; done[v] = r; }
            }
            warp_append(lane == 0 && waits, v, qn, cnt_next);
        }
        if (!grid_sync(bar)) { ok = false; break; }
        count = ld(cnt_next);
        ++r;
    }
    if (tid == 0) { ctl[3] = (ull)r; ctl[4] = ok ? 0ull : 1ull; }
}

// ---------------------------------------------------------------------------------------------
// local moving
// ---------------------------------------------------------------------------------------------

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

// The best (s, c) and the sum of wa over the block; valid in thread 0 (every thread must call).
__device__ __forceinline__ void block_best(double& s, int& c, long long& wa) {
    __shared__ double bs_[32];
    __shared__ int bc_[32];
    __shared__ long long bw_[32];
    warp_best(s, c);
    wa = warp_sum_ll(wa);
    const int warp = threadIdx.x >> 5;
    if ((threadIdx.x & 31) == 0) { bs_[warp] = s; bc_[warp] = c; bw_[warp] = wa; }
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int k = 1; k < (int)(blockDim.x >> 5); ++k) {
            if (better(bs_[k], bc_[k], s, c)) { s = bs_[k]; c = bc_[k]; }
            wa += bw_[k];
        }
    }
    __syncthreads();
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

// The hash table of vertex v (slots [2 lo, 2 hi)), worked by threads t, t + S, ...
__device__ __forceinline__ void table_clear(int* tk, long long* tv, long long cap, long long t, long long S) {
    for (long long p = t; p < cap; p += S) { tk[p] = -1; tv[p] = 0; }
}

// Adds v's edges lo + t, lo + t + S, ... into the table (its own community a aside: returned).
__device__ __forceinline__ long long table_insert(const int* idx, const long long* w, const int* comm, int v, int a,
                                                  long long lo, long long hi, int* tk, long long* tv, long long t,
                                                  long long S) {
    const long long cap = 2 * (hi - lo);
    long long wa = 0;
    for (long long p = lo + t; p < hi; p += S) {
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
    return wa;
}

__device__ __forceinline__ void table_scan(const int* tk, const long long* tv, long long cap, long long t, long long S,
                                           double gk, const long long* sigma, double T, double& bs, int& bc) {
    for (long long p = t; p < cap; p += S) {
        const int c = ld(tk + p);
        if (c >= 0) {
            const double sc = score(ld(tv + p), gk, ld(sigma + c), T);
            if (better(sc, c, bs, bc)) { bs = sc; bc = c; }
        }
    }
}

// Phase 1's end for vertex v (one thread): a candidate if the best community beats staying.
__device__ __forceinline__ void propose(int v, int a, long long kv, long long wa, double bs, int bc, double gamma,
                                       double T, double tol, const long long* sigma, ull* cnt, int* qv, int* qa,
                                       int* qc, double* qd, long long* J, long long* L, ull* claim) {
    if (bc == NO_COMM) return;
    const double kvd = (double)kv, gk = __dmul_rn(gamma, kvd);
    const double rest = (double)(ld(sigma + a) - kv);  // Sigma(a) without v
    const double stay = __dsub_rn((double)wa, __ddiv_rn(__dmul_rn(gk, rest), T));
    const double d = __dsub_rn(bs, stay);
    if (!(d > __dmul_rn(tol, kvd))) return;
    const ull pos = atomicAdd(cnt, 1ull);
    qv[pos] = v;
    qa[pos] = a;
    qc[pos] = bc;
    qd[pos] = d;
    atomicAdd((ull*)(J + bc), (ull)kv);
    atomicAdd((ull*)(L + a), (ull)kv);
    const ull key = claim_key(d, kvd, v);
    atomicMax(claim + a, key);
    atomicMax(claim + bc, key);
}

// Phase 2 for candidate i (every caller computes the same answer): does it move?
__device__ __forceinline__ bool wins(int v, int a, int c, double d, long long kv, double gamma, double T,
                                     const long long* J, const long long* L, const ull* claim) {
    const double kvd = (double)kv;
    const double cross = __dadd_rn((double)(ld(J + c) - kv), (double)(ld(L + a) - kv));
    const double pen = __ddiv_rn(__dmul_rn(__dmul_rn(gamma, kvd), cross), T);
    const ull key = claim_key(d, kvd, v);
    return d > pen || (ld(claim + a) == key && ld(claim + c) == key);
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
// Classes: perm[cptr[c] .. cptr[c + 1]), the block-tier vertices first (nblk[c] of them); the
// first *nhubp classes hold one hub each. ctl (ull): [0..2] candidates of step s (slot s % 3);
// [3..5] candidates of pass p (slot 3 + p % 3); [6] moves; [7] passes; [8] steps; [9] barrier
// failure; [10] a hub's weight into its own community. Lists and J, L, claim: two sets of n (set
// s & 1 for step s; the set of step s - 1 is zeroed during step s, from its candidate list).
// hub_s, hub_c: one best per block (hub steps).
extern "C" __global__ void louvain_move(const long long* ptr, const int* idx, const long long* w,
                                        const long long* k, int n, const int* perm, const long long* cptr,
                                        const long long* nblk, const int* ncolp, const int* nhubp,
                                        const unsigned char* movable, int prune, double gamma, double T, double tol,
                                        int max_passes, int* comm, long long* sigma, unsigned char* flag, int* htk,
                                        long long* htv, int* qv, int* qa, int* qc, double* qd, long long* J,
                                        long long* L, ull* claim, double* hub_s, int* hub_c, ull* ctl,
                                        unsigned* bar) {
    const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const long long nthreads = (long long)gridDim.x * blockDim.x;
    const long long gw = tid >> 5, nw = nthreads >> 5;
    const int lane = (int)lane_id();
    const int ncol = *ncolp, nhub = *nhubp;
    __shared__ int s_go;
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
            const long long lo_c = cptr[col], hi_c = cptr[col + 1];
            // ---- phase 1: decide ----
            if (col < nhub) {
                // a hub: the whole grid works its table (three more barriers)
                const int v = perm[lo_c];
                const bool go = (!prune || ld(flag + v) != 0) && movable[v] != 0;
                if (go) {
                    const long long lo = ptr[v], hi = ptr[v + 1], cap = 2 * (hi - lo);
                    int* tk = htk + 2 * lo;
                    long long* tv = htv + 2 * lo;
                    const int a = ld(comm + v);
                    table_clear(tk, tv, cap, tid, nthreads);
                    if (tid == 0) ctl[10] = 0;
                    if (!grid_sync(bar)) { ok = false; break; }
                    long long wa = table_insert(idx, w, comm, v, a, lo, hi, tk, tv, tid, nthreads);
                    wa = warp_sum_ll(wa);
                    if (lane == 0 && wa) atomicAdd(ctl + 10, (ull)wa);
                    if (!grid_sync(bar)) { ok = false; break; }
                    double bs = NEG_INF;
                    int bc = NO_COMM;
                    long long none = 0;
                    table_scan(tk, tv, cap, tid, nthreads, __dmul_rn(gamma, (double)k[v]), sigma, T, bs, bc);
                    block_best(bs, bc, none);
                    if (threadIdx.x == 0) { hub_s[blockIdx.x] = bs; hub_c[blockIdx.x] = bc; }
                    if (!grid_sync(bar)) { ok = false; break; }
                    if (blockIdx.x == 0) {
                        bs = NEG_INF;
                        bc = NO_COMM;
                        for (long long b = threadIdx.x; b < gridDim.x; b += blockDim.x) {
                            const double s2 = ld(hub_s + b);
                            const int c2 = ld(hub_c + b);
                            if (better(s2, c2, bs, bc)) { bs = s2; bc = c2; }
                        }
                        block_best(bs, bc, none);
                        if (threadIdx.x == 0) {
                            if (prune) flag[v] = 0;
                            propose(v, a, k[v], (long long)ld(ctl + 10), bs, bc, gamma, T, tol, sigma, cnt, qv + cur,
                                    qa + cur, qc + cur, qd + cur, J + cur, L + cur, claim + cur);
                        }
                    }
                }
            } else {
                const long long nb = nblk[col];
                // block tier: one block per vertex
                for (long long i = lo_c + blockIdx.x; i < lo_c + nb; i += gridDim.x) {
                    const int v = perm[i];
                    __syncthreads();
                    if (threadIdx.x == 0) s_go = (!prune || ld(flag + v) != 0) && movable[v] != 0;
                    __syncthreads();
                    if (!s_go) continue;
                    if (prune && threadIdx.x == 0) flag[v] = 0;
                    const long long lo = ptr[v], hi = ptr[v + 1], cap = 2 * (hi - lo);
                    int* tk = htk + 2 * lo;
                    long long* tv = htv + 2 * lo;
                    const int a = ld(comm + v);
                    table_clear(tk, tv, cap, threadIdx.x, blockDim.x);
                    __syncthreads();
                    long long wa = table_insert(idx, w, comm, v, a, lo, hi, tk, tv, threadIdx.x, blockDim.x);
                    __syncthreads();
                    double bs = NEG_INF;
                    int bc = NO_COMM;
                    table_scan(tk, tv, cap, threadIdx.x, blockDim.x, __dmul_rn(gamma, (double)k[v]), sigma, T, bs, bc);
                    block_best(bs, bc, wa);
                    if (threadIdx.x == 0)
                        propose(v, a, k[v], wa, bs, bc, gamma, T, tol, sigma, cnt, qv + cur, qa + cur, qc + cur,
                                qd + cur, J + cur, L + cur, claim + cur);
                }
                // warp tiers: one warp per vertex
                for (long long i = lo_c + nb + gw; i < hi_c; i += nw) {
                    const int v = perm[i];
                    bool go = lane == 0 && (!prune || ld(flag + v) != 0) && movable[v] != 0;
                    go = __shfl_sync(FULL, go, 0);  // lane 0's reading, before lane 0 clears the flag
                    if (!go) continue;
                    if (prune && lane == 0) flag[v] = 0;
                    const long long lo = ptr[v], hi = ptr[v + 1], deg = hi - lo;
                    const int a = ld(comm + v);
                    const double gk = __dmul_rn(gamma, (double)k[v]);
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
                        table_clear(tk, tv, 2 * deg, lane, 32);
                        __syncwarp();
                        wa = table_insert(idx, w, comm, v, a, lo, hi, tk, tv, lane, 32);
                        __syncwarp();
                        table_scan(tk, tv, 2 * deg, lane, 32, gk, sigma, T, bs, bc);
                    }
                    wa = warp_sum_ll(wa);
                    warp_best(bs, bc);
                    if (lane == 0)
                        propose(v, a, k[v], wa, bs, bc, gamma, T, tol, sigma, cnt, qv + cur, qa + cur, qc + cur,
                                qd + cur, J + cur, L + cur, claim + cur);
                }
            }
            if (!grid_sync(bar)) { ok = false; break; }
            // ---- phase 2: apply ----
            const ull m = ld(cnt);
            if (tid == 0 && m) ctl[3 + pass % 3] += m;
            if (col < nhub) {
                // at most one candidate: the grid flags its neighbours
                if (m) {
                    const int v = ld(qv + cur), a = ld(qa + cur), c = ld(qc + cur);
                    const long long kv = k[v];
                    if (wins(v, a, c, ld(qd + cur), kv, gamma, T, J + cur, L + cur, claim + cur)) {
                        if (tid == 0) {
                            comm[v] = c;
                            atomicAdd((ull*)(sigma + a), (ull)(-kv));
                            atomicAdd((ull*)(sigma + c), (ull)kv);
                            ++moves;
                        }
                        if (prune)
                            for (long long p = ptr[v] + tid; p < ptr[v + 1]; p += nthreads)
                                if (idx[p] != v) flag[idx[p]] = 1;
                    } else if (prune && tid == 0) {
                        flag[v] = 1;
                    }
                }
            } else {
                for (long long i = gw; i < (long long)m; i += nw) {
                    const int v = ld(qv + cur + i), a = ld(qa + cur + i), c = ld(qc + cur + i);
                    const long long kv = k[v];
                    if (wins(v, a, c, ld(qd + cur + i), kv, gamma, T, J + cur, L + cur, claim + cur)) {
                        if (lane == 0) {
                            comm[v] = c;
                            atomicAdd((ull*)(sigma + a), (ull)(-kv));
                            atomicAdd((ull*)(sigma + c), (ull)kv);
                            ++moves;
                        }
                        if (prune)
                            for (long long p = ptr[v] + lane; p < ptr[v + 1]; p += 32)
                                if (idx[p] != v) flag[idx[p]] = 1;
                    } else if (prune && lane == 0) {
                        flag[v] = 1;
                    }
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
        ctl[9] = ok ? 0ull : 1ull;
    }
}

// ---------------------------------------------------------------------------------------------
// quality, scatters, runs
// ---------------------------------------------------------------------------------------------

// Per-copy sums of a partition's quality, exact integers (so their sum is the same in any
// order): block (b, r) adds, over the entries of copy r (rows vstart[r] .. vstart[r + 1])
// strided by the copy's blocks, the weights inside a community; over its vertices, with
// sigma(v) = a 2^31 + b (sigma is indexed by community label; a copy's labels are its own
// vertex ids), a^2, a b, and b^2 as (b^2 >> 32, b^2 & (2^32 - 1)): sigma^2 = a^2 2^62 + a b 2^32
// + b^2, and none of the five sums can overflow (sum sigma <= 2^62). part[j][r][b], j = 0..4.
extern "C" __global__ void louvain_quality(const long long* ptr, const int* idx, const int* rows, const long long* w,
                                           const int* comm, const long long* sigma, const long long* vstart,
                                           long long* part) {
    const int r = blockIdx.y;
    const long long B = (long long)gridDim.x * blockDim.x;
    const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const long long v0 = vstart[r], v1 = vstart[r + 1];
    long long x[5] = {0, 0, 0, 0, 0};
    for (long long p = ptr[v0] + t; p < ptr[v1]; p += B)
        if (comm[rows[p]] == comm[idx[p]]) x[0] += w[p];
    for (long long v = v0 + t; v < v1; v += B) {
        const long long sg = sigma[v], a = sg >> 31, b = sg & 0x7fffffffLL, bb = b * b;
        x[1] += a * a;
        x[2] += a * b;
        x[3] += bb >> 32;
        x[4] += bb & 0xffffffffLL;
    }
    const long long stride = (long long)gridDim.y * gridDim.x, at = (long long)r * gridDim.x + blockIdx.x;
    for (int j = 0; j < 5; ++j) {
        const long long tot = block_sum(x[j]);
        if (threadIdx.x == 0) part[j * stride + at] = tot;
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
