"""The sequential parts of graph partitioning, on host arrays (used by :mod:`.partition`).

Moving one vertex changes the gains of its neighbours before the next move is chosen, so these
steps are sequential by nature; they run on the CPU, in Python, one vertex at a time (the
coarsest level of the multilevel scheme, and the FM passes at every level), while the work over
all edges (gains, contraction, projection, the parallel greedy rounds) stays in the algebra.
They are most of the multilevel method's time on large graphs.

- :func:`grow_bisection`: greedy graph growing (GGGP; Karypis and Kumar 1998, section 4.2):
  part 0 grows from a start vertex, always taking the frontier vertex whose move lowers the cut
  most, until it reaches its target weight.
- :func:`fm_pass`: a k-way Fiduccia-Mattheyses pass (Fiduccia and Mattheyses 1982): vertices
  move one at a time, out of the parts at or above their target weight (the heavier side, for
  two parts), to the neighbouring part of largest gain that stays under its weight cap, each at
  most once, negative gains included (hill climbing); the pass stops after a run of moves
  without a new best cut and rolls back to the best prefix. Each vertex's connection to the
  parts is kept in a small dict, updated per neighbour move (METIS's ``ckrinfo``).
- :func:`rebalance`: moves vertices out of parts above their cap, cheapest first.
- :func:`kl_sweep`: one Kernighan-Lin pass (Kernighan and Lin 1970) in the single-move form
  networkx uses: alternately the best vertex of side 0 and of side 1 moves, the gains of their
  neighbours are updated, and the best prefix of pairs is kept, so both sides keep their sizes.

References
----------
B. W. Kernighan, S. Lin, "An efficient heuristic procedure for partitioning graphs", Bell System
Technical Journal 49(2), 1970. C. M. Fiduccia, R. M. Mattheyses, "A linear-time heuristic for
improving network partitions", 19th Design Automation Conference, 1982. G. Karypis, V. Kumar,
"A fast and high quality multilevel scheme for partitioning irregular graphs", SIAM J. Sci.
Comput. 20(1), 1998; "Multilevel k-way partitioning scheme for irregular graphs", J. Parallel
Distrib. Comput. 48(1), 1998.
"""

from __future__ import annotations

import heapq

import numpy as np
import scipy.sparse as sp

from ..backends._xp import asnumpy

#: An FM pass stops after this many moves without a new best cut (METIS stops after a few
#: dozen to a few hundred such moves, depending on the level's size).
FM_STALL = 64


class HostGraph:
    """A weighted undirected graph without self-loops as host CSR arrays and Python lists.

    Parameters
    ----------
    indptr, indices : int64 arrays, shapes (n + 1,), (nvals,)
    data : float64 array, shape (nvals,)
        Edge weights (each undirected edge stored both ways).
    vw : int64 array, shape (n,)
        Vertex weights.
    """

    def __init__(self, indptr, indices, data, vw):
        self.indptr = np.asarray(indptr, dtype=np.int64)
        self.indices = np.asarray(indices, dtype=np.int64)
        self.data = np.asarray(data, dtype=np.float64)
        self.vwa = np.asarray(vw, dtype=np.int64)
        self.n = self.vwa.shape[0]
        self.ptr = self.indptr.tolist()
        self.idx = self.indices.tolist()
        self.w = self.data.tolist()
        self.vw = self.vwa.tolist()

    @classmethod
    def from_matrix(cls, W, vw):
        """From a symmetric float64 Matrix without diagonal entries and host vertex weights."""
        r, c, v = (asnumpy(a) for a in W.to_coo())
        indptr = np.zeros(W.nrows + 1, dtype=np.int64)
        np.cumsum(np.bincount(r, minlength=W.nrows), out=indptr[1:])
        return cls(indptr, c, v, vw)

    def scipy(self):
        return sp.csr_matrix((self.data, self.indices, self.indptr), shape=(self.n, self.n))

    def subgraph(self, verts):
        """The graph induced by ``verts`` (host int64 array), numbered in that order."""
        S = self.scipy()[verts][:, verts].tocsr()
        S.sort_indices()
        return HostGraph(S.indptr, S.indices, S.data, self.vwa[verts])

    def rows(self):
        return np.repeat(np.arange(self.n, dtype=np.int64), np.diff(self.indptr))

    def cut(self, parts):
        """Total weight of the edges between different parts (each edge once)."""
        p = np.asarray(parts)
        return float(self.data[p[self.rows()] != p[self.indices]].sum()) / 2

    def part_weights(self, parts, k):
        return np.bincount(np.asarray(parts), weights=self.vwa, minlength=k).astype(np.int64).tolist()


