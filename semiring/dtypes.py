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
    if not isinstance(dtype, (str, np.dtype, type)):  # (numpy reads None as float64, b"\x00" as bool)
        raise DomainMismatch(f"{what}: expected one of {_NAMES} (a name, a NumPy dtype or type); "
                             f"given {dtype!r}"[:300])
    try:
        d = np.dtype(dtype)
    except (TypeError, ValueError) as exc:
        raise DomainMismatch(f"{what}: expected one of {_NAMES}; given {dtype!r}") from exc
    if d not in SUPPORTED:
        kind = {"U": " (strings)", "S": " (bytes)", "O": " (Python objects)"}.get(d.kind, "")
        raise DomainMismatch(f"{what}: expected one of {_NAMES}; given {d.name if d.kind in 'biufc' else d}{kind}")
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


def cast(values, dtype, what="values", *, wrap_integers=False):
    """Cast an array to ``dtype``, refusing casts that would not keep the values.

    The typecasts of C (GraphBLAS C API 2.0, section 3.5) where they are defined: an integer
    or float into a type that holds its value keeps it (a float into an integer type truncates
    toward zero, an integer into a float rounds to the nearest); anything into bool is
    ``x != 0``. Where C leaves the result undefined or wraps around, this raises instead of
    storing a wrong value:

    - NaN into bool or an integer type;
    - +-inf, or a value outside the type's range after truncation, into an integer type
      (``1e30`` into int32, ``-1.0`` into uint8);
    - a finite float64 value too large for float32 (it would become +-inf); NaN and
      infinities themselves cast to float32 unchanged;
    - unless ``wrap_integers``, an integer outside the range of a narrower integer type
      (``300`` into int8, ``-1`` into uint8, ``2**63`` as uint64 into int64).

    The check is one min/max pass over the array, made only when the source type can hold
    values the target cannot (never for bool sources, widening integer casts or casts into
    float64).

    Parameters
    ----------
    values : numpy.ndarray or cupy.ndarray
        Of a bool, integer or float dtype.
    dtype : dtype
    what : str
        Names the values in messages (``"Matrix.from_coo values"``, ``"result of plus"``).
    wrap_integers : bool, default False
        True: an integer into a narrower integer type wraps around modulo 2**bits, as C's
        integer conversion does; this is the typecast of the algebra (a result written into
        an output of another type, an operator's operands). False: such values are refused,
        as for values entering the library (constructors, readers, ``dup``).

    Returns
    -------
    array of ``dtype``
        ``values`` itself when it already has ``dtype``, else a new array.

    Raises
    ------
    DomainMismatch
        ``values`` is not of a bool, integer or float dtype (strings, objects such as None).
    InvalidValue
        A value cannot be cast, as above; the message names ``what``, the first such value and
        its position.
    """
    dtype = np.dtype(dtype)
    src = values.dtype
    if src == dtype:
        return values
    if src.kind not in "biuf":
        raise DomainMismatch(f"{what}: expected bool, integer or float values; given dtype {src}"
                             + (" (Python objects such as None)" if src.kind == "O" else ""))
    if dtype.kind == "b":
        if src.kind == "f" and values.size and bool(_xp(values).isnan(values).any()):
            raise InvalidValue(f"{what}: NaN cannot be cast to a boolean; given a {src.name} array with NaN")
        return values != 0
    if not values.size or _fits_by_type(src, dtype) or (wrap_integers and src.kind in "iu"):
        return values.astype(dtype)
    if src.kind == "f" and dtype.kind == "f":  # narrowing floats: look at what the cast gives
        with np.errstate(over="ignore"):
            out = values.astype(dtype)
        _check_float_narrowing(values, out, dtype, what)
        return out
    _check_integer_range(values, dtype, what)
    return values.astype(dtype)


def _fits_by_type(src, dtype):
    """Every value of type ``src`` casts to ``dtype`` without overflow (``dtype`` not bool)."""
    if src.kind == "b":
        return True
    if dtype.kind == "f":
        return src.kind in "iu" or src.itemsize <= dtype.itemsize
    if src.kind == "f":
        return False
    si, di = np.iinfo(src), np.iinfo(dtype)
    return di.min <= si.min and si.max <= di.max


def _int_bounds(src, dtype):
    """(lo, lo_inclusive, hi): a float of type ``src`` truncates into integer type ``dtype``
    iff ``lo < v < hi`` (``lo <= v`` when lo_inclusive), with bounds exact in ``src``."""
    info = np.iinfo(dtype)
    hi = info.max + 1  # a power of two: exact in every float type
    lo = info.min - 1  # -1 or -(2**(b-1)) - 1; exact unless the float type is too coarse there
    if float(src.type(lo)) == lo:
        return lo, False, hi
    return info.min, True, hi  # no float of src lies strictly between min - 1 and min


def _check_float_narrowing(values, out, dtype, what):
    """Raise InvalidValue if a finite value of ``values`` became +-inf in ``out``."""
    xp = _xp(values)
    if not bool(xp.isinf(out).any()):
        return
    bad = xp.isinf(out) & xp.isfinite(values)
    if bool(bad.any()):
        _raise_first(xp, values, bad, dtype, what, f"its magnitude exceeds the largest {dtype.name}, "
                     f"{float(np.finfo(dtype).max):.7g}, so it would become infinite")


