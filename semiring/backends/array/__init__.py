"""The array layer: the algebra's kernels written once over NumPy and CuPy arrays.

Every function here takes its array module from its arguments (:func:`semiring.backends._xp.xp_of`),
so the same code runs on a CPU matrix (NumPy) and on a GPU one (CuPy): sorted-key merges
(``sparse``), segmented reductions by an operator or a monoid (``reduce``) and the semiring
products by push, pull and expansion (``products``). The backends build on it:
``backends.cpu`` adds SciPy's compiled paths where they win, ``backends.gpu`` CUDA kernels, and
each falls back here for what it does not override.
"""

from . import products, reduce, sparse

__all__ = ["products", "reduce", "sparse"]
