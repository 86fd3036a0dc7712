"""Connected and strongly connected components as ``min_second`` / ``max_first`` products.

- Weakly connected components by subgraph sampling, as Afforest (Sutton, Ben-Nun, Barak 2018)
  and LAGraph's ``LG_CC_FastSV6`` do it, with Shiloach-Vishkin hooking of roots:

  1. *Sample*: each vertex's smallest and largest neighbour (``reduce_rowwise`` of
     ``colindex(A)`` by ``min`` and ``max``; out- and in-neighbours of a directed A). The links
     to the smallest neighbours form a forest (every parent is smaller than its child), which
     pointer jumping compresses to stars; the links to the largest neighbours (and to the
     smallest, where it is larger than the vertex) join those stars by Shiloach-Vishkin rounds:
     the larger root of each link's ends is hooked under the smallest root offered to it (the
     scatter ``f(r) = min(f(r), x)`` is the product ``C min.second x`` with ``C(r, k)`` present
     for each offer k, LAGraph's matrix C), the hooked roots are compressed by pointer doubling,
     and only the links whose ends were in two trees go on.
  2. *Giant component*: the most frequent label among 1024 sampled vertices (``key``); when it
     holds less than 1/8 of them there is none, and step 3 starts from every vertex.
  3. *Final rounds* on the rows of the vertices outside it and of the giant vertices next to
     one of them (a push from the former; every other giant vertex has only giant neighbours):
     each active vertex takes the smallest label among its neighbours (``A min.second L``), the
     root of its star is hooked under the smallest such label below its own, and the trees are
     compressed. A vertex whose neighbours all share its label leaves the active set for good
     (trees only merge), as LACC (Azad, Buluc 2019) stops visiting converged vertices.

  Labels are vertex ids and only fall, and every root is the smallest vertex of its tree, so
  each component ends as one star rooted at its smallest vertex: the result is that labelling.
  Which label the sample takes for the giant component changes the work, never the result.
- Strongly connected components by the Multistep method of Slota, Rajamanickam and Madduri
  (2014): one trimming pass (a vertex with no in-edge or no out-edge other than a self-loop is
  its own component; the degrees are computed once per graph), the component of a high-degree
  pivot as the vertices that reach it (a masked ``any.pair`` search along the transpose) among
  which those it reaches (a second search inside the first; it is usually the giant
  component), then the coloring algorithm (Orzan 2004; McLendon et al. 2005) on what is left:
  propagate the largest key forward to a fixed point (``color = max(color, color max.first A)``,
  a push from the vertices whose color rose), every vertex whose color is its own key is a
  root, and the vertices of its color that reach it (a push along the transpose restricted to
  that color) are its component. The keys are a hash-based random permutation
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
- With the SuiteSparse CPU backend (numba importable: :func:`semiring.backends.cpu._jit.enabled`)
  both run as compiled whole-graph loops (:mod:`semiring.backends.cpu.components`), the CPU
  counterparts of those kernels: ECL-CC's union-find, run sequentially, for the weak
  components, and Pearce's (2016) space-efficient iterative form of Tarjan's (1972)
  depth-first search for the strong ones. Their labels equal the algebra's.

References
----------
M. Sutton, T. Ben-Nun, A. Barak, "Optimizing parallel graph connectivity computation via
subgraph sampling", IPDPS 2018 (Afforest). A. Azad, A. Buluc, "LACC: a linear-algebraic
algorithm for finding connected components in distributed memory", IPDPS 2019.
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
R. E. Tarjan, "Depth-first search and linear graph algorithms", SIAM J. Comput. 1(2), 1972.
D. J. Pearce, "A space-efficient algorithm for finding strongly connected components", Inf.
Process. Lett. 116(1), 2016. J. Jaiganesh, M. Burtscher, "A high-performance connected
components implementation for GPUs", HPDC 2018 (ECL-CC).
LAGraph ``LG_CC_FastSV6`` / ``LAGr_ConnectedComponents`` (Zhang, Davis).
"""

from __future__ import annotations

import numpy as np

