// Device-resident vector operations: every vector is a bitmap (a presence array and a dense
// value array) with its entry count in device memory, so no operation needs the host.
//
// pointwise: T(i) from the operands at i (TERM), then the write step of the GraphBLAS C API
//            (section 3.5.4): mask, accumulate, replace, typecast into C, and C's new count
//            (published by the last block: no memset before the launch).
// product:   T = A (+).(x) u in one launch that takes its direction on the device (DIRECTION 0)
//            from the input's and the mask's counts:
//   pull:    T(r) = (+) over k of A(r,k) (x) u(k), one block per row of PULL_HEAVY edges or
//            more, a group of ROW_LANES lanes (a power of two up to a warp, near the mean
//            degree; 1: a thread) per other row the mask allows, stopping at the monoid's
//            terminal value;
//   push:    T(j) (+)= u(k) (x) A(k,j) for every k present in u: each warp takes 32 positions of
//            u's bitmap and expands their rows together (lanes over edges), combining into T
//            with the monoid's atomic.
// T goes into a scratch bitmap that is all-absent (and identity-valued) at rest; the
// pointwise write step that follows consumes it and puts it back at rest.
//
// Host definitions: TC TZ TX TY TM TS (C types), TERM (a statement setting bool tp and TZ tv
// from xp, xv, yp, yv, s, i), RESET_X, MASK (0 none, 1 structure, 2 value), MCOMP, ACCUM,
// ACCUM_OP (in x, y of type TAI, giving TAO), REPLACE, OLD, LIST_OUT (C keeps an entry list),
// DRIVER (0 none, 1 x's list, 2 the mask's: which list may stand for the positions to visit);
// for the products T_LIST (T's entries are listed when pushed), TIN, MULT (in x,
// y, i, j, k), MONOID (in x, y), IS_ANY, HAS_TERMINAL, TERMINAL, COMBINE (a statement
// combining z into T at j), IS_VXM, DIRECTION (0 device-chosen, 1 push, 2 pull), PULL_BIAS,
// ROW_LANES, PUSH_LANES, PULL_HEAVY, TA, and the index types of the rows pushed (BPT, BXT) and pulled (PPT, PXT).
#include "common.cuh"

#ifndef MASK
#define MASK 0
#endif
#ifndef MCOMP
#define MCOMP 0
#endif

__device__ __forceinline__ bool allowed_at(i64 i, const bool* mp, const TM* mv) {
    bool a = true;
#if MASK == 1
    a = mp[i];
#elif MASK == 2
    a = mp[i] && (mv[i] != (TM)0);
#endif
#if MCOMP
    a = !a;
#endif
    return a;
}

// Entry lists. A vector of LIST_MIN positions or more (chosen on the host) also keeps the list
// of its present positions, unordered, in one of two int32 buffers, next to the bitmap. Its
// count array holds {count, list valid, current buffer, 0}: when valid, buffer [current] lists
// exactly the count present positions. An operation whose inputs are listed and few (at most
// `cap` positions to visit) walks the lists instead of the whole bitmap: its work is then
// O(entries), not O(size), which is what a traversal of a road network needs (a frontier of
// a thousand vertices among millions). The decision is taken on the device from the counts.

// A block's ticket: an atomic increment with acquire-release semantics at the device's scope
// (the block's writes, ordered before it by a barrier, are visible to whoever takes a later
// ticket), so no separate fences are needed.
__device__ __forceinline__ unsigned int ticket(unsigned int* p) {
    unsigned int old;
    asm volatile("atom.acq_rel.gpu.global.add.u32 %0, [%1], 1;" : "=r"(old) : "l"(p) : "memory");
    return old;
}

// Ask for the line holding *p now (a hint: no register waits on it), so that a load of it
// behind a branch does not start a memory round trip of its own.
__device__ __forceinline__ void prefetch(const void* p) {
    asm volatile("prefetch.global.L1 [%0];" :: "l"(p));
}

// Append p to list[base + slot], the slots numbered by an atomic cursor, one atomic per warp.
__device__ __forceinline__ void append(int* list, i64 base, u64* cursor, i64 p) {
    const unsigned am = __activemask();
    const int leader = __ffs(am) - 1, lane = (int)lane_id();
    u64 start = 0;
    if (lane == leader) start = atomicAdd(cursor, (u64)__popc(am));
    start = __shfl_sync(am, start, leader);
    list[base + (i64)start + __popc(am & ((1u << lane) - 1u))] = (int)p;
}

