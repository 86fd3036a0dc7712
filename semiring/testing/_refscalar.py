"""The scalar half of the reference implementation: element types, typecasts and the built-in
operators, monoids and semirings, written out here independently of the library.

Nothing here calls the library's type rules or operator functions: the type each operator
produces is read from the tables below, and each built-in operator is a small function on one
value. Integer arithmetic is done on Python integers and wrapped to the type's width (two's
complement, as SuiteSparse:GraphBLAS and NumPy do); float arithmetic on NumPy float32 / float64
scalars (IEEE 754, round to nearest). A library operator is matched to its definition here by
its name; an operator a user made (``builtin`` false) has no definition here and is evaluated
by its own function.

Values are NumPy scalars of their type, or one of three stand-ins for a value the specification
does not pin down:

- :class:`Choice`: any one of a few values is right (what an ``any`` monoid or operator gives);
- :class:`Approx`: a float sum or product of three or more terms, which the specification lets
  an implementation compute in any order: every value within the rounding-error bound of any
  order of evaluation (N. J. Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed.,
  2002, sections 3.1 and 4.2), and the infinities and NaN that an overflowing order can give;
- :class:`Undefined`: a typecast that C leaves undefined (NaN or a value out of range into an
  integer type, NaN into bool, a finite value too large for float32). The library raises
  ``InvalidValue`` for these (``semiring.dtypes.cast``); where such a value ends in the output,
  the operation must raise, and anywhere else it may.

References: GraphBLAS C API Specification 2.0, sections 3.4 (tables 3.4-3.6, 3.8: the
operators, monoids and semirings), 3.5 (domains and typecasting) and 4.2.1; T. A. Davis,
SuiteSparse:GraphBLAS User Guide, "Built-in operators" (bool rules, integer division).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np

from ..exceptions import DomainMismatch

# -- types --------------------------------------------------------------------------------------
_SHORT = {"b": "bool", "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64", "u8": "uint8",
          "u16": "uint16", "u32": "uint32", "u64": "uint64", "f32": "float32", "f64": "float64"}

#: The type two operands of the row's and the column's types are combined in: the smallest type
#: that holds every value of both, as C's usual arithmetic conversions would if C had them for
#: every pair (bool converts to anything; mixed signed/unsigned go to the next wider signed type;
#: an integer of up to 16 bits fits float32, wider ones go to float64). "--": no such integer
#: type (uint64 with a signed type); the library refuses these instead of going to float64.
_PROMOTION = """
       b    i8   i16  i32  i64  u8   u16  u32  u64  f32  f64
  b    b    i8   i16  i32  i64  u8   u16  u32  u64  f32  f64
  i8   i8   i8   i16  i32  i64  i16  i32  i64  --   f32  f64
  i16  i16  i16  i16  i32  i64  i16  i32  i64  --   f32  f64
  i32  i32  i32  i32  i32  i64  i32  i32  i64  --   f64  f64
  i64  i64  i64  i64  i64  i64  i64  i64  i64  --   f64  f64
  u8   u8   i16  i16  i32  i64  u8   u16  u32  u64  f32  f64
  u16  u16  i32  i32  i32  i64  u16  u16  u32  u64  f32  f64
  u32  u32  i64  i64  i64  i64  u32  u32  u32  u64  f64  f64
  u64  u64  --   --   --   --   u64  u64  u64  u64  f64  f64
  f32  f32  f32  f32  f64  f64  f32  f32  f64  f64  f32  f64
  f64  f64  f64  f64  f64  f64  f64  f64  f64  f64  f64  f64
