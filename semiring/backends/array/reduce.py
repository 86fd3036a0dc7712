"""Segmented reductions over NumPy or CuPy arrays: a binary operator or a monoid folded over
consecutive runs of values (run r is ``values[starts[r]:starts[r+1]]``).

On NumPy an operator with a ufunc uses its ``reduceat``; any other operator is applied in
log2(longest run) rounds of vectorized pairwise applications. On CuPy the GPU backend's
``segment_fold`` (:mod:`semiring.backends.gpu.reduce`: atomic scatters and kernels generated
from the operator's CUDA snippet) does the work.
"""

from __future__ import annotations

import numpy as np

from ... import _host

from ... import dtypes as _dt
from ...exceptions import DomainMismatch


def reduce_runs(op, values, starts):
    """Reduce consecutive runs of ``values`` with a binary operator (run r starts at ``starts[r]``).

    Parameters
    ----------
    op : BinaryOp
        Its output type must equal its input type for ``values``' dtype.
    values : numpy or cupy array, shape (n,)
    starts : int array, shape (runs,)
        Strictly increasing, starting at 0; every run is non-empty.

    Returns
    -------
    array, shape (runs,)
        One value per run, in ``op``'s input type.

    Raises
    ------
    DomainMismatch
        ``op`` maps the values' type to another type.

    Within each run, elements 2m and 2m+1 are combined left-to-right, so only associativity
    (not commutativity) is assumed.
    """
    xp = _dt._xp(values)
    d = op.input_dtype(values.dtype, values.dtype)
    if op.output_dtype(d, d) != d:
        raise DomainMismatch(f"reduce with {op.name}: the operator maps {d.name} to "
                             f"{op.output_dtype(d, d).name}; a reduction needs the same type in and out")
    values = _dt.cast(values, d, f"input of {op.name}", wrap_integers=True)
    if xp is not np:
        from ..gpu.reduce import segment_fold  # the GPU backend's own fold (loaded with CuPy arrays)

        return segment_fold(op, values, starts)
    return host_runs(op, values, starts)


def host_runs(op, values, starts):
    """:func:`reduce_runs` on NumPy arrays already of ``op``'s type (also the GPU backend's
    fallback for an operator with no CUDA snippet)."""
    xp = np
    uf = op.ufunc_for(values.dtype)
    if uf is not None:
        with np.errstate(all="ignore"):  # IEEE results (inf, NaN) and wrap-around are the semantics, as in eval
            return uf.reduceat(values, starts).astype(values.dtype, copy=False)
    n = values.shape[0]
    lengths = xp.diff(xp.concatenate([starts, xp.asarray([n])]))
    seg = xp.repeat(xp.arange(len(starts)), lengths)
    pos = xp.arange(n) - xp.repeat(starts, lengths)
    vals = values
    while True:
        if int(lengths.max()) <= 1:
            return vals
        even = pos % 2 == 0
        has_partner = even & (pos + 1 < lengths[seg])
        left = xp.nonzero(has_partner)[0]
        merged = vals.copy()
        merged[left] = op.eval(vals[left], vals[left + 1])
        keep = xp.nonzero(even)[0]
        vals, seg = merged[keep], seg[keep]
        pos = pos[keep] // 2
        lengths = (lengths + 1) // 2


def reduce_segments(monoid, values, starts):
    """Reduce consecutive runs of ``values`` by ``monoid``: run r is ``values[starts[r]:starts[r+1]]``.

    ``starts`` is strictly increasing, starts at 0, and every run is non-empty.
    Returns one value per run, in ``monoid.domain_for(values.dtype)``.
    """
    d = monoid.domain_for(values.dtype)
    values = _dt.cast(values, d, f"input of monoid {monoid.name}", wrap_integers=True)
    if len(starts) == 0:
        return values[:0]
    if monoid.is_any:
        return values[starts]
    return reduce_runs(monoid.op, values, starts)


def reduce_all(monoid, values):
    """Reduce a whole array by ``monoid`` to one NumPy scalar (the identity when empty)."""
    d = monoid.domain_for(values.dtype)
    if values.size == 0:
        return monoid.identity_for(d)
    r = reduce_segments(monoid, values, _dt._xp(values).zeros(1, dtype=np.int64))
    return d.type(_host.read(r[:1])[0].item())  # (a device-to-host read on the GPU, counted)
