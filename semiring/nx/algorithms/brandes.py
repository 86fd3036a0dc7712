"""Brandes' dependency sweeps for networkx's edge and subset betweenness (unweighted).

The forward sweep is the engine's (:mod:`semiring.algorithms.centrality`): for a batch of b
sources, a b x n matrix per BFS level holds the number of shortest paths ``sigma`` from each
source (row) to each vertex of that level. The backward sweeps here differ from vertex
betweenness in what they accumulate:

- :func:`edge_dependencies`: each DAG edge v -> w (v on level d-1, w on level d) carries
  ``sigma(v) / sigma(w) * (1 + delta(w))`` (Brandes 2008, edge betweenness). With
  ``W = (1 + delta) ./ sigma`` on level d, the edges' share summed over the batch is
  ``E(v, w) += sum_i sigma(i, v) W(i, w)``, computed on the edge list: ``sigma(d-1) plus.first T``
  and ``W plus.first H`` carry each row's values onto the edges (T and H the tail and head
  incidence matrices), and their product summed over the rows gives every edge's share in
  O(b m) work (a masked product ``sigma' W`` would form the outer product of two levels first).
- :func:`subset_dependencies`: only paths ending in a target count, so a vertex passes on
  ``delta(w) + [w is a target]`` instead of ``1 + delta(w)`` (networkx's
  ``_accumulate_subset``).
- :func:`edge_subset_dependencies`: networkx's ``_accumulate_edges_subset``, which gives a
  target w's in-edges ``sigma(v) / sigma(w) * (1 + delta(w))`` and splits the dependency of any
  other w evenly over its DAG in-edges, ``delta(w) / npred(w)``; ``npred`` is a ``plus.pair``
  product of the previous level's pattern.

Newman's load (:func:`load_dependencies`, :func:`edge_load_dependencies`) splits a vertex's
load evenly over its DAG in-edges instead of by path counts: with ``npred`` the number of DAG
in-edges (``C<level d.S> = one(level d-1) plus.pair A``), ``t(v) = 1 + sum over children w of
t(w) / npred(w)`` for vertices (networkx's ``_node_betweenness``) and
``u(w) = 1 + (sum over children v of u(v)) / npred(w)`` on both orientations of each DAG edge
into w (networkx's ``_edge_betweenness``).

Sources may repeat (each occurrence is a row, and counts, as networkx's loop over sources does).

References
----------
U. Brandes, "On variants of shortest-path betweenness centrality and their generic computation",
Social Networks 30(2), 2008. networkx ``edge_betweenness_centrality``,
``betweenness_centrality_subset`` and ``edge_betweenness_centrality_subset`` (the rules above).
"""

from __future__ import annotations

import numpy as np

from ... import core as _core
from ...backends._xp import asnumpy
from ...algorithms.centrality import _forward, _pattern
from ...core.matrix import Matrix
from ...ops import binary, semiring, unary
from .. import _derived
from .searches import batches, hop_matrix


def _levels(G, src):
    """(P, P', levels) for the sources ``src`` (host int64): ``levels[d]`` is b x n float64 sigma
    on BFS level d of each row's source."""
    P, PT = _pattern(G)
    b, n = src.shape[0], G.n
    sigma0 = Matrix.from_coo(np.arange(b, dtype=np.int64), src, np.ones(b), nrows=b, ncols=n, dtype="float64",
                             device=G.A.device)
    return P, PT, _forward(P, sigma0, G.kind == "undirected")


def _ones(M):
    # one(M) as float64
    return _core.apply(M, unary.one).dup("float64")


def _add(acc, part, op=binary.plus):
    return part if acc is None else _core.ewise_add(acc, part, op)


def _diagonal(indices, n, device):
    """The n x n float64 diagonal with 1 at ``indices`` (selects those columns by a product)."""
    idx = np.unique(np.asarray(indices, dtype=np.int64))
    return Matrix.from_coo(idx, idx, np.ones(idx.shape[0]), nrows=n, ncols=n, dtype="float64", device=device)


