"""Graph generators: Graph500 Kronecker (R-MAT) graphs, grids and random geometric graphs.

Every generator checks its arguments and the memory its output needs before it allocates.
"""

from ._generators import MAX_VERTICES, grid, kronecker, random_geometric

__all__ = ["kronecker", "grid", "random_geometric", "MAX_VERTICES"]
