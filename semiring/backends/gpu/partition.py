"""Multilevel graph partitioning resident on the GPU (``semiring.algorithms.partition`` and
``kernighan_lin_bisection`` on device "gpu").

The vertices never move on the host: every level's arrays stay on the device, the loops issue
kernels and CuPy array operations, and the host reads one small status array per refinement
round (the cut and the imbalance, which decide the next round and the stop) and a few counts per
coarsening level (the sizes of the arrays it allocates). Only the coarsest graph (about 30
vertices per part) goes to the host for its initial partition.

1. *Coarsening* by heavy-edge matching (handshaking: every candidate proposes to its heaviest
   candidate neighbour, ties by a random rank, and mutual proposals match; Fagginger Auer and
   Bisseling 2012), MATCH_ROUNDS rounds without a host read, then two-hop pairs of the left-over
   vertices that share their heaviest neighbour (METIS). Contraction: the edges' ends are mapped
   to their coarse vertices, sorted by (row, column) and merged (weights added, the pairs' inner
   edges dropped).
2. *Initial partition* of the coarsest graph on the host (recursive bisection by greedy graph
   growing and Fiduccia-Mattheyses, :mod:`semiring.algorithms.partition`).
3. *Refinement* at every level by Jet (Gilbert, Madduri, Boman, Rajamanickam 2023), rounds of
   one of two kinds:

   - balanced: *Jet label propagation*. Every vertex not moved in the previous round finds the
     adjacent part it is most connected to; it is a candidate when moving there gains, or loses
     less than ``floor(c * conn(v, own part))`` (c = 0.25 on a graph of equal edge weights, 0.75
     otherwise). The *afterburner* then recomputes each candidate's gain as if every candidate of
     higher priority (larger gain, then smaller id) had already moved, and the candidates whose
     gain stays >= 0 move at once.
   - unbalanced: *rebalancing*. The vertices of the parts above their cap are ordered by the loss
     per weight of their best move (to the adjacent part under the destination limit they are
     most connected to, else anywhere); each such part gives away its cheapest vertices until it
     is back at its cap; each goes to its preferred part while that part has room, the others fill
     the remaining room of the light parts in order ("cookie cutter", Jet's strong rebalancing).
     The selection is exact, so it also keeps the fixed sizes of Kernighan-Lin's halves.

   The best balanced partition seen (the lowest cut; while none is balanced, the least
   imbalanced) is kept; a level ends after JET_PATIENCE rounds without a cut below
   JET_TOLERANCE times the best.

``kernighan_lin_bisection`` runs the same refinement on the finest graph alone, from the given
bisection, with each side's cap equal to its starting size: every kept partition has exactly the
starting sizes, and the cut never rises above the start's.

The kernels are in ``kernels/partition.cu``; the work over all edges (connections to the parts,
the afterburner, the proposals of the matching, the cut) is one thread group per vertex.

References
----------
M. S. Gilbert, K. Madduri, E. G. Boman, S. Rajamanickam, "Jet: multilevel graph partitioning on
GPUs", arXiv:2304.13194, 2023 (SIAM J. Sci. Comput. 2024). B. O. Fagginger Auer, R. H.
Bisseling, "A GPU algorithm for greedy graph matching", LNCS 7174, 2012. G. Karypis, V. Kumar,
"A fast and high quality multilevel scheme for partitioning irregular graphs", SIAM J. Sci.
Comput. 20(1), 1998.
"""

from __future__ import annotations

import math

import numpy as np

from ... import _host

#: Handshake rounds of the matching per level (no host read between them).
MATCH_ROUNDS = 6
#: Two-hop matching runs when more than this fraction of the vertices is left unmatched.
TWO_HOP_FRACTION = 0.1
#: A level that keeps more than this fraction of its vertices ends the coarsening.
COARSEN_MIN_SHRINK = 0.9
#: Jet's filter: a candidate may lose up to floor(c * conn(own part)).
FILTER_UNIFORM = 0.25
FILTER_WEIGHTED = 0.75
#: A level's refinement stops after this many rounds without a cut below JET_TOLERANCE x best.
JET_PATIENCE = 12
JET_TOLERANCE = 0.999
#: Most refinement rounds of one level.
JET_MAX_ROUNDS = 400
#: V-cycles after the first multilevel pass (each keeps the partition and refines it again).
VCYCLES = 1
#: Most V-cycles of Kernighan-Lin on the device (they stop when one does not lower the cut).
KL_VCYCLES = 3
#: Refinement rounds per level of Kernighan-Lin on the device for each pass networkx would make.
KL_ROUNDS_PER_PASS = 2 * JET_PATIENCE
#: Destination limit of rebalancing: parts below (1 - DEST_SLACK) x cap take vertices.
DEST_SLACK = 0.01


