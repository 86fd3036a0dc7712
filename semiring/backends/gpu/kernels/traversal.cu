// Device-resident, direction-optimizing BFS (backends/gpu/traversal.py).
// Defined by the host: IPT, IXT (out-edges), IPT2, IXT2 (in-edges), SLOT, PRECHECK, SUB_EDGES,
// SUB_MIN_DEPTH, the counter words NSMALL, NBIG, MF, EXAMINED, NQ, and persistent.cuh's constants.
#include "persistent.cuh"
// A vertex won by this lane (pred, out-degree d) joins the next frontier; count its out-edges and itself.
__device__ __forceinline__ void discovered(bool pred, int v, long long d, int* qs, ull* ctl_next,
        long long* qb, ull& mf, ull& nq) {
    if (!pred) d = 0;
    frontier_append(pred, v, d, qs, ctl_next + NSMALL, qb, ctl_next + NBIG);
    mf += (ull)d;
    nq += pred ? 1 : 0;
}

__device__ __forceinline__ bool has_bit(const unsigned* bits, int v) { return (ld(bits + (v >> 5)) >> (v & 31)) & 1u; }

extern "C" __global__ void __launch_bounds__(BLOCK_THREADS, 4) bfs_fused(const IPT* optr, const IXT* oidx, const IPT2* iptr, const IXT2* iidx,
        int n, long long nnz, int source, int* level, int* parent, int with_parent,
        int* qs0, int* qs1, long long* qb0, long long* qb1, unsigned* fbits, ull* ctl, long long* tr, long long trcap,
        int mode, int max_depth, double alpha, double beta, unsigned* bar, int sub_blocks, long long* state,
        long long* out_level, long long* out_parent, bool* out_present) {
    const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const long long nthreads = (long long)gridDim.x * blockDim.x;
    const int lane = lane_id();
    // frontier bitmaps (bit v: v is on the level), three in rotation: read d, write d + 1, clear d + 2
    const long long words = ((long long)n + 31) / 32;
    // start: every level unknown, counters and bitmaps zero, then the source alone on level 0
    for (long long v = tid; v < n; v += nthreads) level[v] = -1;
    for (long long k = tid; k < 3 * words; k += nthreads) fbits[k] = 0u;
    if (tid == 0) { for (int k = 0; k < 3 * SLOT; ++k) ctl[k] = 0; }
    grid_sync(bar);
    if (tid == 0) {
        fbits[source >> 5] = 1u << (source & 31);
        level[source] = 0;
        if (with_parent) parent[source] = source;
        const long long d = (long long)(optr[source + 1] - optr[source]);
        frontier_append_one(source, d, qs0, ctl + NSMALL, qb0, ctl + NBIG);
        ctl[MF] = (ull)d; ctl[NQ] = 1;
    }
    grid_sync(bar);
    bool pull = (mode == 2);
    ull nq_last = 0;
    long long unexplored = nnz;
    int depth = 0, decided = -1;
    // Beamer's rule, once per level (the sub-grid and the grid may both look at the same level)
    auto decide = [&](ull nq, ull mf) {
        if (decided == depth) return;
        decided = depth;
        if (mode == 0) {
            if (!pull) pull = nq > nq_last && (double)mf > (double)unexplored / alpha;
            else pull = !(nq < nq_last && (double)nq < (double)n / beta);
        }
    };
    // One level over threads t = 0 .. nt - 1 (the grid, or the sub-grid of the first blocks).
    auto run_level = [&](ull nq, ull mf, long long t, long long nt) {
        ull* cur = ctl + (depth % 3) * SLOT;
        ull* nxt = ctl + ((depth + 1) % 3) * SLOT;
        ull* old = ctl + ((depth + 2) % 3) * SLOT;
        if (t == 0) { for (int k = 0; k < SLOT; ++k) old[k] = 0; }
        const unsigned* bits = fbits + (depth % 3) * words;
        unsigned* bits_next = fbits + ((depth + 1) % 3) * words;
        unsigned* bits_old = fbits + ((depth + 2) % 3) * words;
        for (long long k = t; k < words; k += nt) bits_old[k] = 0u;
        int* qs = (depth & 1) ? qs1 : qs0;  int* qs_next = (depth & 1) ? qs0 : qs1;
        long long* qb = (depth & 1) ? qb1 : qb0;  long long* qb_next = (depth & 1) ? qb0 : qb1;
        ull my_mf = 0, my_nq = 0, my_exam = 0;
        const int nd = depth + 1;
        if (!pull) {
            // top-down: claim each unvisited out-neighbour of the frontier with a CAS on its level.
            // A small frontier (road graphs) goes straight to the CAS: one dependent round trip
            // less per level; a large one first reads the level, so visited vertices cost no atomic.
            const bool precheck = mf > (ull)PRECHECK;
            expand(optr, qs, ld(cur + NSMALL), qb, ld(cur + NBIG), t, nt,
                   [&](int u, long long p, bool valid) {
                bool won = false;
                int v = 0;
                long long dv = 0;
                if (valid) {
                    v = (int)oidx[p];
                    if (!precheck || ld(level + v) < 0) {
                        dv = (long long)(optr[v + 1] - optr[v]);  // issued before the CAS resolves
                        if (atomicCAS(&level[v], -1, nd) == -1) {
                            won = true;
                            if (with_parent) parent[v] = u;
                            atomicOr(bits_next + (v >> 5), 1u << (v & 31));
                        }
                    }
                }
                discovered(won, v, dv, qs_next, nxt, qb_next, my_mf, my_nq);
            });
            if (t == 0) nxt[EXAMINED] = mf;
        } else {
            // bottom-up: each unvisited vertex looks for one in-neighbour on this level (a bitmap
            // lookup: n / 8 bytes that stay in L2, where level[] would miss); a warp's 32 vertices
            // are one bitmap word, written with one store
            for (long long base = t - lane; base < n; base += nt) {
                int v = (int)(base + lane);
                bool won = false;
                if (v < n && ld(level + v) < 0) {
                    long long hi = iptr[v + 1];
                    for (long long p = iptr[v]; p < hi; ++p) {
                        int u = (int)iidx[p];
                        ++my_exam;
                        if (has_bit(bits, u)) { level[v] = nd; if (with_parent) parent[v] = u; won = true; break; }
                    }
                }
                const unsigned word = __ballot_sync(FULL, won);
                if (lane == 0 && word) bits_next[base >> 5] = word;
                discovered(won, v, won ? (long long)(optr[v + 1] - optr[v]) : 0, qs_next, nxt, qb_next, my_mf, my_nq);
            }
            warp_add(my_exam, nxt + EXAMINED);
        }
        warp_add(my_mf, nxt + MF);
        warp_add(my_nq, nxt + NQ);
        if (t == 0 && depth < trcap) tr[2 + 3 * depth] = pull ? 2 : 1;
    };
    // After a level's barrier: its trace and the heuristic's state.
    auto finish_level = [&](ull nq, ull mf) {
        ull* nxt = ctl + ((depth + 1) % 3) * SLOT;
        if (tid == 0 && depth < trcap) tr[2 + 3 * depth + 2] = (long long)ld(nxt + EXAMINED);
        unexplored -= (long long)mf;
        nq_last = nq;
        ++depth;
    };
    while (true) {
        ull* cur = ctl + (depth % 3) * SLOT;
        ull nq = ld(cur + NQ), mf = ld(cur + MF);
        if (tid == 0 && depth < trcap) tr[2 + 3 * depth + 1] = (long long)nq;
        if (nq == 0 || depth == max_depth) break;
        decide(nq, mf);
        if (depth >= SUB_MIN_DEPTH && !pull && mf <= (ull)SUB_EDGES && sub_blocks < (int)gridDim.x) {
            // A small push frontier of a long search (road graphs): the first sub_blocks blocks run
            // levels alone, behind a barrier over sub_blocks blocks (cheaper than one over the
            // whole grid), until the frontier grows, turns to pull, or the search ends; the other
            // blocks wait at the grid barrier.
            if ((int)blockIdx.x < sub_blocks) {
                const long long nt = (long long)sub_blocks * blockDim.x;
                while (true) {
                    run_level(nq, mf, tid, nt);
                    if (!sub_sync(bar, (unsigned)sub_blocks)) break;
                    finish_level(nq, mf);
                    cur = ctl + (depth % 3) * SLOT;
                    nq = ld(cur + NQ); mf = ld(cur + MF);
                    if (tid == 0 && depth < trcap) tr[2 + 3 * depth + 1] = (long long)nq;
                    if (nq == 0 || depth == max_depth) break;
                    decide(nq, mf);
                    if (pull || mf > (ull)SUB_EDGES) break;
                }
                if (tid == 0) {
                    state[0] = depth; state[1] = (long long)nq_last; state[2] = unexplored;
                    state[3] = pull; state[4] = decided;
                }
            }
            if (!grid_sync(bar)) break;
            depth = (int)ld(state + 0); nq_last = (ull)ld(state + 1); unexplored = ld(state + 2);
            pull = ld(state + 3) != 0; decided = (int)ld(state + 4);
            continue;
        }
        run_level(nq, mf, tid, nthreads);
        if (!grid_sync(bar)) break;
        finish_level(nq, mf);
    }
    // results in the Vector's bitmap form: int64 values (0 where absent) and a presence mask
    for (long long v = tid; v < n; v += nthreads) {
        const int lv = ld(level + v);
        out_present[v] = lv >= 0;
        out_level[v] = lv >= 0 ? lv : 0;
        if (with_parent) out_parent[v] = lv >= 0 ? ld(parent + v) : 0;
    }
    if (tid == 0) { tr[0] = depth; tr[1] = ((volatile unsigned*)bar)[2]; }
    grid_exit(bar);
}
