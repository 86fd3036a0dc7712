"""networkx's breadth-first search API on the engine's BFS, in networkx's exact order.

The levels come from the engine (``semiring.algorithms.bfs``, or masked products from several
sources); the order in which networkx yields edges and layer members, and the parent it picks,
are rebuilt from them and the adjacency order (:func:`semiring.nx.algorithms.queue_order`).
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from ... import _checks
from ..algorithms.traversal import levels, queue_order
from ._common import checked_by


def _bfs_reason(G, source, reverse=False, depth_limit=None, sort_neighbors=None):
    if sort_neighbors is not None:
        return "sort_neighbors orders each node's neighbours by a Python callable"
    return _checks.reason(_checks.integer, depth_limit, "", "depth_limit", none=True)


def _not_in_graph(G, node):
    return nx.NetworkXError(f"The node {node} is not in the {'digraph' if G.is_directed() else 'graph'}.")


def _tree(G, source, reverse, depth_limit):
    """networkx's BFS-tree edges (parent, child) in the order it yields them."""
    if source not in G:  # networkx's G.neighbors(source) raises this on the first next()
        raise _not_in_graph(G, source)
    s = G.index[source]
    reverse = reverse and G.is_directed()
    graph = G.reverse if reverse else G.structure
    indptr, indices = G.pred_order if reverse else G.order
    lv = levels(graph, [s], None if depth_limit is None else max(0, depth_limit))
    layers, parent = queue_order(lv, indptr, indices, [s])
    nodes = G.nodes
    for layer in layers[1:]:
        for v, p in zip(layer.tolist(), parent[layer].tolist()):
            yield nodes[p], nodes[v]


@checked_by(_bfs_reason)
def bfs_edges(G, source, reverse=False, depth_limit=None, sort_neighbors=None):
    """networkx.bfs_edges: the BFS-tree edges from ``source``, in networkx's order (a generator).

    Raises (on the first ``next``) networkx.NetworkXError when ``source`` is not a node.
    """
    reason = _bfs_reason(G, source, reverse, depth_limit, sort_neighbors)
    if reason:
        raise NotImplementedError(reason)
    return _tree(G, source, reverse, depth_limit)


@checked_by(_bfs_reason)
def bfs_tree(G, source, reverse=False, depth_limit=None, sort_neighbors=None):
    """networkx.bfs_tree: the BFS tree as a networkx DiGraph (nodes added in networkx's order)."""
    reason = _bfs_reason(G, source, reverse, depth_limit, sort_neighbors)
    if reason:
        raise NotImplementedError(reason)
    T = nx.DiGraph()
    T.add_node(source)
    T.add_edges_from(_tree(G, source, reverse, depth_limit))
    return T


def bfs_layers(G, sources):
    """networkx.bfs_layers: lists of nodes by distance from ``sources``, in networkx's order (a
    generator). Raises (on the first ``next``) networkx.NetworkXError for a source not in G."""
    if sources in G:
        sources = [sources]
    first = list(set(sources))  # networkx's first layer is list(set(sources)), in that order
    for v in first:
        if v not in G:
            raise nx.NetworkXError(f"The node {v} is not in the graph.")
    if not first:
        return
    idx = [G.index[v] for v in first]
    indptr, indices = G.order
    layers, _ = queue_order(levels(G.structure, idx), indptr, indices, idx)
    nodes = G.nodes
    for layer in layers:
        yield [nodes[i] for i in layer.tolist()]


def _distance_reason(G, source, distance):
    return _checks.reason(_checks.integer, distance, "", "distance")


@checked_by(_distance_reason)
def descendants_at_distance(G, source, distance):
    """networkx.descendants_at_distance: the set of nodes exactly ``distance`` hops from ``source``.

    Raises networkx.NetworkXError when ``source`` is not a node.
    """
    if source not in G:
        raise nx.NetworkXError(f"The node {source} is not in the graph.")
    reason = _distance_reason(G, source, distance)
    if reason:
        raise NotImplementedError(reason)
    if distance < 0:
        return set()
    lv = levels(G.structure, [G.index[source]], int(distance))
    return {G.nodes[i] for i in np.flatnonzero(lv == distance).tolist()}


@checked_by(lambda G, source, depth_limit=None, sort_neighbors=None: _bfs_reason(G, source, False, depth_limit,
                                                                             sort_neighbors))
def bfs_predecessors(G, source, depth_limit=None, sort_neighbors=None):
    """networkx.bfs_predecessors: ``(node, parent)`` along the BFS tree, in networkx's order (a
    generator). Raises (on the first ``next``) networkx.NetworkXError when ``source`` is not a node."""
    for s, t in _tree(G, source, False, depth_limit):
        yield t, s


@checked_by(lambda G, source, depth_limit=None, sort_neighbors=None: _bfs_reason(G, source, False, depth_limit,
                                                                             sort_neighbors))
def bfs_successors(G, source, depth_limit=None, sort_neighbors=None):
    """networkx.bfs_successors: ``(node, [its BFS-tree children])`` in networkx's order (a
    generator; the source comes first even without children)."""
    parent, children = source, []
    for p, c in _tree(G, source, False, depth_limit):
        if p == parent:
            children.append(c)
            continue
        yield parent, children
        parent, children = p, [c]
    yield parent, children


def _reached(G, source, reverse):
    if source not in G:
        raise _not_in_graph(G, source)
    s = G.index[source]
    graph = G.reverse if reverse and G.is_directed() else G.structure
    lv = levels(graph, [s])
    return {G.nodes[i] for i in np.flatnonzero(lv > 0).tolist()}


def descendants(G, source):
    """networkx.descendants: the nodes reachable from ``source`` (itself excluded), by one engine BFS.

    Raises networkx.NetworkXError when ``source`` is not a node.
    """
    return _reached(G, source, False)


def ancestors(G, source):
    """networkx.ancestors: the nodes with a path to ``source`` (itself excluded), by one engine
    BFS along reversed edges.

    Raises networkx.NetworkXError when ``source`` is not a node.
    """
    return _reached(G, source, True)


def node_connected_component(G, n):
    """networkx.node_connected_component (undirected graphs): the node set of n's component, by
    one engine BFS.

    Raises KeyError when n is not a node (as networkx's own search does).
    """
    if n not in G:
        raise KeyError(n)
    lv = levels(G.structure, [G.index[n]])
    return {G.nodes[i] for i in np.flatnonzero(lv >= 0).tolist()}


__all__ = ["bfs_edges", "bfs_tree", "bfs_layers", "descendants_at_distance", "bfs_predecessors", "bfs_successors",
           "descendants", "ancestors", "node_connected_component"]
