"""Set algebra on sorted, duplicate-free int64 key arrays with parallel value arrays.

A vector entry's key is its index; a matrix entry's key is ``row * ncols + col`` (row-major,
so CSR order is key order). Union, intersection and membership here serve ``ewise_add``,
``ewise_mult``, the mask test and the write step.
"""

from __future__ import annotations

import numpy as np

from ... import dtypes as _dt
from .._xp import repeat, xp_of
from .reduce import reduce_segments


def member(sorted_keys, keys):
    """Boolean array: ``keys[t]`` occurs in ``sorted_keys``."""
    xp = xp_of(keys)
    if sorted_keys.size == 0 or keys.size == 0:
        return xp.zeros(keys.shape[0], dtype=bool)
    pos = xp.searchsorted(sorted_keys, keys)
    pos = xp.minimum(pos, sorted_keys.size - 1)
    return sorted_keys[pos] == keys


def union(ak, av, bk, bv, op, out_dtype, what=("first operand", "second operand")):
    """Entries of a or b; ``op(a, b)`` where both exist, else the one value, cast to ``out_dtype``
    (``what`` names a's and b's values in the message of a cast that fails)."""
    xp = xp_of(ak)
    # sort and drop repeats: NumPy 2.4's unique costs ~1 us per key here (8.5 s for 6.4 M
    # int64 keys against 0.1 s for this)
    keys = xp.sort(xp.concatenate([ak, bk]))
    if keys.shape[0] > 1:
        keys = keys[xp.concatenate([xp.ones(1, dtype=bool), keys[1:] != keys[:-1]])]
    ia = xp.searchsorted(keys, ak)
    ib = xp.searchsorted(keys, bk)
    vals = xp.empty(keys.shape[0], dtype=out_dtype)
    both_a, both_b = member(bk, ak), member(ak, bk)
    # only the one-sided values are cast: a value that meets the other operand goes to op alone
    # (a NaN compared by eq never becomes a bool)
    vals[ia[~both_a]] = _dt.cast(av[~both_a], out_dtype, what[0], wrap_integers=True)
    vals[ib[~both_b]] = _dt.cast(bv[~both_b], out_dtype, what[1], wrap_integers=True)
    if bool(both_a.any()):
        vals[ia[both_a]] = _dt.cast(op.eval(av[both_a], bv[both_b]), out_dtype, f"result of {op.name}",
                                     wrap_integers=True)
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
    return keys[starts], reduce_segments(monoid, vals, starts)


#: Lattice operators (``x op x == x``; ``x op y`` is the identity only if both are): a dense
#: reduction may start from any one term, or from the identity and read presence off the result.
_LATTICE = ("min", "max", "lor", "land", "bor", "band")
#: A reduction into a dense array of ``size`` slots is used when the terms number at least
#: ``size / DENSE_REDUCE_RATIO`` (it costs O(size + terms); sorting costs O(terms log terms)).
DENSE_REDUCE_RATIO = 16


def reduce_by_key_dense(keys, vals, monoid, size):
    """``reduce_by_key`` for unsorted keys in ``[0, size)``: through a dense array of ``size``
    slots instead of a sort when there are many terms (``any``: one scatter; a monoid with a
    NumPy ufunc: ``ufunc.at`` from the identity, on NumPy only); otherwise by sorting."""
    xp = xp_of(keys)
    n = keys.shape[0]
    if n == 0 or n * DENSE_REDUCE_RATIO < size:
        return reduce_by_key(keys, vals, monoid)
    from ...ops import binary as _b

    d = monoid.domain_for(vals.dtype)
    uf = None
    if not monoid.is_any:
        if xp is not np:
            return reduce_by_key(keys, vals, monoid)
        uf = monoid.op.ufunc_for(d)
        if uf is None:
            return reduce_by_key(keys, vals, monoid)
    vals = _dt.cast(vals, d, f"input of monoid {monoid.name}")
    if uf is None:  # any: some term of each key
        dense = xp.empty(size, dtype=d)
        dense[keys] = vals
        present = xp.zeros(size, dtype=bool)
        present[keys] = True
    else:
        with np.errstate(all="ignore"):  # (a probe of the result type: its value is not used)
            probe = uf(vals[:1], vals[:1]).dtype
        if probe != d:
            return reduce_by_key(keys, vals, monoid)
        from ...ops import monoid as _m

        builtin = any(monoid is m for m in _m.MONOID.values())  # declared identities are identities
        lattice = any(monoid.op is getattr(_b, name) for name in _LATTICE)
        if not builtin and not lattice:
            return reduce_by_key(keys, vals, monoid)  # a user's identity may not be one: no dense start
        ident = monoid.identity_for(d)
        if d.kind == "f" and monoid.op is _b.plus:
            ident = d.type(-0.0)  # x + -0.0 == x for every x, -0.0 included
        # A built-in lattice monoid starts from its identity, and a slot was reached iff it left
        # the identity, unless a term is the identity or NaN (fmin/fmax skip NaN). Otherwise a
        # lattice operator (x op x == x) starts from a term of each key, as the sorted path
        # does, so a declared identity that is not one on these values (Monoid(max, 0) on
        # negative ints) gives the same result on every path.
        fast = (builtin and lattice and not bool((vals == ident).any())
                and not (d.kind == "f" and bool(xp.isnan(vals).any())))
        if lattice and not fast:
            dense = xp.empty(size, dtype=d)
            dense[keys] = vals
        else:
            dense = xp.full(size, ident, dtype=d)
        with np.errstate(all="ignore"):  # inf and NaN sums are the semantics, as in operator eval
            uf.at(dense, keys, vals)
        if fast:
            present = dense != ident
        else:
            present = xp.zeros(size, dtype=bool)
            present[keys] = True
    out = xp.flatnonzero(present)
    return out, dense[out]


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
