"""NumPy emulation of the device operations of ``semiring.backends.gpu.partition`` (the kernels
of ``kernels/partition.cu`` and the CuPy steps of ``CupyOps``), for running the GPU module's
multilevel scheme and Kernighan-Lin V-cycle without a GPU.

Each method computes what its kernel computes, from the definitions, over whole arrays: the
connection of every vertex to every part is a dense n x k table (bincount of (row, part of the
column)), the best other part is its row maximum with ties to the smallest part, the afterburner
sums each candidate's neighbours of higher priority. With integer weights every sum is exact in
any order, so a GPU run of the same inputs must give the same partition (the GPU tests check it).
"""

from __future__ import annotations

import numpy as np


class EmulatedOps:
    """The interface of ``semiring.backends.gpu.partition.CupyOps`` on NumPy arrays."""

    xp = np

    def __init__(self, k):
        self.k = k

    @staticmethod
    def to_host(a):
        return np.asarray(a)

    @staticmethod
    def read_int(a):
        return int(np.asarray(a).reshape(-1)[0])

    @staticmethod
    def nonzero(mask):
        return np.flatnonzero(mask)

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

    @staticmethod
    def segment_sum(x, starts):
        return np.add.reduceat(x, starts) if starts.size else np.zeros(0)

    @staticmethod
    def scatter_add(out, idx, vals):
        np.add.at(out, idx, vals)

    @staticmethod
    def part_weights(part, vw, k):
        return np.bincount(part, weights=vw, minlength=k).astype(np.int64)

    @staticmethod
    def status(G, part, pw, capv):
        cut = G.w[part[G.rows] != part[G.indices]].sum() / 2
        return np.array([cut, float((pw - capv).max())])

    @staticmethod
    def _table(G, part, k):
        """(conn, own): conn[v, q] = weight from v into part q; own[v] = conn[v, part[v]]."""
        conn = np.bincount(G.rows.astype(np.int64) * k + part[G.indices], weights=G.w,
                           minlength=G.n * k).reshape(G.n, k)
        return conn, conn[np.arange(G.n), part]

    def _best(self, G, part, allowed, k):
        conn, own = self._table(G, part, k)
        c = np.where(allowed[None, :] & (conn > 0), conn, -1.0)
        c[np.arange(G.n), part] = -1.0
        q = c.argmax(axis=1)  # the largest connection, then the smallest part
        b = c[np.arange(G.n), q]
        has = b > 0
        return np.where(has, q, -1).astype(np.int32), np.where(has, b, 0.0), own

    def best_part(self, G, part, allowed):
        dest, b, own = self._best(G, part, allowed, allowed.shape[0])
        return dest, b - own

    def lp(self, G, part, lock, c):
        dest, b, own = self._best(G, part, np.ones(self.k, dtype=bool), self.k)
        cand = (dest >= 0) & (lock == 0) & ((b >= own) | ((own - b) < np.floor(c * own)))
        lock[:] = 0
        return np.where(cand, dest, -1).astype(np.int32), np.where(cand, b - own, -np.inf)

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

    @staticmethod
    def apply(part, dest, move, lock):
        part[move] = dest[move]
        lock[...] = move
