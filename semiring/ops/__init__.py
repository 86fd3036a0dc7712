"""The algebra as values: operators, monoids and semirings, with explicit registries."""

from . import binary, indexunary, monoid, semiring, unary
from ._base import BinaryOp, IndexUnaryOp, UnaryOp
from .monoid import Monoid
from .semiring import Semiring

__all__ = ["BinaryOp", "UnaryOp", "IndexUnaryOp", "Monoid", "Semiring",
           "binary", "unary", "indexunary", "monoid", "semiring"]
