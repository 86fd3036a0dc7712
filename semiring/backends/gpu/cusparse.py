"""Arithmetic products through cuSPARSE: ``mxv``/``vxm`` over ``plus_times``, ``plus_first``,
``plus_second`` and ``plus_pair`` on float32/float64 by ``cupyx.scipy.sparse`` SpMV.

cuSPARSE's SpMV balances skewed rows (merge-based CSR SpMV; Merrill and Garland, "Merge-based
parallel sparse matrix-vector multiplication", SC 2016) far better than a warp per row, and it
is a well-kept library, so the arithmetic semirings use it where the GraphBLAS result can be
read from its output exactly:

- values: ``y = M v`` with ``M`` the matrix (``A`` for ``mxv``, ``A'`` for ``vxm``) holding A's
  values or ones, and ``v`` u's values or ones at u's entries and 0 elsewhere;
- structure (GraphBLAS: T(i) is present when some term is, whatever its value): row i of M
  has an entry where u has one. It is ``y > 0`` for ``plus_pair`` (y counts the terms), row i
  of M non-empty when the host already knows that u is full, and otherwise ``M' c > 0`` with
  M's pattern and ``c`` u's presence as 0/1 (a second SpMV; sums of ones are exact).

The write step ``C<M, replace> = accum(C, T)`` is the resident ``pointwise`` kernel, so results
stay in bitmap form with their count on the device and the operation reads nothing from the
host (after one read per matrix content that its values are finite: a zero standing for an
absent entry times an infinite value would be NaN where GraphBLAS has no term).

Not used (``NotImplemented``; the resident kernels compute the product) when: a CUDA graph is
being recorded, or the eager run before one is going on (cuSPARSE calls cannot be captured;
``launch.before_recording``), the direction is forced, a mask allows
few outputs that the host knows of (pull visits only those), the types are not float32/float64
end to end, or the matrix has no entries or 2**31 or more (cupyx's int32 indices).
"""

from __future__ import annotations

import numpy as np

from ... import _host
from ..._once import derived
from ...core._rowptr import is_hyper
from . import _resident_write as _write  # the resident write step and the helpers its families share
from .launch import capturable_only, ptrs

#: Operators whose products are a sum of (value or 1) x (value or 1): whether the product uses
#: the first and the second operand's value.
_USES = {"times": (True, True), "first": (True, False), "second": (False, True), "pair": (False, False)}

_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))

#: A non-complemented mask whose (host-known) entries are fewer than this fraction of the
#: outputs leaves the product to the resident pull, which visits only the allowed rows.
MASK_FRACTION = 1 / 16

_INT32_MAX = np.iinfo(np.int32).max

#: Products computed here so far (process-wide; tells a test which path ran).
calls = [0]


def _cp():
    import cupy

    return cupy


def _form(M, key, build):
    """A derived form of Matrix M for ``key``, remembered for M's current content."""
    return derived(M, ("cusparse", key), build)


def _csr(M, tin, pattern):
    """M as a cupyx CSR of dtype ``tin``: its values, or ones for its pattern."""
    from cupyx.scipy import sparse as cs

    def build():
        cp = _cp()
        data = cp.ones(M.nvals, dtype=tin) if pattern else M._values.astype(tin)
        return cs.csr_matrix((data, M._indices.astype(np.int32, copy=False), M._rowptr.astype(np.int32, copy=False)),
                             shape=(M._nrows, M._ncols))

    return _form(M, ("csr", np.dtype(tin), pattern), build)


def _finite(M, tin):
    """Whether every value of M cast to ``tin`` is finite (one read per content of a float M)."""
    if M._dtype.kind != "f":
        return True
    return _form(M, ("finite", np.dtype(tin)),
                 lambda: bool(_host.read(_cp().isfinite(M._values.astype(tin)).all())))


def _nonempty_rows(M):
    """A bool per row of M: does it have an entry."""
    return _form(M, "nonempty", lambda: M._rowptr[1:] != M._rowptr[:-1])


