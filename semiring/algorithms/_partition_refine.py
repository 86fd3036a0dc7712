"""Multilevel partitioning, the initial partition and the refinement: recursive bisection of
the coarsest graph by greedy graph growing (and, on request, Kernighan-Lin from random
bisections), each refined by Fiduccia-Mattheyses; at every finer level, parallel greedy rounds
on the algebra (``conn = W plus.times P``), rebalancing, then FM passes on the host
(:mod:`._partition_host`).

Used by :func:`semiring.algorithms.partition.partition` (see its module docstring for the scheme
and the references: Karypis and Kumar 1998; Fiduccia and Mattheyses 1982; Kernighan and Lin
1970).
"""

from __future__ import annotations

import math

import numpy as np

from .. import core as _core
from ..backends._xp import asnumpy
from ..core.matrix import Matrix
from ..ops import semiring
from . import _partition_host as _host

#: Random starts of greedy graph growing for each bisection of the coarsest graph, fewer on a
#: dense one: at most INIT_WORK / entries, at least INIT_MIN_TRIES. (On Kronecker scale 14's
#: coarsest graph, 406 vertices and 43,696 entries, 2 starts cut within 0.1 percent of 8, at a
#: quarter of the host time; on the roads' sparse ones every start counts.)
INIT_TRIES = 8
INIT_WORK = 8 * 16384
INIT_MIN_TRIES = 2
#: Kernighan-Lin passes that improve each random bisection a caller asks for (``kl_tries``).
KL_TRY_PASSES = 10
#: Parallel greedy refinement rounds and FM passes per level.
GREEDY_ROUNDS = 4
FM_PASSES = 2


def _estimates(conns, parts, n, interior):
    """(gain of the best move to a neighbouring part, v) for the boundary vertices and the
    vertices without neighbours, and with ``interior`` also (-(weight inside), v) for the rest,
    from the connections (rows, parts, weights, own)."""
    r, q, c, own = conns
    ext = q != parts[r]
    best = np.full(n, -np.inf)
    np.maximum.at(best, r[ext], c[ext])
    free = own == 0
    if not interior:
        free &= np.bincount(r, minlength=n) == 0
    keep = np.flatnonzero((best > -np.inf) | free | interior)
    est = np.where(best > -np.inf, best, 0.0)[keep] - own[keep]
    return list(zip(est.tolist(), keep.tolist()))


def _host_connections(g, parts, k):
    """The connections of :func:`_connections`, computed on the host (small graphs)."""
    p = np.asarray(parts, dtype=np.int64)
    rows = g.rows()
    key = rows * k + p[g.indices]
    w = np.bincount(key, weights=g.data, minlength=g.n * k)
    nz = np.flatnonzero(np.bincount(key, minlength=g.n * k))
    r, q, c = nz // k, nz % k, w[nz]
    own = np.zeros(g.n)
    m = q == p[r]
    own[r[m]] = c[m]
    return r, q, c, own


def _fm(g, parts, pw, cap, target, tie, tol, stall=_host.FM_STALL, conns=None, level=None, from_all=True):
    """FM passes: from the boundary until a pass gains nothing, then (with ``from_all``) from
    every vertex (an interior vertex leaving the heavier side can make room for better moves, as
    in KL) until a pass gains nothing, at most FM_PASSES each. The gains that order each pass
    come from ``level``'s algebra (conn = W plus.times P) when given, else from the host."""
    k = len(pw)
    for interior in ((False, True) if from_all else (False,)):
        for _ in range(FM_PASSES):
            p = np.asarray(parts, dtype=np.int64)
            if conns is None:
                conns = _connections(level, p, k) if level is not None else _host_connections(g, p, k)
            est = _estimates(conns, p, g.n, interior)
            gain = _host.fm_pass(g, parts, pw, cap, target, tie, est, conns, stall=stall, tol=tol)
            conns = None
            if gain <= tol:
                break


