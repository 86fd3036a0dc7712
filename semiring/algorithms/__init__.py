"""Graph algorithms written on the public algebra (they run on any backend)."""

from .apsp import all_pairs_shortest_paths, floyd_warshall
from .bfs import BFSResult, LevelTrace, bfs
from .coloring import coloring, mis
from .community import louvain, modularity
from .components import connected_components, strongly_connected_components
from .graph import Graph
from .sssp import SSSPResult, sssp

__all__ = ["Graph", "bfs", "BFSResult", "LevelTrace", "sssp", "SSSPResult", "coloring", "mis",
           "connected_components", "strongly_connected_components", "floyd_warshall",
           "all_pairs_shortest_paths", "louvain", "modularity"]
