// Shared by every kernel of the GPU backend (compiled by NVRTC; no system headers).
#pragma once

typedef long long i64;
typedef unsigned long long u64;
typedef unsigned long long ull;

// A grid-stride loop over [0, n): the grid is sized on the host from what it knows (or
// capped), the bound n may be a device value.
#define GRID_STRIDE(i, n) \
    for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += (i64)gridDim.x * blockDim.x)

// This thread's lane in its warp.
__device__ __forceinline__ unsigned lane_id() { return threadIdx.x & 31; }

// Sum of one value per thread over a block (blockDim.x a multiple of 32, at most 1024);
// the result is valid in thread 0.
__device__ __forceinline__ i64 block_sum(i64 v) {
    __shared__ i64 part[32];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) part[warp] = v;
    __syncthreads();
    v = 0;
    if (warp == 0) {
        v = (lane < (int)(blockDim.x >> 5)) ? part[lane] : 0;
        for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    }
    __syncthreads();
    return v;
}

// Add a block's count to a device counter with one atomic per block.
__device__ __forceinline__ void count_block(i64 mine, i64* counter) {
    i64 total = block_sum(mine);
    if (threadIdx.x == 0 && total) atomicAdd((u64*)counter, (u64)total);
}

// "Last block" steps: every block adds its share (counts, partial sums), then takes a ticket;
// the block with the last ticket sees every block's share and finishes (the threadfence
// reduction of the CUDA samples). True in every thread of the block that took the grid's last
// ticket; that block then sees every other block's writes (read them with __ldcg or volatile
// loads). The ticket (zero at rest) is back at zero afterwards. Every thread of the block must
// call it.
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