def _incidence(G):
    """(tails, heads, T, H) of A's edges, numbered in A's row-major order: host index arrays and
    the n x m float64 incidence matrices ``T(v, e) = 1`` for the tail v of edge e and ``H(w, e)``
    for its head; computed once per graph."""
    def build():
        r, c, _ = (asnumpy(a) for a in G.A.to_coo())
        r, c = r.astype(np.int64), c.astype(np.int64)
        n, m, dev = G.n, r.shape[0], G.A.device
        e = np.arange(m, dtype=np.int64)
        T = Matrix.from_coo(r, e, np.ones(m), nrows=n, ncols=m, dtype="float64", device=dev)
        H = Matrix.from_coo(c, e, np.ones(m), nrows=n, ncols=m, dtype="float64", device=dev)
        return r, c, T, H

    return _derived.once(G, "incidence", build)


def _on_edges(G, X, Y, acc):
    """acc[e] += sum over the rows i of X(i, tail e) Y(i, head e), for every edge e; ``acc`` is a
    host float64 array of size m (the products are b x m with O(b m) work, and only their entries
    are read: no n x n outer product, no pass over all m edges per call)."""
    _, _, T, H = _incidence(G)
    # XT = X plus.first T;  YH = Y plus.first H   (each row's values carried onto the edges)
    XT = _core.mxm(X, T, semiring.plus_first)
    YH = _core.mxm(Y, H, semiring.plus_first)
    # P = XT .* YH   (the edges where both ends hold a value, per row)
    _, e, vals = (asnumpy(a) for a in _core.ewise_mult(XT, YH, binary.times).to_coo())
    if e.shape[0]:
        acc += np.bincount(e, weights=vals, minlength=acc.shape[0])  # summed over the rows
    return acc


def _edge_matrix(G, acc):
    """The per-edge sums (host array over the edge numbering of :func:`_incidence`) as an n x n
    Matrix on A's pattern, holding the edges where something was added; None if none was."""
    r, c, _, _ = _incidence(G)
    e = np.flatnonzero(acc)
    if not e.shape[0]:
        return None
    return Matrix.from_coo(r[e], c[e], acc[e], nrows=G.n, ncols=G.n, dtype="float64", device=G.A.device)


def edge_dependencies(G, sources):
    """Brandes' edge dependencies summed over the sources.

    Parameters
    ----------
    G : semiring.algorithms.Graph, n vertices
        The pattern (values ignored); undirected when its kind is "undirected".
    sources : sequence of int
        Source vertices (repeats count once each).

    Returns
    -------
    Matrix of float64, shape (n, n), or None
        ``E(v, w)`` for the edge v -> w, on A's pattern, absent where no shortest path from a
        source uses the edge; None when none does. Unscaled.
    """
    acc = np.zeros(G.A.nvals)
    for src in batches(np.asarray(sources, dtype=np.int64), G.n):
        P, PT, levels = _levels(G, src)
        # t = 1 + delta on the deepest level (no children there)
        t = _core.apply(levels[-1], unary.one)
        for d in range(len(levels) - 1, 0, -1):
            # W = t ./ sigma on level d
            W = _core.ewise_mult(t, levels[d], binary.div)
            # E(v, w) += sum over the sources of sigma(v) W(w)   (sigma(v) / sigma(w) (1 + delta(w)))
            acc = _on_edges(G, levels[d - 1], W, acc)
            if d == 1:
                break
            # Q<level(d-1).S> = W plus.first A'   (the sum over each vertex's children)
            Q = _core.mxm(W, PT, semiring.plus_first, mask=levels[d - 1].S)
            # t = 1 + Q .* sigma on level d-1
            t = _core.ewise_add(_core.apply(levels[d - 1], unary.one), _core.ewise_mult(Q, levels[d - 1], binary.times),
                                binary.plus)
    return _edge_matrix(G, acc)


