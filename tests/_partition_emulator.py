"""NumPy emulation of the device operations of ``semiring.backends.gpu.partition`` (the kernels
of ``kernels/partition_*.cu`` and the CuPy steps of ``CupyOps``), for running the GPU module's
multilevel scheme and Kernighan-Lin V-cycles without a GPU.

Each method computes what its kernels compute, from the definitions, over whole arrays: the
connection of every vertex to every part is a dense n x k table (bincount of (row, part of the
column)), the best other part is its row maximum with ties to the smallest part, the afterburner
sums each candidate's neighbours of higher priority, rebalancing's thresholds come from sorting
(the device finds them by radix selection), the matching's two-hop pairs from a stable sort of the
same keys. With integer weights every sum is exact in any order, so a GPU run of the same inputs
must give the same partition (the GPU tests check it, operation by operation and whole).

``EmulatedOps.reads`` counts the reads the device path would make (the same calls read there).
"""

from __future__ import annotations

import numpy as np

from semiring.algorithms.coloring import priorities
from semiring.backends.gpu import partition as gp

NONE_KEY = np.iinfo(np.int64).max


def _lp_gate(st):
    return st[gp.S_DONE] == 0 and st[gp.S_IMB] <= 0


def _rb_gate(st):
    return st[gp.S_DONE] == 0 and st[gp.S_IMB] > 0


def _segmented_cumsum(x, seg):
    """Inclusive running sum of x within runs of equal ``seg`` (seg sorted)."""
    c = np.cumsum(x)
    if not x.size:
        return c
    start = np.r_[True, seg[1:] != seg[:-1]]
    first = np.flatnonzero(start)
    base = (c - x)[first][np.cumsum(start) - 1]
    return c - base


