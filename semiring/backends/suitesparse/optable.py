"""semiring's built-in operators as typed SuiteSparse:GraphBLAS handles.

Every handle is a predefined object of the C library (``GrB_PLUS_FP64``,
``GrB_MIN_MONOID_INT64``, ``GxB_ANY_BOOL_MONOID``, ...; GraphBLAS C API 2.0, section 3.4 and
tables 3.3-3.8; SuiteSparse:GraphBLAS user guide, "Predefined objects"), or a semiring built
once from two of them with ``GrB_Semiring_new`` (C API 2.0, section 4.2.1.5). Only semiring's
own built-in operator objects map to handles: a user-defined operator, or a Monoid built with
another identity, has none (:func:`binary_op` and the others return None), and the operation
then runs on the NumPy backend.

Names follow SuiteSparse's rule for ``bool``: ``plus`` and ``max`` are ``lor``, ``times`` and
``min`` are ``land`` (semiring's bool operators are the same functions: its ``plus`` on bool
is ``logical_or``, and so on).
"""

from __future__ import annotations

import threading

import numpy as np

from ...ops import binary as _b
from ...ops import indexunary as _iu
from ...ops import monoid as _m
from ...ops import unary as _u
from . import GB_TYPES

#: semiring binary operator -> SuiteSparse name stem (``GrB_<STEM>_<TYPE>`` unless listed in _GXB).
_BINARY = {"plus": "PLUS", "minus": "MINUS", "rminus": "RMINUS", "times": "TIMES", "div": "DIV", "rdiv": "RDIV",
           "min": "MIN", "max": "MAX", "first": "FIRST", "second": "SECOND", "pair": "ONEB", "any": "SECOND",
           "land": "LAND", "lor": "LOR", "lxor": "LXOR", "eq": "EQ", "ne": "NE", "lt": "LT", "le": "LE",
           "gt": "GT", "ge": "GE", "bor": "BOR", "band": "BAND", "bxor": "BXOR"}
_GXB = {"RMINUS", "RDIV"}
#: Positional operators: one INT64 handle each (C API 2.1 / SuiteSparse GxB_FIRSTI_INT64 ...).
_POSITIONAL = {"firsti": "GxB_FIRSTI_INT64", "firstj": "GxB_FIRSTJ_INT64", "secondi": "GxB_SECONDI_INT64",
               "secondj": "GxB_SECONDJ_INT64"}
#: Monoids by name; on bool the arithmetic ones are logical.
_MONOID = {"plus": "PLUS", "times": "TIMES", "min": "MIN", "max": "MAX", "land": "LAND", "lor": "LOR",
           "lxor": "LXOR", "any": "ANY", "bor": "BOR", "band": "BAND", "bxor": "BXOR"}
_BOOL_MONOID = {"PLUS": "LOR", "TIMES": "LAND", "MIN": "LAND", "MAX": "LOR"}
_UNARY = {"identity": "GrB_IDENTITY", "ainv": "GrB_AINV", "minv": "GrB_MINV", "abs": "GrB_ABS",
          "lnot": "GrB_LNOT", "one": "GxB_ONE", "sqrt": "GxB_SQRT", "exp": "GxB_EXP", "log": "GxB_LOG"}
#: Index-unary operators (C API 2.0, table 3.8): name -> (stem, typed by the value type).
_INDEXUNARY = {"tril": ("GrB_TRIL", False), "triu": ("GrB_TRIU", False), "diag": ("GrB_DIAG", False),
               "offdiag": ("GrB_OFFDIAG", False), "rowle": ("GrB_ROWLE", False), "rowgt": ("GrB_ROWGT", False),
               "colle": ("GrB_COLLE", False), "colgt": ("GrB_COLGT", False),
               "valueeq": ("GrB_VALUEEQ", True), "valuene": ("GrB_VALUENE", True),
               "valuelt": ("GrB_VALUELT", True), "valuele": ("GrB_VALUELE", True),
               "valuegt": ("GrB_VALUEGT", True), "valuege": ("GrB_VALUEGE", True),
               "rowindex": ("GrB_ROWINDEX_INT64", False), "colindex": ("GrB_COLINDEX_INT64", False),
               "diagindex": ("GrB_DIAGINDEX_INT64", False)}

