"""networkx's shortest paths and lengths (BFS, Dijkstra, Bellman-Ford, Johnson, Floyd-Warshall,
A* without a heuristic) on the engine."""

from .astar import astar_path, astar_path_length
from .bellman_ford import (
    all_pairs_bellman_ford_path, all_pairs_bellman_ford_path_length, bellman_ford_path, bellman_ford_path_length,
    bellman_ford_predecessor_and_distance, goldberg_radzik, johnson, negative_edge_cycle, single_source_bellman_ford,
    single_source_bellman_ford_path, single_source_bellman_ford_path_length,
)
from .dense import floyd_warshall, floyd_warshall_numpy, floyd_warshall_predecessor_and_distance
from .generic import (
    all_pairs_all_shortest_paths, all_shortest_paths, average_shortest_path_length, has_path, shortest_path,
    shortest_path_length, single_source_all_shortest_paths,
)
from .unweighted import (
    all_pairs_shortest_path, all_pairs_shortest_path_length, bidirectional_shortest_path, predecessor,
    single_source_shortest_path, single_source_shortest_path_length, single_target_shortest_path,
    single_target_shortest_path_length,
)
from .weighted import (
    all_pairs_dijkstra, all_pairs_dijkstra_path, all_pairs_dijkstra_path_length, bidirectional_dijkstra,
    dijkstra_path, dijkstra_path_length, dijkstra_predecessor_and_distance, multi_source_dijkstra,
    multi_source_dijkstra_path, multi_source_dijkstra_path_length, single_source_dijkstra,
    single_source_dijkstra_path, single_source_dijkstra_path_length,
)

__all__ = ["single_source_shortest_path_length", "all_pairs_shortest_path_length", "shortest_path_length",
           "single_source_dijkstra_path_length", "dijkstra_path_length", "bellman_ford_path_length",
           "floyd_warshall",
           # paths
           "shortest_path", "has_path", "average_shortest_path_length", "all_shortest_paths",
           "single_source_all_shortest_paths", "all_pairs_all_shortest_paths",
           "single_source_shortest_path", "single_target_shortest_path", "single_target_shortest_path_length",
           "all_pairs_shortest_path", "bidirectional_shortest_path", "predecessor",
           "dijkstra_path", "single_source_dijkstra", "single_source_dijkstra_path",
           "dijkstra_predecessor_and_distance", "all_pairs_dijkstra", "all_pairs_dijkstra_path",
           "all_pairs_dijkstra_path_length", "multi_source_dijkstra", "multi_source_dijkstra_path",
           "multi_source_dijkstra_path_length", "bidirectional_dijkstra",
           "bellman_ford_path", "single_source_bellman_ford", "single_source_bellman_ford_path",
           "single_source_bellman_ford_path_length", "bellman_ford_predecessor_and_distance",
           "all_pairs_bellman_ford_path", "all_pairs_bellman_ford_path_length", "goldberg_radzik",
           "negative_edge_cycle", "johnson",
           "floyd_warshall_predecessor_and_distance", "floyd_warshall_numpy",
           "astar_path", "astar_path_length"]
