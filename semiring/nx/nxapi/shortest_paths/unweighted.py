"""networkx's unweighted shortest paths on the engine's BFS levels, in networkx's exact order.

Every function here is a breadth-first search from one node (or to it, along reversed edges):
the levels come from the engine (:func:`semiring.nx.algorithms.levels`), and the discovery order
and the parent networkx records for each node (its first discoverer) are rebuilt from them and
the adjacency order (:func:`semiring.nx.algorithms.queue_order`). So the paths are networkx's
paths and the dicts have networkx's key order. ``bidirectional_shortest_path`` runs networkx's
alternating two-sided search, one engine product per level.
"""

from __future__ import annotations

import math

import networkx as nx
import numpy as np

from .... import _checks
from ...algorithms.paths import bfs_order, bidirectional_bfs, path_lists
from .._common import checked_by, depth_of


def lengths(G, source, max_depth=None, *, reverse=False):
    """``{node: hops}`` from the node ``source`` (along reversed edges with ``reverse``), in
    networkx's discovery order."""
    order, _, lv = bfs_order(G, [G.index[source]], max_depth, reverse=reverse)
    nodes = G.nodes
    return {nodes[i]: d for i, d in zip(order.tolist(), lv[order].tolist())}


def paths_from(G, source, max_depth=None, *, reverse=False):
    """``{node: path}`` from ``source`` (to it, with ``reverse``), networkx's BFS paths and order."""
    order, parent, _ = bfs_order(G, [G.index[source]], max_depth, reverse=reverse)
    return path_lists(order, parent, G.nodes, reverse=reverse)


def _cutoff_reason(G, source=None, target=None, cutoff=None):
    return _checks.reason(_checks.real, cutoff, "", "cutoff", none=True)


@checked_by(_cutoff_reason)
def single_source_shortest_path_length(G, source, cutoff=None):
    """networkx.single_source_shortest_path_length: ``{node: hops}`` within ``cutoff`` hops, in
    networkx's discovery order.

    Raises networkx.NodeNotFound when ``source`` is not a node.
    """
    if source not in G:
        raise nx.NodeNotFound(f"Source {source} is not in G")
    return lengths(G, source, depth_of(cutoff))


@checked_by(_cutoff_reason)
def all_pairs_shortest_path_length(G, cutoff=None):
    """networkx.all_pairs_shortest_path_length: ``(node, {node: hops})`` for every node, lazily
    (one engine BFS per node)."""
    depth = depth_of(cutoff)
    for v in G.nodes:
        yield v, lengths(G, v, depth)


@checked_by(_cutoff_reason)
def single_source_shortest_path(G, source, cutoff=None):
    """networkx.single_source_shortest_path: ``{node: [source, ..., node]}`` within ``cutoff``
    hops; networkx's paths (each node reached from its first discoverer) and order.

    Raises networkx.NodeNotFound when ``source`` is not a node.
    """
    if source not in G:
        raise nx.NodeNotFound(f"Source {source} not in G")
    return paths_from(G, source, depth_of(cutoff))


@checked_by(_cutoff_reason)
def single_target_shortest_path(G, target, cutoff=None):
    """networkx.single_target_shortest_path: ``{node: [node, ..., target]}`` within ``cutoff``
    hops (a BFS along reversed edges), networkx's paths and order.

    Raises networkx.NodeNotFound when ``target`` is not a node.
    """
    if target not in G:
        raise nx.NodeNotFound(f"Target {target} not in G")
    return paths_from(G, target, depth_of(cutoff), reverse=True)


@checked_by(_cutoff_reason)
def single_target_shortest_path_length(G, target, cutoff=None):
    """networkx.single_target_shortest_path_length: ``{node: hops to target}`` within ``cutoff``,
    in networkx's discovery order (a BFS along reversed edges).

    Raises networkx.NodeNotFound when ``target`` is not a node.
    """
    if target not in G:
        raise nx.NodeNotFound(f"Target {target} is not in G")
    return lengths(G, target, depth_of(cutoff), reverse=True)


@checked_by(_cutoff_reason)
def all_pairs_shortest_path(G, cutoff=None):
    """networkx.all_pairs_shortest_path: ``(node, {node: path})`` for every node, lazily (one
    engine BFS per node)."""
    depth = depth_of(cutoff)
    for v in G.nodes:
        yield v, paths_from(G, v, depth)


def bidirectional_shortest_path(G, source, target):
    """networkx.bidirectional_shortest_path: the path networkx's two-sided BFS finds.

    Raises networkx.NodeNotFound for a missing ``source`` or ``target`` and
    networkx.NetworkXNoPath when ``target`` is not reachable.
    """
    if source not in G:
        raise nx.NodeNotFound(f"Source {source} is not in G")
    if target not in G:
        raise nx.NodeNotFound(f"Target {target} is not in G")
    path = bidirectional_bfs(G, G.index[source], G.index[target])
    if path is None:
        raise nx.NetworkXNoPath(f"No path between {source} and {target}.")
    return [G.nodes[i] for i in path]


def _predecessor_reason(G, source, target=None, cutoff=None, return_seen=None):
    return _checks.reason(_checks.real, cutoff, "", "cutoff", none=True)


def _predecessor_depth(cutoff):
    """networkx's ``if cutoff and cutoff <= level: break`` after each level, as a level count."""
    if not cutoff or cutoff == math.inf:
        return None
    return max(1, math.ceil(cutoff))


@checked_by(_predecessor_reason)
def predecessor(G, source, target=None, cutoff=None, return_seen=None):
    """networkx.predecessor: each node's predecessors on shortest paths from ``source`` (every
    node one level nearer with an edge to it, in networkx's discovery order), and with
    ``return_seen`` the levels; for one ``target`` its list (and level).

    Raises networkx.NodeNotFound when ``source`` is not a node.
    """
    if source not in G:
        raise nx.NodeNotFound(f"Source {source} not in G")
    order, _, lv = bfs_order(G, [G.index[source]], _predecessor_depth(cutoff))
    preds = _level_predecessors(G, order, lv)
    nodes = G.nodes
    if target is not None:
        t = G.index.get(target) if target in G else None
        if t is None or lv[t] < 0:
            return ([], -1) if return_seen else []
        return (preds[t], int(lv[t])) if return_seen else preds[t]
    pred = {nodes[i]: preds[i] for i in order.tolist()}
    if return_seen:
        return pred, {nodes[i]: d for i, d in zip(order.tolist(), lv[order].tolist())}
    return pred


def _level_predecessors(G, order, lv):
    """node index -> [labels of its in-neighbours one level nearer, in discovery order]."""
    n = len(G)
    indptr, indices = G.order
    rank = np.full(n, -1, dtype=np.int64)
    rank[order] = np.arange(order.shape[0])
    tail = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    keep = (lv[tail] >= 0) & (lv[indices] == lv[tail] + 1)
    t, h = tail[keep], indices[keep]
    o = np.lexsort((rank[t], h))  # by head, then by the tail's discovery rank
    t, h = t[o].tolist(), h[o].tolist()
    nodes = G.nodes
    out = {i: [] for i in order.tolist()}
    for a, b in zip(t, h):
        out[b].append(nodes[a])
    return out


__all__ = ["single_source_shortest_path_length", "all_pairs_shortest_path_length", "single_source_shortest_path",
           "single_target_shortest_path", "single_target_shortest_path_length", "all_pairs_shortest_path",
           "bidirectional_shortest_path", "predecessor", "lengths", "paths_from"]
