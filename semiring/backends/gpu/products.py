"""GPU fast paths for the semiring products, generic in the semiring: kernels are generated
from the multiply's and the monoid's CUDA snippets and cached per (semiring, types, device).

- pull (``mxv``; ``vxm`` by the cached transpose): one thread per allowed output row walks
  its entries and the input bitmap, and stops at the monoid's terminal value (``any``: the
  first term; ``lor``: True; ``min`` on unsigned: 0). This is the early exit of pull BFS.
- push (``vxm``; ``mxv`` by the transpose): the frontier's edges are expanded once (each
  thread one edge: load balance by edge, merge-path style), and each term is combined into a
  dense output with an atomic compare-and-swap of the monoid (a plain store for ``any``).
  The output positions are collected as a queue: block-private shared-memory queues, each
  flushed to the global queue with one atomic per block.
- edge-centric (``direction="edge"``): one thread per stored entry of A, checking its source
  in the input's bitmap; same combine and queue.

Products the kernels cannot express exactly (integer ``div`` by zero rules, 1- and 2-byte
atomics, operators without a snippet) go to the generic path, the array layer's code
(:mod:`semiring.backends.array.products`) on CuPy; so does ``mxm``, except ``plus.pair`` under a
mask (triangle counting), whose entries are counted by sorted-list intersection
(:mod:`semiring.backends.gpu.intersect`). A masked ``mxm`` of another semiring takes the array
layer's expansion or its masked dot product (``mxm_dot``), by the same estimate as on the CPU:
the dot product is the same array code on CuPy (``searchsorted``, gathers and the segmented
reduction the expansion also uses), so it gives the expansion's entries; its cost model was
measured on the CPU.

References: Yang, Buluc, Owens, "Implementing push-pull efficiently in GraphBLAS", ICPP 2018;
Merrill, Garland, Grimshaw, "Scalable GPU graph traversal", PPoPP 2012 (expansion by edge).
"""

from __future__ import annotations

import numpy as np

from ...core._rowptr import is_hyper
from .._xp import repeat
from ..array import products as _generic
from ..array.products import mxm, mxm_dot  # no kernels of their own: the array layer's code on CuPy
from ..array.sparse import ragged_arange
from .compiler import ctype, kernel
from .intersect import mxm_count_masked
from .snippets import CAS, combine, exact

__all__ = ["ENABLED", "supports", "mxv", "vxm", "edge", "mxm", "mxm_dot", "mxm_count_masked"]

#: Use the fast kernels (False sends every product to the generic path: for comparisons).
ENABLED = True

def supports(semiring, da, du, push):
    """True if the fast kernels compute this product exactly."""
    if not ENABLED:
        return False
    m, f = semiring.monoid, semiring.multiply
    tin = f.input_dtype(da, du) if not f.positional else np.dtype(np.int64)
    tz = semiring.output_dtype(da, du)
    if not (exact(f, tin) and (m.is_any or exact(m.op, tz))):
        return False
    if push and not m.is_any and not (tz.kind == "b" and m.name in ("lor", "plus", "max")):
        return tz.itemsize in CAS
    return True


def _defines(kind, semiring, da, du, flip, ipt, ixt):
    """``(file, definitions, TZ)`` specializing ``kernels/products_pull.cu`` (kind "pull") or
    ``products_push.cu`` (kind "push" or "edge") for this semiring and these types."""
    f, m = semiring.multiply, semiring.monoid
    push = False if kind == "pull" else kind
    tin = f.input_dtype(da, du) if not f.positional else np.dtype(np.int64)
    tz = semiring.output_dtype(da, du)
    # The operands in the user's order: mxv is A(i,k) * u(k), vxm is u(k) * A(k,j). The pull
    # kernel walks A's rows (A' = A^T when flip computes vxm); push expands A's rows by the
    # frontier (A' = A^T when flip computes mxv).
    if push:
        a_term, u_term = "avals[p]", ("uvals_rep[k]" if push == "edge" else "uvals_rep[t]")
        i_expr, j_expr = ("jj", "0") if flip else ("0", "jj")
        x_expr, y_expr = (a_term, u_term) if flip else (u_term, a_term)
    else:
        a_term, u_term = "avals[p]", "udense[k]"
        i_expr, j_expr = ("0", "r") if flip else ("r", "0")
        x_expr, y_expr = (u_term, a_term) if flip else (a_term, u_term)
    d = {"IPT": ctype(ipt), "IXT": ctype(ixt), "TIN": ctype(tin), "TZ": ctype(tz), "TA": ctype(da),
         "TU": ctype(du), "I_EXPR": i_expr, "J_EXPR": j_expr, "X_EXPR": x_expr, "Y_EXPR": y_expr,
         "MULT": f.cuda, "IS_ANY": "true" if m.is_any else "false"}
    if not push:
        d["MONOID"] = m.op.cuda if not m.is_any else "y"
        return "products_pull.cu", d, tz
    d.update(KIND=push, POS_EXPR="t" if push == "edge" else "pos[t]",
             SOURCE_CHECK="if (!srcpresent[k]) active = false;" if push == "edge" else "")
    d["COMBINE"] = combine(m, tz, "out[jj]")
    return "products_push.cu", d, tz


