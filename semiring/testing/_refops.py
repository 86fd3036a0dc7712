"""The built-in operators, monoids and semirings of the reference implementation, each a small
function on one value, with the type each produces (GraphBLAS C API 2.0, tables 3.4-3.6 and
3.8; SuiteSparse:GraphBLAS for the bool rules and integer division by zero).

Integer arithmetic is done on Python integers and wrapped to the type's width; float arithmetic
on NumPy float32 / float64 scalars. A library operator is matched to its definition here by its
name (``builtin`` operators only); a user's own operator is evaluated by its own function.
Types, typecasts and the stand-ins for open values are in :mod:`._refscalar`.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from ..exceptions import DomainMismatch
from ._refscalar import (
    _EPS, _FMAX, _FTINY, Approx, Choice, Undefined, _plain_type, cast, int_range, lift, promote, wrap,
)


# -- binary operators ---------------------------------------------------------------------------
def _idiv(x, y, d):
    """C integer division ``x / y`` in type ``d``: truncation toward zero; ``x / 0`` is 0 for
    ``x == 0`` and the type's maximum (minimum) for positive (negative) ``x`` (SuiteSparse)."""
    if y == 0:
        lo, hi = int_range(d)
        return wrap(0 if x == 0 else (hi if x > 0 else lo), d)
    q = abs(x) // abs(y)
    return wrap(q if (x < 0) == (y < 0) else -q, d)


def _fmin(x, y):
    if math.isnan(x):
        return y
    if math.isnan(y):
        return x
    return x if x <= y else y


def _fmax(x, y):
    if math.isnan(x):
        return y
    if math.isnan(y):
        return x
    return x if x >= y else y


def _arith(bool_f, int_f, float_f):
    def f(x, y, d):
        k = d.kind
        if k == "b":
            return np.bool_(bool_f(bool(x), bool(y)))
        if k in "iu":
            return int_f(int(x), int(y), d)
        with np.errstate(all="ignore"):
            return d.type(float_f(x, y))
    return f


def _int(op):
    return lambda x, y, d: wrap(op(x, y), d)


def _compare(op):
    def f(x, y, d):
        if d.kind == "f":
            return np.bool_(op(float(x), float(y)))  # NaN compares false (ne: true)
        return np.bool_(op(int(x), int(y)))
    return f


def _bitwise(name, op):
    def f(x, y, d):
        if d.kind == "f":
            raise DomainMismatch(f"binary {name}: bool or integer inputs; given {d.name}")
        if d.kind == "b":
            return np.bool_(op(int(bool(x)), int(bool(y))))
        return wrap(op(int(x), int(y)), d)
    return f


_plus = _arith(lambda x, y: x or y, _int(lambda x, y: x + y), lambda x, y: x + y)
_minus = _arith(lambda x, y: x != y, _int(lambda x, y: x - y), lambda x, y: x - y)
_times = _arith(lambda x, y: x and y, _int(lambda x, y: x * y), lambda x, y: x * y)
_div = _arith(lambda x, y: x, _idiv, lambda x, y: x / y)
_min = _arith(lambda x, y: x and y, lambda x, y, d: d.type(min(x, y)), lambda x, y: _fmin(x, y))
_max = _arith(lambda x, y: x or y, lambda x, y, d: d.type(max(x, y)), lambda x, y: _fmax(x, y))


def _one(d):
    return np.bool_(True) if d.kind == "b" else d.type(1)


