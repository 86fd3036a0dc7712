"""semiring: GraphBLAS-style sparse linear algebra over semirings for graph algorithms.

Graph algorithms are written as masked products over semirings (``min_plus``, ``any_pair``,
``lor_land``, ...) with the write step ``C<M, replace> = accum(C, T)`` of the GraphBLAS C API
specification. ``docs/design.md`` describes the architecture and the public contract.

>>> import semiring as sr
>>> A = sr.Matrix.from_coo([0, 1], [1, 2], [2.0, 3.0], nrows=3, ncols=3)
>>> u = sr.Vector.from_coo([0], [0.0], size=3)
>>> sr.vxm(u, A, sr.semirings.min_plus).to_coo()
(array([1]), array([2.]))
"""

from . import dtypes, exceptions
from .core import (
    Mask, Matrix, Recording, Scalar, Vector, apply, assign, ewise_add, ewise_mult, extract, kronecker, mxm, mxv,
    reduce_columnwise, reduce_rowwise, reduce_scalar, record, select, transpose, vxm, while_nonempty,
)
from ._host import host_reads
from .exceptions import (
    BackendUnavailable, ConvergenceFailure, DimensionMismatch, DomainMismatch, IndexOutOfBound, InvalidValue,
    NegativeCycleError, OutOfMemory, SemiringError,
)
from .ops import BinaryOp, IndexUnaryOp, Monoid, Semiring, UnaryOp, binary, indexunary, monoid, unary
from .ops import semiring as semirings

from . import algorithms, generators, io  # noqa: E402  (they use the names above)

__version__ = "0.1.0"

__all__ = [
    "Matrix", "Vector", "Scalar", "Mask", "record", "Recording", "while_nonempty", "host_reads", "BinaryOp", "UnaryOp", "IndexUnaryOp", "Monoid", "Semiring",
    "binary", "unary", "indexunary", "monoid", "semirings", "dtypes", "exceptions",
    "algorithms", "generators", "io",
    "mxv", "vxm", "mxm", "ewise_add", "ewise_mult", "apply", "select", "reduce_rowwise",
    "reduce_columnwise", "reduce_scalar", "assign", "extract", "transpose", "kronecker",
    "SemiringError", "DimensionMismatch", "DomainMismatch", "IndexOutOfBound", "InvalidValue",
    "NegativeCycleError", "BackendUnavailable", "ConvergenceFailure", "OutOfMemory",
]