from .. import core as _core
from ..core.matrix import Matrix
from ..core.vector import Vector
from ..core import _validate as _v
from ..backends._xp import asnumpy
from ..backends.cpu import _jit
from ..exceptions import InvalidValue
from ..ops import binary, indexunary, monoid, semiring, unary
from .coloring import priorities
from .engines import GPU_MAX_VERTICES
from .graph import as_graph, on_graph_backend

#: The low 32 bits of a :func:`priorities` key are the vertex id.
_VERTEX_BITS = np.int64(0xFFFFFFFF)


#: Vertices whose labels after the sample phase are read to find its most frequent label (the
#: giant component), as LAGraph's ``LG_CC_FastSV6`` and Afforest estimate it.
GIANT_SAMPLES = 1024

#: Below this fraction of the sampled vertices, the most frequent label of the sample phase is
#: no giant component: the final rounds then start from every vertex that has a neighbour.
GIANT_FRACTION = 1 / 8

#: A product restricted to a set of rows takes it as a mask only when the set holds less than
#: this fraction of the vertices; above, the product over every row costs less.
MASKED_ROWS_FRACTION = 1 / 8


def _vertex_ids(n, device):
    """int64 Vector with v(i) = i at every position."""
    return Vector.from_dense(np.arange(n, dtype=np.int64), device=device)


def _star_matrix(labels, device):
    """``C(labels(u), u)`` present for every u held by ``labels`` (bool, n x n): one entry per
    such column.

    ``C min.second x`` then gives, at each i, the minimum of x(u) over the u with labels(u) = i,
    and ``x min.first C`` gives x(labels(u)) at each u."""
    n = labels.size
    u, r = labels.to_coo()
    return Matrix.from_coo(r, u, None, nrows=n, ncols=n, dtype="bool", device=device)


def _dense(t, fill):
    """t with ``fill`` at every absent position (a full Vector)."""
    return Vector.from_dense(t.to_dense(fill), device=t.device)


def _neighbour_reduce(mats, x, s, fill, rows=None):
    """``t<rows.S> = ⊕ over the matrices M of (M s x)``: s's monoid over every entry of each
    row of each M, for the rows ``rows`` holds (None: all).

    A small row set is the products' mask (only those rows are read), and t holds the rows
    with an entry. A large one restricts the products over every row afterwards, which costs
    less than a large mask; their results are made full (``fill``, the monoid's identity,
    where a row has no entry) so that they combine without a union of sparse index sets, and
    t holds every row of ``rows``."""
    if rows is not None and rows.nvals < MASKED_ROWS_FRACTION * rows.size:
        # t<rows.S> = M0 s x;  t = t ⊕ (M s x)
        t = _core.mxv(mats[0], x, s, mask=rows.S, direction="pull")
        for M in mats[1:]:
            t = _core.ewise_add(t, _core.mxv(M, x, s, mask=rows.S, direction="pull"), s.monoid.op)
        return t
    # t = M0 s x, fill where absent;  t = t ⊕ (M s x)
    t = _dense(_core.mxv(mats[0], x, s, direction="pull"), fill)
    for M in mats[1:]:
        t = _core.ewise_mult(t, _dense(_core.mxv(M, x, s, direction="pull"), fill), s.monoid.op)
    # t<rows.S> = t
    return t if rows is None else _core.apply(t, unary.identity, mask=rows.S)


def _extreme_neighbours(mats, n):
    """``(lo, hi)``: each vertex's smallest and largest neighbour over the rows of ``mats``
    (full int64 Vectors; ``n`` and ``-1`` where a vertex has none)."""
    lo = hi = None
    for M in mats:
        # J = colindex(M)   (J(i, j) = j);  a = reduce_rowwise(J, min);  b = reduce_rowwise(J, max)
        J = _core.apply(M, indexunary.colindex)
        a = _dense(_core.reduce_rowwise(J, monoid.min), n)
        b = _dense(_core.reduce_rowwise(J, monoid.max), -1)
        # lo = min(lo, a);  hi = max(hi, b)   (full vectors)
        lo = a if lo is None else _core.ewise_mult(lo, a, binary.min)
        hi = b if hi is None else _core.ewise_mult(hi, b, binary.max)
    return lo, hi


