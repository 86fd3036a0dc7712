"""The CPU backend: NumPy and SciPy kernels over sorted key arrays and CSR storage."""

from . import products, sparse

__all__ = ["products", "sparse"]
