// The write step of the device-resident vector operations (resident.cuh): T(i) from the
// operands at i (TERM), then the write step of the GraphBLAS C API (section 3.5.4): mask,
// accumulate, replace, typecast into C, and C's new count and entry list (published by the
// last block: no memset before the launch). A product's T comes from its scratch bitmap
// (RESET_X), which this step puts back at rest.
//
// Host definitions: TC TZ TX TY TM TS (C types), TERM (a statement setting bool tp and TZ tv
// from xp, xv, yp, yv, s, i), RESET_X, MASK (0 none, 1 structure, 2 value), MCOMP, ACCUM,
// ACCUM_OP (in x, y of type TAI, giving TAO), REPLACE, OLD, LIST_OUT (C keeps an entry list),
// DRIVER (0 none, 1 x's list, 2 the mask's: which list may stand for the positions to visit).
#include "resident.cuh"

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
