"""Minimum spanning forest as ``min`` reductions: Borůvka with contraction, and Prim.

Both methods first give every undirected edge a distinct int64 *key*: its rank in the order
(weight, edge index), where the edge index of {i, j} is the pair (min(i, j), max(i, j)). Under
distinct keys the minimum spanning forest is unique, so ties are broken deterministically and
both methods return the same forest, which is a minimum spanning forest for the weights
(its total weight is the minimum; Kruskal run in the same order finds it too). The key is
LAGraph's packing of (weight, index) into one 64-bit word, generalised to any weight type by
ranking the weights once (one sort of the edges) instead of shifting integer weights.

- Borůvka (1926), as LAGraph's experimental ``LAGraph_msf`` computes it (Zhang, Azad, Davis):
  in each round every component picks its lightest outgoing edge by a ``min`` reduction over
  its row of the component graph, whose entries pack (edge key, neighbour component) into one
  key (``key * n + j``); each component hooks onto the component across its edge; the two
  components of a pair that chose the same edge keep the smaller as root (distinct keys leave
  no other cycle); pointer jumping (``p = p(p)``) flattens the hooks into stars; and the graph is
  contracted, ``S = offdiag(C min.second S min.first C')`` with ``C(p(u), u)`` present, so that
  parallel edges between two components keep their lightest key. Every round at least halves
  the number of components that still have an outgoing edge: O(log n) rounds.
- Prim (1957), as the parallel formulation in Grama et al., section 10.2: ``d(v)`` holds the
  key of the lightest edge between v and the tree; each step takes the vertex of smallest
  ``d`` by one ``min`` reduction over the cut, adds it, and lowers ``d`` with its row
  (``d<!tree> = min(d, K(v, :))``). One vertex per step (n steps, a new tree from the smallest
  free vertex when the cut is empty): for small graphs.

References
----------
O. Borůvka, "O jistém problému minimálním", Práce moravské přírodovědecké společnosti 3, 1926.
R. C. Prim, "Shortest connection networks and some generalizations", Bell System Technical
Journal 36(6), 1957. A. Grama, A. Gupta, G. Karypis, V. Kumar, "Introduction to Parallel
Computing", 2nd ed., Addison-Wesley 2003, section 10.2 (parallel Prim). Y. Zhang, A. Azad,
T. A. Davis, LAGraph ``experimental/algorithm/LAGraph_msf.c`` (Borůvka on GraphBLAS, weight and
index packed in one key). D. A. Bader, G. Cong, "Fast shared-memory algorithms for computing the
minimum spanning forest of sparse graphs", J. Parallel Distrib. Comput. 66, 2006 (Borůvka with
contraction in parallel).
"""

from __future__ import annotations

import numpy as np

from .. import core as _core
from ..core import _validate as _v
from ..core.matrix import Matrix
from ..core.vector import Vector
from ..exceptions import InvalidValue
from ..ops import BinaryOp, IndexUnaryOp, binary, indexunary, monoid, semiring, unary
from .graph import as_graph

METHODS = ("boruvka", "prim")

#: ``key * n + j``: an edge key and the neighbour across it in one int64 (thunk = n).
_PACK = IndexUnaryOp(lambda x, i, j, n: x * n + j, "pack_key_col", output="int64", cuda="x * thunk + j")
#: ``x mod y`` on non-negative integers (the neighbour out of a packed key).
_MOD = BinaryOp(lambda x, y: x % y, "mod", cuda="x % y")


def _check_nan(A, what):
    """InvalidValue if A has a NaN value."""
    vals = A.to_coo()[2]
    if vals.dtype.kind in "fc":
        nan = int(_v.xp_for(A.device).isnan(vals).sum())
        if nan:
            raise InvalidValue(f"{what}: edge weights must be numbers; given {nan} NaN entries")


def edge_keys(G, what, tiebreak=None):
    """The edges of an undirected Graph ranked by (weight, tie-break): a distinct key per edge.

    Returns ``(K, u, v, w)``: K is the symmetric int64 Matrix of keys (self-loops dropped), and
    ``u[k], v[k], w[k]`` (device arrays, u < v) are the endpoints and weight of the edge of key k.
    ``tiebreak`` (a Matrix with A's pattern) orders equal weights by its values instead of the
    edge index (min(i, j), max(i, j)).
    """
    u, v, w = ranked_edges(G, what, tiebreak)
    xp = _v.xp_for(G.A.device)
    rank = xp.arange(u.shape[0], dtype=np.int64)
    n = G.n
    K = Matrix.from_coo(xp.concatenate([u, v]), xp.concatenate([v, u]), xp.concatenate([rank, rank]),
                        nrows=n, ncols=n, dtype="int64", device=G.A.device)
    return K, u, v, w