class DeviceGraph:
    """One level: CSR arrays on the device (``xp``), symmetric, no diagonal.

    Parameters
    ----------
    xp : module (cupy, or numpy for the reference operations)
    indptr : int64 array, shape (n + 1,)
    indices : int32 array, shape (nnz,)
    w : float64 array, shape (nnz,)
        Edge weights.
    vw : int64 array, shape (n,)
        Vertex weights.
    maxvw : int
        An upper bound of the vertex weights (host).
    uniform : bool
        Every edge has the same weight.
    """

    def __init__(self, ops, indptr, indices, w, vw, maxvw, uniform):
        xp = ops.xp
        self.indptr, self.indices, self.w, self.vw = indptr, indices, w, vw
        self.n = int(vw.shape[0])
        self.nnz = int(indices.shape[0])
        self.maxvw, self.uniform = int(maxvw), bool(uniform)
        # row of every entry: the row whose range holds it
        self.rows = (xp.searchsorted(indptr, xp.arange(self.nnz, dtype=np.int64), side="right") - 1).astype(np.int32)
        self.cmap = None  # coarse vertex of each vertex, once coarsened
        self.ops = ops


# ---------------------------------------------------------------------------------------------
# coarsening
# ---------------------------------------------------------------------------------------------

def match(G, maxvw, rng, part=None):
    """mate[v]: the vertex v merges with (v itself if none), on the device; with ``part``,
    only vertices of the same part merge."""
    ops, xp, n = G.ops, G.ops.xp, G.n
    ids = xp.arange(n, dtype=np.int32)
    rank = xp.asarray(rng.permutation(n).astype(np.int32))
    light = 2 * G.vw <= maxvw
    cand = light.copy()
    mate = ids.copy()
    for _ in range(MATCH_ROUNDS):
        # choice[v]: v's heaviest candidate neighbour (ties: larger rank), -1 if none
        choice = ops.propose(G, cand, cand, rank, part)
        has = choice >= 0
        back = xp.where(has, choice, 0)
        mutual = has & (choice[back] == ids) & cand
        mate = xp.where(mutual, choice, mate)
        cand &= has & ~mutual
    left = (mate == ids) & light
    idx = ops.nonzero(left)
    if idx.shape[0] > 1:
        if idx.shape[0] > TWO_HOP_FRACTION * n:
            everyone = xp.ones(n, dtype=bool)
            # hub[v]: v's heaviest neighbour, matched or not (-1: no neighbour)
            hub = ops.propose(G, left, everyone, rank, part)[idx].astype(np.int64)
            hub = xp.where(hub < 0, n, hub)  # vertices without neighbours pair with each other
        else:  # few left: only the vertices without neighbours pair up
            deg = G.indptr[idx + 1] - G.indptr[idx]
            hub = xp.where(deg == 0, n, -1 - idx.astype(np.int64))
        if part is not None:  # pairs stay inside a part
            hub = hub * 2 + part[idx]
        o = xp.argsort(hub * n + idx)  # by hub, then vertex
        a, h = idx[o], hub[o]
        if a.shape[0] > 1:
            same = h[1:] == h[:-1]
            start = xp.concatenate((xp.ones(1, dtype=bool), ~same))
            grp = xp.cumsum(start) - 1
            first_of = ops.nonzero(start)
            pos = xp.arange(a.shape[0]) - first_of[grp]
            f = ops.nonzero(((pos % 2) == 0)[:-1] & same)
            mate[a[f]] = a[f + 1].astype(np.int32)
            mate[a[f + 1]] = a[f].astype(np.int32)
    return mate