_semirings = {}
_lock = threading.Lock()


def _lib():
    from suitesparse_graphblas import lib

    from . import load

    load()  # GraphBLAS initialized

    return lib


def _builtin(op, registry):
    """True when ``op`` is semiring's own built-in object of that name (not a user's)."""
    return registry.get(op.name) is op


def _typed(name):
    return getattr(_lib(), name, None)


def binary_op(op, dtype):
    """The handle of built-in BinaryOp ``op`` whose inputs are ``dtype``, or None."""
    if not _builtin(op, _b.BINARY):
        return None
    if op.positional:
        return _typed(_POSITIONAL[op.positional])
    stem = _BINARY.get(op.name)
    if stem is None:
        return None
    if stem in ("LAND", "LOR", "LXOR"):
        return _typed(f"GrB_{stem}") if np.dtype(dtype) == np.bool_ else None
    return _typed(f"{'GxB' if stem in _GXB else 'GrB'}_{stem}_{GB_TYPES[np.dtype(dtype)]}")


def monoid(m, dtype):
    """The handle of built-in Monoid ``m`` on ``dtype``, or None (no such monoid in SuiteSparse:
    the bitwise ones on signed integers)."""
    if not _builtin(m, _m.MONOID):
        return None
    stem = _MONOID[m.name]
    t = GB_TYPES[np.dtype(dtype)]
    if t == "BOOL":
        stem = _BOOL_MONOID.get(stem, stem)
    elif stem in ("LAND", "LOR", "LXOR"):
        return None
    if stem == "ANY" or stem in ("BOR", "BAND", "BXOR"):
        return _typed(f"GxB_{stem}_{t}_MONOID")
    return _typed(f"GrB_{stem}_MONOID_{t}")


def semiring(s, in_dtype, out_dtype):
    """The handle of semiring ``s`` whose multiply takes ``in_dtype`` and whose monoid is on
    ``out_dtype`` (``GrB_Semiring_new`` of the two built-in parts, made once), or None."""
    key = (s.name, id(s.monoid), id(s.multiply), np.dtype(in_dtype), np.dtype(out_dtype))
    h = _semirings.get(key, False)
    if h is not False:
        return h
    add, mult = monoid(s.monoid, out_dtype), binary_op(s.multiply, in_dtype)
    h = None
    if add is not None and mult is not None:
        from suitesparse_graphblas import ffi

        lib = _lib()
        p = ffi.new("GrB_Semiring*")
        if lib.GrB_Semiring_new(p, add, mult) == lib.GrB_SUCCESS:
            h = p[0]  # kept for the life of the process, as the predefined ones
    with _lock:
        _semirings.setdefault(key, h)
    return _semirings[key]


def unary_op(op, dtype):
    """The handle of built-in UnaryOp ``op`` on ``dtype``, or None."""
    if not _builtin(op, _u.UNARY) or op.name not in _UNARY:
        return None
    t = GB_TYPES[np.dtype(dtype)]
    if op.name == "lnot":
        return _typed("GrB_LNOT") if t == "BOOL" else None
    return _typed(f"{_UNARY[op.name]}_{t}")


def indexunary_op(op, dtype):
    """The handle of built-in IndexUnaryOp ``op`` for values of ``dtype``, or None."""
    if not _builtin(op, _iu.INDEXUNARY):
        return None
    stem, by_value = _INDEXUNARY[op.name]
    return _typed(f"{stem}_{GB_TYPES[np.dtype(dtype)]}" if by_value else stem)


__all__ = ["binary_op", "indexunary_op", "monoid", "semiring", "unary_op"]
