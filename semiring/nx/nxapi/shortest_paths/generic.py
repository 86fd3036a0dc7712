"""networkx.shortest_path_length: one entry point over the unweighted, Dijkstra and Bellman-Ford
adapters, following networkx's own dispatch on (source, target, weight, method)."""

from __future__ import annotations

import networkx as nx

from .._common import checked_by, distance_dict, weight_reason
from .unweighted import all_pairs_shortest_path_length, lengths
from .weighted import distances, reject_negative

_METHODS = ("dijkstra", "bellman-ford")


def _reason(G, source=None, target=None, weight=None, method="dijkstra"):
    return weight_reason(weight)


def _from(G, source, weight, method, *, reverse=False, missing="Node {} not found in graph"):
    """``{node: length}`` from ``source`` (to it, with ``reverse``)."""
    if source not in G:
        raise nx.NodeNotFound(missing.format(source))
    if method == "unweighted":
        return lengths(G, source, reverse=reverse)
    idx, vals = distances(G, source, weight, method, reverse=reverse)
    return distance_dict(G.nodes, idx, vals)


def _all_pairs(G, weight, method):
    for v in G.nodes:
        yield v, _from(G, v, weight, method, missing="Source {} not in G")


def _pair(G, source, target, weight, method):
    if method == "unweighted":
        if source not in G:
            raise nx.NodeNotFound(f"Source {source} is not in G")
        if target not in G:
            raise nx.NodeNotFound(f"Target {target} is not in G")
        d = lengths(G, source).get(target) if source != target else 0
        if d is None:
            raise nx.NetworkXNoPath(f"No path between {source} and {target}.")
        return d
    if method == "dijkstra":
        from .weighted import dijkstra_path_length

        return dijkstra_path_length(G, source, target, weight)
    from .weighted import bellman_ford_path_length

    return bellman_ford_path_length(G, source, target, weight)


@checked_by(_reason)
def shortest_path_length(G, source=None, target=None, weight=None, method="dijkstra"):
    """networkx.shortest_path_length: hops (``weight=None``), Dijkstra or Bellman-Ford lengths.

    Returns what networkx returns for each case: an iterator of ``(node, dict)`` without source
    and target, a dict with one of them (lengths *to* ``target`` without ``source``), a number
    with both.

    Raises ValueError for an unknown method, networkx.NodeNotFound, networkx.NetworkXNoPath and
    networkx.NetworkXUnbounded as networkx does.
    """
    if method not in _METHODS:
        raise ValueError(f"method not supported: {method}")
    method = "unweighted" if weight is None else method
    if method == "dijkstra":
        reject_negative(G, weight)  # here, not lazily inside an iterator
    if source is None:
        if target is None:
            if method == "unweighted":
                return all_pairs_shortest_path_length(G)
            return _all_pairs(G, weight, method)
        missing = "Source {} is not in G" if method == "unweighted" else (
            "Node {} not found in graph" if method == "dijkstra" else "Source {} not in G")
        return _from(G, target, weight, method, reverse=G.is_directed(), missing=missing)
    if target is None:
        missing = "Source {} is not in G" if method == "unweighted" else (
            "Node {} not found in graph" if method == "dijkstra" else "Source {} not in G")
        return _from(G, source, weight, method, missing=missing)
    return _pair(G, source, target, weight, method)


__all__ = ["shortest_path_length"]
