"""Set algebra on sorted, duplicate-free int64 key arrays with parallel value arrays.

A vector entry's key is its index; a matrix entry's key is ``row * ncols + col`` (row-major,
so CSR order is key order). Union, intersection and membership here serve ``ewise_add``,
``ewise_mult``, the mask test and the write step.
"""

from __future__ import annotations

import numpy as np

from ... import dtypes as _dt
from .._xp import repeat, xp_of


def member(sorted_keys, keys):
    """Boolean array: ``keys[t]`` occurs in ``sorted_keys``."""
    xp = xp_of(keys)
    if sorted_keys.size == 0 or keys.size == 0:
        return xp.zeros(keys.shape[0], dtype=bool)
    pos = xp.searchsorted(sorted_keys, keys)
    pos = xp.minimum(pos, sorted_keys.size - 1)
    return sorted_keys[pos] == keys


def union(ak, av, bk, bv, op, out_dtype):
    """Entries of a or b; ``op(a, b)`` where both exist, else the one value, cast to ``out_dtype``."""
    xp = xp_of(ak)
    keys = xp.unique(xp.concatenate([ak, bk]))
    ia = xp.searchsorted(keys, ak)
    ib = xp.searchsorted(keys, bk)
    vals = xp.empty(keys.shape[0], dtype=out_dtype)
    vals[ia] = _dt.cast(av, out_dtype, "first operand")
    vals[ib] = _dt.cast(bv, out_dtype, "second operand")
    both_a = member(bk, ak)
    if bool(both_a.any()):
        both_b = member(ak, bk)
        vals[ia[both_a]] = _dt.cast(op.eval(av[both_a], bv[both_b]), out_dtype, f"result of {op.name}")
    return keys, vals


def merge_disjoint(ak, av, bk, bv):
    """Sorted union of two key sets known to be disjoint (values of one dtype)."""
    xp = xp_of(ak)
    keys = xp.concatenate([ak, bk])
    vals = xp.concatenate([av, bv])
    order = xp.argsort(keys, kind="stable") if xp is np else xp.argsort(keys)
    return keys[order], vals[order]


def group_starts(sorted_keys):
    """Start offset of each run of equal keys in a sorted key array."""
    xp = xp_of(sorted_keys)
    if sorted_keys.size == 0:
        return xp.zeros(0, dtype=np.int64)
    head = xp.ones(sorted_keys.shape[0], dtype=bool)
    head[1:] = sorted_keys[1:] != sorted_keys[:-1]
    return xp.flatnonzero(head)


def reduce_by_key(keys, vals, monoid, presorted=False):
    """Combine values with equal keys by ``monoid``; returns sorted unique keys and values.

    Monoids are commutative, so the order of equal keys after the (faster, unstable) sort does
    not change the result beyond floating-point rounding; ``any`` may return any of the terms.
    """
    if not presorted:
        order = xp_of(keys).argsort(keys)
        keys, vals = keys[order], vals[order]
    starts = group_starts(keys)
    return keys[starts], monoid.reduce_segments(vals, starts)


def sort_by_key(keys, vals):
    xp = xp_of(keys)
    order = xp.argsort(keys, kind="stable") if xp is np else xp.argsort(keys)
    return keys[order], vals[order]


def ragged_arange(starts, counts):
    """Concatenation of ``arange(s, s + c)`` for each (s, c): gathers CSR rows in one step."""
    xp = xp_of(starts)
    total = int(counts.sum())
    if total == 0:
        return xp.zeros(0, dtype=np.int64)
    ends = xp.cumsum(counts)
    offsets = repeat(starts - (ends - counts), counts)
    return xp.arange(total, dtype=np.int64) + offsets
