// Multilevel partitioning on the device (backends/gpu/partition.py): heavy-edge matching and
// contraction (coarsening), and Jet's refinement rounds with their bookkeeping on the device.
//
// Defined by the host: IPT (row pointer type), IXT (column index type), TPV (lanes per vertex of
// the group kernels, a power of two <= 32; 1 elsewhere), BUCKET_BITS (bits of a loss bucket).
//
// Refinement state: st (double[16], the S_* slots) holds the current and best (cut, imbalance),
// the patience count, the rounds, the done flag and the copy flag. Every round kernel is gated by
// st: a Jet label-propagation step runs while the partition is balanced (imbalance <= 0), a
// rebalancing step while it is not, and nothing after done; so the host queues rounds without
// reading, and reads st only to learn that the level is done.
//
// "Last block" kernels: every block adds its share (histogram bins, partial sums), then takes a
// ticket; the block with the last ticket sees all shares and finishes (a selection, a scan, the
// bookkeeping) and puts the ticket back at zero (the threadfence reduction of the CUDA samples).
#include "common.cuh"
#define FULL 0xffffffffu
#define NEG_INF __longlong_as_double((long long)0xfff0000000000000ULL)
#define NONE_KEY 0x7fffffffffffffffLL
#ifndef BUCKET_BITS
#define BUCKET_BITS 12
#endif

// st slots
#define S_CUT 0
#define S_IMB 1
#define S_BCUT 2
#define S_BIMB 3
#define S_COUNT 4
#define S_ROUNDS 5
#define S_DONE 6
#define S_COPY 7
#define S_MAXR 8
#define S_ITER 9

// rebalancing: vertices per block of the chunked kernels (threads x items per thread)
#define CH_THREADS 256
#define CH_ITEMS 8
#define CH (CH_THREADS * CH_ITEMS)

// One group of TPV lanes per vertex; all 32 lanes of a warp reach every shuffle.
#define GROUP_SETUP                                                                         \
    const int lane = threadIdx.x & (TPV - 1);                                               \
    const int group = threadIdx.x / TPV;                                                    \
    const long long v = ((long long)blockIdx.x * blockDim.x + threadIdx.x) / TPV;           \
    const bool active = v < (long long)n;

__device__ __forceinline__ bool lp_gate(const double* st) { return st[S_DONE] == 0.0 && st[S_IMB] <= 0.0; }
__device__ __forceinline__ bool rb_gate(const double* st) { return st[S_DONE] == 0.0 && st[S_IMB] > 0.0; }

// ---------------------------------------------------------------------------------------------
// block helpers
// ---------------------------------------------------------------------------------------------

// True in every thread of the block that took the grid's last ticket; that block then sees every
// other block's writes (read them with __ldcg). The ticket is back at zero afterwards.
__device__ __forceinline__ bool last_block(unsigned int* ticket) {
    __shared__ bool is_last;
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0) {
        const unsigned int t = atomicAdd(ticket, 1u);
        is_last = (t == gridDim.x - 1);
        if (is_last) *ticket = 0u;
    }
    __syncthreads();
    if (is_last) __threadfence();
    return is_last;
}

__device__ __forceinline__ long long warp_incl_scan(long long x) {
    const int l = threadIdx.x & 31;
    for (int o = 1; o < 32; o <<= 1) {
        const long long y = __shfl_up_sync(FULL, x, o);
        if (l >= o) x += y;
    }
    return x;
}

// Exclusive prefix of x over the block's threads (in thread order); *total gets the block's sum.
// Every thread of the block must call it (blockDim.x a multiple of 32).
__device__ long long block_excl_scan(long long x, long long* total) {
    __shared__ long long wsum[33];
    const int l = threadIdx.x & 31, wid = threadIdx.x >> 5, nw = blockDim.x >> 5;
    const long long inc = warp_incl_scan(x);
    if (l == 31) wsum[wid] = inc;
    __syncthreads();
    if (wid == 0) {
        const long long s = l < nw ? wsum[l] : 0;
        const long long si = warp_incl_scan(s);
        if (l < nw) wsum[l] = si - s;
        if (l == 31) wsum[32] = si;
    }
    __syncthreads();
    const long long r = wsum[wid] + inc - x;
    *total = wsum[32];
    __syncthreads();
    return r;
}

