"""Persistent (device-resident) kernels: one cooperative launch runs a whole algorithm, its
levels or rounds separated by grid-wide barriers (``cooperative_groups::this_grid().sync()``)
instead of returns to the host.

A cooperative launch needs every block resident at once, so the grid is sized from the
kernel's occupancy (blocks per SM x SMs). Shared CUDA helpers (warp-aggregated queue
appends, warp sums) are defined here once and prepended to each kernel's source.

References: NVIDIA CUDA C++ Programming Guide, "Cooperative Groups: grid synchronization";
Gupta, Stuart, Owens, "A study of persistent threads style GPU programming for GPGPU
workloads", InPar 2012.
"""

from __future__ import annotations

import numpy as np

#: Threads per block of the persistent kernels.
BLOCK = 256

HELPERS = r"""
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
#define FULL 0xffffffffu
typedef unsigned long long ull;

__device__ __forceinline__ unsigned lane_id() { return threadIdx.x & 31; }

// Append v to q (counter *len) for every lane with pred; one atomic per warp.
// Every lane of the warp must call it (the ballot is over the full warp).
__device__ __forceinline__ void warp_append(bool pred, int v, int* q, ull* len) {
    unsigned m = __ballot_sync(FULL, pred);
    if (!m) return;
    int leader = __ffs(m) - 1;
    ull base = 0;
    if ((int)lane_id() == leader) base = atomicAdd(len, (ull)__popc(m));
    base = __shfl_sync(FULL, base, leader);
    if (pred) q[base + __popc(m & ((1u << lane_id()) - 1))] = v;
}

__device__ __forceinline__ ull warp_sum(ull x) {
    for (int o = 16; o > 0; o >>= 1) x += __shfl_down_sync(FULL, x, o);
    return x;
}

// Add the per-thread x into *to with one atomic per warp (every lane must call).
__device__ __forceinline__ void warp_add(ull x, ull* to) {
    x = warp_sum(x);
    if (lane_id() == 0 && x) atomicAdd(to, x);
}
"""

_grid_cache = {}


def compile_kernel(src, name):
    """A cooperative RawKernel for ``src`` (HELPERS prepended)."""
    import cupy as cp

    return cp.RawKernel(HELPERS + src, name, options=("--std=c++17",), enable_cooperative_groups=True)


def grid_size(kernel, key):
    """Blocks for a cooperative launch of ``kernel``: all co-resident (occupancy x SMs)."""
    import cupy as cp

    dev = cp.cuda.runtime.getDevice()
    if (key, dev) not in _grid_cache:
        sms = cp.cuda.runtime.getDeviceProperties(dev)["multiProcessorCount"]
        try:
            from cupy.cuda import driver

            per_sm = driver.occupancyMaxActiveBlocksPerMultiprocessor(kernel.kernel.ptr, BLOCK, 0)
        except Exception:  # older CuPy: estimate from the register count
            regs = max(int(kernel.num_regs), 1)
            per_sm = max(1, min(2048 // BLOCK, 65536 // (regs * BLOCK)))
        _grid_cache[(key, dev)] = max(1, int(per_sm)) * sms
    return _grid_cache[(key, dev)]


def index_types(*arrays):
    """CUDA type names of index arrays (int or long long)."""
    return tuple("int" if a.dtype == np.int32 else "long long" for a in arrays)
