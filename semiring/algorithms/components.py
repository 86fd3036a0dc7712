"""Connected and strongly connected components as ``min_second`` / ``max_first`` products.

- Weakly connected components by FastSV (Zhang, Azad, Hu 2020), LAGraph's ``LG_CC_FastSV6``
  without its sampling phase. Every vertex keeps a parent ``f`` (a vertex id); each round does
  *stochastic hooking* (the parent of ``f(u)`` takes the smallest grandparent of u's neighbours),
  *aggressive hooking* (u takes it too) and *shortcutting* (u takes its grandparent), all as
  min-reductions, until the grandparent vector stops changing. Labels only ever fall and the
  smallest vertex of a component is its own parent from the start, so the trees converge to
  stars rooted at each component's smallest vertex: the result is that labelling, directly.
  The scatter "f(f(u)) = min(f(f(u)), x(u))" is the product ``C min.second x`` with
  ``C(i, u)`` present iff ``i = f(u)`` (LAGraph's matrix C).
- Strongly connected components by the Multistep method of Slota, Rajamanickam and Madduri
  (2014): trim the vertices with no in-edge or no out-edge among the remaining vertices (each is
  its own component), take the component of a high-degree pivot by a forward and a backward BFS
  (their intersection; it is usually the giant component), then run the coloring algorithm
  (Orzan 2004; McLendon et al. 2005) on what is left: propagate the largest key forward to a
  fixed point (``color = max(color, color max.first A)``), every vertex whose color is its own
  key is a root, and the vertices of its color that reach it (a backward propagation restricted
  to that color) are its component. The keys are a hash-based random permutation
  (:func:`semiring.algorithms.coloring.priorities`) rather than the vertex ids, so that a chain of
  components sorted by id does not cost one round per component. A final ``min`` reduction over
  each component relabels it by its smallest vertex.
  On the GPU (a directed graph of fewer than 2**31 vertices) the search is instead one
  persistent kernel (:mod:`semiring.backends.gpu.scc`): the max-signature propagation of Orzan
  (2004) and Barnat et al. (2011) as ECL-SCC runs it (Alabandi et al. 2023). Each remaining
  vertex keeps the largest key that reaches it and the largest key it reaches, propagated over
  the remaining arcs to a fixed point in place with pointer jumping; a vertex whose two
  signatures agree is in the component of the vertex they name, arcs whose ends differ in
  either signature are dropped, and the rest repeats. The labels (smallest vertex of each
  component) equal the CPU path's.

References
----------
Y. Zhang, A. Azad, Z. Hu, "FastSV: a distributed-memory connected component algorithm with fast
convergence", SIAM PP 2020. Y. Zhang, A. Azad, A. Buluc, "Parallel algorithms for finding
connected components using linear algebra", J. Parallel Distrib. Comput. 144, 2020.
Y. Shiloach, U. Vishkin, "An O(log n) parallel connectivity algorithm", J. Algorithms 3, 1982.
G. M. Slota, S. Rajamanickam, K. Madduri, "BFS and coloring-based parallel algorithms for
strongly connected components and related problems", IPDPS 2014.
S. Orzan, "On distributed verification and verified distribution", PhD thesis, VU Amsterdam, 2004.
W. McLendon III, B. Hendrickson, S. Plimpton, L. Rauchwerger, "Finding strongly connected
components in distributed graphs", J. Parallel Distrib. Comput. 65, 2005 (trimming).
J. Barnat, P. Bauch, L. Brim, M. Ceska, "Computing strongly connected components in parallel on
CUDA", IPDPS 2011. G. Alabandi, W. Sands, G. Biros, M. Burtscher, "A GPU algorithm for
detecting strongly connected components", SC 2023 (ECL-SCC).
L. Fleischer, B. Hendrickson, A. Pinar, "On identifying strongly connected components in
parallel", IPDPS Workshops 2000 (forward-backward).
LAGraph ``LG_CC_FastSV6`` / ``LAGr_ConnectedComponents`` (Zhang, Davis).
"""

from __future__ import annotations

import numpy as np

