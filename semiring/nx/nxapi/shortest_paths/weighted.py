"""networkx's Dijkstra functions on the engine's SSSP (``semiring.algorithms.sssp``).

The distances come from the engine's delta-stepping (the same distances as Dijkstra for
non-negative weights; a set of sources through a super source). networkx's dicts are ordered
as its heap settles the nodes, and its paths run through the first settled tight predecessor;
both are rebuilt from the distances and the adjacency order
(:func:`semiring.nx.algorithms.paths.settle_order`). Where every edge has the same length
(``weight=None``, or an attribute equal on every edge) the heap settles in BFS order, which the
engine's levels give directly.

Negative weights are declined (NotImplementedError: networkx's Dijkstra raises or not depending
on the order it meets them); the Bellman-Ford functions take them.
"""

from __future__ import annotations

from dataclasses import dataclass

import networkx as nx
import numpy as np

from .... import _checks
from ....backends.cpu import _jit
from ....backends.cpu import compiled_pairs as _pairs

from ...algorithms.paths import (
    adjacency, bfs_order, check_weights, distances, first_push_order, path_lists, path_to, settle_order, uniform,
)
from .._common import checked_by, weight_reason


def reject_negative(G, weight):
    """Dijkstra's functions decline negative weights (networkx's Dijkstra may raise or not)."""
    if weight is not None and G.min_weight(weight) < 0:
        raise NotImplementedError(f"negative {weight!r} weights (smallest {G.min_weight(weight)}): networkx's "
                                  "Dijkstra decides what those give; use Bellman-Ford for a defined answer")


@dataclass
class Search:
    """networkx's Dijkstra from ``sources``, as host arrays over node indices.

    ``order``: the settled nodes in networkx's settle order; ``dist``: lengths (valid at
    ``order``); ``parent``: each node's previous node on its path (-1 for sources); ``rank``:
    position in ``order`` (-1 where not settled); ``adj``: (indptr, indices, w) in networkx's order.
    """

    order: np.ndarray
    dist: np.ndarray
    parent: np.ndarray
    rank: np.ndarray
    adj: tuple
    sources: np.ndarray


def _unique_indices(G, sources):
    seen = {}
    for s in sources:
        seen.setdefault(G.index[s], None)
    return np.fromiter(seen, dtype=np.int64, count=len(seen))


def search(G, sources, weight, cutoff=None, *, reverse=False, until=None):
    """networkx's Dijkstra from the nodes ``sources`` (within ``cutoff``); see :class:`Search`.

    ``until`` (a node index): only the nodes up to its distance are needed (networkx stops
    there). Along reversed edges with ``reverse``.
    """
    src = _unique_indices(G, sources)
    adj = indptr, indices, w = adjacency(G, weight, reverse=reverse)
    step = 1 if weight is None else uniform(w)
    n = len(G)
    if step is not None:
        # equal lengths: the heap settles in BFS order, the length being step * hops
        order, parent, lv = bfs_order(G, src, reverse=reverse)
        dist = _multiples(lv, step)
        if cutoff is not None:
            keep = dist[order] <= cutoff
            keep[: src.shape[0]] = True
            order = order[keep]
        rank = np.full(n, -1, dtype=np.int64)
        rank[order] = np.arange(order.shape[0])
        parent = np.where(rank >= 0, parent, -1)
        return Search(order, dist, parent, rank, adj, src)
    reject_negative(G, weight)
    dist, reached = distances(G, src, weight, "dijkstra", reverse=reverse)
    is_source = np.zeros(n, dtype=bool)
    is_source[src] = True
    if cutoff is not None:
        reached &= (dist <= cutoff) | is_source
    if until is not None and reached[until]:
        reached &= dist <= dist[until]
    order, parent, rank = settle_order(dist, reached, src, indptr, indices, w)
    return Search(order, dist, parent, rank, adj, src)


def _multiples(lv, step):
    """Lengths of paths of ``lv`` hops of length ``step`` each, summed one edge at a time as
    networkx does (exact for floats too)."""
    top = int(lv.max()) if lv.shape[0] else 0
    if isinstance(step, int):
        return np.where(lv >= 0, lv, 0).astype(np.int64) * step
    sums = [0]
    for _ in range(top):
        sums.append(sums[-1] + step)
    table = np.asarray(sums, dtype=np.float64)
    return table[np.maximum(lv, 0)]


def distance_dict(G, s):
    """``{node: length}`` in networkx's settle order."""
    nodes = G.nodes
    return {nodes[i]: d for i, d in zip(s.order.tolist(), s.dist[s.order].tolist())}


def _check_sources(G, sources):
    if not sources:
        raise ValueError("sources must not be empty")
    for v in sources:
        if v not in G:
            raise nx.NodeNotFound(f"Node {v} not found in graph")


