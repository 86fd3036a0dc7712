"""Argument checks shared by the operations."""

from __future__ import annotations

import numpy as np

from .. import dtypes as _dt
from ..exceptions import DimensionMismatch, InvalidValue
from ..ops import binary as _binary
from ..ops import indexunary as _indexunary
from ..ops import monoid as _monoid
from ..ops import semiring as _semiring
from ..ops._base import BinaryOp, IndexUnaryOp, UnaryOp
from ..ops.monoid import Monoid
from ..ops.semiring import Semiring
from . import _validate as _v
from .matrix import Matrix
from .vector import Vector


def require(x, cls, what):
    if not isinstance(x, cls):
        names = cls.__name__ if isinstance(cls, type) else " or ".join(c.__name__ for c in cls)
        raise InvalidValue(f"{what}: expected a {names}; given {type(x).__name__}")
    return x


def semiring(s, what):
    if isinstance(s, str):
        return _semiring.get(s)
    return require(s, Semiring, f"{what} semiring")


def monoid(m, what):
    if isinstance(m, str):
        return _monoid.get(m)
    return require(m, Monoid, f"{what} monoid")


def binary_or_monoid(op, what):
    """A BinaryOp from a BinaryOp, a Monoid (its operator) or a built-in name."""
    if isinstance(op, str):
        op = _binary.get(op)
    if isinstance(op, Monoid):
        op = op.op
    require(op, BinaryOp, f"{what} operator")
    if op.positional:
        from ..exceptions import DomainMismatch

        raise DomainMismatch(f"{what}: positional operator {op.name} is only valid as a semiring's multiply")
    return op


def indexunary(op, what):
    if isinstance(op, str):
        return _indexunary.get(op)
    return require(op, IndexUnaryOp, f"{what} operator")


def unary_like(op, what):
    if isinstance(op, (UnaryOp, IndexUnaryOp)):
        return op
    return binary_or_monoid(op, what)


def _kind(x):
    """Vector, Matrix, or the type of anything else (containers of any backend compare equal)."""
    return Vector if isinstance(x, Vector) else Matrix if isinstance(x, Matrix) else type(x)


def same_shape(x, y, what):
    if _kind(x) is not _kind(y):
        raise InvalidValue(f"{what}: operands must both be Vectors or both Matrices; "
                           f"given {type(x).__name__} and {type(y).__name__}")
    if x.shape != y.shape:
        raise DimensionMismatch(f"{what}: operands must have the same shape; given {x.shape} and {y.shape}")
    _v.same_device(x, y)


def container(x, what):
    return require(x, (Vector, Matrix), what)


def bound_scalar(value, dtype, what):
    """Type a scalar bound to an operator: a Python scalar takes the container's dtype where it
    fits (3 with int8 stays int8, 0.5 with int8 becomes float64); a NumPy scalar keeps its own."""
    if isinstance(value, np.generic):
        return value
    d = np.dtype(dtype)
    sd = _dt.scalar_dtype(value)
    if d.kind == "f" or (sd.kind in "bi" and d.kind in "iu" and sd.kind != "b") or d.kind == sd.kind == "b":
        try:
            if d.kind in "iu" and not (np.iinfo(d).min <= value <= np.iinfo(d).max):
                return _dt.scalar(value, sd, what)
        except TypeError:
            pass
        return _dt.scalar(value, d, what)
    return _dt.scalar(value, sd, what)


def slice_range(idx, n, what):
    """``range`` of the positions a slice selects out of ``n``; InvalidValue for a slice of
    non-integers or a zero step."""
    for part in (idx.start, idx.stop, idx.step):
        if part is not None and (isinstance(part, (bool, np.bool_)) or not isinstance(part, (int, np.integer))):
            raise InvalidValue(f"{what}: a slice of integers; given {idx!r}")
    if idx.step == 0:
        raise InvalidValue(f"{what}: a slice step cannot be zero; given {idx!r}")
    return range(*idx.indices(n))


def covers_all(idx, n, what):
    """True when an index argument (None, a slice, an array) selects every position of ``n``
    in order: None, or a slice equal to ``[:]``."""
    if idx is None:
        return True
    return isinstance(idx, slice) and slice_range(idx, n, what) == range(n)


def thunk(value, what):
    """An index-unary operator's thunk: a bool or number scalar (a Python int within the 64-bit
    integers); DomainMismatch otherwise."""
    _dt.scalar_dtype(value, what)
    return value


def index_list(idx, n, what):
    """Index list for assign/extract: None = all, a slice, an int array.

    Raises OutOfMemory when None or a slice selects more positions than fit in memory."""
    if idx is None or isinstance(idx, slice):
        r = range(n) if idx is None else slice_range(idx, n, what)
        from .._memory import require

        require(len(r) * 8 * 4, f"{what}: a list of {len(r)} indices")
        return np.arange(r.start, r.stop, r.step, dtype=np.int64)
    if isinstance(idx, (int, np.integer)) and not isinstance(idx, (bool, np.bool_)):
        return _v.index_array([idx], n, what)
    return _v.index_array(idx, n, what)
