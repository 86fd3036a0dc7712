"""Graph algorithms written on the public algebra (they run on any backend)."""

from .bfs import BFSResult, LevelTrace, bfs
from .coloring import coloring, mis
from .graph import Graph
from .sssp import SSSPResult, sssp

__all__ = ["Graph", "bfs", "BFSResult", "LevelTrace", "sssp", "SSSPResult", "coloring", "mis"]