"""


def _parse_promotion(text):
    lines = [ln.split() for ln in text.strip().splitlines()]
    cols = [_SHORT[c] for c in lines[0]]
    table = {}
    for row in lines[1:]:
        a = _SHORT[row[0]]
        for b, cell in zip(cols, row[1:]):
            table[(a, b)] = None if cell == "--" else _SHORT[cell]
    return table


PROMOTION = _parse_promotion(_PROMOTION)
DTYPES = tuple(_SHORT.values())


def promote(a, b, what="operands"):
    """The type operands of types ``a`` and ``b`` are combined in; DomainMismatch if none."""
    a, b = np.dtype(a).name, np.dtype(b).name
    r = PROMOTION[(a, b)]
    if r is None:
        raise DomainMismatch(f"{what}: {a} and {b} have no common type")
    return np.dtype(r)


def _kind(d):
    return np.dtype(d).kind


def _bits(d):
    return np.dtype(d).itemsize * 8


def int_range(d):
    """(min, max) of integer type ``d``, from its width."""
    b = _bits(d)
    return (-(1 << (b - 1)), (1 << (b - 1)) - 1) if _kind(d) == "i" else (0, (1 << b) - 1)


def wrap(v, d):
    """The Python integer ``v`` as a value of integer type ``d``, modulo 2**bits."""
    b = _bits(d)
    v &= (1 << b) - 1
    if _kind(d) == "i" and v >= 1 << (b - 1):
        v -= 1 << b
    return np.dtype(d).type(v)


_MANTISSA = {"float32": 24, "float64": 53}
_FMAX = {"float32": float(np.float32(3.4028234663852886e38)), "float64": 1.7976931348623157e308}
_FTINY = {"float32": 2.0 ** -126, "float64": 2.0 ** -1022}
_EPS = {"float32": 2.0 ** -23, "float64": 2.0 ** -52}


def _int_to_float(v, d):
    """Integer ``v`` rounded to float type ``d`` (to nearest, ties to even), in one rounding."""
    a, sign = abs(v), -1 if v < 0 else 1
    extra = a.bit_length() - _MANTISSA[d.name]
    if extra > 0:
        q, r = divmod(a, 1 << extra)
        half = 1 << (extra - 1)
        if r > half or (r == half and q & 1):
            q += 1
        a = q << extra
    return d.type(sign * float(a))


# -- stand-ins for values the specification leaves open ----------------------------------------
class Choice:
    """A set of equally valid values (the result of an ``any`` reduction or operator)."""

    __slots__ = ("values",)

    def __init__(self, values):
        uniq = []
        for v in values:
            for w in (v.values if isinstance(v, Choice) else (v,)):
                if not any(same_scalar(w, u) for u in uniq):
                    uniq.append(w)
        self.values = tuple(uniq)

    def __repr__(self):
        return f"Choice({list(self.values)!r})"


class Approx:
    """Every float of type ``dtype`` in ``[lo, hi]`` (the bounds may be infinite), and NaN if
    ``nan``: a sum or product whose order of evaluation is left open."""

    __slots__ = ("dtype", "lo", "hi", "nan")

    def __init__(self, dtype, lo, hi, nan=False):
        self.dtype, self.lo, self.hi, self.nan = np.dtype(dtype), float(lo), float(hi), bool(nan)

    def accepts(self, v):
        f = float(v)
        return self.nan if math.isnan(f) else self.lo <= f <= self.hi

    def __repr__(self):
        return f"Approx({self.dtype.name}, [{self.lo!r}, {self.hi!r}]{', or NaN' if self.nan else ''})"



class Undefined:
    """A value C leaves undefined (``why`` says which typecast); ``final`` is True when it comes
    from the write step's typecast into the output, which no early exit can skip."""

    __slots__ = ("why", "final")

    def __init__(self, why, final=False):
        self.why, self.final = why, final

    def __repr__(self):
        return f"Undefined({self.why!r})"


def same_scalar(a, b, rtol=0.0):
    """Two plain values are equal (NaN equals NaN; -0.0 equals 0.0), within ``rtol`` for floats."""
    if isinstance(a, (Choice, Approx, Undefined)) or isinstance(b, (Choice, Approx, Undefined)):
        return a is b
    fa_kind = np.asarray(a).dtype.kind
    fb_kind = np.asarray(b).dtype.kind
    if fa_kind == "f" or fb_kind == "f":
        fa, fb = float(a), float(b)
        if math.isnan(fa) or math.isnan(fb):
            return math.isnan(fa) and math.isnan(fb)
        return fa == fb or abs(fa - fb) <= rtol * max(abs(fa), abs(fb), 1.0)
    return bool(int(a) == int(b))


