"""Built-in unary operators (GraphBLAS C API 2.0, table 3.4).

``identity``, ``ainv`` (-x; x itself on bool, as SuiteSparse:GraphBLAS), ``minv`` (1/x; integer
1/x truncates, 1/0 as ``div``), ``abs``, ``lnot`` (bool), ``one``, and on floats ``sqrt``, ``exp``,
``log``. ``UNARY`` is the registry, ``get(name)`` the lookup.
"""

from __future__ import annotations

from ..exceptions import InvalidValue
from ._base import UnaryOp
from .binary import _div

__all__ = ["identity", "ainv", "minv", "abs", "lnot", "one", "sqrt", "exp", "log", "UNARY", "get"]


def _ainv(xp, x):
    if x.dtype.kind == "b":
        return x.copy()
    return xp.negative(x)


def _float_only(fn, name):
    def f(xp, x):
        if x.dtype.kind != "f":
            from ..exceptions import DomainMismatch

            raise DomainMismatch(f"unary {name}: expected a float32/float64 input; given {x.dtype.name}")
        return fn(xp)(x)

    return f


def _mk(func, name, **kw):
    return UnaryOp(func, name, _internal=True, **kw)


identity = _mk(lambda xp, x: x.copy(), "identity", cuda="x")
ainv = _mk(_ainv, "ainv", cuda="-x")
minv = _mk(lambda xp, x: _div(xp, xp.ones_like(x), x), "minv", cuda="1 / x")
abs = _mk(lambda xp, x: x.copy() if x.dtype.kind in "bu" else xp.abs(x), "abs", cuda="abs(x)")
lnot = _mk(lambda xp, x: xp.logical_not(x), "lnot", domain="bool", cuda="!x")
one = _mk(lambda xp, x: xp.ones_like(x), "one", cuda="1")
sqrt = _mk(_float_only(lambda xp: xp.sqrt, "sqrt"), "sqrt", cuda="sqrt(x)")
exp = _mk(_float_only(lambda xp: xp.exp, "exp"), "exp", cuda="exp(x)")
log = _mk(_float_only(lambda xp: xp.log, "log"), "log", cuda="log(x)")

UNARY = {op.name: op for op in (identity, ainv, minv, abs, lnot, one, sqrt, exp, log)}


def get(name):
    """Return the built-in unary operator called ``name``; raise InvalidValue if there is none."""
    try:
        return UNARY[name]
    except (KeyError, TypeError):  # (TypeError: an unhashable name)
        raise InvalidValue(f"no built-in unary operator {name!r}; expected one of {sorted(UNARY)}") from None
