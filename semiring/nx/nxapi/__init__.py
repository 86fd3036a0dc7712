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

# structure
from .biconnected import (
    articulation_points, biconnected_component_edges, biconnected_components, bridges, has_bridges, is_biconnected,
    local_bridges,
)
from .bipartite import color, is_bipartite, is_bipartite_node_set, sets
from .community import label_propagation_communities
from .components import (
    attracting_components, condensation, is_attracting_component, is_semiconnected, number_attracting_components,
)
from .cores import core_number, k_core, k_corona, k_crust, k_shell, k_truss, onion_layers
from .dag import (
    dag_longest_path, dag_longest_path_length, has_cycle, is_aperiodic, is_directed_acyclic_graph,
    lexicographical_topological_sort, topological_generations, topological_sort, transitive_closure_dag,
    transitive_reduction,
)
from .ego import ego_graph
from .isolates import is_isolate, isolates, number_of_isolates, number_of_selfloops
from .operators import complement, reverse
from .recognition import is_arborescence, is_branching, is_forest, is_tree
from .relabel import (
    compose, compose_all, convert_node_labels_to_integers, disjoint_union, disjoint_union_all, relabel_nodes, union,
    union_all,
)

# paths
from .edge_traversal import bfs_labeled_edges, edge_bfs
from .shortest_paths import (
    all_pairs_all_shortest_paths, all_pairs_bellman_ford_path, all_pairs_bellman_ford_path_length, all_pairs_dijkstra,
    all_pairs_dijkstra_path, all_pairs_dijkstra_path_length, all_pairs_shortest_path, all_shortest_paths,
    astar_path, astar_path_length, average_shortest_path_length, bellman_ford_path,
    bellman_ford_predecessor_and_distance, bidirectional_dijkstra, bidirectional_shortest_path, dijkstra_path,
    dijkstra_predecessor_and_distance, floyd_warshall_numpy, floyd_warshall_predecessor_and_distance,
    goldberg_radzik, has_path, johnson, multi_source_dijkstra, multi_source_dijkstra_path,
    multi_source_dijkstra_path_length, negative_edge_cycle, predecessor, shortest_path,
    single_source_all_shortest_paths, single_source_bellman_ford, single_source_bellman_ford_path,
    single_source_bellman_ford_path_length, single_source_dijkstra, single_source_dijkstra_path,
    single_source_shortest_path, single_target_shortest_path, single_target_shortest_path_length,
)
from .traversal import ancestors, bfs_predecessors, bfs_successors, descendants, node_connected_component
# generators
from . import generators as _generators
from .generators import *  # noqa: F403 (the generators' names, listed in generators.__all__)
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
    # structure
    "core_number", "k_core", "k_shell", "k_crust", "k_corona", "k_truss", "onion_layers",
    "topological_generations", "topological_sort", "lexicographical_topological_sort", "is_directed_acyclic_graph",
    "has_cycle", "dag_longest_path", "dag_longest_path_length", "transitive_closure_dag", "transitive_reduction",
    "is_aperiodic",
    "is_bipartite", "color", "sets", "is_bipartite_node_set",
    "articulation_points", "biconnected_components", "biconnected_component_edges", "is_biconnected", "bridges",
    "has_bridges", "local_bridges",
    "isolates", "is_isolate", "number_of_isolates", "number_of_selfloops",
    "condensation", "attracting_components", "number_attracting_components", "is_attracting_component",
    "is_semiconnected",
    "label_propagation_communities",
    "ego_graph", "complement", "reverse",
    "is_tree", "is_forest", "is_arborescence", "is_branching",
    "relabel_nodes", "convert_node_labels_to_integers", "compose", "compose_all", "union", "union_all",
    "disjoint_union", "disjoint_union_all",
    # paths
    "shortest_path", "has_path", "average_shortest_path_length", "all_shortest_paths",
    "single_source_all_shortest_paths", "all_pairs_all_shortest_paths",
    "single_source_shortest_path", "single_target_shortest_path", "single_target_shortest_path_length",
    "all_pairs_shortest_path", "bidirectional_shortest_path", "predecessor",
    "dijkstra_path", "single_source_dijkstra", "single_source_dijkstra_path", "dijkstra_predecessor_and_distance",
    "all_pairs_dijkstra", "all_pairs_dijkstra_path", "all_pairs_dijkstra_path_length", "multi_source_dijkstra",
    "multi_source_dijkstra_path", "multi_source_dijkstra_path_length", "bidirectional_dijkstra",
    "bellman_ford_path", "single_source_bellman_ford", "single_source_bellman_ford_path",
    "single_source_bellman_ford_path_length", "bellman_ford_predecessor_and_distance",
    "all_pairs_bellman_ford_path", "all_pairs_bellman_ford_path_length", "goldberg_radzik", "negative_edge_cycle",
    "johnson", "floyd_warshall_predecessor_and_distance", "floyd_warshall_numpy", "astar_path", "astar_path_length",
    "bfs_predecessors", "bfs_successors", "descendants", "ancestors",
    "node_connected_component", "edge_bfs", "bfs_labeled_edges",
    # generators
    *_generators.__all__,
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
