"""Argument checks of plain values: integers, reals, flags, seeds, dimensions, indices, vertices,
depths, index and value arrays, decimal text.

One place and one message style for every layer (ops, core, io, generators, algorithms, the
networkx backend, the command line): each check returns the value in its Python type (or, for
arrays, an array of the same module) or raises :class:`~semiring.exceptions.InvalidValue`
(:class:`~semiring.exceptions.IndexOutOfBound` for an index or vertex outside its range) with a
message that names the call, the argument, what was expected and what was given. A bool is
never accepted where a number is expected (``True`` is an ``int`` in Python, but a flag passed
as a count is a caller's mistake).

The array checks take the array module (NumPy or CuPy) of the array they are given, so one
check serves both devices; converting a caller's object into an array is the containers' part
(:mod:`semiring.core`).
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from . import dtypes as _dt
from .exceptions import DimensionMismatch, DomainMismatch, IndexOutOfBound, InvalidValue

#: The Python and NumPy booleans, refused wherever a number is expected.
BOOLS = (bool, np.bool_)

#: Dimensions are below 2**63: indices are int64.
MAX_DIMENSION = 2**63 - 1


def _given(x):
    return repr(x)[:200]


def _label(what, name):
    """``"what: name"``; ``name`` alone when ``what`` is empty, ``what`` alone when ``name`` is."""
    if what and name:
        return f"{what}: {name}"
    return what or name


def is_integer(x):
    """True for a Python or NumPy integer that is not a bool."""
    return isinstance(x, (int, np.integer)) and not isinstance(x, BOOLS)


def is_real(x, *, finite=False):
    """True for a real number (int, float, NumPy scalar) that is not a bool; with ``finite``,
    also not NaN or infinite."""
    if not isinstance(x, numbers.Real) or isinstance(x, BOOLS):
        return False
    return not finite or math.isfinite(as_float(x))


def as_float(x):
    """A real number as a float: ``inf`` or ``-inf`` where it is too large for one (an int of
    400 digits)."""
    try:
        return float(x)
    except OverflowError:
        return math.inf if x > 0 else -math.inf


def _range_text(low, high, high_open):
    if low is not None and high is not None:
        return f"in [{low}, {high}{')' if high_open else ']'}"
    if low is not None:
        return f">= {low}"
    return f"{'<' if high_open else '<='} {high}"


def _expected(kind, low, high, high_open, none):
    """``"[None or ]<kind>[ <range>]"``: what a number check expects."""
    bounds = "" if low is None and high is None else " " + _range_text(low, high, high_open)
    return f"{'None or ' if none else ''}{kind}{bounds}"


def integer(x, what, name, *, low=None, high=None, none=False):
    """``x`` as an int, checked to be an integer (not a bool) in ``[low, high]``.

    Parameters
    ----------
    x : object
        The value given.
    what : str
        The call, for the message (``"bfs"``); empty to name the argument alone.
    name : str
        The argument's name (``"max_iter"``).
    low, high : int, optional
        Inclusive bounds.
    none : bool, default False
        Accept None (returned as it is).

    Raises
    ------
    InvalidValue
        ``x`` is not an integer, or is out of range.
    """
    if none and x is None:
        return None
    expected = _expected("an integer", low, high, False, none)
    if not is_integer(x):
        raise InvalidValue(f"{_label(what, name)} must be {expected}; given {_given(x)}")
    if (low is not None and x < low) or (high is not None and x > high):
        raise InvalidValue(f"{_label(what, name)} must be {expected}; given {x}")
    return int(x)


def real(x, what, name, *, low=None, high=None, high_open=False, finite=False, none=False):
    """``x`` as a float, checked to be a real number (not a bool, not NaN) in ``[low, high]``
    (``[low, high)`` with ``high_open``); ``finite`` also refuses infinities (an int too large
    for a float counts as infinite); ``none`` accepts None.

    Raises
    ------
    InvalidValue
        ``x`` is not a real number, is NaN, is infinite with ``finite``, or is out of range.
    """
    if none and x is None:
        return None
    expected = _expected("a finite real number" if finite else "a real number", low, high, high_open, none)
    if not is_real(x) or x != x:
        raise InvalidValue(f"{_label(what, name)} must be {expected}; given {_given(x)}")
    x = as_float(x)
    if (finite and not math.isfinite(x)) or (low is not None and x < low) \
            or (high is not None and (x >= high if high_open else x > high)):
        raise InvalidValue(f"{_label(what, name)} must be {expected}; given {x}")
    return x


def flag(x, what, name=None):
    """``x`` as a bool; InvalidValue unless it is a Python or NumPy bool."""
    if not isinstance(x, BOOLS):
        raise InvalidValue(f"{_label(what, name)}: expected True or False; given {_given(x)}")
    return bool(x)


def seed(x, what, name="seed", *, draw=False):
    """A random seed: None or an integer >= 0; with ``draw``, None becomes a fresh seed drawn
    from the operating system's entropy (``numpy.random.SeedSequence``)."""
    x = integer(x, what, name, low=0, none=True)
    if x is None and draw:
        return int(np.random.SeedSequence().entropy)
    return x


def vertex(v, n, what, name="source"):
    """``v`` as an int vertex index of a graph of ``n`` vertices.

    Raises
    ------
    InvalidValue
        ``v`` is not an integer (or is a bool).
    IndexOutOfBound
        ``v`` is not in ``0..n-1``.
    """
    if not is_integer(v):
        raise InvalidValue(f"{what}: {name} must be an integer vertex index; given {_given(v)}")
    if not 0 <= v < n:
        raise IndexOutOfBound(f"{what}: {name} must be a vertex in 0..{n - 1}; given {v}")
    return int(v)


