"""Element types, typecasts and the stand-ins for open values, for the reference implementation.

Nothing here calls the library's type rules: the type two operands are combined in is read
from the promotion table below, and each typecast is written out on one value (integers
wrapped to the type's width as C and SuiteSparse:GraphBLAS do; an integer into a float rounded
once, to nearest). The operators themselves are in :mod:`._refops`.

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
            return Undefined("NaN into bool") if math.isnan(f) else np.bool_(f != 0)
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
    """An Approx into ``dtype``: the range its values cast to (a Choice for bool and for a few
    integers); Undefined where some of them have no value there."""
    d = np.dtype(dtype)
    if d.kind == "f":
        with np.errstate(all="ignore"):
            lo, hi = d.type(a.lo), d.type(a.hi)
        if (math.isinf(lo) and math.isfinite(a.lo)) or (math.isinf(hi) and math.isfinite(a.hi)):
            return Undefined(f"{a} into {d.name}")
        return Approx(d, lo, hi, a.nan)
    if a.nan:
        return Undefined(f"{a} into {d.name}")
    if d.kind == "b":
        if a.lo > 0 or a.hi < 0:
            return np.bool_(True)
        return np.bool_(False) if a.lo == a.hi == 0 else Choice((np.bool_(False), np.bool_(True)))
    lo, hi = int_range(d)
    if not (math.isfinite(a.lo) and math.isfinite(a.hi)):
        return Undefined(f"{a} into {d.name}")
    tlo, thi = math.trunc(a.lo), math.trunc(a.hi)
    if tlo < lo or thi > hi or thi - tlo > 16:
        return Undefined(f"{a} into {d.name}")
    return Choice(d.type(v) for v in range(tlo, thi + 1))


def cast(v, dtype):
    """Typecast a value (plain or a stand-in) to ``dtype``."""
    if isinstance(v, Approx):
        return cast_approx(v, dtype)
    return lift(lambda x: cast_plain(x, dtype), v)