def _compress(f):
    """Pointer jumping ``f = f(f)`` until every tree of the forest ``f`` is a star."""
    while True:
        # g = f(f)
        g = _core.extract(f, f.to_dense())
        if g.isequal(f):
            return f
        f = g


def _hook_roots(f, lo, at, roots, device):
    """Hook roots of the forest ``f`` in place: the offer at each position ``at[k]`` of ``lo``
    goes to the root ``roots[k]`` (``lo(at[k]) < roots[k]``, both roots); each root takes the
    smallest label offered to it and then points at the root of its new tree (so that no path
    grows by more than one). Returns the hooked roots (a Vector of their new parents).

    ``at`` and ``roots`` are int64 index arrays of one length; ``lo`` is a Vector of labels
    (of any index space) present at ``at``."""
    n = f.size
    # w = C min.second lo with C(roots[k], at[k]): the smallest label offered to each root
    # (Shiloach-Vishkin's hooking, FastSV's  f(f(u)) = min(f(f(u)), mngp(u)))
    C = Matrix.from_coo(roots, at, None, nrows=n, ncols=lo.size, dtype="bool", device=device)
    w = _core.mxv(C, lo, semiring.min_second)
    # pointer doubling on the hooked roots only: p(r) = p(p(r)) while p(r) is hooked too
    roots, p = w.to_coo()
    P = w
    while True:
        # q = P(p)   (present where p names a hooked root)
        q = _core.extract(P, p)
        if not q.nvals:
            break
        at, pq = q.to_coo()
        p = p.copy()
        p[at] = pq
        P = Vector.from_coo(roots, p, size=n, dtype="int64", device=device)
    # f<P.S> = P
    _core.assign(f, P, None, mask=P.S)
    return P


def _hook(L, lo, at, device):
    """Hook the root ``L(at[k])`` of each position under the label ``lo(at[k])`` offered there
    (as :func:`_hook_roots`) and return the new labels: every tree a star again.

    ``L`` is a full star forest; ``lo(at[k]) < L(at[k])``; ``lo`` may hold other positions."""
    f = L.dup()
    _hook_roots(f, lo, at, _core.extract(L, at).to_dense(), device)
    # L = f(L)   (every old root points at its final root)
    return _core.extract(f, L.to_dense())


def _link_rounds(L, src, dst, device):
    """Shiloach-Vishkin rounds over the links ``src(k) -- dst(k)`` (int64 index arrays): hook
    the larger root of each link's ends under the smaller, compress, and keep only the links
    whose ends were in different trees. Returns (labels, rounds)."""
    rounds = 0
    while src.shape[0]:
        # a = L(src);  b = L(dst);  lo = min(a, b);  hi = max(a, b)
        a, b = _core.extract(L, src), _core.extract(L, dst)
        lo = _core.ewise_mult(a, b, binary.min)
        hi = _core.ewise_mult(a, b, binary.max)
        # cross<lo != hi>: the links between two trees
        apart = _core.ewise_mult(lo, hi, binary.ne)
        keep, _ = _core.select(apart, indexunary.valueeq, True).to_coo()
        if not keep.shape[0]:
            break
        rounds += 1
        # hook hi(k) under lo(k) for the links between two trees
        f = L.dup()
        _hook_roots(f, lo, keep, _core.extract(hi, keep).to_dense(), device)
        # L = f(L)
        L = _core.extract(f, L.to_dense())
        src, dst = src[keep], dst[keep]
    return L, rounds


