"""The SSSP runs outside the algebra: the whole-search engines (GPU persistent kernel, CPU
``semiring.backends.cpu.paths``) and the named strategies, each taking the finite-weight
matrix and returning the distances as a Vector (unreached vertices absent)."""

from __future__ import annotations

import numpy as np

from .. import core as _core
from ..core.vector import Vector
from ..exceptions import DomainMismatch, InvalidValue
from ..ops import monoid

#: Names accepted by ``sssp(strategy=...)``: Bellman-Ford work organizations, then near-far.
STRATEGIES = ("topology", "worklist_atomic", "worklist_filter", "worklist_hash", "worklist_scan", "near_far")


def _host_vector(n, dtype, dist, sentinel):
    """A Vector of the host distances ``dist`` without the entries equal to ``sentinel``."""
    present = dist != sentinel
    nvals = int(np.count_nonzero(present))
    dist[~present] = 0
    return Vector._from_bitmap(dtype, present, dist, nvals)


def cpu_delta_stepping(G, W, source, delta, wmax=None):
    """Delta-stepping in one call (semiring.backends.cpu.paths); returns (d, rounds, stats)."""
    from ..backends.cpu import paths

    key = ("sssp_split_cpu", delta)
    # the light / heavy split, once per graph and delta
    light, heavy = G.cached(key, lambda: paths.split(W._indptr, W._indices, W._values, delta))
    dist, rounds = paths.delta_stepping(light, heavy, source, delta, wmax)
    stats = {"launches": None, "host_syncs": None}
    return _host_vector(G.n, W.dtype, dist, paths.unreached(W.dtype)), rounds, stats


def cpu_bellman_ford(G, W, source, info):
    """Worklist Bellman-Ford in one call (semiring.backends.cpu.paths); returns (d, rounds)."""
    from ..backends.cpu import paths

    floor = -info.top * max(G.n - 1, 0) if W.dtype.kind == "i" and info.negative else None
    dist, rounds = paths.bellman_ford(W._indptr, W._indices, W._values, source, floor)
    return _host_vector(G.n, W.dtype, dist, paths.unreached(W.dtype)), rounds


def fused_gpu(W, source, delta):
    """Delta-stepping in one persistent kernel (semiring.backends.gpu.paths)."""
    import cupy as cp

    from ..backends.gpu import paths

    dist, rounds, stats = paths.sssp(W, source, delta)
    reached = dist < (np.iinfo(np.int64).max if dist.dtype == np.int64 else np.inf)
    d = Vector._from_bitmap(W.dtype, reached, cp.where(reached, dist, 0).astype(W.dtype), int(reached.sum()))
    stats["launches"] += 4  # compare, where, astype, sum
    stats["host_syncs"] += 1
    return d, rounds, stats


def check_strategy(strategy, method, delta, engine, negative, wmin):
    """InvalidValue unless the options fit ``strategy`` (each already checked on its own)."""
    if engine != "auto":
        raise InvalidValue(f"sssp: strategy={strategy!r} runs its own kernels, not the {engine!r} engine; "
                           "leave engine='auto' with a strategy")
    if strategy == "near_far":
        if method not in ("auto", "delta_stepping"):
            raise InvalidValue(f"sssp: strategy='near_far' is a delta-stepping method; method must be 'auto' or "
                               f"'delta_stepping' with it; given {method!r}")
        if negative:
            raise InvalidValue(f"sssp: strategy='near_far' needs non-negative weights; the smallest is {wmin} "
                               "(use a Bellman-Ford strategy such as 'worklist_atomic')")
        return
    if method not in ("auto", "bellman_ford"):
        raise InvalidValue(f"sssp: strategy={strategy!r} is a Bellman-Ford method; method must be 'auto' or "
                           f"'bellman_ford' with it; given {method!r}")
    if delta is not None:
        raise InvalidValue(f"sssp: delta applies to delta-stepping and strategy='near_far', not to "
                           f"strategy={strategy!r}; given delta={delta!r}")


def _floor(G, W):
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
    """Run strategy ``name`` (checked) on the finite weights W; returns (d, stats)."""
    key = ("sssp_floor",)
    floor = G.cached(key, lambda: _floor(G, W))
    if W.device == "gpu":
        import cupy as cp

        from ..backends.gpu import sssp_strategies as gs

        rows = None
        if name == "topology":
            rows = G.cached("sssp_rows", lambda: gs.row_ids(W))  # the row of every entry, once per graph
        dist, stats = gs.run(name, W, source, floor=floor, delta=delta, rows=rows)
        reached = dist != (np.iinfo(np.int64).max if dist.dtype == np.int64 else np.inf)
        d = Vector._from_bitmap(W.dtype, reached, cp.where(reached, dist, 0).astype(W.dtype), int(reached.sum()))
        stats["launches"] += 4  # compare, where, astype, sum
        stats["host_syncs"] += 1
        return d, stats
    from ..backends.cpu import sssp_strategies as cs

    dist, stats = cs.run(name, W._indptr.astype(np.int64, copy=False), W._indices.astype(np.int64, copy=False),
                         W._values, source, floor=floor, delta=delta)
    idx = np.flatnonzero(dist != cs.unreached(dist.dtype))
    stats.update(launches=None, host_syncs=None)
    return Vector._from_parts(G.n, W.dtype, idx, dist[idx]), stats


__all__ = ["STRATEGIES", "check_strategy", "strategy", "fused_gpu", "cpu_delta_stepping", "cpu_bellman_ford"]