from .. import core as _core
from ..core.matrix import Matrix
from ..core.vector import Vector
from ..core import _validate as _v
from ..exceptions import InvalidValue
from ..ops import binary, indexunary, monoid, semiring, unary
from .bfs import bfs
from .coloring import priorities
from .engines import GPU_MAX_VERTICES
from .graph import Graph, as_graph

#: The low 32 bits of a :func:`priorities` key are the vertex id.
_VERTEX_BITS = np.int64(0xFFFFFFFF)


def _lower_to_neighbours(out, G, x):
    """out = min(out, the smallest x over each vertex's neighbours in A + A^T), for a full out."""
    # out<t.S> = min(out, t),  t = A min.second x   (out-neighbours)
    _lower(out, _core.mxv(G.A, x, semiring.min_second))
    if G.kind != "undirected":
        # out<t.S> = min(out, t),  t = x min.first A   (in-neighbours, without forming A + A^T)
        _lower(out, _core.vxm(x, G.A, semiring.min_first))
    return out


def _lower(x, t):
    """x<t.S> = min(x, t) for a full x (an intersection: t's positions are among x's, no union)."""
    # x<t.S> = x min t
    return _core.ewise_mult(x, t, binary.min, mask=t.S, out=x)


def _vertex_ids(n, device):
    """int64 Vector with v(i) = i at every position."""
    return Vector.from_dense(np.arange(n, dtype=np.int64), device=device)


def _star_matrix(labels, device):
    """``C(labels(u), u)`` present for every u (bool, n x n): one entry per column.

    ``C min.second x`` then gives, at each i, the minimum of x(u) over the u with labels(u) = i,
    and ``x min.first C`` gives x(labels(u)) at each u."""
    n = labels.size
    r = labels.to_dense()
    return Matrix.from_coo(r, _v.xp_for(device).arange(n, dtype=np.int64), None,
                           nrows=n, ncols=n, dtype="bool", device=device)


def _fastsv(G, n, device):
    """FastSV on the pattern of A + A^T; returns (parent, rounds)."""
    ids = _vertex_ids(n, device)
    # warmup: parent = min(ids, smallest neighbour)
    parent = _lower_to_neighbours(ids.dup(), G, ids)
    gp = parent.dup()
    mngp = parent.dup()
    rounds = 0
    while True:
        rounds += 1
        # mngp = min(mngp, (A + A^T) min.second gp)   (the smallest grandparent among the neighbours)
        _lower_to_neighbours(mngp, G, gp)
        # stochastic hooking: parent(parent(u)) = min(parent(parent(u)), mngp(u)), written with
        # C(i, u) present iff i = parent(u) as  parent = min(parent, C min.second mngp)
        _lower(parent, _core.mxv(_star_matrix(parent, device), mngp, semiring.min_second))
        # aggressive hooking and shortcutting: parent = min(parent, mngp, gp)   (all full)
        parent = _core.ewise_mult(parent, _core.ewise_mult(mngp, gp, binary.min), binary.min)
        # gp_new = parent(parent)   (extract at the indices held by parent)
        gp_new = _core.extract(parent, parent.to_dense())
        # done = land(gp_new == gp)
        same = _core.ewise_mult(gp_new, gp, binary.eq)
        gp = gp_new
        if bool(_core.reduce_scalar(same, monoid.land)):
            return parent, rounds