// Sum of one double per thread over the block, in a fixed order (valid in thread 0).
__device__ double block_sum_f64(double s) {
    __shared__ double red[32];
    for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(FULL, s, o);
    const int l = threadIdx.x & 31, wid = threadIdx.x >> 5;
    if (l == 0) red[wid] = s;
    __syncthreads();
    if (wid == 0) {
        s = (l < (int)(blockDim.x >> 5)) ? red[l] : 0.0;
        for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(FULL, s, o);
    }
    __syncthreads();
    return s;
}

// In the (last) block: a[0..m) becomes its exclusive prefix sums, in place.
__device__ void block_excl_scan_array(long long* a, long long m) {
    __shared__ long long carry;
    if (threadIdx.x == 0) carry = 0;
    __syncthreads();
    for (long long c0 = 0; c0 < m; c0 += blockDim.x) {
        const long long i = c0 + threadIdx.x;
        const long long x = i < m ? __ldcg(a + i) : 0;
        long long tot;
        const long long ex = block_excl_scan(x, &tot);
        const long long base = carry;
        if (i < m) a[i] = base + ex;
        __syncthreads();
        if (threadIdx.x == 0) carry = base + tot;
        __syncthreads();
    }
}

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
    GRID_STRIDE(v, n) {
        int best = -1;
        if (cand[v]) {
            double bw = 0.0;
            long long br = 0;
            const int pv = use_part ? part[v] : 0;
            for (IPT e = ptr[v]; e < ptr[v + 1]; ++e) {
                const int u = (int)idx[e];
                if (u == v || !cand[u] || (use_part && part[u] != pv)) continue;
                const double x = w[e];
                const long long r = rank_of(u, smix);
                if (best < 0 || x > bw || (x == bw && r > br)) { best = u; bw = x; br = r; }
            }
        }
        choice[v] = best;
    }
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
                int best = -1;
                double bw = 0.0;
                long long br = 0;
                const int pv = use_part ? part[v] : 0;
                for (IPT e = ptr[v]; e < ptr[v + 1]; ++e) {
                    const int u = (int)idx[e];
                    if (u == v || (use_part && part[u] != pv)) continue;
                    const double x = w[e];
                    const long long r = rank_of(u, smix);
                    if (best < 0 || x > bw || (x == bw && r > br)) { best = u; bw = x; br = r; }
                }
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

// ---------------------------------------------------------------------------------------------
// Jet refinement: connections, label propagation, afterburner, moves
// ---------------------------------------------------------------------------------------------

// Better of two (connection, part) proposals: the larger connection, then the smaller part;
// part -1 is "none".
__device__ __forceinline__ void better(double& bc, int& bq, double c, int q) {
    if (q < 0) return;
    if (bq < 0 || c > bc || (c == bc && q < bq)) { bc = c; bq = q; }
}

// The group's vertex v: its connections to the parts (conn, k slots of shared memory, filled by
// the TPV lanes), own = conn(part[v]), and its best other part bq (-1: none) with bc = conn(bq):
// conn > 0, allowed (pw[q] < limit[q], when pw is given), the largest connection, then the
// smallest q. Every lane of the warp must call it.
__device__ __forceinline__ void group_conn(const IPT* ptr, const IXT* idx, const double* w, const int* part, int k,
                                           bool active, long long v, int lane, int p, double* conn,
                                           const long long* pw, const long long* limit, double& bc, int& bq,
                                           double& own) {
    for (int q = lane; q < k; q += TPV) conn[q] = 0.0;
    __syncwarp();
    const IPT lo = active ? ptr[v] : 0, hi = active ? ptr[v + 1] : 0;
    for (IPT e = lo + lane; e < hi; e += TPV) atomicAdd(conn + part[idx[e]], w[e]);
    __syncwarp();
    bc = 0.0;
    bq = -1;
    for (IPT e = lo + lane; e < hi; e += TPV) {
        const int q = part[idx[e]];
        if (q == p || (pw != nullptr && pw[q] >= limit[q])) continue;
        const double x = conn[q];
        if (x > 0.0) better(bc, bq, x, q);
    }
    for (int o = TPV / 2; o > 0; o >>= 1) {
        const double oc = __shfl_xor_sync(FULL, bc, o, TPV);
        const int oq = __shfl_xor_sync(FULL, bq, o, TPV);
        better(bc, bq, oc, oq);
    }
    own = active ? conn[p] : 0.0;
}

