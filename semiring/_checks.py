"""Argument checks of plain values: integers, reals, flags, vertices, sources, depths.

One place and one message style for every layer (ops, core, io, generators, algorithms, the
networkx backend, the command line): each check returns the value in its Python type or raises
:class:`~semiring.exceptions.InvalidValue` (:class:`~semiring.exceptions.IndexOutOfBound` for a
vertex outside the graph) with a message that names the call, the argument, what was expected
and what was given. A bool is never accepted where a number is expected (``True`` is an ``int``
in Python, but a flag passed as a count is a caller's mistake).
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from .exceptions import IndexOutOfBound, InvalidValue

#: The Python and NumPy booleans, refused wherever a number is expected.
BOOLS = (bool, np.bool_)


def _given(x):
    return repr(x)[:200]


def is_integer(x):
    """True for a Python or NumPy integer that is not a bool."""
    return isinstance(x, (int, np.integer)) and not isinstance(x, BOOLS)


def is_real(x):
    """True for a real number (int, float, NumPy scalar) that is not a bool."""
    return isinstance(x, numbers.Real) and not isinstance(x, BOOLS)


def _range_text(low, high, high_open):
    if low is not None and high is not None:
        return f"in [{low}, {high}{')' if high_open else ']'}"
    if low is not None:
        return f">= {low}"
    return f"{'<' if high_open else '<='} {high}"


def integer(x, what, name, *, low=None, high=None):
    """``x`` as an int, checked to be an integer (not a bool) in ``[low, high]``.

    Parameters
    ----------
    x : object
        The value given.
    what : str
        The call, for the message (``"bfs"``).
    name : str
        The argument's name (``"max_iter"``).
    low, high : int, optional
        Inclusive bounds.

    Raises
    ------
    InvalidValue
        ``x`` is not an integer, or is out of range.
    """
    if not is_integer(x):
        raise InvalidValue(f"{what}: {name} must be an integer; given {_given(x)}")
    if (low is not None and x < low) or (high is not None and x > high):
        raise InvalidValue(f"{what}: {name} must be an integer {_range_text(low, high, False)}; given {x}")
    return int(x)


def real(x, what, name, *, low=None, high=None, high_open=False, finite=False):
    """``x`` as a float, checked to be a real number (not a bool, not NaN) in ``[low, high]``
    (``[low, high)`` with ``high_open``); ``finite`` also refuses infinities.

    Raises
    ------
    InvalidValue
        ``x`` is not a real number, is NaN, is infinite with ``finite``, or is out of range.
    """
    if not is_real(x) or x != x:
        raise InvalidValue(f"{what}: {name} must be a real number; given {_given(x)}")
    x = float(x)
    if finite and not math.isfinite(x):
        raise InvalidValue(f"{what}: {name} must be a finite real number; given {x}")
    if (low is not None and x < low) or (high is not None and (x >= high if high_open else x > high)):
        raise InvalidValue(f"{what}: {name} must be {_range_text(low, high, high_open)}; given {x}")
    return x


def flag(x, what, name=None):
    """``x`` as a bool; InvalidValue unless it is a Python or NumPy bool."""
    if not isinstance(x, BOOLS):
        label = f"{what}: {name}" if name else what
        raise InvalidValue(f"{label}: expected True or False; given {_given(x)}")
    return bool(x)


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
    return None if d is None else integer(d, what, name, low=0)


__all__ = ["BOOLS", "is_integer", "is_real", "integer", "real", "flag", "vertex", "depth"]