def _hooking_rounds(mats, L, active, device):
    """Connected components on the rows ``active`` of ``mats`` by hooking and compression.

    ``L`` (full, a star forest of vertex ids, ``L(u) <= u``) is lowered until no active vertex
    has a neighbour of smaller label; ``active`` must hold every vertex that has a neighbour of
    another label. Each round every active vertex u takes ``t(u)``, the smallest label among
    its neighbours; the root of u's star is hooked under the smallest such ``t(u) < L(u)`` of
    its vertices, and every tree is compressed to a star again. A vertex whose neighbours all
    share its label leaves ``active`` for good: trees only merge, so it never sees another
    label again (LACC's exclusion of converged vertices). Returns (labels, rounds)."""
    n = L.size
    rounds = 0
    while active.nvals:
        # t<active> = min over the rows of mats of L   (each active vertex's smallest neighbour label)
        t = _neighbour_reduce(mats, L, semiring.min_second, n, active)
        # hook<t < L> = t
        hook = _core.apply(t, unary.identity, mask=_core.ewise_mult(t, L, binary.lt).V)
        # flat<t >= L> = true   (no smaller neighbour label; interior if no larger one either)
        flat = _core.ewise_mult(t, L, binary.ge)
        flat = _core.apply(flat, unary.identity, mask=flat.V)
        # high<flat> = max over the rows of mats of L;  interior<high <= L> = true
        high = _neighbour_reduce(mats, L, semiring.max_second, -1, flat)
        interior = _core.ewise_mult(high, L, binary.le)
        # active<t.S and !interior.V> = active   (a vertex without neighbours leaves too)
        active = _core.apply(_core.apply(active, unary.identity, mask=t.S), unary.identity, mask=~interior.V)
        if not hook.nvals:
            break
        rounds += 1
        # hook the root L(u) of each u in hook under hook(u)
        L = _hook(L, hook, hook.to_coo()[0], device)
    return L, rounds


def _most_frequent(L):
    """An estimate of the most frequent label of L and of the fraction of the vertices that
    hold it, from :data:`GIANT_SAMPLES` vertices."""
    n = L.size
    picks = np.random.default_rng(n).integers(0, n, size=min(GIANT_SAMPLES, n))
    # x = L(picks)
    labels = asnumpy(_core.extract(L, picks).to_dense())
    values, counts = np.unique(labels, return_counts=True)
    top = int(np.argmax(counts))
    return int(values[top]), counts[top] / picks.size


def _neighbour_matrices(G):
    """The matrices whose rows list each vertex's neighbours: ``(A,)`` for an undirected graph,
    ``(A, A')`` for a directed one; their structure, as bool, where A's values would make an
    int64 label vector's ``min.second`` product not int64 (floats, uint64)."""
    mats = (G.A,) if G.kind == "undirected" else (G.A, G.AT)
    if G.A.dtype.kind == "b" or G.A.dtype.kind == "i" or G.A.dtype.kind == "u" and G.A.dtype.itemsize < 8:
        return mats
    # P = one(A) as bool, and P' for a directed graph (cached on P)
    P = G.pattern("bool")
    return (P,) if len(mats) == 1 else (P, P.T)


def _afforest(G, device):
    """Connected components by Afforest's subgraph sampling; returns (labels, rounds)."""
    n = G.n
    mats = _neighbour_matrices(G)
    ids = _vertex_ids(n, device)
    # sample: each vertex's smallest and largest neighbour (over out- and in-edges)
    lo, hi = _extreme_neighbours(mats, n)
    # the links to the smallest neighbours form a forest: f = min(ids, lo), compressed
    L = _compress(_core.ewise_mult(ids, lo, binary.min))
    # the other links, by Shiloach-Vishkin rounds: to the largest neighbour, and to the smallest
    # one where it is larger than the vertex (a root of that forest)
    # near<lo < n> = lo   (the vertices with a neighbour)
    near = _core.select(lo, indexunary.valuelt, n)
    s1, d1 = near.to_coo()
    s2, d2 = _core.apply(hi, unary.identity, mask=near.S).to_coo()
    up, other = d1 > s1, d2 > s2
    xp = _v.xp_for(device)
    L, rounds = _link_rounds(L, xp.concatenate([s1[up], s2[other]]), xp.concatenate([d1[up], d2[other]]), device)
    # the giant component's label, and the other vertices that have a neighbour:
    # rest<near.S and L != key> = true
    key, share = _most_frequent(L)
    if share < GIANT_FRACTION:
        # no giant component: every vertex with a neighbour is active
        L, more = _hooking_rounds(mats, L, _core.apply(near, unary.one).dup("bool"), device)
        return L, rounds + more
    rest = _core.select(_core.apply(L, unary.identity, mask=near.S), indexunary.valuene, key)
    rest = _core.apply(rest, unary.one).dup("bool")
    if not rest.nvals:
        return L, rounds
    # edge<!rest.S> = rest any.pair M   (giant vertices with a neighbour outside it)
    edge = _core.vxm(rest, mats[0], semiring.any_pair, mask=~rest.S, direction="push")
    for M in mats[1:]:
        edge = _core.ewise_add(edge, _core.vxm(rest, M, semiring.any_pair, mask=~rest.S, direction="push"),
                               binary.lor)
    # final phase on the rows of the vertices outside the giant component and of its edge:
    # active = rest lor edge
    L, more = _hooking_rounds(mats, L, _core.ewise_add(rest, edge.dup("bool"), binary.lor), device)
    return L, rounds + more