#ifdef POINTWISE
#ifndef UNROLL
#define UNROLL 4
#endif
#ifndef DRIVER
#define DRIVER 0
#endif
#ifndef LIST_OUT
#define LIST_OUT 0
#endif
// List mode (OLD, LIST_OUT and a DRIVER: 1, x's list covers T's entries; 2, the mask's list
// covers the allowed positions) visits the driver's positions, and C's own entries when
// positions outside the driver's can change: replace clears C outside the mask, and without
// an accumulator C = T where allowed, so C's entries where T is absent go.
#define LISTS (OLD && LIST_OUT && DRIVER)
#if REPLACE || (!ACCUM && DRIVER == 1)
#define NEED_C 1
#else
#define NEED_C 0
#endif

// The write step at one position: C's new entry (returned presence, nv) from T's (tp, tv),
// C's old (op, ov) and whether the mask allows the position.
__device__ __forceinline__ bool write_entry(bool tp, TZ tv, bool op, TC ov, bool allow, TC& nv) {
    bool np = op;
    nv = ov;
    if (allow) {
#if ACCUM
        if (op && tp) { TAI x = (TAI)ov, y = (TAI)tv; nv = (TC)(TAO)(ACCUM_OP); np = true; }
        else if (tp) { nv = (TC)tv; np = true; }
#else
        np = tp;
        nv = (TC)tv;
#endif
    } else {
#if REPLACE
        np = false;
#endif
    }
    return np;
}

__device__ __forceinline__ void store_entry(i64 i, bool np, TC nv, bool op, TC ov, bool* cp, TC* cv) {
#if OLD
    // in place: write only what changes (a road network's frontier touches few positions)
    if (np != op) cp[i] = np;
    if (np && (!op || nv != ov)) cv[i] = nv;
#else
    (void)op; (void)ov;
    cp[i] = np;
    if (np) cv[i] = nv;
#endif
}