def subset_dependencies(G, sources, targets):
    """The dependencies on shortest paths from ``sources`` to ``targets``, summed per vertex
    (networkx's ``_accumulate_subset``, unscaled).

    Parameters
    ----------
    G : semiring.algorithms.Graph, n vertices
    sources : sequence of int
        Source vertices (repeats count once each).
    targets : sequence of int
        Target vertices (a set: repeats ignored; a source is not its own target).

    Returns
    -------
    numpy float64 array, shape (n,)
    """
    n, device = G.n, G.A.device
    DT = _diagonal(targets, n, device)
    bc = np.zeros(n)
    for src in batches(np.asarray(sources, dtype=np.int64), n):
        P, PT, levels = _levels(G, src)
        delta = None
        for d in range(len(levels) - 1, 0, -1):
            if delta is not None:
                _column_sums(delta, bc)
            if d == 1:
                break
            # t = delta + [target] on level d   (the target set excludes the source, which is on level 0)
            t = _add(delta, _core.mxm(_ones(levels[d]), DT, semiring.plus_first))
            # W = t ./ sigma;  Q<level(d-1).S> = W plus.first A';  delta = Q .* sigma on level d-1
            W = _core.ewise_mult(t, levels[d], binary.div)
            Q = _core.mxm(W, PT, semiring.plus_first, mask=levels[d - 1].S)
            delta = _core.ewise_mult(Q, levels[d - 1], binary.times)
    return bc


def edge_subset_dependencies(G, sources, targets):
    """networkx's ``_accumulate_edges_subset`` summed over the sources (unscaled).

    Parameters
    ----------
    G : semiring.algorithms.Graph, n vertices
    sources : sequence of int
        Source vertices (repeats count once each).
    targets : sequence of int
        Target vertices (a set).

    Returns
    -------
    Matrix of float64, shape (n, n), or None
        ``E(v, w)`` for the edge v -> w, on A's pattern; None where nothing was added.
    """
    n, device = G.n, G.A.device
    DT = _diagonal(targets, n, device)
    acc = np.zeros(G.A.nvals)
    for src in batches(np.asarray(sources, dtype=np.int64), n):
        P, PT, levels = _levels(G, src)
        delta = None
        for d in range(len(levels) - 1, 0, -1):
            sigma, prev = levels[d], levels[d - 1]
            # at = 1 on the targets of level d;  W1 = (1 + delta) ./ sigma there
            at = _core.mxm(_ones(sigma), DT, semiring.plus_first)
            lifted = at
            if delta is not None:
                # lifted = at + (delta .* at)   (1 + delta on the targets)
                lifted = _core.ewise_add(at, _core.ewise_mult(delta, at, binary.first), binary.plus)
            W1 = _core.ewise_mult(lifted, sigma, binary.div)
            # E(v, w) += sum over the sources of sigma(v) W1(w)
            acc = _on_edges(G, prev, W1, acc)
            W2 = None
            if delta is not None:
                # rest = delta off the targets;  npred<rest.S> = one(level d-1) plus.pair A;  W2 = rest ./ npred
                rest = _core.apply(delta, unary.identity, mask=~at.S)
                if rest.nvals:
                    npred = _core.mxm(_ones(prev), P, semiring.plus_pair, mask=rest.S)
                    W2 = _core.ewise_mult(rest, npred.dup("float64"), binary.div)
                    # E(v, w) += sum over the sources of one(v) W2(w)   (delta(w) / npred(w) on each DAG in-edge)
                    acc = _on_edges(G, _ones(prev), W2, acc)
            if d == 1:
                break
            # delta(d-1) = sigma .* (W1 plus.first A') + (W2 plus.first A')   on level d-1
            delta = _core.ewise_mult(_core.mxm(W1, PT, semiring.plus_first, mask=prev.S), prev, binary.times)
            if W2 is not None:
                delta = _core.ewise_add(delta, _core.mxm(W2, PT, semiring.plus_first, mask=prev.S), binary.plus)
    return _edge_matrix(G, acc)


def _column_sums(M, acc):
    """acc[j] += sum over the rows of M(i, j), on the host from M's entries (no pass over all n
    columns per call)."""
    _, cols, vals = (asnumpy(a) for a in M.to_coo())
    if cols.shape[0]:
        acc += np.bincount(cols, weights=vals, minlength=acc.shape[0])