#: name -> (input rule, output rule, f(x, y, d) on values already cast to the input type d).
#: input rule "common": both operands in the promoted type; "bool": both cast to bool.
#: output rule "same": the input type; "bool"; "int64" (positional).
BINARY = {
    "plus": ("common", "same", _plus),
    "minus": ("common", "same", _minus),
    "rminus": ("common", "same", lambda x, y, d: _minus(y, x, d)),
    "times": ("common", "same", _times),
    "div": ("common", "same", _div),
    "rdiv": ("common", "same", lambda x, y, d: _div(y, x, d)),
    "min": ("common", "same", _min),
    "max": ("common", "same", _max),
    "first": ("common", "same", lambda x, y, d: x),
    "second": ("common", "same", lambda x, y, d: y),
    "pair": ("common", "same", lambda x, y, d: _one(d)),
    "oneb": ("common", "same", lambda x, y, d: _one(d)),
    "any": ("common", "same", lambda x, y, d: Choice((x, y))),
    "land": ("bool", "same", lambda x, y, d: np.bool_(x and y)),
    "lor": ("bool", "same", lambda x, y, d: np.bool_(x or y)),
    "lxor": ("bool", "same", lambda x, y, d: np.bool_(x != y)),
    "eq": ("common", "bool", _compare(lambda x, y: x == y)),
    "ne": ("common", "bool", _compare(lambda x, y: x != y)),
    "lt": ("common", "bool", _compare(lambda x, y: x < y)),
    "le": ("common", "bool", _compare(lambda x, y: x <= y)),
    "gt": ("common", "bool", _compare(lambda x, y: x > y)),
    "ge": ("common", "bool", _compare(lambda x, y: x >= y)),
    "bor": ("common", "same", _bitwise("bor", lambda x, y: x | y)),
    "band": ("common", "same", _bitwise("band", lambda x, y: x & y)),
    "bxor": ("common", "same", _bitwise("bxor", lambda x, y: x ^ y)),
}
POSITIONAL = {"firsti": 0, "firstj": 1, "secondi": 1, "secondj": 2}  # index into (i, k, j)
#: Operators nondecreasing (+1) or nonincreasing (-1) in each argument, for Approx operands.
_MONOTONE = {"plus": (1, 1), "minus": (1, -1), "rminus": (-1, 1), "min": (1, 1), "max": (1, 1),
             "first": (1, 0), "second": (0, 1)}


def _builtin(op, table):
    name = getattr(op, "name", None)
    return name if getattr(op, "builtin", False) and name in table else None


def binary_name(op):
    """The reference's name for a built-in BinaryOp (or a Monoid's operator); None otherwise."""
    op = getattr(op, "op", op)
    if getattr(op, "positional", None):
        return op.positional
    return _builtin(op, BINARY)


def binary_types(op, dx, dy):
    """(input type, output type) of ``op`` on operands of types ``dx`` and ``dy``."""
    op = getattr(op, "op", op)
    name = binary_name(op)
    if name in POSITIONAL:
        return np.dtype(np.int64), np.dtype(np.int64)
    if name is None:  # a user's operator: its own rule
        return op.input_dtype(dx, dy), op.output_dtype(dx, dy)
    rule_in, rule_out, _ = BINARY[name]
    t = np.dtype(bool) if rule_in == "bool" else promote(dx, dy, f"operands of {name}")
    if name in ("bor", "band", "bxor") and t.kind == "f":
        raise DomainMismatch(f"binary {name}: bool or integer inputs; given {t.name}")
    return t, {"same": t, "bool": np.dtype(bool), "int64": np.dtype(np.int64)}[rule_out]


def binary_output(op, dx, dy):
    return binary_types(op, dx, dy)[1]


def _approx_binop(name, x, y, t):
    """A monotone operator on plain and Approx operands: the range of its results."""
    signs = _MONOTONE.get(name)
    if signs is None:
        return Approx(t, -np.inf, np.inf, True)
    ends = []
    xs = (x.lo, x.hi) if isinstance(x, Approx) else (float(x),)
    ys = (y.lo, y.hi) if isinstance(y, Approx) else (float(y),)
    f = BINARY[name][2]
    for a in xs:
        for b in ys:
            ends.append(float(f(t.type(a), t.type(b), t)))
    nan = any(math.isnan(e) for e in ends) or any(isinstance(v, Approx) and v.nan for v in (x, y))
    ends = [e for e in ends if not math.isnan(e)] or [0.0]
    return Approx(t, min(ends), max(ends), nan)


def binop(op, x, y, idx=None):
    """``op(x, y)`` with the operands cast to the operator's input type; for a positional
    operator, the index it picks from ``idx = (i, k, j)``."""
    op = getattr(op, "op", op)
    name = binary_name(op)
    if name in POSITIONAL:
        return np.int64(idx[POSITIONAL[name]])
    if name is None:
        return lift(lambda a, b: op.eval(np.array([a]), np.array([b]))[0], x, y)
    dx, dy = _value_dtype(x), _value_dtype(y)
    t, out = binary_types(op, dx, dy)
    x, y = cast(x, t), cast(y, t)
    if isinstance(x, Approx) or isinstance(y, Approx):
        if isinstance(x, Undefined) or isinstance(y, Undefined):
            return Undefined("from an undefined operand")
        if out.kind != "f":
            return Undefined(f"{name} of an order-dependent sum")
        return _approx_binop(name, x, y, t)
    f = BINARY[name][2]
    return lift(lambda a, b: f(a, b, t), x, y)


