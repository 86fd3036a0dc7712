"""Arithmetic products on the CPU through SciPy's compiled CSR SpMV: ``mxv``/``vxm`` over
``plus_times``, ``plus_first``, ``plus_second`` and ``plus_pair`` on float32/float64.

The same reading of an SpMV as the GPU's cuSPARSE path (:mod:`semiring.backends.gpu.cusparse`):

- values: ``y = M v`` with ``M`` the matrix (``A`` for ``mxv``, the cached ``A'`` for ``vxm``)
  holding A's values or ones, and ``v`` u's values or ones at u's entries and 0 elsewhere;
- structure (GraphBLAS: T(i) is present when some term is, whatever its value): row i of M is
  non-empty when u is full, else ``c = pattern(M) presence(u)`` counts the terms (a second SpMV;
  sums of ones are exact) and T(i) is present where ``c(i) > 0``.

SciPy's ``csr_matvec`` adds a row's terms in the row's order, as the array layer's segmented
reduction does. The write step (mask, accumulator, replace) is the common one.

Not used (``NotImplemented``: the array layer computes the product) when the direction is
forced, the monoid is not the built-in ``plus`` or the multiply not one of the four, a type is
not float32/float64 or differs from the multiply's input type (no cast), the matrix is
hypersparse or empty, a mask allows few outputs (the pull visits only those), or u is not full
and M's values are used and not all finite (a zero standing for an absent entry times an
infinite value would be NaN where GraphBLAS has no term).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from ..._once import derived
from ...core._rowptr import is_hyper

#: Operators whose products are a sum of (value or 1) x (value or 1): whether the product uses
#: the first and the second operand's value.
USES = {"times": (True, True), "first": (True, False), "second": (False, True), "pair": (False, False)}

_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))

#: A non-complemented mask with fewer entries than this fraction of the outputs leaves the
#: product to the pull, which visits only the allowed rows.
MASK_FRACTION = 1 / 16

#: Products computed here so far (process-wide; tells a test which path ran).
calls = [0]


def _form(M, key, build):
    """A derived form of Matrix M for ``key``, remembered for M's current content."""
    return derived(M, ("scipy", key), build)


def _csr(M, dtype, pattern):
    """M as a SciPy CSR sharing its index arrays: its values (already of ``dtype``), or ones of
    ``dtype`` for its pattern."""
    def build():
        data = np.ones(M.nvals, dtype=dtype) if pattern else M._values
        return sp.csr_array((data, M._indices, M._rowptr), shape=(M._nrows, M._ncols), copy=False)

    return _form(M, ("csr", np.dtype(dtype), pattern), build)


def _few_allowed(mask, n_out):
    if mask is None or mask.complement:
        return False
    return mask.parent.nvals < MASK_FRACTION * n_out


def matvec(A, u, semiring, mask, direction, is_vxm):
    """``(indices, values)`` of ``T = A semiring u`` (``mxv``) or ``u semiring A`` (``vxm``) by
    SciPy SpMV, or ``NotImplemented``."""
    if not (isinstance(direction, str) and direction == "auto"):  # (a bad one is refused later)
        return NotImplemented
    m, f = semiring.monoid, semiring.multiply
    if m.is_any or not (m.op.builtin and m.op.name == "plus") or not (f.builtin and f.name in USES):
        return NotImplemented
    if A.nvals == 0 or min(A._nrows, A._ncols) == 0 or u.nvals == 0:
        return NotImplemented
    n_out = A._ncols if is_vxm else A._nrows
    first, second = (u._dtype, A._dtype) if is_vxm else (A._dtype, u._dtype)
    tz = semiring.output_dtype(first, second)
    if tz not in _FLOATS or f.input_dtype(first, second) != tz or _few_allowed(mask, n_out):
        return NotImplemented
    uses_first, uses_second = USES[f.name]
    uses_a, uses_u = (uses_second, uses_first) if is_vxm else (uses_first, uses_second)
    if (uses_a and A._dtype != tz) or (uses_u and u._dtype != tz):
        return NotImplemented
    M = A.T if is_vxm else A
    if is_hyper(M._rowptr):
        return NotImplemented
    full = u.nvals == u.size
    if uses_a and not full and not _form(M, "finite", lambda: bool(np.isfinite(M._values).all())):
        return NotImplemented
    calls[0] += 1
    present, dense = u._bitmap()
    # v = u's values (or ones) at its entries, 0 elsewhere
    if uses_u:
        v = dense if full else np.where(present, dense, dense.dtype.type(0))
    else:
        v = present.astype(tz)
    # y = M v   (T's values; for plus_pair, its term counts)
    y = _csr(M, tz, not uses_a) @ v
    if not (uses_a or uses_u):
        keep = y > 0
    elif full:
        keep = _form(M, "nonempty", lambda: M._rowptr[1:] != M._rowptr[:-1])
    else:
        # c = pattern(M) presence(u)   (the terms of each output)
        keep = (_csr(M, np.float64, True) @ present.astype(np.float64)) > 0
    idx = np.flatnonzero(keep)
    return idx, y[idx].astype(tz, copy=False)
