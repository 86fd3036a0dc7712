"""Containers, masks, the write step and the operations of the algebra."""

from .elementwise import apply, ewise_add, ewise_mult, select
from .indexing import assign, extract
from .mask import Mask
from .matrix import Matrix
from .products import mxm, mxv, vxm
from .reduce import reduce_columnwise, reduce_rowwise, reduce_scalar
from .transform import kronecker, transpose
from .vector import Vector

__all__ = [
    "Matrix", "Vector", "Mask", "mxv", "vxm", "mxm", "ewise_add", "ewise_mult", "apply", "select",
    "reduce_rowwise", "reduce_columnwise", "reduce_scalar", "assign", "extract", "transpose", "kronecker",
]
