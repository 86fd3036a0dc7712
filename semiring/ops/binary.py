"""Built-in binary operators (GraphBLAS C API 2.0, table 3.5; SuiteSparse:GraphBLAS for bool rules).

Each operator is polymorphic: it computes in the common type of its inputs. On bool,
``plus`` is ``lor``, ``minus`` is ``lxor``, ``times`` is ``land``, ``div`` is ``first``,
``min`` is ``land`` and ``max`` is ``lor`` (as in SuiteSparse:GraphBLAS). Integer ``div``
truncates toward zero like C; ``x / 0`` is 0 for ``x == 0`` and the type's max (min) for
positive (negative) ``x``. ``min``/``max`` on floats ignore NaN like C ``fmin``/``fmax``. ``bor``, ``band``, ``bxor``
are bitwise on integers (GrB_BOR, GrB_BAND, GrB_BXOR) and refuse floats.

The registry ``BINARY`` maps names to operators; ``get(name)`` looks one up.
"""

from __future__ import annotations

import numpy as np

from ..exceptions import InvalidValue
from ._base import BinaryOp

__all__ = [
    "plus", "minus", "rminus", "times", "div", "rdiv", "min", "max", "first", "second", "pair",
    "oneb", "any", "land", "lor", "lxor", "eq", "ne", "lt", "le", "gt", "ge",
    "bor", "band", "bxor", "firsti", "firstj", "secondi", "secondj", "BINARY", "get",
]


def _is_bool(x):
    return x.dtype.kind == "b"


def _plus(xp, x, y):
    return xp.logical_or(x, y) if _is_bool(x) else xp.add(x, y)


def _minus(xp, x, y):
    return xp.logical_xor(x, y) if _is_bool(x) else xp.subtract(x, y)


def _times(xp, x, y):
    return xp.logical_and(x, y) if _is_bool(x) else xp.multiply(x, y)


def _div(xp, x, y):
    k = x.dtype.kind
    if k == "b":
        return x.copy()
    if k == "f":
        return xp.true_divide(x, y)
    info = np.iinfo(x.dtype)
    zero = y == 0
    ysafe = xp.where(zero, 1, y).astype(x.dtype)
    q = xp.floor_divide(x, ysafe)
    if k == "i":  # floor -> truncation toward zero, as in C
        fix = (xp.remainder(x, ysafe) != 0) & ((x < 0) != (ysafe < 0))
        q = q + fix.astype(x.dtype)
    byzero = xp.where(x == 0, 0, xp.where(x > 0, info.max, info.min)).astype(x.dtype)
    return xp.where(zero, byzero, q)


def _min(xp, x, y):
    k = x.dtype.kind
    if k == "b":
        return xp.logical_and(x, y)
    return xp.fmin(x, y) if k == "f" else xp.minimum(x, y)


def _max(xp, x, y):
    k = x.dtype.kind
    if k == "b":
        return xp.logical_or(x, y)
    return xp.fmax(x, y) if k == "f" else xp.maximum(x, y)


def _first(xp, x, y):
    return xp.broadcast_to(x, xp.broadcast_shapes(x.shape, y.shape)).copy()


def _second(xp, x, y):
    return xp.broadcast_to(y, xp.broadcast_shapes(x.shape, y.shape)).copy()


def _pair(xp, x, y):
    return xp.ones(xp.broadcast_shapes(x.shape, y.shape), dtype=x.dtype)


def _bitwise(name, fn):
    def f(xp, x, y):
        if x.dtype.kind == "f":
            from ..exceptions import DomainMismatch

            raise DomainMismatch(f"binary {name}: expected bool or integer inputs; given {x.dtype.name}")
        return getattr(xp, fn)(x, y)

    return f


def _positional(xp, x, y):  # never called: BinaryOp.eval picks the index array
    raise AssertionError("positional operator evaluated without indices")


def _ufunc(bool_uf, int_uf, float_uf):
    def pick(dtype):
        return {"b": bool_uf, "i": int_uf, "u": int_uf, "f": float_uf}[dtype.kind]

    return pick


