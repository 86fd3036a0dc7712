// Multilevel partitioning on the device, coarsening (partition.cuh): heavy-edge matching and
// contraction.
#include "partition.cuh"

// ---------------------------------------------------------------------------------------------
// coarsening: heavy-edge matching
// ---------------------------------------------------------------------------------------------

// The random rank of vertex v in a matching: a splitmix64 hash of (v, seed) in the high bits and v
// in the low 32 bits (distinct ranks); smix = seed * 0xBF58476D1CE4E5B9 mod 2^64. The same
// numbers as semiring.algorithms.coloring.priorities(n, seed).
__device__ __forceinline__ long long rank_of(long long v, ull smix) {
    ull z = ((ull)v + 1ull) * 0x9E3779B97F4A7C15ull + smix;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z = z ^ (z >> 31);
    return (long long)(((z >> 33) << 32) | (ull)v);
}

// v's heaviest neighbour u != v (with use_part: part[u] == part[v]; with cand: cand[u]); ties go
// to the larger rank_of(u); -1 when none.
__device__ __forceinline__ int heaviest(const IPT* ptr, const IXT* idx, const double* w, long long v, ull smix,
                                        const int* part, int use_part, const signed char* cand) {
    int best = -1;
    double bw = 0.0;
    long long br = 0;
    const int pv = use_part ? part[v] : 0;
    for (IPT e = ptr[v]; e < ptr[v + 1]; ++e) {
        const int u = (int)idx[e];
        if (u == v || (cand != nullptr && !cand[u]) || (use_part && part[u] != pv)) continue;
        const double x = w[e];
        const long long r = rank_of(u, smix);
        if (best < 0 || x > bw || (x == bw && r > br)) { best = u; bw = x; br = r; }
    }
    return best;
}

// cand[v] = v is light (2 vw[v] <= maxvw); mate[v] = v; counter[0] = 0.
extern "C" __global__ void match_init(int n, const long long* vw, long long maxvw, signed char* cand, int* mate,
                                      long long* counter) {
    GRID_STRIDE(v, n) {
        cand[v] = 2 * vw[v] <= maxvw;
        mate[v] = (int)v;
    }
    if (blockIdx.x == 0 && threadIdx.x == 0) counter[0] = 0;
}

// choice[v]: v's heaviest candidate neighbour u != v (cand[v], cand[u], and part[u] == part[v]
// with use_part); ties go to the larger rank_of(u); -1 when none. One thread per vertex.
extern "C" __global__ void match_propose(const IPT* ptr, const IXT* idx, const double* w, int n,
                                         const signed char* cand, ull smix, const int* part, int use_part,
                                         int* choice) {
    GRID_STRIDE(v, n) choice[v] = cand[v] ? heaviest(ptr, idx, w, v, smix, part, use_part, cand) : -1;
}

// Handshake: a candidate whose choice chose it back is matched; one without a choice stops being
// a candidate. With last: counter[0] += the light vertices left unmatched.
extern "C" __global__ void match_resolve(int n, const int* choice, signed char* cand, int* mate, const long long* vw,
                                         long long maxvw, int last, long long* counter) {
    long long left = 0;
    GRID_STRIDE(v, n) {
        if (cand[v]) {
            const int c = choice[v];
            if (c < 0) {
                cand[v] = 0;
            } else if (choice[c] == (int)v) {
                mate[v] = c;
                cand[v] = 0;
            }
        }
        if (last && mate[v] == (int)v && 2 * vw[v] <= maxvw) ++left;
    }
    if (last) count_block(left, counter);
}

// Keys of the two-hop pairing. A light unmatched vertex v is "left". When more than n / 10
// vertices are left (counter[0]), each left vertex is keyed by its heaviest neighbour (matched
// or not; ties: larger rank_of; none: n), otherwise only the left vertices without neighbours are
// keyed (by n); key = (hub [* k + part[v]]) * n + v, with use_part = k (the parts) or 0; others
// NONE_KEY.
extern "C" __global__ void match_hubkey(const IPT* ptr, const IXT* idx, const double* w, int n, const int* mate,
                                        const long long* vw, long long maxvw, ull smix, const int* part,
                                        int use_part, const long long* counter, long long* key) {
    const bool two_hop = 10 * counter[0] > (long long)n;
    GRID_STRIDE(v, n) {
        long long k = NONE_KEY;
        if (mate[v] == (int)v && 2 * vw[v] <= maxvw) {
            long long hub = -1;
            if (two_hop) {
                const int best = heaviest(ptr, idx, w, v, smix, part, use_part, nullptr);
                hub = best < 0 ? (long long)n : (long long)best;
            } else if (ptr[v + 1] == ptr[v]) {
                hub = n;
            }
            if (hub >= 0) {
                if (use_part) hub = hub * use_part + part[v];
                k = hub * (long long)n + v;
            }
        }
        key[v] = k;
    }
}

