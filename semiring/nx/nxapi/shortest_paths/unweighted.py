"""networkx's unweighted shortest-path lengths on the engine's BFS levels."""

from __future__ import annotations

import networkx as nx
import numpy as np

from ...algorithms.traversal import levels
from .._common import checked_by, depth_of, distance_dict, real_reason


def lengths(G, source, max_depth=None, *, reverse=False):
    """``{node: hops}`` from the node ``source`` (along reversed edges with ``reverse``)."""
    graph = G.reverse if reverse else G.structure
    lv = levels(graph, [G.index[source]], max_depth)
    idx = np.flatnonzero(lv >= 0)
    return distance_dict(G.nodes, idx, lv[idx])


def _cutoff_reason(G, source=None, cutoff=None):
    return real_reason(cutoff, "cutoff")


@checked_by(_cutoff_reason)
def single_source_shortest_path_length(G, source, cutoff=None):
    """networkx.single_source_shortest_path_length: ``{node: hops}`` within ``cutoff`` hops.

    Raises networkx.NodeNotFound when ``source`` is not a node.
    """
    if source not in G:
        raise nx.NodeNotFound(f"Source {source} is not in G")
    return lengths(G, source, depth_of(cutoff))


@checked_by(lambda G, cutoff=None: real_reason(cutoff, "cutoff"))
def all_pairs_shortest_path_length(G, cutoff=None):
    """networkx.all_pairs_shortest_path_length: ``(node, {node: hops})`` for every node, lazily
    (one engine BFS per node)."""
    depth = depth_of(cutoff)
    for v in G.nodes:
        yield v, lengths(G, v, depth)


__all__ = ["single_source_shortest_path_length", "all_pairs_shortest_path_length", "lengths"]
