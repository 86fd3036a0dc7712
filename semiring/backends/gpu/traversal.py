"""Device-resident, direction-optimizing BFS: one persistent kernel runs every
level, with one grid barrier per level and no host synchronization until the search ends.

Per level, every thread reads the same frontier counters and takes the same direction
decision: Beamer's rule of :mod:`semiring.backends.direction`, evaluated in the kernel with
that module's ALPHA and BETA:

- push (top-down): the frontier is kept in two queues. Vertices of small out-degree are
  expanded by groups of ``TPV`` lanes; vertices of large out-degree are split into chunks of
  ``CHUNK`` edges ("node splitting"), each chunk expanded by a whole block, so one hub cannot
  serialize a level. A neighbour is claimed with ``atomicCAS(level, -1, d + 1)``; the winner
  records the parent and appends the vertex to the next frontier (warp-aggregated atomics).
- pull (bottom-up): one thread per unvisited vertex scans its in-edges and stops at the first
  neighbour on the current level (the ``any`` monoid's early exit), looked up in a frontier
  bitmap (n / 8 bytes, which stays in L2 where the level array would not).

The level array is initialized, and the result written in the Vector's bitmap form, inside
the same launch; the workspace (queues, bitmaps, counters, trace) is kept between searches.

Counters (frontier sizes, frontier out-edges, edges examined) live in a small device array
with three rotating slots, so zeroing the slot of level d + 2 needs no extra barrier.

References: Beamer, Asanovic, Patterson, "Direction-optimizing breadth-first search", SC 2012;
Merrill, Garland, Grimshaw, "Scalable GPU graph traversal", PPoPP 2012 (warp/CTA expansion);
Wang et al., "Gunrock: GPU graph analytics", TOPC 2017; Hong et al., "Accelerating CUDA graph
algorithms at maximum warp", PPoPP 2011 (virtual warps).
"""

from __future__ import annotations

import threading

import numpy as np

from ..direction import ALPHA, BETA
from ..results import TraversalResult
from . import _persistent as _p
from . import compiler

#: Slots of the control array: 8 counters per level, three levels in rotation.
_SLOT = 8
#: Frontier out-edges above which a push level reads a neighbour's level before its CAS.
PRECHECK_EDGES = 65536
#: Frontier out-edges up to which a push level runs on a sub-grid of SUB_BLOCKS_PER_SM blocks per
#: SM behind its own barrier (see the kernel); 0 turns the sub-grid off.
SUB_EDGES = 32768
SUB_BLOCKS_PER_SM = 1
#: Levels a search must have run before it may use the sub-grid (short searches, such as on
#: Kronecker graphs, never do: they gain nothing and each switch costs a grid barrier).
SUB_MIN_DEPTH = 16

_lock = threading.RLock()  # guards the kept workspace
_MODES = {"auto": 0, "push": 1, "pull": 2}



def _defines(types):
    """Definitions of ``kernels/traversal.cu`` for these index types and the tuning constants."""
    ipt, ixt, ipt2, ixt2 = types
    return _p.defines(IPT=ipt, IXT=ixt, IPT2=ipt2, IXT2=ixt2, SLOT=_SLOT, PRECHECK=PRECHECK_EDGES,
                      SUB_EDGES=SUB_EDGES, SUB_MIN_DEPTH=SUB_MIN_DEPTH, NSMALL=0, NBIG=1, MF=2, EXAMINED=3, NQ=4)


def _kernel(types):
    """The fused kernel for these index types (compiled once per definitions and device)."""
    return compiler.kernel("traversal.cu", "bfs_fused", _defines(types))


def supported(A):
    """Whether the fused kernel can run on A (vertex ids must fit in int32)."""
    return A.nrows < 2**31 - 1