def connected_components(A):
    """Weakly connected components, each labelled by its smallest vertex.

    Parameters
    ----------
    A : Matrix or Graph, shape (n, n)
        ``A[i, j]`` present means an edge i -> j; values (and explicit zeros) are ignored, and a
        directed graph is taken as the pattern of ``A + A^T``. Self-loops are allowed.

    Returns
    -------
    Vector of int64, size n
        Every vertex present; ``c[v]`` is the smallest vertex index of v's component, so
        ``c[v] == v`` exactly at one vertex per component (the number of components is the
        number of such vertices).

    Raises
    ------
    InvalidValue
        A is not a Matrix or Graph.
    DimensionMismatch
        A is not square.

    Notes
    -----
    On the CPU, FastSV (Zhang, Azad and Hu 2020) as in LAGraph's ``LG_CC_FastSV6``: per round
    two ``min.second`` products (one with the graph, one with the parent pointers as a matrix),
    a ``min`` union and an extract (three products for a directed A: out- and in-neighbours).
    The rounds are few in practice (5 on the cnr-2000 web crawl, 325,557 vertices).

    On the GPU, ECL-CC (Jaiganesh and Burtscher 2018): one pass over the arcs hooks the larger
    root of each arc's ends under the smaller by compare-and-swap, with path halving, and a
    last pass points every vertex at its root (:mod:`semiring.backends.gpu.forest`): four
    launches and no host read. Both give every vertex the smallest vertex of its component.

    References
    ----------
    Zhang, Azad, Hu, "FastSV: a distributed-memory connected component algorithm with fast
    convergence", SIAM PP 2020; LAGraph ``LAGr_ConnectedComponents``; Jaiganesh, Burtscher,
    "A high-performance connected components implementation for GPUs", HPDC 2018.

    Examples
    --------
    >>> import semiring as sr
    >>> A = sr.Matrix.from_coo([1, 3, 4], [2, 4, 5], nrows=6, ncols=6)
    >>> sr.algorithms.connected_components(A).to_dense().tolist()
    [0, 1, 1, 3, 3, 3]
    """
    G = as_graph(A, "connected_components")
    n, device = G.n, G.A.device
    if n == 0:
        return Vector(0, "int64", device=device)
    if device == "gpu":
        return _components_on_device(G)
    return _fastsv(G, n, device)[0]


def _components_on_device(G):
    """ECL-CC union-find on the GPU (semiring.backends.gpu.forest): the same labels as FastSV."""
    import cupy as cp

    from ..backends.gpu import forest

    labels = forest.components(G.A, symmetric=G._given_kind == "undirected")
    return Vector._from_bitmap("int64", cp.ones(G.n, dtype=bool), labels, G.n)


class _Remaining:
    """The vertices not yet placed in a component, with their in- and out-degree counted among
    the remaining vertices (for trimming)."""

    def __init__(self, S, n, device):
        self.S = S
        # Si = one(S) as int64, so that plus.pair counts edges
        self.Si = _core.apply(S, unary.one).dup("int64")
        # todo = true at every vertex
        self.todo = Vector.from_dense(np.ones(n, dtype=bool), device=device)
        # din = reduce_columnwise(Si, plus); dout = reduce_rowwise(Si, plus)   (absent = 0)
        self.din = _core.reduce_columnwise(self.Si, monoid.plus)
        self.dout = _core.reduce_rowwise(self.Si, monoid.plus)

    def initial_dead(self):
        """The vertices with no in-edge or no out-edge (other than self-loops)."""
        # dead<!din.S or !dout.S> = todo
        no_in = _core.apply(self.todo, unary.identity, mask=~self.din.S)
        no_out = _core.apply(self.todo, unary.identity, mask=~self.dout.S)
        return _core.ewise_add(no_in, no_out, binary.lor)

    def remove(self, X):
        """Take the vertices of X out; return those left with no in- or no out-edge."""
        # todo<X.S> = (deleted)
        self.todo = _core.apply(self.todo, unary.identity, mask=~X.S)
        # xi = one(X) as int64
        xi = _core.apply(X, unary.one).dup("int64")
        # lost_in<todo.S> = xi plus.pair Si   (edges from X into each remaining vertex)
        lost_in = _core.vxm(xi, self.Si, semiring.plus_pair, mask=self.todo.S)
        # lost_out<todo.S> = Si plus.pair xi   (edges from each remaining vertex into X)
        lost_out = _core.mxv(self.Si, xi, semiring.plus_pair, mask=self.todo.S)
        # din<lost_in.S> = din - lost_in;  dout<lost_out.S> = dout - lost_out
        _core.ewise_mult(self.din, lost_in, binary.minus, mask=lost_in.S, out=self.din)
        _core.ewise_mult(self.dout, lost_out, binary.minus, mask=lost_out.S, out=self.dout)
        # dead = (din<lost_in.S> == 0) lor (dout<lost_out.S> == 0)
        dead_in = _core.select(_core.apply(self.din, unary.identity, mask=lost_in.S), indexunary.valueeq, 0)
        dead_out = _core.select(_core.apply(self.dout, unary.identity, mask=lost_out.S), indexunary.valueeq, 0)
        return _core.ewise_add(_core.apply(dead_in, unary.one).dup("bool"),
                               _core.apply(dead_out, unary.one).dup("bool"), binary.lor)

    def trim(self, dead, root):
        """Repeatedly make each dead vertex its own component (root<dead.S> = its id)."""
        rounds = 0
        while dead.nvals:
            rounds += 1
            # root<dead.S> = i
            _core.assign(root, _core.apply(dead, indexunary.rowindex).dup("int64"), None, mask=dead.S)
            dead = self.remove(dead)
        return rounds