def _few_allowed(write, n_out):
    """Whether the mask allows few outputs, as far as the host knows without a read."""
    m = write.mask
    if m is None:
        return False
    nv = m.parent._nv
    if nv is None:
        return not m.complement
    allowed = n_out - nv if m.complement else nv  # (value masks allow at most this many)
    return allowed < MASK_FRACTION * n_out


def _vector_in(u, tin, values):
    """u as a dense ``tin`` array: its values (``values``) or 1 at its entries, 0 elsewhere."""
    cp = _cp()
    present, dense = u._bitmap()
    if not values:
        return present.astype(tin)
    out = cp.empty(present.shape[0], dtype=tin)
    _kernel(cp, dense.dtype, tin)(present, dense, out)
    return out


_kernels = {}


def _kernel(cp, src, dst):
    key = (np.dtype(src), np.dtype(dst))
    k = _kernels.get(key)
    if k is None:
        k = _kernels[key] = cp.ElementwiseKernel("bool p, S v", "D out", "out = p ? (D)v : (D)0",
                                                 "semiring_spmv_operand")
    return k


def matvec(A, u, semiring, write, direction, is_vxm):
    """``mxv``/``vxm`` by cuSPARSE SpMV and the resident write step, or ``NotImplemented``."""
    if direction != "auto" or capturable_only():
        return NotImplemented
    m, f = semiring.monoid, semiring.multiply
    if m.is_any or not (m.op.builtin and m.op.name == "plus") or not (f.builtin and f.name in _USES):
        return NotImplemented
    if (not _write._on_gpu_vector(u) or not 0 < A.nvals <= _INT32_MAX or max(A._nrows, A._ncols) > _INT32_MAX
            or min(A._nrows, A._ncols) == 0):
        return NotImplemented
    n_out = A._ncols if is_vxm else A._nrows
    first, second = (u._dtype, A._dtype) if is_vxm else (A._dtype, u._dtype)
    tz = semiring.output_dtype(first, second)
    tin = f.input_dtype(first, second)
    if tz not in _FLOATS or tin != tz or _few_allowed(write, n_out):
        return NotImplemented
    uses_first, uses_second = _USES[f.name]
    uses_a, uses_u = (uses_second, uses_first) if is_vxm else (uses_first, uses_second)
    for used, d in ((uses_a, A._dtype), (uses_u, u._dtype)):
        if used and not _write._castable(d, tin):
            return NotImplemented
    pair = not (uses_a or uses_u)
    full = u._nv is not None and u._nv == u._size
    mode = "count" if pair else ("rows" if full else "structure")
    plan = _write._plan(("cusparse", mode, tz, write.key()), lambda: _write_plan(mode, tz, write))
    if plan is None:
        return NotImplemented
    M = A.T if is_vxm else A
    if is_hyper(M._rowptr) or (uses_a and not full and not _finite(M, tin)):
        return NotImplemented
    calls[0] += 1
    # y = M v: the values of T (and, for plus_pair, its term counts)
    y = _csr(M, tin, not uses_a) @ _vector_in(u, tin, uses_u)
    dummy = _write._device().dummy_ptr
    if mode == "count":
        return _write._launch_pointwise(plan, n_out, write, x=(dummy,) + ptrs(y))
    if mode == "rows":
        return _write._launch_pointwise(plan, n_out, write, x=ptrs(_nonempty_rows(M), y))
    # c = pattern(M) presence(u): T's term counts, so T(i) is present where c(i) > 0
    c = _csr(M, tin, True) @ _vector_in(u, tin, False)
    return _write._launch_pointwise(plan, n_out, write, x=(dummy,) + ptrs(y), y=(dummy,) + ptrs(c))


def _write_plan(mode, tz, write):
    """The pointwise write step reading T from the SpMV outputs: x the values (and, in mode
    "rows", the non-empty rows as x's presence), y the term counts in mode "structure"."""
    term = {"count": "tp = xv[i] != (TX)0; if (tp) tv = (TZ)xv[i];",
            "rows": "tp = xp[i]; if (tp) tv = (TZ)xv[i];",
            "structure": "tp = yv[i] != (TY)0; if (tp) tv = (TZ)xv[i];"}[mode]
    return _write._build_pointwise("spmv_write", term, dict(TX=tz, TY=tz), write, tz)


__all__ = ["matvec"]
