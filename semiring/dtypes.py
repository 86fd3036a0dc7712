"""The element types semiring stores: bool, int8-64, uint8-64, float32/64.

Type rules (GraphBLAS C API 2.0, section 3.5 "Domains"; typecasting as in C):
an operator applied to two operands of different types computes in ``numpy.result_type``
of the two, except that a mix that NumPy can only resolve by going to float64
(int64 with uint64) is refused instead of being silently widened.
"""

from __future__ import annotations

import numpy as np

from .exceptions import DomainMismatch, InvalidValue

BOOL = np.dtype(np.bool_)
INT64 = np.dtype(np.int64)
FLOAT64 = np.dtype(np.float64)

SUPPORTED = tuple(
    np.dtype(t)
    for t in (
        "bool", "int8", "int16", "int32", "int64",
        "uint8", "uint16", "uint32", "uint64", "float32", "float64",
    )
)
_NAMES = ", ".join(d.name for d in SUPPORTED)


def lookup(dtype, what="dtype") -> np.dtype:
    """Return the NumPy dtype for ``dtype`` (a dtype, type or name), or raise DomainMismatch."""
    try:
        d = np.dtype(dtype)
    except TypeError as exc:
        raise DomainMismatch(f"{what}: expected one of {_NAMES}; given {dtype!r}") from exc
    if d not in SUPPORTED:
        raise DomainMismatch(f"{what}: expected one of {_NAMES}; given {d.name}")
    return d


def unify(a, b, what="operands") -> np.dtype:
    """The type two operands of types ``a`` and ``b`` are combined in."""
    a, b = np.dtype(a), np.dtype(b)
    if a == b:
        return a
    r = np.result_type(a, b)
    if r.kind == "f" and a.kind in "iu" and b.kind in "iu":
        raise DomainMismatch(
            f"{what}: {a.name} and {b.name} have no common integer type; "
            "cast one of them explicitly (e.g. to int64 or float64)"
        )
    return lookup(r, what)


def is_float(d) -> bool:
    return np.dtype(d).kind == "f"


def cast(values, dtype, what="values"):
    """Cast an array to ``dtype``; NaN into bool or an integer type raises InvalidValue."""
    dtype = np.dtype(dtype)
    if values.dtype == dtype:
        return values
    if values.dtype.kind == "f" and dtype.kind in "biu":
        xp = _xp(values)
        if bool(xp.isnan(values).any()):
            kind = "a boolean" if dtype.kind == "b" else f"an integer ({dtype.name})"
            raise InvalidValue(f"{what}: NaN cannot be cast to {kind}; given a {values.dtype.name} array with NaN")
    if dtype.kind == "b":
        return values != 0
    return values.astype(dtype)


def check_bool_domain(values, what="values"):
    """Raise InvalidValue if ``values`` hold NaN where a boolean is needed."""
    if values.dtype.kind == "f" and bool(_xp(values).isnan(values).any()):
        raise InvalidValue(f"{what}: a boolean is needed but the {values.dtype.name} values hold NaN")


def scalar(value, dtype, what="scalar"):
    """Convert a Python/NumPy scalar to a 0-d value of ``dtype``, refusing lossy NaN casts."""
    dtype = np.dtype(dtype)
    arr = np.asarray(value)
    if arr.ndim != 0:
        raise InvalidValue(f"{what}: expected a scalar; given an array of shape {arr.shape}")
    if arr.dtype.kind not in "biuf":
        raise DomainMismatch(f"{what}: expected a number or bool; given {value!r}")
    if dtype.kind in "biu" and arr.dtype.kind == "f" and np.isnan(arr):
        raise InvalidValue(f"{what}: NaN cannot be cast to {dtype.name}")
    if dtype.kind in "iu" and arr.dtype.kind == "f" and np.isinf(arr):
        raise InvalidValue(f"{what}: {value!r} cannot be cast to {dtype.name}")
    return dtype.type(arr.astype(dtype) if dtype.kind != "b" else arr != 0)


def scalar_dtype(value) -> np.dtype:
    """The dtype semiring gives a Python scalar: bool, int64 or float64 (or the NumPy scalar's own)."""
    if isinstance(value, np.generic):
        return lookup(value.dtype)
    if isinstance(value, (bool, np.bool_)):
        return BOOL
    if isinstance(value, int):
        return INT64
    if isinstance(value, float):
        return FLOAT64
    raise DomainMismatch(f"expected a number or bool scalar; given {value!r}")


def _xp(arr):
    mod = type(arr).__module__
    if mod.startswith("cupy"):
        import cupy

        return cupy
    return np