def accepts(expected, actual, rtol=0.0):
    """The plain value ``actual`` is one the stand-in (or plain value) ``expected`` allows."""
    if isinstance(expected, Undefined):
        return True
    if isinstance(expected, Choice):
        return any(accepts(e, actual, rtol) for e in expected.values)
    if isinstance(expected, Approx):
        if not expected.accepts(actual) and rtol:
            f = float(actual)
            return math.isfinite(f) and expected.lo - rtol * abs(f) <= f <= expected.hi + rtol * abs(f)
        return expected.accepts(actual)
    return same_scalar(actual, expected, rtol)


def lift(f, *args):
    """``f`` on plain values; over every combination of candidates when an argument is a Choice;
    Undefined when an argument is."""
    for a in args:
        if isinstance(a, Undefined):
            return Undefined(a.why)
    if not any(isinstance(a, Choice) for a in args):
        return f(*args)
    pools = [a.values if isinstance(a, Choice) else (a,) for a in args]
    return Choice(f(*combo) for combo in itertools.product(*pools))


# -- typecasts ----------------------------------------------------------------------------------
def _plain_type(v):
    if isinstance(v, np.generic):
        return v.dtype
    if isinstance(v, (bool, np.bool_)):
        return np.dtype(bool)
    return np.dtype(np.int64) if isinstance(v, int) else np.dtype(np.float64)


def cast_plain(v, dtype):
    """One plain value into ``dtype`` as C casts it; Undefined where C does not define it."""
    d = np.dtype(dtype)
    src = _plain_type(v)
    if src == d and isinstance(v, np.generic):
        return v
    if src.kind == "f":
        f = float(v)
        if d.kind == "b":
            return Undefined(f"NaN into bool") if math.isnan(f) else np.bool_(f != 0)
        if d.kind in "iu":
            if not math.isfinite(f):
                return Undefined(f"{f} into {d.name}")
            t = math.trunc(f)
            lo, hi = int_range(d)
            if not lo <= t <= hi:
                return Undefined(f"{f} into {d.name}")
            return d.type(t)
        with np.errstate(all="ignore"):
            out = d.type(v)
        if math.isinf(float(out)) and math.isfinite(f):
            return Undefined(f"{f} into {d.name}")
        return out
    i = int(v)  # bool or integer
    if d.kind == "b":
        return np.bool_(i != 0)
    if d.kind in "iu":
        return wrap(i, d)
    return _int_to_float(i, d)


def cast_approx(a, dtype):
    d = np.dtype(dtype)
    if d.kind == "f":
        with np.errstate(all="ignore"):
            lo, hi = d.type(a.lo), d.type(a.hi)
        if (math.isinf(lo) and math.isfinite(a.lo)) or (math.isinf(hi) and math.isfinite(a.hi)):
            return Undefined(f"{a} into {d.name}")
        return Approx(d, np.nextafter(lo, d.type(-np.inf)), np.nextafter(hi, d.type(np.inf)), a.nan)
    if d.kind == "b" and not a.nan and (a.lo > 0 or a.hi < 0):
        return np.bool_(True)
    return Undefined(f"{a} into {d.name}")


def cast(v, dtype):
    """Typecast a value (plain or a stand-in) to ``dtype``."""
    if isinstance(v, Approx):
        return cast_approx(v, dtype)
    return lift(lambda x: cast_plain(x, dtype), v)


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
def _float_only(name, fn):
    def f(x, d):
        if d.kind != "f":
            raise DomainMismatch(f"unary {name}: a float32/float64 input; given {d.name}")
        with np.errstate(all="ignore"):
            return d.type(fn(x))
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
    "exp": ("same", _float_only("exp", np.exp)),
    "log": ("same", _float_only("log", np.log)),
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
    safe = total_abs * (1 + 2 * n * eps) <= fmax  # no partial sum of any order can overflow
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
        if len(plain) == len(vals):
            return (_any_order_sum if name == "plus" else _any_order_product)(plain, d)
        return Approx(d, -np.inf, np.inf, True)
    acc = vals[0]
    for v in vals[1:]:
        acc = cast(binop(m.op, acc, v), d)
    return acc