def ranked_edges(G, what, tiebreak=None):
    """``(u, v, w)``: the ends (u < v) and weight of every edge, in key order (see :func:`edge_keys`)."""
    A = G.A
    xp = _v.xp_for(A.device)
    # U = triu(A, 1)   (each undirected edge once, i < j; self-loops are never in a forest)
    U = _core.select(A, indexunary.triu, 1)
    u, v, w = U.to_coo()  # row-major: sorted by the edge index (u, v)
    order = xp.arange(u.shape[0], dtype=np.int64)
    if tiebreak is not None:
        T = _core.select(tiebreak, indexunary.triu, 1)
        tu, tv, t = T.to_coo()
        if T.nvals != U.nvals or not bool(xp.all(tu == u)) or not bool(xp.all(tv == v)):
            raise InvalidValue(f"{what}: tiebreak must have the pattern of A; given {T.nvals} edges "
                               f"above the diagonal against A's {U.nvals}")
        order = _stable_argsort(xp, t)
    # -0.0 and 0.0 are one weight (NumPy and CuPy sorts disagree on their order otherwise)
    key_w = w + w.dtype.type(0) if w.dtype.kind == "f" else w
    order = order[_stable_argsort(xp, key_w[order])]
    return u[order], v[order], w[order]


def _stable_argsort(xp, a):
    return xp.argsort(a, kind="stable") if xp is np else xp.argsort(a)  # CuPy: a stable radix sort


def _ids(n, device):
    """int64 Vector with ids(i) = i at every position."""
    return Vector.from_dense(_v.xp_for(device).arange(n, dtype=np.int64), device=device)


def _star(p, device, transpose=False):
    """``C(p(u), u)`` present for every u (bool, n x n); with ``transpose``, ``C'(u, p(u))``."""
    xp = _v.xp_for(device)
    n = p.size
    r, c = p.to_dense(), xp.arange(n, dtype=np.int64)
    if transpose:
        r, c = c, r
    return Matrix.from_coo(r, c, None, nrows=n, ncols=n, dtype="bool", device=device)


def boruvka_rounds(K, device, trace=None):
    """Borůvka with contraction on the key Matrix K; returns the keys of the forest's edges.

    ``trace`` (a list) receives, per round, the number of entries of the component graph."""
    n = K.nrows
    xp = _v.xp_for(device)
    ids = _ids(n, device)
    S = K
    found = []
    while S.nvals:
        if trace is not None:
            trace.append(S.nvals)
        # P(c, j) = S(c, j) * n + j   (edge key and neighbour component in one key; keys are distinct)
        P = _core.apply(S, _PACK, thunk=n)
        # best(c) = min_j P(c, j)   (each component's lightest outgoing edge)
        best = _core.reduce_rowwise(P, monoid.min)
        # target = best mod n;  edge = best div n
        target = _core.apply(best, _MOD, right=n)
        edge = _core.apply(best, binary.div, right=n)
        # p = ids;  p<target.S> = target   (each component hooks onto the one across its edge)
        p = _core.assign(ids.dup(), target, mask=target.S)
        # mutual = (p(p) == ids) and (ids < p)   (c and p(c) chose the same edge: c stays a root)
        pp = _core.extract(p, p.to_dense())
        mutual = _core.ewise_mult(_core.ewise_mult(pp, ids, binary.eq), _core.ewise_mult(ids, p, binary.lt),
                                  binary.land)
        # p<mutual.V> = ids
        _core.assign(p, ids, mask=mutual.V)
        # joined<(p != ids).V> = edge   (one edge per hook; a mutual pair's edge once)
        joined = _core.apply(edge, unary.identity, mask=_core.ewise_mult(p, ids, binary.ne).V)
        found.append(joined.to_coo()[1])
        # pointer jumping: p = p(p) until p is a set of stars
        while True:
            pp = _core.extract(p, p.to_dense())
            if pp.isequal(p):
                break
            p = pp
        # contract: S = offdiag(C min.second S min.first C'), C(p(u), u) present
        T = _core.mxm(_star(p, device), S, semiring.min_second)
        S = _core.select(_core.mxm(T, _star(p, device, transpose=True), semiring.min_first), indexunary.offdiag)
    return xp.sort(xp.concatenate(found)) if found else xp.zeros(0, dtype=np.int64)


def prim_steps(K, device):
    """Prim on the key Matrix K, one vertex per step; returns the keys of the forest's edges."""
    n = K.nrows
    xp = _v.xp_for(device)
    ids = _ids(n, device)
    tree = Vector(n, "bool", device=device)
    d = Vector(n, "int64", device=device)  # d(v): key of the lightest edge between v and the tree
    found = []
    while tree.nvals < n:
        if d.nvals == 0:
            # v = min(ids<!tree.S>)   (the cut is empty: a new tree from the smallest free vertex)
            v = int(_core.reduce_scalar(_core.apply(ids, unary.identity, mask=~tree.S), monoid.min))
        else:
            # k = min(d)   (the lightest edge across the cut)
            k = _core.reduce_scalar(d, monoid.min)
            # v = the vertex with d(v) == k   (keys are distinct: exactly one)
            v = int(_core.select(d, indexunary.valueeq, k).to_coo()[0][0])
            found.append(int(k))
        # tree(v) = true
        _core.assign(tree, True, [v])
        # d<!tree.S> = min(d, K(v, :))   (the edges from v into the cut)
        d = _core.ewise_add(d, _core.extract(K, v, None), binary.min, mask=~tree.S)
    return xp.asarray(np.sort(np.asarray(found, dtype=np.int64)))


