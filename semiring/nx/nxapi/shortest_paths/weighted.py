"""networkx's weighted shortest-path lengths on the engine's SSSP (``semiring.algorithms.sssp``).

Dijkstra's functions run delta-stepping (the same distances for non-negative weights) and decline
negative weights, where networkx's own Dijkstra decides what to do. Bellman-Ford runs the
engine's Bellman-Ford, which takes negative weights and proves a reachable negative cycle
(raised as networkx.NetworkXUnbounded, as networkx does).
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from .... import algorithms as _alg
from ....exceptions import DomainMismatch, InvalidValue, NegativeCycleError
from .._common import checked_by, distance_dict, entries, real_reason, weight_reason


def reject_negative(G, weight):
    """Dijkstra's functions decline negative weights (networkx's Dijkstra may raise or not)."""
    if G.min_weight(weight) < 0:
        raise NotImplementedError(f"negative {weight!r} weights (smallest {G.min_weight(weight)}): networkx's "
                                  "Dijkstra decides what those give; use Bellman-Ford for a defined answer")


def distances(G, source, weight, method, *, reverse=False):
    """(indices, distances) from the node ``source``: host arrays, unreachable nodes absent.

    ``method`` is "dijkstra" (delta-stepping; negative weights declined) or "bellman-ford".
    A negative cycle reachable from the source raises networkx.NetworkXUnbounded.
    """
    graph = G.weighted(weight, reverse=reverse)
    if method == "dijkstra":
        reject_negative(G, weight)
    try:
        r = _alg.sssp(graph, G.index[source], method="delta_stepping" if method == "dijkstra" else "bellman_ford")
    except NegativeCycleError:
        raise nx.NetworkXUnbounded("Negative cycle detected.") from None
    except (DomainMismatch, InvalidValue) as exc:  # int64 overflow risk, NaN weights: networkx's Python numbers
        raise NotImplementedError(f"the engine declines these weights: {exc}") from None
    return entries(r.distance)


def _at(idx, vals, t):
    hit = np.flatnonzero(idx == t)
    return vals[hit[0]].item() if hit.shape[0] else None


def _weight_reason(G, *args, weight="weight", **kwargs):
    return weight_reason(weight)


def _sssp_reason(G, source, cutoff=None, weight="weight"):
    return weight_reason(weight) or real_reason(cutoff, "cutoff")


@checked_by(_sssp_reason)
def single_source_dijkstra_path_length(G, source, cutoff=None, weight="weight"):
    """networkx.single_source_dijkstra_path_length: ``{node: distance}`` within ``cutoff``.

    Raises networkx.NodeNotFound when ``source`` is not a node.
    """
    if source not in G:
        raise nx.NodeNotFound(f"Node {source} not found in graph")
    idx, vals = distances(G, source, weight, "dijkstra")
    return distance_dict(G.nodes, idx, vals, cutoff=cutoff, source=G.index[source])


@checked_by(_weight_reason)
def dijkstra_path_length(G, source, target, weight="weight"):
    """networkx.dijkstra_path_length: the distance from ``source`` to ``target``.

    Raises networkx.NodeNotFound (no ``source``) or networkx.NetworkXNoPath (``target`` not reached).
    """
    if source not in G:
        raise nx.NodeNotFound(f"Node {source} not found in graph")
    if source == target:
        return 0
    idx, vals = distances(G, source, weight, "dijkstra")
    d = _at(idx, vals, G.index[target]) if target in G else None
    if d is None:
        raise nx.NetworkXNoPath(f"Node {target} not reachable from {source}")
    return d


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
    if source not in G:
        raise nx.NodeNotFound(f"Source {source} not in G")
    idx, vals = distances(G, source, weight, "bellman-ford")
    d = _at(idx, vals, G.index[target]) if target in G else None
    if d is None:
        raise nx.NetworkXNoPath(f"node {target} not reachable from {source}")
    return d


__all__ = ["single_source_dijkstra_path_length", "dijkstra_path_length", "bellman_ford_path_length",
           "distances", "reject_negative"]
