"""Single-source shortest paths as ``min_plus`` products.

- Bellman-Ford, data-driven: only vertices whose distance changed in the last round relax
  their out-edges (``t = changed min.plus A``), as a worklist Bellman-Ford does. A path without
  a negative cycle has at most n-1 edges, so a change in round n proves a negative cycle.
- Delta-stepping: tentative distances are kept in buckets of width delta; a bucket is settled
  by repeated relaxation of its light edges (weight <= delta), then its heavy edges are
  relaxed once.
- Strategies (``strategy=``): the classic GPU work organizations of Bellman-Ford, each its own
  small level-synchronous implementation outside the algebra (CuPy kernels in
  ``semiring.backends.gpu.sssp_strategies``, the same work organization in NumPy in
  ``semiring.backends.cpu.sssp_strategies``): topology-driven sweeps versus data-driven
  worklists with duplicate culling by a filter pass or a hash table, or prefix-sum compaction.

References
----------
Bellman, "On a routing problem", Quarterly of Applied Mathematics 16, 1958; Ford, "Network
flow theory", RAND P-923, 1956.
Meyer, Sanders, "Delta-stepping: a parallelizable shortest path algorithm", J. Algorithms 49, 2003.
Sridhar et al., "Delta-stepping SSSP: from vertices and edges to GraphBLAS implementations",
GrAPL 2019 (the algebraic formulation; LAGraph ``LAGr_SingleSourceShortestPath``).
Harish, Narayanan, "Accelerating large graph algorithms on the GPU using CUDA", HiPC 2007.
Nasre, Burtscher, Pingali, "Data-driven versus topology-driven irregular computations on
GPUs", IPDPS 2013.
Davidson, Baxter, Garland, Owens, "Work-efficient parallel GPU methods for single-source
shortest paths", IPDPS 2014.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import core as _core
from ..core.matrix import Matrix
from ..core.vector import Vector
from ..exceptions import DomainMismatch, InvalidValue, NegativeCycleError
from ..ops import binary, indexunary, monoid, semiring, unary
from .bfs import bfs
from .graph import as_graph, check_source, use_fused

_METHODS = ("auto", "bellman_ford", "delta_stepping")
#: Names accepted by ``sssp(strategy=...)``: Bellman-Ford work organizations, then near-far.
STRATEGIES = ("topology", "worklist_atomic", "worklist_filter", "worklist_hash", "worklist_scan", "near_far")


@dataclass
class SSSPResult:
    """Result of :func:`sssp`.

    Attributes
    ----------
    distance : Vector, size n
        Shortest-path length from the source (int64 for integer weights, float64 for float
        weights); unreachable vertices are absent (``to_dense(np.inf)`` gives IEEE inf).
    parent : Vector of int64, size n, or None
        A predecessor on a shortest path; ``parent[source] == source``. The parents form a tree:
        a BFS from the source over the tight edges (d(u) + W(u, v) == d(v)), each vertex taking
        the smallest-index tight predecessor among those on the previous BFS level.
    method : str
        The method that ran.
    rounds : int
        Bellman-Ford rounds, or delta-stepping light-edge relaxation rounds.
    delta : float or None
        Bucket width used by delta-stepping.
    engine : str
        "algebra", "fused" (one persistent GPU kernel; ``rounds`` then counts its
        relaxation rounds, each one grid barrier) or "strategy:<name>" (``rounds`` counts
        relaxation rounds, each one kernel launch on the GPU).
    launches, host_syncs : int or None
        Kernel launches and host synchronizations of a fused or GPU strategy run (CuPy array
        operations count one launch each; None for the algebra engine and CPU strategies).
    strategy : str or None
        The strategy that ran (None without ``strategy=``).
    edges_examined : int or None
        Strategies: out-edges read over all rounds (topology: every edge every round; worklists:
        the out-edges of every worklist entry, duplicates included).
    worklist_entries : int or None
        Strategies: vertices expanded over all rounds (duplicates included; topology: n per round).
    """

    distance: Vector
    parent: Vector | None
    method: str
    rounds: int
    delta: float | None = None
    engine: str = "algebra"
    launches: int | None = None
    host_syncs: int | None = None
    strategy: str | None = None
    edges_examined: int | None = None
    worklist_entries: int | None = None


def _weights(G):
    """The weight matrix: integer weights as int64, floats as float64, bool as int64 ones."""
    A = G.A
    if A.dtype.kind == "b":
        # W = one(A) as int64: an unweighted graph has unit weights
        return _core.apply(A, unary.one).dup("int64")
    if A.dtype.kind in "iu":
        W = A if A.dtype == np.int64 else A.dup("int64")
        if A.nvals:
            top = max(abs(int(_core.reduce_scalar(A, monoid.max))), abs(int(_core.reduce_scalar(A, monoid.min))))
            if top * max(G.n - 1, 1) >= 2**63:
                raise DomainMismatch(
                    f"sssp: integer weights up to {top} over paths of up to {G.n - 1} edges can overflow the "
                    "int64 distances; give float64 weights (A.dup('float64'))")
        return W
    W = A if A.dtype == np.float64 else A.dup("float64")
    nan = int(np.isnan(W.to_coo()[2]).sum())
    if nan:
        raise InvalidValue(f"sssp: edge weights must be numbers; given {nan} NaN weights")
    return W


def _min_weight(W):
    return _core.reduce_scalar(W, monoid.min) if W.nvals else 0


def _relax(d, t):
    """d<changed> = t where t improves d (or d is absent); returns ``changed``."""
    # shorter = t < d   (where both exist)
    shorter = _core.ewise_mult(t, d, binary.lt)
    # changed<!d.S> = t   (reached for the first time)
    changed = _core.apply(t, unary.identity, mask=~d.S)
    # changed<shorter.V> = t
    _core.apply(t, unary.identity, mask=shorter.V, out=changed)
    # d<changed.S> = changed
    _core.assign(d, changed, None, mask=changed.S)
    return changed


def bellman_ford(G, W, source):
    n = G.n
    d = Vector.from_coo([source], [0], size=n, dtype=W.dtype, device=W.device)
    changed = d.dup()
    rounds = 0
    while changed.nvals:
        if rounds == n:
            raise NegativeCycleError(
                f"sssp: a negative-weight cycle is reachable from source {source} "
                f"(distances still fell in round {n}); shortest paths are undefined"
            )
        rounds += 1
        # t = changed min.plus W
        t = _core.vxm(changed, W, semiring.min_plus)
        changed = _relax(d, t)
    return d, rounds


def auto_delta(W, G):
    """Bucket width: the mean weight times 32 / mean degree, at least the smallest positive
    weight (Meyer and Sanders: delta = Theta(1/degree) for uniform weights; coarser buckets
    suit a vectorized relaxation, which costs little per extra edge and much per round)."""
    if not W.nvals:
        return 1.0
    mean_w = float(_core.reduce_scalar(W.dup("float64"), monoid.plus)) / W.nvals
    mean_deg = W.nvals / max(G.n, 1)
    positive = _core.select(W, indexunary.valuegt, 0)
    floor = float(_core.reduce_scalar(positive, monoid.min)) if positive.nvals else 1.0
    return max(mean_w * 32.0 / max(mean_deg, 1.0), floor)


def delta_stepping(G, W, source, delta):
    n = G.n
    # the light/heavy split, once per graph and delta:
    # AL = select(W, w <= delta); AH = select(W, w > delta)
    AL, AH = G.cached(("sssp_split", float(delta)),
                      lambda: (_core.select(W, indexunary.valuele, delta), _core.select(W, indexunary.valuegt, delta)))
    d = Vector.from_coo([source], [0], size=n, dtype=W.dtype, device=W.device)
    settled = Vector(n, "bool", device=W.device)
    rounds = 0
    while True:
        # pending<!settled.S> = d   (reached, not yet settled)
        pending = _core.apply(d, unary.identity, mask=~settled.S)
        if not pending.nvals:
            break
        # the first non-empty bucket: [lo, hi) with hi = delta * (floor(min(pending) / delta) + 1)
        dmin = float(_core.reduce_scalar(pending, monoid.min))
        hi = delta * (np.floor(dmin / delta) + 1)
        if not hi > dmin:  # floating-point rounding put dmin at the top of the bucket below
            hi = dmin + delta
        # bucket = pending restricted to [lo, hi)
        bucket = _core.select(pending, indexunary.valuelt, hi)
        settled_here = Vector(n, "bool", device=W.device)
        while bucket.nvals:
            rounds += 1
            # settled_here<bucket.S> = true
            _core.assign(settled_here, True, None, mask=bucket.S)
            # t = bucket min.plus AL
            t = _core.vxm(bucket, AL, semiring.min_plus)
            changed = _relax(d, t)
            # bucket = changed restricted to [lo, hi)
            bucket = _core.select(changed, indexunary.valuelt, hi)
        # heavy edges, once from the whole bucket: t = d<settled_here.S> min.plus AH
        t = _core.vxm(_core.apply(d, unary.identity, mask=settled_here.S), AH, semiring.min_plus)
        _relax(d, t)
        # settled<settled_here.S> = true
        _core.assign(settled, True, None, mask=settled_here.S)
    return d, rounds


def _parents(G, W, d, source):
    """A shortest-path tree: BFS parents over the tight edges (d(u) + W(u, v) == d(v)).

    With zero-weight edges the tight edges can form cycles, so "any tight predecessor" is not
    a tree; a BFS from the source over them is (each parent is one hop nearer the source).
    """
    n = G.n
    idx, vals = d.to_coo()
    D = Matrix.from_coo(idx, idx, vals, nrows=n, ncols=n, dtype=d.dtype, device=d.device)
    # C = D min.plus W: C(u, v) = d(u) + W(u, v), for reached u
    C = _core.mxm(D, W, semiring.min_plus)
    # E = C lor.eq D: E(u, v) = (d(u) + W(u, v) == d(v))
    E = _core.mxm(C, D, semiring.Semiring(monoid.lor, binary.eq))
    # T = select(E, true): the tight edges
    T = _core.select(E, indexunary.valueeq, True)
    return bfs(T, source, parents=True, deterministic=True).parent


def _prepared(G):
    """(W, smallest weight), computed once per Graph (conversions and checks cost reductions)."""
    def build():
        W = _weights(G)
        return W, _min_weight(W)

    return G.cached("sssp", build)


def _algebra_only(method):
    return method != "delta_stepping", f"method {method!r} is an algebra method"


def _sssp_fused(G, W, source, delta):
    """Delta-stepping in one persistent kernel (semiring.backends.gpu.paths)."""
    import cupy as cp

    from ..backends.gpu import paths

    if W.dtype.kind in "iu":
        delta = max(1, int(np.ceil(delta)))
    dist, rounds, stats = paths.sssp(W, source, delta)
    reached = dist < (np.iinfo(np.int64).max if dist.dtype == np.int64 else np.inf)
    d = Vector._from_bitmap(W.dtype, reached, cp.where(reached, dist, 0).astype(W.dtype), int(reached.sum()))
    stats["launches"] += 4  # compare, where, astype, sum
    stats["host_syncs"] += 1
    return d, rounds, stats


def _check_delta(delta):
    if not (isinstance(delta, (int, float, np.integer, np.floating)) and delta > 0 and np.isfinite(delta)):
        raise InvalidValue(f"sssp: delta must be a positive finite number; given {delta!r}")


def _check_strategy(strategy, method, delta, engine, negative, wmin):
    """InvalidValue unless ``strategy`` is known and the other options fit it."""
    if strategy not in STRATEGIES:
        raise InvalidValue(f"sssp: strategy must be None or one of {STRATEGIES}; given {strategy!r}")
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
        if delta is not None:
            _check_delta(delta)
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


def _sssp_strategy(G, W, source, strategy, delta):
    """Run ``strategy`` (checked); returns (d, stats)."""
    floor = G.cached(("sssp_floor",), lambda: _floor(G, W))
    if W.device == "gpu":
        import cupy as cp

        from ..backends.gpu import sssp_strategies as gs

        rows = None
        if strategy == "topology":
            rows = G.cached("sssp_rows", lambda: gs.row_ids(W))  # the row of every entry, once per graph
        dist, stats = gs.run(strategy, W, source, floor=floor, delta=delta, rows=rows)
        reached = dist != (np.iinfo(np.int64).max if dist.dtype == np.int64 else np.inf)
        d = Vector._from_bitmap(W.dtype, reached, cp.where(reached, dist, 0).astype(W.dtype), int(reached.sum()))
        stats["launches"] += 4  # compare, where, astype, sum
        stats["host_syncs"] += 1
        return d, stats
    from ..backends.cpu import sssp_strategies as cs

    dist, stats = cs.run(strategy, W._indptr.astype(np.int64, copy=False), W._indices.astype(np.int64, copy=False),
                         W._values, source, floor=floor, delta=delta)
    idx = np.flatnonzero(dist != cs.unreached(dist.dtype))
    stats.update(launches=None, host_syncs=None)
    return Vector._from_parts(G.n, W.dtype, idx, dist[idx]), stats


def sssp(A, source, *, method="auto", delta=None, parents=False, engine="auto", strategy=None):
    """Shortest-path lengths from ``source`` along out-edges.

    Parameters
    ----------
    A : Matrix or Graph, shape (n, n)
        ``A[i, j]`` is the length of edge i -> j (any unit); explicit zeros are zero-length
        edges. A bool matrix means unit lengths.
    source : int
    method : {"auto", "bellman_ford", "delta_stepping"}
        "auto" picks delta-stepping for non-negative weights and Bellman-Ford otherwise.
    delta : float, optional
        Bucket width for delta-stepping (default :func:`auto_delta`).
    parents : bool, default False
        Also return a shortest-path predecessor for every reached vertex.
    engine : {"auto", "algebra", "fused"}
        "algebra" runs delta-stepping as masked products; "fused" runs the whole search as one
        persistent GPU kernel (near-far worklists, ``semiring.backends.gpu.paths``; GPU only,
        delta-stepping only); "auto" picks "fused" where it applies. Same distances either way.
    strategy : str, optional
        None (default): ``method`` and ``engine`` decide, as above. A name runs that GPU work
        organization as its own level-synchronous implementation instead (CuPy kernels for a
        GPU matrix, ``semiring.backends.gpu.sssp_strategies``; the same organization in NumPy
        for a CPU matrix, ``semiring.backends.cpu.sssp_strategies``); ``engine`` must then be
        "auto". Each round relaxes edges with atomicMin on the distance; a change in round n
        raises NegativeCycleError. Same distances as the other methods.

        - "topology": topology-driven Bellman-Ford; every round one thread per edge examines
          every edge and relaxes those whose tail is reached, until a round changes nothing.
        - "worklist_atomic": data-driven; only the out-edges of a worklist (the vertices
          improved in the last round) are relaxed, each improved target appended with a
          per-element global atomicAdd, duplicates allowed.
        - "worklist_filter": the same appends, then a filter pass in which the first claimant
          of each vertex (a per-vertex stamp array) survives and is compacted.
        - "worklist_hash": duplicates culled at append time by a small per-block hash table
          in shared memory (Gunrock's / Davidson et al.'s culling; imperfect, never wrong).
        - "worklist_scan": improved targets set a per-vertex flag; the next worklist is built
          by prefix-sum compaction (flags, ``cumsum``, scatter) without per-element atomics.
        - "near_far": Davidson et al.'s two-bucket worklist (near pile below a threshold,
          far pile above it, the threshold advanced by ``delta``); non-negative weights only,
          ``method`` "auto" or "delta_stepping".

    Returns
    -------
    SSSPResult
        ``distance`` (int64 for integer weights, float64 for float weights), ``parent``,
        ``method``, ``rounds``, ``delta``.

    Raises
    ------
    NegativeCycleError
        Bellman-Ford found a negative cycle reachable from the source.
    InvalidValue
        Negative weights with delta-stepping or near_far, NaN weights, a non-positive delta, an
        unknown method, engine or strategy, engine="fused" where it cannot run, a strategy with
        an engine other than "auto", a method or delta the strategy does not take.
    DomainMismatch
        Integer weights whose distances could overflow int64.
    IndexOutOfBound
        ``source`` is not a vertex.
    DimensionMismatch
        A is not square.

    Examples
    --------
    >>> import semiring as sr
    >>> A = sr.Matrix.from_coo([0, 0, 1], [1, 2, 2], [4.0, 9.0, 2.0], nrows=3, ncols=3)
    >>> sr.algorithms.sssp(A, 0).distance.to_dense().tolist()
    [0.0, 4.0, 6.0]
    """
    G = as_graph(A, "sssp")
    if method not in _METHODS:
        raise InvalidValue(f"sssp: method must be one of {_METHODS}; given {method!r}")
    source = check_source(source, G.n, "sssp")
    W, wmin = _prepared(G)
    negative = W.nvals > 0 and wmin < 0
    if strategy is not None:
        _check_strategy(strategy, method, delta, engine, negative, wmin)
        if strategy == "near_far":
            method = "delta_stepping"
            if delta is None:
                delta = G.cached("delta", lambda: auto_delta(W, G))
            delta = max(1, int(np.ceil(delta))) if W.dtype.kind == "i" else float(delta)
        else:
            method = "bellman_ford"
        d, stats = _sssp_strategy(G, W, source, strategy, delta)
        parent = _parents(G, W, d, source) if parents else None
        return SSSPResult(d, parent, method, stats["rounds"], delta, f"strategy:{strategy}", stats["launches"],
                          stats["host_syncs"], strategy, stats["edges_examined"], stats["worklist_entries"])
    if method == "auto":
        method = "bellman_ford" if negative else "delta_stepping"
    used = "fused" if use_fused(G, engine, "sssp", _algebra_only(method)) else "algebra"
    stats = {"launches": None, "host_syncs": None}
    if method == "delta_stepping":
        if negative:
            raise InvalidValue(f"sssp: delta-stepping needs non-negative weights; the smallest is {wmin} "
                               "(use method='bellman_ford')")
        if delta is None:
            delta = G.cached("delta", lambda: auto_delta(W, G))
        else:
            _check_delta(delta)
        if used == "fused":
            d, rounds, stats = _sssp_fused(G, W, source, delta)
        else:
            d, rounds = delta_stepping(G, W, source, float(delta))
    else:
        d, rounds = bellman_ford(G, W, source)
        delta = None
    parent = _parents(G, W, d, source) if parents else None
    return SSSPResult(d, parent, method, rounds, delta, used, stats["launches"], stats["host_syncs"])


__all__ = ["sssp", "SSSPResult", "bellman_ford", "delta_stepping", "auto_delta", "STRATEGIES"]
