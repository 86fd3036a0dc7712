"""The CPU backend: NumPy and SciPy kernels over sorted key arrays and CSR storage, and the
whole-search traversal engines (``traversal``: BFS; ``paths``: SSSP)."""

from . import products, sparse

__all__ = ["products", "sparse"]
