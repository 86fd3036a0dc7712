"""Batched Bellman-Ford on the device: shortest-path lengths from a batch of sources at once, for
all-pairs shortest paths from chosen sources.

The b searches of a batch share vertex-major state arrays (n x b): a warp serves one chunk of a
vertex's out-row (at most :data:`CHUNK` entries, so a hub's row spreads over warps) and its lanes
the sources, so the b distances of a vertex are one coalesced read, and the row's heads and
weights, read once, serve every search. Each round, the (vertex, source) pairs whose distance
fell in the round before relax their out-edges by ``atomicMin`` on the distance, taken as an
order-preserving 64-bit key (int64 with the sign bit flipped; float64 with the bits of negative
values flipped): exact for every weight, negative ones included, and for +inf (a walk through an
edge of weight +inf, or a float sum past the largest double, has length +inf, above every finite
length and below "unreached"). One persistent kernel runs every round of a batch with a grid
barrier between rounds and no host read; the host reads once per batch (each source's count of
reached vertices and its negative-cycle flags), then one block per source writes its row in CSR
order.

The rounds are chaotic (an improvement is seen by the rest of its round), so after round r every
distance is at most that of synchronous Bellman-Ford after r rounds: without a negative cycle
reachable from a source, its searches stop changing by round n - 1; with one, they change in
every round, and a change in round n flags the source. Integer distances below minus the largest
weight times n - 1 (shorter than any simple path) flag it as well, before int64 could overflow.
The distances are the minimum over walks of the lengths summed edge by edge, the fixed point
every order of relaxation reaches, so they equal those of one search per source bit for bit.

References: R. Bellman, "On a routing problem", Quarterly of Applied Mathematics 16, 1958;
L. R. Ford, "Network flow theory", RAND P-923, 1956; P. Harish, P. J. Narayanan, "Accelerating
large graph algorithms on the GPU using CUDA", HiPC 2007; T. Okuyama, F. Ino, K. Hagihara, "A task
parallel algorithm for finding all-pairs shortest paths using the GPU", IJHPCN 7(2), 2012 (many
single-source searches at once, sharing the graph's reads).
"""

from __future__ import annotations

import numpy as np

from ... import _host, _memory
from . import _persistent as _p
from .launch import launch

#: Row entries per chunk: a warp's lanes load one chunk's heads and weights at once.
CHUNK = 32
#: Threads per block of the non-persistent kernels.
BLOCK = 256
#: Bytes of state per (vertex, source) pair of a batch: the distance key and three activity bytes.
STATE_BYTES = 11
#: Sources per batch at most.
BATCH = 128


def defines(ipt, ixt, floating):
    """Definitions of ``kernels/multi_source.cu`` for W's index types (CUDA names) and weights
    (float64 if ``floating``, else int64)."""
    return _p.defines(IPT=ipt, IXT=ixt, FLOAT=int(bool(floating)), CH=CHUNK)


def _kernels(W):
    from . import compiler

    defs = defines(*_p.index_types(W._indptr, W._indices), W.dtype.kind == "f")
    return {name: compiler.kernel("multi_source.cu", name, defs)
            for name in ("ms_chunks", "ms_fill", "ms_search", "ms_count", "ms_rows32", "ms_rows64")}


