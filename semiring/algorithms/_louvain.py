"""Louvain on the algebra (the CPU path, and the GPU's for graphs too large for its device
formulation): local moving in parallel Up/Down rounds with backoff and vertex dropping, and
the coarsening of a level to its community graph ``C' W C``.

Used by :func:`semiring.algorithms.community.louvain` (see the module docstring of
:mod:`semiring.algorithms.community` for the method and the references).
"""

from __future__ import annotations

import numpy as np

from .. import core as _core
from ..backends._xp import asnumpy
from ..core import _validate as _v
from ..core.vector import Vector
from ..ops import binary, indexunary, monoid, semiring, unary
from ..ops.semiring import Semiring
from ._community_labels import _diag, _indicator, _rows

#: A vertex moves only if its best score beats staying by more than this (scores are gains
#: divided by k_i / m, of order 1): equal scores from rounding do not move it.
MOVE_TOLERANCE = 1e-12
#: Local-moving rounds per level at most (a guard: a level ends long before on real graphs).
MAX_ROUNDS = 1000
#: Halvings of a round's moves (a random half kept each time) before giving it up, when the
#: simultaneous moves lowered Q.
BACKOFF_TRIES = 6
#: Successive rounds gaining no more than ``min(threshold, ROUND_GAIN)`` end a level (two: one
#: up round and one down round).
STALL_ROUNDS = 2
#: A round gaining no more than this (or ``threshold`` if smaller) counts toward the end of a level.
ROUND_GAIN = 1e-7

# (a_v) any.gt (c): the candidate community c has a smaller label than v's community a_v
_SMALLER = Semiring(monoid.any, binary.gt)
# (a_v) any.lt (c): a larger label
_LARGER = Semiring(monoid.any, binary.lt)
# score(v, c) any.minus sigma(c): a column shift by a diagonal matrix
_ANY_MINUS = Semiring(monoid.any, binary.minus)
# best(v) any.eq score(v, c): where a row reaches its maximum
_ANY_EQ = Semiring(monoid.any, binary.eq)


class _Level:
    """One level's graph: weights W (n x n), degrees k, self weights d (device arrays), and the
    rows of W divided by the degrees (Wk)."""

    def __init__(self, W, k, d):
        self.W, self.k, self.d = W, k, d
        self.n = W.nrows
        self.kvec = Vector.from_dense(k, device=W.device)
        xp = _v.xp_for(W.device)
        kinv = xp.where(k > 0, 1.0 / xp.where(k > 0, k, 1.0), 0.0)
        # Wk = diag(1 / k) any.times W    (0 for the rows of vertices without weight)
        self.Wk = _core.mxm(_diag(kinv, W.device), W, semiring.any_times)


def _best_moves(L, C, a, act, own_in, sigma, two_m, gamma, smaller):
    """(vertices, new communities) of the active vertices ``act`` whose best neighbouring
    community (among smaller labels, or larger ones) beats staying."""
    device = L.W.device
    xp = _v.xp_for(device)
    r = act.shape[0]
    # S = Wk(act, :) plus.times C    (S(v, c): the weight from active vertex v into community c, over k_v)
    S = _core.mxm(_rows(L.Wk, act), C, semiring.plus_times)
    # X = colindex(S)    (each entry's community label)
    X = _core.apply(S, indexunary.colindex)
    # allowed = diag(a(act)) any.gt X   (a smaller label; any.lt: a larger one)
    allowed = _core.mxm(_diag(a[act], device), X, _SMALLER if smaller else _LARGER)
    # cand<allowed.V> = S
    cand = _core.apply(S, unary.identity, mask=allowed.V)
    # score = cand any.minus diag(gamma sigma / 2m)    (score(v, c) = S(v, c) - gamma sigma(c) / 2m:
    #         the gain of moving v to c, over k_v / m, but for the part that does not depend on c)
    score = _core.mxm(cand, _diag(gamma * sigma / two_m, device), _ANY_MINUS)
    # best = max_reduce_rowwise(score)
    best = _core.reduce_rowwise(score, monoid.max)
    bi, bv = best.to_coo()
    if not bi.shape[0]:
        return bi, bi
    v = act[bi]
    # stay(v) = (weight into its own community, self-loop aside) / k_v - gamma (sigma(a_v) - k_v) / 2m
    stay = (own_in[v] - L.d[v]) / L.k[v] - gamma * (sigma[a[v]] - L.k[v]) / two_m
    win = xp.flatnonzero(bv - stay > MOVE_TOLERANCE)
    if not win.shape[0]:
        return win, win
    rows = bi[win]
    # E = diag(best(rows)) any.eq score   (the entries reaching each winner's best score)
    E = _core.mxm(_diag(bv[win], device, rows=rows, size=r), score, _ANY_EQ)
    # lab<E.V> = colindex(score);  target = min_reduce_rowwise(lab)   (ties: the smallest label)
    lab = _core.apply(score, indexunary.colindex, mask=E.V)
    ti, tv = _core.reduce_rowwise(lab, monoid.min).to_coo()
    return act[ti], tv