def _value_dtype(v):
    if isinstance(v, Approx):
        return v.dtype
    if isinstance(v, Choice):
        return _value_dtype(v.values[0])
    if isinstance(v, Undefined):
        return np.dtype(bool)  # (any type: the result is Undefined whatever it is)
    return _plain_type(v)


# -- unary operators ----------------------------------------------------------------------------
def _float_only(name, fn, ulps=0):
    """A float-only function; ``ulps``: how far from the correctly rounded value an
    implementation may be (IEEE 754 rounds sqrt correctly; exp and log need not be)."""
    def f(x, d):
        if d.kind != "f":
            raise DomainMismatch(f"unary {name}: a float32/float64 input; given {d.name}")
        with np.errstate(all="ignore"):
            z = d.type(fn(x))
            if not ulps or not np.isfinite(z) or z == 0:
                return z
            gap = ulps * np.spacing(abs(z))
            return Approx(d, z - gap, z + gap)
    return f


def _ainv(x, d):
    if d.kind == "b":
        return x
    return wrap(-int(x), d) if d.kind in "iu" else -x


def _abs(x, d):
    if d.kind in "bu":
        return x
    return wrap(abs(int(x)), d) if d.kind == "i" else d.type(abs(x))


def _minv(x, d):
    if d.kind == "b":
        return np.bool_(True)  # 1 / x on bool: true (SuiteSparse GxB_MINV_BOOL)
    if d.kind in "iu":
        return _idiv(1, int(x), d)
    with np.errstate(all="ignore"):
        return d.type(1) / x


#: name -> (input rule "same" or "bool", f(x, d)); the output type is the input type.
UNARY = {
    "identity": ("same", lambda x, d: x),
    "ainv": ("same", _ainv),
    "minv": ("same", _minv),
    "abs": ("same", _abs),
    "one": ("same", lambda x, d: _one(d)),
    "lnot": ("bool", lambda x, d: np.bool_(not x)),
    "sqrt": ("same", _float_only("sqrt", np.sqrt)),
    "exp": ("same", _float_only("exp", np.exp, ulps=2)),
    "log": ("same", _float_only("log", np.log, ulps=2)),
}


def unary_output(op, dx):
    name = _builtin(op, UNARY)
    if name is None:
        return op.output_dtype(dx)
    if name in ("sqrt", "exp", "log") and np.dtype(dx).kind != "f":
        raise DomainMismatch(f"unary {name}: a float32/float64 input; given {np.dtype(dx).name}")
    return np.dtype(bool) if UNARY[name][0] == "bool" else np.dtype(dx)


def unop(op, x, dx):
    name = _builtin(op, UNARY)
    if name is None:
        return lift(lambda a: op.eval(np.array([a], dtype=dx))[0], x)
    t = unary_output(op, dx)
    x = cast(x, t)
    if isinstance(x, Approx):
        return Undefined(f"{name} of an order-dependent sum")
    return lift(lambda a: UNARY[name][1](a, t), x)


# -- index-unary operators ----------------------------------------------------------------------
def _thunk_compare(cmp):
    def f(x, i, j, t, dx):
        """``x op thunk`` in the common type of x's and the thunk's (a NumPy scalar's own type;
        a Python int compares exactly, a Python float as a float64 unless x is a float)."""
        if isinstance(t, np.generic):
            c = promote(dx, t.dtype, "value and thunk")
        elif isinstance(t, float) and np.dtype(dx).kind != "f":
            c = np.dtype(np.float64)
        elif isinstance(t, (bool, int)) and np.dtype(dx).kind != "f":
            return np.bool_(cmp(int(x), int(t)))
        else:
            c = np.dtype(dx)
        a, b = cast(x, c), cast(t, c)
        if isinstance(a, Undefined) or isinstance(b, Undefined):
            return Undefined("thunk")
        return _compare(cmp)(a, b, c)
    return f


def _n(t):
    """A thunk as an exact Python number (indices are compared with it exactly)."""
    return int(t) if isinstance(t, (bool, int, np.bool_, np.integer)) else float(t)


