"""Single-source shortest paths as ``min_plus`` products.

- Bellman-Ford, data-driven: only vertices whose distance changed in the last round relax
  their out-edges (``t = changed min.plus A``), as a worklist Bellman-Ford does. A path without
  a negative cycle has at most n-1 edges, so a change in round n proves a negative cycle.
- Delta-stepping: tentative distances are kept in buckets of width delta; a bucket is settled
  by repeated relaxation of its light edges (weight <= delta), then its heavy edges are
  relaxed once.

References
----------
Bellman, "On a routing problem", Quarterly of Applied Mathematics 16, 1958; Ford, "Network
flow theory", RAND P-923, 1956.
Meyer, Sanders, "Delta-stepping: a parallelizable shortest path algorithm", J. Algorithms 49, 2003.
Sridhar et al., "Delta-stepping SSSP: from vertices and edges to GraphBLAS implementations",
GrAPL 2019 (the algebraic formulation; LAGraph ``LAGr_SingleSourceShortestPath``).
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
        "algebra" or "fused" (one persistent GPU kernel; ``rounds`` then counts its
        relaxation rounds, each one grid barrier).
    launches, host_syncs : int or None
        Kernel launches and host synchronizations of a fused run (None for the algebra engine).
    """

    distance: Vector
    parent: Vector | None
    method: str
    rounds: int
    delta: float | None = None
    engine: str = "algebra"
    launches: int | None = None
    host_syncs: int | None = None


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
    key = ("sssp_split", float(delta))
    if key not in G.cache:  # the light/heavy split, once per graph and delta
        # AL = select(W, w <= delta); AH = select(W, w > delta)
        G.cache[key] = (_core.select(W, indexunary.valuele, delta), _core.select(W, indexunary.valuegt, delta))
    AL, AH = G.cache[key]
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
    if "sssp" not in G.cache:
        W = _weights(G)
        G.cache["sssp"] = (W, _min_weight(W))
    return G.cache["sssp"]


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


def sssp(A, source, *, method="auto", delta=None, parents=False, engine="auto"):
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
        Negative weights with delta-stepping, NaN weights, a non-positive delta, an unknown
        method or engine, engine="fused" where it cannot run.
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
    if method == "auto":
        method = "bellman_ford" if negative else "delta_stepping"
    used = "fused" if use_fused(G, engine, "sssp", _algebra_only(method)) else "algebra"
    stats = {"launches": None, "host_syncs": None}
    if method == "delta_stepping":
        if negative:
            raise InvalidValue(f"sssp: delta-stepping needs non-negative weights; the smallest is {wmin} "
                               "(use method='bellman_ford')")
        if delta is None:
            if "delta" not in G.cache:
                G.cache["delta"] = auto_delta(W, G)
            delta = G.cache["delta"]
        elif not (isinstance(delta, (int, float, np.integer, np.floating)) and delta > 0 and np.isfinite(delta)):
            raise InvalidValue(f"sssp: delta must be a positive finite number; given {delta!r}")
        if used == "fused":
            d, rounds, stats = _sssp_fused(G, W, source, delta)
        else:
            d, rounds = delta_stepping(G, W, source, float(delta))
    else:
        d, rounds = bellman_ford(G, W, source)
        delta = None
    parent = _parents(G, W, d, source) if parents else None
    return SSSPResult(d, parent, method, rounds, delta, used, stats["launches"], stats["host_syncs"])


__all__ = ["sssp", "SSSPResult", "bellman_ford", "delta_stepping", "auto_delta"]
