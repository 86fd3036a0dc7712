"""Whole-search, direction-optimizing BFS on the CPU: one call runs every level (the CPU
counterpart of :mod:`semiring.backends.gpu.traversal`).

The search is level-synchronous and takes Beamer's push / pull decision per level by
:mod:`semiring.backends.direction` (the rule and constants of every BFS engine). Each level
runs in one of two forms, chosen by its work (frontier vertices plus their out-edges):

- small (at most :data:`SCALAR_WORK`): a scalar loop in Python over memoryviews of the CSR
  arrays and of the level and parent arrays. It allocates nothing of size n and makes no NumPy
  call, so a level costs about a microsecond plus a fraction of a microsecond per edge;
  consecutive small push levels run in one loop without returning.
- large: vectorized push (gather the frontier's out-edges, keep the unvisited targets, one
  claim per target) or pull (each unvisited vertex scans its in-edges in rounds of 1, 2, 4, ...
  and stops at the first on the current level, the ``any`` monoid's early exit).

A deep, narrow search (a road network, a path) therefore costs O(edges) plus about a
microsecond per level, where a sequence of masked products costs O(n) per level.

The per-level trace is not recorded in the loop: frontier sizes, discoveries and push
levels' examined edges follow from the final levels (one ``bincount`` each); only the
direction changes and the pull levels' examined in-edges are recorded.

Deterministic parents (the smallest-index parent on the previous level, as ``min_secondi``):
scalar levels keep the smallest frontier vertex seen per target; vectorized push levels take
the minimum over the candidate edges (``np.minimum.at``); pull levels scan sorted in-edges,
so their first hit is the smallest.

References: Beamer, Asanovic, Patterson, "Direction-optimizing breadth-first search", SC 2012.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from ..._memory import require
from ..direction import ALPHA, BETA, Beamer, push_to_pull
from ..results import PULL, PUSH, TraversalResult

#: A level whose frontier vertices plus out-edges are at most this runs as a scalar loop;
#: larger levels run vectorized. Measured on the New York roads (BFS and SSSP, 2-core EPYC):
#: 16 to 256 within noise of each other, 1024 20-70% slower, 4096 2-3x slower; on a path
#: (one vertex per level) any value runs scalar. A vectorized level costs tens of microseconds
#: of NumPy calls, a scalar one about a microsecond plus a fraction per edge.
SCALAR_WORK = 256

def _push_small(ip, ix, lv, pa, q, nq, mf, depth, rule, md, det, limit):
    """Push levels as scalar loops while they stay small, until the direction rule ``rule``
    (a :class:`~semiring.backends.direction.Beamer`, advanced here per level) would turn to
    pull. Returns the state after the last level run: (frontier list, its size, its
    out-edges, depth)."""
    auto, alpha = rule.auto, rule.alpha
    nq_last, unexplored = rule.nq_last, rule.unexplored
    while True:
        depth += 1
        nxt = []
        add = nxt.append
        mfn = 0
        for u in q:
            for p in range(ip[u], ip[u + 1]):
                v = ix[p]
                if lv[v] < 0:
                    lv[v] = depth
                    pa[v] = u
                    add(v)
                    mfn += ip[v + 1] - ip[v]
                elif det and lv[v] == depth and u < pa[v]:
                    pa[v] = u
        unexplored -= mf
        nq_last = nq
        q, nq, mf = nxt, len(nxt), mfn
        # (nq > nq_last first: the rule's own first condition, which spares a call per level of
        # a deep, narrow search)
        if (not nq or depth == md or nq + mf > limit
                or (auto and nq > nq_last and push_to_pull(nq, nq_last, mf, unexplored, alpha))):
            rule.nq_last, rule.unexplored = nq_last, unexplored
            return q, nq, mf, depth


#: Edges from which a gather uses SciPy's compiled CSR row selection (below, its per-call
#: overhead exceeds the gain over the NumPy gather).
SCIPY_GATHER = 1 << 14


def _out_edges(optr, oidx, q):
    """(source, target) of every out-edge of the vertices ``q`` (int64 array), in queue order."""
    starts = optr[q]
    cnt = optr[q + 1] - starts
    total = int(cnt.sum())
    if total == 0:
        e = np.zeros(0, dtype=np.int64)
        return e, e
    if total >= SCIPY_GATHER:
        n = optr.shape[0] - 1
        # the structure alone: a broadcast True as the values (no array of nnz values made)
        S = sp.csr_array((np.broadcast_to(np.True_, oidx.shape), oidx, optr), shape=(n, n), copy=False)
        return np.repeat(q, cnt), S[q].indices.astype(np.int64, copy=False)
    # position of each edge: its row's start plus its rank within the row
    offs = np.arange(total, dtype=np.int64) + np.repeat(starts - (np.cumsum(cnt) - cnt), cnt)
    return np.repeat(q, cnt), oidx[offs].astype(np.int64, copy=False)


def _push_wide(optr, oidx, level, parent, mark, q, depth, det):
    """One vectorized push level from frontier ``q``; returns (new frontier, its out-edges)."""
    src, dst = _out_edges(optr, oidx, q)
    fresh = level[dst] < 0
    src, dst = src[fresh], dst[fresh]
    # one claim per target: every candidate writes its rank, the rank that stays wins
    k = np.arange(dst.shape[0], dtype=np.int64)
    mark[dst] = k
    win = np.flatnonzero(mark[dst] == k)
    new = dst[win]
    level[new] = depth
    parent[new] = src[win]
    if det:  # the smallest candidate parent of each new vertex
        np.minimum.at(parent, dst, src)
    return new, int((optr[new + 1] - optr[new]).sum())


def _pull_wide(optr, iptr, iidx, level, parent, depth):
    """One vectorized pull level: every unvisited vertex looks for an in-neighbour on level
    ``depth - 1``. Returns (new frontier, sorted; its out-edges; in-edges of the unvisited)."""
    v = np.flatnonzero(level < 0)
    pos, end = iptr[v].astype(np.int64), iptr[v + 1].astype(np.int64)
    examined = int((end - pos).sum())
    prev = depth - 1
    found_v, found_u = [], []
    step = 1
    while v.shape[0]:
        # the next `step` in-edges of every vertex still looking
        take = np.minimum(end - pos, step)
        live = take > 0
        if not live.all():
            v, pos, end, take = v[live], pos[live], end[live], take[live]
            if not v.shape[0]:
                break
        seg = np.repeat(np.arange(v.shape[0], dtype=np.int64), take)
        offs = np.arange(seg.shape[0], dtype=np.int64) + np.repeat(pos - (np.cumsum(take) - take), take)
        u = iidx[offs]
        hit = np.flatnonzero(level[u] == prev)
        if hit.shape[0]:
            hs = seg[hit]
            first = np.ones(hs.shape[0], dtype=bool)
            first[1:] = hs[1:] != hs[:-1]  # the first hit of each vertex (its smallest in-neighbour)
            hv = hs[first]
            found_v.append(v[hv])
            found_u.append(u[hit[first]])
            keep = np.ones(v.shape[0], dtype=bool)
            keep[hv] = False
            v, pos, end = v[keep], pos[keep] + take[keep], end[keep]
        else:
            pos = pos + take
        step *= 4
    if not found_v:
        return np.zeros(0, dtype=np.int64), 0, examined
    new, par = np.concatenate(found_v), np.concatenate(found_u)
    order = np.argsort(new, kind="stable")
    new, par = new[order], par[order]
    level[new] = depth
    parent[new] = par
    return new, int((optr[new + 1] - optr[new]).sum()), examined


def bfs(optr, oidx, source, *, in_edges, parents=False, deterministic=False, direction="auto", max_depth=None,
        alpha=ALPHA, beta=BETA):
    """Run a whole BFS from ``source``.

    Parameters
    ----------
    optr, oidx : ndarray of int, shapes (n + 1,) and (nnz,)
        CSR structure of the out-edges.
    source : int
        0 <= source < n (checked by the caller).
    in_edges : callable
        Returns the CSR ``(indptr, indices)`` of the in-edges (A^T, sorted indices); called at
        the first pull level only.
    parents, deterministic : bool
        Record parents; the smallest-index one on the previous level with ``deterministic``.
    direction : {"auto", "push", "pull"}
    max_depth : int or None
    alpha, beta : float
        Beamer's switching thresholds (:mod:`semiring.backends.direction`).

    Returns
    -------
    TraversalResult
        ``level`` (int64, 0 where unreached), ``present``, ``parent`` (int64, 0 where
        unreached; None without parents), ``nvals``, ``trace`` (one entry per level run; codes
        :data:`PUSH` and :data:`PULL`); ``launches`` and ``host_syncs`` None.

    Raises
    ------
    OutOfMemory
        The per-vertex arrays do not fit in memory.
    """
    optr, oidx = np.ascontiguousarray(optr), np.ascontiguousarray(oidx)
    n = optr.shape[0] - 1
    nnz = int(optr[n])
    require(24 * n, f"bfs: per-vertex arrays of {n:,} vertices")
    level = np.full(n, -1, dtype=np.int64)
    parent = np.empty(n, dtype=np.int64)
    level[source] = 0
    parent[source] = source
    ip, ix, lv, pa = memoryview(optr), memoryview(oidx), memoryview(level), memoryview(parent)
    md = -1 if max_depth is None else int(max_depth)
    rule = Beamer(n, nnz, direction, alpha, beta)
    det = bool(parents and deterministic)
    q = [source]
    nq, mf = 1, ip[source + 1] - ip[source]
    depth = 0
    runs, pull_examined = [], {}
    mark = ins = None
    while nq and depth != md:
        pull = rule.next(nq, mf)
        code = PULL if pull else PUSH
        if not runs or runs[-1][1] != code:
            runs.append((depth + 1, code))
        if not pull and nq + mf <= SCALAR_WORK:
            q, nq, mf, depth = _push_small(ip, ix, lv, pa, q if isinstance(q, list) else q.tolist(), nq, mf, depth,
                                           rule, md, det, SCALAR_WORK)
            continue
        depth += 1
        if pull:
            if ins is None:
                ip_in, ix_in = in_edges()
                ins = (np.asarray(ip_in), np.asarray(ix_in))
            new, mfn, pull_examined[depth] = _pull_wide(optr, ins[0], ins[1], level, parent, depth)
        else:
            if mark is None:
                mark = np.empty(n, dtype=np.int64)
            new, mfn = _push_wide(optr, oidx, level, parent, mark, np.asarray(q, dtype=np.int64), depth, det)
        rule.advance(nq, mf)
        q, nq, mf = new, int(new.shape[0]), mfn
    present = level >= 0
    trace = _trace(optr, level, present, depth, runs, pull_examined)
    nvals = int(np.count_nonzero(present))
    level[~present] = 0
    if parents:
        parent[~present] = 0
    return TraversalResult(level, present, (parent if parents else None), nvals, trace)


def _trace(optr, level, present, depth, runs, pull_examined):
    """Per level 1..depth: (direction code, frontier, edges examined, discovered), from the
    final levels (counts and out-edge sums per level) and the recorded directions."""
    lv = level[present]
    counts = np.bincount(lv, minlength=depth + 2).astype(np.int64)
    outdeg = (optr[1:] - optr[:-1])[present]
    # out-edges per level (exact: sums below 2**53)
    out_e = np.rint(np.bincount(lv, weights=outdeg, minlength=depth + 1)).astype(np.int64)
    codes = np.zeros(depth, dtype=np.int8)
    for k, (start, code) in enumerate(runs):
        stop = runs[k + 1][0] if k + 1 < len(runs) else depth + 1
        codes[start - 1:stop - 1] = code
    examined = out_e[:depth].copy()
    for d, e in pull_examined.items():
        examined[d - 1] = e
    return codes, counts[:depth], examined, counts[1:depth + 1]


__all__ = ["bfs", "SCALAR_WORK", "PUSH", "PULL"]