def _kernel(kind, semiring, da, du, flip, A):
    """The compiled kernel for this product and its output dtype (compiled once per
    specialization and device by :mod:`.compiler`)."""
    filename, defines, tz = _defines(kind, semiring, da, du, flip, A._indptr.dtype, A._indices.dtype)
    return kernel(filename, kind, defines), tz


def _grid(n, block=256):
    return ((max(n, 1) + block - 1) // block,), (block,)


def mxv(A, u, semiring, rows=None, flip=False):
    """Pull with early exit; same contract as the generic ``mxv``."""
    import cupy as cp

    if is_hyper(A._rowptr) or not supports(semiring, A.dtype, u.dtype, push=False):
        return _generic.mxv(A, u, semiring, rows=rows, flip=flip)  # (hypersparse rows: the generic code)
    kern, tz = _kernel("pull", semiring, A.dtype, u.dtype, flip, A)
    rows = cp.arange(A.nrows, dtype=cp.int64) if rows is None else rows.astype(cp.int64, copy=False)
    present, dense = u._bitmap()
    zp = cp.zeros(rows.shape[0], dtype=cp.bool_)
    zv = cp.empty(rows.shape[0], dtype=tz)
    term = semiring.monoid.terminal_for(tz) if not semiring.monoid.is_any else None
    if rows.shape[0]:
        kern(*_grid(rows.shape[0]), (rows, np.int64(rows.shape[0]), A._indptr, A._indices, A._values,
                                      present, dense, zp, zv, tz.type(0 if term is None else term),
                                      np.int32(term is not None)))
    return rows[zp], zv[zp]


def vxm(u_idx, u_vals, A, semiring, keep=None, flip=False, allowed=None):
    """Push by edge with atomic monoid updates; same contract as the generic ``vxm``, plus
    ``allowed`` (bool, one per output position) in place of ``keep`` when the mask is dense."""
    import cupy as cp

    if (is_hyper(A._rowptr) or not supports(semiring, A.dtype, u_vals.dtype, push=True)
            or (keep is not None and allowed is None)):
        return _generic.vxm(u_idx, u_vals, A, semiring, keep=keep, flip=flip)
    kern, tz = _kernel("push", semiring, A.dtype, u_vals.dtype, flip, A)
    counts = (A._indptr[u_idx + 1] - A._indptr[u_idx]).astype(cp.int64)
    pos = ragged_arange(A._indptr[u_idx].astype(cp.int64), counts)
    kk = repeat(u_idx, counts)
    urep = repeat(u_vals, counts)
    m = semiring.monoid
    out = cp.full(A.ncols, m.identity_for(tz) if not m.is_any else 0, dtype=tz)
    return _launch(kern, pos.shape[0], (kk, pos, A._indices, A._values, urep), allowed, out, None)


def _launch(kern, nterms, operands, allowed, out, srcpresent):
    """Run a push/edge kernel; return the output queue (sorted) and the values there."""
    import cupy as cp

    n = out.shape[0]
    flag = cp.zeros(n, dtype=cp.int32)
    queue = cp.empty(max(n, 1), dtype=cp.int64)
    qlen = cp.zeros(1, dtype=cp.uint64)
    if nterms:
        use = allowed is not None
        dummy = cp.zeros(1, dtype=cp.bool_)
        kern(*_grid(nterms), (np.int64(nterms), *operands, allowed if use else dummy, np.int32(use), out, flag,
                              dummy if srcpresent is None else srcpresent, queue, qlen))
    idx = cp.sort(queue[: int(qlen[0])])
    return idx, out[idx]


def edge(A, u, semiring, keep=None, is_vxm=False, allowed=None):
    """Edge-centric product: one thread per stored entry of A (or of A^T for ``mxv``), each
    checking its source in u's bitmap; for small graphs, where expanding a frontier costs more
    than touching every edge."""
    import cupy as cp

    if (is_hyper(A._rowptr) or not supports(semiring, A.dtype, u.dtype, push=True)
            or (keep is not None and allowed is None)):
        return _generic.edge(A, u, semiring, keep=keep, is_vxm=is_vxm)
    M = A if is_vxm else A.T
    kern, tz = _kernel("edge", semiring, A.dtype, u.dtype, not is_vxm, M)
    present, dense = u._bitmap()
    m = semiring.monoid
    out = cp.full(M.ncols, m.identity_for(tz) if not m.is_any else 0, dtype=tz)
    rows = M._row_ids()
    return _launch(kern, M.nvals, (rows, rows, M._indices, M._values, dense), allowed, out, present)