class EmulatedOps:
    """The interface of ``semiring.backends.gpu.partition.CupyOps`` on NumPy arrays."""

    xp = np
    reads = 0  # reads the device would make (class-wide)
    graphs = True  # emulate the device loops (CUDA graphs); False: the host loop with its reads

    def __init__(self, k):
        self.k = k

    # -- transfers -------------------------------------------------------------------------

    @staticmethod
    def _read():
        EmulatedOps.reads += 1

    def to_host(self, a):
        self._read()
        return np.array(a, copy=True)

    @staticmethod
    def from_host(a):
        return np.array(a, copy=True)

    def graph_to_host(self, G):
        self._read()
        return (G.indptr.astype(np.int64), G.indices.astype(np.int64), G.w.astype(np.float64),
                G.vw.astype(np.int64))

    # -- small operations ------------------------------------------------------------------

    @staticmethod
    def part_weights(part, vw, k):
        return np.bincount(part, weights=vw, minlength=k).astype(np.int64)

    def edge_cut(self, G, part):
        self._read()
        return float(G.w[part[G.rows] != part[G.indices]].sum() / 2)

    @staticmethod
    def restrict(cmap, part, nc):
        pc = np.zeros(nc, dtype=np.int32)
        pc[cmap] = part
        return pc

    # -- coarsening ------------------------------------------------------------------------

    @staticmethod
    def propose(G, selfmask, nbrmask, rank, part=None):
        """choice[v]: the neighbour u (selfmask[v], nbrmask[u], u != v, same part when given) of
        largest (weight, rank[u]); -1 when none."""
        r, c, w = G.rows, G.indices, G.w
        valid = selfmask[r] & nbrmask[c] & (r != c)
        if part is not None:
            valid &= part[r] == part[c]
        e = np.flatnonzero(valid)
        choice = np.full(G.n, -1, dtype=np.int32)
        if e.size:
            r, c, w = r[e], c[e], w[e]
            o = np.lexsort((rank[c], w, r))
            r, c = r[o], c[o]
            last = np.r_[r[1:] != r[:-1], True]
            choice[r[last]] = c[last]
        return choice

    def match(self, G, maxvw, seed, part):
        n = G.n
        ids = np.arange(n, dtype=np.int32)
        rank = priorities(n, seed)
        light = 2 * G.vw <= maxvw
        cand = light.copy()
        mate = ids.copy()
        for _ in range(gp.MATCH_ROUNDS):
            choice = self.propose(G, cand, cand, rank, part)
            has = choice >= 0
            back = np.where(has, choice, 0)
            mutual = has & (choice[back] == ids) & cand
            mate = np.where(mutual, choice, mate)
            cand &= has & ~mutual
        left = (mate == ids) & light
        key = np.full(n, NONE_KEY, dtype=np.int64)
        if 10 * int(left.sum()) > n:
            hub = self.propose(G, left, np.ones(n, dtype=bool), rank, part).astype(np.int64)
            hub = np.where(hub < 0, n, hub)
            keyed = left
        else:
            hub = np.full(n, n, dtype=np.int64)
            keyed = left & (np.diff(G.indptr) == 0)
        if part is not None:
            hub = hub * self.k + part
        key[keyed] = hub[keyed] * n + np.flatnonzero(keyed)
        order = np.argsort(key, kind="stable")
        sk = key[order]
        grp = np.where(sk == NONE_KEY, -1, sk // n)
        start = np.r_[True, grp[1:] != grp[:-1]]
        pos = np.arange(n) - np.flatnonzero(start)[np.cumsum(start) - 1]
        pair = (grp >= 0) & (np.r_[grp[1:], -1] == grp) & (pos % 2 == 0)
        a = order[np.flatnonzero(pair)]
        b = order[np.flatnonzero(pair) + 1]
        mate[a] = b
        mate[b] = a
        return mate

    def coarsen(self, G, maxvw, seed, part, min_shrink):
        n = G.n
        mate = self.match(G, maxvw, seed, part)
        ids = np.arange(n)
        cid = np.cumsum(mate >= ids)
        cmap = (cid[np.minimum(ids, mate)] - 1).astype(np.int32)
        nc = int(cid[-1])
        cu, cv = cmap[G.rows].astype(np.int64), cmap[G.indices].astype(np.int64)
        ekey = np.where(cu != cv, cu * n + cv, NONE_KEY)
        eorder = np.argsort(ekey, kind="stable")
        sk = ekey[eorder]
        nvalid = int(np.count_nonzero(sk != NONE_KEY))
        starts = np.flatnonzero((sk != NONE_KEY) & (sk != np.r_[-1, sk[:-1]]))
        self._read()
        if nc > min_shrink * n:
            return None
        ukey = sk[starts]
        crow = (ukey // n).astype(np.int32)
        ccol = (ukey % n).astype(np.int32)
        wc = np.add.reduceat(G.w[eorder[:nvalid]], starts) if starts.size else np.zeros(0)
        indptr = np.searchsorted(crow, np.arange(nc + 1), side="left").astype(np.int64)
        vwc = np.bincount(cmap, weights=G.vw, minlength=nc).astype(np.int64)
        return cmap, indptr, ccol, crow, wc.astype(np.float64), vwc

    # -- refinement ------------------------------------------------------------------------

    @staticmethod
    def workspace(n, k):
        return gp.Workspace(np, n, k)

    def refine_begin(self, G, part, k, capv, opt, c, max_rounds, ws):
        R = gp.Refinement(G, k, ws, c, max_rounds)
        n = G.n
        ws.part[:n] = part
        ws.lock[:n] = 0
        ws.pw[...] = self.part_weights(ws.part[:n], G.vw, k)
        ws.cap[...] = capv
        ws.opt[...] = opt
        lim = np.maximum(opt, capv - np.maximum(1, np.floor(gp.DEST_SLACK * capv).astype(np.int64)))
        ws.limit[...] = np.minimum(lim, capv)
        ws.st[...] = 0
        ws.st[gp.S_MAXR] = float(max_rounds)
        self.status(R, 0)
        self.copy(R)
        return R

    @staticmethod
    def _table(G, part, k):
        """(conn, own): conn[v, q] = weight from v into part q; own[v] = conn[v, part[v]]."""
        conn = np.bincount(G.rows.astype(np.int64) * k + part[G.indices], weights=G.w,
                           minlength=G.n * k).reshape(G.n, k)
        return conn, conn[np.arange(G.n), part]

    def _best(self, G, part, allowed, k):
        """(dest, conn(dest) or 0, own): the best other allowed part with conn > 0, the largest
        connection, then the smallest part; -1 when none."""
        conn, own = self._table(G, part, k)
        c = np.where(allowed[None, :] & (conn > 0), conn, -1.0)
        c[np.arange(G.n), part] = -1.0
        q = c.argmax(axis=1)
        b = c[np.arange(G.n), q]
        has = b > 0
        return np.where(has, q, -1).astype(np.int32), np.where(has, b, 0.0), own

    def status(self, R, kind):
        G, ws, st = R.G, R.ws, R.ws.st
        on = kind == 0 or (_lp_gate(st) if kind == 1 else _rb_gate(st))
        if not on:
            st[gp.S_COPY] = 0
            return
        part = ws.part[:R.n]
        cut = float(G.w[part[G.rows] != part[G.indices]].sum()) / 2
        imb = float((ws.pw - ws.cap).max())
        if kind == 0:
            st[[gp.S_CUT, gp.S_IMB, gp.S_BCUT, gp.S_BIMB, gp.S_COUNT, gp.S_ROUNDS]] = [cut, imb, cut, imb, 0, 0]
            st[gp.S_DONE] = 1.0 if st[gp.S_MAXR] <= 0 else 0.0
            st[gp.S_COPY] = 1
            return
        bcut, bimb = st[gp.S_BCUT], st[gp.S_BIMB]
        count, rounds = st[gp.S_COUNT] + 1, st[gp.S_ROUNDS] + 1
        copy = 0
        if bimb > 0 and imb < bimb:
            copy, bcut, bimb, count = 1, cut, imb, 0
        elif cut < bcut and (imb <= 0 or imb <= bimb):
            if cut < gp.JET_TOLERANCE * bcut:
                count = 0
            copy, bcut, bimb = 1, cut, imb
        st[[gp.S_CUT, gp.S_IMB, gp.S_BCUT, gp.S_BIMB, gp.S_COUNT, gp.S_ROUNDS, gp.S_COPY]] = [
            cut, imb, bcut, bimb, count, rounds, copy]
        st[gp.S_DONE] = 0.0 if (count < gp.JET_PATIENCE and rounds < st[gp.S_MAXR]) else 1.0

    @staticmethod
    def copy(R):
        if R.ws.st[gp.S_COPY]:
            R.ws.best[:R.n] = R.ws.part[:R.n]

    def lp_step(self, R):
        G, ws, k, n = R.G, R.ws, R.k, R.n
        if not _lp_gate(ws.st):
            return
        part, lock = ws.part[:n], ws.lock[:n]
        dest, b, own = self._best(G, part, np.ones(k, dtype=bool), k)
        cand = (dest >= 0) & (lock == 0) & ((b >= own) | ((own - b) < np.floor(R.c * own)))
        dest = np.where(cand, dest, -1).astype(np.int32)
        gain = np.where(cand, b - own, -np.inf)
        move = self.afterburner(G, part, dest, gain)
        ws.dest[:n], ws.gain[:n], ws.move[:n] = dest, gain, move
        part[move] = dest[move]
        lock[...] = move
        ws.pw[...] = self.part_weights(part, G.vw, k)

    @staticmethod
    def afterburner(G, part, dest, pregain):
        r, u, w = G.rows, G.indices, G.w
        cand = dest >= 0
        e = np.flatnonzero(cand[r] & cand[u])
        r, u, w = r[e], u[e], w[e]
        higher = (pregain[u] > pregain[r]) | ((pregain[u] == pregain[r]) & (u < r))
        p, b, du, pu = part[r], dest[r], dest[u], part[u]
        ch = np.where(du == p, -w, np.where(du == b, w, 0.0)) + np.where(pu == p, w, np.where(pu == b, -w, 0.0))
        change = np.bincount(r, weights=np.where(higher, ch, 0.0), minlength=G.n)
        return cand & (pregain + change >= 0)

    def rb_step(self, R):
        G, ws, k, n = R.G, R.ws, R.k, R.n
        if not _rb_gate(ws.st):
            return
        part, vw = ws.part[:n], G.vw
        pw, cap, opt, limit = ws.pw, ws.cap, ws.opt, ws.limit
        dest, bc, own = self._best(G, part, pw < limit, k)
        ex = pw - cap
        cand = (ex[part] > 0) & (2 * vw < 3 * (pw[part] - opt[part]))
        g = bc - own
        r = -g / vw
        r[r == 0] = 0.0
        u = r.astype(np.float32).view(np.uint32)
        m = np.where(u & np.uint32(0x80000000), ~u, u | np.uint32(0x80000000))
        key = ((m >> np.uint32(32 - gp.BUCKET_BITS)).astype(np.int64) << ws.idbits) | np.arange(n)
        # eviction: in each part above its cap, in key order, while the weight before is below the excess
        ci = np.flatnonzero(cand)
        o = ci[np.lexsort((key[ci], part[ci]))]
        before = _segmented_cumsum(vw[o], part[o]) - vw[o]
        out = o[before < ex[part[o]]]
        ev = np.zeros(n, dtype=np.int8)
        ev[out] = np.where(dest[out] >= 0, 1, 2)
        # acceptance: in each destination, in key order, while the weight taken stays within its room
        room = np.maximum(limit - pw, 0)
        ai = np.flatnonzero(ev == 1)
        o = ai[np.lexsort((key[ai], dest[ai]))]
        acc = o[_segmented_cumsum(vw[o], dest[o]) <= room[dest[o]]]
        taken = np.bincount(dest[acc], weights=vw[acc], minlength=k).astype(np.int64)
        rest = ev > 0
        rest[acc] = False
        # the rest fill the light parts' remaining room, in order of id
        left = np.where(ex >= 0, 0, np.maximum(room - taken, 0))
        ends = np.cumsum(left)
        wr = np.where(rest, vw, 0)
        at = np.cumsum(wr) - wr
        q = np.searchsorted(ends, at, side="right")
        fits = rest & (q < k)
        part[acc] = dest[acc]
        part[fits] = q[fits]
        ws.pw[...] = self.part_weights(part, vw, k)
        ws.dest[:n] = dest
        ws.key[:n] = np.where(cand, key, -1)
        ev = (ev > 0).astype(np.int8) * 4
        ev[acc] = 3
        ws.ev[:n] = ev

    def step_pair(self, R):
        self.lp_step(R)
        self.status(R, 1)
        self.copy(R)
        self.rb_step(R)
        self.status(R, 2)
        self.copy(R)

    def run_on_device(self, R):
        """The level's loop as the device runs it (a WHILE over step pairs, no read)."""
        if not self.graphs:
            return False
        st = R.ws.st
        while True:
            more = st[gp.S_DONE] == 0 and st[gp.S_ITER] <= st[gp.S_MAXR]
            st[gp.S_ITER] += 1
            if not more:
                return True
            self.step_pair(R)

    def read_status(self, R):
        self._read()
        return np.array(R.ws.st, copy=True)

    @staticmethod
    def best(R):
        return R.ws.best[:R.n].copy()
