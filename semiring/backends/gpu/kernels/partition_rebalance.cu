// Multilevel partitioning on the device, Jet's rebalancing steps (partition.cuh).
#include "partition.cuh"

// ---------------------------------------------------------------------------------------------
// block scans
// ---------------------------------------------------------------------------------------------

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
    GROUP_SETUP
    const Conn vc = group_conn(ptr, idx, w, part, k, active, v, lane, group, pw, limit);
    if (lane == 0 && active) {
        const int p = vc.p;
        const long long wv = vw[v];
        long long kv = -1;
        if (pw[p] - cap[p] > 0 && 2 * wv < 3 * (pw[p] - opt[p])) {
            const double g = (vc.bq >= 0 ? vc.bc : 0.0) - vc.own;
            double r = -g / (double)wv;
            if (r == 0.0) r = 0.0;  // one zero: +0
            const unsigned int u = __float_as_uint((float)r);
            const unsigned int m = (u & 0x80000000u) ? ~u : (u | 0x80000000u);  // orders like r
            kv = ((long long)(m >> (32 - BUCKET_BITS)) << idbits) | v;
            atomicAdd((ull*)(hist + (size_t)p * nb + ((kv >> shift) & (nb - 1))), (ull)wv);
        }
        key[v] = kv;
        dest[v] = vc.bq;
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
