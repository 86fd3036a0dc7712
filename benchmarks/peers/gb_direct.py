"""Graph algorithms written directly in python-graphblas, as LAGraph writes them: the peers a
user of SuiteSparse:GraphBLAS would write in a few lines.

- BFS levels: :func:`benchmarks.peers.host.gb_bfs_levels` (push, ``q<!v.S, replace> = q any.pair A``);
- SSSP: :func:`benchmarks.peers.host.gb_bellman_ford` (``d = min(d, d min.plus A)`` until nothing changes);
- PageRank: the power iteration of networkx and LAGraph's ``LAGr_PageRank`` (uniform teleport
  and dangling distributions), :func:`pagerank`;
- triangles: LAGraph's Sandia ``C<L> = L plus.pair L`` summed (Wolf, Deveci, Berry, Hammond,
  Rajamanickam, "Fast linear algebra-based triangle counting with KokkosKernels", HPEC 2017),
  :func:`triangle_count`;
- betweenness: the batched Brandes of LAGraph's ``LAGr_Betweenness`` (Brandes, "A faster
  algorithm for betweenness centrality", J. Math. Sociol. 25(2), 2001; the sources advance
  together as the rows of one matrix), :func:`betweenness_raw`;
- one masked product, ``q<!v.S> = f any.pair A``, :func:`masked_vxm`.

Every function takes the ``graphblas`` module first (it is optional) and python-graphblas
objects.
"""

from __future__ import annotations

import numpy as np

from .host import gb_bellman_ford, gb_bfs_levels

__all__ = ["betweenness_raw", "gb_bellman_ford", "gb_bfs_levels", "masked_vxm", "pagerank", "triangle_count"]


def pagerank(gb, AT, alpha=0.85, tol=1e-6, max_iter=100):
    """PageRank of the pattern of A, given its transpose ``AT`` (LAGraph keeps it on the graph,
    ``G->AT``): from ``r = 1/n``, repeat
    ``r' = (1 - alpha)/n + alpha/n sum(r over dangling vertices) + AT plus.second (r .* alpha ./ d_out)``
    until ``sum |r' - r| < n tol`` (networkx's stopping rule).

    Parameters
    ----------
    gb : module
    AT : graphblas.Matrix, shape (n, n)
        The transpose of the adjacency matrix (A itself for a symmetric A).
    alpha, tol : float
    max_iter : int

    Returns
    -------
    graphblas.Vector of FP64, size n (every entry present)
    """
    n = AT.nrows
    # s = alpha ./ d_out, on the vertices with out-edges (d_out(j) = entries of column j of AT)
    s = AT.reduce_columnwise(gb.agg.count).new(dtype=float)
    s << gb.binary.truediv(alpha, s)
    # z = alpha/n on the dangling vertices (no out-edge)
    z = gb.Vector(float, n)
    z(~s.S) << alpha / n
    r = gb.Vector(float, n)
    r << 1.0 / n
    w = gb.Vector(float, n)
    diff = gb.Vector(float, n)
    for _ in range(max_iter):
        prev = r
        w << prev.ewise_mult(s, gb.binary.times)
        dangling = prev.inner(z).new().get(0.0)  # alpha/n sum(r over dangling vertices)
        r = gb.Vector(float, n)
        r << (1.0 - alpha) / n + dangling
        r(gb.binary.plus) << AT.mxv(w, gb.semiring.plus_second)
        diff << prev.ewise_mult(r, gb.binary.minus)
        diff << gb.unary.abs(diff)
        if diff.reduce(gb.monoid.plus).get(0.0) < n * tol:
            return r
    return r


def triangle_count(gb, A):
    """Triangles of a symmetric pattern ``A`` (no self-loops counted): ``L = tril(A, -1)``,
    ``C<L.S> = L plus.pair L``, ``sum(C)``.

    Returns
    -------
    int
    """
    L = gb.select.tril(A, -1).new(dtype=bool)
    C = L.mxm(L, gb.semiring.plus_pair["INT64"]).new(mask=L.S)
    return int(C.reduce_scalar(gb.monoid.plus).get(0))


def betweenness_raw(gb, A, sources):
    """Brandes' dependency sums over ``sources`` (unscaled), all sources in one batch.

    Forward: ``paths`` (ns x n) counts shortest paths, ``frontier<!paths.S, replace> = frontier
    plus.first A`` level by level, keeping each level's pattern. Backward, from the deepest level:
    ``W<S[d].S> = bcu ./ paths``, ``W<S[d-1].S> = W plus.first A'``, ``bcu += W .* paths``, with
    ``bcu`` = 1 everywhere at the start; the result is ``sum over rows of bcu - ns``.

    Parameters
    ----------
    gb : module
    A : graphblas.Matrix, shape (n, n)
    sources : sequence of int

    Returns
    -------
    graphblas.Vector of FP64, size n
    """
    n, ns = A.nrows, len(sources)
    rows = np.arange(ns, dtype=np.uint64)
    paths = gb.Matrix.from_coo(rows, np.asarray(sources, dtype=np.uint64), 1.0, nrows=ns, ncols=n, dtype=float)
    frontier = gb.Matrix(float, ns, n)
    frontier(~paths.S, replace=True) << paths.mxm(A, gb.semiring.plus_first)
    levels = []
    while frontier.nvals:
        levels.append(frontier.dup(dtype=bool))
        paths(gb.binary.plus) << frontier
        frontier(~paths.S, replace=True) << frontier.mxm(A, gb.semiring.plus_first)
    bcu = gb.Matrix(float, ns, n)
    bcu[:, :] << 1.0
    W = gb.Matrix(float, ns, n)
    for d in range(len(levels) - 1, 0, -1):
        W(levels[d].S, replace=True) << bcu.ewise_mult(paths, gb.binary.truediv)
        W(levels[d - 1].S, replace=True) << W.mxm(A.T, gb.semiring.plus_first)
        bcu(gb.binary.plus) << W.ewise_mult(paths, gb.binary.times)
    bc = bcu.reduce_columnwise(gb.monoid.plus).new()
    bc << gb.binary.minus(bc, float(ns))
    return bc


def masked_vxm(gb, f, A, visited):
    """``q<!visited.S> = f any.pair A`` as a new Vector."""
    return f.vxm(A, gb.semiring.any_pair).new(mask=~visited.S)
