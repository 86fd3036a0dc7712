// The distributed BFS steps of a GPU rank (distributed/_cuda.py).
#include "common.cuh"
// Warp-aggregated append: every lane with `want` gets a distinct slot of *counter.
__device__ __forceinline__ u64 warp_slot(bool want, u64* counter) {
    unsigned m = __ballot_sync(0xffffffffu, want);
    int leader = __ffs(m) - 1;
    u64 base = 0;
    if (m && lane_id() == leader) base = atomicAdd(counter, (u64)__popc(m));
    base = __shfl_sync(0xffffffffu, base, leader < 0 ? 0 : leader);
    return base + __popc(m & ((1u << lane_id()) - 1u));
}

// Warp sum of a 64-bit value; lane 0 adds it to *out.
__device__ __forceinline__ void warp_add(i64 x, u64* out) {
    for (int o = 16; o > 0; o >>= 1) x += __shfl_down_sync(0xffffffffu, x, o);
    if (lane_id() == 0 && x) atomicAdd(out, (u64)x);
}

// stats: [0] discovered (also the queue length), [1] their out-degrees, [2] their in-degrees
__device__ __forceinline__ void discovered(bool got, i64 loc, i64* queue, u64* stats,
                                           const i64* outdeg, const i64* indeg) {
    u64 slot = warp_slot(got, &stats[0]);
    if (got) queue[slot] = loc;
    warp_add(got ? outdeg[loc] : 0, &stats[1]);
    warp_add(got ? indeg[loc] : 0, &stats[2]);
}

extern "C" __global__ void push_expand(const i64* __restrict__ indptr, const int* __restrict__ cols,
        const i64* __restrict__ queue, const i64* __restrict__ offs, i64 q, i64 total,
        int* __restrict__ claim, int depth, const int* __restrict__ level, i64 lo, i64 nl,
        i64 B, int* __restrict__ out_v, int* __restrict__ out_p, u64* __restrict__ counts) {
    i64 e = (i64)blockIdx.x * blockDim.x + threadIdx.x;
    int owner = -1, v = 0, src = 0;
    if (e < total) {
        i64 a = 0, b = q;                 // offs[a] <= e < offs[b]
        while (b - a > 1) {
            i64 mid = (a + b) >> 1;
            if (offs[mid] <= e) a = mid; else b = mid;
        }
        i64 u = queue[a];
        v = cols[indptr[u] + (e - offs[a])];
        src = (int)(u + lo);
        i64 lv = (i64)v - lo;
        bool visited = lv >= 0 && lv < nl && level[lv] >= 0;
        if (!visited && atomicMax(&claim[v], depth) < depth) owner = (int)(v / B);
    }
    unsigned active = __ballot_sync(0xffffffffu, owner >= 0);
    if (owner >= 0) {
        unsigned peers = __match_any_sync(active, owner);
        int leader = __ffs(peers) - 1;
        u64 base = 0;
        if (lane_id() == leader) base = atomicAdd(&counts[owner], (u64)__popc(peers));
        base = __shfl_sync(peers, base, leader);
        i64 pos = (i64)owner * B + (i64)(base + __popc(peers & ((1u << lane_id()) - 1u)));
        out_v[pos] = v;
        out_p[pos] = src;
    }
}

extern "C" __global__ void push_receive(const int* __restrict__ rv, const int* __restrict__ rp, i64 count,
        i64 lo, int* __restrict__ level, i64* __restrict__ parent, int depth, i64* __restrict__ queue,
        unsigned* __restrict__ next_bits, const i64* __restrict__ outdeg, const i64* __restrict__ indeg,
        u64* __restrict__ stats) {
    i64 e = (i64)blockIdx.x * blockDim.x + threadIdx.x;
    bool got = false;
    i64 loc = 0;
    if (e < count) {
        loc = (i64)rv[e] - lo;
        if (atomicCAS(&level[loc], -1, depth) == -1) {
            got = true;
            if (parent) parent[loc] = rp[e];
            atomicOr(&next_bits[loc >> 5], 1u << (loc & 31));
        }
    }
    discovered(got, loc, queue, stats, outdeg, indeg);
}

extern "C" __global__ void pull_scan(const i64* __restrict__ indptr, const int* __restrict__ cols, i64 nl,
        const unsigned* __restrict__ bits, int* __restrict__ level, i64* __restrict__ parent, int depth,
        i64* __restrict__ queue, unsigned* __restrict__ next_bits, const i64* __restrict__ outdeg,
        const i64* __restrict__ indeg, u64* __restrict__ stats) {
    i64 r = (i64)blockIdx.x * blockDim.x + threadIdx.x;   // blockDim is a multiple of 32: a warp is one word
    bool got = false;
    if (r < nl && level[r] < 0) {
        for (i64 k = indptr[r], end = indptr[r + 1]; k < end; ++k) {
            int c = cols[k];
            if ((bits[c >> 5] >> (c & 31)) & 1u) {
                got = true;
                level[r] = depth;
                if (parent) parent[r] = c;
                break;
            }
        }
    }
    unsigned word = __ballot_sync(0xffffffffu, got);
    if (lane_id() == 0 && word) next_bits[r >> 5] = word;
    discovered(got, r, queue, stats, outdeg, indeg);
}
