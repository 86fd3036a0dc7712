"""Persistent (device-resident) kernels: one launch runs a whole algorithm, its levels or
rounds separated by grid-wide barriers instead of returns to the host.

A grid barrier needs every block resident at once, so the grid is sized from the kernel's
occupancy (blocks per SM x SMs, from the driver's occupancy calculator) and never larger.
The barrier is one 64-bit arrival counter in global memory that only grows during a launch:
a block that arrives as number k waits until the counter reaches the next multiple of the
group's size, so the last block to arrive does a single atomic (no reset, no generation word).
A second counter serves a sub-grid (the first blocks only), which runs a long search's small
levels behind its own, cheaper barrier while the other blocks wait at the grid's.
Shared CUDA helpers (the barrier, warp-aggregated queue appends, warp sums) are in
``kernels/persistent.cuh``, which each persistent kernel includes.

References: Xiao, Feng, "Inter-block GPU communication via fast barrier synchronization",
IPDPS 2010; Gupta, Stuart, Owens, "A study of persistent threads style GPU programming for
GPGPU workloads", InPar 2012.
"""

from __future__ import annotations

import threading

import numpy as np

from ..._once import once_item
from . import compiler

#: Threads per block of the persistent kernels.
BLOCK = 256
#: Lanes per small-degree frontier vertex (a "virtual warp").
TPV = 8
#: Out-degree from which a frontier vertex is expanded by blocks, in chunks of CHUNK edges.
BIG = 256
CHUNK = 2048

_grid_cache = {}
_lock = threading.RLock()  # the caches here are filled once per key (semiring._once)
#: Blocks per SM of the persistent launches; None: as many as are co-resident (occupancy).
#: A cap exists for measurements (fewer blocks make a cheaper barrier but less parallelism).
BLOCKS_PER_SM = None


def defines(**more):
    """Definitions of a persistent kernel: ``kernels/persistent.cuh``'s constants, then ``more``."""
    return {"BLOCK_THREADS": BLOCK, "TPV": TPV, "BIG": BIG, "CHUNK": CHUNK, **more}


def kernel(filename, name, **more):
    """Kernel ``name`` of ``kernels/<filename>`` (which includes ``persistent.cuh``) under
    :func:`defines` (compiled once per definitions and device)."""
    return compiler.kernel(filename, name, defines(**more))


def grid_size(kern, key):
    """Blocks for a persistent launch of ``kern``: all co-resident (occupancy x SMs), as
    the driver's occupancy calculator says; without it, one block per SM."""
    import cupy as cp

    dev = cp.cuda.runtime.getDevice()

    def build():
        sms = sm_count()
        try:
            from cupy.cuda import driver

            per_sm = int(driver.occupancyMaxActiveBlocksPerMultiprocessor(kern.kernel.ptr, BLOCK, 0))
        except Exception:  # no occupancy calculator: the safe minimum
            per_sm = 1
        return max(1, min(per_sm, 2048 // BLOCK)), sms

    per_sm, sms = once_item(_grid_cache, (key, dev), build, _lock)
    if BLOCKS_PER_SM is not None:
        per_sm = max(1, min(per_sm, int(BLOCKS_PER_SM)))
    return per_sm * sms


_sms = {}


def sm_count():
    """Streaming multiprocessors of the current device (cached: reading the device's
    properties costs about a millisecond)."""
    import cupy as cp

    dev = cp.cuda.runtime.getDevice()
    return once_item(_sms, dev, lambda: int(cp.cuda.runtime.getDeviceProperties(dev)["multiProcessorCount"]), _lock)


def barrier():
    """Fresh barrier words (zeroed) for one persistent launch."""
    import cupy as cp

    return cp.zeros(64, dtype=cp.uint32)


def index_types(*arrays):
    """CUDA type names of index arrays (int or long long)."""
    return tuple("int" if a.dtype == np.int32 else "long long" for a in arrays)
