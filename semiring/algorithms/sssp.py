"""Single-source shortest paths as ``min_plus`` products.

- Bellman-Ford, data-driven: only vertices whose distance changed in the last round relax
  their out-edges (``t = changed min.plus A``), as a worklist Bellman-Ford does. A path without
  a negative cycle has at most n-1 edges, so a change in round n proves a negative cycle.
- Delta-stepping: tentative distances are kept in buckets of width delta; a bucket is settled
  by repeated relaxation of its light edges (weight <= delta), then its heavy edges are
  relaxed once.
- Whole-search engines (``engine="fused"``, picked by "auto" where they run): on the GPU one
  persistent near-far kernel (``semiring.backends.gpu.paths``), on the CPU
  ``semiring.backends.cpu.paths`` (delta-stepping with compact buckets, worklist Bellman-Ford),
  or the same searches as compiled loops (``semiring.backends.cpu.compiled_paths``) where the
  SuiteSparse backend and numba are in use.
- Weights of +inf: the search runs on the finite edges, then one reachability pass gives +inf
  to every vertex the whole graph reaches and the search did not (in min.plus such a vertex
  has the entry +inf; an unreached vertex has none). The bucket width is raised where it could
  not advance past the distances (:func:`bucket_width`), so no input makes a loop spin.
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

from .. import _checks
from .. import core as _core
from ..core.matrix import Matrix
from ..core.vector import Vector
from ..exceptions import InvalidValue, NegativeCycleError
from ..ops import binary, indexunary, monoid, semiring, unary
from . import _sssp_engines as _engines
from . import engines as _choice
from .bfs import bfs
from .graph import as_graph, on_graph_backend

_METHODS = ("auto", "bellman_ford", "delta_stepping")
#: Names accepted by ``sssp(strategy=...)``: Bellman-Ford work organizations, then near-far.
STRATEGIES = _choice.SSSP_STRATEGIES
_FMAX = float(np.finfo(np.float64).max)


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


def _relax(d, t):
    """d<changed> = t where t improves d (or d is absent); returns ``changed``. A candidate of
    +inf (a float sum that overflowed) is no path here; the caller's reachability pass gives
    such vertices +inf."""
    if t.dtype.kind == "f":
        # t = select(t, t < inf)
        t = _core.select(t, indexunary.valuelt, np.inf)
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
    """Data-driven Bellman-Ford as masked ``min.plus`` products (the algebra engine).

    Round k relaxes the out-edges of the vertices whose distance changed in round k - 1
    (``t = changed min.plus W``), as a worklist Bellman-Ford does; the search ends when a round
    changes nothing. A shortest path without a negative cycle has at most n - 1 edges, so a
    change in round n proves a negative cycle reachable from the source.

    Parameters
    ----------
    G : Graph, n vertices
        The graph (its vertex count is read).
    W : Matrix, shape (n, n), int64 or float64
        ``W[u, v]`` is the length of edge u -> v; negative lengths allowed, no NaN, -inf or
        +inf (:func:`sssp` passes the finite weights ``G.sssp_weights.Wf``).
    source : int
        0 <= source < n (checked by the caller).

    Returns
    -------
    d : Vector, size n, dtype of W
        Shortest-path length from the source; unreached vertices are absent.
    rounds : int
        Relaxation rounds run.

    Raises
    ------
    NegativeCycleError
        A negative-weight cycle is reachable from the source.

    References
    ----------
    R. Bellman, "On a routing problem", Quarterly of Applied Mathematics 16(1), 1958.
    L. R. Ford, "Network flow theory", RAND Corporation P-923, 1956.
    """
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
    """The default bucket width of delta-stepping.

    The mean weight times 32 / mean degree (Meyer and Sanders: delta = Theta(1 / degree) for
    uniform weights; coarser buckets suit a vectorized relaxation, which costs little per extra
    edge and much per round), at least the smallest positive weight, at most the largest
    float64 (a sum of huge weights may overflow).

    Parameters
    ----------
    W : Matrix, shape (n, n), int64 or float64
        Finite, non-negative edge lengths.
    G : Graph, n vertices
        The graph (its vertex count gives the mean degree).

    Returns
    -------
    float
        A positive finite width; 1.0 for a graph without edges.

    References
    ----------
    U. Meyer, P. Sanders, "Delta-stepping: a parallelizable shortest path algorithm",
    Journal of Algorithms 49(1), 2003, section 3.
    """
    if not W.nvals:
        return 1.0
    with np.errstate(over="ignore"):
        mean_w = float(_core.reduce_scalar(W.dup("float64"), monoid.plus)) / W.nvals
    mean_deg = W.nvals / max(G.n, 1)
    positive = _core.select(W, indexunary.valuegt, 0)
    floor = float(_core.reduce_scalar(positive, monoid.min)) if positive.nvals else 1.0
    return min(max(mean_w * 32.0 / max(mean_deg, 1.0), floor), _FMAX)


def delta_stepping(G, W, source, delta):
    """Delta-stepping as masked ``min.plus`` products (the algebra engine).

    Tentative distances are kept in buckets of width ``delta``. The first non-empty bucket is
    settled by relaxing the light edges (w <= delta) of its vertices until it stops changing,
    then the heavy edges (w > delta) of every vertex it settled are relaxed once. The pending
    set (reached, not settled) is kept as its own vector, so a bucket costs work in the
    vertices it touches, not in all reached vertices.

    Parameters
    ----------
    G : Graph, n vertices
        The graph. When ``W`` is its finite SSSP weights (``G.sssp_weights.Wf``, what
        :func:`sssp` passes), the light/heavy split is kept on G per delta
        (:meth:`Graph.sssp_split`); for another W it is built for this call.
    W : Matrix, shape (n, n), int64 or float64
        ``W[u, v]`` >= 0 is the length of edge u -> v (finite).
    source : int
        0 <= source < n (checked by the caller).
    delta : int or float
        Bucket width, > 0: an int for int64 weights (exact bucket bounds), a float for float64.

    Returns
    -------
    d : Vector, size n, dtype of W
        Shortest-path length from the source; unreached vertices are absent.
    rounds : int
        Light-edge relaxation rounds run.

    References
    ----------
    U. Meyer, P. Sanders, "Delta-stepping: a parallelizable shortest path algorithm",
    Journal of Algorithms 49(1), 2003.
    U. Sridhar et al., "Delta-stepping SSSP: from vertices and edges to GraphBLAS
    implementations", GrAPL 2019 (the algebraic formulation).
    """
    n = G.n
    prepared = G.derived().get("sssp_weights")
    if prepared is not None and W is prepared.Wf:
        AL, AH = G.sssp_split(delta)  # once per graph and delta
    else:
        # AL = select(W, w <= delta); AH = select(W, w > delta)
        AL, AH = _core.select(W, indexunary.valuele, delta), _core.select(W, indexunary.valuegt, delta)
    d = Vector.from_coo([source], [0], size=n, dtype=W.dtype, device=W.device)
    pending = d.dup()
    rounds = 0
    while pending.nvals:
        # the first non-empty bucket: [lo, hi) with hi = delta * (floor(min(pending) / delta) + 1)
        dmin = _core.reduce_scalar(pending, monoid.min)
        hi = _bucket_top(dmin, delta)
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
            # pending<changed.S> = changed
            _core.assign(pending, changed, None, mask=changed.S)
            # bucket = changed restricted to [lo, hi)
            bucket = _core.select(changed, indexunary.valuelt, hi)
        # heavy edges, once from the whole bucket: t = d<settled_here.S> min.plus AH
        t = _core.vxm(_core.apply(d, unary.identity, mask=settled_here.S), AH, semiring.min_plus)
        changed = _relax(d, t)
        # pending<!settled_here.S, replace> = pending; pending<changed.S> = changed
        pending = _core.apply(pending, unary.identity, mask=~settled_here.S)
        _core.assign(pending, changed, None, mask=changed.S)
    return d, rounds


def _bucket_top(dmin, delta):
    """The upper end of the bucket holding ``dmin``: delta * (floor(dmin / delta) + 1), exact for
    integers, and for floats raised where rounding left it at or below dmin."""
    if isinstance(delta, int):
        return (int(dmin) // delta + 1) * delta
    dmin = float(dmin)
    hi = delta * (np.floor(dmin / delta) + 1)
    if not hi > dmin:  # rounding put dmin at the top of the bucket below
        hi = dmin + delta
    if not hi > dmin:  # delta is below the spacing of the floats at dmin
        hi = float(np.nextafter(dmin, np.inf))
    return hi


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


def _check_options(method, delta, parents, engine, strategy):
    """InvalidValue for any option of :func:`sssp` outside its domain, used or not."""
    if not isinstance(method, str) or method not in _METHODS:
        raise InvalidValue(f"sssp: method must be one of {_METHODS}; given {method!r}")
    if delta is not None:
        _check_delta(delta)
    _checks.flag(parents, "sssp", "parents")
    _choice.check_names("sssp", engine, strategy)


def _check_delta(delta):
    if not _checks.is_real(delta, finite=True) or not delta > 0:
        raise InvalidValue(f"sssp: delta must be a positive finite number; given {delta!r}")


def bucket_width(delta, info, n):
    """The delta a bucketed search reports and runs with.

    Float weights take at least 2**-50 times the largest possible distance, so that a bucket
    bound plus delta always moves past it and a distance / delta stays below 2**50 (a tiny
    delta with large weights would otherwise make buckets that never advance, or 10**12 of
    them); integer weights keep ``delta`` (the searches bucket them by :func:`integer_width`).

    Parameters
    ----------
    delta : int or float
        The requested width, > 0.
    info : semiring.algorithms._sssp_weights.SSSPWeights
        The graph's weights (``info.W.dtype`` and ``info.top`` are read).
    n : int
        Number of vertices.

    Returns
    -------
    int or float
        ``delta`` for integer weights; for floats a float >= delta.
    """
    if info.W.dtype.kind == "i":
        return delta
    return max(float(delta), min(info.top * max(n - 1, 1), _FMAX) * 2.0**-50)


def integer_width(delta, info, n):
    """The bucket width of integer weights: ceil(delta), at least 1, and small enough that a
    distance plus it (a bucket bound) fits int64.

    Parameters
    ----------
    delta : int or float
        The width of :func:`bucket_width`, > 0.
    info : semiring.algorithms._sssp_weights.SSSPWeights
        The graph's weights (``info.top``, the largest absolute weight, is read).
    n : int
        Number of vertices.

    Returns
    -------
    int
        The integer width, >= 1.
    """
    bound = info.top * max(n - 1, 1)
    return max(1, min(int(np.ceil(delta)), 2**63 - 1 - bound))


def _fill_unbounded(G, d, source):
    """d<reached & !d.S> = +inf: vertices the full graph reaches that the finite-weight search
    did not (through +inf edges, or float sums that overflowed) are at distance +inf."""
    reach = bfs(G, source).level
    # extra<!d.S> = reach
    extra = _core.apply(reach, unary.identity, mask=~d.S)
    if extra.nvals:
        # d<extra.S> = inf
        _core.assign(d, np.inf, None, mask=extra.S)
    return d


@on_graph_backend
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
        Bucket width for delta-stepping and near_far (default :func:`auto_delta`): a positive
        finite real, checked even where the method does not use it. Integer weights round it
        up to an integer; a width too small to advance past the largest distance (below
        2**-50 of it for floats) is raised to the smallest that does (``delta`` of the result).
    parents : bool, default False
        Also return a shortest-path predecessor for every reached vertex.
    engine : {"auto", "algebra", "fused"}
        "algebra" runs the method as masked products. "fused" runs the whole search in one
        backend call: on the GPU one persistent kernel (near-far worklists,
        ``semiring.backends.gpu.paths``; delta-stepping only), on the CPU
        ``semiring.backends.cpu.paths`` (delta-stepping with compact buckets, or a worklist
        Bellman-Ford; small rounds as scalar loops, large ones vectorized; compiled loops,
        ``semiring.backends.cpu.compiled_paths``, where the SuiteSparse backend and numba are
        in use). "auto" picks "fused" where it applies (on the CPU for graphs of average degree
        up to ``engines.CPU_FUSED_MAX_DEGREE``, or ``SUITESPARSE_FUSED_MAX_DEGREE`` for a graph
        stored by SuiteSparse). Same distances either way.
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
        ``method``, ``rounds``, ``delta``. A vertex reached only through edges of weight +inf
        has distance +inf (min.plus: an entry, unlike an unreached vertex, which is absent).

    Raises
    ------
    NegativeCycleError
        Bellman-Ford found a negative cycle reachable from the source.
    InvalidValue
        Negative weights with delta-stepping or near_far, NaN or -inf weights, a delta that is
        not a positive finite real, parents not a bool, an unknown method, engine or strategy
        (each option checked whether or not the chosen method uses it), engine="fused" where it
        cannot run, a strategy with an engine other than "auto", a method or delta the
        strategy does not take.
    OutOfMemory
        The per-vertex arrays of the search do not fit in memory.
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
    >>> B = sr.Matrix.from_coo([0, 1], [1, 2], [1.0, float("inf")], nrows=4, ncols=4)
    >>> sr.algorithms.sssp(B, 0).distance.to_dense(-1.0).tolist()
    [0.0, 1.0, inf, -1.0]
    """
    G = as_graph(A, "sssp")
    _check_options(method, delta, parents, engine, strategy)
    source = _checks.vertex(source, G.n, "sssp")
    info = G.sssp_weights
    W, negative = info.Wf, info.negative
    if strategy is None and method == "auto":
        method = "bellman_ford" if negative else "delta_stepping"
    choice = _choice.select("sssp", engine, strategy, W.device, G.n, G.nedges, method=method, delta=delta)
    if strategy is not None:
        if strategy == "near_far":
            if negative:
                raise InvalidValue(f"sssp: strategy='near_far' needs non-negative weights; the smallest is "
                                   f"{info.wmin} (use a Bellman-Ford strategy such as 'worklist_atomic')")
            method = "delta_stepping"
            delta = bucket_width(G.sssp_delta if delta is None else delta, info, G.n)
            if W.dtype.kind == "i":
                delta = integer_width(delta, info, G.n)
        else:
            method = "bellman_ford"
        d, r = _engines.strategy(G, W, source, strategy, delta)
        result = SSSPResult(d, None, method, r.rounds, delta, choice.engine, r.launches, r.host_syncs, strategy,
                            r.edges_examined, r.worklist_entries)
    else:
        gpu = W.device == "gpu"
        fused = choice.name == "fused"
        if method == "delta_stepping":
            if negative:
                raise InvalidValue(f"sssp: delta-stepping needs non-negative weights; the smallest is {info.wmin} "
                                   "(use method='bellman_ford')")
            delta = bucket_width(G.sssp_delta if delta is None else delta, info, G.n)
            width = integer_width(delta, info, G.n) if W.dtype.kind == "i" else delta
            if fused:
                d, r = (_engines.fused_gpu(W, source, width) if gpu
                        else _engines.cpu_delta_stepping(G, W, source, width, info.top))
                rounds, launches, syncs = r.rounds, r.launches, r.host_syncs
            else:
                d, rounds = delta_stepping(G, W, source, width)
                launches = syncs = None
        else:
            delta = None
            launches = syncs = None
            if fused:
                d, r = _engines.cpu_bellman_ford(G, W, source, info)
                rounds = r.rounds
            else:
                d, rounds = bellman_ford(G, W, source)
        result = SSSPResult(d, None, method, rounds, delta, choice.engine, launches, syncs)
    if info.unbounded:
        _fill_unbounded(G, result.distance, source)
    if parents:
        result.parent = _parents(G, info.W, result.distance, source)
    return result


__all__ = ["sssp", "SSSPResult", "bellman_ford", "delta_stepping", "auto_delta", "bucket_width", "integer_width",
           "STRATEGIES"]