def _pivot(R):
    """A remaining vertex with the largest in-degree x out-degree (Slota et al.), or None."""
    # score<todo.S> = din * dout   (both present: every remaining vertex has in- and out-edges)
    score = _core.ewise_mult(R.din, R.dout, binary.times, mask=R.todo.S)
    if not score.nvals:
        return None
    top = _core.reduce_scalar(score, monoid.max)
    # the first vertex with that score
    idx, _ = _core.select(score, indexunary.valueeq, top).to_coo()
    return int(idx[0])


def _forward_backward(S, ST, pivot):
    """The component of ``pivot``: the vertices it reaches that also reach it."""
    fwd = bfs(S, pivot).level
    bwd = bfs(ST, pivot).level
    # scc = fwd .pair bwd   (the intersection, as bool)
    return _core.ewise_mult(fwd, bwd, binary.pair).dup("bool")


def _coloring_round(S, key, todo):
    """One round of the coloring algorithm on the subgraph induced by ``todo``.

    Returns ``found``: at each vertex of every component whose root (largest key) was found,
    that root's key. At least the remaining vertex with the largest key is a root."""
    # color<todo.S> = key
    color = _core.apply(key, unary.identity, mask=todo.S)
    frontier = color
    while frontier.nvals:
        # t<todo.S> = frontier max.first S   (the largest color among each vertex's changed in-neighbours)
        t = _core.vxm(frontier, S, semiring.max_first, mask=todo.S)
        # up = t > color
        up = _core.ewise_mult(t, color, binary.gt)
        # frontier<up.V> = t;  color<frontier.S> = frontier
        frontier = _core.apply(t, unary.identity, mask=up.V)
        _core.assign(color, frontier, None, mask=frontier.S)
    # roots: color == key (no larger key reaches them);  found<root.V> = color
    root = _core.ewise_mult(color, key, binary.eq)
    found = _core.apply(color, unary.identity, mask=root.V)
    # open<!found.S> = todo
    open_ = _core.apply(todo, unary.identity, mask=~found.S)
    frontier = found
    while frontier.nvals:
        # t<open.S> = S min.second frontier   (an out-neighbour's color is >= the vertex's own,
        # so the minimum equals it iff some out-neighbour in the frontier shares the color)
        t = _core.mxv(S, frontier, semiring.min_second, mask=open_.S)
        # frontier<(t == color).V> = t
        frontier = _core.apply(t, unary.identity, mask=_core.ewise_mult(t, color, binary.eq).V)
        # found<frontier.S> = frontier;  open<frontier.S> = (deleted)
        _core.assign(found, frontier, None, mask=frontier.S)
        open_ = _core.apply(open_, unary.identity, mask=~frontier.S)
    return found


def _scc_device(G, seed):
    """Max-signature propagation in one persistent kernel (semiring.backends.gpu.scc)."""
    import cupy as cp

    from ..backends.gpu import scc as _gpu

    label, _ = _gpu.strongly_connected(G.A, seed)
    n = G.n
    return Vector._from_bitmap("int64", cp.ones(n, dtype=bool), label, n)


