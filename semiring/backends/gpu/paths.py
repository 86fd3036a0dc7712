"""Device-resident delta-stepping SSSP (the near-far variant): one persistent kernel, one grid
barrier per round, no host synchronization until the distances are final.

The vertices whose distance improved are kept in two worklists: *near* (distance below the
current bucket's upper bound ``thr``) and *far*. Each round relaxes the out-edges of the near
list with ``atomicMin`` on the distance (non-negative floats compare like their bit patterns,
so doubles and floats use the integer atomic on their bits); an improved vertex joins the next
near list or the far list, each at most once (per-vertex stamps dedupe the lists, so neither
can outgrow n). When the near list empties, the bucket is done: ``thr`` moves on by ``delta``
(or jumps to the smallest far distance plus ``delta`` when the buckets between are empty), and
the far list is split into the new near list and what stays far; entries already settled are
dropped. The search ends when both lists are empty. Near lists use the BFS kernel's two-tier
load balance (hubs split into chunks of edges, one block each).

References: Meyer, Sanders, "Delta-stepping: a parallelizable shortest path algorithm",
J. Algorithms 49(1), 2003; Davidson, Baxter, Garland, Owens, "Work-efficient parallel GPU
methods for single-source shortest paths", IPDPS 2014 (near-far); Wang et al., "Gunrock",
TOPC 2017.
"""

from __future__ import annotations

import numpy as np

from ..results import PathsResult
from . import _persistent as _p
from . import compiler

_SLOT = 8

#: CUDA type of the distances per weight kind: integers add in int64, floats in their own type.
_DIST = {"i": ("long long", np.int64), "u": ("long long", np.int64), "f4": ("float", np.float32),
         "f8": ("double", np.float64)}


def dist_type(wdtype):
    """(CUDA type, NumPy dtype) of the distances for weights of ``wdtype``, or None if unsupported."""
    wdtype = np.dtype(wdtype)
    if wdtype.kind in "iu" and wdtype != np.uint64:
        return _DIST["i"]
    if wdtype.kind == "f" and wdtype.itemsize in (4, 8):
        return _DIST[f"f{wdtype.itemsize}"]
    return None


def _defines(ipt, ixt, wdtype):
    """Definitions of ``kernels/paths.cu`` for these index types and weights."""
    return _p.defines(IPT=ipt, IXT=ixt, TW=compiler.ctype(wdtype), TD=dist_type(wdtype)[0], SLOT=_SLOT)


def _kernels_for(ipt, ixt, wdtype):
    """The init and search kernels (compiled once per definitions and device)."""
    d = _defines(ipt, ixt, wdtype)
    return compiler.kernel("paths.cu", "sssp_init", d), compiler.kernel("paths.cu", "sssp_fused", d)


def sssp(W, source, delta):
    """Distances from ``source`` over the non-negative weights of W, all on the device.

    Parameters
    ----------
    W : Matrix on the GPU, shape (n, n)
        Weighted out-edges; weights >= 0 (checked by the caller), of an integer type other
        than uint64 or float32/float64.
    source : int
    delta : number > 0
        Bucket width.

    Returns
    -------
    PathsResult
        ``dist`` (cupy, shape (n,): int64 for integer weights with INT64_MAX where unreached,
        else the weight's float type with inf), ``rounds`` (relaxation rounds, grid barriers
        between them; splits not counted), ``splits`` (bucket advances), ``relaxations``
        (edges relaxed), ``launches``, ``host_syncs``.
    """
    import cupy as cp

    n = W.nrows
    optr, oidx = W._indptr, W._indices
    ipt, ixt = _p.index_types(optr, oidx)
    init, kern = _kernels_for(ipt, ixt, W.dtype)
    _, dt = dist_type(W.dtype)
    inf = np.iinfo(np.int64).max if dt == np.int64 else np.inf
    dist = cp.full(n, inf, dtype=dt)
    nmark = cp.full(n, -1, dtype=cp.int32)
    fmark = cp.full(n, -1, dtype=cp.int32)
    qs0, qs1, far0, far1 = (cp.empty(max(n, 1), dtype=cp.int32) for _ in range(4))
    nbig = int(W.nvals) // _p.BIG + int(W.nvals) // _p.CHUNK + 16
    qb0, qb1 = cp.empty(nbig, dtype=cp.int64), cp.empty(nbig, dtype=cp.int64)
    ctl = cp.zeros(5 * _SLOT, dtype=cp.uint64)
    bar = _p.barrier()
    init((1,), (1,), (optr, np.int32(source), dist, nmark, qs0, qb0, ctl))
    blocks = _p.grid_size(kern, ("sssp", ipt, ixt, np.dtype(W.dtype).name))
    kern((blocks,), (_p.BLOCK,), (optr, oidx, W._values, np.int32(n), dt(delta), dist, nmark, fmark,
                                  qs0, qs1, qb0, qb1, far0, far1, ctl, bar))
    c = ctl.get()
    rounds, splits, failed = (int(x) for x in c[4 * _SLOT:4 * _SLOT + 3])
    if failed:
        raise RuntimeError("sssp: a grid barrier timed out (not every block was resident); no result")
    # launches: 3 fills + ctl and barrier memsets + init + the search
    return PathsResult(dist, rounds, launches=7, host_syncs=1, splits=splits, relaxations=int(c[3 * _SLOT + 6]))
