// Device-resident Jones-Plassmann coloring (backends/gpu/coloring.py).
// Defined by the host: IPT, IXT, and persistent.cuh's constants.
#include "persistent.cuh"
#include "priority.cuh"

extern "C" __global__ void jp_fused(const IPT* ptr, const IXT* idx, int n, ull seed, int* color, int* done,
                                    int* q0, int* q1, ull* ctl, unsigned* bar) {
    const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const long long nthreads = (long long)gridDim.x * blockDim.x;
    const int lane = lane_id();
    int r = 0;
    ull count = (ull)n;
    while (count > 0) {
        const int* q = (r & 1) ? q1 : q0;
        int* q_next = (r & 1) ? q0 : q1;
        ull* cnt_next = ctl + ((r + 1) % 3);
        if (tid == 0) ctl[(r + 2) % 3] = 0;
        for (long long base = tid - lane; base < (long long)count; base += nthreads) {
            const long long i = base + lane;
            int v = 0;
            bool waits = false;
            if (i < (long long)count) {
                v = (r == 0) ? (int)i : ld(q + i);
                const long long pv = priority((ull)v, seed);
                const long long lo = ptr[v], hi = ptr[v + 1];
                for (long long p = lo; p < hi; ++p) {
                    const int u = (int)idx[p];
                    if (u == v) continue;
                    const int du = ld(done + u);
                    if ((du < 0 || du == r) && priority((ull)u, seed) > pv) { waits = true; break; }
                }
                if (!waits) {
                    int c = 0;
                    for (int cbase = 0;; cbase += 64) {
                        ull used = 0;
                        for (long long p = lo; p < hi; ++p) {
                            const int u = (int)idx[p];
                            const int du = ld(done + u);
                            if (u != v && du >= 0 && du < r) {
                                const int k = ld(color + u) - cbase;
                                if (k >= 0 && k < 64) used |= 1ull << k;
                            }
                        }
                        if (used != ~0ull) { c = cbase + __ffsll((long long)~used) - 1; break; }
                    }
                    color[v] = c;
                    done[v] = r;
                }
            }
            warp_append(waits, v, q_next, cnt_next);
        }
        if (!grid_sync(bar)) break;
        count = ld(cnt_next);
        ++r;
    }
    if (tid == 0) { ctl[3] = (ull)r; ctl[4] = ((volatile unsigned*)bar)[2]; }
}

// ---- Gebremedhin-Manne speculative coloring, one pass over the list todo[0, count) at a time:
// position q is colored in step q % steps (GM's blocks of consecutive positions, colored in
// parallel one position of each block per step), then the conflicts are found.

// step_of(todo[q]) = q % steps (or -1 with steps = 0: the pass is over).
extern "C" __global__ void gm_mark(const int* todo, int count, int steps, int* step_of) {
    GRID_STRIDE(q, count) step_of[todo[q]] = steps ? (int)(q % steps) : -1;
}

// Step j: each of its vertices takes the smallest color that no neighbour colored before this
// step has (neighbours of the same step are uncolored at its start: their writes are ignored).
extern "C" __global__ void gm_step(const IPT* ptr, const IXT* idx, const int* todo, int count, int steps, int j,
                                   const int* step_of, int* color) {
    const long long per = (count - j + steps - 1) / steps;
    GRID_STRIDE(t, per) {
        const int v = todo[j + t * steps];
        const long long lo = ptr[v], hi = ptr[v + 1];
        int c = 0;
        for (int cbase = 0;; cbase += 64) {
            ull used = 0;
            for (long long p = lo; p < hi; ++p) {
                const int u = (int)idx[p];
                if (u == v || step_of[u] == j) continue;
                const int k = ld(color + u) - cbase;
                if (k >= 0 && k < 64) used |= 1ull << k;
            }
            if (used != ~0ull) { c = cbase + __ffsll((long long)~used) - 1; break; }
        }
        color[v] = c;
    }
}

// clash(v) = 1 for each v of the pass with a neighbour of higher priority and the same color.
extern "C" __global__ void gm_conflicts(const IPT* ptr, const IXT* idx, const int* todo, int count, ull seed,
                                        const int* color, unsigned char* clash) {
    GRID_STRIDE(q, count) {
        const int v = todo[q];
        const int cv = color[v];
        const long long pv = priority((ull)v, seed);
        unsigned char hit = 0;
        for (long long p = ptr[v]; p < ptr[v + 1]; ++p) {
            const int u = (int)idx[p];
            if (u != v && color[u] == cv && priority((ull)u, seed) > pv) { hit = 1; break; }
        }
        clash[v] = hit;
    }
}

// The next pass's list: todo = the v with clash(v), increasing (pos = inclusive prefix sum of
// clash); their colors are cleared and their flags put back at rest.
extern "C" __global__ void gm_next(int n, const int* pos, unsigned char* clash, int* todo, int* color) {
    GRID_STRIDE(v, n) {
        if (clash[v]) {
            todo[pos[v] - 1] = (int)v;
            color[v] = -1;
            clash[v] = 0;
        }
    }
}
