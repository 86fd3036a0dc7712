"""Betweenness centrality by Brandes' algorithm, a batch of sources at a time, as ``plus`` products.

For a batch of b sources the BFS of every source runs at once in a b x n frontier matrix (row i
belongs to source ``s_i``), as LAGraph's ``LAGr_Betweenness`` does (Brandes 2001 in the
linear-algebra form of Buluç and Gilbert's Combinatorial BLAS and of the GraphBLAS):

- forward sweep: ``F<!sigma.S> = F plus.first A`` carries the number of shortest paths one level
  further (the sum of the counts of the in-neighbours on the previous level); ``sigma`` collects
  the counts of every level, and each level's frontier is kept.
- backward sweep, from the deepest level d up to level 2: ``W = t ./ sigma`` on level d with
  ``t = 1 + delta``, ``Q<level d-1> = W plus.first A'`` sums over each vertex's children, and
  ``t<level d-1> += Q .* sigma`` gives Brandes' dependency
  ``delta(v) = sum over children w of sigma(v) / sigma(w) * (1 + delta(w))``.
- the centrality of v sums ``delta`` over the sources (a column reduction), and the total is
  rescaled as networkx rescales it (below).

Unweighted: A's values (and explicit zeros) are ignored; an edge i -> j is ``A[i, j]`` present.

References
----------
U. Brandes, "A faster algorithm for betweenness centrality", J. Math. Sociology 25(2), 2001.
U. Brandes, "On variants of shortest-path betweenness centrality and their generic computation",
Social Networks 30(2), 2008 (endpoints). U. Brandes, C. Pich, "Centrality estimation in large
networks", Int. J. Bifurcation and Chaos 17(7), 2007 (source sampling). A. Buluç, J. R. Gilbert,
"The Combinatorial BLAS: design, implementation, and applications", IJHPCA 25(4), 2011 (batched
betweenness as sparse matrix products). LAGraph ``LAGr_Betweenness`` (Davis, Mattson, Szárnyas).
networkx ``betweenness_centrality`` and ``_rescale`` (networkx 3.5+) for the scaling.
"""

from __future__ import annotations

import math

import numpy as np

from .. import _checks
from .. import core as _core
from ..backends._xp import asnumpy
from ..core import _validate as _v
from ..core.matrix import Matrix
from ..core.vector import Vector
from ..exceptions import IndexOutOfBound, InvalidValue
from ..ops import binary, monoid, semiring, unary
from .graph import as_graph, on_graph_backend

#: Sources whose BFS run together in one frontier matrix (its rows), by default.
DEFAULT_BATCH = 64


def _pattern(G):
    """(P, P') float64 ones on A's pattern (values ignored), kept on G (:meth:`Graph.pattern`;
    the transpose is cached on P)."""
    # P = one(A) as float64
    P = G.pattern("float64")
    return P, P if G.kind == "undirected" else P.T


def _forward(P, sigma0, undirected):
    """The BFS levels of every source of the batch, each with its shortest-path counts."""
    levels = [sigma0]
    # seen: the (source, vertex) pairs a new frontier must avoid, as a few disjoint runs
    runs = [sigma0]
    while True:
        # F<!seen.S> = L(d) plus.first A   (shortest-path counts on the next level)
        F = _core.mxm(levels[-1], P, semiring.plus_first, mask=~runs[0].S)
        for r in runs[1:]:
            # F<!run.S> = F
            F = _core.apply(F, unary.identity, mask=~r.S)
        if not F.nvals:
            return levels
        levels.append(F)
        if undirected:
            # an undirected edge from level d reaches levels d-1, d and d+1 only: seen = L(d) u L(d+1)
            runs = [levels[-2], F]
        else:
            # every level so far, merged like a binary counter: O(log depth) runs, each pair
            # visited O(log depth) times by the merges;  run = run(-2) first run(-1)   (disjoint)
            runs.append(F)
            while len(runs) > 1 and runs[-1].nvals >= runs[-2].nvals:
                runs[-2:] = [_core.ewise_add(runs[-2], runs[-1], binary.first)]