def depth(d, what, name="depth"):
    """A search depth: None (no limit) or an integer >= 0."""
    return integer(d, what, name, low=0, none=True)


def dimension(n, what):
    """``n`` as a Python int, checked to be an integer in ``[0, 2**63)`` (a container's size)."""
    if not is_integer(n):
        raise InvalidValue(f"{what}: expected a non-negative integer; given {_given(n)}")
    if n < 0:
        raise InvalidValue(f"{what}: expected a non-negative integer; given {n}")
    if n > MAX_DIMENSION:
        raise InvalidValue(f"{what}: expected a non-negative integer below 2**63; given {n}")
    return int(n)


def index(i, n, what):
    """One index: an int (not a bool) with ``0 <= i < n``, as a Python int.

    Raises
    ------
    InvalidValue
        ``i`` is not an integer.
    IndexOutOfBound
        ``i`` is outside ``[0, n)``.
    """
    if not is_integer(i):
        raise InvalidValue(f"{what}: expected an integer index; given {_given(i)}")
    if not 0 <= i < n:
        raise IndexOutOfBound(f"{what}: expected indices in [0, {n}); given {i}")
    return int(i)


def index_array(arr, n, what, xp=np):
    """``arr`` (an array of the module ``xp``, NumPy or CuPy) as a 1-d int64 array of ``xp``
    with ``0 <= arr < n``; float arrays of integral values are taken.

    Raises
    ------
    InvalidValue
        Not 1-d; not of an integer dtype (or floats with a fraction, NaN or infinity).
    IndexOutOfBound
        An index outside ``[0, n)``.
    """
    if arr.ndim != 1:
        raise InvalidValue(f"{what}: expected a 1-d array of indices; given shape {arr.shape}")
    if arr.shape[0] == 0:
        return xp.zeros(0, dtype=np.int64)
    if arr.dtype.kind == "f":
        if not bool(xp.all(xp.isfinite(arr))) or not bool(xp.all(arr == xp.floor(arr))):
            raise InvalidValue(f"{what}: expected integer indices; given non-integral {arr.dtype.name} values")
    elif arr.dtype.kind not in "iu":
        raise InvalidValue(f"{what}: expected integer indices; given dtype {arr.dtype}")
    if arr.dtype.kind == "u" and arr.dtype.itemsize == 8 and int(arr.max()) > MAX_DIMENSION:
        raise IndexOutOfBound(f"{what}: index {int(arr.max())} is out of range for size {n}")
    arr = arr.astype(np.int64, copy=False)
    lo, hi = int(arr.min()), int(arr.max())
    if lo < 0 or hi >= n:
        raise IndexOutOfBound(f"{what}: expected indices in [0, {n}); given {lo if lo < 0 else hi}")
    return arr


def values_array(values, count, dtype, what, xp=np):
    """Values of ``count`` entries, as a new array of ``xp`` (never ``values`` itself): from
    None (``True``, or 1 of ``dtype``), a 0-d array (broadcast) or a 1-d array of ``count``
    values, cast to ``dtype`` (default: the values' own).

    Raises
    ------
    DomainMismatch
        Values that are not bool, integer or float; an unsupported ``dtype``.
    DimensionMismatch
        A 1-d array of another length, or an array of more dimensions.
    InvalidValue
        Values the cast cannot keep (:func:`semiring.dtypes.cast`).
    """
    if values is None:
        return xp.ones(count, dtype=_dt.BOOL if dtype is None else _dt.lookup(dtype, f"{what} dtype"))
    if values.dtype.kind not in "biuf":
        raise DomainMismatch(f"{what}: expected bool, integer or float values; given dtype {values.dtype}")
    if values.ndim == 0:
        arr = xp.broadcast_to(values, (count,)).copy()
    elif values.ndim != 1 or values.shape[0] != count:
        raise DimensionMismatch(f"{what}: expected {count} values (one per index); given shape {values.shape}")
    else:
        arr = values
    d = _dt.lookup(arr.dtype if dtype is None else dtype, f"{what} dtype")
    out = _dt.cast(arr, d, what)
    return out.copy() if out is values else out


def decimal(text, low, high, *, signed=True):
    """The int a decimal text spells (digits, with a leading ``+`` or ``-`` when ``signed``) when
    it lies in ``low..high``; None otherwise (text that is no integer, or one out of range).
    Text of more digits than ``high`` has is out of range without being converted (``int``
    refuses thousands of digits)."""
    if not isinstance(text, str):
        return None
    digits = text[1:] if signed and text[:1] in "+-" and len(text) > 1 else text
    if not (digits.isascii() and digits.isdigit()) or len(digits.lstrip("0")) > len(str(high)):
        return None
    value = int(text)
    return value if low <= value <= high else None


def reason(check, *args, **kwargs):
    """The message ``check(*args, **kwargs)`` raises (InvalidValue or IndexOutOfBound), or None
    when it accepts: a check as a reason to decline (the networkx backend's ``can_run``)."""
    try:
        check(*args, **kwargs)
    except (InvalidValue, IndexOutOfBound) as exc:
        return str(exc)
    return None


__all__ = ["BOOLS", "MAX_DIMENSION", "is_integer", "is_real", "as_float", "integer", "real", "flag", "seed",
           "vertex", "depth", "dimension", "index", "index_array", "values_array", "decimal", "reason"]
