"""Distributed validation of BFS and SSSP results (Graph500 specification 3.0, section 5).

Each rank checks the edges it owns against the result vector, which is allgathered once
(n int32 levels, or n distances: far less than the graph); a failure on any rank is raised on
every rank as :class:`semiring.testing.validate.ValidationError`.
"""

from __future__ import annotations

import numpy as np

from ..testing.validate import ValidationError
from . import _array as K

_CHUNK = 1 << 26


def _full(vec, fill, dtype):
    """The whole vector on every rank, absent entries = ``fill`` (index = global id)."""
    ctx, xp, B = vec.ctx, vec.ctx.xp, vec.blocks.B
    local = xp.full(B, fill, dtype=dtype)
    nl = vec.values.shape[0]
    local[:nl] = xp.where(vec.present, vec.values.astype(dtype), fill)
    return ctx.channel.allgather(local, "validation gather")


def _agree(ctx, msg, what):
    ctx.agree(ValidationError(msg) if msg else None, what)


def check_bfs(A, source, level, parent=None):
    """Check levels (and parents) of :func:`semiring.distributed.bfs`; returns the vertices reached.

    Checks: level[source] = 0 and no other vertex at 0; for every edge u -> v with u reached, v
    is reached and level[v] <= level[u] + 1; every reached vertex but the source has a parent
    one level up, joined to it by an edge, and parent[source] = source.

    Raises
    ------
    ValidationError
        On every rank, naming the first failing check found.
    """
    ctx, xp = A.ctx, A.ctx.xp
    lv = _full(level, -1, np.int64)
    lo, nl = A.lo, A.nlocal
    msg = None
    mine = lv[lo:lo + nl]
    if int(lv[source]) != 0:
        msg = f"level[{source}] = {int(lv[source])}, expected 0 at the source"
    elif int((mine == 0).sum()) != (1 if lo <= source < lo + nl else 0):
        msg = "a vertex other than the source has level 0"
    rows = xp.arange(nl, dtype=np.int64)
    for rs in K.row_chunks(xp, A.indptr, rows, _CHUNK):
        if msg:
            break
        pos, which = K.expand(xp, A.indptr, A.cols, rs)
        lu = mine[rs[which]]
        lvv = lv[A.cols[pos].astype(np.int64)]
        bad = (lu >= 0) & ((lvv < 0) | (lvv > lu + 1))
        if bool(bad.any()):
            i = int(xp.nonzero(bad)[0][0])
            u, v = int(rs[which[i]]) + lo, int(A.cols[pos[i]])
            msg = f"edge {u} -> {v}: level {int(lu[i])} -> {int(lvv[i])} (must be reached, at most one more)"
    if not msg and parent is not None:
        AT = A.T
        reached = xp.nonzero(mine >= 0)[0]
        p = parent.values[reached].astype(np.int64)
        if lo <= source < lo + nl and int(parent.values[source - lo]) != source:
            msg = f"parent[{source}] = {int(parent.values[source - lo])}, expected the source itself"
        other = reached + lo != source
        r, p = reached[other], p[other]
        if not msg and r.shape[0]:
            if bool(((p < 0) | (p >= A.n)).any()):
                msg = "a parent outside 0..n-1"
            else:
                lp = lv[p]
                bad = lp != mine[r] - 1
                if bool(bad.any()):
                    i = int(xp.nonzero(bad)[0][0])
                    msg = f"parent {int(p[i])} of {int(r[i]) + lo} is at level {int(lp[i])}, not {int(mine[r[i]]) - 1}"
                else:  # the tree edge p -> v is an in-edge of v: binary search of p in AT's row v
                    a, b = AT.indptr[r], AT.indptr[r + 1]
                    end = b
                    while bool((a < b).any()):
                        mid = (a + b) // 2
                        go = (a < b) & (AT.cols[xp.minimum(mid, max(AT.local_nvals - 1, 0))] < p)
                        a, b = xp.where(go, mid + 1, a), xp.where(go | (a >= b), b, mid)
                    ok = (a < end) & (AT.cols[xp.minimum(a, max(AT.local_nvals - 1, 0))] == p)
                    if not bool(ok.all()):
                        i = int(xp.nonzero(~ok)[0][0])
                        msg = f"tree edge {int(p[i])} -> {int(r[i]) + lo} is not an edge of the graph"
    _agree(ctx, msg, "bfs validation")
    return int(ctx.allreduce(np.int64(int((mine >= 0).sum())), "sum", "bfs validation"))


def check_sssp(A, source, distance, W=None, *, rtol=1e-9):
    """Check distances of :func:`semiring.distributed.sssp`; returns the vertices reached.

    Checks: d[source] = 0; for every edge u -> v with u reached, d[v] <= d[u] + w(u, v); every
    reached vertex but the source has a tight in-edge (d[u] + w = d[v]). Floats to ``rtol``.

    Raises
    ------
    ValidationError
        On every rank, naming the first failing check found.
    """
    from ..ops import binary
    from ..backends.array.reduce import reduce_runs
    from .sssp import _weights

    ctx, xp = A.ctx, A.ctx.xp
    _, w = _weights(A)
    d = _full(distance, np.inf, np.float64)
    lo, nl = A.lo, A.nlocal
    mine = d[lo:lo + nl]
    msg = None if float(d[source]) == 0 else f"d[{source}] = {float(d[source])}, expected 0"
    tol = (lambda x: rtol * xp.abs(x)) if A.dtype.kind == "f" else (lambda x: 0)
    rows = xp.arange(nl, dtype=np.int64)
    for rs in K.row_chunks(xp, A.indptr, rows, _CHUNK):
        if msg:
            break
        pos, which = K.expand(xp, A.indptr, A.cols, rs)
        du = mine[rs[which]]
        cand = du + w[pos].astype(np.float64)
        dv = d[A.cols[pos].astype(np.int64)]
        bad = xp.isfinite(du) & (dv > cand + tol(cand))
        if bool(bad.any()):
            i = int(xp.nonzero(bad)[0][0])
            msg = f"edge {int(rs[which[i]]) + lo} -> {int(A.cols[pos[i]])} relaxes d to {float(cand[i])} < {float(dv[i])}"
    if not msg:
        AT = A.T
        _, wt = _weights(AT)
        cand = d[AT.cols.astype(np.int64)] + wt.astype(np.float64)
        deg = AT.indptr[1:] - AT.indptr[:-1]
        has = xp.nonzero(deg > 0)[0]
        best = xp.full(nl, np.inf)
        if has.shape[0]:
            best[has] = reduce_runs(binary.min, cand, AT.indptr[:-1][has])
        need = xp.isfinite(mine) & (xp.arange(nl) + lo != source)
        gap = xp.abs(xp.where(need, best, 0.0) - xp.where(need, mine, 0.0))
        bad = need & (gap > tol(mine))
        if bool(bad.any()):
            i = int(xp.nonzero(bad)[0][0])
            msg = f"vertex {i + lo} at distance {float(mine[i])} has no tight in-edge (best {float(best[i])})"
    _agree(ctx, msg, "sssp validation")
    return int(ctx.allreduce(np.int64(int(xp.isfinite(mine).sum())), "sum", "sssp validation"))


__all__ = ["check_bfs", "check_sssp", "ValidationError"]