def _own_weight(L, C, a, rows):
    """For each vertex of ``rows``: the weight into its own community (self-loop included)."""
    W, device = L.W, L.W.device
    # Wr = W(rows, :);  Cr = C(rows, :)
    Wr = _rows(W, rows)
    Cr = _indicator(a, C.ncols, device, rows=rows)
    # inside<Cr.S> = Wr plus.times C;  own = plus_reduce_rowwise(inside)
    inside = _core.mxm(Wr, C, semiring.plus_times, mask=Cr.S)
    return _core.reduce_rowwise(inside, monoid.plus).to_dense(0.0)


def _apply_moves(L, a, own_in, movers, targets, two_m, gamma):
    """The state after moving ``movers`` to ``targets``: (labels, C, sigma, own weights, Q)."""
    W, n, device = L.W, L.n, L.W.device
    xp = _v.xp_for(device)
    a_new = a.copy()
    a_new[movers] = targets
    C_new = _indicator(a_new, n, device)
    # sigma = k plus.times C
    sigma = _core.vxm(L.kvec, C_new, semiring.plus_times).to_dense(0.0)
    # touched = (W any.pair moved) lor moved   (the movers and their neighbours: the rows whose
    #           weight into their own community can change)
    moved = Vector.from_coo(movers, xp.ones(movers.shape[0], dtype=bool), size=n, device=device)
    touched = _core.ewise_add(_core.mxv(W, moved, semiring.any_pair), moved, binary.lor)
    rows = touched.to_coo()[0]
    own = own_in.copy()
    own[rows] = _own_weight(L, C_new, a_new, rows)
    Q = float(own.sum()) / two_m - gamma * float((sigma * sigma).sum()) / (two_m * two_m)
    return a_new, C_new, sigma, own, Q


def _local_moving(L, two_m, gamma, threshold, alpha, rng):
    """One level's local moving from singletons. Returns (labels, Q, moved)."""
    k, n, device = L.k, L.n, L.W.device
    xp = _v.xp_for(device)
    a = xp.arange(n, dtype=np.int64)
    own_in = L.d.copy()        # singletons: the weight into one's own community is the self weight
    sigma = k.copy()
    Q = float(own_in.sum()) / two_m - gamma * float((sigma * sigma).sum()) / (two_m * two_m)
    can_move = asnumpy(k) > 0
    P = np.ones(n)
    moved_any = False
    stall = 0
    C = _indicator(a, n, device)
    moved_pair = np.zeros(n, dtype=bool)
    for rnd in range(MAX_ROUNDS):
        if rnd % 2 == 0:
            # one draw per sweep (a down round and an up round): P(v) of being active
            active = can_move & (rng.random(n) < P) if alpha > 0 else can_move
            act = xp.asarray(np.flatnonzero(active))
        movers, targets = (_best_moves(L, C, a, act, own_in, sigma, two_m, gamma, rnd % 2 == 0)
                           if act.shape[0] else (act, act))
        gain = 0.0
        tries = 0
        while movers.shape[0]:
            trial = _apply_moves(L, a, own_in, movers, targets, two_m, gamma)
            if trial[-1] >= Q:
                break
            # conflicting simultaneous moves lowered Q: retry with a random half of them
            tries += 1
            keep = xp.asarray(rng.random(movers.shape[0]) < 0.5)
            movers, targets = (movers[keep], targets[keep]) if tries < BACKOFF_TRIES else (movers[:0], targets[:0])
        if movers.shape[0]:
            gain = trial[-1] - Q
            a, C, sigma, own_in, Q = trial
            moved_any = True
            moved_pair[asnumpy(movers)] = True
        if alpha > 0 and rnd % 2 == 1:
            # P = 1 where the community changed during the sweep, else P (1 - alpha)
            P[~moved_pair] *= 1.0 - alpha
            P[moved_pair] = 1.0
            moved_pair[:] = False
        stall = stall + 1 if gain <= threshold else 0
        if stall >= STALL_ROUNDS:
            break
    return a, Q, moved_any


def _coarsen(L, a, K):
    """The community graph C' W C of a level (K x K) as the next level."""
    W, device = L.W, L.W.device
    C = _indicator(a, K, device)
    # Wc = C' plus.times (W plus.times C)    (Wc(c, e): the weight between communities c and e)
    Wc = _core.mxm(_core.transpose(C), _core.mxm(W, C, semiring.plus_times), semiring.plus_times)
    # kc = k plus.times C;  dc = plus_reduce_rowwise(diag(Wc))
    kc = _core.vxm(L.kvec, C, semiring.plus_times).to_dense(0.0)
    dc = _core.reduce_rowwise(_core.select(Wc, indexunary.diag), monoid.plus).to_dense(0.0)
    return _Level(Wc, kc, dc)