def _check_integer_range(values, dtype, what):
    """Raise InvalidValue naming the first value of ``values`` (float or integer) that has no
    value in integer type ``dtype`` (NaN, +-inf, out of range after truncation toward zero)."""
    xp = _xp(values)
    src = values.dtype
    info = np.iinfo(dtype)
    why = f"{dtype.name} holds integers in [{info.min}, {info.max}]"
    if src.kind == "f":
        lo, incl, hi = _int_bounds(src, dtype)
        mn, mx = float(values.min()), float(values.max())  # NaN propagates into both
        if (mn >= lo if incl else mn > lo) and mx < hi:
            return
        nan = xp.isnan(values)
        if bool(nan.any()):
            first = _position(values, int(xp.flatnonzero(nan.ravel())[0]))
            raise InvalidValue(f"{what}: NaN cannot be cast to an integer ({dtype.name}); given a {src.name} "
                               f"array with NaN (first at position {first})")
        inside = ((values >= lo) if incl else (values > lo)) & (values < hi)
        _raise_first(xp, values, ~inside, dtype, what, why)
    mn, mx = int(values.min()), int(values.max())
    if info.min <= mn and mx <= info.max:
        return
    si = np.iinfo(src)
    bad = xp.zeros(values.shape, dtype=bool)
    if info.min > si.min:  # (bounds outside the source type's range cannot be compared with it)
        bad |= values < info.min
    if info.max < si.max:
        bad |= values > info.max
    _raise_first(xp, values, bad, dtype, what, why)


def _position(values, flat):
    """The position of flat index ``flat`` of ``values``: an int, or a tuple for 2-d and more."""
    if values.ndim <= 1:
        return flat
    return tuple(int(i) for i in np.unravel_index(flat, values.shape))


def _raise_first(xp, values, bad, dtype, what, why):
    k = int(xp.flatnonzero(bad.ravel())[0])
    where = f" (at position {_position(values, k)})" if values.size > 1 else ""
    raise InvalidValue(f"{what}: {values.ravel()[k].item()!r}{where} cannot be cast to {dtype.name}: {why} "
                       f"(the values are {values.dtype.name})")


def check_bool_domain(values, what="values"):
    """Raise InvalidValue if ``values`` hold NaN where a boolean is needed."""
    if values.dtype.kind == "f" and bool(_xp(values).isnan(values).any()):
        raise InvalidValue(f"{what}: a boolean is needed but the {values.dtype.name} values hold NaN")


def scalar(value, dtype, what="scalar"):
    """Convert a Python/NumPy scalar to a NumPy scalar of ``dtype`` with the checks of
    :func:`cast` (NaN, infinities and out-of-range values into an integer type raise)."""
    dtype = np.dtype(dtype)
    try:
        arr = np.asarray(value)
    except (TypeError, ValueError, OverflowError) as exc:
        raise DomainMismatch(f"{what}: expected a number or bool; given {value!r}") from exc
    if arr.ndim != 0:
        raise InvalidValue(f"{what}: expected a scalar; given an array of shape {arr.shape}")
    if arr.dtype.kind not in "biuf":
        raise DomainMismatch(f"{what}: expected a number or bool; given {value!r}")
    # dtype.type: a Python int past 2**63 comes as an array of 'Q' (numpy.ulonglong), equal to
    # uint64 as a dtype but another scalar type than numpy.uint64
    return dtype.type(cast(arr.reshape(1), dtype, what)[0])


def fill_dtype(dtype, fill_value, what="fill_value") -> np.dtype:
    """The dtype of a dense array holding values of ``dtype`` and ``fill_value``:
    ``numpy.result_type`` of the two (a Python float with an integer dtype gives float64).

    Raises
    ------
    DomainMismatch
        ``fill_value`` is not a bool or number scalar (a string, None, an array).
    InvalidValue
        ``fill_value`` is a Python integer outside the range of ``dtype``.
    """
    d = scalar_dtype(fill_value, what)
    if isinstance(fill_value, np.generic) or isinstance(fill_value, bool):
        return lookup(np.result_type(np.dtype(dtype), d), what)
    r = lookup(np.result_type(np.dtype(dtype), fill_value), what)  # a Python scalar adapts to dtype
    if isinstance(fill_value, int) and r.kind in "iu":
        info = np.iinfo(r)
        if not info.min <= fill_value <= info.max:
            raise InvalidValue(f"{what}: {fill_value} does not fit {r.name} (integers in [{info.min}, "
                               f"{info.max}]); give a value it holds, or a float for a float64 result")
    return r


def scalar_dtype(value, what=None) -> np.dtype:
    """The dtype semiring gives a Python scalar: bool, int64 (uint64 from 2**63 to 2**64 - 1) or
    float64, or the NumPy scalar's own; DomainMismatch for anything else."""
    if isinstance(value, np.generic):
        return lookup(value.dtype)
    if isinstance(value, (bool, np.bool_)):
        return BOOL
    if isinstance(value, int):
        if -2**63 <= value < 2**63:
            return INT64
        if 2**63 <= value < 2**64:
            return np.dtype(np.uint64)
        prefix = f"{what}: " if what else ""
        raise DomainMismatch(f"{prefix}the integer {value} is outside the 64-bit integer types; give it as a float")
    if isinstance(value, float):
        return FLOAT64
    prefix = f"{what}: " if what else ""
    raise DomainMismatch(f"{prefix}expected a number or bool scalar; given {value!r}"[:300])


def _xp(arr):
    mod = type(arr).__module__
    if mod.startswith("cupy"):
        import cupy

        return cupy
    return np
