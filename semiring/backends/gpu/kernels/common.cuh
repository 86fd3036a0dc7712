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

// Publish a grid's count without a memset before the launch: blocks add into *acc (zero at
// rest), the last block to finish (a ticket, zero at rest) stores the total in *count and puts
// both back at rest. (The threadfence reduction of the CUDA samples.)
__device__ __forceinline__ void count_grid(i64 mine, i64* count, i64* acc) {
    __shared__ bool last;
    i64 total = block_sum(mine);
    if (threadIdx.x == 0) {
        if (total) atomicAdd((u64*)acc, (u64)total);
        __threadfence();
        unsigned int t = atomicAdd((unsigned int*)(acc + 1), 1u);
        last = (t == gridDim.x - 1);
    }
    __syncthreads();
    if (last && threadIdx.x == 0) {
        __threadfence();
        *count = (i64)atomicAdd((u64*)acc, 0ull);
        acc[0] = 0;
        acc[1] = 0;
    }
}