// count: C's count array {count, list valid, current buffer, 0}; acc: {sum, ticket, list
// cursor, an entry removed}, zero at rest; xh: x's count array (the product's scratch: {list
// length, listed}, put back at rest here); mh: the mask's. cl0/cl1: C's list buffers.
extern "C" __global__ void pointwise(i64 n, bool* xp, TX* xv, const bool* yp, const TY* yv,
        const TS* sp, TS sh, i64 thunk_i, const bool* mp, const TM* mv, bool* cp, TC* cv,
        i64* count, i64* acc, TX reset_value, i64* xh, const int* xl0, const int* xl1,
        const i64* mh, const int* ml0, const int* ml1, int* cl0, int* cl1, i64 cap) {
    i64 mine = 0;
    TS s = sp ? *sp : sh;
    (void)s; (void)thunk_i; (void)yp; (void)yv; (void)reset_value; (void)xl0; (void)xl1; (void)mh; (void)ml0;
    (void)ml1; (void)cl0; (void)cl1; (void)cap;
    u64* cursor = (u64*)(acc + 2);
    i64 old_count = 0;
    bool cvalid = false;
    int which = 0;
#if OLD && LIST_OUT
    old_count = count[0];
    cvalid = count[1] != 0;
    which = (int)count[2];
#endif
    int mode = 0;  // 0: the whole bitmap; 1: lists, C's rebuilt; 2: lists, C's patched
#if LISTS
    {
#if DRIVER == 1
        const bool dvalid = xh[1] != 0;
        const i64 nd = xh[0];
        const int* dl = xh[2] ? xl1 : xl0;
#else
        const bool dvalid = mh[1] != 0;
        const i64 nd = mh[0];
        const int* dl = mh[2] ? ml1 : ml0;
#endif
#if NEED_C
        const i64 nc = old_count;
        const int* clist = which ? cl1 : cl0;
        if (dvalid && cvalid && nd + nc <= cap) mode = 1;
        int* target = which ? cl0 : cl1;  // rebuilt in the other buffer
        const i64 base = 0;
#else
        const i64 nc = 0;
        const int* clist = dl;
        if (dvalid && nd <= cap) mode = 2;
        int* target = which ? cl1 : cl0;  // new entries appended to the current one
        const i64 base = old_count;
#endif
        if (mode) {
            // (every block takes its ticket below, those without positions too: the last block
            // publishes only once every block has read the counts it decided from)
            GRID_STRIDE(t, nd + nc) {
                const bool from_c = t >= nd;
                const i64 i = from_c ? (i64)clist[t - nd] : (i64)dl[t];
                bool tp = false;
                const bool op = cp[i];
                TZ tv = (TZ)0;
                const TC cvi = cv[i];  // (loaded with the presence, not after it: one round trip)
                const TC ov = op ? cvi : (TC)0;
#if DRIVER == 1 || RESET_X
                prefetch(xp + i);  // (x's presence and value come in with C's, not after them)
                prefetch(xv + i);
#endif
#if MASK == 2
                prefetch(mv + i);
#endif
                const bool allow = allowed_at(i, mp, mv);
                if (!from_c) {
#if RESET_X && NEED_C
                    // an entry of C: C's part takes it (it reads T there and puts T back at rest)
                    if (op) continue;
#endif
                    TERM
#if RESET_X
                    if (tp) { xp[i] = false; xv[i] = reset_value; }
#endif
                } else {
#if RESET_X
                    tp = xp[i];
                    if (tp) { tv = (TZ)xv[i]; xp[i] = false; xv[i] = reset_value; }
#elif DRIVER == 1
                    if (xp[i]) continue;  // one of x's: done in x's part
#else
                    if (mp[i]) continue;  // one of the mask's: done in the mask's part
#endif
                }
                TC nv;
                const bool np = write_entry(tp, tv, op, ov, allow, nv);
                store_entry(i, np, nv, op, ov, cp, cv);
#if NEED_C
                if (np) append(target, base, cursor, i);
#else
                mine += (i64)np - (i64)op;
                if (np && !op && cvalid) append(target, base, cursor, i);
                if (op && !np) atomicOr((unsigned long long*)(acc + 3), 1ull);
#endif
            }
        }
    }
#endif
    if (!mode) {
        int* target = which ? cl0 : cl1;  // C's list is rebuilt in the other buffer while short
        (void)target;
        // UNROLL positions per thread and pass: all their loads first (no store between them,
        // so the loads overlap), then the write step and the stores. Each position is one
        // thread's alone, so in-place operands (out = x, mask = out) are safe.
        const i64 stride = (i64)gridDim.x * blockDim.x;
        for (i64 base = (i64)blockIdx.x * blockDim.x + threadIdx.x; base < n; base += UNROLL * stride) {
            bool tps[UNROLL], ops[UNROLL], oks[UNROLL];
            TZ tvs[UNROLL];
            TC ovs[UNROLL];
#pragma unroll
            for (int u = 0; u < UNROLL; ++u) {
                const i64 i = base + u * stride;
                bool tp = false, op = false, allow = false;
                TZ tv = (TZ)0;
                TC ov = (TC)0;
                if (i < n) {
                    TERM
#if OLD
                    op = cp[i];
                    if (op) ov = cv[i];
#endif
                    allow = allowed_at(i, mp, mv);
                }
                tps[u] = tp; tvs[u] = tv; ops[u] = op; ovs[u] = ov; oks[u] = allow;
            }
#if LIST_OUT
            const bool listing = *(volatile u64*)cursor < (u64)cap;
#endif
#pragma unroll
            for (int u = 0; u < UNROLL; ++u) {
                const i64 i = base + u * stride;
                if (i >= n) break;
#if RESET_X
                // (T came from the scratch bitmap x: tp is x's presence here; put it back at rest)
                if (tps[u]) { xp[i] = false; xv[i] = reset_value; }
#endif
                TC nv;
                const bool np = write_entry(tps[u], tvs[u], ops[u], ovs[u], oks[u], nv);
                store_entry(i, np, nv, ops[u], ovs[u], cp, cv);
                mine += np;
#if LIST_OUT
                if (np && listing) append(target, 0, cursor, i);
#endif
            }
        }
    }
    // publish C's count and list state (the last block to finish; no memset before the launch):
    // each block's ticket is an acquire-release atomic, so the last block sees every block's
    // sums, appends and stores
    __shared__ bool last;
    const i64 total = block_sum(mine);
    if (threadIdx.x == 0) {
        if (total) atomicAdd((u64*)acc, (u64)total);
        last = (ticket((unsigned int*)(acc + 1)) == gridDim.x - 1);
    }
    __syncthreads();
    if (last && threadIdx.x == 0) {
        const i64 sum = ((volatile i64*)acc)[0];
        const i64 listed = ((volatile i64*)acc)[2];
        const bool removed = ((volatile i64*)acc)[3] != 0;
        if (mode == 1) {
            count[0] = listed; count[1] = 1; count[2] = which ^ 1;
        } else if (mode == 2) {
            count[0] = old_count + sum; count[1] = cvalid && !removed;
        } else {
            count[0] = sum;
            count[1] = LIST_OUT && listed == sum;  // every entry listed
            count[2] = LIST_OUT ? which ^ 1 : 0;
        }
        acc[0] = 0; acc[1] = 0; acc[2] = 0; acc[3] = 0;
#if RESET_X
        xh[0] = 0; xh[1] = 0;
#endif
    }
}
#endif