@on_graph_backend
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
    With the NumPy CPU backend, subgraph sampling as in Afforest (Sutton, Ben-Nun and Barak
    2018) and LAGraph's ``LG_CC_FastSV6``: the components of the links from each vertex to its
    smallest and largest neighbour (two row reductions of ``colindex(A)``, a forest compressed
    by pointer jumping, and Shiloach-Vishkin rounds over the other links), then hooking rounds
    (``A min.second L`` over the active rows) only on the vertices outside the sample's most
    frequent label and the giant vertices next to them. On the cnr-2000 web crawl (325,557
    vertices) the sample labels 98% of the vertices and the final rounds read about 7,000 rows.

    On the GPU, ECL-CC (Jaiganesh and Burtscher 2018): one pass over the arcs hooks the larger
    root of each arc's ends under the smaller by compare-and-swap, with path halving, and a
    last pass points every vertex at its root (:mod:`semiring.backends.gpu.forest`): four
    launches and no host read.

    With the SuiteSparse CPU backend (and numba, which it brings), ECL-CC's union-find runs
    as one compiled loop (:mod:`semiring.backends.cpu.components`): every vertex starts under
    its first smaller neighbour, one pass over the arcs (over the arcs to smaller vertices
    only, for a Graph given as undirected) hooks the larger root of each arc's ends under the
    smaller, with path halving, and a pass in increasing vertex order points every vertex at
    its root: O(n + nnz) time and one int64 array of n.

    Every engine gives every vertex the smallest vertex of its component.

    References
    ----------
    Sutton, Ben-Nun, Barak, "Optimizing parallel graph connectivity computation via subgraph
    sampling", IPDPS 2018; Shiloach, Vishkin, "An O(log n) parallel connectivity algorithm",
    J. Algorithms 3, 1982; Azad, Buluc, "LACC", IPDPS 2019; LAGraph ``LG_CC_FastSV6``; Jaiganesh, Burtscher,
    "A high-performance connected components implementation for GPUs", HPDC 2018 (ECL-CC);
    Tarjan, van Leeuwen, "Worst-case analysis of set union algorithms", J. ACM 31(2), 1984
    (path halving).

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
    if _jit.enabled():
        return _compiled(G, strong=False)
    return _afforest(G, device)[0]


def _components_on_device(G):
    """ECL-CC union-find on the GPU (semiring.backends.gpu.forest): the same labels as FastSV."""
    import cupy as cp

    from ..backends.gpu import forest

    labels = forest.components(G.A, symmetric=G._given_kind == "undirected")
    return Vector._from_bitmap("int64", cp.ones(G.n, dtype=bool), labels, G.n)


def _compiled(G, strong):
    """The compiled whole-graph loop on the CPU (semiring.backends.cpu.components): ECL-CC
    union-find, or Pearce's iterative Tarjan for ``strong``; the same labels as the algebra."""
    from ..backends.cpu import components as _loops
    from ..backends.suitesparse.containers import adopt

    if strong:
        labels = _loops.strongly_connected_components(G.A)
    else:
        labels = _loops.connected_components(G.A, symmetric=G._given_kind == "undirected")
    # the labels as a Vector of the graph's backend (SuiteSparse, which _jit.enabled() implies)
    return adopt(Vector._from_bitmap("int64", np.ones(G.n, dtype=bool), labels, G.n))