// Jet label propagation (balanced steps): v is a candidate when it has a best other part q,
// lock[v] == 0 and conn(q) >= conn(own) or conn(own) - conn(q) < floor(c * conn(own));
// dest[v] = q or -1, gain[v] = conn(q) - conn(own) or -inf.
extern "C" __global__ void jet_lp(const IPT* ptr, const IXT* idx, const double* w, const int* part, int n, int k,
                                  double c, const signed char* lock, int* dest, double* gain, const double* st) {
    if (!lp_gate(st)) return;
    extern __shared__ double conn_all[];
    GROUP_SETUP
    double* conn = conn_all + (size_t)group * k;
    const int p = active ? part[v] : 0;
    double bc, own;
    int bq;
    group_conn(ptr, idx, w, part, k, active, v, lane, p, conn, nullptr, nullptr, bc, bq, own);
    if (lane == 0 && active) {
        const bool cand = bq >= 0 && lock[v] == 0 && (bc >= own || (own - bc) < floor(c * own));
        dest[v] = cand ? bq : -1;
        gain[v] = cand ? bc - own : NEG_INF;
    }
}

// Jet's afterburner: a candidate v (dest[v] >= 0) recomputes its gain as if every candidate
// neighbour u of higher priority (gain[u] > gain[v], or equal and u < v) had moved to dest[u];
// move[v] = the new gain >= 0.
extern "C" __global__ void jet_afterburner(const IPT* ptr, const IXT* idx, const double* w, const int* part, int n,
                                           const int* dest, const double* gain, signed char* move,
                                           const double* st) {
    if (!lp_gate(st)) return;
    GROUP_SETUP
    (void)group;
    const bool cand = active && dest[v] >= 0;
    double ch = 0.0;
    double gv = 0.0;
    if (cand) {
        const int p = part[v], b = dest[v];
        gv = gain[v];
        for (IPT e = ptr[v] + lane; e < ptr[v + 1]; e += TPV) {
            const int u = (int)idx[e];
            const int du = dest[u];
            if (du < 0) continue;
            const double gu = gain[u];
            if (gu > gv || (gu == gv && u < v)) {
                const double x = w[e];
                const int pu = part[u];
                if (du == p) ch -= x; else if (du == b) ch += x;
                if (pu == p) ch += x; else if (pu == b) ch -= x;
            }
        }
    }
    for (int o = TPV / 2; o > 0; o >>= 1) ch += __shfl_xor_sync(FULL, ch, o, TPV);
    if (lane == 0 && active) move[v] = cand && gv + ch >= 0.0;
}

// The label-propagation moves: part[v] = dest[v] where move[v] (part weights follow);
// lock[v] = move[v].
extern "C" __global__ void jet_apply(int n, const int* dest, const signed char* move, const long long* vw,
                                     int* part, long long* pw, signed char* lock, const double* st) {
    if (!lp_gate(st)) return;
    GRID_STRIDE(v, n) {
        const signed char m = move[v];
        if (m) {
            const int p = part[v], d = dest[v];
            part[v] = d;
            atomicAdd((ull*)(pw + p), (ull)(-vw[v]));
            atomicAdd((ull*)(pw + d), (ull)vw[v]);
        }
        lock[v] = m;
    }
}

// ---------------------------------------------------------------------------------------------
// Jet refinement: the status of a step and the best partition
// ---------------------------------------------------------------------------------------------

