"""networkx's Bellman-Ford family (and Goldberg-Radzik, negative-cycle tests, Johnson) on the
engine's Bellman-Ford (``semiring.algorithms.sssp(method="bellman_ford")``).

Weights may be negative; a negative cycle reachable from the source raises
networkx.NetworkXUnbounded, as networkx does (the engine proves it: a change in round n).

The paths follow the engine's shortest-path tree (a BFS over the tight edges, each node taking
its smallest-index tight predecessor one hop nearer), and dicts list the nodes by (distance,
index). networkx's queue-based Bellman-Ford (a FIFO work list that skips nodes whose
predecessor is queued) orders its dicts and predecessor lists by the order it happens to relax
edges, so where several shortest paths exist it may return another one of the same length.
``pred`` lists hold every tight predecessor, the tree parent first.

Johnson reweights by the Bellman-Ford potentials and then runs networkx's Dijkstra on the engine
(:func:`semiring.nx.nxapi.shortest_paths.weighted.search`), so its paths and order are networkx's.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from ....algorithms.graph import Graph as _EngineGraph
from ....backends._xp import asnumpy
from ....core.matrix import Matrix
from ...algorithms.paths import (
    Unbounded, adjacency, check_weights, distances, no_gc, path_lists, path_to, settle_order,
)
from .._common import checked_by, weight_reason
from ._pairs import require_pairs


def _unbounded():
    return nx.NetworkXUnbounded("Negative cycle detected.")


class _Tree:
    """Bellman-Ford from one node index: dist, reached, parent (host arrays) and the order."""

    def __init__(self, G, s, weight, *, reverse=False):
        try:
            self.dist, self.reached, self.parent = distances(G, [s], weight, "bellman-ford", reverse=reverse,
                                                             parents=True)
        except Unbounded:
            raise _unbounded() from None
        idx = np.flatnonzero(self.reached)
        self.order = idx[np.lexsort((idx, self.dist[idx]))]
        self.source = s

    def lengths(self, nodes):
        return {nodes[i]: d for i, d in zip(self.order.tolist(), self.dist[self.order].tolist())}

    def paths(self, nodes):
        with no_gc():
            return dict(_ordered_paths(self, nodes))

    def preds(self, G, weight):
        """node index -> [labels of every tight predecessor], the tree parent first, then by index."""
        indptr, indices, w = adjacency(G, weight)
        n = len(G)
        tail = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
        keep = self.reached[tail] & self.reached[indices]
        t, h, ww = tail[keep], indices[keep], w[keep]
        tight = self.dist[t] + ww == self.dist[h]
        t, h = t[tight], h[tight]
        first = t == self.parent[h]
        o = np.lexsort((t, ~first, h))
        nodes = G.nodes
        out = {}
        for a, b in zip(t[o].tolist(), h[o].tolist()):
            out.setdefault(b, []).append(nodes[a])
        return out


def _ordered_paths(tree, nodes):
    """(node, path) in the tree's dict order; each path is its parent's path plus the node."""
    cache = {}
    parent = tree.parent.tolist()
    for i in tree.order.tolist():
        chain = []
        u = i
        while u >= 0 and u not in cache:
            chain.append(u)
            u = parent[u]
        path = cache[u] if u >= 0 else []
        for v in reversed(chain):
            path = path + [nodes[v]]
            cache[v] = path
        yield nodes[i], cache[i]


def _missing_source(G, source):
    if source not in G:
        raise nx.NodeNotFound(f"Source {source} not in G")


def _weight_reason(G, *args, weight="weight", **kwargs):
    return weight_reason(weight)


@checked_by(_weight_reason)
def single_source_bellman_ford_path_length(G, source, weight="weight"):
    """networkx.single_source_bellman_ford_path_length: ``{node: distance}`` (by distance).

    Raises networkx.NodeNotFound (no ``source``) or networkx.NetworkXUnbounded.
    """
    _missing_source(G, source)
    return _Tree(G, G.index[source], weight).lengths(G.nodes)


@checked_by(_weight_reason)
def single_source_bellman_ford(G, source, target=None, weight="weight"):
    """networkx.single_source_bellman_ford: ``(distances, paths)``, or ``(distance, path)`` to
    ``target``.

    Raises networkx.NodeNotFound, networkx.NetworkXUnbounded, networkx.NetworkXNoPath.
    """
    if source == target:
        if source not in G:
            raise nx.NodeNotFound(f"Node {source} is not found in the graph")
        return (0, [source])
    _missing_source(G, source)
    tree = _Tree(G, G.index[source], weight)
    if target is None:
        return tree.lengths(G.nodes), tree.paths(G.nodes)
    t = G.index[target] if target in G else None
    if t is None or not tree.reached[t]:
        raise nx.NetworkXNoPath(f"Node {target} not reachable from {source}")
    return tree.dist[t].item(), path_to(tree.parent, t, G.nodes)


@checked_by(_weight_reason)
def single_source_bellman_ford_path(G, source, weight="weight"):
    """networkx.single_source_bellman_ford_path: ``{node: path}``."""
    return single_source_bellman_ford(G, source, weight=weight)[1]


@checked_by(_weight_reason)
def bellman_ford_path(G, source, target, weight="weight"):
    """networkx.bellman_ford_path: a shortest path from ``source`` to ``target``."""
    return single_source_bellman_ford(G, source, target=target, weight=weight)[1]


@checked_by(_weight_reason)
def bellman_ford_path_length(G, source, target, weight="weight"):
    """networkx.bellman_ford_path_length: the distance from ``source`` to ``target``; weights may
    be negative.

    Raises networkx.NodeNotFound (no ``source``), networkx.NetworkXUnbounded (a negative cycle
    reachable from ``source``) or networkx.NetworkXNoPath (``target`` not reached).
    """
    if source == target:
        if source not in G:
            raise nx.NodeNotFound(f"Node {source} not found in graph")
        return 0
    _missing_source(G, source)
    try:
        dist, reached = distances(G, [G.index[source]], weight, "bellman-ford")
    except Unbounded:
        raise _unbounded() from None
    t = G.index[target] if target in G else None
    if t is None or not reached[t]:
        raise nx.NetworkXNoPath(f"node {target} not reachable from {source}")
    return dist[t].item()


def _negative_self_loop(G, weight):
    """Whether some self-loop has a negative weight (networkx checks these first, anywhere)."""
    if weight is None:
        return False
    rows, cols, vals = (asnumpy(a) for a in G.weighted(weight).A.to_coo())
    return bool(np.any(vals[rows == cols] < 0))


@checked_by(_weight_reason)
def bellman_ford_predecessor_and_distance(G, source, target=None, weight="weight", heuristic=False):
    """networkx.bellman_ford_predecessor_and_distance: ``(pred, dist)``; ``pred[v]`` lists every
    tight predecessor of v, the tree parent first.

    Raises networkx.NodeNotFound, or networkx.NetworkXUnbounded for a negative self-loop anywhere
    or a negative cycle reachable from ``source``.
    """
    if source not in G:
        raise nx.NodeNotFound(f"Node {source} is not found in the graph")
    if _negative_self_loop(G, weight):
        raise _unbounded()
    if len(G) == 1:
        return {source: []}, {source: 0}
    tree = _Tree(G, G.index[source], weight)
    lists = tree.preds(G, weight)
    nodes = G.nodes
    pred = {nodes[i]: lists.get(i, []) for i in tree.order.tolist()}
    return pred, tree.lengths(nodes)


@checked_by(_weight_reason)
def goldberg_radzik(G, source, weight="weight"):
    """networkx.goldberg_radzik: ``(pred, dist)`` with one predecessor per node (None for the
    source): the engine's shortest-path tree.

    Raises networkx.NodeNotFound, or networkx.NetworkXUnbounded for a negative self-loop anywhere
    or a negative cycle reachable from ``source``.
    """
    if source not in G:
        raise nx.NodeNotFound(f"Node {source} is not found in the graph")
    if _negative_self_loop(G, weight):
        raise _unbounded()
    if len(G) == 1:
        return {source: None}, {source: 0}
    tree = _Tree(G, G.index[source], weight)
    nodes = G.nodes
    pred = {nodes[i]: (None if p < 0 else nodes[p]) for i, p in zip(tree.order.tolist(),
                                                                    tree.parent[tree.order].tolist())}
    return pred, tree.lengths(nodes)


@checked_by(lambda G, weight="weight": weight_reason(weight))
def all_pairs_bellman_ford_path_length(G, weight="weight"):
    """networkx.all_pairs_bellman_ford_path_length: ``(node, {node: distance})``, lazily."""
    check_weights(G, weight)
    return ((v, single_source_bellman_ford_path_length(G, v, weight=weight)) for v in G.nodes)


@checked_by(lambda G, weight="weight": weight_reason(weight))
def all_pairs_bellman_ford_path(G, weight="weight"):
    """networkx.all_pairs_bellman_ford_path: ``(node, {node: path})``, lazily."""
    check_weights(G, weight)
    return ((v, single_source_bellman_ford_path(G, v, weight=weight)) for v in G.nodes)


def _potentials(G, weight):
    """Bellman-Ford from a super source joined to every node by zero-length edges: h (host array)."""
    n = len(G)
    try:
        dist, _ = distances(G, np.arange(n, dtype=np.int64), weight, "bellman-ford")
    except Unbounded:
        raise _unbounded() from None
    return dist


@checked_by(lambda G, weight="weight", heuristic=True: weight_reason(weight))
def negative_edge_cycle(G, weight="weight", heuristic=True):
    """networkx.negative_edge_cycle: whether G has a negative cycle anywhere (one Bellman-Ford
    from a super source joined to every node)."""
    if G.number_of_edges() == 0:
        return False
    try:
        _potentials(G, weight)
    except nx.NetworkXUnbounded:
        return True
    return False


@checked_by(lambda G, weight="weight": weight_reason(weight))
def johnson(G, weight="weight"):
    """networkx.johnson: ``{source: {node: path}}`` by Bellman-Ford potentials h and networkx's
    Dijkstra on the reweighted lengths ``w(u, v) + h(u) - h(v)`` (networkx's order and paths).

    Raises networkx.NetworkXUnbounded for a negative cycle, semiring.OutOfMemory when the n x n
    result would not fit in memory. Declined (NotImplementedError) when rounding makes a
    reweighted float length negative.
    """
    n = len(G)
    if not n:
        return {}
    require_pairs(n, "johnson")
    h = _potentials(G, weight)
    W = G.weighted(weight).A
    rows, cols, vals = (asnumpy(a) for a in W.to_coo())
    if weight is None:
        vals = np.ones(rows.shape[0], dtype=np.int64)
    # W'(u, v) = w(u, v) + h(u) - h(v), summed left to right as networkx does
    vals = (vals + h[rows]) - h[cols]
    if vals.shape[0] and vals.min() < 0:
        raise NotImplementedError("the reweighted lengths w + h(u) - h(v) round below zero for these float weights")
    kind = "directed" if G.is_directed() else "undirected"
    engine = _EngineGraph(Matrix.from_coo(rows, cols, vals, nrows=n, ncols=n, dtype=vals.dtype, device=W.device),
                          kind=kind)
    indptr, indices, w = adjacency(G, weight)
    tail = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    w = (w + h[tail]) - h[indices]
    from ....algorithms import sssp

    nodes = G.nodes
    out = {}
    for s in range(n):
        r = sssp(engine, s, method="delta_stepping")
        idx, d = (asnumpy(a) for a in r.distance.to_coo())
        dist = np.zeros(n, dtype=d.dtype)
        dist[idx] = d
        reached = np.zeros(n, dtype=bool)
        reached[idx] = True
        order, parent, _ = settle_order(dist, reached, np.asarray([s]), indptr, indices, w)
        out[nodes[s]] = path_lists(order, parent, nodes)
    return out


__all__ = ["single_source_bellman_ford_path_length", "single_source_bellman_ford", "single_source_bellman_ford_path",
           "bellman_ford_path", "bellman_ford_path_length", "bellman_ford_predecessor_and_distance",
           "goldberg_radzik", "all_pairs_bellman_ford_path_length", "all_pairs_bellman_ford_path",
           "negative_edge_cycle", "johnson"]