def _batch(P, PT, src, n, undirected, endpoints, bc, device):
    """bc += Brandes' dependencies of the sources ``src`` (one batch), summed per vertex."""
    xp = _v.xp_for(device)
    b = src.shape[0]
    rows = xp.arange(b, dtype=np.int64)
    # sigma(i, s_i) = 1   (one shortest path from each source to itself: level 0)
    levels = _forward(P, Matrix.from_coo(rows, src, xp.ones(b), nrows=b, ncols=n, dtype="float64", device=device),
                      undirected)
    ones = Vector.from_dense(xp.ones(b), device=device)
    # t = 1 + delta on the deepest level (no children there: delta = 0)
    t = _core.apply(levels[-1], unary.one)
    for d in range(len(levels) - 1, 0, -1):
        # bc<c.S> += plus_reduce over the sources of c,  c = delta = t - 1  (endpoints: c = t)
        c = t if endpoints else _core.apply(t, binary.minus, right=1.0)
        # col = ones plus.second c   (a column sum by expanding c's rows: no transpose of c)
        col = _core.vxm(ones, c, semiring.plus_second, direction="push")
        _core.assign(bc, col, None, mask=col.S, accum=binary.plus)
        if d == 1:
            break
        # W = t ./ sigma on level d
        W = _core.ewise_mult(t, levels[d], binary.div)
        # Q<level(d-1).S> = W plus.first A'   (the sum over each vertex's children on level d)
        Q = _core.mxm(W, PT, semiring.plus_first, mask=levels[d - 1].S)
        # t = 1 + Q .* sigma on level d-1   (1 where a vertex has no child)
        t = _core.ewise_add(_core.apply(levels[d - 1], unary.one), _core.ewise_mult(Q, levels[d - 1], binary.times),
                            binary.plus)
    if endpoints and len(levels) > 1:
        # each source gains the number of other vertices it reaches:
        # bc<s.S> += reached,  reached(s_i) = plus_reduce(one(L(d)(i, :))) over d >= 1
        reached = Vector(b, "float64", device=device)
        for L in levels[1:]:
            _core.ewise_add(reached, _core.reduce_rowwise(_core.apply(L, unary.one), monoid.plus), binary.plus,
                            out=reached)
        # at_src = reached plus.first S0 (S0(i, s_i) present; sources are distinct)
        at_src = _core.vxm(reached, levels[0], semiring.plus_first)
        _core.assign(bc, at_src, None, mask=at_src.S, accum=binary.plus)
    return bc


def scale_factors(n, *, normalized, directed, endpoints, k=None):
    """networkx's rescaling of raw betweenness sums (``networkx.algorithms.centrality.betweenness._rescale``).

    Returns ``(for sources, for the other vertices)``; the two differ only when ``k`` sources were
    sampled without endpoints. ``None`` means no scaling (fewer than two possible (s, t) pairs).
    """
    N = n if endpoints else n - 1
    if N < 2:
        return None, None
    K = N if k is None else k
    corr = 1 if directed else 2
    if k is None or endpoints:
        s = 1 / (K * (N - 1)) if normalized else N / (K * corr)
        return s, s
    if normalized:
        return (1 / ((K - 1) * (N - 1)) if K > 1 else math.nan), 1 / (K * (N - 1))
    return (N / ((K - 1) * corr) if K > 1 else math.nan), N / (K * corr)


def _sources(sources, n, what):
    """The sources as a host int64 array (distinct, in range), or None for all vertices."""
    if sources is None:
        return None
    try:
        src = asnumpy(sources) if hasattr(sources, "__cuda_array_interface__") else np.asarray(sources)
    except (TypeError, ValueError):
        raise InvalidValue(f"{what}: sources must be a sequence of vertex indices; given {sources!r}") from None
    if src.ndim != 1 or (src.size and src.dtype.kind not in "iu"):
        raise InvalidValue(f"{what}: sources must be a 1-D sequence of integer vertex indices; "
                           f"given an array of shape {src.shape} and dtype {src.dtype}")
    src = src.astype(np.int64)
    if src.size == 0:
        raise InvalidValue(f"{what}: sources must name at least one vertex; given none")
    bad = src[(src < 0) | (src >= n)]
    if bad.size:
        raise IndexOutOfBound(f"{what}: sources must be vertices in 0..{n - 1}; given {int(bad[0])}")
    s = np.sort(src)
    if (s[1:] == s[:-1]).any():
        raise InvalidValue(f"{what}: sources must be distinct; vertex {int(s[1:][s[1:] == s[:-1]][0])} "
                           "appears more than once")
    return src