def _blocks(count):
    return (max(1, min(65535, -(-int(count) // BLOCK))),)


class Searches:
    """The kernels and row chunks of batched Bellman-Ford over W (built once per graph).

    Parameters
    ----------
    W : Matrix on the GPU, shape (n, n), int64 or float64, n < 2**31 - 1
        ``W[u, v]`` is the length of edge u -> v (negative and +inf lengths allowed; no NaN or
        -inf: the caller checks).
    """

    def __init__(self, W):
        import cupy as cp

        self.W, self.n = W, W.nrows
        self.k = _kernels(W)
        deg = cp.diff(W._indptr).astype(cp.int64)
        # first[v]: v's first chunk; a row of d entries has ceil(d / CHUNK) chunks
        self.first = cp.zeros(self.n + 1, dtype=cp.int64)
        self.first[1:] = cp.cumsum((deg + (CHUNK - 1)) // CHUNK)
        self.bound = self.n + int(W._indices.size) // CHUNK + 1  # at least first[n]
        self.cv = cp.empty(self.bound, dtype=cp.int32)
        launch(self.k["ms_chunks"], _blocks(self.n), (BLOCK,), (self.first, np.int32(self.n), self.cv))
        kern = self.k["ms_search"]
        ipt, ixt = _p.index_types(W._indptr, W._indices)
        resident = _p.grid_size(kern, ("multi_source", ipt, ixt, W.dtype.name))
        self.grid = (max(1, min(resident, -(-self.bound // (_p.BLOCK // 32)))),)

    def batches(self, sources, batch, floor, what):
        """The searches from ``sources``, ``batch`` at a time.

        Parameters
        ----------
        sources : numpy int64 array
            Vertices (repeats allowed), at least one.
        batch : int
            Sources searched at once (the state takes n * batch * :data:`STATE_BYTES` bytes).
        floor : int
            Integer weights: minus the largest absolute weight times n - 1 (a distance below it
            proves a negative cycle); ignored for floats.
        what : str
            The caller, for the memory check's message.

        Yields
        ------
        Batch
            One per batch, in order; its :meth:`Batch.rows` must be taken before the next.

        Raises
        ------
        OutOfMemory
            The state of a batch does not fit in the device's memory.
        """
        import cupy as cp

        n, W = self.n, self.W
        b_max = max(1, min(int(batch), int(sources.size)))
        _memory.require(n * b_max * STATE_BYTES, f"{what}: the {n} x {b_max} search state of a batch", "gpu")
        keys = cp.empty(n * b_max, dtype=cp.uint64)
        act = cp.empty(3 * n * b_max, dtype=cp.uint8)
        flags = cp.empty(b_max, dtype=cp.int32)
        ctl = cp.empty(8, dtype=cp.uint64)
        summary = cp.empty(2 * b_max + 2, dtype=cp.int64)
        bar = _p.barrier()
        src_all = cp.asarray(sources, dtype=cp.int64)
        tfloor = np.float64(0.0) if W.dtype.kind == "f" else np.int64(floor)
        nn, rmax = np.int32(n), np.int32(n)
        for start in range(0, int(sources.size), b_max):
            src = src_all[start:start + b_max]
            b = int(src.size)
            bb = np.int32(b)
            launch(self.k["ms_fill"], _blocks(n * b), (BLOCK,), (src, nn, bb, keys, act, flags, ctl))
            launch(self.k["ms_search"], self.grid, (_p.BLOCK,),
                   (W._indptr, W._indices, W._values, self.first, self.cv, nn, bb, rmax, tfloor, keys, act, flags,
                    ctl, bar))
            launch(self.k["ms_count"], (b,), (BLOCK,), (nn, bb, keys, flags, ctl, summary))
            host = _host.read(summary[:2 * b + 2])
            if host[2 * b + 1]:
                raise RuntimeError(f"{what}: a grid barrier timed out (not every block was resident); no result")
            yield Batch(self, start, b, keys, summary, host)


class Batch:
    """One batch of searches: sources ``start .. start + size - 1`` of the call.

    Attributes
    ----------
    start, size : int
    counts : numpy int64 array, shape (size,)
        Vertices each source reaches (itself included).
    cycles : numpy int64 array, shape (size,)
        Nonzero where a negative cycle is reachable from the source: bit 1, its distances still
        fell in round n; bit 2, a distance fell below the floor.
    rounds : int
        Relaxation rounds run (one grid barrier each).
    """

    def __init__(self, searches, start, size, keys, summary, host):
        self._s, self._keys, self._summary = searches, keys, summary
        self.start, self.size = start, size
        self.counts = host[:size].astype(np.int64)
        self.cycles = host[size:2 * size].astype(np.int64)
        self.rounds = int(host[2 * size])

    def rows(self, index_dtype):
        """The batch's rows in CSR order: (indices, values) cupy arrays, ``index_dtype`` (int32
        or int64) and the weights' dtype, row by row, each row's vertices increasing."""
        import cupy as cp

        s = self._s
        total = int(self.counts.sum())
        idx = cp.empty(total, dtype=index_dtype)
        vals = cp.empty(total, dtype=s.W.dtype)
        if total:
            name = "ms_rows32" if np.dtype(index_dtype) == np.int32 else "ms_rows64"
            launch(s.k[name], (self.size,), (BLOCK,),
                   (np.int32(s.n), np.int32(self.size), self._keys, self._summary, idx, vals))
        return idx, vals


__all__ = ["Searches", "Batch", "defines", "CHUNK", "BATCH", "STATE_BYTES"]
