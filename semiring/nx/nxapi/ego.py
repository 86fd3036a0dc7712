"""networkx.ego_graph on the engine's BFS levels (or SSSP distances with ``distance``).

The nodes within ``radius`` of ``n`` come from the engine (``semiring.algorithms.bfs`` levels,
on ``A + A'`` with ``undirected=True``; delta-stepping SSSP with ``distance``); the subgraph is
rebuilt as networkx's ``G.subgraph(sp).copy()`` (``semiring.nx.nxapi._graphs``), whose node
order is the iteration order of a set filled in the order of ``sp`` when the ego network holds
fewer than half of G's nodes. Without ``distance`` that order is networkx's BFS discovery order,
rebuilt exactly (on the adjacency order of ``G.to_undirected()`` with ``undirected=True``); with
``distance`` the nodes are inserted by (distance, node order), where networkx inserts them in
its Dijkstra's settling order, so such a small ego graph may list its nodes in another order.
"""

from __future__ import annotations


import networkx as nx
import numpy as np

from ... import _checks
from ... import algorithms as _alg
from ...exceptions import DomainMismatch, InvalidValue
from ..algorithms.traversal import levels, queue_order
from ._common import checked_by, depth_of, entries, weight_reason
from ._graphs import attribute_reason, subgraph_copy
from .bipartite import undirected as _undirected


def _reason(G, n, radius=1, center=True, undirected=False, distance=None):
    if G.is_multigraph():
        return "a multigraph's subgraph keeps edge keys and each parallel edge's data; the backend graph holds neither"
    reason = _checks.reason(_checks.real, radius, "", "radius", none=True)
    if reason:
        return reason
    why = weight_reason(distance)
    if why:
        return why.replace("weight", "distance", 1)
    if distance is not None and undirected and G.is_directed():
        return ("undirected=True with distance on a directed graph: G.to_undirected() keeps, per node pair, the "
                "attributes of one direction by networkx's insertion order")
    return attribute_reason(G)


def copy_order(G):
    """(indptr, indices): each node's neighbours in the order of ``G.to_undirected()`` (networkx
    adds the edges u -> v in G's adjacency order; a neighbour takes its place when first added)."""
    n = len(G)
    indptr, indices = G.order
    tails = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    t = np.arange(indices.shape[0], dtype=np.int64)
    rows = np.concatenate([tails, indices])
    cols = np.concatenate([indices, tails])
    when = np.concatenate([2 * t, 2 * t + 1])
    o = np.lexsort((when, cols, rows))
    rows, cols, when = rows[o], cols[o], when[o]
    first = np.r_[True, (rows[1:] != rows[:-1]) | (cols[1:] != cols[:-1])] if rows.shape[0] else rows.astype(bool)
    rows, cols, when = rows[first], cols[first], when[first]
    o = np.lexsort((when, rows))
    out = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows, minlength=n), out=out[1:])
    return out, cols[o]


def _bfs_members(G, s, radius, undirected):
    """The nodes within ``radius`` hops of s in networkx's discovery order."""
    both = undirected and G.is_directed()
    graph = _undirected(G) if both else G.structure
    lv = levels(graph, [s], depth_of(radius))
    order = copy_order(G) if undirected else G.order
    layers, _ = queue_order(lv, *order, [s])
    return np.concatenate(layers)


def _sssp_members(G, s, radius, distance):
    """The nodes within ``radius`` of s by ``distance``, by (distance, node order)."""
    if G.min_weight(distance) < 0:
        raise NotImplementedError(f"negative {distance!r} values: networkx's Dijkstra decides what those give")
    graph = G.weighted(distance)
    try:
        r = _alg.sssp(graph, s, method="delta_stepping")
    except (DomainMismatch, InvalidValue) as exc:
        raise NotImplementedError(f"the engine declines these distances: {exc}") from None
    idx, d = entries(r.distance)
    if radius is not None:
        keep = (d <= radius) | (idx == s)
        idx, d = idx[keep], d[keep]
    return idx[np.lexsort((idx, d))]


@checked_by(_reason)
def ego_graph(G, n, radius=1, center=True, undirected=False, distance=None):
    """networkx.ego_graph: the subgraph induced by the nodes within ``radius`` of ``n`` (hops,
    or the sum of ``distance`` along a shortest path), without ``n`` unless ``center``; G's
    graph and edge attributes.

    Raises networkx.NodeNotFound when n is not a node.
    """
    if n not in G:
        raise nx.NodeNotFound(f"Source {n} is not in G" if distance is None else f"Node {n} not found in graph")
    s = G.index[n]
    if distance is None:
        members = _bfs_members(G, s, radius, undirected)
    else:
        members = _sssp_members(G, s, radius, distance)
    return subgraph_copy(G, members, drop=None if center else s)


__all__ = ["ego_graph", "copy_order"]