// The cut and imbalance (max over parts of pw - cap) of the partition after a step, and the
// bookkeeping of the round loop. kind 0: the start (no gate; best = start, counts zero); kind 1:
// after a label-propagation step; kind 2: after a rebalancing step (each gated as its step was).
// Bookkeeping: rounds and count go up by one; a first balanced partition, a less imbalanced one
// while none is balanced, or a lower cut no more imbalanced becomes the best (st[S_COPY] = 1:
// jet_copy copies it); a cut below tol times the best also sets count to zero; done when
// count >= patience or rounds >= st[S_MAXR]. A gated-off call sets st[S_COPY] = 0.
extern "C" __global__ void jet_status(const int* rows, const IXT* idx, const double* w, long long nnz,
                                      const int* part, const long long* pw, const long long* cap, int k, double* st,
                                      double* partial, unsigned int* ticket, int kind, int patience, double tol) {
    const bool on = kind == 0 || (kind == 1 ? lp_gate(st) : rb_gate(st));
    if (!on) {
        if (blockIdx.x == 0 && threadIdx.x == 0) st[S_COPY] = 0.0;
        return;
    }
    double s = 0.0;
    GRID_STRIDE(e, nnz) {
        if (part[rows[e]] != part[idx[e]]) s += w[e];
    }
    s = block_sum_f64(s);
    if (threadIdx.x == 0) partial[blockIdx.x] = s;
    if (!last_block(ticket)) return;
    if (threadIdx.x != 0) return;
    double cut = 0.0;
    for (unsigned int b = 0; b < gridDim.x; ++b) cut += __ldcg(partial + b);
    cut *= 0.5;
    long long m = __ldcg(pw) - cap[0];
    for (int q = 1; q < k; ++q) m = max(m, __ldcg(pw + q) - cap[q]);
    const double imb = (double)m;
    if (kind == 0) {
        st[S_CUT] = cut;
        st[S_IMB] = imb;
        st[S_BCUT] = cut;
        st[S_BIMB] = imb;
        st[S_COUNT] = 0.0;
        st[S_ROUNDS] = 0.0;
        st[S_DONE] = st[S_MAXR] <= 0.0 ? 1.0 : 0.0;
        st[S_COPY] = 1.0;
        return;
    }
    double bcut = st[S_BCUT], bimb = st[S_BIMB];
    double count = st[S_COUNT] + 1.0, rounds = st[S_ROUNDS] + 1.0;
    double copy = 0.0;
    if (bimb > 0.0 && imb < bimb) {
        copy = 1.0;
        bcut = cut;
        bimb = imb;
        count = 0.0;
    } else if (cut < bcut && (imb <= 0.0 || imb <= bimb)) {
        if (cut < tol * bcut) count = 0.0;
        copy = 1.0;
        bcut = cut;
        bimb = imb;
    }
    st[S_CUT] = cut;
    st[S_IMB] = imb;
    st[S_BCUT] = bcut;
    st[S_BIMB] = bimb;
    st[S_COUNT] = count;
    st[S_ROUNDS] = rounds;
    st[S_COPY] = copy;
    st[S_DONE] = (count < (double)patience && rounds < st[S_MAXR]) ? 0.0 : 1.0;
}

#ifdef LOOP
// Device-side loop of a level's refinement (a CUDA graph conditional WHILE node, CUDA >= 12.4):
// the loop goes on while the level is not done; st[S_ITER] counts the pairs of steps and stops
// the loop after S_MAXR + 1 of them whatever happens (each pair runs at least one step).
extern "C" __device__ void cudaGraphSetConditional(unsigned long long handle, unsigned int value);

extern "C" __global__ void jet_condition(unsigned long long handle, double* st) {
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        const bool more = st[S_DONE] == 0.0 && st[S_ITER] <= st[S_MAXR];
        st[S_ITER] += 1.0;
        cudaGraphSetConditional(handle, more ? 1u : 0u);
    }
}
#endif

// best = part when the last status asked for it.
extern "C" __global__ void jet_copy(int n, const int* part, int* best, const double* st) {
    if (st[S_COPY] == 0.0) return;
    GRID_STRIDE(v, n) best[v] = part[v];
}