def _sources_reason(G, sources, *args, cutoff=None, weight="weight", **kwargs):
    return weight_reason(weight) or _checks.reason(_checks.real, cutoff, "", "cutoff", none=True)


def _sssp_reason(G, source, *args, cutoff=None, weight="weight", **kwargs):
    return weight_reason(weight) or _checks.reason(_checks.real, cutoff, "", "cutoff", none=True)


def _weight_reason(G, *args, weight="weight", **kwargs):
    return weight_reason(weight)


def _all_reason(G, cutoff=None, weight="weight"):
    return weight_reason(weight) or _checks.reason(_checks.real, cutoff, "", "cutoff", none=True)


@checked_by(_sources_reason)
def multi_source_dijkstra_path_length(G, sources, cutoff=None, weight="weight"):
    """networkx.multi_source_dijkstra_path_length: ``{node: distance from the nearest source}``
    within ``cutoff``, in networkx's settle order.

    Raises ValueError for no sources, networkx.NodeNotFound for a source not in G.
    """
    _check_sources(G, sources)
    return distance_dict(G, search(G, sources, weight, cutoff))


@checked_by(_sources_reason)
def multi_source_dijkstra(G, sources, target=None, cutoff=None, weight="weight"):
    """networkx.multi_source_dijkstra: ``(distances, paths)`` (dicts in settle order), or
    ``(distance, path)`` to ``target``; paths through the first settled tight predecessor, as
    networkx's.

    Raises ValueError for no sources, networkx.NodeNotFound for a source not in G and
    networkx.NetworkXNoPath when ``target`` is not reached within ``cutoff``.
    """
    _check_sources(G, sources)
    if target in sources:
        return (0, [target])
    t = G.index[target] if target is not None and target in G else None
    s = search(G, sources, weight, cutoff, until=t)
    if target is None:
        return distance_dict(G, s), path_lists(s.order, s.parent, G.nodes)
    if t is None or s.rank[t] < 0:
        raise nx.NetworkXNoPath(f"No path to {target}.")
    return s.dist[t].item(), path_to(s.parent, t, G.nodes)


@checked_by(_sources_reason)
def multi_source_dijkstra_path(G, sources, cutoff=None, weight="weight"):
    """networkx.multi_source_dijkstra_path: ``{node: path from the nearest source}`` in settle order."""
    _check_sources(G, sources)
    s = search(G, sources, weight, cutoff)
    return path_lists(s.order, s.parent, G.nodes)


@checked_by(_sssp_reason)
def single_source_dijkstra(G, source, target=None, cutoff=None, weight="weight"):
    """networkx.single_source_dijkstra: as :func:`multi_source_dijkstra` from ``{source}``."""
    return multi_source_dijkstra(G, {source}, target=target, cutoff=cutoff, weight=weight)


@checked_by(_sssp_reason)
def single_source_dijkstra_path(G, source, cutoff=None, weight="weight"):
    """networkx.single_source_dijkstra_path: ``{node: path}`` in settle order."""
    return multi_source_dijkstra_path(G, {source}, cutoff=cutoff, weight=weight)


@checked_by(_sssp_reason)
def single_source_dijkstra_path_length(G, source, cutoff=None, weight="weight"):
    """networkx.single_source_dijkstra_path_length: ``{node: distance}`` within ``cutoff``, in
    networkx's settle order.

    Raises networkx.NodeNotFound when ``source`` is not a node.
    """
    return multi_source_dijkstra_path_length(G, {source}, cutoff=cutoff, weight=weight)


@checked_by(_weight_reason)
def dijkstra_path(G, source, target, weight="weight"):
    """networkx.dijkstra_path: networkx's shortest path from ``source`` to ``target``.

    Raises networkx.NodeNotFound (no ``source``) or networkx.NetworkXNoPath.
    """
    return single_source_dijkstra(G, source, target=target, weight=weight)[1]


@checked_by(_weight_reason)
def dijkstra_path_length(G, source, target, weight="weight"):
    """networkx.dijkstra_path_length: the distance from ``source`` to ``target``.

    Raises networkx.NodeNotFound (no ``source``) or networkx.NetworkXNoPath (``target`` not reached).
    """
    if source not in G:
        raise nx.NodeNotFound(f"Node {source} not found in graph")
    if source == target:
        return 0
    if target not in G:
        raise nx.NetworkXNoPath(f"Node {target} not reachable from {source}")
    reject_negative(G, weight)
    dist, reached = distances(G, [G.index[source]], weight, "dijkstra")
    t = G.index[target]
    if not reached[t]:
        raise nx.NetworkXNoPath(f"Node {target} not reachable from {source}")
    return dist[t].item()