def coarsen(G, maxvw, rng, part=None):
    """The next coarser DeviceGraph (G.cmap set), or None when it would keep over
    COARSEN_MIN_SHRINK of the vertices; with ``part`` (0/1), only vertices of one part merge."""
    ops, xp, n = G.ops, G.ops.xp, G.n
    mate = match(G, maxvw, rng, part)
    ids = xp.arange(n, dtype=np.int32)
    rep = xp.minimum(ids, mate)
    is_rep = rep == ids
    cid = xp.cumsum(is_rep, dtype=np.int64) - 1
    nc = ops.read_int(cid[-1:]) + 1
    if nc > COARSEN_MIN_SHRINK * n:
        return None
    cmap = cid[rep].astype(np.int32)
    # coarse edges: (cmap[row], cmap[col]) without the pairs' inner edges, merged by sorting
    cu, cv = cmap[G.rows], cmap[G.indices]
    keep = ops.nonzero(cu != cv)
    key = cu[keep].astype(np.int64) * nc + cv[keep]
    o = xp.argsort(key)
    key, w = key[o], G.w[keep[o]]
    if key.shape[0]:
        starts = ops.nonzero(xp.concatenate((xp.ones(1, dtype=bool), key[1:] != key[:-1])))
    else:
        starts = xp.zeros(0, dtype=np.int64)
    wc = ops.segment_sum(w, starts)
    ukey = key[starts]
    ru = ukey // nc
    indices = (ukey - ru * nc).astype(np.int32)
    indptr = xp.searchsorted(ru, xp.arange(nc + 1, dtype=np.int64), side="left").astype(np.int64)
    vw = xp.zeros(nc, dtype=np.int64)
    ops.scatter_add(vw, cmap, G.vw)
    G.cmap = cmap
    return DeviceGraph(ops, indptr, indices, wc, vw, min(maxvw, 2 * G.maxvw), False)


# ---------------------------------------------------------------------------------------------
# Jet refinement
# ---------------------------------------------------------------------------------------------

class _Status:
    """Host copy of (cut, imbalance) of the current partition: imbalance = max over parts of
    (weight - cap) (<= 0: balanced)."""

    @staticmethod
    def read(G, part, pw, capv):
        ops = G.ops
        st = ops.status(G, part, pw, capv)
        s = ops.to_host(st)
        return float(s[0]), int(s[1])


def rebalance(G, part, pw, capv, limit, opt):
    """(dest, move): moves that bring every part above its cap back to it (exact weights),
    cheapest loss per weight first, into parts under ``limit`` (device arrays of length k)."""
    ops, xp, n = G.ops, G.ops.xp, G.n
    vw = G.vw
    under = pw < limit
    dest, gain = ops.best_part(G, part, under)
    excess = pw - capv
    pv = part.astype(np.int64)
    cand = (excess[pv] > 0) & (2 * vw < 3 * (pw[pv] - opt[pv]))
    idx = ops.nonzero(cand)
    newpart = part.copy()
    if not idx.shape[0]:
        return newpart
    loss = -gain[idx] / vw[idx]
    p = pv[idx]
    o = _lexsort(xp, (loss, p))  # by part, then loss per weight, then vertex
    idx, p = idx[o], p[o]
    wv = vw[idx]
    before = _segmented_exclusive_cumsum(ops, wv, p)
    ev = ops.nonzero(before < excess[p])
    idx, p, wv = idx[ev], p[ev], wv[ev]
    if not idx.shape[0]:
        return newpart
    # each evicted vertex goes to its preferred part while that part stays under the limit
    room = xp.maximum(limit - pw, 0)
    d = dest[idx].astype(np.int64)
    has = d >= 0
    dd = xp.where(has, d, 0)
    o2 = _lexsort(xp, (~has, dd))  # by preferred part, then loss order
    upto = _segmented_exclusive_cumsum(ops, wv[o2], dd[o2]) + wv[o2]
    ok = xp.zeros(idx.shape[0], dtype=bool)
    ok[o2] = has[o2] & (upto <= room[dd[o2]])
    target = xp.where(ok, d, -1)
    taken = xp.zeros(room.shape[0], dtype=np.int64)
    ops.scatter_add(taken, xp.where(ok, d, 0), xp.where(ok, wv, 0))
    # the others fill the light parts' remaining room in turn (cookie cutter), in loss order
    left = xp.maximum(room - taken, 0)
    left = xp.where(excess >= 0, 0, left)
    ends = xp.cumsum(left)
    rest = ~ok
    wr = xp.where(rest, wv, 0)
    at = xp.cumsum(wr) - wr
    q = xp.searchsorted(ends, at, side="right")
    fits = rest & (q < room.shape[0])
    target = xp.where(fits, xp.minimum(q, room.shape[0] - 1), target)
    moved = target >= 0
    newpart[idx] = xp.where(moved, target, p).astype(part.dtype)
    return newpart


