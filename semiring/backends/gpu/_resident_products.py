"""The resident matrix-vector products on the GPU: ``mxv``/``vxm`` as one ``product`` launch
that decides on the device whether to push or pull (Beamer, Asanovic, Patterson,
"Direction-optimizing breadth-first search", SC 2012; Yang, Buluc, Owens, "Implementing
push-pull efficiently in GraphBLAS", ICPP 2018), writing T into a scratch bitmap, then the
``pointwise`` write step (:mod:`._resident_write`), which also returns the scratch to rest.
"""

from __future__ import annotations

import threading

import numpy as np

from ... import _host
from ..._once import once_item
from ...core._rowptr import is_hyper
from ..direction import ALPHA
from . import products as _products
from . import snippets
from . import _resident_write as _write  # (LIST_MIN read at each call: a test may lower it there)
from ._resident_write import (
    MAX_SIZE, _build_pointwise, _compile, _cp, _ctype, _device, _launch_pointwise, _lock, _on_gpu_vector,
    _operand, _plan, _retired, _scratch,
)
from .launch import hold, launch, ptrs

#: Push when the edges of u's entries (summed on the device) < (allowed outputs x mean degree) / ALPHA.
#: Pull stops at the monoid's terminal value (the first term for ``any``), so it usually visits
#: far fewer terms than its estimate, while push pays an atomic per term: Beamer's alpha
#: (``backends.direction.ALPHA``) weighs the two as in direction-optimizing BFS.
PULL_BIAS = 1.0 / ALPHA


def _combine(m, tz):
    """The push kernel's statement combining term ``z`` into ``tv[jj]`` (None: no atomic fits)."""
    return snippets.combine(m, tz, "tv[jj]")


def _scratch_for(n, tz, rest):
    """The product's scratch T for (size, dtype, value at rest) on this device and thread: a
    bitmap all absent and equal to ``rest`` between operations, its {list length, listed}
    header (zero at rest) and room for its entry list; the write step puts
    them back at rest. Work of one thread runs in order on its stream, a recorded graph
    included, so one suffices. Returns the addresses (presence, values, header, list)."""
    cp = _cp()
    key = (cp.cuda.runtime.getDevice(), threading.get_ident(), n, tz, rest.tobytes())

    def build():
        tp, tv, th = cp.zeros(n, dtype=bool), cp.full(n, rest, dtype=tz), cp.zeros(4, dtype=np.int64)
        tl = cp.empty(max(n, 1), dtype=np.int32)
        return (tp, tv, th, tl) + ptrs(tp, tv, th, tl)

    return once_item(_scratch, key, build, _lock)[4:]


_DIRECTIONS = {"auto": 0, "push": 1, "pull": 2}

#: Stands for a product's scratch T as the write step's x.
_SCRATCH = object()


#: u's entries with this many edges or more are pushed by the whole grid, the others by warps.
HEAVY = 8192

#: Rows with this many edges or more are pulled by a block each, the others by groups of lanes
#: (``_row_lanes``): a warp alone on a web graph's largest rows (10**4 edges and more) would
#: leave the rest of the grid waiting.
PULL_HEAVY = 1024


class _Product:
    __slots__ = ("kern", "estimate", "code", "tz", "rest", "write", "lanes")

    def __init__(self, kern, estimate, code, tz, rest, write, lanes):
        self.kern, self.estimate, self.code, self.tz, self.rest = kern, estimate, code, tz, rest
        self.write, self.lanes = write, lanes


#: Lanes that push one entry of a listed input together, at least (more near a larger mean
#: degree): a short list leaves most of the grid idle, so each lane takes one edge rather than
#: a thread walking its row's edges one memory round trip after another.
PUSH_LIST_LANES = 8

#: A matrix whose largest row has this many times its mean degree (or HEAVY edges) is skewed.
SKEW = 16


def _skewed(M):
    """Whether M's rows are skewed (power-law graphs): its products then sum the exact edges of
    the input's entries for the direction and push heavy entries with the whole grid; on
    even degrees (roads, grids, meshes) entries x mean degree is the estimate, at no launch.
    One read of the largest degree per content of M (remembered until M is written)."""
    entry = getattr(M, "_resident_skew", None)
    if entry is None or entry[0] != M._version:
        rp = M._rowptr
        top = _host.read_int((rp[1:] - rp[:-1]).max()) if rp.shape[0] > 1 else 0
        entry = (M._version, top >= HEAVY or top > SKEW * max(M.nvals / max(M._nrows, 1), 1.0))
        M._resident_skew = entry
    return entry[1]


