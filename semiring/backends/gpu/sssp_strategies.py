"""SSSP by the classic GPU work organizations, one small level-synchronous kernel set each.

Every strategy is Bellman-Ford style relaxation with ``atomicMin`` on the distance (int64
distances use the native 64-bit atomicMin; float64 ones a compare-and-swap loop, correct for
negative values too); a round is one launch, and the host reads a few counters after it (one
synchronization per round) to decide whether to go on and how large the next launch is.

- ``topology`` (topology-driven): one thread per edge, every round, over all edges; an edge
  whose tail is reached relaxes. A round that changes nothing ends the search. No worklist,
  no appends, but every round reads every edge (Harish, Narayanan 2007, per edge rather than
  per vertex so that no thread walks a hub's adjacency alone).
- ``worklist_atomic`` (data-driven): the worklist holds the vertices improved in the last
  round. Its out-edges are expanded edge-balanced (inclusive prefix sums of the entries'
  out-degrees, one thread per edge, a binary search for the owning entry); every improving
  relaxation appends its target with a global ``atomicAdd`` on the next list's length, so a
  vertex improved by k threads appears k times.
- ``worklist_filter``: the same appends into a raw list, then a filter kernel in which each
  entry claims its vertex in a per-vertex stamp array (``atomicExch(stamp[v], round)``); only
  the first claimant survives and is compacted into the next worklist.
- ``worklist_hash``: duplicates are culled at append time by a per-block hash table in shared
  memory (``HASH_SLOTS`` slots, multiplicative hash): an append is dropped when the slot
  already holds the target. Collisions and other blocks let some duplicates through (the
  result stays exact: a duplicate only repeats work).
- ``worklist_scan``: improving relaxations only set ``flag[v] = 1``; the next worklist is
  compacted without per-element atomics: ``cupy.cumsum`` of the flags (and of the flagged
  out-degrees) gives every flagged vertex its position (an exclusive scan) and the list's edge
  offsets, and a scatter kernel writes the list in vertex order (so without duplicates).
- ``near_far`` (Davidson et al.'s two-bucket worklist, non-negative weights): targets whose new
  distance is below the threshold join the near pile, the others the far pile, each deduplicated
  by per-vertex stamps. When the near pile is empty, the threshold becomes the smallest far
  distance plus delta, and a split kernel moves far entries below it into the near pile (those
  below the old threshold were settled through a near pile already and are dropped).

A change in round n proves a negative cycle (a path without one has at most n - 1 edges);
for integer weights a candidate distance below ``floor`` (minus the largest absolute weight
times n - 1, shorter than any simple path) proves one at once. The NumPy formulations of the
same strategies are :mod:`semiring.backends.cpu.sssp_strategies`.

Launch configuration: ``BLOCK`` = 256 threads per block, grid-stride loops, at most
``BLOCKS_PER_SM`` x SMs blocks; vertex ids are int32 (n < 2^31), CSR indices int32 or int64.

References
----------
Harish, Narayanan, "Accelerating large graph algorithms on the GPU using CUDA", HiPC 2007.
Nasre, Burtscher, Pingali, "Data-driven versus topology-driven irregular computations on
GPUs", IPDPS 2013.
Davidson, Baxter, Garland, Owens, "Work-efficient parallel GPU methods for single-source
shortest paths", IPDPS 2014 (workfront sweep, near-far, duplicate culling).
Merrill, Garland, Grimshaw, "Scalable GPU graph traversal", PPoPP 2012 (prefix-sum
compaction, edge-balanced expansion).
Wang et al., "Gunrock: a high-performance graph processing library on the GPU", PPoPP 2016
(filter, warp and block culling).
"""

from __future__ import annotations

import threading

import numpy as np

from ..._once import once_item
from . import compiler
from ...exceptions import InvalidValue, NegativeCycleError
from ..results import PathsResult

#: Threads per block.
BLOCK = 256
#: Most blocks per SM of a launch (the grid-stride loops cover the rest).
BLOCKS_PER_SM = 8
#: Slots of a block's culling hash table (a power of two; 4 KiB of shared memory).
HASH_SLOTS = 1024