def _lexsort(xp, keys):
    """Indices that sort by keys[-1], then keys[-2], ..., then position (stable radix sorts)."""
    o = None
    for key in keys:
        o = xp.argsort(key, kind="stable") if o is None else o[xp.argsort(key[o], kind="stable")]
    return o


def _segmented_exclusive_cumsum(ops, x, seg):
    """Exclusive running sum of x within runs of equal ``seg`` (seg sorted)."""
    xp = ops.xp
    c = xp.cumsum(x)
    start = xp.concatenate((xp.ones(1, dtype=bool), seg[1:] != seg[:-1]))
    first = ops.nonzero(start)
    grp = xp.cumsum(start) - 1
    base = (c - x)[first][grp]
    return c - x - base


def refine(G, part, k, capv, opt, max_rounds=JET_MAX_ROUNDS):
    """Jet refinement of ``part`` (device int32, modified) on G; returns (best part, cut,
    imbalance) with imbalance = max(pw - capv)."""
    ops, xp, n = G.ops, G.ops.xp, G.n
    c = FILTER_UNIFORM if G.uniform else FILTER_WEIGHTED
    pw = ops.part_weights(part, G.vw, k)
    cap_host = ops.to_host(capv)
    limit = xp.maximum(opt, capv - xp.maximum(1, xp.asarray(np.floor(DEST_SLACK * cap_host).astype(np.int64))))
    limit = xp.minimum(limit, capv)
    lock = xp.zeros(n, dtype=np.int8)
    cut, imb = _Status.read(G, part, pw, capv)
    best, best_cut, best_imb = part.copy(), cut, imb
    count = rounds = 0
    while count < JET_PATIENCE and rounds < max_rounds:
        rounds += 1
        count += 1
        if imb <= 0:
            dest, pregain = ops.lp(G, part, lock, c)
            move = ops.afterburner(G, part, dest, pregain)
            ops.apply(part, dest, move, lock)
        else:
            newpart = rebalance(G, part, pw, capv, limit, opt)
            part[:] = newpart
        pw = ops.part_weights(part, G.vw, k)
        cut, imb = _Status.read(G, part, pw, capv)
        if best_imb > 0 and imb < best_imb:
            best[:] = part
            best_cut, best_imb = cut, imb
            count = 0
        elif cut < best_cut and (imb <= 0 or imb <= best_imb):
            if cut < JET_TOLERANCE * best_cut:
                count = 0
            best[:] = part
            best_cut, best_imb = cut, imb
    return best, best_cut, best_imb, rounds


# ---------------------------------------------------------------------------------------------
# drivers
# ---------------------------------------------------------------------------------------------

def multilevel(ops, indptr, indices, w, n, k, cap, seed, initial, coarsen_to, uniform, whole=0, stats=None):
    """Parts (device int32) of the multilevel scheme.

    ``initial(indptr, indices, w, vw, rng)`` (host arrays) partitions the coarsest graph on the
    host; ``cap`` is the largest part weight; ``coarsen_to`` the coarsest graph's target size; a
    graph of at most ``max(whole, 2 * coarsen_to)`` vertices is not coarsened.
    """
    xp = ops.xp
    rng = np.random.default_rng(seed)
    G = DeviceGraph(ops, indptr, indices, w, xp.ones(n, dtype=np.int64), 1, uniform)
    levels = [G]
    maxvw = max(1, math.ceil(1.5 * n / coarsen_to))
    while levels[-1].n > coarsen_to and n > max(whole, 2 * coarsen_to):
        nxt = coarsen(levels[-1], maxvw, rng)
        if nxt is None:
            break
        levels.append(nxt)
    top = levels[-1]
    h = [ops.to_host(a) for a in (top.indptr, top.indices, top.w, top.vw)]
    part = xp.asarray(np.asarray(initial(*h, rng), dtype=np.int32))
    opt_host = n / k
    rounds = 0
    for i in range(len(levels) - 1, -1, -1):
        L = levels[i]
        if i < len(levels) - 1:
            part = part[L.cmap]
        cap_l = max(cap, math.ceil(opt_host) + L.maxvw - 1)
        capv = xp.full(k, cap_l, dtype=np.int64)
        opt = xp.full(k, math.ceil(opt_host), dtype=np.int64)
        part, cut, imb, r = refine(L, part, k, capv, opt)
        rounds += r
    capv = xp.full(k, cap, dtype=np.int64)
    for _ in range(VCYCLES):
        p2, c2, i2 = vcycle(G, part, k, capv, opt, rng, coarsen_to)
        if i2 <= 0 and c2 < cut:
            part, cut, imb = p2, c2, i2
    if stats is not None:
        stats.update(levels=len(levels), rounds=rounds, cut=cut, imbalance=imb,
                     sizes=[L.n for L in levels])
    return part


