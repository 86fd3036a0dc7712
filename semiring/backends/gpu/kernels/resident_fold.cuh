// Monoid folds of the resident products and reductions (resident_products.cu,
// resident_reduce.cu). Host definitions: TZ (the monoid's C type), MONOID (in x, y), IS_ANY,
// HAS_TERMINAL, TERMINAL.
#pragma once
#include "common.cuh"

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

// Fold of one (found, value) pair per thread over the block (blockDim.x a multiple of 32): warp
// shuffles, then thread 0 folds the warps' pairs in order; the result is valid in thread 0.
// Every thread of the block must call it.
__device__ __forceinline__ void block_fold(bool& found, TZ& acc) {
    __shared__ TZ wa[32];
    __shared__ bool wf[32];
    for (int o = 16; o > 0; o >>= 1) {
        bool f2 = shfl_down(found, o);
        TZ z = shfl_down(acc, o);
        fold(found, acc, f2, z);
    }
    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    if (lane == 0) { wf[w] = found; wa[w] = acc; }
    __syncthreads();
    if (threadIdx.x == 0) {
        bool bf = false;
        TZ b = (TZ)0;
        for (int i = 0; i < (int)(blockDim.x >> 5); ++i) fold(bf, b, wf[i], wa[i]);
        found = bf;
        acc = b;
    }
    __syncthreads();
}