#: name -> (output "bool" or "int64", f(x, i, j, thunk, dtype of x)).
INDEXUNARY = {
    "tril": ("bool", lambda x, i, j, t, d: np.bool_(j <= i + _n(t))),
    "triu": ("bool", lambda x, i, j, t, d: np.bool_(j >= i + _n(t))),
    "diag": ("bool", lambda x, i, j, t, d: np.bool_(j == i + _n(t))),
    "offdiag": ("bool", lambda x, i, j, t, d: np.bool_(j != i + _n(t))),
    "rowle": ("bool", lambda x, i, j, t, d: np.bool_(i <= _n(t))),
    "rowgt": ("bool", lambda x, i, j, t, d: np.bool_(i > _n(t))),
    "colle": ("bool", lambda x, i, j, t, d: np.bool_(j <= _n(t))),
    "colgt": ("bool", lambda x, i, j, t, d: np.bool_(j > _n(t))),
    "valueeq": ("bool", _thunk_compare(lambda x, y: x == y)),
    "valuene": ("bool", _thunk_compare(lambda x, y: x != y)),
    "valuelt": ("bool", _thunk_compare(lambda x, y: x < y)),
    "valuele": ("bool", _thunk_compare(lambda x, y: x <= y)),
    "valuegt": ("bool", _thunk_compare(lambda x, y: x > y)),
    "valuege": ("bool", _thunk_compare(lambda x, y: x >= y)),
    "rowindex": ("int64", lambda x, i, j, t, d: wrap(i + int(t), np.dtype(np.int64))),
    "colindex": ("int64", lambda x, i, j, t, d: wrap(j + int(t), np.dtype(np.int64))),
    "diagindex": ("int64", lambda x, i, j, t, d: wrap(j - (i + int(t)), np.dtype(np.int64))),
}


def indexunary_output(op, dx):
    name = _builtin(op, INDEXUNARY)
    return op.output_dtype(dx) if name is None else np.dtype(INDEXUNARY[name][0])


def indexop(op, x, i, j, thunk, dx):
    """``f(x, i, j, thunk)`` for an index-unary operator (j = 0 for a vector)."""
    name = _builtin(op, INDEXUNARY)
    if name is None:
        return lift(lambda a: op.eval(np.array([a], dtype=dx), np.array([i]), np.array([j]), thunk)[0], x)
    f = INDEXUNARY[name][1]
    return lift(lambda a: f(a, i, j, thunk, np.dtype(dx)), x)


# -- monoids ------------------------------------------------------------------------------------
def _all_ones(d):
    return np.bool_(True) if d.kind == "b" else wrap(-1, d)


def _type_max(d):
    return np.bool_(True) if d.kind == "b" else (d.type(np.inf) if d.kind == "f" else d.type(int_range(d)[1]))


def _type_min(d):
    return np.bool_(False) if d.kind == "b" else (d.type(-np.inf) if d.kind == "f" else d.type(int_range(d)[0]))


def _zero(d):
    return np.bool_(False) if d.kind == "b" else d.type(0)


#: name -> (operator, identity(d), the dtype kinds it takes): C API 2.0 table 3.8, SuiteSparse
#: for the bitwise and ``any`` monoids (``any``'s identity is never observable but as the
#: reduction of nothing, where it is 0).
MONOID = {
    "plus": ("plus", _zero, "biuf"),
    "times": ("times", _one, "biuf"),
    "min": ("min", _type_max, "biuf"),
    "max": ("max", _type_min, "biuf"),
    "any": ("any", _zero, "biuf"),
    "land": ("land", lambda d: np.bool_(True), "b"),
    "lor": ("lor", lambda d: np.bool_(False), "b"),
    "lxor": ("lxor", lambda d: np.bool_(False), "b"),
    "bor": ("bor", _zero, "biu"),
    "band": ("band", _all_ones, "biu"),
    "bxor": ("bxor", _zero, "biu"),
}


def monoid_name(m):
    """The name of a built-in monoid (the library's registry object of that name), else None."""
    from ..ops import monoid as _registry  # names only: which object is the built-in one

    name = getattr(m, "name", None)
    return name if name in MONOID and _registry.MONOID.get(name) is m else None