def _mk(func, name, **kw):
    return BinaryOp(func, name, _internal=True, **kw)


plus = _mk(_plus, "plus", cuda="x + y", _ufunc=_ufunc(np.logical_or, np.add, np.add))
minus = _mk(_minus, "minus", cuda="x - y")
rminus = _mk(lambda xp, x, y: _minus(xp, y, x), "rminus", cuda="y - x")
times = _mk(_times, "times", cuda="x * y", _ufunc=_ufunc(np.logical_and, np.multiply, np.multiply))
div = _mk(_div, "div", cuda="x / y")
rdiv = _mk(lambda xp, x, y: _div(xp, y, x), "rdiv", cuda="y / x")
min = _mk(_min, "min", cuda="min(x, y)", _ufunc=_ufunc(np.logical_and, np.minimum, np.fmin))
max = _mk(_max, "max", cuda="max(x, y)", _ufunc=_ufunc(np.logical_or, np.maximum, np.fmax))
first = _mk(_first, "first", cuda="x")
second = _mk(_second, "second", cuda="y")
pair = _mk(_pair, "pair", cuda="1")
oneb = pair
any = _mk(_second, "any", cuda="y")
land = _mk(lambda xp, x, y: xp.logical_and(x, y), "land", domain="bool", cuda="x && y",
           _ufunc=_ufunc(np.logical_and, None, None))
lor = _mk(lambda xp, x, y: xp.logical_or(x, y), "lor", domain="bool", cuda="x || y",
          _ufunc=_ufunc(np.logical_or, None, None))
lxor = _mk(lambda xp, x, y: xp.logical_xor(x, y), "lxor", domain="bool", cuda="x != y",
           _ufunc=_ufunc(np.logical_xor, None, None))
eq = _mk(lambda xp, x, y: xp.equal(x, y), "eq", output="bool", cuda="x == y")
ne = _mk(lambda xp, x, y: xp.not_equal(x, y), "ne", output="bool", cuda="x != y")
lt = _mk(lambda xp, x, y: xp.less(x, y), "lt", output="bool", cuda="x < y")
le = _mk(lambda xp, x, y: xp.less_equal(x, y), "le", output="bool", cuda="x <= y")
gt = _mk(lambda xp, x, y: xp.greater(x, y), "gt", output="bool", cuda="x > y")
ge = _mk(lambda xp, x, y: xp.greater_equal(x, y), "ge", output="bool", cuda="x >= y")
bor = _mk(_bitwise("bor", "bitwise_or"), "bor", cuda="x | y",
          _ufunc=_ufunc(np.bitwise_or, np.bitwise_or, None))
band = _mk(_bitwise("band", "bitwise_and"), "band", cuda="x & y",
           _ufunc=_ufunc(np.bitwise_and, np.bitwise_and, None))
bxor = _mk(_bitwise("bxor", "bitwise_xor"), "bxor", cuda="x ^ y",
           _ufunc=_ufunc(np.bitwise_xor, np.bitwise_xor, None))
firsti = _mk(_positional, "firsti", _positional="firsti", cuda="i")
firstj = _mk(_positional, "firstj", _positional="firstj", cuda="k")
secondi = _mk(_positional, "secondi", _positional="secondi", cuda="k")
secondj = _mk(_positional, "secondj", _positional="secondj", cuda="j")

BINARY = {
    op.name: op
    for op in (plus, minus, rminus, times, div, rdiv, min, max, first, second, pair, any,
               land, lor, lxor, eq, ne, lt, le, gt, ge, bor, band, bxor, firsti, firstj, secondi, secondj)
}
BINARY["oneb"] = pair


def get(name):
    """Return the built-in binary operator called ``name``; raise InvalidValue if there is none."""
    try:
        return BINARY[name]
    except (KeyError, TypeError):  # (TypeError: an unhashable name)
        raise InvalidValue(f"no built-in binary operator {name!r}; expected one of {sorted(BINARY)}") from None
