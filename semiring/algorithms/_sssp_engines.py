"""The SSSP runs outside the algebra: the whole-search engines (GPU persistent kernel, CPU
``semiring.backends.cpu.paths``) and the named strategies, each taking the finite-weight
matrix and returning the distances as a Vector (unreached vertices absent) with the backend's
:class:`~semiring.backends.results.PathsResult`."""

from __future__ import annotations

import numpy as np

from .. import core as _core
from ..core.vector import Vector
from ..exceptions import DomainMismatch
from ..ops import monoid
from .engines import SSSP_STRATEGIES as STRATEGIES


def _host_vector(n, dtype, dist, sentinel):
    """A Vector of the host distances ``dist`` without the entries equal to ``sentinel``."""
    present = dist != sentinel
    nvals = int(np.count_nonzero(present))
    dist[~present] = 0
    return Vector._from_bitmap(dtype, present, dist, nvals)


def _device_vector(W, r):
    """The Vector of a GPU run's distances (unreached: INT64_MAX or inf); counts the four
    launches (compare, where, astype, sum) and the host read of the count in ``r``."""
    import cupy as cp

    dist = r.dist
    reached = dist != (np.iinfo(np.int64).max if dist.dtype == np.int64 else np.inf)
    d = Vector._from_bitmap(W.dtype, reached, cp.where(reached, dist, 0).astype(W.dtype), int(reached.sum()))
    r.launches += 4
    r.host_syncs += 1
    return d


def _compiled():
    """semiring.backends.cpu.compiled_paths where the compiled CPU loops run, else None."""
    from ..backends.cpu import _jit

    if _jit.enabled():
        from ..backends.cpu import compiled_paths

        return compiled_paths
    return None


def cpu_delta_stepping(G, W, source, delta, wmax=None):
    """Delta-stepping in one call (semiring.backends.cpu.compiled_paths where the compiled
    loops run, else semiring.backends.cpu.paths) over W, the graph's finite SSSP weights
    (``G.sssp_weights.Wf``, whose split per delta G keeps); returns (d, PathsResult)."""
    from ..backends.cpu import paths

    compiled = _compiled()
    if compiled is not None:
        # each row's light edges first, once per graph and delta
        r = compiled.delta_stepping(G.sssp_partition(delta), source, delta, wmax)
    else:
        # the light / heavy split, once per graph and delta
        light, heavy = G.sssp_split_arrays(delta)
        r = paths.delta_stepping(light, heavy, source, delta, wmax)
    return _host_vector(G.n, W.dtype, r.dist, paths.unreached(W.dtype)), r


def cpu_bellman_ford(G, W, source, info):
    """Worklist Bellman-Ford in one call (semiring.backends.cpu.compiled_paths where the
    compiled loops run, else semiring.backends.cpu.paths); returns (d, PathsResult)."""
    from ..backends.cpu import paths

    floor = -info.top * max(G.n - 1, 0) if W.dtype.kind == "i" and info.negative else None
    r = (_compiled() or paths).bellman_ford(W._indptr, W._indices, W._values, source, floor)
    return _host_vector(G.n, W.dtype, r.dist, paths.unreached(W.dtype)), r


def fused_gpu(W, source, delta):
    """Delta-stepping in one persistent kernel (semiring.backends.gpu.paths); returns (d, PathsResult)."""
    from ..backends.gpu import paths

    r = paths.sssp(W, source, delta)
    return _device_vector(W, r), r


def distance_floor(G, W):
    """Integer weights: minus the largest absolute weight times (n - 1) (a distance below it
    proves a negative cycle); None for floats. DomainMismatch where a candidate distance
    (a simple path plus one edge, up to that weight times n) would overflow int64."""
    if W.dtype.kind != "i" or not W.nvals:
        return None
    top = max(abs(int(_core.reduce_scalar(W, monoid.max))), abs(int(_core.reduce_scalar(W, monoid.min))))
    if top * G.n >= 2**63:
        raise DomainMismatch(f"sssp: integer weights up to {top} on {G.n} vertices can overflow the int64 "
                             "candidate distances of the strategies; give float64 weights (A.dup('float64'))")
    return -top * max(G.n - 1, 0)


def strategy(G, W, source, name, delta):
    """Run strategy ``name`` (checked) on W, the graph's finite SSSP weights
    (``G.sssp_weights.Wf``); returns (d, PathsResult)."""
    floor = G.sssp_floor
    if W.device == "gpu":
        from ..backends.gpu import sssp_strategies as gs

        rows = None
        if name == "topology":
            rows = G.sssp_edge_rows  # the row of every entry, once per graph
        r = gs.run(name, W, source, floor=floor, delta=delta, rows=rows)
        return _device_vector(W, r), r
    from ..backends.cpu import sssp_strategies as cs

    r = cs.run(name, W._indptr.astype(np.int64, copy=False), W._indices.astype(np.int64, copy=False),
               W._values, source, floor=floor, delta=delta)
    idx = np.flatnonzero(r.dist != cs.unreached(r.dist.dtype))
    return Vector._from_parts(G.n, W.dtype, idx, r.dist[idx]), r


__all__ = ["STRATEGIES", "strategy", "fused_gpu", "cpu_delta_stepping", "cpu_bellman_ford"]