def grow_bisection(g, target, cap, order):
    """Greedy graph growing: part 0 grows by the best-gain frontier vertex up to ``target``.

    Parameters
    ----------
    g : HostGraph
    target, cap : number
        Weight part 0 aims at, and may not exceed.
    order : sequence of int
        Start vertices, tried in turn whenever the frontier is empty (disconnected graphs).

    Returns
    -------
    list of int
        0 for the grown part, 1 for the rest.
    """
    n, ptr, idx, w, vw = g.n, g.ptr, g.idx, g.w, g.vw
    side = [1] * n
    deg = np.bincount(g.rows(), weights=g.data, minlength=n).tolist()
    conn0 = [0.0] * n
    heap = []
    w0 = 0
    nxt = 0
    while w0 < target:
        if not heap:
            while nxt < n and side[order[nxt]] == 0:
                nxt += 1
            if nxt == n:
                break
            v = order[nxt]
            heap.append((deg[v], v))  # gain of a vertex with no neighbour in part 0: -deg
        ng, v = heapq.heappop(heap)
        if side[v] == 0:
            continue
        gain = 2 * conn0[v] - deg[v]  # cut change when v joins part 0, negated
        if -ng != gain:
            heapq.heappush(heap, (-gain, v))
            continue
        wv = vw[v]
        if w0 + wv > cap or abs(w0 + wv - target) > abs(w0 - target):
            break  # taking v would overshoot more than stopping here
        side[v] = 0
        w0 += wv
        for t in range(ptr[v], ptr[v + 1]):
            u = idx[t]
            if side[u]:
                conn0[u] += w[t]
                heapq.heappush(heap, (-(2 * conn0[u] - deg[u]), u))
    return side


class _Conn:
    """Each vertex's connection to the parts, ``{part: weight}``: from ``conns`` (rows, parts,
    weights of the current connections) for every vertex at once, else built on first use."""

    def __init__(self, g, parts, conns=None):
        self.g, self.parts, self.c = g, parts, {}
        if conns is not None:
            c = self.c = [{} for _ in range(g.n)]
            for v, q, x in zip(*(a.tolist() for a in conns[:3])):
                c[v][q] = x

    def of(self, v):
        if isinstance(self.c, list):
            return self.c[v]
        c = self.c.get(v)
        if c is None:
            c = {}
            g, parts = self.g, self.parts
            for t in range(g.ptr[v], g.ptr[v + 1]):
                q = parts[g.idx[t]]
                c[q] = c.get(q, 0.0) + g.w[t]
            self.c[v] = c
        return c

    def moved(self, v, p, q):
        """v went from part p to part q: update the dicts already built."""
        g, c = self.g, self.c
        eager = isinstance(c, list)
        for t in range(g.ptr[v], g.ptr[v + 1]):
            cu = c[g.idx[t]] if eager else c.get(g.idx[t])
            if cu is not None:
                cu[p] -= g.w[t]
                cu[q] = cu.get(q, 0.0) + g.w[t]


def _best_move(conn, v, parts, pw, cap, wv):
    """(gain, part) of v's best move, or (None, -1) when no part has room for v.

    The candidates are the parts holding a neighbour of v; when none of them has room (or v
    has no neighbour elsewhere) the lightest part with room, at gain ``-(weight inside v's
    part)``: KL's move of an interior vertex, which makes room for a better move back."""
    c = conn.of(v)
    p = parts[v]
    own = c.get(p, 0.0)
    if len(pw) == 2:  # the one other part, when it has room
        q = 1 - p
        return (c.get(q, 0.0) - own, q) if pw[q] + wv <= cap[q] else (None, -1)
    bg, bq = None, -1
    for q, x in c.items():
        if q == p or pw[q] + wv > cap[q]:
            continue
        gq = x - own
        if bg is None or gq > bg or (gq == bg and (pw[q], q) < (pw[bq], bq)):
            bg, bq = gq, q
    if bq < 0:
        for q in range(len(pw)):
            if q != p and pw[q] + wv <= cap[q] and (bq < 0 or pw[q] < pw[bq]):
                bq = q
        if bq >= 0:
            bg = c.get(bq, 0.0) - own
    return bg, bq


