"""Minimum spanning forest as ``min`` reductions: Borůvka and Prim.

Both methods order the undirected edges by (weight, edge index), where the edge index of {i, j}
is the pair (min(i, j), max(i, j)), and give every edge a distinct int64 *key* in that order.
Under distinct keys the minimum spanning forest is unique, so ties are broken deterministically
and both methods return the same forest, which is a minimum spanning forest for the weights
(its total weight is the minimum; Kruskal run in the same order finds it too). The key is
LAGraph's packing of (weight, index) into one 64-bit word. Borůvka packs
``r * n^2 + min(i, j) * n + max(i, j)``, r the rank of the weight among the distinct weights
(``w - min(w)`` for integers and bool), with one ``apply`` over A's own entries (no sort of the
edges) and reads the edge's ends back off its key (:class:`PackedKeys`). Where that word would
pass 2^63 (or with a tie-break, and for Prim), the key is the edge's rank in one sort of the
edges and its ends are looked up (:func:`edge_keys`).

- Borůvka (1926), as LAGraph's experimental ``LAGraph_msf`` computes it (Zhang, Azad, Davis):
  on the original vertices, with ``f(u)`` the root of u's component. Each round, every vertex
  finds its lightest edge to another component by a ``min`` reduction of its row of S, every
  component the lightest of its vertices' edges by a ``min.first`` product with the star
  matrix ``Cf(u, f(u))`` (LAGraph's ``Reduce_assign``), and hooks onto the component across
  that edge, read off the key's ends; of two components that chose the same edge the smaller
  stays the root (distinct keys leave no other cycle). Pointer jumping over the hooked roots
  turns the hooks into stars, ``f = p(f)`` moves every vertex under its new root, and
  ``S = select(S, f(i) != f(j))`` drops the edges now inside a component (LAGraph's select
  function ``f2``): the graph shrinks by filtering its entries in place rather than by
  relabelling and merging them (Bader and Cong's compact-graph step), so a round costs
  O(nnz(S) + n) with no sort of the edges. Every round at least halves the number of
  components that still have an outgoing edge: O(log n) rounds.
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
minimum spanning forest of sparse graphs", J. Parallel Distrib. Comput. 66, 2006 (Borůvka's
find-min, connect-components and compact-graph steps in parallel).
"""

from __future__ import annotations

import numpy as np

from .. import core as _core
from ..core import _validate as _v
from ..core.matrix import Matrix
from ..core.vector import Vector
from ..exceptions import InvalidValue
from ..ops import IndexUnaryOp, binary, indexunary, monoid, semiring, unary
from .graph import as_graph, on_graph_backend

METHODS = ("boruvka", "prim")


def _check_nan(G, what):
    """InvalidValue if the graph's matrix has a NaN value (counted once per graph: :attr:`Graph.nan_count`)."""
    nan = G.nan_count
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