// ---------------------------------------------------------------------------------------------
// Jet refinement: rebalancing (exact weights, no sort)
// ---------------------------------------------------------------------------------------------
//
// The vertices of a part above its cap (excess = pw - cap > 0) with 2 vw < 3 (pw - opt) are the
// candidates; each has a key (bucket of its loss per weight, then its id) and a preferred
// destination (its best other part below the destination limit). In each such part the
// candidates leave in key order while the weight before them is below the excess (evicted); an
// evicted vertex with a destination goes there while the weight that part takes, in key order,
// stays within its room (limit - pw); the others fill the light parts' remaining room in order
// of id, part by part ("cookie cutter").
//
// The thresholds (the last evicted key of each part, the first refused key of each destination)
// are found by radix selection: a histogram of the weights by one digit of the key (NB = 2^D
// bins per group, most significant digit first) among the keys that share the digits chosen so
// far, then the last block picks each group's digit, for L levels. The histogram rows are zero
// between uses (the picking warp zeroes what it read).
//
// sel: [0, k) prefix chosen so far, [k, 2k) weight of the keys below that prefix; sst: 0 none,
// 1 searching (after the last level: found), 2 every item (destinations with room for all).

// Pick each group's digit at one level (in the last block; one warp per group).
// mode 0 (eviction): the last nonempty bin whose exclusive prefix (base + bins before) is below
//   the excess; none: sst = 0.
// mode 1 (acceptance): the first bin whose inclusive prefix is above the room; none: sst = 2.
__device__ void select_level(long long* hist, int nb, int dbits, int k, int level, int mode, const long long* pw,
                             const long long* cap, const long long* limit, long long* sel, int* sst) {
    const int l = threadIdx.x & 31, wid = threadIdx.x >> 5, nw = blockDim.x >> 5;
    for (int g = wid; g < k; g += nw) {
        int state;
        long long hi, base;
        if (level == 0) {
            state = mode == 0 ? (pw[g] - cap[g] > 0 ? 1 : 0) : (pw[g] < limit[g] ? 1 : 0);
            hi = 0;
            base = 0;
        } else {
            state = sst[g];
            hi = sel[g];
            base = sel[k + g];
        }
        if (state != 1) {
            if (level == 0 && l == 0) {
                sst[g] = state;
                sel[g] = 0;
                sel[k + g] = 0;
            }
            continue;
        }
        const long long budget = mode == 0 ? pw[g] - cap[g] : max(limit[g] - pw[g], 0LL);
        long long* row = hist + (size_t)g * nb;
        long long run = base;
        int found = -1;
        long long fbase = 0;
        for (int c0 = 0; c0 < nb; c0 += 32) {
            const long long h = __ldcg(row + c0 + l);
            row[c0 + l] = 0;
            const long long inc = warp_incl_scan(h);
            const long long ex = run + inc - h;
            if (mode == 0) {
                const unsigned bal = __ballot_sync(FULL, h > 0 && ex < budget);
                if (bal) {
                    const int t = 31 - __clz((int)bal);
                    found = c0 + t;
                    fbase = __shfl_sync(FULL, ex, t);
                }
            } else if (found < 0) {
                const unsigned bal = __ballot_sync(FULL, run + inc > budget);
                if (bal) {
                    const int t = __ffs((int)bal) - 1;
                    found = c0 + t;
                    fbase = __shfl_sync(FULL, ex, t);
                }
            }
            run += __shfl_sync(FULL, inc, 31);
        }
        if (l == 0) {
            if (found < 0) {
                sst[g] = mode == 0 ? 0 : 2;
            } else {
                sst[g] = 1;
                sel[g] = (hi << dbits) | found;
                sel[k + g] = fbase;
            }
        }
    }
}

