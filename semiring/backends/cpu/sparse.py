"""Set algebra on sorted, duplicate-free int64 key arrays with parallel value arrays.

A vector entry's key is its index; a matrix entry's key is ``row * ncols + col`` (row-major,
so CSR order is key order). Union, intersection and membership here serve ``ewise_add``,
``ewise_mult``, the mask test and the write step.
"""

from __future__ import annotations

import numpy as np

from ... import dtypes as _dt


def member(sorted_keys, keys):
    """Boolean array: ``keys[t]`` occurs in ``sorted_keys``."""
    if sorted_keys.size == 0 or keys.size == 0:
        return np.zeros(keys.shape[0], dtype=bool)
    pos = np.searchsorted(sorted_keys, keys)
    pos = np.minimum(pos, sorted_keys.size - 1)
    return sorted_keys[pos] == keys


def union(ak, av, bk, bv, op, out_dtype):
    """Entries of a or b; ``op(a, b)`` where both exist, else the one value, cast to ``out_dtype``."""
    keys = np.union1d(ak, bk)
    ia = np.searchsorted(keys, ak)
    ib = np.searchsorted(keys, bk)
    vals = np.empty(keys.shape[0], dtype=out_dtype)
    vals[ia] = _dt.cast(av, out_dtype, "first operand")
    vals[ib] = _dt.cast(bv, out_dtype, "second operand")
    both_a = member(bk, ak)
    if both_a.any():
        both_b = member(ak, bk)
        vals[ia[both_a]] = _dt.cast(op.eval(av[both_a], bv[both_b]), out_dtype, f"result of {op.name}")
    return keys, vals


def merge_disjoint(ak, av, bk, bv):
    """Sorted union of two key sets known to be disjoint (values of one dtype)."""
    keys = np.concatenate([ak, bk])
    vals = np.concatenate([av, bv])
    order = np.argsort(keys, kind="stable")
    return keys[order], vals[order]


def group_starts(sorted_keys):
    """Start offset of each run of equal keys in a sorted key array."""
    if sorted_keys.size == 0:
        return np.zeros(0, dtype=np.int64)
    return np.flatnonzero(np.concatenate([[True], sorted_keys[1:] != sorted_keys[:-1]]))


def reduce_by_key(keys, vals, monoid, presorted=False):
    """Combine values with equal keys by ``monoid``; returns sorted unique keys and values.

    Monoids are commutative, so the order of equal keys after the (faster, unstable) sort does
    not change the result beyond floating-point rounding; ``any`` may return any of the terms.
    """
    if not presorted:
        order = np.argsort(keys)
        keys, vals = keys[order], vals[order]
    starts = group_starts(keys)
    return keys[starts], monoid.reduce_segments(vals, starts)


def sort_by_key(keys, vals):
    order = np.argsort(keys, kind="stable")
    return keys[order], vals[order]


def ragged_arange(starts, counts):
    """Concatenation of ``arange(s, s + c)`` for each (s, c): gathers CSR rows in one step."""
    total = int(counts.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    ends = np.cumsum(counts)
    offsets = np.repeat(starts - (ends - counts), counts)
    return np.arange(total, dtype=np.int64) + offsets