#if defined(PRODUCT) || defined(REDUCE)
// Monoid folds with a presence flag (an absent operand is not the identity: `any` has none).
__device__ __forceinline__ void fold(bool& found, TZ& acc, bool f2, TZ z) {
    if (!f2) return;
    if (!found) { acc = z; found = true; return; }
    TZ x = acc, y = z;
    (void)x; (void)y;
    acc = (TZ)(MONOID);
}

__device__ __forceinline__ bool done(bool found, TZ acc) {
#if IS_ANY
    return found;
#elif HAS_TERMINAL
    return found && acc == (TZ)(TERMINAL);
#else
    (void)found; (void)acc;
    return false;
#endif
}

// Shuffles of any value type, within groups of `width` lanes (`mask`: the lanes of the group).
#define FULL_MASK 0xffffffffu
template <typename T> __device__ __forceinline__ T shfl_down(T v, int o, unsigned m = FULL_MASK, int w = 32) {
    return __shfl_down_sync(m, v, o, w);
}
template <> __device__ __forceinline__ bool shfl_down<bool>(bool v, int o, unsigned m, int w) {
    return (bool)__shfl_down_sync(m, (int)v, o, w);
}
template <> __device__ __forceinline__ signed char shfl_down<signed char>(signed char v, int o, unsigned m, int w) {
    return (signed char)__shfl_down_sync(m, (int)v, o, w);
}
template <> __device__ __forceinline__ unsigned char shfl_down<unsigned char>(unsigned char v, int o, unsigned m,
                                                                             int w) {
    return (unsigned char)__shfl_down_sync(m, (unsigned)v, o, w);
}
template <> __device__ __forceinline__ short shfl_down<short>(short v, int o, unsigned m, int w) {
    return (short)__shfl_down_sync(m, (int)v, o, w);
}
template <> __device__ __forceinline__ unsigned short shfl_down<unsigned short>(unsigned short v, int o, unsigned m,
                                                                               int w) {
    return (unsigned short)__shfl_down_sync(m, (unsigned)v, o, w);
}

#endif

#ifdef PRODUCT
#ifndef T_LIST
#define T_LIST 0
#endif
// The direction this call takes: push when the terms it expands (entries of u times the mean
// degree of A's rows) are fewer than PULL_BIAS times the terms a pull visits (allowed outputs
// times the mean degree of the rows it walks).
// The terms push expands: the exact edges of u's entries (the estimate kernel's sum) on skewed
// matrices (ESTIMATE), else entries times the mean degree; a pull's: allowed outputs times the
// mean degree of the rows it walks.
__device__ __forceinline__ bool push_wins(const i64* ucount, const i64* est, const i64* mcount, i64 n_out,
                                          double in_degree, double out_degree) {
#if DIRECTION == 1
    return true;
#elif DIRECTION == 2
    return false;
#else
    i64 allowed = n_out;
#if MASK
    allowed = *mcount;
#if MCOMP
    allowed = n_out - allowed;
#endif
#endif
#if ESTIMATE
    double terms = (double)est[2];
#else
    double terms = (double)(*ucount) * in_degree;
#endif
    return terms < PULL_BIAS * (double)allowed * out_degree;
#endif
}