def vcycle(G, part, k, capv, opt, rng, coarsen_to, max_rounds=JET_MAX_ROUNDS):
    """One V-cycle that keeps ``part``: coarsening merges vertices of the same part only, so the
    partition holds on every level, and Jet refines it on each level up (caps ``capv`` relaxed
    by the level's largest vertex weight less one, exact on G). Returns (part, cut, imbalance)."""
    ops, xp = G.ops, G.ops.xp
    levels, parts = [G], [part]
    maxvw = max(1, math.ceil(1.5 * G.n / coarsen_to))
    while levels[-1].n > coarsen_to:
        nxt = coarsen(levels[-1], maxvw, rng, parts[-1])
        if nxt is None:
            break
        pc = xp.zeros(nxt.n, dtype=np.int32)
        pc[levels[-1].cmap] = parts[-1]
        levels.append(nxt)
        parts.append(pc)
    part = parts[-1]
    for i in range(len(levels) - 1, -1, -1):
        L = levels[i]
        if i < len(levels) - 1:
            part = part[L.cmap]
        part, cut, imb, _ = refine(L, part.copy(), k, capv + (L.maxvw - 1), opt, max_rounds)
    return part, cut, imb


def bisection(ops, indptr, indices, w, n, side, uniform, max_rounds, seed=0, coarsen_to=60):
    """Jet refinement of the 0/1 ``side`` (device int32) with each side's cap its starting size,
    in a V-cycle that keeps the bisection (:func:`vcycle`). The result's cut is at most the
    start's."""
    xp = ops.xp
    rng = np.random.default_rng(seed)
    G = DeviceGraph(ops, indptr, indices, w, xp.ones(n, dtype=np.int64), 1, uniform)
    sizes = ops.part_weights(side, G.vw, 2)
    part, cut, imb = vcycle(G, side, 2, sizes, sizes, rng, coarsen_to, max_rounds)
    for _ in range(KL_VCYCLES - 1):
        if imb > 0:
            break
        p2, c2, i2 = vcycle(G, part, 2, sizes, sizes, rng, coarsen_to, max_rounds)
        if i2 > 0 or c2 >= cut:
            break
        part, cut, imb = p2, c2, i2
    start_cut, _ = _Status.read(G, side, sizes, sizes)
    if imb > 0 or cut > start_cut:  # the V-cycle lost the sizes or the cut: refine the start alone
        part, cut, imb, _ = refine(G, side.copy(), 2, sizes, sizes, max_rounds)
    return part


# ---------------------------------------------------------------------------------------------
# the device operations (kernels/partition.cu)
# ---------------------------------------------------------------------------------------------

#: Threads per block of the one-thread-per-item kernels.
BLOCK = 256
#: Shared memory a block of jet_conn may use for its groups' connection arrays (bytes).
SHARED_BYTES = 48 * 1024
#: The largest k the device path handles (one group of 32 lanes holds k doubles in shared memory).
MAX_PARTS = SHARED_BYTES // 8