def monoid_domain(m, dtype):
    """The type a reduction of ``dtype`` values by monoid ``m`` computes and returns."""
    name = monoid_name(m)
    d = np.dtype(dtype)
    if name is None:
        return m.domain_for(d)
    if d.kind not in MONOID[name][2]:
        raise DomainMismatch(f"monoid {name} takes {MONOID[name][2]!r} kinds of values; given {d.name}")
    return d


def identity(m, dtype):
    name = monoid_name(m)
    d = monoid_domain(m, dtype)
    return m.identity_for(d) if name is None else MONOID[name][1](d)


def semiring_output(s, dx, dy):
    """The type of a product's result: the monoid's domain for the multiply's output type."""
    return monoid_domain(s.monoid, binary_output(s.multiply, dx, dy))


def _exact(v):
    return Fraction(float(v))


def _any_order_sum(terms, d):
    if any(math.isnan(float(t)) for t in terms):
        return d.type(np.nan)
    pos = any(float(t) == math.inf for t in terms)
    neg = any(float(t) == -math.inf for t in terms)
    if pos and neg:
        return d.type(np.nan)
    finite = [_exact(t) for t in terms if math.isfinite(float(t))]
    total_abs = sum(abs(f) for f in finite)
    n, eps, fmax = len(terms), _EPS[d.name], _FMAX[d.name]
    safe = total_abs * Fraction(1 + 2 * n * eps) <= fmax  # no partial sum of any order can overflow
    if pos or neg:
        inf = d.type(np.inf if pos else -np.inf)
        return inf if safe else Approx(d, float(inf), float(inf), True)
    s = sum(finite)
    err = total_abs * Fraction(n * eps)  # >= (n-1) u / (1 - (n-1) u) |sum| |t|, u = eps / 2
    if safe:
        return Approx(d, float(s - err), float(s + err))
    return Approx(d, -np.inf, np.inf, True)


def _any_order_product(terms, d):
    vals = [float(t) for t in terms]
    if any(math.isnan(v) for v in vals):
        return d.type(np.nan)
    zero = any(v == 0 for v in vals)
    inf = any(math.isinf(v) for v in vals)
    if zero and inf:
        return d.type(np.nan)
    n, eps, fmax, tiny = len(vals), _EPS[d.name], _FMAX[d.name], _FTINY[d.name]
    big = math.prod(Fraction(abs(v)) for v in vals if math.isfinite(v) and abs(v) >= 1)
    small = math.prod(Fraction(abs(v)) for v in vals if 0 < abs(v) < 1)
    grow = (1 + 2 * eps) ** n
    no_over = big * Fraction(grow) <= fmax
    no_under = small / Fraction(grow) >= tiny
    sign = -1 if sum(v < 0 or (v == 0 and math.copysign(1, v) < 0) for v in vals) % 2 else 1
    if zero:
        return d.type(sign * 0.0) if no_over else Approx(d, 0.0, 0.0, True)
    if inf:
        return d.type(sign * np.inf) if no_under else Approx(d, sign * np.inf, sign * np.inf, True)
    if not (no_over and no_under):
        return Approx(d, -np.inf, np.inf, True)
    p = math.prod(Fraction(v) for v in vals)
    err = abs(p) * Fraction(n * eps)
    return Approx(d, float(p - err), float(p + err))


def fold(m, values, dtype):
    """The monoid ``m`` over ``values`` (a list; None when empty) in the monoid's domain for
    ``dtype``. Every built-in monoid is associative and commutative, so the order is free: on
    floats ``plus`` and ``times`` of three or more terms give the Approx of every order."""
    d = monoid_domain(m, dtype)
    vals = [cast(v, d) for v in values]
    if not vals:
        return None
    name = monoid_name(m)
    if any(isinstance(v, Undefined) for v in vals):
        return Undefined("a term is undefined")
    if name == "any":
        return Choice(vals)
    if name in ("plus", "times") and d.kind == "f" and len(vals) >= 3:
        plain = [v for v in vals if not isinstance(v, (Choice, Approx))]
        if len(plain) < len(vals):
            return Approx(d, -np.inf, np.inf, True)
        r = (_any_order_sum if name == "plus" else _any_order_product)(plain, d)
        if isinstance(r, Approx) and r.lo == r.hi and not r.nan:
            return d.type(r.lo)  # exact in every order
        return r
    acc = vals[0]
    for v in vals[1:]:
        acc = cast(binop(m.op, acc, v), d)
    return acc
