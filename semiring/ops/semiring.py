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


_M, _B = _m, _b
# Arithmetic and tropical semirings.
plus_times = Semiring(_M.plus, _B.times)
plus_plus = Semiring(_M.plus, _B.plus)
plus_min = Semiring(_M.plus, _B.min)
plus_first = Semiring(_M.plus, _B.first)
plus_second = Semiring(_M.plus, _B.second)
plus_pair = Semiring(_M.plus, _B.pair)
times_times = Semiring(_M.times, _B.times)
min_plus = Semiring(_M.min, _B.plus)
min_times = Semiring(_M.min, _B.times)
min_max = Semiring(_M.min, _B.max)
min_first = Semiring(_M.min, _B.first)
min_second = Semiring(_M.min, _B.second)
min_pair = Semiring(_M.min, _B.pair)
max_plus = Semiring(_M.max, _B.plus)
max_times = Semiring(_M.max, _B.times)
max_min = Semiring(_M.max, _B.min)
max_first = Semiring(_M.max, _B.first)
max_second = Semiring(_M.max, _B.second)
max_pair = Semiring(_M.max, _B.pair)
# Boolean semirings.
lor_land = Semiring(_M.lor, _B.land)
land_lor = Semiring(_M.land, _B.lor)
lxor_land = Semiring(_M.lxor, _B.land)
lor_first = Semiring(_M.lor, _B.first)
lor_second = Semiring(_M.lor, _B.second)
lor_pair = Semiring(_M.lor, _B.pair)
# "any" semirings: the reduction keeps any one value and may stop at the first.
any_pair = Semiring(_M.any, _B.pair)
any_first = Semiring(_M.any, _B.first)
any_second = Semiring(_M.any, _B.second)
any_plus = Semiring(_M.any, _B.plus)
any_times = Semiring(_M.any, _B.times)
# Bitwise semirings (bitsets: "which colours do my neighbours use").
bor_second = Semiring(_M.bor, _B.second)
bor_band = Semiring(_M.bor, _B.band)
band_bor = Semiring(_M.band, _B.bor)
bxor_band = Semiring(_M.bxor, _B.band)
# Positional semirings (BFS parents, "which neighbour").
any_firsti = Semiring(_M.any, _B.firsti)
any_firstj = Semiring(_M.any, _B.firstj)
any_secondi = Semiring(_M.any, _B.secondi)
any_secondj = Semiring(_M.any, _B.secondj)
min_firsti = Semiring(_M.min, _B.firsti)
min_firstj = Semiring(_M.min, _B.firstj)
min_secondi = Semiring(_M.min, _B.secondi)
min_secondj = Semiring(_M.min, _B.secondj)
max_firsti = Semiring(_M.max, _B.firsti)
max_firstj = Semiring(_M.max, _B.firstj)
max_secondi = Semiring(_M.max, _B.secondi)
max_secondj = Semiring(_M.max, _B.secondj)

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