#: Words of the control array: list counters (length, out-edges) at 0, 2, 4; the kernels' flags
#: (CHANGED, NEGATIVE, OVERFLOW) from _FLAGS on.
_LIST_A, _LIST_B, _LIST_C = 0, 2, 4
_FLAGS = 8
_CHANGED, _NEGATIVE, _OVERFLOW = _FLAGS, _FLAGS + 1, _FLAGS + 2
_CTL = 16

_grid_cache = {}
_lock = threading.RLock()  # one compilation per key when threads ask together (semiring._once)


def defines(ipt, ixt, td):
    """Definitions of ``kernels/sssp_strategies.cu`` for index types ``ipt``, ``ixt`` and distance
    type ``td`` (C names)."""
    return {"IPT": ipt, "IXT": ixt, "TD": td, "HASH_SLOTS": HASH_SLOTS, "HASH_BITS": int(HASH_SLOTS).bit_length() - 1}


def source(ipt, ixt, td):
    """The CUDA text compiled for index types ``ipt``, ``ixt`` and distance type ``td`` (C names)."""
    return compiler.code("sssp_strategies.cu", defines(ipt, ixt, td))


def _kernels(cp, ipt, ixt, td):
    """``get(name)``: the kernels for these types (compiled once per definitions and device)."""
    d = defines(ipt, ixt, td)
    funcs = {}

    def get(name):
        if name not in funcs:
            funcs[name] = compiler.kernel("sssp_strategies.cu", name, d)
        return funcs[name]

    return get


def _max_blocks(cp):
    dev = cp.cuda.runtime.getDevice()
    from ._persistent import sm_count

    return once_item(_grid_cache, dev, lambda: BLOCKS_PER_SM * sm_count(), _lock)


def _cycle(source, why):
    return NegativeCycleError(f"sssp: a negative-weight cycle is reachable from source {source} ({why}); "
                              "shortest paths are undefined")