def _scc_structure(G):
    """``(S, S', din, dout)``, computed once per graph: S = the structure of A without
    self-loops (bool), its transpose, and the in- and out-degrees in S (full int64 Vectors)."""

    # S = one(offdiag(A)) as bool: self-loops connect nothing, values are not read
    S = G.offdiag_pattern("bool")
    din, dout = G.offdiag_degrees
    return S, S.T, din, dout


def _pivot(din, dout, todo):
    """A vertex of ``todo`` with the largest in-degree x out-degree (Slota et al.), or None."""
    # score<todo.S> = din * dout
    score = _core.ewise_mult(din, dout, binary.times, mask=todo.S)
    if not score.nvals:
        return None
    top = _core.reduce_scalar(score, monoid.max)
    # the first vertex with that score
    idx, _ = _core.select(score, indexunary.valueeq, top).to_coo()
    return int(idx[0])


def _reach(M, source, within):
    """The vertices of ``within`` (a Vector mask) that ``source`` reaches along the edges of M
    through vertices of ``within``: breadth-first, one ``any.pair`` product per level."""
    n = M.nrows
    # seen<!within.S> = true;  seen(source) = true   (what the search may not enter)
    seen = _core.apply(Vector.from_dense(np.ones(n, dtype=bool), device=M.device), unary.identity, mask=~within.S)
    q = Vector.from_coo([source], [True], size=n, device=M.device)
    _core.assign(seen, q, None, mask=q.S)
    while q.nvals:
        # q<!seen.S> = q any.pair M;  seen<q.S> = q
        q = _core.vxm(q, M, semiring.any_pair, mask=~seen.S)
        _core.assign(seen, q, None, mask=q.S)
    # reached<within.S> = seen
    return _core.apply(seen, unary.identity, mask=within.S)


def _coloring_round(S, ST, key, todo):
    """One round of the coloring algorithm on the subgraph induced by ``todo``.

    Returns ``found``: at each vertex of every component whose root (largest key) was found,
    that root's key. At least the remaining vertex with the largest key is a root."""
    # color<todo.S> = key
    color = _core.apply(key, unary.identity, mask=todo.S)
    frontier = color
    while frontier.nvals:
        # t<todo.S> = frontier max.first S   (the largest color among each vertex's changed in-neighbours)
        t = _core.vxm(frontier, S, semiring.max_first, mask=todo.S)
        # frontier<t > color> = t;  color<frontier.S> = frontier
        frontier = _core.apply(t, unary.identity, mask=_core.ewise_mult(t, color, binary.gt).V)
        _core.assign(color, frontier, None, mask=frontier.S)
    # roots: color == key (no larger key reaches them);  found<root.V> = color
    found = _core.apply(color, unary.identity, mask=_core.ewise_mult(color, key, binary.eq).V)
    # closed<!todo.S> = true;  closed<found.S> = true   (what the backward search may not enter)
    closed = _core.apply(Vector.from_dense(np.ones(key.size, dtype=bool), device=key.device), unary.identity,
                         mask=~todo.S)
    _core.assign(closed, True, None, mask=found.S)
    frontier = found
    while frontier.nvals:
        # t<!closed.S> = frontier min.first S'   (at each vertex, the smallest color among its
        # out-neighbours in the frontier: an out-neighbour's color is >= the vertex's own, so
        # it equals the vertex's color iff one of them shares it)
        t = _core.vxm(frontier, ST, semiring.min_first, mask=~closed.S)
        # frontier<t == color> = t
        frontier = _core.apply(t, unary.identity, mask=_core.ewise_mult(t, color, binary.eq).V)
        # found<frontier.S> = frontier;  closed<frontier.S> = true
        _core.assign(found, frontier, None, mask=frontier.S)
        _core.assign(closed, True, None, mask=frontier.S)
    return found


def _scc_device(G, seed):
    """Max-signature propagation in one persistent kernel (semiring.backends.gpu.scc)."""
    import cupy as cp

    from ..backends.gpu import scc as _gpu

    label, _ = _gpu.strongly_connected(G.A, seed)
    n = G.n
    return Vector._from_bitmap("int64", cp.ones(n, dtype=bool), label, n)


