"""Monoids: an associative, commutative binary operator with an identity and an optional
terminal (annihilating) value (GraphBLAS C API 2.0, sections 3.4.2 and 4.2.1.4,
``GrB_Monoid_new``; terminal values as in ``GxB_Monoid_terminal_new``).

A reduction may stop as soon as it reaches the terminal value: ``lor`` stops at True,
``land`` at False, ``min`` on unsigned at 0, ``any`` at its first value. That property is
what lets pull-mode BFS exit early.

Built-ins: ``plus``, ``times``, ``min``, ``max``, ``land``, ``lor``, ``lxor``, ``any``, and the
bitwise ``bor`` (identity 0, terminal all ones), ``band`` (all ones, 0), ``bxor`` (0) on integers;
``MONOID`` is the registry, ``get(name)`` the lookup.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as _dt
from ..exceptions import DomainMismatch, InvalidValue
from . import binary as _b
from ._base import BinaryOp, check_not_positional

__all__ = ["Monoid", "plus", "times", "min", "max", "land", "lor", "lxor", "any", "bor", "band", "bxor",
           "MONOID", "get"]


class Monoid:
    """A monoid ``(op, identity)`` with an optional terminal value.

    Parameters
    ----------
    op : BinaryOp
        Associative operator whose inputs and output share one type. Positional operators
        are refused (DomainMismatch).
    identity : scalar or callable
        ``op(identity, x) == x`` for every x. A callable receives the element dtype and
        returns the identity for it (``min`` uses the type's maximum).
    terminal : scalar or callable, optional
        ``op(terminal, x) == terminal`` for every x, or None.
    dtype : dtype, optional
        Fix the monoid's domain. Inputs of another type must cast to it without loss
        (``numpy.can_cast(..., "safe")``); otherwise DomainMismatch.
    name : str, optional

    Raises
    ------
    DomainMismatch
        ``op`` is positional, or ``identity`` does not fit ``dtype``.
    InvalidValue
        ``op`` is not a BinaryOp.
    """

    def __init__(self, op, identity, terminal=None, *, dtype=None, name=None, _any=False):
        if not isinstance(op, BinaryOp):
            raise InvalidValue(f"Monoid: expected a BinaryOp; given {op!r}")
        check_not_positional(op, "Monoid")
        if name is not None and not isinstance(name, str):
            raise InvalidValue(f"Monoid: name must be a str or None; given {type(name).__name__}")
        if identity is None:
            raise InvalidValue("Monoid: expected an identity (a scalar, or a callable of the dtype); given None")
        for what, v in (("identity", identity), ("terminal", terminal)):
            if v is not None and not callable(v):
                _dt.scalar_dtype(v, f"Monoid {what}")  # a bool or number (its type is fixed per use)
        self.op = op
        self.name = name or op.name
        self._identity = identity
        self._terminal = terminal
        self.is_any = _any
        self.dtype = None if dtype is None else _dt.lookup(dtype, f"dtype of monoid {self.name}")
        if self.dtype is not None:
            self.identity_for(self.dtype)
        elif op.domain is not None:
            self.dtype = op.domain

    def __repr__(self):
        return f"Monoid({self.name})"

    def domain_for(self, dtype) -> np.dtype:
        """The type a reduction of ``dtype`` values is carried out and returned in."""
        d = np.dtype(dtype)
        if self.dtype is None:
            return d
        if d == self.dtype or np.can_cast(d, self.dtype, "safe"):
            return self.dtype
        raise DomainMismatch(
            f"monoid {self.name} takes {self.dtype.name} values; given {d.name}, "
            "which does not cast to it without loss"
        )

    def _value(self, v, dtype, what):
        if v is None:
            return None
        if callable(v):
            v = v(np.dtype(dtype))
            if v is None:
                return None
        try:
            return _dt.scalar(v, dtype, f"{what} of monoid {self.name}")
        except InvalidValue as exc:
            raise DomainMismatch(str(exc)) from None

    def identity_for(self, dtype):
        """The identity as a NumPy scalar of ``dtype``."""
        return self._value(self._identity, self.domain_for(dtype), "identity")

    def terminal_for(self, dtype):
        """The terminal value as a NumPy scalar of ``dtype``, or None."""
        return self._value(self._terminal, self.domain_for(dtype), "terminal")


def _type_max(d):
    return True if d.kind == "b" else (np.inf if d.kind == "f" else np.iinfo(d).max)


def _type_min(d):
    return False if d.kind == "b" else (-np.inf if d.kind == "f" else np.iinfo(d).min)


def _times_terminal(d):
    return False if d.kind == "b" else (0 if d.kind in "iu" else None)


def _plus_terminal(d):
    return True if d.kind == "b" else None


plus = Monoid(_b.plus, 0, _plus_terminal, name="plus")
times = Monoid(_b.times, 1, _times_terminal, name="times")
min = Monoid(_b.min, _type_max, _type_min, name="min")
max = Monoid(_b.max, _type_min, _type_max, name="max")
land = Monoid(_b.land, True, False, name="land")
lor = Monoid(_b.lor, False, True, name="lor")
lxor = Monoid(_b.lxor, False, None, name="lxor")
any = Monoid(_b.any, 0, None, name="any", _any=True)

def _all_ones(d):
    return True if d.kind == "b" else (np.iinfo(d).max if d.kind == "u" else -1)


bor = Monoid(_b.bor, 0, _all_ones, name="bor")
band = Monoid(_b.band, _all_ones, 0, name="band")
bxor = Monoid(_b.bxor, 0, None, name="bxor")

MONOID = {m.name: m for m in (plus, times, min, max, land, lor, lxor, any, bor, band, bxor)}


def get(name):
    """Return the built-in monoid called ``name``; raise InvalidValue if there is none."""
    try:
        return MONOID[name]
    except (KeyError, TypeError):  # (TypeError: an unhashable name)
        raise InvalidValue(f"no built-in monoid {name!r}; expected one of {sorted(MONOID)}") from None