def lanes_per_vertex(avg_degree, k):
    """TPV of the group kernels: about the average degree (4 to 32 lanes), more when k is large
    (a block of one warp holds 32 / TPV arrays of k doubles)."""
    tpv = 4
    while tpv < 32 and (tpv < avg_degree or (32 // tpv) * k * 8 > SHARED_BYTES):
        tpv *= 2
    return tpv


class CupyOps:
    """The device operations on CuPy arrays (one compiled kernel each, no host read)."""

    def __init__(self, k):
        from . import load

        self.xp = load()
        self.k = k
        self._dummy = self.xp.zeros(1, dtype=bool)

    @staticmethod
    def to_host(a):
        """A device array on the host (one counted read)."""
        return _host.read(a)

    @staticmethod
    def read_int(a):
        return _host.read_int(a)

    def nonzero(self, mask):
        """Positions of the true entries of ``mask`` in order: one counted read (their count),
        then a scan and a scatter on the device."""
        xp = self.xp
        n = int(mask.shape[0])
        if not n:
            return xp.zeros(0, dtype=np.int64)
        pos = xp.cumsum(mask, dtype=np.int64)
        cnt = _host.read_int(pos[-1:])
        out = xp.empty(cnt + 1, dtype=np.int64)
        out[xp.where(mask, pos - 1, cnt)] = xp.arange(n, dtype=np.int64)
        return out[:cnt]

    def _kernel(self, name, G=None, tpv=None):
        from . import compiler

        d = {}
        if G is not None:
            d["IPT"] = compiler.ctype(G.indptr.dtype)
            d["IXT"] = compiler.ctype(G.indices.dtype)
        else:
            d["IPT"] = d["IXT"] = "int"
        d["TPV"] = tpv or 1
        return compiler.kernel("partition.cu", name, d)

    @staticmethod
    def _grid(m):
        return (max(1, min(-(-int(m) // BLOCK), 65536)),)

    def _tpv(self, G):
        if getattr(G, "_tpv", None) is None:
            G._tpv = lanes_per_vertex(G.nnz / max(G.n, 1), self.k)
        return G._tpv

    def propose(self, G, selfmask, nbrmask, rank, part=None):
        xp = self.xp
        choice = xp.empty(G.n, dtype=np.int32)
        use = part is not None
        self._kernel("match_propose", G)(self._grid(G.n), (BLOCK,), (
            G.indptr, G.indices, G.w, np.int32(G.n), selfmask, nbrmask, rank,
            part if use else rank, np.int32(use), choice))
        return choice

    def segment_sum(self, x, starts):
        xp = self.xp
        m = int(starts.shape[0])
        out = xp.empty(m, dtype=np.float64)
        if m:
            self._kernel("segment_sum")(self._grid(m), (BLOCK,), (
                x, starts.astype(np.int64, copy=False), np.int64(m), np.int64(x.shape[0]), out))
        return out

    def scatter_add(self, out, idx, vals):
        m = int(idx.shape[0])
        if m:
            self._kernel("scatter_add_i64")(self._grid(m), (BLOCK,), (
                idx.astype(np.int32, copy=False), vals.astype(np.int64, copy=False), np.int64(m), out))

    def part_weights(self, part, vw, k):
        pw = self.xp.zeros(k, dtype=np.int64)
        self.scatter_add(pw, part, vw)
        return pw

    def status(self, G, part, pw, capv):
        out = self.xp.zeros(2, dtype=np.float64)
        self._kernel("jet_status", G)((max(1, min(-(-G.nnz // BLOCK), 1024)),), (BLOCK,), (
            G.rows, G.indices, G.w, np.int64(G.nnz), part, pw, capv, np.int32(pw.shape[0]), out))
        return out

    def _conn(self, G, part, mode, allowed, c, lock, k):
        xp = self.xp
        tpv = self._tpv(G)
        per_group = k * 8
        groups = max(1, min(BLOCK // tpv, SHARED_BYTES // per_group))
        # whole warps: every lane of a warp reaches the shuffles (32 // tpv groups always fit)
        groups = max(32 // tpv, (groups * tpv // 32) * 32 // tpv)
        block = groups * tpv
        dest = xp.empty(G.n, dtype=np.int32)
        gain = xp.empty(G.n, dtype=np.float64)
        nblocks = max(1, -(-G.n // groups))
        self._kernel("jet_conn", G, tpv)((nblocks,), (block,), (
            G.indptr, G.indices, G.w, part, np.int32(G.n), np.int32(k), np.int32(mode), allowed,
            np.float64(c), lock, dest, gain), shared_mem=groups * per_group)
        return dest, gain

    def best_part(self, G, part, allowed):
        return self._conn(G, part, 1, allowed, 0.0, self._dummy, int(allowed.shape[0]))

    def lp(self, G, part, lock, c):
        return self._conn(G, part, 0, self._dummy, c, lock, self.k)

    def afterburner(self, G, part, dest, pregain):
        xp = self.xp
        tpv = self._tpv(G)
        move = xp.empty(G.n, dtype=bool)
        groups = BLOCK // tpv
        self._kernel("jet_afterburner", G, tpv)((max(1, -(-G.n // groups)),), (BLOCK,), (
            G.indptr, G.indices, G.w, part, np.int32(G.n), dest, pregain, move))
        return move

    def apply(self, part, dest, move, lock):
        xp = self.xp
        xp.copyto(part, dest, where=move)
        lock[...] = move
