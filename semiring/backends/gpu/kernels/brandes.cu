// Brandes' betweenness for a batch of b sources on the device (backends/gpu/centrality.py).
// Per (vertex, source) state in vertex-major arrays of n x b: depth (int, -1 unreached), sigma
// (shortest-path counts), delta (dependencies). A warp serves one vertex, its lanes the sources
// (32 at a time), so the b states of a neighbour are one coalesced read.
// Defined by the host: IPT, IXT, CH (entries per chunk).
#include "common.cuh"

#define FULL 0xffffffffu

__device__ __forceinline__ int vld(const int* p) { return *(const volatile int*)p; }

// depth(src[s], s) = 0, sigma(src[s], s) = 1.
extern "C" __global__ void br_start(const i64* src, int b, int* depth, double* sigma) {
    GRID_STRIDE(s, b) {
        depth[src[s] * b + s] = 0;
        sigma[src[s] * b + s] = 1.0;
    }
}

// Rows are cut into chunks of at most CH entries, one warp each (a hub's row spreads over many
// warps): chunk c belongs to the vertex v with first[v] <= c < first[v + 1] (first: n + 1
// increasing offsets) and covers entries ptr[v] + CH (c - first[v]) onwards.
__device__ __forceinline__ i64 chunk_vertex(const i64* first, int n, i64 c) {
    int lo = 0, hi = n;  // the last v with first[v] <= c
    while (hi - lo > 1) {
        const int mid = (lo + hi) >> 1;
        if (first[mid] <= c) lo = mid; else hi = mid;
    }
    return lo;
}

// One level of a sweep (a warp per row chunk, a lane per source), for the (v, s) on level d:
// - forward: level d -> d + 1, pushed: every out-neighbour w of v unreached by s joins level
//   d + 1 (compare-and-swap on its depth) and, on that level, gains sigma(v, s); *grew = 1 if
//   some pair joined;
// - backward: level d's dependencies from level d + 1's, pulled: delta(v, s) = sigma(v, s) *
//   sum over out-neighbours w on level d + 1 of (1 + delta(w, s)) / sigma(w, s) (delta is zero
//   before; the chunks of a long row add).
extern "C" __global__ void br_level(const IPT* ptr, const IXT* idx, const i64* first, int n, int b, int d,
                                    int backward, int* depth, double* sigma, double* delta, int* grew) {
    const int lane = lane_id();
    const i64 warps = ((i64)gridDim.x * blockDim.x) >> 5;
    const i64 chunks = first[n];
    for (i64 c = ((i64)blockIdx.x * blockDim.x + threadIdx.x) >> 5; c < chunks; c += warps) {
        const i64 v = chunk_vertex(first, n, c);
        const i64 lo = (i64)ptr[v] + (i64)CH * (c - first[v]);
        const i64 hi = min((i64)ptr[v + 1], lo + CH);
        for (int s0 = 0; s0 < b; s0 += 32) {
            const int s = s0 + lane;
            const bool on = s < b && depth[v * b + s] == d;
            if (!__any_sync(FULL, on)) continue;
            const double sv = on ? sigma[v * b + s] : 0.0;
            bool found = false;
            double acc = 0.0;
            for (i64 p = lo; p < hi && on; ++p) {
                const i64 w = (i64)idx[p];
                if (backward) {
                    if (depth[w * b + s] == d + 1) acc += (1.0 + delta[w * b + s]) / sigma[w * b + s];
                    continue;
                }
                int* dw = depth + w * b + s;
                int cur = vld(dw);
                if (cur == -1) {
                    cur = atomicCAS(dw, -1, d + 1);
                    if (cur == -1) { cur = d + 1; found = true; }
                }
                if (cur == d + 1) atomicAdd(sigma + w * b + s, sv);
            }
            if (backward && acc != 0.0) {
                if (hi - lo == (i64)ptr[v + 1] - (i64)ptr[v]) delta[v * b + s] = sv * acc;
                else atomicAdd(delta + v * b + s, sv * acc);
            }
            if (!backward && __any_sync(FULL, found) && lane == 0) *grew = 1;
        }
    }
}

// bc(v) += sum over the sources s that reach v on level >= 1 of delta(v, s) (+ 1 with
// endpoints); reached(s) += the vertices s reaches on level >= 1.
extern "C" __global__ void br_sum(int n, int b, const int* depth, const double* delta, int endpoints,
                                  double* bc, unsigned long long* reached) {
    const int lane = lane_id();
    const i64 warps = ((i64)gridDim.x * blockDim.x) >> 5;
    for (int s0 = 0; s0 < b; s0 += 32) {
        const int s = s0 + lane;
        unsigned long long count = 0;
        for (i64 v = ((i64)blockIdx.x * blockDim.x + threadIdx.x) >> 5; v < n; v += warps) {
            const bool on = s < b && depth[v * b + s] >= 1;
            double x = on ? delta[v * b + s] + (endpoints ? 1.0 : 0.0) : 0.0;
            count += on;
            for (int o = 16; o > 0; o >>= 1) x += __shfl_down_sync(FULL, x, o);
            if (lane == 0 && x != 0.0) bc[v] += x;
        }
        if (s < b && count) atomicAdd(reached + s, count);
    }
}

// With endpoints: bc(src[s]) += reached(s).
extern "C" __global__ void br_sources(const i64* src, int b, const unsigned long long* reached, double* bc) {
    GRID_STRIDE(s, b) bc[src[s]] += (double)reached[s];
}
