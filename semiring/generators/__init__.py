"""Graph generators: Graph500 Kronecker (R-MAT) graphs, grids and random geometric graphs."""

from ._generators import grid, kronecker, random_geometric

__all__ = ["kronecker", "grid", "random_geometric"]