class _Run:
    """One search's device state and counters (kernels, launches, host syncs)."""

    def __init__(self, cp, W, source, floor):
        self.cp = cp
        self.n = int(W.nrows)
        self.optr, self.oidx, self.w = W._indptr, W._indices, W._values
        ipt = "int" if self.optr.dtype == np.int32 else "long long"
        ixt = "int" if self.oidx.dtype == np.int32 else "long long"
        self.is_int = W._values.dtype == np.int64
        td = "long long" if self.is_int else "double"
        self.dt = np.int64 if self.is_int else np.float64
        self.inf = self.dt(np.iinfo(np.int64).max if self.is_int else np.inf)
        if floor is None:  # no weights: nothing can go below any floor
            floor = np.iinfo(np.int64).min if self.is_int else -np.inf
        self.floor = self.dt(floor)
        self.kernel = _kernels(cp, ipt, ixt, td)
        self.max_blocks = _max_blocks(cp)
        self.source = source
        self.dist = cp.full(self.n, self.inf, dtype=self.dt)
        self.dist[source] = 0
        self.ctl = cp.zeros(_CTL, dtype=cp.uint64)
        self.launches, self.syncs = 2, 0
        self.rounds = self.edges = self.entries = 0

    def grid(self, work):
        return (max(1, min(-(-int(work) // BLOCK), self.max_blocks)),)

    def launch(self, name, work, args):
        self.kernel(name)(self.grid(work), (BLOCK,), args)
        self.launches += 1

    def read(self):
        """The control words on the host (one synchronization); raises on the flags."""
        c = self.ctl.get()
        self.syncs += 1
        if c[_NEGATIVE]:
            raise _cycle(self.source, "a distance fell below minus the largest weight times n - 1")
        if c[_OVERFLOW]:
            raise RuntimeError("sssp: a worklist outgrew its buffer (a bug in semiring's SSSP strategies)")
        return c

    def next_round(self):
        if self.rounds == self.n:
            raise _cycle(self.source, f"distances still fell in round {self.n}")
        self.rounds += 1

    def incl(self, wl, m):
        """Inclusive prefix sums of the out-degrees of wl[:m] (int64)."""
        deg = self.cp.empty(m, dtype=self.cp.int64)
        self.launch("sssp_degrees", m, (self.optr, wl, np.int32(m), deg))
        self.launches += 1
        return self.cp.cumsum(deg)

    def start(self):
        """The worklist [source] and its out-degree (one synchronization)."""
        cp = self.cp
        wl = cp.full(1, self.source, dtype=cp.int32)
        deg = int(self.optr[self.source + 1] - self.optr[self.source])
        self.launches += 2
        self.syncs += 1
        return wl, 1, deg

    def stats(self, **more):
        return {"rounds": self.rounds, "edges_examined": self.edges, "worklist_entries": self.entries,
                "launches": self.launches, "host_syncs": self.syncs, **more}


def _topology(r, rows):
    nnz = int(r.oidx.shape[0])
    while True:
        r.next_round()
        r.ctl.fill(0)
        r.launches += 1
        r.edges += nnz
        r.entries += r.n
        if nnz:
            r.launch("sssp_topology", nnz, (rows, r.oidx, r.w, np.int64(nnz), r.dist, r.inf, r.floor, r.ctl[_FLAGS:]))
        if not r.read()[_CHANGED]:
            break
        if r.rounds == r.n:
            raise _cycle(r.source, f"distances still fell in round {r.n}")


def _worklist(r, name):
    cp = r.cp
    wl, m, nedges = r.start()
    incl = None
    if name == "worklist_scan":
        flag = cp.zeros(r.n, dtype=cp.int32)
        degree = (r.optr[1:] - r.optr[:-1]).astype(cp.int64)
        incl = cp.full(1, nedges, dtype=cp.int64)
        r.launches += 3
    elif name == "worklist_filter":
        stamp = cp.full(r.n, -1, dtype=cp.int32)
        r.launches += 1
    while m:
        r.next_round()
        r.entries += m
        r.edges += nedges
        if name != "worklist_scan":
            incl = r.incl(wl, m)
        r.ctl.fill(0)
        r.launches += 1
        if nedges == 0:  # no out-edges: nothing to relax, nothing improves
            break
        common = (r.optr, r.oidx, r.w, wl, incl, np.int32(m), np.int64(nedges), r.dist, r.floor)
        flags = r.ctl[_FLAGS:]
        if name == "worklist_scan":
            r.launch("sssp_relax_flag", nedges, common + (flag, flags))
            pos = cp.cumsum(flag, dtype=cp.int32)
            dpos = cp.cumsum(flag * degree)
            nxt = cp.empty(r.n, dtype=cp.int32)
            incl = cp.empty(r.n, dtype=cp.int64)
            r.launches += 3
            r.launch("sssp_scatter", r.n, (flag, pos, dpos, np.int32(r.n), nxt, incl, r.ctl[_LIST_A:]))
        elif name == "worklist_filter":
            raw = cp.empty(nedges, dtype=cp.int32)  # at most one append per examined edge
            r.launch("sssp_relax_atomic", nedges, common + (raw, np.int64(nedges), r.ctl[_LIST_B:], flags))
            cap = min(nedges, r.n)
            nxt = cp.empty(cap, dtype=cp.int32)
            r.launch("sssp_filter", nedges, (r.optr, raw, r.ctl[_LIST_B:], stamp, np.int32(r.rounds), nxt,
                                             np.int64(cap), r.ctl[_LIST_A:], flags))
        else:
            nxt = cp.empty(nedges, dtype=cp.int32)
            kern = "sssp_relax_hash" if name == "worklist_hash" else "sssp_relax_atomic"
            r.launch(kern, nedges, common + (nxt, np.int64(nedges), r.ctl[_LIST_A:], flags))
        c = r.read()
        wl, m, nedges = nxt, int(c[_LIST_A]), int(c[_LIST_A + 1])


def _near_far(r, delta):
    cp = r.cp
    wl, m, nedges = r.start()
    delta = r.dt(delta)
    thr = delta
    nstamp = cp.full(r.n, -1, dtype=cp.int32)
    fstamp = cp.full(r.n, -1, dtype=cp.int32)
    far = cp.empty(r.n, dtype=cp.int32)
    far_next = cp.empty(r.n, dtype=cp.int32)
    fmin = cp.empty(1, dtype=r.dt)
    r.ctl.fill(0)
    r.launches += 4
    stamp_id, epoch, nfar, splits = 0, 0, 0, 0
    fl, fl_next = _LIST_B, _LIST_C  # control words of the far pile and of the next epoch's
    flags = r.ctl[_FLAGS:]
    while True:
        if m:
            r.next_round()
            r.entries += m
            r.edges += nedges
            stamp_id += 1
            incl = r.incl(wl, m)
            r.ctl[_LIST_A:_LIST_A + 2] = 0
            r.launches += 1
            near = cp.empty(r.n, dtype=cp.int32)
            if nedges:
                r.launch("sssp_relax_near_far", nedges, (
                    r.optr, r.oidx, r.w, wl, incl, np.int32(m), np.int64(nedges), r.dist, r.floor, thr, near, np.int64(r.n),
                    r.ctl[_LIST_A:], nstamp, np.int32(stamp_id), far, np.int64(r.n), r.ctl[fl:], fstamp,
                    np.int32(epoch), flags))
            c = r.read()
            wl, m, nedges, nfar = near, int(c[_LIST_A]), int(c[_LIST_A + 1]), int(c[fl])
            continue
        if nfar == 0:
            break
        lo = thr
        fmin.fill(r.inf)
        r.launch("sssp_far_min", nfar, (far, r.ctl[fl:], r.dist, lo, fmin))
        low = fmin.get()[0]
        r.launches += 1
        r.syncs += 1
        if low == r.inf:
            break
        splits += 1
        thr = r.dt(low + delta)
        if not thr > low:  # delta below the spacing of the floats at low: the next float up
            thr = r.dt(np.nextafter(low, np.inf))
        stamp_id += 1
        epoch += 1
        r.ctl[_LIST_A:_LIST_A + 2] = 0
        r.ctl[fl_next:fl_next + 2] = 0
        r.launches += 2
        near = cp.empty(r.n, dtype=cp.int32)
        r.launch("sssp_split", nfar, (r.optr, far, r.ctl[fl:], r.dist, lo, thr, near, np.int64(r.n), r.ctl[_LIST_A:],
                                      nstamp, np.int32(stamp_id), far_next, np.int64(r.n), r.ctl[fl_next:], fstamp,
                                      np.int32(epoch), flags))
        c = r.read()
        wl, m, nedges, nfar = near, int(c[_LIST_A]), int(c[_LIST_A + 1]), int(c[fl_next])
        far, far_next, fl, fl_next = far_next, far, fl_next, fl
    return {"splits": splits}


def run(name, W, source, *, floor=None, delta=None, rows=None):
    """Distances from ``source`` by strategy ``name`` on the device.

    Parameters
    ----------
    name : str
        One of ``semiring.backends.strategies.SSSP_STRATEGIES``.
    W : Matrix on the GPU, shape (n, n), int64 or float64 weights, no NaN
        Non-negative weights for "near_far".
    source : int
    floor : int, optional
        Integer weights: minus the largest absolute weight times (n - 1).
    delta : number, optional
        Bucket width of "near_far".
    rows : cupy array, shape (nnz,), optional
        Row index of every stored entry (W's index type), for "topology" (made if not given).

    Returns
    -------
    PathsResult
        ``dist`` (cupy, shape (n,): int64 with INT64_MAX where unreached, or float64 with inf),
        ``rounds``, ``edges_examined``, ``worklist_entries``, ``launches``, ``host_syncs``
        (and ``splits`` for near_far).

    Raises
    ------
    NegativeCycleError
        A negative cycle is reachable from the source.
    InvalidValue
        More than 2^31 - 2 vertices (vertex ids are int32 in the worklists).
    """
    import cupy as cp

    if W.nrows >= 2**31 - 1:
        raise InvalidValue(f"sssp: strategy {name!r} keeps vertex ids in int32; given {W.nrows} vertices")
    r = _Run(cp, W, source, floor)
    more = {}
    if name == "topology":
        if rows is None:
            rows = row_ids(W)
            r.launches += 3
        _topology(r, rows)
    elif name == "near_far":
        more = _near_far(r, delta)
    else:
        _worklist(r, name)
    return PathsResult(r.dist, **r.stats(**more))


def row_ids(W):
    """Row index of every stored entry of a GPU Matrix, in W's index type."""
    return W._row_ids().astype(W._indices.dtype)


__all__ = ["run", "row_ids", "source", "BLOCK", "HASH_SLOTS", "BLOCKS_PER_SM"]