def strongly_connected_components(A, *, seed=0):
    """Strongly connected components, each labelled by its smallest vertex.

    Parameters
    ----------
    A : Matrix or Graph, shape (n, n)
        ``A[i, j]`` present means an edge i -> j; values (and explicit zeros) are ignored.
        A symmetric A gives its connected components.
    seed : int, default 0
        Seed of the random vertex keys (the coloring phase on the CPU, the signatures on the
        GPU); the result does not depend on it.

    Returns
    -------
    Vector of int64, size n
        Every vertex present; ``c[v]`` is the smallest vertex index of the component of v
        (the vertices u with a path v -> u and a path u -> v).

    Raises
    ------
    InvalidValue
        A is not a Matrix or Graph, seed is not an integer, or n >= 2**32 (the coloring keys
        hold vertex ids in 32 bits).
    DimensionMismatch
        A is not square.

    Notes
    -----
    Multistep (Slota, Rajamanickam, Madduri 2014): trimming, one forward-backward search from
    the vertex of largest in-degree x out-degree, then coloring rounds with trimming between
    them. Work per coloring round is the edges among the remaining vertices times the
    propagation depth; real graphs need few rounds once the giant component is gone.

    On the GPU a directed graph (fewer than 2**31 vertices) runs in one persistent kernel
    with a single device-to-host read: ECL-SCC's max-signature propagation (Alabandi et al.
    2023, after Orzan 2004 and Barnat et al. 2011). Every remaining vertex keeps an
    in-signature (the largest key that reaches it) and an out-signature (the largest key it
    reaches), propagated over the remaining arcs to a fixed point in place with pointer
    jumping; a vertex whose signatures agree belongs to the component of the vertex they name
    (that component's largest key, so each round places at least one component); arcs whose
    ends differ in either signature are dropped and the rest starts again. Keys are
    ``priorities(n, seed)``. A final minimum per component gives the same labels as the CPU
    path. cnr-2000 takes 6 rounds.

    References
    ----------
    Slota, Rajamanickam, Madduri, "BFS and coloring-based parallel algorithms for strongly
    connected components and related problems", IPDPS 2014. Orzan, PhD thesis, 2004.
    McLendon et al., J. Parallel Distrib. Comput. 65, 2005. Fleischer, Hendrickson, Pinar,
    IPDPS Workshops 2000. Barnat, Bauch, Brim, Ceska, "Computing strongly connected components
    in parallel on CUDA", IPDPS 2011. Alabandi, Sands, Biros, Burtscher, "A GPU algorithm for
    detecting strongly connected components", SC 2023 (ECL-SCC).

    Examples
    --------
    >>> import semiring as sr
    >>> A = sr.Matrix.from_coo([0, 1, 1, 2, 3], [1, 0, 2, 3, 2], nrows=5, ncols=5)
    >>> sr.algorithms.strongly_connected_components(A).to_dense().tolist()
    [0, 0, 2, 2, 4]
    """
    G = as_graph(A, "strongly_connected_components")
    n, device = G.n, G.A.device
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise InvalidValue(f"strongly_connected_components: seed must be an integer; given {seed!r}")
    if n >= 2**32:
        raise InvalidValue(f"strongly_connected_components: at most 2**32 - 1 vertices; given {n}")
    if n == 0:
        return Vector(0, "int64", device=device)
    if G.kind == "undirected":
        return connected_components(G)
    if device == "gpu" and n <= GPU_MAX_VERTICES:
        return _scc_device(G, seed)
    def pattern():
        # S = offdiag(A): self-loops do not connect anything
        S = _core.select(G.A, indexunary.offdiag)
        return S, S.T

    S, ST = G.cached("scc_pattern", pattern)
    # root = the vertex that names each vertex's component (any member; relabelled at the end)
    root = Vector(n, "int64", device=device)
    R = _Remaining(S, n, device)
    R.trim(R.initial_dead(), root)
    pivot = _pivot(R)
    if pivot is not None:
        scc = _forward_backward(Graph(S, "directed"), Graph(ST, "directed"), pivot)
        # root<scc.S> = pivot
        _core.assign(root, pivot, None, mask=scc.S)
        R.trim(R.remove(scc), root)
    key = Vector.from_dense(priorities(n, seed), device=device)
    while R.todo.nvals:
        found = _coloring_round(S, key, R.todo)
        # root<found.S> = found band 0xFFFFFFFF   (the root's vertex id, from its key)
        _core.assign(root, _core.apply(found, binary.band, right=_VERTEX_BITS), None, mask=found.S)
        R.trim(R.remove(found), root)
    # relabel by the smallest member: C(root(v), v) present; m = C min.second ids; out = m min.first C
    C = _star_matrix(root, device)
    smallest = _core.mxv(C, _vertex_ids(n, device), semiring.min_second)
    return _core.vxm(smallest, C, semiring.min_first)


__all__ = ["connected_components", "strongly_connected_components"]