// Before a product that may push: the edges of u's entries (est[2]) and u's entries of at least
// HEAVY edges (heavy[0 .. est[4]), at most one per HEAVY edges of B, so the list never
// overflows). est[0], est[1], est[3] are accumulators, zero at rest: the last block publishes
// and resets them.
extern "C" __global__ void estimate(i64 n_in, const BPT* indptr, const bool* upresent, const i64* uh,
        const int* ul0, const int* ul1, i64* est, i64* heavy) {
    i64 mine = 0;
    const bool listed = uh[1] != 0;  // u's entry list (exact when valid): walk it, not the bitmap
    const int* ul = uh[2] ? ul1 : ul0;
    GRID_STRIDE(t, listed ? uh[0] : n_in) {
        const i64 k = listed ? (i64)ul[t] : t;
        if (!listed && !upresent[k]) continue;
        i64 d = (i64)indptr[k + 1] - (i64)indptr[k];
        mine += d;
        if (d >= HEAVY) heavy[atomicAdd((u64*)(est + 3), 1ull)] = k;
    }
    __shared__ bool last;
    i64 total = block_sum(mine);
    if (threadIdx.x == 0) {
        if (total) atomicAdd((u64*)est, (u64)total);
        __threadfence();
        unsigned int t = atomicAdd((unsigned int*)(est + 1), 1u);
        last = (t == gridDim.x - 1);
    }
    __syncthreads();
    if (last && threadIdx.x == 0) {
        __threadfence();
        est[2] = (i64)atomicAdd((u64*)est, 0ull);
        est[4] = (i64)atomicAdd((u64*)(est + 3), 0ull);
        est[0] = 0;
        est[1] = 0;
        est[3] = 0;
    }
}

// pull: mxv is A(r,k) (x) u(k); vxm walks the transpose: u(k) (x) AT(r,k)
__device__ __forceinline__ TZ multiply(const TA a, const TU u, i64 r, i64 k) {
#if IS_VXM
    TIN x = (TIN)u, y = (TIN)a;
    i64 i = 0, j = r;
#else
    TIN x = (TIN)a, y = (TIN)u;
    i64 i = r, j = 0;
#endif
    (void)i; (void)j; (void)k;
    return (TZ)(MULT);
}

// Pull of the heavy rows (PULL_HEAVY edges or more, listed by the host once per matrix): a
// block per row, each thread folding UNROLL_PULL terms per pass with their loads issued
// together, the block stopping as one at the monoid's terminal value; then a warp and a block
// fold of the (found, value) pairs.
#ifndef UNROLL_PULL
#define UNROLL_PULL 4
#endif
template <typename PT, typename XT>
__device__ __forceinline__ void pull_heavy(const PT* indptr, const XT* indices, const TA* avals,
        const bool* upresent, const TU* udense, const bool* mp, const TM* mv, bool* tp, TZ* tv,
        const i64* rows, i64 nrows) {
    __shared__ TZ wa[32];
    __shared__ bool wf[32];
    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5, nw = blockDim.x >> 5;
    for (i64 h = blockIdx.x; h < nrows; h += gridDim.x) {
        const i64 r = rows[h];
        if (!allowed_at(r, mp, mv)) continue;  // (the same for the whole block)
        bool found = false;
        TZ acc = (TZ)0;
        const i64 lo = (i64)indptr[r], hi = (i64)indptr[r + 1];
        // (every thread of the block makes the same passes: the stop is a block barrier)
        for (i64 base = lo; base < hi; base += UNROLL_PULL * (i64)blockDim.x) {
            i64 ks[UNROLL_PULL];
#pragma unroll
            for (int u = 0; u < UNROLL_PULL; ++u) {
                const i64 p = base + threadIdx.x + u * (i64)blockDim.x;
                ks[u] = p < hi ? (i64)indices[p] : -1;
            }
#pragma unroll
            for (int u = 0; u < UNROLL_PULL; ++u) {
                const i64 p = base + threadIdx.x + u * (i64)blockDim.x;
                if (ks[u] >= 0 && upresent[ks[u]]) fold(found, acc, true, multiply(avals[p], udense[ks[u]], r, ks[u]));
            }
#if IS_ANY || HAS_TERMINAL
            if (__syncthreads_or(done(found, acc))) break;
#endif
        }
        for (int o = 16; o > 0; o >>= 1) {
            bool f2 = shfl_down(found, o);
            TZ z = shfl_down(acc, o);
            fold(found, acc, f2, z);
        }
        if (lane == 0) { wf[w] = found; wa[w] = acc; }
        __syncthreads();
        if (threadIdx.x == 0) {
            bool bf = false;
            TZ b = (TZ)0;
            for (int i = 0; i < nw; ++i) fold(bf, b, wf[i], wa[i]);
            if (bf) { tp[r] = true; tv[r] = b; }
        }
        __syncthreads();
    }
}