def bfs(A, AT, source, *, parents=False, direction="auto", max_depth=None, alpha=ALPHA, beta=BETA):
    """Run a whole BFS on the device in one persistent launch.

    Parameters
    ----------
    A, AT : Matrix on the GPU, shape (n, n)
        Out-edges (push) and in-edges (pull); the same object for an undirected graph.
    source : int
        0 <= source < n (checked by the caller).
    parents : bool
        Also record a BFS-tree parent per reached vertex.
    direction : {"auto", "push", "pull"}
    max_depth : int or None
    alpha, beta : float
        Beamer's switching thresholds (:mod:`semiring.backends.direction`).

    Returns
    -------
    TraversalResult
        ``level`` (cupy int64, shape (n,), 0 where unreached), ``present`` (cupy bool),
        ``parent`` (cupy int64 or None), ``nvals``, ``trace`` (one entry per level; pull
        levels count the in-edges actually examined, the scan stopping at the first hit),
        ``launches`` (kernel launches issued), ``host_syncs`` (device-to-host reads, each
        waiting for the device).
    """
    import cupy as cp

    n = A.nrows
    optr, oidx, iptr, iidx = A._indptr, A._indices, AT._indptr, AT._indices
    types = _p.index_types(optr, oidx, iptr, iidx)
    kern = _kernel(types)
    key, ws = _workspace(n, int(A.nvals), parents)
    out_level = cp.empty(n, dtype=cp.int64)
    out_parent = cp.empty(n, dtype=cp.int64) if parents else out_level
    present = cp.empty(n, dtype=cp.bool_)
    blocks = _p.grid_size(kern, ("bfs",) + types)
    md = -1 if max_depth is None else int(max_depth)
    sub = min(blocks, max(1, SUB_BLOCKS_PER_SM) * _p.sm_count()) if SUB_EDGES > 0 else blocks
    kern((blocks,), (_p.BLOCK,), (optr, oidx, iptr, iidx, np.int32(n), np.int64(A.nvals), np.int32(source),
                                  ws["level"], ws["parent"], np.int32(parents), ws["qs0"], ws["qs1"], ws["qb0"],
                                  ws["qb1"], ws["fbits"], ws["ctl"], ws["tr"], np.int64(n + 2), np.int32(_MODES[direction]),
                                  np.int32(md), np.float64(alpha), np.float64(beta), ws["bar"], np.int32(sub), ws["state"], out_level,
                                  out_parent, present))
    launches, host_syncs = 1, 1
    head = ws["tr"][:2 + 3 * _TRACE].get()
    depth, failed = int(head[0]), int(head[1])
    if failed:
        ws["bar"][:] = 0
        _release(key, ws)
        raise RuntimeError("bfs: a grid barrier timed out (not every block was resident); no result")
    if depth >= _TRACE:  # a long search: the rest of its trace
        head = ws["tr"][:2 + 3 * (depth + 1)].get()
        host_syncs += 1
    _release(key, ws)
    lv = head[2:2 + 3 * (depth + 1)].reshape(-1, 3)
    trace = [("pull" if lv[i, 0] == 2 else "push", int(lv[i, 1]), int(lv[i, 2]), int(lv[i + 1, 1]))
             for i in range(depth)]
    nvals = 1 + sum(s[3] for s in trace)
    return TraversalResult.from_rows(out_level, present, (out_parent if parents else None), nvals, trace, launches,
                                     host_syncs)


#: Trace levels read back with the result in one copy (longer searches take a second copy).
_TRACE = 128
_workspaces = {}  # the idle workspace, one graph size at a time


def _workspace(n, nnz, parents):
    """``(key, ws)``: queues, counters, trace and barrier of a search on n vertices, kept
    between calls (the barrier words are left zeroed by every completed barrier).

    A search takes the idle workspace out of ``_workspaces`` and gives it back with
    :func:`_release` when done, so concurrent searches (other threads) never share one."""
    import cupy as cp

    key = (n, nnz, cp.cuda.runtime.getDevice())
    with _lock:
        ws = _workspaces.pop(key, None)
    if ws is None:
        nbig = nnz // _p.BIG + nnz // _p.CHUNK + 16
        ws = {"level": cp.empty(max(n, 1), dtype=cp.int32), "parent": cp.empty(max(n, 1), dtype=cp.int32),
              "qs0": cp.empty(max(n, 1), dtype=cp.int32), "qs1": cp.empty(max(n, 1), dtype=cp.int32),
              "qb0": cp.empty(nbig, dtype=cp.int64), "qb1": cp.empty(nbig, dtype=cp.int64),
              "fbits": cp.empty(3 * ((n + 31) // 32) + 1, dtype=cp.uint32),
              "ctl": cp.zeros(4 * _SLOT, dtype=cp.uint64), "tr": cp.zeros(2 + 3 * (n + 2), dtype=cp.int64),
              "bar": _p.barrier(), "state": cp.zeros(8, dtype=cp.int64)}
    return key, ws


def _release(key, ws):
    """Keep ``ws`` (its search completed) as the idle workspace for the next search."""
    with _lock:
        _workspaces.clear()  # one graph size at a time
        _workspaces[key] = ws
