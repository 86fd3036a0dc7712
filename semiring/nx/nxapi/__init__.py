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

# centrality, clustering, link analysis, link prediction
from .assortativity import average_degree_connectivity, average_neighbor_degree
from .centrality import (
    betweenness_centrality_subset, degree_centrality, edge_betweenness_centrality, edge_betweenness_centrality_subset,
    edge_load_centrality, in_degree_centrality, newman_betweenness_centrality, out_degree_centrality,
)
from .closeness import closeness_centrality, harmonic_centrality
from .cluster import average_clustering, clustering, generalized_degree, square_clustering, transitivity
from .eigenvector import eigenvector_centrality, eigenvector_centrality_numpy, katz_centrality, katz_centrality_numpy
from .group import (
    group_closeness_centrality, group_degree_centrality, group_in_degree_centrality, group_out_degree_centrality,
)
from .link_analysis import google_matrix, hits
from .link_communities import cn_soundarajan_hopcroft, ra_index_soundarajan_hopcroft, within_inter_cluster
from .link_prediction import (
    adamic_adar_index, common_neighbor_centrality, jaccard_coefficient, preferential_attachment,
    resource_allocation_index,
)
from .reaching import global_reaching_centrality, local_reaching_centrality
from .reciprocity import overall_reciprocity, reciprocity
from .trophic import trophic_differences, trophic_incoherence_parameter, trophic_levels

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
    # centrality, clustering, link analysis, link prediction
    "degree_centrality", "in_degree_centrality", "out_degree_centrality",
    "eigenvector_centrality", "eigenvector_centrality_numpy", "katz_centrality", "katz_centrality_numpy",
    "closeness_centrality", "harmonic_centrality",
    "edge_betweenness_centrality", "betweenness_centrality_subset", "edge_betweenness_centrality_subset",
    "hits", "google_matrix",
    "clustering", "average_clustering", "transitivity", "square_clustering", "generalized_degree",
    "reciprocity", "overall_reciprocity", "average_neighbor_degree", "average_degree_connectivity",
    "jaccard_coefficient", "adamic_adar_index", "resource_allocation_index", "preferential_attachment",
    "common_neighbor_centrality", "cn_soundarajan_hopcroft", "ra_index_soundarajan_hopcroft", "within_inter_cluster",
    "group_degree_centrality", "group_in_degree_centrality", "group_out_degree_centrality",
    "group_closeness_centrality", "trophic_levels", "trophic_differences", "trophic_incoherence_parameter",
    "newman_betweenness_centrality", "edge_load_centrality", "local_reaching_centrality", "global_reaching_centrality",
]