// Pairs of the two-hop matching over the keys in sorted order (order[i] is the i-th vertex):
// the members of a group (key / n; groups are runs of the sorted keys) pair as their 1st and 2nd,
// 3rd and 4th, ... (a run's start found by binary search).
extern "C" __global__ void match_pairs(int n, const long long* key, const long long* order, int* mate) {
    GRID_STRIDE(i, n) {
        const long long ki = key[order[i]];
        if (ki == NONE_KEY || i + 1 >= n) continue;
        const long long gi = ki / n;
        const long long kn = key[order[i + 1]];
        if (kn == NONE_KEY || kn / n != gi) continue;
        long long lo = 0, hi = i;  // first position of the run: valid keys are sorted
        while (lo < hi) {
            const long long mid = (lo + hi) >> 1;
            if (key[order[mid]] / n < gi) lo = mid + 1; else hi = mid;
        }
        if ((i - lo) % 2 == 0) {
            const int a = (int)order[i], b = (int)order[i + 1];
            mate[a] = b;
            mate[b] = a;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// coarsening: contraction
// ---------------------------------------------------------------------------------------------

// flag[v] = 1 when v represents its pair (mate[v] >= v).
extern "C" __global__ void coarse_flags(int n, const int* mate, int* flag) {
    GRID_STRIDE(v, n) flag[v] = mate[v] >= (int)v;
}

// cmap[v] = cid[min(v, mate[v])] - 1 (cid: inclusive count of representatives); key[e] =
// cmap[row] * n + cmap[col] for the edges between two coarse vertices, NONE_KEY for the pairs'
// inner edges.
extern "C" __global__ void coarse_keys(int n, long long nnz, const int* rows, const IXT* idx, const int* mate,
                                       const int* cid, int* cmap, long long* key) {
    const long long m = nnz > (long long)n ? nnz : (long long)n;
    GRID_STRIDE(i, m) {
        if (i < n) cmap[i] = cid[min((int)i, mate[i])] - 1;
        if (i < nnz) {
            const int r = rows[i], c = (int)idx[i];
            const long long cu = cid[min(r, mate[r])] - 1, cv = cid[min(c, mate[c])] - 1;
            key[i] = cu != cv ? cu * n + cv : NONE_KEY;
        }
    }
}

// Over the keys in sorted order: flag[i] = 1 where a new coarse edge starts; nvalid[0] = the
// number of keys that are not NONE_KEY (set to nnz by the host beforehand).
extern "C" __global__ void coarse_starts(long long nnz, const long long* key, const long long* order, int* flag,
                                         long long* nvalid) {
    GRID_STRIDE(i, nnz) {
        const long long k = key[order[i]];
        const long long prev = i > 0 ? key[order[i - 1]] : -1;
        flag[i] = k != NONE_KEY && k != prev;
        if (k == NONE_KEY && prev != NONE_KEY) nvalid[0] = i;
    }
}

// Coarse edge s = sid[i] - 1 of each start i: its row, column and first sorted position.
extern "C" __global__ void coarse_fill(long long nnz, int n, const long long* key, const long long* order,
                                       const int* flag, const int* sid, long long nnzc, const long long* nvalid,
                                       long long* start, int* crow, int* ccol) {
    GRID_STRIDE(i, nnz) {
        if (flag[i]) {
            const long long s = sid[i] - 1;
            const long long k = key[order[i]];
            start[s] = i;
            crow[s] = (int)(k / n);
            ccol[s] = (int)(k % n);
        }
    }
    if (blockIdx.x == 0 && threadIdx.x == 0) start[nnzc] = nvalid[0];
}

// Coarse weights (each segment's sum in sorted order), row pointers, and vertex weights.
extern "C" __global__ void coarse_sum(long long nnzc, int nc, const double* w, const long long* order,
                                      const long long* start, const int* crow, double* wc, long long* indptr,
                                      int n, const int* cmap, const long long* vw, long long* vwc) {
    const long long m = nnzc > (long long)n ? nnzc : (long long)n;
    GRID_STRIDE(s, m) {
        if (s < nnzc) {
            double t = 0.0;
            for (long long i = start[s]; i < start[s + 1]; ++i) t += w[order[i]];
            wc[s] = t;
            const int r = crow[s];
            const int prev = s > 0 ? crow[s - 1] : -1;
            for (int q = prev + 1; q <= r; ++q) indptr[q] = s;
            if (s == nnzc - 1)
                for (int q = r + 1; q <= nc; ++q) indptr[q] = nnzc;
        }
        if (s < n) atomicAdd((ull*)(vwc + cmap[s]), (ull)vw[s]);
    }
}
