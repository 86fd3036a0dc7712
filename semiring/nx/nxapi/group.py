"""networkx's group degree and group closeness centralities on the engine.

A group S's neighbours are one product of its indicator with the adjacency,
``N = s any.pair A`` (``A'`` for in-neighbours), masked to leave S out (``~s.S``); group
closeness sums the distances from the nearest member of S (a BFS from all of S at once, or
Bellman-Ford ``min.plus`` rounds with all of S at distance 0).
"""

from __future__ import annotations

from collections.abc import Iterator

import networkx as nx
import numpy as np

from ... import core as _core
from ...core.vector import Vector
from ...ops import monoid, semiring
from ..algorithms.searches import distance_matrix
from ..algorithms.traversal import levels
from ._common import checked_by, weight_reason
from .closeness import weights_reason


def _group_reason(G, S):
    if isinstance(S, Iterator):
        return "networkx reads S twice (its members, then its size): an iterator is used up by the first"
    return None


def _not_in_graph(G, node):
    return nx.NetworkXError(f"The node {node} is not in the {'digraph' if G.is_directed() else 'graph'}.")


def _group_degree(G, S, reverse):
    members = []
    for i in S:
        if i not in G:
            raise _not_in_graph(G, i)
        members.append(G.index[i])
    graph = G.reverse if reverse else G.structure
    n = len(G)
    s = Vector.from_coo(np.unique(np.asarray(members, dtype=np.int64)), None, size=n, dtype="bool",
                        device=graph.A.device)
    # N<!s.S> = s any.pair A   (the neighbours of the group outside it)
    reached = _core.vxm(s, graph.A, semiring.any_pair, mask=~s.S).nvals if members else 0
    centrality = reached
    centrality /= len(G) - len(S)
    return centrality


@checked_by(_group_reason)
def group_degree_centrality(G, S):
    """networkx.group_degree_centrality: the share of the nodes outside S adjacent to S (successors
    in a directed graph).

    Raises networkx.NetworkXError for a member of S not in G, and ZeroDivisionError when S holds
    every node, as networkx does.
    """
    return _group_degree(G, S, reverse=False)


@checked_by(_group_reason)
def group_in_degree_centrality(G, S):
    """networkx.group_in_degree_centrality (directed graphs): nodes outside S with an edge into S."""
    if not G.is_directed():
        raise nx.NetworkXNotImplemented("not implemented for undirected type")
    return _group_degree(G, S, reverse=True)


@checked_by(_group_reason)
def group_out_degree_centrality(G, S):
    """networkx.group_out_degree_centrality (directed graphs): nodes outside S with an edge from S."""
    if not G.is_directed():
        raise nx.NetworkXNotImplemented("not implemented for undirected type")
    return _group_degree(G, S, reverse=False)


@checked_by(lambda G, S, weight=None: weight_reason(weight))
def group_closeness_centrality(G, S, weight=None):
    """networkx.group_closeness_centrality: ``|V - S| / sum of the distances from S`` (to S along
    reversed edges of a directed graph; unreachable nodes add 0; 0 where the sum is 0).

    Raises ValueError for an empty S and networkx.NodeNotFound for a member not in G, as
    networkx's multi-source Dijkstra does.
    """
    reason = weight_reason(weight) or weights_reason(G, weight)
    if reason:
        raise NotImplementedError(reason)
    S = set(S)
    if not S:
        raise ValueError("sources must not be empty")
    for s in S:
        if s not in G:
            raise nx.NodeNotFound(f"Node {s} not found in graph")
    src = np.array(sorted(G.index[s] for s in S), dtype=np.int64)
    reverse = G.is_directed()
    if weight is None:
        lv = levels(G.reverse if reverse else G.structure, src)
        closeness = int(lv[lv > 0].sum())
    else:
        D = distance_matrix(G.weighted(weight, reverse=reverse).A, src, nearest=True)
        # total = plus_reduce(D)   (the members are at 0)
        total = _core.reduce_scalar(D, monoid.plus)
        closeness = total.item() if hasattr(total, "item") else total
    outside = len(G) - len(S)
    try:
        closeness = outside / closeness
    except ZeroDivisionError:
        closeness = 0
    return closeness


__all__ = ["group_degree_centrality", "group_in_degree_centrality", "group_out_degree_centrality",
           "group_closeness_centrality"]
