"""networkx's shortest-path lengths (unweighted, Dijkstra, Bellman-Ford, Floyd-Warshall) on the engine."""

from .dense import floyd_warshall
from .generic import shortest_path_length
from .unweighted import all_pairs_shortest_path_length, single_source_shortest_path_length
from .weighted import bellman_ford_path_length, dijkstra_path_length, single_source_dijkstra_path_length

__all__ = ["single_source_shortest_path_length", "all_pairs_shortest_path_length", "shortest_path_length",
           "single_source_dijkstra_path_length", "dijkstra_path_length", "bellman_ford_path_length",
           "floyd_warshall"]
