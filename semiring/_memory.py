"""Memory checks made before large allocations: a declared size (a file's size line, a
generator's scale, a matrix shape) is compared with the memory free now, so that hostile or
mistaken sizes raise :class:`~semiring.exceptions.OutOfMemory` naming the operation and the
size instead of asking the allocator for terabytes."""

from __future__ import annotations

import os

from .exceptions import OutOfMemory

#: An allocation may take at most this fraction of the memory free now.
MEMORY_FRACTION = 0.9


def available_bytes(device="cpu"):
    """Bytes of memory free now on ``device`` (CPU: ``MemAvailable`` of /proc/meminfo, else the
    free physical pages; GPU: free device memory plus CuPy's pooled free blocks)."""
    if device == "gpu":
        import cupy

        free, _total = cupy.cuda.runtime.memGetInfo()
        return int(free) + int(cupy.get_default_memory_pool().free_bytes())
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return int(os.sysconf("SC_AVPHYS_PAGES")) * int(os.sysconf("SC_PAGE_SIZE"))


def _fmt(nbytes):
    for unit, scale in (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if nbytes >= scale:
            return f"{nbytes / scale:.2f} {unit}"
    return f"{nbytes} bytes"


def require(nbytes, what, device="cpu"):
    """Raise :class:`OutOfMemory` if ``nbytes`` exceed :data:`MEMORY_FRACTION` of the memory
    free on ``device``.

    Parameters
    ----------
    nbytes : int
        Bytes the operation is about to allocate (an estimate from declared sizes).
    what : str
        The operation and the size that asks for it, e.g. ``"read g.mtx: 10**12 rows"``.
    device : {"cpu", "gpu"}

    Raises
    ------
    OutOfMemory
        The allocation would not fit; the message names ``what``, the bytes needed and free.
    """
    nbytes = int(nbytes)
    if nbytes <= 64 * 2**20:  # below 64 MiB: not worth a look at /proc
        return
    free = available_bytes(device)
    if nbytes > MEMORY_FRACTION * free:
        raise OutOfMemory(f"{what}: needs {_fmt(nbytes)} ({nbytes:,} bytes) of {device} memory; "
                          f"{_fmt(free)} is free")


#: Peak bytes of building a graph from generated edges, measured (resident set size) on the
#: generators' builds (kronecker, grid, random_geometric) at 10**5..10**7 edges and rounded up:
#: per generated edge (endpoints, merge keys, the sorted symmetric entries and the CSR build)
#: without and with weights, and per vertex.
GRAPH_BUILD_BYTES_PER_EDGE = {False: 112, True: 208}
GRAPH_BUILD_BYTES_PER_VERTEX = 48


def require_graph_build(n, m, weighted, what, device="cpu"):
    """Raise :class:`OutOfMemory` before generating when a graph of ``n`` vertices built from
    ``m`` generated edges (``weighted``: with values) would not fit in the memory free on
    ``device`` (the measured peak of a build: :data:`GRAPH_BUILD_BYTES_PER_VERTEX` per vertex and
    :data:`GRAPH_BUILD_BYTES_PER_EDGE` per edge). The message names ``what`` (the call) and the
    sizes."""
    require(GRAPH_BUILD_BYTES_PER_VERTEX * n + GRAPH_BUILD_BYTES_PER_EDGE[bool(weighted)] * m,
            f"{what}: {n:,} vertices, about {m:,} edges", device)
