"""Multilevel partitioning, the coarsening phase: heavy-edge matching in handshake rounds and
two-hop pairs of the left-over vertices, contraction ``C' (W C)`` over ``plus.times``, and the
projection of a coarse partition back to the finer level (``p = C any.second p_c``).

Used by :func:`semiring.algorithms.partition.partition` (see its module docstring for the scheme
and the references: Karypis and Kumar 1998; Fagginger Auer and Bisseling 2012).
"""

from __future__ import annotations

import numpy as np

from .. import core as _core
from ..backends._xp import asnumpy
from ..core.matrix import Matrix
from ..core.vector import Vector
from ..ops import indexunary, monoid, semiring
from ..ops._base import UnaryOp
from . import _partition_host as _host

#: Coarsen until at most this many vertices per part remain (METIS: 30 k), and never below
#: COARSEN_MIN vertices; a graph of at most twice that size is partitioned as it is (one
#: level of coarsening would only blur it).
COARSEN_PER_PART = 30
COARSEN_MIN = 60
#: A level that keeps more than this fraction of its vertices ends the coarsening.
COARSEN_MIN_SHRINK = 0.9
#: Handshake rounds of the matching per level; they stop early when a round matches under
#: MATCH_STOP of the remaining candidates.
MATCH_ROUNDS = 4
MATCH_STOP = 0.05
#: Two-hop matching runs when more than this fraction of the vertices is left unmatched.
TWO_HOP_FRACTION = 0.1

_LOW32 = np.int64(0xFFFFFFFF)


def _weight_key(xp, x):
    # float32 bits of a non-negative weight order like the weight; shifted to the high word
    return x.astype(np.float32).view(np.int32).astype(np.int64) << 32


#: key(w) = float32 bits of w << 32: orders non-negative weights, leaves the low word free.
WEIGHT_KEY = UnaryOp(_weight_key, "weight_key", output="int64", _internal=True,
                     cuda="((long long)__float_as_int((float)x)) << 32")


class _Level:
    """One level: W (float64, symmetric, no diagonal), host vertex weights, and the merge
    matrix C to the next coarser level."""

    def __init__(self, W, vw):
        self.W, self.vw, self.n = W, vw, W.nrows
        self.C = None
        # total = plus_reduce(W)   (twice the edge weight)
        self.total = float(_core.reduce_scalar(W, monoid.plus)) if W.nvals else 0.0
        self._host = None

    def host(self):
        if self._host is None:
            self._host = _host.HostGraph.from_matrix(self.W, self.vw)
        return self._host


def _match(level, maxvw, rng):
    """mate[i]: the vertex i merges with (i itself if none); heavy-edge handshaking rounds,
    then two-hop pairs of the left-over vertices."""
    W, vw, n, dev = level.W, level.vw, level.n, level.W.device
    # K = weight_key(W)   (weight bits in the high word; the low word takes the neighbour's rank)
    K = _core.apply(W, WEIGHT_KEY)
    rank = rng.permutation(n).astype(np.int64)
    vertex_of = np.empty(n, dtype=np.int64)
    vertex_of[rank] = np.arange(n, dtype=np.int64)
    mate = np.arange(n, dtype=np.int64)
    light = 2 * vw <= maxvw
    cand = light.copy()
    for _ in range(MATCH_ROUNDS):
        ci = np.flatnonzero(cand)
        if ci.size < 2:
            break
        u = Vector.from_coo(ci, rank[ci], size=n, dtype="int64", device=dev)
        # best<u.S> = K max.plus u   (each candidate's heaviest candidate neighbour: key + its rank)
        best = _core.mxv(K, u, semiring.max_plus, mask=u.S)
        i, key = (asnumpy(a) for a in best.to_coo())
        j = vertex_of[key & _LOW32]
        choice = np.full(n, -1, dtype=np.int64)
        choice[i] = j
        mutual = choice[j] == i
        mi, mj = i[mutual], j[mutual]
        mate[mi] = mj
        cand[mi] = False
        cand[ci[choice[ci] < 0]] = False  # no candidate neighbour now: none later either
        if mi.size <= MATCH_STOP * ci.size:
            break
    left = np.flatnonzero((mate == np.arange(n)) & light)
    if left.size > 1:
        lv = Vector.from_coo(left, True, size=n, dtype="bool", device=dev)
        everyone = Vector.from_dense(rank, device=dev)
        # hub<left.S> = K max.plus rank   (each left-over vertex's heaviest neighbour, matched or not)
        hub = _core.mxv(K, everyone, semiring.max_plus, mask=lv.S)
        hi, hkey = (asnumpy(a) for a in hub.to_coo())
        hub_of = np.full(n, n, dtype=np.int64)  # n: no neighbour (isolated vertices pair with each other)
        if left.size > TWO_HOP_FRACTION * n:
            hub_of[hi] = vertex_of[hkey & _LOW32]
        else:  # few left: only the isolated ones pair up
            hub_of[hi] = -1 - hi
        h = hub_of[left]
        o = np.lexsort((left, h))
        a, h = left[o], h[o]
        start = np.r_[True, h[1:] != h[:-1]]
        pos = np.arange(a.size) - np.flatnonzero(start)[np.cumsum(start) - 1]
        first = np.flatnonzero((pos % 2 == 0)[:-1] & (h[1:] == h[:-1]))
        mate[a[first]] = a[first + 1]
        mate[a[first + 1]] = a[first]
    return mate


def _coarsen(level, maxvw, rng):
    """The next coarser level (and level.C), or None when matching would keep over
    COARSEN_MIN_SHRINK of the vertices."""
    n, dev = level.n, level.W.device
    mate = _match(level, maxvw, rng)
    rep = np.minimum(np.arange(n), mate)
    is_rep = rep == np.arange(n)
    nc = int(is_rep.sum())
    if nc > COARSEN_MIN_SHRINK * n:
        return None
    cmap = (np.cumsum(is_rep) - 1)[rep]
    # C(i, cmap(i)) = 1
    C = Matrix.from_coo(np.arange(n), cmap, 1, nrows=n, ncols=nc, dtype="int64", device=dev)
    # Wc = offdiag(C' (W plus.times C))   (merged edges add up; weight inside a pair dropped)
    Wc = _core.select(_core.mxm(C.T, _core.mxm(level.W, C, semiring.plus_times), semiring.plus_times),
                      indexunary.offdiag)
    # vwc = vw plus.times C
    vwc = _core.vxm(Vector.from_dense(level.vw, device=dev), C, semiring.plus_times)
    level.C = C
    return _Level(Wc, asnumpy(vwc.to_dense(0)).astype(np.int64))


def _project(level, parts_c):
    """Parts of ``level``'s vertices from the parts of the next coarser level."""
    pc = Vector.from_dense(parts_c, device=level.W.device)
    # p = C any.second pc   (C has one entry per row: each vertex takes its coarse vertex's part)
    return asnumpy(_core.mxv(level.C, pc, semiring.any_second).to_dense()).astype(np.int64)
