"""Adapters with networkx's exact signatures and return types (dicts, sets, generators), on the
engine. Each takes a :class:`semiring.nx.Graph`; ``can_run`` checks are attached as
``adapter.can_run`` (see ``_common.checked_by``)."""

from .bipartition import kernighan_lin_bisection
from .centrality import betweenness_centrality
from .cluster import triangles
from .coloring import greedy_color
from .community import louvain_communities, modularity
from .components import (
    connected_components, is_connected, is_strongly_connected, is_weakly_connected, number_connected_components,
    number_strongly_connected_components, number_weakly_connected_components, strongly_connected_components,
    weakly_connected_components,
)
from .link_analysis import pagerank
from .mis import maximal_independent_set
from .shortest_paths import (
    all_pairs_shortest_path_length, bellman_ford_path_length, dijkstra_path_length, floyd_warshall,
    shortest_path_length, single_source_dijkstra_path_length, single_source_shortest_path_length,
)
from .traversal import bfs_edges, bfs_layers, bfs_tree, descendants_at_distance
from .tree import minimum_spanning_tree

# generators
from . import generators as _generators
from .generators import *  # noqa: F403 (the generators' names, listed in generators.__all__)

__all__ = [
    "bfs_edges", "bfs_tree", "bfs_layers", "descendants_at_distance",
    "single_source_shortest_path_length", "all_pairs_shortest_path_length", "shortest_path_length",
    "single_source_dijkstra_path_length", "dijkstra_path_length", "bellman_ford_path_length", "floyd_warshall",
    "greedy_color", "maximal_independent_set",
    "connected_components", "number_connected_components", "is_connected",
    "weakly_connected_components", "number_weakly_connected_components", "is_weakly_connected",
    "strongly_connected_components", "number_strongly_connected_components", "is_strongly_connected",
    "pagerank", "triangles",
    "minimum_spanning_tree", "betweenness_centrality",
    "louvain_communities", "modularity",
    "kernighan_lin_bisection",
    # generators
    *_generators.__all__,
]
