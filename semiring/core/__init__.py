"""Containers, masks, the write step and the operations of the algebra."""

from .elementwise import apply, ewise_add, ewise_mult, select
from .indexing import assign, extract
from .mask import Mask
from .matrix import Matrix
from .products import mxm, mxv, vxm
from .loops import Recording, record, while_nonempty
from .reduce import reduce_columnwise, reduce_rowwise, reduce_scalar
from .scalar import Scalar
from .transform import kronecker, transpose
from .vector import Vector

__all__ = [
    "Matrix", "Vector", "Scalar", "Mask", "record", "Recording", "while_nonempty", "mxv", "vxm", "mxm", "ewise_add", "ewise_mult", "apply", "select",
    "reduce_rowwise", "reduce_columnwise", "reduce_scalar", "assign", "extract", "transpose", "kronecker",
]