def _init_stall(n):
    """Moves without a new best cut after which an FM pass of the initial bisection stops:
    METIS's limit for two-way FM, ``min(max(n / 100, 15), 100)`` (on the coarsest graph the
    passes past it rarely find a better cut, and the levels above refine it again)."""
    return int(min(max(n // 100, 15), 100))


def _bisect(g, k0, kk, imbalance, rng, tol, kl_tries=0, interior=True):
    """Best of INIT_TRIES greedy-growing bisections (fewer on a dense graph; each FM-refined, with
    passes from every vertex when ``interior``) as a 0/1 array; side 0 aims at k0/kk of the weight. With
    ``kl_tries`` and unit vertex weights, also that many random bisections improved by
    Kernighan-Lin passes, then FM (KL's pair swaps reach cuts that growing from a vertex misses,
    e.g. a hub's community split from the rest)."""
    vw = g.vwa
    tot = int(vw.sum())
    t = [tot * k0 / kk, tot * (kk - k0) / kk]
    big = int(vw.max()) - 1 if vw.size else 0
    cap = [max(x * (1 + imbalance), math.ceil(x - 1e-9) + big) for x in t]
    tie = rng.permutation(g.n).tolist()
    stall = _init_stall(g.n)
    tries = max(INIT_MIN_TRIES, min(INIT_TRIES, INIT_WORK // max(1, len(g.indices))))
    best = None
    for _ in range(tries):
        side = _host.grow_bisection(g, t[0], cap[0], rng.permutation(g.n).tolist())
        pw = g.part_weights(side, 2)
        _host.rebalance(g, side, pw, cap, tie)
        _fm(g, side, pw, cap, t, tie, tol, stall=stall, from_all=interior)
        key = (sum(max(0, pw[s] - cap[s]) for s in (0, 1)), g.cut(side))
        if best is None or key < best[0]:
            best = (key, side)
    if kl_tries and bool((vw == 1).all()):
        n0 = min(g.n, max(0, int(round(t[0]))))
        for _ in range(kl_tries):
            side = np.ones(g.n, dtype=np.int64)
            side[rng.permutation(g.n)[:n0]] = 0
            side = _kl_passes(g, side, KL_TRY_PASSES).tolist()
            pw = g.part_weights(side, 2)
            _fm(g, side, pw, cap, t, tie, tol, stall=stall)
            key = (sum(max(0, pw[s] - cap[s]) for s in (0, 1)), g.cut(side))
            if key < best[0]:
                best = (key, side)
    return np.asarray(best[1], dtype=np.int64)


def _kl_passes(g, side, passes):
    """Kernighan-Lin passes on the host graph g from the 0/1 array ``side`` (a new array)."""
    side = np.asarray(side, dtype=np.int64).copy()
    rows = g.rows()
    for _ in range(passes):
        s = 2 * side - 1
        # gain = -s .* (W s): external minus internal weight of every vertex
        gain = -s * np.bincount(rows, weights=g.data * s[g.indices], minlength=g.n)
        _, pairs = _host.kl_sweep(g, side.tolist(), gain.tolist())
        if not pairs:
            break
        a, b = np.asarray(pairs, dtype=np.int64).T
        side[a], side[b] = 1, 0
    return side


def _initial(level, k, imbalance, rng, tol):
    """Recursive bisection of the coarsest level into k parts."""
    return _initial_graph(level.host(), k, imbalance, rng, tol)


def _initial_graph(g, k, imbalance, rng, tol, kl_tries=0, interior=True):
    """Recursive bisection of the HostGraph g into k parts (host int64 array); ``kl_tries`` and
    ``interior`` as for :func:`_bisect`."""
    parts = np.zeros(g.n, dtype=np.int64)
    todo = [(np.arange(g.n, dtype=np.int64), k, 0)]
    while todo:
        verts, kk, base = todo.pop()
        if kk == 1 or verts.size < 2:
            parts[verts] = base
            continue
        k0 = kk // 2
        side = _bisect(g if verts.size == g.n else g.subgraph(verts), k0, kk, imbalance, rng, tol, kl_tries, interior)
        todo.append((verts[side == 0], k0, base))
        todo.append((verts[side == 1], kk - k0, base + k0))
    return parts


def _connections(level, parts, k):
    """Host (rows, parts, weights) of conn = W plus.times P, and own[i] = conn(i, parts[i])."""
    n = level.n
    P = Matrix.from_coo(np.arange(n), parts, 1.0, nrows=n, ncols=k, dtype="float64", device=level.W.device)
    # conn = W plus.times P   (conn(i, q): the weight from vertex i into part q)
    conn = _core.mxm(level.W, P, semiring.plus_times)
    r, q, c = (asnumpy(a) for a in conn.to_coo())
    own = np.zeros(n)
    m = q == parts[r]
    own[r[m]] = c[m]
    return r, q, c, own


def _proposals(conns, parts, pw, cap, vw, tie, upward, k):
    """(vertices, target parts) of one parallel greedy round."""
    r, q, c, own = conns
    ext = q != parts[r]
    er, eq = r[ext], q[ext]
    eg = c[ext] - own[er]
    p = parts[er]
    wv = vw[er]
    ok = (eq > p) if upward else (eq < p)
    ok &= (eg > 0) | ((eg == 0) & (pw[eq] + wv < pw[p]))  # zero gain only towards a lighter part
    ok &= pw[eq] + wv <= cap
    er, eq, eg, wv = er[ok], eq[ok], eg[ok], wv[ok]
    if not er.size:
        return er, eq
    # each vertex's best target: largest gain, then lighter part, then lower id
    o = np.lexsort((eq, pw[eq], -eg, er))
    er, eq, eg, wv = er[o], eq[o], eg[o], wv[o]
    f = np.r_[True, er[1:] != er[:-1]]
    er, eq, eg, wv = er[f], eq[f], eg[f], wv[f]
    # each part takes its proposals best first while it stays within the cap
    o = np.lexsort((tie[er], -eg, eq))
    er, eq, wv = er[o], eq[o], wv[o]
    cs = np.cumsum(wv)
    start = np.r_[True, eq[1:] != eq[:-1]]
    before = (cs - wv)[np.flatnonzero(start)][np.cumsum(start) - 1]
    take = pw[eq] + cs - before <= cap
    er, eq, wv = er[take], eq[take], wv[take]
    # no part gives away all it has
    src = parts[er]
    keep = (pw - np.bincount(src, weights=wv, minlength=k))[src] > 0
    return er[keep], eq[keep]


def _refine(level, parts, k, cap, rng, tol, last):
    """Parallel greedy rounds (algebra), rebalancing, then FM passes (host)."""
    vw = level.vw
    tie = rng.permutation(level.n)
    pw = np.bincount(parts, weights=vw, minlength=k).astype(np.int64)
    conns = _connections(level, parts, k)
    cut = (level.total - conns[3].sum()) / 2
    quiet = 0
    for rnd in range(GREEDY_ROUNDS):
        vi, vq = _proposals(conns, parts, pw, cap, vw, tie, rnd % 2 == 0, k)
        if not vi.size:
            quiet += 1
            if quiet == 2:
                break
            continue
        quiet = 0
        old = parts[vi].copy()
        parts[vi] = vq
        new = _connections(level, parts, k)
        new_cut = (level.total - new[3].sum()) / 2
        if new_cut > cut + tol:  # neighbours moved together and it cost: undo and stop
            parts[vi] = old
            break
        conns, cut = new, new_cut
        pw = np.bincount(parts, weights=vw, minlength=k).astype(np.int64)
    g = level.host()
    plist, pwl, capl, tiel = parts.tolist(), pw.tolist(), [cap] * k, tie.tolist()
    if _host.rebalance(g, plist, pwl, capl, tiel):
        conns = None  # moved: recomputed
    _fm(g, plist, pwl, capl, [float(vw.sum()) / k] * k, tiel, tol, conns=conns, level=level)
    if last:
        _host.fill_empty(g, plist, pwl, k)
    return np.asarray(plist, dtype=np.int64)