// Pull: rows r of A (the operand's rows for mxv, its transpose's for vxm) the mask allows;
// rows of PULL_HEAVY edges or more are the heavy pull's (a block each).
template <typename PT, typename XT>
__device__ __forceinline__ void pull(i64 n_out, const PT* indptr, const XT* indices, const TA* avals,
        const bool* upresent, const TU* udense, const bool* mp, const TM* mv, bool* tp, TZ* tv,
        const i64* heavy_rows, i64 n_heavy) {
    if (n_heavy) pull_heavy<PT, XT>(indptr, indices, avals, upresent, udense, mp, mv, tp, tv, heavy_rows, n_heavy);
#if ROW_LANES > 1
    // a group of ROW_LANES lanes per row (a power of two near the mean degree, up to a warp):
    // the groups of a warp walk different rows at once, so their loads overlap
    const int lane = threadIdx.x & (ROW_LANES - 1);
#if ROW_LANES == 32
    const unsigned gmask = FULL_MASK;
#else
    const unsigned gmask = ((1u << ROW_LANES) - 1u) << ((threadIdx.x & 31) & ~(ROW_LANES - 1));
#endif
    const i64 group = ((i64)blockIdx.x * blockDim.x + threadIdx.x) / ROW_LANES;
    const i64 ngroups = ((i64)gridDim.x * blockDim.x) / ROW_LANES;
    for (i64 r = group; r < n_out; r += ngroups) {
        if (!allowed_at(r, mp, mv) || (n_heavy && (i64)indptr[r + 1] - (i64)indptr[r] >= PULL_HEAVY)) continue;
        bool found = false;
        TZ acc = (TZ)0;
        const i64 hi = (i64)indptr[r + 1];
        for (i64 base = indptr[r]; base < hi; base += ROW_LANES) {
            i64 p = base + lane;
            if (p < hi) {
                i64 k = indices[p];
                if (upresent[k]) fold(found, acc, true, multiply(avals[p], udense[k], r, k));
            }
#if IS_ANY || HAS_TERMINAL
            if (__any_sync(gmask, done(found, acc))) break;
#endif
        }
        for (int o = ROW_LANES / 2; o > 0; o >>= 1) {
            bool f2 = shfl_down(found, o, gmask, ROW_LANES);
            TZ z = shfl_down(acc, o, gmask, ROW_LANES);
            fold(found, acc, f2, z);
        }
        if (lane == 0 && found) { tp[r] = true; tv[r] = acc; }
    }
#else
    GRID_STRIDE(r, n_out) {
        if (!allowed_at(r, mp, mv) || (n_heavy && (i64)indptr[r + 1] - (i64)indptr[r] >= PULL_HEAVY)) continue;
        bool found = false;
        TZ acc = (TZ)0;
        for (i64 p = indptr[r]; p < (i64)indptr[r + 1]; ++p) {
            i64 k = indices[p];
            if (!upresent[k]) continue;
            fold(found, acc, true, multiply(avals[p], udense[k], r, k));
            if (done(found, acc)) break;
        }
        if (found) { tp[r] = true; tv[r] = acc; }
    }
#endif
}

// Push: rows k of B (A for vxm, A^T for mxv) at u's entries, expanded by whole warps.
// vxm: u(k) (x) A(k,j), positions (k, j); mxv through A^T: A(j,k) (x) u(k), positions (j, k).
__device__ __forceinline__ TZ multiply_push(const TA a, const TU u, i64 k, i64 jj) {
#if !IS_VXM
    TIN x = (TIN)a, y = (TIN)u;
    i64 i = jj, j = 0;
#else
    TIN x = (TIN)u, y = (TIN)a;
    i64 i = 0, j = jj;
#endif
    (void)i; (void)j; (void)k;
    return (TZ)(MULT);
}