def _row_lanes(mean_degree):
    """Lanes that pull one row together: 1 below a mean degree of 4, else the power of two at
    or above the mean, up to a warp (32)."""
    if mean_degree < 4:
        return 1
    lanes = 4
    while lanes < 32 and lanes < mean_degree:
        lanes *= 2
    return lanes


def _heavy_rows(M):
    """(address, count) of the rows of M with PULL_HEAVY edges or more, listed once per content
    of M (one read of the largest degree, one more of the count when there are some)."""
    entry = getattr(M, "_resident_heavy", None)
    if entry is None or entry[0] != M._version:
        cp = _cp()
        rp = M._rowptr
        deg = rp[1:] - rp[:-1] if rp.shape[0] > 1 else None
        rows = None
        if deg is not None and _host.read_int(deg.max()) >= PULL_HEAVY:
            rows = cp.flatnonzero(deg >= PULL_HEAVY).astype(np.int64)
        value = (_device().dummy_ptr, np.int64(0)) if rows is None else (ptrs(rows)[0], np.int64(rows.shape[0]))
        entry = (M._version, value, rows)
        M._resident_heavy = entry
    hold(entry)
    return entry[1]


def _matrix_ptrs(M):
    """The device addresses of M's CSR arrays, remembered while they are M's."""
    arrays = (M._rowptr, M._indices, M._values)
    entry = getattr(M, "_resident_ptrs", None)
    if entry is None or any(a is not b for a, b in zip(entry[0], arrays)):
        entry = (arrays, ptrs(*arrays))
        M._resident_ptrs = entry
    hold(entry)
    return entry[1]


def _estimate_scratch(nnz):
    """(est, heavy) for the estimate kernel: five int64 (accumulators zero at rest) and room for
    every entry of HEAVY edges or more (at most nnz / HEAVY of them), per device and thread."""
    cp = _cp()
    cap = nnz // HEAVY + 1
    key = (cp.cuda.runtime.getDevice(), threading.get_ident(), "estimate")
    est, heavy = _scratch.get(key, (None, None))
    if heavy is None or heavy.shape[0] < cap:
        _retired.append(heavy)  # (a recorded graph may still use the smaller list)
        est = est if est is not None else cp.zeros(5, dtype=np.int64)
        heavy = cp.empty(max(cap, 64), dtype=np.int64)
        _scratch[key] = (est, heavy)
        _scratch[key + ("ptrs",)] = ptrs(est, heavy)
    return _scratch[key + ("ptrs",)]


def matvec(A, u, semiring, write, direction, is_vxm):
    """``mxv``/``vxm`` of a GPU Matrix and a GPU Vector, on the device from end to end: one
    product launch (direction taken on the device) and the pointwise write step."""
    code = _DIRECTIONS.get(direction)
    if code is None or not _on_gpu_vector(u) or A._device != "gpu" or is_hyper(A._rowptr):
        return NotImplemented
    n_in, n_out = (A._nrows, A._ncols) if is_vxm else (A._ncols, A._nrows)
    if n_in > MAX_SIZE or n_out > MAX_SIZE:
        return NotImplemented
    nnz = A.nvals
    lanes = _row_lanes(nnz / max(n_out, 1))
    push_lanes = max(PUSH_LIST_LANES, _row_lanes(nnz / max(n_in, 1)))
    B = (A if is_vxm else A.T) if code in (0, 1) else None
    P = (A.T if is_vxm else A) if code in (0, 2) else None
    shapes = tuple(None if M is None else (M._rowptr.dtype, M._indices.dtype) for M in (B, P))
    skewed = B is not None and _skewed(B)
    t_list = n_out >= _write.LIST_MIN
    driver = write.driver(_SCRATCH) if t_list else 0  # (T, the scratch, is x: never C)
    key = ("matvec", semiring, A._dtype, u._dtype, is_vxm, code, lanes, push_lanes, skewed, shapes, write.key(),
           t_list, driver)
    plan = _plan(key, lambda: _matvec_plan(A, u, semiring, write, code, is_vxm, (lanes, push_lanes), skewed, B, P,
                                           t_list, driver))
    if plan is None:
        return NotImplemented
    tp, tv, th, tl = _scratch_for(n_out, plan.tz, plan.rest)
    present, dense, ucnt, ul0, ul1 = _operand(u)
    mp, mv, mcnt = write.mask_args()
    dev = _device()
    dummy = dev.dummy_ptr
    pushes = plan.code in (0, 1)
    b = _matrix_ptrs(B) if pushes else (dummy, dummy, dummy)
    p = _matrix_ptrs(P) if plan.code in (0, 2) else (dummy, dummy, dummy)
    est, heavy = dummy, dummy
    if plan.estimate is not None:  # the edges of u's entries (the direction) and its heavy entries
        est, heavy = _estimate_scratch(nnz)
        launch(plan.estimate, *dev.grid(n_in), (np.int64(n_in), b[0], present, ucnt, ul0, ul1, est, heavy))
    heavy_rows, n_heavy = _heavy_rows(P) if plan.code in (0, 2) else (dummy, np.int64(0))
    threads = max(n_in if pushes else 0, n_out * lanes if plan.code in (0, 2) else 0)
    launch(plan.kern, *dev.grid(threads), (np.int64(n_in), np.int64(n_out), *b, *p, present, dense, ucnt, est,
                                           heavy, mp, mv, mcnt, tp, tv, np.float64(nnz / max(n_in, 1)),
                                           np.float64(nnz / max(n_out, 1)), heavy_rows, n_heavy, ul0, ul1, th,
                                           tl))
    # the write step reads T (by its list when pushed and short) and puts the scratch back at rest
    return _launch_pointwise(plan.write, n_out, write, x=(tp, tv, th, tl, tl))