// Rebalancing step 1 (group kernel, like jet_lp): each vertex's preferred destination dest[v]
// (its best other part below the limit, -1: none) and, for the candidates, key[v] (others -1);
// the first level of the eviction selection.
extern "C" __global__ void rb_conn(const IPT* ptr, const IXT* idx, const double* w, const int* part,
                                   const long long* vw, int n, int k, const long long* pw, const long long* cap,
                                   const long long* opt, const long long* limit, int idbits, int* dest, long long* key,
                                   long long* hist, int nb, int dbits, int shift, long long* sel, int* sst,
                                   unsigned int* ticket, const double* st) {
    if (!rb_gate(st)) return;
    extern __shared__ double conn_all[];
    GROUP_SETUP
    double* conn = conn_all + (size_t)group * k;
    const int p = active ? part[v] : 0;
    double bc, own;
    int bq;
    group_conn(ptr, idx, w, part, k, active, v, lane, p, conn, pw, limit, bc, bq, own);
    if (lane == 0 && active) {
        const long long wv = vw[v];
        long long kv = -1;
        if (pw[p] - cap[p] > 0 && 2 * wv < 3 * (pw[p] - opt[p])) {
            const double g = (bq >= 0 ? bc : 0.0) - own;
            double r = -g / (double)wv;
            if (r == 0.0) r = 0.0;  // one zero: +0
            const unsigned int u = __float_as_uint((float)r);
            const unsigned int m = (u & 0x80000000u) ? ~u : (u | 0x80000000u);  // orders like r
            kv = ((long long)(m >> (32 - BUCKET_BITS)) << idbits) | v;
            atomicAdd((ull*)(hist + (size_t)p * nb + ((kv >> shift) & (nb - 1))), (ull)wv);
        }
        key[v] = kv;
        dest[v] = bq;
    }
    if (last_block(ticket)) select_level(hist, nb, dbits, k, 0, 0, pw, cap, limit, sel, sst);
}

// One more level of a selection: mode 0 (eviction: the candidates, by part), mode 1
// (acceptance: the evicted vertices with a destination, ev == 1, by destination).
extern "C" __global__ void rb_level(int n, int k, int mode, int level, int shift, const int* part, const int* dest,
                                    const long long* key, const signed char* ev, const long long* vw,
                                    const long long* pw, const long long* cap, const long long* limit,
                                    long long* hist, int nb, int dbits, long long* sel, int* sst,
                                    unsigned int* ticket, const double* st) {
    if (!rb_gate(st)) return;
    GRID_STRIDE(v, n) {
        const long long kv = key[v];
        int g;
        if (mode == 0) {
            if (kv < 0) continue;
            g = part[v];
        } else {
            if (ev[v] != 1) continue;
            g = dest[v];
        }
        if (sst[g] != 1 || (kv >> (shift + dbits)) != sel[g]) continue;
        atomicAdd((ull*)(hist + (size_t)g * nb + ((kv >> shift) & (nb - 1))), (ull)vw[v]);
    }
    if (last_block(ticket)) select_level(hist, nb, dbits, k, level, mode, pw, cap, limit, sel, sst);
}

// ev[v] = 1 (evicted, with a destination), 2 (evicted, none) or 0, from the eviction thresholds
// (sel, sst); the first level of the acceptance selection (selection arrays sela, ssta).
extern "C" __global__ void rb_evict(int n, int k, int shift, const int* part, const int* dest, const long long* key,
                                    const long long* vw, const long long* pw, const long long* cap,
                                    const long long* limit, const long long* sel, const int* sst, signed char* ev,
                                    long long* hist, int nb, int dbits, long long* sela, int* ssta,
                                    unsigned int* ticket, const double* st) {
    if (!rb_gate(st)) return;
    GRID_STRIDE(v, n) {
        const long long kv = key[v];
        signed char e = 0;
        if (kv >= 0) {
            const int p = part[v];
            if (sst[p] == 1 && kv <= sel[p]) e = dest[v] >= 0 ? 1 : 2;
        }
        ev[v] = e;
        if (e == 1) atomicAdd((ull*)(hist + (size_t)dest[v] * nb + ((kv >> shift) & (nb - 1))), (ull)vw[v]);
    }
    if (last_block(ticket)) select_level(hist, nb, dbits, k, 0, 1, pw, cap, limit, sela, ssta);
}

