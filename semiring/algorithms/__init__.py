"""Graph algorithms written on the public algebra (they run on any backend)."""

from .apsp import all_pairs_shortest_paths, floyd_warshall
from .bfs import BFSResult, LevelTrace, LevelTraces, bfs
from .centrality import betweenness_centrality
from .coloring import coloring, mis
from .community import louvain, modularity
from .components import connected_components, strongly_connected_components
from .graph import Graph
from .mst import minimum_spanning_forest
from .pagerank import pagerank
from .partition import balance, edge_cut, kernighan_lin_bisection, partition
from .sssp import SSSPResult, sssp
from .triangles import triangle_count, triangles_per_vertex

__all__ = ["Graph", "bfs", "BFSResult", "LevelTrace", "LevelTraces", "sssp", "SSSPResult", "coloring", "mis",
           "connected_components", "strongly_connected_components", "floyd_warshall",
           "all_pairs_shortest_paths", "louvain", "modularity",
           "pagerank", "triangle_count", "triangles_per_vertex",
           "minimum_spanning_forest", "betweenness_centrality",
           "partition", "edge_cut", "balance", "kernighan_lin_bisection"]