def _matvec_plan(A, u, semiring, write, code, is_vxm, lanes, skewed, B, P, t_list, driver):
    lanes, push_lanes = lanes
    m, f = semiring.monoid, semiring.multiply
    da, du = A.dtype, u.dtype
    first, second = (du, da) if is_vxm else (da, du)
    tz = semiring.output_dtype(first, second)
    if not _products.supports(semiring, first, second, push=False):
        return None
    combine = _combine(m, tz) if (m.is_any or m.op.cuda is not None) else None
    if combine is None:
        if code == 1:
            return None
        code = 2
    if code == 0 and combine is None:
        code = 2
    if (code in (0, 1) and B is None) or (code in (0, 2) and P is None):
        return None
    tc = np.dtype(write.out.dtype if write.out is not None else tz)
    never_nan = f.builtin and f.name == "pair"  # T counts terms: 1 or more, never NaN
    if not write.ok(tz, tc, never_nan):
        return None
    rest = np.asarray(m.identity_for(tz) if not m.is_any else 0, dtype=tz)[()]
    tin = np.dtype(np.int64) if f.positional else f.input_dtype(first, second)
    mk = write.defines(tz, tc)
    term = None if m.is_any else m.terminal_for(tz)
    d = dict(TZ=_ctype(tz), TIN=_ctype(tin), TU=_ctype(du), TA=_ctype(da), TM=mk["TM"],
             MASK=mk["MASK"], MCOMP=mk["MCOMP"], MULT=f"({f.cuda})",
             MONOID="(y)" if m.is_any else f"({m.op.cuda})", IS_ANY=int(m.is_any), IS_VXM=int(is_vxm),
             DIRECTION=code, PULL_BIAS=repr(float(PULL_BIAS)), COMBINE=combine or ";", ROW_LANES=lanes,
             PUSH_LANES=push_lanes,
             HEAVY=HEAVY, PULL_HEAVY=PULL_HEAVY, ESTIMATE=int(skewed), T_LIST=int(t_list),
             HAS_TERMINAL=int(term is not None), TERMINAL=_literal(term, tz))
    for name, M in (("B", B), ("P", P)):
        M = M if M is not None else A
        d[name + "PT"], d[name + "XT"] = _ctype(M._rowptr.dtype), _ctype(M._indices.dtype)
    kern = _compile("resident_products.cu", "product", d)
    est = _compile("resident_products.cu", "estimate", d) if skewed and code in (0, 1) else None
    wplan = _build_pointwise("product_write", "tp = xp[i]; if (tp) tv = xv[i];", dict(TX=tz), write, tz,
                             never_nan=never_nan, reset_x=rest, driver=driver)
    if kern is None or wplan is None or (skewed and code in (0, 1) and est is None):
        return None
    return _Product(kern, est, code, tz, np.asarray(rest, dtype=tz), wplan, lanes)


def _literal(value, dtype):
    """A C literal of ``value`` (a NumPy scalar of ``dtype``) or 0."""
    if value is None:
        return "0"
    d = np.dtype(dtype)
    if d.kind == "b":
        return "true" if bool(value) else "false"
    if d.kind == "f":
        v = float(value)
        if np.isinf(v):
            return "(1.0/0.0)" if v > 0 else "(-1.0/0.0)"
        return repr(v)
    if d.kind == "u":
        return f"{int(value)}ULL"
    return f"{int(value)}LL"
