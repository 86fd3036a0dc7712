"""networkx's closeness and harmonic centralities on the engine's batched searches.

The shortest-path lengths come from many sources at once (:mod:`semiring.nx.algorithms.searches`:
b x n hop or distance matrices, one masked ``any.pair`` product per BFS level, or Bellman-Ford
rounds of ``min.plus`` from the entries that improved); closeness sums each row
(``reduce_rowwise``), harmonic centrality sums ``1 / d`` down the columns of the requested nodes
(``ones plus.second R`` under a mask). A single source runs the engine's own BFS or SSSP.

networkx's Dijkstra defines the weighted lengths (``distance``) for non-negative weights; negative,
NaN or infinite ones are declined, as are callable weights.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from ... import algorithms as _alg
from ... import core as _core
from ...core.vector import Vector
from ...ops import indexunary, monoid, semiring, unary
from ..algorithms.searches import batches, distance_matrix, hop_matrix
from ._common import checked_by, entries, weight_reason
from . import _measures
from ._measures import dense


def weights_reason(G, weight):
    """Why ``weight``'s values are declined as path lengths (negative, NaN or infinite), or None."""
    if weight is None:
        return None
    W = G.weighted(weight).A
    # ok = valuege(W, 0) and valuelt(W, inf)
    ok = _core.select(_core.select(W.dup("float64"), indexunary.valuege, 0.0), indexunary.valuelt, np.inf)
    if ok.nvals != W.nvals:
        return (f"{W.nvals - ok.nvals} {weight!r} values are negative, NaN or infinite: networkx's Dijkstra decides "
                "what those give")
    return None


def length_matrices(G, sources, weight, *, reverse=False):
    """Yield (batch, L): L is the b x n Matrix of shortest-path lengths from the node indices
    ``batch`` (hops with ``weight=None``, else ``weight`` distances), along reversed edges with
    ``reverse``. NotImplementedError for lengths networkx's Dijkstra alone defines."""
    reason = weights_reason(G, weight)
    if reason:
        raise NotImplementedError(reason)
    graph = G.weighted(weight, reverse=reverse)
    for batch in batches(np.asarray(sources, dtype=np.int64), len(G)):
        yield batch, (hop_matrix(graph.A, batch, undirected=graph.kind == "undirected") if weight is None else distance_matrix(graph.A, batch))


def _single(G, s, weight, reverse):
    """(indices, lengths) from the node index s: host arrays of the reached nodes."""
    reason = weights_reason(G, weight)
    if reason:
        raise NotImplementedError(reason)
    graph = G.weighted(weight, reverse=reverse)
    if weight is None:
        return entries(_alg.bfs(graph, s).level)
    return entries(_alg.sssp(graph, s, method="delta_stepping").distance)


def _row_totals(L):
    """(sum of lengths, number reached) per row of L, as host arrays."""
    # tot = reduce_rowwise(L, plus);  cnt = reduce_rowwise(one(L), plus)
    tot = dense(_core.reduce_rowwise(L, monoid.plus), 0)
    cnt = dense(_core.reduce_rowwise(_core.apply(L, unary.one).dup("int64"), monoid.plus), 0)
    return tot, cnt


def _closeness(totsp, reached, len_G, wf_improved):
    c = 0.0
    if totsp > 0.0 and len_G > 1:
        c = (reached - 1.0) / totsp
        if wf_improved:
            c *= (reached - 1.0) / (len_G - 1)
    return c


def _closeness_reason(G, u=None, distance=None, wf_improved=True):
    return weight_reason(distance)


@checked_by(_closeness_reason)
def closeness_centrality(G, u=None, distance=None, wf_improved=True):
    """networkx.closeness_centrality: ``{node: value}`` in node order, or the value of ``u``.

    Lengths are to each node (along reversed edges of a directed graph), as networkx computes
    them. Raises networkx.NodeNotFound when ``u`` is not a node.
    """
    reason = _closeness_reason(G, u, distance, wf_improved)
    if reason:
        raise NotImplementedError(reason)
    reverse = G.is_directed()
    n = len(G)
    if u is not None:
        if u not in G:
            raise nx.NodeNotFound(f"Source {u} is not in G" if distance is None else f"Node {u} not found in graph")
        _, vals = _single(G, G.index[u], distance, reverse)
        return _closeness(vals.sum().item(), vals.shape[0], n, wf_improved)
    out = {}
    nodes = G.nodes
    for batch, L in length_matrices(G, np.arange(n), distance, reverse=reverse):
        tot, cnt = _row_totals(L)
        for i, t, c in zip(batch.tolist(), tot.tolist(), cnt.tolist()):
            out[nodes[i]] = _closeness(t, c, n, wf_improved)
    return out


def _harmonic_reason(G, nbunch=None, distance=None, sources=None):
    return weight_reason(distance)


@checked_by(_harmonic_reason)
def harmonic_centrality(G, nbunch=None, distance=None, sources=None):
    """networkx.harmonic_centrality: ``{node: sum over sources of 1 / d(source, node)}`` for the
    nodes of ``nbunch``, in the order of networkx's ``set`` of them (0 where nothing is added).

    Raises networkx.NetworkXError for an nbunch or sources that is neither a node nor an
    iterable of nodes, as networkx's ``nbunch_iter`` does.
    """
    reason = _harmonic_reason(G, nbunch, distance, sources)
    if reason:
        raise NotImplementedError(reason)
    targets = set(_measures.nbunch(G, nbunch))
    origins = set(_measures.nbunch(G, sources))
    centrality = {u: 0 for u in targets}
    if not targets or not origins:
        return centrality
    # networkx searches from the smaller set (along reversed edges when that is the nbunch)
    transposed = len(targets) < len(origins)
    search, collect = (targets, origins) if transposed else (origins, targets)
    reverse = transposed and G.is_directed()
    n, index = len(G), G.index
    dev = G.A.device
    want = Vector.from_coo(np.array(sorted(index[v] for v in collect), dtype=np.int64), None, size=n, dtype="bool",
                           device=dev)
    total = np.zeros(n)
    count = np.zeros(n)
    for batch, L in length_matrices(G, sorted(index[v] for v in search), distance, reverse=reverse):
        # R = minv(L) where L != 0   (a source's own entry and zero-length paths add nothing)
        R = _core.apply(_core.select(L.dup("float64"), indexunary.valuene, 0.0), unary.minv)
        if transposed:
            # per searched node: R plus.first want   (the sum of its row over the collected columns)
            s = _core.mxv(R, want, semiring.plus_first)
            c = _core.mxv(_core.apply(R, unary.one).dup("int64"), want, semiring.plus_first)
            total[batch] += dense(s, 0.0)
            count[batch] += dense(c, 0)
        else:
            ones = Vector.from_dense(np.ones(batch.shape[0]), device=dev)
            # per collected node: ones plus.second R   (a column sum), masked to the collected columns
            s = _core.vxm(ones, R, semiring.plus_second, mask=want.S)
            c = _core.vxm(ones, _core.apply(R, unary.one).dup("int64"), semiring.plus_second, mask=want.S)
            total += dense(s, 0.0)
            count += dense(c, 0)
    for u in centrality:
        i = index[u]
        if count[i]:
            centrality[u] = total[i].item()
    return centrality


__all__ = ["closeness_centrality", "harmonic_centrality", "length_matrices", "weights_reason"]