def minimum_spanning_forest(A, *, method="boruvka"):
    """A minimum spanning forest of an undirected weighted graph.

    Parameters
    ----------
    A : Matrix or Graph, shape (n, n)
        Symmetric: ``A[i, j] == A[j, i]`` is the weight of the undirected edge {i, j}. Any
        numeric dtype (bool, integers, floats); explicit zeros and negative weights are edges;
        self-loops are ignored (they never belong to a forest).
    method : {"boruvka", "prim"}
        "boruvka": O(log n) rounds of min-reductions and contraction (the default; any size).
        "prim": one vertex per step (n steps of a few engine calls each; small graphs).

    Returns
    -------
    Matrix, shape (n, n), A's dtype
        The forest's edges, both ways (symmetric), with their weights: ``2 * (n - c)`` entries
        for a graph with c connected components. Equal weights are ordered by edge index
        (min(i, j), max(i, j)), so the forest is determined by A and both methods return it.

    Raises
    ------
    InvalidValue
        A is not a Matrix or Graph, is not symmetric (or is a Graph of kind "directed"), has a
        NaN weight, or ``method`` is unknown.
    DimensionMismatch
        A is not square.

    Notes
    -----
    On the CPU, Borůvka's rounds each cost a reduction, a few vector operations over the
    components, the pointer-jumping extracts and two ``min`` products over the shrinking
    component graph, and Prim's steps a reduction and an extract each.

    On the GPU both methods run Borůvka on the device as ECL-MST does (union-find components
    over the original vertices, the lightest edge of each component by ``atomicMin`` on its
    weight and then on its entry's position, one host read per round, the forest cut out of A's
    own entries; :mod:`semiring.backends.gpu.forest`). Under distinct keys the forest is
    unique, so this is exactly the forest Prim's steps would grow, in O(log n) rounds instead
    of n steps.

    References
    ----------
    Borůvka 1926; Prim 1957; Grama et al., "Introduction to Parallel Computing", 2003, 10.2;
    LAGraph ``LAGraph_msf`` (Zhang, Azad, Davis); Fallin, Gonzalez, Seo, Burtscher, "A
    high-performance MST implementation for GPUs", SC 2023 (ECL-MST).

    Examples
    --------
    >>> import semiring as sr
    >>> A = sr.Matrix.from_coo([0, 1, 1, 2, 0, 2], [1, 0, 2, 1, 2, 0], [1.0, 1.0, 2.0, 2.0, 5.0, 5.0],
    ...                        nrows=3, ncols=3)
    >>> F = sr.algorithms.minimum_spanning_forest(A)
    >>> [x.tolist() for x in F.to_coo()]
    [[0, 1, 1, 2], [1, 0, 2, 1], [1.0, 1.0, 2.0, 2.0]]
    """
    what = "minimum_spanning_forest"
    G = as_graph(A, what)
    if method not in METHODS:
        raise InvalidValue(f"{what}: method must be one of {METHODS}; given {method!r}")
    if G.A.device == "gpu":
        G.cached("msf_weights_checked", lambda: _check_nan(G.A, what) or True)  # one read per Graph
        _check_symmetric(G, what)
        from ..backends.gpu import forest

        # Borůvka on the device for both methods: distinct keys make the forest unique
        return forest.spanning_forest(G.A)[0]
    return _forest(G, method, what)[0]


def _check_symmetric(G, what):
    if G.kind != "undirected":
        raise InvalidValue(f"{what}: A must be symmetric (an undirected graph); given a matrix that "
                           "differs from its transpose (or a Graph of kind 'directed')")


def _forest(G, method, what, tiebreak=None):
    """The forest Matrix (and the endpoints u < v of its edges in key order)."""
    _check_nan(G.A, what)
    _check_symmetric(G, what)
    device = G.A.device
    xp = _v.xp_for(device)
    if device == "gpu":
        from ..backends.gpu import forest

        eu, ev, ew = ranked_edges(G, what, tiebreak)
        keys = forest.boruvka(G.n, eu, ev)[0]
    else:
        K, eu, ev, ew = edge_keys(G, what, tiebreak)
        keys = boruvka_rounds(K, device) if method == "boruvka" else prim_steps(K, device)
    u, v, w = eu[keys], ev[keys], ew[keys]
    n = G.n
    F = Matrix.from_coo(xp.concatenate([u, v]), xp.concatenate([v, u]), xp.concatenate([w, w]),
                        nrows=n, ncols=n, dtype=G.A.dtype, device=device)
    return F, u, v


def forest_edges(G, method="boruvka", *, tiebreak=None, what="minimum_spanning_forest"):
    """For adapters: the forest's edges as (u, v) device arrays, u < v, in key order (weight,
    then tie-break), and the forest Matrix. See :func:`minimum_spanning_forest`."""
    if method not in METHODS:
        raise InvalidValue(f"{what}: method must be one of {METHODS}; given {method!r}")
    F, u, v = _forest(as_graph(G, what), method, what, tiebreak)
    return u, v, F


__all__ = ["minimum_spanning_forest", "METHODS"]