class PackedKeys:
    """The keys ``r * n^2 + min(i, j) * n + max(i, j)`` of A's edges, on A's own pattern.

    ``r`` is the rank of the edge's weight among the distinct weights (``w - min(w)`` for
    integers and bool, no sort; for floats, the position among A's distinct values, one sort
    of them), so the keys order the edges by (weight, min(i, j), max(i, j)) and are distinct,
    and each decodes to its edge's ends and weight. A self-loop's key is :data:`LOOP`, above
    every edge's.

    Attributes
    ----------
    K : Matrix, shape (n, n), int64
        ``K(i, j)`` the key of edge {i, j}, both ways, on A's pattern (``K(i, i) = LOOP``).
    """

    def __init__(self, K, n, weights):
        self.K, self._n, self._weights = K, n, weights

    @classmethod
    def of(cls, G):
        """The packed keys of Graph G (CPU), or None where a key would pass 2^63 - 1 or A has a
        -0.0 weight (whose sign the decoded weight would lose). The weights counted are those of
        all of A's entries, self-loops included."""
        A, n = G.A, G.n
        if A.nvals == 0:
            return cls(Matrix(n, n, "int64"), n, lambda r: np.zeros(0, A.dtype))
        dt = np.dtype(A.dtype)
        if dt.kind in "biu":
            # lo = min(A), hi = max(A)   (the weights' range: its ranks need no sort)
            lo = int(_core.reduce_scalar(A, monoid.min))
            hi = int(_core.reduce_scalar(A, monoid.max))
            if (hi - lo + 1) * n * n > _KEYS:
                return None
            base = dt.type(lo)

            def rank(x):
                return (x - base).astype(np.int64) if dt.kind == "u" else x.astype(np.int64) - lo

            def weights(r):
                return (r + lo).astype(dt) if dt.kind != "u" else r.astype(dt) + base
        else:
            vals = A.to_scipy().data
            if bool((np.signbit(vals) & (vals == 0)).any()):
                return None
            distinct = np.unique(vals)
            if distinct.size * n * n > _KEYS:
                return None

            def rank(x):
                return np.searchsorted(distinct, x)

            def weights(r):
                return distinct[r]

        nn = n * n

        def key(x, i, j, _):
            return np.where(i == j, LOOP, rank(x) * nn + np.minimum(i, j) * n + np.maximum(i, j))

        # K(i, j) = rank(A(i, j)) * n^2 + min(i, j) * n + max(i, j);  K(i, i) = LOOP
        return cls(_core.apply(A, IndexUnaryOp(key, "msf_key", output="int64")), n, weights)

    def ends(self, keys):
        """(lo, hi) host int64 arrays, lo < hi: the ends of the edges of these keys."""
        n = self._n
        return (keys // n) % n, keys % n

    def weights(self, keys):
        """The weights (A's dtype) of the edges of these keys."""
        return self._weights(keys // (self._n * self._n))


#: The number of non-negative int64 keys: a packing of D weights needs D * n^2 of them.
_KEYS = 2**63
#: A self-loop's packed key: above the largest edge key, D * n^2 - n - 1 (the edge {n - 2, n - 1}
#: of the heaviest weight), so no vertex takes it while it has an edge.
LOOP = 2**63 - 1


class RankedKeys:
    """The keys of :func:`edge_keys`: the edges' ranks in one sort (any weights, a tie-break)."""

    def __init__(self, G, what, tiebreak=None):
        self.K, self._u, self._v, self._w = edge_keys(G, what, tiebreak)

    def ends(self, keys):
        return self._u[keys], self._v[keys]

    def weights(self, keys):
        return self._w[keys]


def boruvka_rounds(keys, trace=None):
    """Borůvka on the original vertices, LAGraph-style, on a key Matrix (CPU); returns the keys of
    the forest's edges, increasing.

    ``keys`` is a :class:`PackedKeys` or :class:`RankedKeys`: ``keys.K`` the symmetric key
    Matrix (distinct keys; :data:`LOOP` on the diagonal, if anything) and ``keys.ends`` the
    decoder of a key's ends.
    ``trace`` (a list) receives, per round, the number of entries of S (the edges between
    components, both ways)."""
    S = keys.K
    n = S.nrows
    f = np.arange(n, dtype=np.int64)  # f(u): the root of u's component (LAGraph's parent)
    p = np.arange(n, dtype=np.int64)  # p(c): where root c hooks (c itself between rounds)
    found = []
    while S.nvals:
        if trace is not None:
            trace.append(S.nvals)
        # e(u) = min_j S(u, j)   (u's lightest edge to another component)
        e = _core.reduce_rowwise(S, monoid.min)
        if found:
            u = e.to_coo()[0]
            # Cf(u, f(u)) = true   (the vertices with such an edge, under their components)
            Cf = Matrix.from_coo(u, f[u], None, nrows=n, ncols=n, dtype="bool")
            # ce(c) = min_u e(u) Cf(u, c) = min { e(u) : f(u) = c }   (min.first: each component's
            # lightest outgoing edge; LAGraph's Reduce_assign)
            ce = _core.vxm(e, Cf, semiring.min_first, direction="push")
            c, k = ce.to_coo()
        else:
            # the first round: every vertex is its own component (f = identity); a self-loop,
            # the lightest entry only of a vertex with no edge, goes (the select below drops them)
            u, k = e.to_coo()
            edge = k != LOOP
            c, k = u[edge], k[edge]
        lo, hi = keys.ends(k)
        # t(c) = f(lo) + f(hi) - c   (the component across c's edge: one of its ends lies in c)
        t = f[lo] + f[hi] - c
        # hook: p(c) = t(c); a pair that chose the same edge (p(t(c)) == c) keeps the smaller root
        p[c] = t
        stays = (p[t] == c) & (c < t)
        p[c[stays]] = c[stays]
        found.append(k[~stays])  # one edge per hook; a pair's edge once
        # pointer jumping over the hooked roots: p(c) = p(p(c)) until p is a set of stars
        pc = p[c]
        while True:
            ppc = p[pc]
            if np.array_equal(ppc, pc):
                break
            p[c] = pc = ppc
        # f(u) = p(f(u))   (the vertices with an edge, under their new roots; the others have
        # none left, in S now or later, and are never read again)
        f[u] = p[f[u]]
        p[c] = c
        # S = select(S, f(i) != f(j))   (drop the edges inside a component; LAGraph's f2)
        S = _core.select(S, IndexUnaryOp(lambda x, i, j, _, f=f: f[i] != f[j], "msf_between", output="bool"))
    return np.sort(np.concatenate(found)) if found else np.zeros(0, dtype=np.int64)


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


@on_graph_backend
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
    On the CPU, Borůvka's rounds each cost a ``min`` reduction of the rows of the edges left
    between components, a ``min`` product over the vertices that have such an edge, O(n)
    work on the components (hooking and pointer jumping) and a ``select`` that drops the
    edges a round joined; nothing is sorted after the keys are packed. Prim's steps cost a
    reduction and an extract each.

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
        _check_nan(G, what)
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
    _check_nan(G, what)
    _check_symmetric(G, what)
    device = G.A.device
    xp = _v.xp_for(device)
    n = G.n
    if device == "gpu":
        from ..backends.gpu import forest

        eu, ev, ew = ranked_edges(G, what, tiebreak)
        found = forest.boruvka(n, eu, ev)[0]
        u, v, w = eu[found], ev[found], ew[found]
    elif method == "boruvka":
        keys = (PackedKeys.of(G) if tiebreak is None else None) or RankedKeys(G, what, tiebreak)
        found = boruvka_rounds(keys)
        (u, v), w = keys.ends(found), keys.weights(found)
    else:
        K, eu, ev, ew = edge_keys(G, what, tiebreak)
        found = prim_steps(K, device)
        u, v, w = eu[found], ev[found], ew[found]
    r, c, x = xp.concatenate([u, v]), xp.concatenate([v, u]), xp.concatenate([w, w])
    if device == "cpu" and x.dtype.kind == "f" and x.size and not bool((x != 0).any()):
        # every weight compares equal to 0 (-0.0 and 0.0): given in row-major order, so that
        # each value stays with its entry in from_coo, which takes such values as one
        order = np.argsort(r * n + c)
        r, c, x = r[order], c[order], x[order]
    F = Matrix.from_coo(r, c, x, nrows=n, ncols=n, dtype=G.A.dtype, device=device)
    return F, u, v


def forest_edges(G, method="boruvka", *, tiebreak=None, what="minimum_spanning_forest"):
    """For adapters: the forest's edges as (u, v) device arrays, u < v, in key order (weight,
    then tie-break), and the forest Matrix. See :func:`minimum_spanning_forest`."""
    if method not in METHODS:
        raise InvalidValue(f"{what}: method must be one of {METHODS}; given {method!r}")
    F, u, v = _forest(as_graph(G, what), method, what, tiebreak)
    return u, v, F


__all__ = ["minimum_spanning_forest", "METHODS"]