def _level_patterns(A, src, max_depth, undirected):
    """float64 ones on each BFS level (b x n matrices, level 0 first) from the sources ``src``,
    cut from one hop-count matrix by sorting its entries by level."""
    L = hop_matrix(A, src, max_depth, undirected=undirected)
    rows, cols, lv = (asnumpy(a) for a in L.to_coo())
    o = np.argsort(lv, kind="stable")
    rows, cols, lv = rows[o], cols[o], lv[o]
    bounds = np.searchsorted(lv, np.arange(int(lv.max()) + 2 if lv.shape[0] else 1))
    b, n = src.shape[0], A.nrows
    return [Matrix.from_coo(rows[lo:hi], cols[lo:hi], np.ones(hi - lo), nrows=b, ncols=n, dtype="float64",
                            device=A.device) for lo, hi in zip(bounds[:-1], bounds[1:])]


def _hop_levels(G, sources, max_depth):
    """The BFS level patterns (:func:`_level_patterns`) of each batch of ``sources``."""
    for src in batches(np.asarray(sources, dtype=np.int64), G.n):
        yield _level_patterns(G.A, src, max_depth, G.kind == "undirected")


def _npred(prev, A, level):
    # npred<level.S> = one(level d-1) plus.pair A   (the DAG in-edges of each vertex of level d)
    return _core.mxm(prev, A, semiring.plus_pair, mask=level.S).dup("float64")


def load_dependencies(G, sources, max_depth=None):
    """Newman's load minus 1 on every reached vertex but the source, summed over the sources
    (networkx's ``_node_betweenness``, unscaled).

    Parameters
    ----------
    G : semiring.algorithms.Graph, n vertices
    sources : sequence of int
    max_depth : int, optional
        BFS levels searched (networkx's ``cutoff``).

    Returns
    -------
    numpy float64 array, shape (n,)
    """
    A, AT = G.A, G.AT
    load = np.zeros(G.n)
    for lv in _hop_levels(G, sources, max_depth):
        t = None  # t - 1 on the level below
        for d in range(len(lv) - 1, 0, -1):
            if t is not None:
                _column_sums(t, load)
            if d == 1:
                break
            # W = (1 + (t - 1)) ./ npred on level d
            full = lv[d] if t is None else _core.ewise_add(lv[d], t, binary.plus)
            W = _core.ewise_mult(full, _npred(lv[d - 1], A, lv[d]), binary.div)
            # t - 1 on level d-1:  Q<level(d-1).S> = W plus.first A'
            t = _core.mxm(W, AT, semiring.plus_first, mask=lv[d - 1].S)
    return load


def edge_load_dependencies(G, sources, max_depth=None):
    """networkx's edge load minus its 1 per source, summed over the sources: ``u(w) - 1`` on each
    shortest-path edge x -> w (networkx's ``_edge_betweenness``; it gives both orientations of
    that edge the value).

    Parameters
    ----------
    G : semiring.algorithms.Graph, n vertices
    sources : sequence of int
    max_depth : int, optional
        BFS levels searched (networkx's ``cutoff``).

    Returns
    -------
    Matrix of float64, shape (n, n), or None
        On A's pattern; None where nothing was added.
    """
    A, AT = G.A, G.AT
    acc = np.zeros(A.nvals)
    for lv in _hop_levels(G, sources, max_depth):
        S = None  # the sum of u over each vertex's children, on the level below
        for d in range(len(lv) - 1, 0, -1):
            um1 = None
            if S is not None:
                # u - 1 = S ./ npred on level d
                um1 = _core.ewise_mult(S, _npred(lv[d - 1], A, lv[d]), binary.div)
                # E(x, w) += sum over the sources of one(x) (u(w) - 1)
                acc = _on_edges(G, lv[d - 1], um1, acc)
            if d > 1:
                # S<level(d-1).S> = u plus.first A'   (u = 1 + (u - 1) on level d)
                u = lv[d] if um1 is None else _core.ewise_add(lv[d], um1, binary.plus)
                S = _core.mxm(u, AT, semiring.plus_first, mask=lv[d - 1].S)
    return _edge_matrix(G, acc)


__all__ = ["edge_dependencies", "subset_dependencies", "edge_subset_dependencies", "load_dependencies",
           "edge_load_dependencies"]