@on_graph_backend
def betweenness_centrality(A, *, sources=None, normalized=True, endpoints=False, batch=DEFAULT_BATCH):
    """Shortest-path betweenness centrality of every vertex (unweighted), as networkx defines it.

    ``c(v) = sum over pairs (s, t) of sigma(s, t | v) / sigma(s, t)``: the fraction of shortest
    s-t paths through v, summed over the sources s (all vertices, or ``sources``) and every
    target t, then rescaled as networkx's ``betweenness_centrality`` does.

    Parameters
    ----------
    A : Matrix or Graph, shape (n, n)
        ``A[i, j]`` present means an edge i -> j; values are ignored (every edge has length 1). A
        symmetric A (or a Graph of kind "undirected") is an undirected graph: each unordered pair
        counts once. Pass ``Graph(A, kind="directed")`` to count a symmetric A as directed.
    sources : sequence of int, optional
        Distinct source vertices (Brandes and Pich's sampled estimate); None means all n. The
        sums over k sources are inflated by n/k as networkx's ``k`` sampling does, so this
        returns networkx's ``betweenness_centrality(G, k=len(sources))`` for that sample.
    normalized : bool, default True
        Divide by the number of (s, t) pairs that may pass through v (networkx's rule, below).
    endpoints : bool, default False
        Count s and t as on their own paths (networkx's ``endpoints``).
    batch : int, default 64
        Sources searched together (rows of the frontier matrix); memory grows with
        batch x (vertices reached).

    Returns
    -------
    Vector of float64, size n
        Every vertex present.

    Raises
    ------
    InvalidValue
        A is not a Matrix or Graph; ``sources`` empty, repeated or not integers; ``batch`` not a
        positive integer.
    IndexOutOfBound
        A source is not a vertex.
    DimensionMismatch
        A is not square.

    Notes
    -----
    Scaling, with ``N = n`` (endpoints) or ``n - 1`` (without), ``k`` the number of sources
    (``N`` when all vertices are sources) and ``corr`` = 2 for an undirected graph, 1 for a
    directed one: no scaling when ``N < 2``; otherwise with all sources or with endpoints,
    ``1 / (k (N - 1))`` when normalized and ``N / (k corr)`` when not; with sampled sources
    and without endpoints, the sources (which cannot be their own targets) take
    ``1 / ((k - 1)(N - 1))`` (normalized) or ``N / ((k - 1) corr)`` and the others
    ``1 / (k (N - 1))`` or ``N / (k corr)`` (NaN at the source when k = 1). This is networkx
    3.5+'s ``_rescale``.

    Work: per batch, one ``plus.first`` product per BFS level forward and one backward, over
    the edges of the level's vertices (b rows at once). On the GPU the same sweeps run as
    kernels without the algebra (a warp per vertex, a lane per source; one host read per
    level; :mod:`semiring.backends.gpu.centrality`, after McLaughlin and Bader 2014).

    References
    ----------
    Brandes, J. Math. Sociology 25(2), 2001; Brandes, Social Networks 30(2), 2008; Brandes and
    Pich, IJBC 17(7), 2007; LAGraph ``LAGr_Betweenness``.

    Examples
    --------
    >>> import semiring as sr
    >>> A = sr.Matrix.from_coo([0, 1, 1, 2], [1, 0, 2, 1], nrows=3, ncols=3)   # the path 0 - 1 - 2
    >>> sr.algorithms.betweenness_centrality(A, normalized=False).to_dense().tolist()
    [0.0, 1.0, 0.0]
    """
    what = "betweenness_centrality"
    G = as_graph(A, what)
    n, device = G.n, G.A.device
    batch = _checks.integer(batch, what, "batch", low=1)
    src = _sources(sources, n, what)
    xp = _v.xp_for(device)
    # bc = 0 at every vertex
    bc = Vector.from_dense(xp.zeros(n, dtype=np.float64), device=device)
    if n == 0:
        return bc
    every = np.arange(n, dtype=np.int64) if src is None else src
    if device == "gpu":
        from ..backends.gpu import centrality as _gpu

        total = xp.zeros(n, dtype=np.float64)
        _gpu.accumulate(G.A, every, int(batch), endpoints, total)
        bc = Vector._from_bitmap("float64", xp.ones(n, dtype=bool), total, n)
    else:
        P, PT = _pattern(G)
        for start in range(0, every.shape[0], int(batch)):
            part = xp.asarray(every[start:start + int(batch)])
            _batch(P, PT, part, n, G.kind == "undirected", endpoints, bc, device)
    s_src, s_other = scale_factors(n, normalized=normalized, directed=G.kind == "directed", endpoints=endpoints,
                                   k=None if src is None else src.shape[0])
    if s_src is None:
        return bc
    if s_src == s_other:
        # bc = bc * scale
        return _core.apply(bc, binary.times, right=float(s_src))
    scale = np.full(n, s_other, dtype=np.float64)
    scale[src] = s_src
    # bc = bc .* scale   (sampled sources and the other vertices scale differently)
    return _core.ewise_mult(bc, Vector.from_dense(xp.asarray(scale), device=device), binary.times)


__all__ = ["betweenness_centrality", "scale_factors", "DEFAULT_BATCH"]