// Accepted moves (ev = 3, taken[d] += vw) and the rest (ev = 4); bsum[b] = the rest's weight in
// block b's vertices; the last block turns bsum into exclusive offsets and sets ends (the
// inclusive running sum over the parts of their remaining room: 0 for a part at or above its
// cap, else max(limit - pw - taken, 0)); taken goes back to zero.
extern "C" __global__ void rb_rest(int n, int k, const int* dest, const long long* key, const long long* vw,
                                   const long long* pw, const long long* cap, const long long* limit,
                                   const long long* sela, const int* ssta, signed char* ev, long long* taken,
                                   long long* bsum, long long* ends, unsigned int* ticket, const double* st) {
    if (!rb_gate(st)) return;
    const long long base = (long long)blockIdx.x * CH + (long long)threadIdx.x * CH_ITEMS;
    long long s = 0;
    for (int j = 0; j < CH_ITEMS; ++j) {
        const long long v = base + j;
        if (v >= n) break;
        const signed char e = ev[v];
        if (e == 0) continue;
        bool acc = false;
        if (e == 1) {
            const int d = dest[v];
            const int sa = ssta[d];
            acc = sa == 2 || (sa == 1 && key[v] < sela[d]);
            if (acc) atomicAdd((ull*)(taken + d), (ull)vw[v]);
        }
        if (acc) {
            ev[v] = 3;
        } else {
            ev[v] = 4;
            s += vw[v];
        }
    }
    long long tot;
    block_excl_scan(s, &tot);
    if (threadIdx.x == 0) bsum[blockIdx.x] = tot;
    if (!last_block(ticket)) return;
    block_excl_scan_array(bsum, gridDim.x);
    if (threadIdx.x == 0) {
        long long run = 0;
        for (int q = 0; q < k; ++q) {
            const long long t = __ldcg(taken + q);
            const long long room = max(limit[q] - pw[q], 0LL);
            run += pw[q] - cap[q] >= 0 ? 0 : max(room - t, 0LL);
            ends[q] = run;
            taken[q] = 0;
        }
    }
}

// The moves: ev 3 -> dest; ev 4 -> the part q where the rest's running weight falls
// (q = number of ends <= at, at = the exclusive running weight of the rest in order of id), if
// q < k; part weights follow.
extern "C" __global__ void rb_assign(int n, int k, const int* dest, const long long* vw, const signed char* ev,
                                     const long long* bsum, const long long* ends, int* part, long long* pw,
                                     const double* st) {
    if (!rb_gate(st)) return;
    const long long base = (long long)blockIdx.x * CH + (long long)threadIdx.x * CH_ITEMS;
    long long s = 0;
    for (int j = 0; j < CH_ITEMS; ++j) {
        const long long v = base + j;
        if (v >= n) break;
        if (ev[v] == 4) s += vw[v];
    }
    long long tot;
    long long at = block_excl_scan(s, &tot) + bsum[blockIdx.x];
    for (int j = 0; j < CH_ITEMS; ++j) {
        const long long v = base + j;
        if (v >= n) break;
        const signed char e = ev[v];
        int to = -1;
        if (e == 3) {
            to = dest[v];
        } else if (e == 4) {
            int lo = 0, hi = k;  // number of ends <= at
            while (lo < hi) {
                const int mid = (lo + hi) >> 1;
                if (ends[mid] <= at) lo = mid + 1; else hi = mid;
            }
            if (lo < k) to = lo;
            at += vw[v];
        }
        if (to >= 0) {
            const int p = part[v];
            part[v] = to;
            atomicAdd((ull*)(pw + p), (ull)(-vw[v]));
            atomicAdd((ull*)(pw + to), (ull)vw[v]);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// small helpers
// ---------------------------------------------------------------------------------------------

// out[idx[i]] += val[i] (int64, exact in any order).
extern "C" __global__ void scatter_add_i64(const int* idx, const long long* val, long long m, long long* out) {
    GRID_STRIDE(i, m) atomicAdd((ull*)(out + idx[i]), (ull)val[i]);
}

// out[0] += the weight of the edges between parts (each once). out must be zero on entry.
extern "C" __global__ void edge_cut(const int* rows, const IXT* idx, const double* w, long long nnz, const int* part,
                                    double* out) {
    double s = 0.0;
    GRID_STRIDE(e, nnz) {
        if (part[rows[e]] != part[idx[e]]) s += w[e];
    }
    s = block_sum_f64(s);
    if (threadIdx.x == 0 && s != 0.0) atomicAdd(out, 0.5 * s);
}
