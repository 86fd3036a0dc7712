"""Graph generators: Graph500 Kronecker (R-MAT) graphs, whole or by ranges of their edge list,
grids and random geometric graphs.

Every generator checks its arguments and the memory its output needs before it allocates.
"""

from ._common import MAX_VERTICES
from ._generators import grid, random_geometric
from ._kronecker import GRAPH500_A, GRAPH500_B, GRAPH500_C, kronecker, kronecker_permutation, kronecker_range

__all__ = ["kronecker", "kronecker_range", "kronecker_permutation", "grid", "random_geometric", "MAX_VERTICES",
           "GRAPH500_A", "GRAPH500_B", "GRAPH500_C"]