@checked_by(_sssp_reason)
def dijkstra_predecessor_and_distance(G, source, cutoff=None, weight="weight"):
    """networkx.dijkstra_predecessor_and_distance: ``(pred, dist)``; ``pred[v]`` lists every
    tight predecessor of v in settle order (dict in networkx's push order), ``dist`` in settle order.

    Raises networkx.NodeNotFound when ``source`` is not a node.
    """
    if source not in G:
        raise nx.NodeNotFound(f"Node {source} is not found in the graph")
    s = search(G, [source], weight, cutoff)
    indptr, indices, w = s.adj
    n = len(G)
    tail = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    keep = (s.rank[tail] >= 0) & (s.rank[indices] >= 0)
    t, h, ww = tail[keep], indices[keep], w[keep]
    tight = s.dist[t] + ww == s.dist[h]
    t, h = t[tight], h[tight]
    o = np.lexsort((s.rank[t], h))
    nodes = G.nodes
    lists = {}
    for a, b in zip(t[o].tolist(), h[o].tolist()):
        lists.setdefault(b, []).append(nodes[a])
    pushed = first_push_order(s.dist, s.rank, s.sources, indptr, indices, w, cutoff)
    pred = {nodes[i]: lists.get(i, []) for i in pushed.tolist()}
    return pred, distance_dict(G, s)


def _eager(G, weight):
    """Declines found before a lazy result is handed out (networkx cannot fall back later)."""
    reject_negative(G, weight)
    check_weights(G, weight)


@checked_by(_all_reason)
def all_pairs_dijkstra(G, cutoff=None, weight="weight"):
    """networkx.all_pairs_dijkstra: ``(node, (distances, paths))`` for every node, lazily."""
    _eager(G, weight)
    return ((v, single_source_dijkstra(G, v, cutoff=cutoff, weight=weight)) for v in G.nodes)


@checked_by(_all_reason)
def all_pairs_dijkstra_path_length(G, cutoff=None, weight="weight"):
    """networkx.all_pairs_dijkstra_path_length: ``(node, {node: distance})`` for every node, lazily."""
    _eager(G, weight)
    return ((v, single_source_dijkstra_path_length(G, v, cutoff=cutoff, weight=weight)) for v in G.nodes)


@checked_by(_all_reason)
def all_pairs_dijkstra_path(G, cutoff=None, weight="weight"):
    """networkx.all_pairs_dijkstra_path: ``(node, {node: path})`` for every node, lazily."""
    _eager(G, weight)
    return ((v, single_source_dijkstra_path(G, v, cutoff=cutoff, weight=weight)) for v in G.nodes)


@checked_by(_weight_reason)
def bidirectional_dijkstra(G, source, target, weight="weight"):
    """networkx.bidirectional_dijkstra: ``(distance, path)`` from ``source`` to ``target``.

    Where the compiled CPU loops run (the SuiteSparse backend with numba), this is networkx's
    two-sided search itself, compiled (:func:`semiring.backends.cpu.compiled_pairs.bidirectional_dijkstra`),
    and returns networkx's path; otherwise the engine's one-sided search gives the distance and
    the path networkx's ``dijkstra_path`` returns (the same length; where several shortest paths
    exist, networkx's two-sided search can pick another).

    Raises networkx.NodeNotFound for a missing ``source`` or ``target`` and
    networkx.NetworkXNoPath when ``target`` is not reachable.
    """
    if source not in G:
        raise nx.NodeNotFound(f"Source {source} is not in G")
    if target not in G:
        raise nx.NodeNotFound(f"Target {target} is not in G")
    if source == target:
        return (0, [source])
    t = G.index[target]
    if _jit.enabled():
        _eager(G, weight)
        got = _pairs.bidirectional_dijkstra(adjacency(G, weight), adjacency(G, weight, reverse=True),
                                            G.index[source], t)
        if got is None:
            raise nx.NetworkXNoPath(f"No path between {source} and {target}.")
        return got[0].item(), [G.nodes[i] for i in got[1]]
    s = search(G, [source], weight, until=t)
    if s.rank[t] < 0:
        raise nx.NetworkXNoPath(f"No path between {source} and {target}.")
    return s.dist[t].item(), path_to(s.parent, t, G.nodes)

__all__ = ["single_source_dijkstra_path_length", "dijkstra_path_length", "multi_source_dijkstra_path_length",
           "multi_source_dijkstra", "multi_source_dijkstra_path", "single_source_dijkstra",
           "single_source_dijkstra_path", "dijkstra_path", "dijkstra_predecessor_and_distance",
           "all_pairs_dijkstra", "all_pairs_dijkstra_path_length", "all_pairs_dijkstra_path",
           "bidirectional_dijkstra", "search", "distance_dict", "reject_negative"]