// T's entry list (T_LIST): the thread that sets a presence byte (an atomic on its word) lists
// the position, so the list has each entry once.
struct TList { i64* h; int* l; };

// LOOK_FIRST: read the presence byte before the atomic (a bitmap push of many entries meets
// the same outputs again and again); a listed, short input goes straight to the atomic.
template <typename PT, typename XT, bool LOOK_FIRST = true>
__device__ __forceinline__ void push_edge(i64 k, i64 p, const XT* indices, const TA* avals, TU uk,
        const bool* mp, const TM* mv, bool* tp, TZ* tv, TList tl) {
    i64 jj = indices[p];
    if (!allowed_at(jj, mp, mv)) return;
    TZ z = multiply_push(avals[p], uk, k, jj);
    COMBINE
#if T_LIST
    if (!LOOK_FIRST || !((volatile bool*)tp)[jj]) {
        const unsigned long long addr = (unsigned long long)(tp + jj);
        const unsigned bit = 1u << (8 * (addr & 3ull));
        if (!(atomicOr((unsigned int*)(addr & ~3ull), bit) & bit)) append(tl.l, 0, (u64*)tl.h, jj);
    }
#else
    (void)tl;
    tp[jj] = true;
#endif
}

template <typename PT, typename XT>
__device__ __forceinline__ void push(i64 n_in, const PT* indptr, const XT* indices, const TA* avals,
        const bool* upresent, const TU* udense, const i64* uh, const int* ul, const bool* mp, const TM* mv,
        bool* tp, TZ* tv, const i64* est, const i64* heavy, TList tl) {
    int lane = threadIdx.x & 31;
    i64 warp = ((i64)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    i64 nwarps = ((i64)gridDim.x * blockDim.x) >> 5;
    // entries of HEAVY edges or more: every thread of the grid takes some of their edges
#if ESTIMATE
    i64 nheavy = est[4];
#else
    i64 nheavy = 0;
#endif
    for (i64 h = 0; h < nheavy; ++h) {
        i64 k = heavy[h];
        TU uk = udense[k];
        GRID_STRIDE(t, (i64)indptr[k + 1] - (i64)indptr[k])
            push_edge<PT, XT>(k, (i64)indptr[k] + t, indices, avals, uk, mp, mv, tp, tv, tl);
    }
    if (uh[1]) {
        // u's entry list: a group of PUSH_LANES lanes (sized to B's mean degree) per entry, so
        // that a short list still spreads over the grid (a warp walking 32 rows one after
        // another would wait 32 memory round trips)
        const i64 nu = uh[0];
        const int glane = threadIdx.x & (PUSH_LANES - 1);
        const i64 ngroups = ((i64)gridDim.x * blockDim.x) / PUSH_LANES;
        for (i64 t = ((i64)blockIdx.x * blockDim.x + threadIdx.x) / PUSH_LANES; t < nu; t += ngroups) {
            const i64 k = (i64)ul[t];
            const i64 lo = (i64)indptr[k], hi = (i64)indptr[k + 1];
#if ESTIMATE
            if (hi - lo >= HEAVY) continue;  // (pushed by the whole grid above)
#endif
            TU uk = udense[k];
            for (i64 p = lo + glane; p < hi; p += PUSH_LANES)
                push_edge<PT, XT, false>(k, p, indices, avals, uk, mp, mv, tp, tv, tl);
        }
        return;
    }
    // the others: a warp takes 32 positions of u and expands their rows together; it reads
    // the presence of 4 such groups before expanding any (the loads overlap)
    const i64 span = nwarps * 32;
    for (i64 base = warp * 32; base < n_in; base += 4 * span) {
        bool mine[4];
#pragma unroll
        for (int c = 0; c < 4; ++c) {
            i64 key = base + c * span + lane;
            mine[c] = key < n_in && upresent[key];
#if ESTIMATE
            mine[c] = mine[c] && ((i64)indptr[key + 1] - (i64)indptr[key] < HEAVY);
#endif
        }
#pragma unroll
        for (int c = 0; c < 4; ++c) {
            unsigned int ballot = __ballot_sync(0xffffffffu, mine[c]);
            while (ballot) {
                int src = __ffs(ballot) - 1;
                ballot &= ballot - 1;
                i64 k = base + c * span + src;
                TU uk = udense[k];
                for (i64 p = (i64)indptr[k] + lane; p < (i64)indptr[k + 1]; p += 32)
                    push_edge<PT, XT>(k, p, indices, avals, uk, mp, mv, tp, tv, tl);
            }
        }
    }
}

// One launch: the direction is taken on the device (the whole grid agrees: it reads the same
// counts), then push expands B's rows (B = A for vxm, A^T for mxv) or pull walks P's rows
// (P = A^T for vxm, A for mxv).
extern "C" __global__ void product(i64 n_in, i64 n_out,
        const BPT* b_indptr, const BXT* b_indices, const TA* b_vals,
        const PPT* p_indptr, const PXT* p_indices, const TA* p_vals,
        const bool* upresent, const TU* udense, const i64* ucount, const i64* est, const i64* heavy,
        const bool* mp, const TM* mv, const i64* mcount, bool* tp, TZ* tv, double in_degree, double out_degree,
        const i64* heavy_rows, i64 n_heavy, const int* ul0, const int* ul1, i64* th, int* tl) {
    // th: T's {list length, listed}, zero at rest (the write step puts them back): a push lists
    // T's entries (T_LIST), a pull does not
    const bool pushing = push_wins(ucount, est, mcount, n_out, in_degree, out_degree);
    if (T_LIST && pushing && blockIdx.x == 0 && threadIdx.x == 0) th[1] = 1;
    if (pushing)
        push(n_in, b_indptr, b_indices, b_vals, upresent, udense, ucount, ucount[2] ? ul1 : ul0, mp, mv, tp, tv,
             est, heavy, TList{th, tl});
    else
        pull(n_out, p_indptr, p_indices, p_vals, upresent, udense, mp, mv, tp, tv, heavy_rows, n_heavy);
}
#endif

#ifdef REDUCE
// s = (+) of x's entries: warps and blocks fold (found, value) pairs; each block leaves its pair
// in partial[], and the last block to finish folds them in order into result[0] (the identity
// when x has no entry) and puts the ticket back at rest.
extern "C" __global__ void reduce_all(i64 n, const bool* xp, const TX* xv, TZ* partial, bool* pfound,
                                      i64* acc, TZ* result, TZ identity) {
    bool found = false;
    TZ a = (TZ)0;
    GRID_STRIDE(i, n) {
        if (xp[i]) fold(found, a, true, (TZ)xv[i]);
    }
    for (int o = 16; o > 0; o >>= 1) {
        bool f2 = shfl_down(found, o);
        TZ z = shfl_down(a, o);
        fold(found, a, f2, z);
    }
    __shared__ TZ wa[32];
    __shared__ bool wf[32];
    __shared__ bool last;
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) { wa[warp] = a; wf[warp] = found; }
    __syncthreads();
    if (threadIdx.x == 0) {
        bool bf = false;
        TZ b = (TZ)0;
        for (int w = 0; w < (int)(blockDim.x >> 5); ++w) fold(bf, b, wf[w], wa[w]);
        partial[blockIdx.x] = b;
        pfound[blockIdx.x] = bf;
        __threadfence();
        unsigned int t = atomicAdd((unsigned int*)(acc + 1), 1u);
        last = (t == gridDim.x - 1);
    }
    __syncthreads();
    if (last && threadIdx.x == 0) {
        __threadfence();
        bool tf = false;
        TZ total = (TZ)0;
        for (unsigned int k = 0; k < gridDim.x; ++k) fold(tf, total, ((volatile bool*)pfound)[k], ((volatile TZ*)partial)[k]);
        result[0] = tf ? total : identity;
        acc[1] = 0;
    }
}
#endif

#ifdef LOOP
// Device-side loop control for recorded graphs (CUDA graph conditional WHILE nodes).
extern "C" __device__ void cudaGraphSetConditional(unsigned long long handle, unsigned int value);

// The loop goes on while u has entries and fewer than max_iterations have run; when it goes
// on, the iteration counter moves to the next iteration's number (the body reads it).
extern "C" __global__ void set_condition(unsigned long long handle, const i64* count, i64* it,
                                         i64 max_iterations) {
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        bool more = *count > 0 && *it < max_iterations;
        if (more) *it += 1;
        cudaGraphSetConditional(handle, more ? 1u : 0u);
    }
}
#endif