def fm_pass(g, parts, pw, cap, target, tie, candidates, conns, *, stall=FM_STALL, tol=0.0):
    """One k-way Fiduccia-Mattheyses pass; ``parts`` and ``pw`` are updated in place.

    Each part keeps a priority queue of its vertices keyed by the gain of their best move (to
    a neighbouring part with room). Each step moves the best vertex out of the parts at or
    above their target weight (for two parts: out of the heavier side, as METIS's two-way FM
    does), so the sides trade vertices around their targets instead of drifting to a cap.

    Parameters
    ----------
    g : HostGraph
    parts : list of int
        Part of each vertex.
    pw : list
        Weight of each part.
    cap, target : list
        Largest weight each part may reach, and the weight it aims at.
    tie : sequence of int
        Distinct per-vertex keys that order moves of equal gain.
    candidates : iterable of (float, int)
        (gain estimate, vertex) of the vertices that may move (all of them, as in KL: an
        interior vertex leaving the heavier side is often the cheapest way to make room);
        estimates only order the queues, each move's gain is checked when it comes up.
    conns : tuple of host arrays (rows, parts, weights, ...)
        The current connection of every vertex to every part it touches.
    stall : int
        Moves without a new best cut before the pass stops (moves out of a part that stays
        at or above its target, which restore balance, do not count).
    tol : float
        A prefix must beat the best by more than this.

    Returns
    -------
    float
        The cut reduction kept (0 when the pass rolled everything back).
    """
    k = len(pw)
    conn = _Conn(g, parts, conns)
    queues = [[] for _ in range(k)]
    vw = g.vw
    locked = set()

    def offer(v):
        gain, q = _best_move(conn, v, parts, pw, cap, vw[v])
        if q >= 0:
            heapq.heappush(queues[parts[v]], (-gain, tie[v], v))

    for est, v in candidates:
        queues[parts[v]].append((-est, tie[v], v))
    for h in queues:
        heapq.heapify(h)

    def head(p):
        """(gain, v, q): the valid best move out of part p, or None; stale entries refreshed."""
        h = queues[p]
        while h:
            ng, _, v = h[0]
            if v in locked or parts[v] != p:
                heapq.heappop(h)
                continue
            gain, q = _best_move(conn, v, parts, pw, cap, vw[v])
            if q < 0:
                heapq.heappop(h)
                continue
            if gain != -ng:
                heapq.heapreplace(h, (-gain, tie[v], v))
                continue
            return gain, v, q
        return None

    moves = []
    cum = best = 0.0
    best_len = idle = 0
    while True:
        excess = [pw[p] - target[p] for p in range(k)]
        floor = min(0, max(excess))
        pick = None
        # for two parts only the heavier side moves (KL-like trades); for more, any part may
        # move when the parts at or above their target have nothing left to move
        for sources in ([p for p in range(k) if excess[p] >= floor], range(k) if k > 2 else ()):
            for p in sources:
                hp = head(p)
                if hp is not None and (pick is None or (hp[0], -tie[hp[1]]) > (pick[0], -tie[pick[1]])):
                    pick = hp
            if pick is not None:
                break
        if pick is None:
            break
        gain, v, q = pick
        p = parts[v]
        towards_target = pw[p] - vw[v] >= target[p]  # a move back towards balance
        parts[v] = q
        pw[p] -= vw[v]
        pw[q] += vw[v]
        locked.add(v)
        moves.append((v, p, q))
        cum += gain
        conn.moved(v, p, q)
        if cum > best + tol:
            best, best_len, idle = cum, len(moves), 0
        elif not towards_target:
            idle += 1  # moves that restore balance do not count towards the stall
            if idle >= stall:
                break
        for t in range(g.ptr[v], g.ptr[v + 1]):
            u = g.idx[t]
            # a neighbour in q only lost gain: its queue entry is refreshed when it comes up
            if parts[u] != q and u not in locked:
                offer(u)
    for v, p, q in reversed(moves[best_len:]):
        parts[v] = p
        pw[q] -= vw[v]
        pw[p] += vw[v]
    return best