@on_graph_backend
def strongly_connected_components(A, *, seed=0):
    """Strongly connected components, each labelled by its smallest vertex.

    Parameters
    ----------
    A : Matrix or Graph, shape (n, n)
        ``A[i, j]`` present means an edge i -> j; values (and explicit zeros) are ignored.
        A symmetric A gives its connected components.
    seed : int, default 0
        Seed of the random vertex keys (the coloring phase of the NumPy CPU backend, the
        signatures on the GPU); the result does not depend on it.

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
    With the NumPy CPU backend, Multistep (Slota, Rajamanickam, Madduri 2014): one trimming
    pass, the component of the vertex of largest in-degree x out-degree by a backward search and
    a forward search inside it, then coloring rounds. Each level of a search or step of a
    coloring round is one product, so the cost follows the depth of the graph: on cnr-2000 about
    370 products in sequence (86 search levels, then 6 coloring rounds of 194 forward and 91
    backward steps in all), each a push from the vertices that changed.

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

    With the SuiteSparse CPU backend (and numba, which it brings), one compiled depth-first
    search (:mod:`semiring.backends.cpu.components`): Tarjan's algorithm (1972) in Pearce's
    space-efficient form (2016, ``PEA_FIND_SCC2``), with an explicit stack so that a path of
    any length runs without recursion, then a pass that labels each component by its smallest
    vertex: O(n + nnz) time, four int64 arrays and one bool array of n. The seed is not used.

    An undirected graph (a symmetric A) takes :func:`connected_components` on every device.

    References
    ----------
    Slota, Rajamanickam, Madduri, "BFS and coloring-based parallel algorithms for strongly
    connected components and related problems", IPDPS 2014. Orzan, PhD thesis, 2004.
    McLendon et al., J. Parallel Distrib. Comput. 65, 2005. Fleischer, Hendrickson, Pinar,
    IPDPS Workshops 2000. Barnat, Bauch, Brim, Ceska, "Computing strongly connected components
    in parallel on CUDA", IPDPS 2011. Alabandi, Sands, Biros, Burtscher, "A GPU algorithm for
    detecting strongly connected components", SC 2023 (ECL-SCC). Tarjan, "Depth-first search
    and linear graph algorithms", SIAM J. Comput. 1(2), 1972. Pearce, "A space-efficient
    algorithm for finding strongly connected components", Inf. Process. Lett. 116(1), 2016.

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
    if device == "cpu" and _jit.enabled():
        return _compiled(G, strong=True)
    S, ST, din, dout = _scc_structure(G)
    # trimming: a vertex with no in-edge or no out-edge is its own component
    # root<(din * dout) == 0> = i
    dead = _core.select(_core.ewise_mult(din, dout, binary.times), indexunary.valueeq, 0)
    root = _core.apply(dead, indexunary.rowindex).dup("int64")
    # todo<!root.S> = true   (the vertices not yet placed in a component)
    todo = _core.apply(Vector.from_dense(np.ones(n, dtype=bool), device=device), unary.identity, mask=~root.S)
    pivot = _pivot(din, dout, todo)
    if pivot is not None:
        # the pivot's component: the vertices that reach it, among them those it reaches
        scc = _reach(S, pivot, _reach(ST, pivot, todo))
        # root<scc.S> = pivot;  todo<scc.S> = (deleted)
        _core.assign(root, pivot, None, mask=scc.S)
        todo = _core.apply(todo, unary.identity, mask=~scc.S)
    key = Vector.from_dense(priorities(n, seed), device=device)
    while todo.nvals:
        found = _coloring_round(S, ST, key, todo)
        # root<found.S> = found band 0xFFFFFFFF   (the root's vertex id, from its key);  todo<found.S> = (deleted)
        _core.assign(root, _core.apply(found, binary.band, right=_VERTEX_BITS), None, mask=found.S)
        todo = _core.apply(todo, unary.identity, mask=~found.S)
    # relabel by the smallest member: C(root(v), v) present; m = C min.second ids; out = m min.first C
    C = _star_matrix(root, device)
    smallest = _core.mxv(C, _vertex_ids(n, device), semiring.min_second)
    return _core.vxm(smallest, C, semiring.min_first)


__all__ = ["connected_components", "strongly_connected_components"]
