"""Graph algorithms written on the public algebra (they run on any backend)."""

from .bfs import BFSResult, LevelTrace, bfs
from .graph import Graph

__all__ = ["Graph", "bfs", "BFSResult", "LevelTrace"]