def rebalance(g, parts, pw, cap, tie):
    """Move vertices out of parts heavier than their cap, least cut increase first, into
    neighbouring parts with room (any part with room when no neighbour has any).

    Returns the number of moves; parts still above their cap afterwards had no vertex that
    fits anywhere (possible only with vertex weights above 1).
    """
    k = len(pw)
    over = [p for p in range(k) if pw[p] > cap[p]]
    if not over:
        return 0
    conn = _Conn(g, parts)
    overset = set(over)
    heap = [(0.0, tie[v], v) for v in range(g.n) if parts[v] in overset]
    heapq.heapify(heap)
    vw = g.vw
    moves = 0
    while heap and any(pw[p] > cap[p] for p in over):
        ng, _, v = heapq.heappop(heap)
        p = parts[v]
        if pw[p] <= cap[p]:
            continue
        gain, q = _best_move(conn, v, parts, pw, cap, vw[v])
        if q < 0:  # no neighbouring part has room: the part with the most room
            room = [(cap[r] - pw[r], -r) for r in range(k) if r != p and pw[r] + vw[v] <= cap[r]]
            if not room:
                continue
            q = -max(room)[1]
            gain = conn.of(v).get(q, 0.0) - conn.of(v).get(p, 0.0)
        if gain != -ng:
            heapq.heappush(heap, (-gain, tie[v], v))
            continue
        parts[v] = q
        pw[p] -= vw[v]
        pw[q] += vw[v]
        conn.moved(v, p, q)
        moves += 1
        for t in range(g.ptr[v], g.ptr[v + 1]):
            u = g.idx[t]
            if parts[u] in overset:
                gu, qu = _best_move(conn, u, parts, pw, cap, vw[u])
                heapq.heappush(heap, (-(gu if qu >= 0 else -conn.of(u).get(parts[u], 0.0)), tie[u], u))
    return moves


def fill_empty(g, parts, pw, k):
    """Give every empty part one vertex: the vertex of the heaviest part (with more than one
    vertex) that has the least weight to its own part."""
    for q in range(k):
        if pw[q] > 0:
            continue
        p = max(range(k), key=lambda r: (pw[r], -r))
        members = [v for v in range(g.n) if parts[v] == p]
        if len(members) < 2:
            return
        conn = _Conn(g, parts)
        v = min(members, key=lambda u: (conn.of(u).get(p, 0.0), u))
        parts[v] = q
        pw[p] -= g.vw[v]
        pw[q] += g.vw[v]


def kl_sweep(g, side, gain):
    """One Kernighan-Lin pass in the single-move form: returns the pairs to move.

    Parameters
    ----------
    g : HostGraph
    side : list of 0/1
    gain : list of float
        ``gain[v]``: the cut reduction if v alone changed side (external - internal weight).

    Returns
    -------
    (float, list of (int, int))
        The best cumulative gain over prefixes of the pairs (side-0 vertex, side-1 vertex)
        chosen in turn, and that prefix (empty when no prefix gains).
    """
    g_ = list(gain)
    heaps = ([], [])
    for v in range(g.n):
        heaps[side[v]].append((-g_[v], v))
    for h in heaps:
        heapq.heapify(h)
    locked = bytearray(g.n)

    def pop(h):
        while h:
            ng, v = heapq.heappop(h)
            if not locked[v] and -ng == g_[v]:
                return v
        return -1

    def move(v):
        locked[v] = 1
        sv = side[v]
        for t in range(g.ptr[v], g.ptr[v + 1]):
            u = g.idx[t]
            if not locked[u]:
                # the edge (u, v) turns internal -> external for u on v's old side, and back
                g_[u] += 2 * g.w[t] if side[u] == sv else -2 * g.w[t]
                heapq.heappush(heaps[side[u]], (-g_[u], u))

    pairs = []
    total = best = 0.0
    best_len = 0
    while True:
        a = pop(heaps[0])
        if a < 0:
            break
        ga = g_[a]
        move(a)
        b = pop(heaps[1])
        if b < 0:
            break
        total += ga + g_[b]
        move(b)
        pairs.append((a, b))
        if total > best:
            best, best_len = total, len(pairs)
    return best, pairs[:best_len]


__all__ = ["HostGraph", "grow_bisection", "fm_pass", "rebalance", "fill_empty", "kl_sweep", "FM_STALL"]
