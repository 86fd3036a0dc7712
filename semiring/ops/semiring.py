"""Semirings: an additive monoid and a multiplicative binary operator
(GraphBLAS C API 2.0, sections 3.4.4 and 4.2.1.5, ``GrB_Semiring_new``).

Built-ins are named ``{monoid}_{multiply}`` as in SuiteSparse:GraphBLAS and python-graphblas
(``min_plus`` for shortest paths, ``any_pair`` and ``lor_land`` for reachability,
``any_secondi``/``min_secondi`` for BFS parents). ``SEMIRING`` is the registry and
``get(name)`` the lookup.
"""

from __future__ import annotations

import numpy as np

from ..exceptions import DomainMismatch, InvalidValue
from . import binary as _b
from . import monoid as _m
from ._base import BinaryOp
from .monoid import Monoid


class Semiring:
    """A semiring ``(monoid, multiply)``: ``C(i,j) = monoid over k of multiply(A(i,k), B(k,j))``.

    Parameters
    ----------
    monoid : Monoid
        The additive monoid.
    multiply : BinaryOp
        The multiplicative operator; positional operators (``firsti``, ``secondi``, ...) give
        the index of the entry instead of its value.
    name : str, optional
        Defaults to ``"{monoid}_{multiply}"``.

    Raises
    ------
    InvalidValue
        ``monoid`` is not a Monoid or ``multiply`` is not a BinaryOp.
    DomainMismatch
        The multiply's output type is fixed and the monoid cannot take it (for example
        ``Semiring(monoid.lor, binary.firsti)``: lor takes bool, firsti gives int64).
        Type-polymorphic pairs are checked when they are applied.
    """

    def __init__(self, monoid, multiply, name=None):
        if not isinstance(monoid, Monoid):
            raise InvalidValue(f"Semiring: expected a Monoid as the additive operator; given {monoid!r}")
        if not isinstance(multiply, BinaryOp):
            raise InvalidValue(f"Semiring: expected a BinaryOp as the multiply; given {multiply!r}")
        if name is not None and not isinstance(name, str):
            raise InvalidValue(f"Semiring: name must be a str or None; given {type(name).__name__}")
        self.monoid = monoid
        self.multiply = multiply
        self.name = name or f"{monoid.name}_{multiply.name}"
        fixed = multiply.positional or (multiply._output is not None and not callable(multiply._output))
        if fixed:
            self.output_dtype(np.dtype(np.int64) if multiply.positional else multiply.output_dtype("int64"), "int64")

    def __repr__(self):
        return f"Semiring({self.name})"

    def output_dtype(self, dx, dy) -> np.dtype:
        """Type of the result for operands of types ``dx`` and ``dy``; DomainMismatch if invalid."""
        z = self.multiply.output_dtype(dx, dy)
        try:
            return self.monoid.domain_for(z)
        except DomainMismatch as exc:
            raise DomainMismatch(
                f"semiring {self.name}: the monoid {self.monoid.name} cannot take the output of "
                f"{self.multiply.name} ({z.name}): {exc}"
            ) from None


def _family(monoid, *multiplies):
    """The semirings of ``monoid`` with each of ``multiplies``, in that order."""
    return tuple(Semiring(monoid, m) for m in multiplies)


_M, _B = _m, _b
# Arithmetic and tropical semirings.
plus_times, plus_plus, plus_min, plus_first, plus_second, plus_pair = _family(
    _M.plus, _B.times, _B.plus, _B.min, _B.first, _B.second, _B.pair)
(times_times,) = _family(_M.times, _B.times)
min_plus, min_times, min_max, min_first, min_second, min_pair = _family(
    _M.min, _B.plus, _B.times, _B.max, _B.first, _B.second, _B.pair)
max_plus, max_times, max_min, max_first, max_second, max_pair = _family(
    _M.max, _B.plus, _B.times, _B.min, _B.first, _B.second, _B.pair)
# Boolean semirings.
lor_land, lor_first, lor_second, lor_pair = _family(_M.lor, _B.land, _B.first, _B.second, _B.pair)
(land_lor,) = _family(_M.land, _B.lor)
(lxor_land,) = _family(_M.lxor, _B.land)
# "any" semirings: the reduction keeps any one value and may stop at the first.
any_pair, any_first, any_second, any_plus, any_times = _family(_M.any, _B.pair, _B.first, _B.second, _B.plus, _B.times)
# Bitwise semirings (bitsets: "which colours do my neighbours use").
bor_second, bor_band = _family(_M.bor, _B.second, _B.band)
(band_bor,) = _family(_M.band, _B.bor)
(bxor_band,) = _family(_M.bxor, _B.band)
# Positional semirings (BFS parents, "which neighbour").
any_firsti, any_firstj, any_secondi, any_secondj = _family(_M.any, _B.firsti, _B.firstj, _B.secondi, _B.secondj)
min_firsti, min_firstj, min_secondi, min_secondj = _family(_M.min, _B.firsti, _B.firstj, _B.secondi, _B.secondj)
max_firsti, max_firstj, max_secondi, max_secondj = _family(_M.max, _B.firsti, _B.firstj, _B.secondi, _B.secondj)

SEMIRING = {
    s.name: s
    for s in (
        plus_times, plus_plus, plus_min, plus_first, plus_second, plus_pair, times_times,
        min_plus, min_times, min_max, min_first, min_second, min_pair,
        max_plus, max_times, max_min, max_first, max_second, max_pair,
        lor_land, land_lor, lxor_land, lor_first, lor_second, lor_pair,
        any_pair, any_first, any_second, any_plus, any_times,
        bor_second, bor_band, band_bor, bxor_band,
        any_firsti, any_firstj, any_secondi, any_secondj,
        min_firsti, min_firstj, min_secondi, min_secondj,
        max_firsti, max_firstj, max_secondi, max_secondj,
    )
}


def get(name):
    """Return the built-in semiring called ``name``; raise InvalidValue if there is none."""
    try:
        return SEMIRING[name]
    except (KeyError, TypeError):  # (TypeError: an unhashable name)
        raise InvalidValue(f"no built-in semiring {name!r}; expected one of {sorted(SEMIRING)}") from None
