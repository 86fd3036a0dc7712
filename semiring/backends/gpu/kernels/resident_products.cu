// The resident matrix-vector product (resident.cuh): T = A (+).(x) u in one launch that takes
// its direction on the device (DIRECTION 0) from the input's and the mask's counts:
//   pull: T(r) = (+) over k of A(r,k) (x) u(k), one block per row of PULL_HEAVY edges or more,
//         a group of ROW_LANES lanes (a power of two up to a warp, near the mean degree; 1: a
//         thread) per other row the mask allows, stopping at the monoid's terminal value;
//   push: T(j) (+)= u(k) (x) A(k,j) for every k present in u: each warp takes 32 positions of
//         u's bitmap and expands their rows together (lanes over edges), combining into T
//         with the monoid's atomic.
// T goes into a scratch bitmap that is all-absent (and identity-valued) at rest; the pointwise
// write step that follows (resident_write.cu) consumes it and puts it back at rest.
//
// Host definitions: TZ TU TA TM (C types), MASK, MCOMP, T_LIST (T's entries are listed when
// pushed), TIN, MULT (in x, y, i, j, k), MONOID (in x, y), IS_ANY, HAS_TERMINAL, TERMINAL,
// COMBINE (a statement combining z into T at j), IS_VXM, DIRECTION (0 device-chosen, 1 push,
// 2 pull), PULL_BIAS, ROW_LANES, PUSH_LANES, PULL_HEAVY, HEAVY, ESTIMATE, and the index types of
// the rows pushed (BPT, BXT) and pulled (PPT, PXT).
#include "resident.cuh"
#include "resident_fold.cuh"

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
    const i64 total = block_sum(mine);
    if (threadIdx.x == 0 && total) atomicAdd((u64*)est, (u64)total);
    if (last_block((unsigned int*)(est + 1)) && threadIdx.x == 0) {
        est[2] = (i64)atomicAdd((u64*)est, 0ull);
        est[4] = (i64)atomicAdd((u64*)(est + 3), 0ull);
        est[0] = 0;
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
// together, the block stopping as one at the monoid's terminal value; then a block fold of the
// (found, value) pairs.
#ifndef UNROLL_PULL
#define UNROLL_PULL 4
#endif
template <typename PT, typename XT>
__device__ __forceinline__ void pull_heavy(const PT* indptr, const XT* indices, const TA* avals,
        const bool* upresent, const TU* udense, const bool* mp, const TM* mv, bool* tp, TZ* tv,
        const i64* rows, i64 nrows) {
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
        block_fold(found, acc);
        if (threadIdx.x == 0 && found) { tp[r] = true; tv[r] = acc; }
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
