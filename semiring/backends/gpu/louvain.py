"""Device Louvain: colored local moving in one persistent kernel per level, coarsening by a sort
and a segmented sum, multilevel refinement, and a small ensemble for small graphs.

Weights. The graph's ``W = A + diag(A)`` is scaled by a power of two so that its total ``T``
stays below ``2**62`` and rounded to int64 ("fixed point"): every sum of weights (a vertex's
weight into a community, a community's total degree Sigma, the coarse graph's entries) is then
an exact integer, the same whatever the order of the atomic additions, so a run is
deterministic. Scores are computed in double precision from these integers.

Colors. Each level's vertices are split into color classes, no two vertices of a class
adjacent: a hub (more than ``HUB_DEG`` entries) is a class of its own, in order of id; the
others take Jones-Plassmann colors (``louvain_color``: the priorities of
:func:`semiring.algorithms.coloring.priorities` seeded per level, one warp per vertex, hubs
ignored), i.e. the greedy coloring in decreasing priority, so the order of the classes is a
seeded random one.

Local moving (one level). A pass runs one *step* per color class; in a step every flagged
vertex of the class decides at once: it sums its weights into the neighbouring communities
(up to 32 entries, one warp by shuffles; up to ``BLOCK_DEG``, one warp with a hash table in
global memory of 2 slots per entry, ``atomicCAS`` on the key and ``atomicAdd`` on the weight;
up to ``HUB_DEG``, one block with that table; a hub, the whole grid, with three more grid
barriers) and scores each community c by ``w(v, c) - gamma k_v Sigma(c) / T`` (the modularity
gain of the move times m, up to a term that does not depend on c); the best (ties: the smaller
label) is a *candidate* if it beats staying by more than ``TOL * k_v``. No two vertices of a
class are adjacent, so the moves of a step interact only through Sigma: moving a set S changes
Q by the sum of the single gains less ``gamma/T^2 sum k_u k_v`` over pairs of S with the same
target or the same source. A candidate therefore moves if its gain beats
``gamma k_v (J(c) - k_v + L(a) - k_v) / T``, its share of those cross terms over all
candidates (J: their degrees into c, L: out of a), or if it holds the claim (``atomicMax`` of
its gain and id) on both its source and its target; so every step raises Q, at least one
candidate moves, and the level ends after a pass without candidates. A vertex is processed
again only when a neighbour moved or its own move lost (vertex pruning). All of a level's
passes run in one launch (two grid barriers per step).

Coarsening. Communities are renumbered by a prefix sum; the coarse graph's entries are the
runs of equal keys ``(c(u) << 32) | c(v)`` after a sort, their weights the differences of the
prefix sums of the sorted weights at the runs' ends (exact integers).

Refinement. After the last level, the final partition is projected down the levels and each
level's local moving runs again from it (Rotta and Noack's multilevel refinement), which only
raises Q.

Ensemble. A graph of fewer than ``ENSEMBLE_ENTRIES / R`` entries runs as the disjoint union of
R copies (at most ``ENSEMBLE_MAX``), whose colorings (hence orders) differ; each copy keeps its
own levels, threshold and modularity, and the copy of largest modularity is returned. Small
graphs leave most of the device idle, so the copies cost little more than one run.

Host reads per level: one for the level's counters and each copy's modularity, one for the
coarse graph's size; one more at the end (the copies' modularity) and, once per graph, T.
(Sorts, by CuPy's Thrust, also wait for the device: two per level.)

References: Blondel, Guillaume, Lambiotte, Lefebvre, J. Stat. Mech. P10008, 2008; Lu,
Halappanavar, Kalyanaraman, "Parallel heuristics for scalable community detection", Parallel
Computing 47, 2015 (coloring); Sahu, "GVE-Louvain: fast Louvain algorithm for community
detection in shared memory setting", arXiv:2312.04876, 2023, and "CPU vs. GPU for community
detection: performance insights from GVE-Louvain and nu-Louvain", arXiv:2501.19004, 2025
(per-vertex hash tables, vertex pruning, aggregation by prefix sums); Naim,
Manne, Halappanavar, Tumeo, "Community detection on the GPU", IPDPS 2017; Rotta, Noack,
"Multilevel local search algorithms for modularity clustering", ACM JEA 16, 2011.
"""

from __future__ import annotations

import math

import numpy as np

from ... import _host, _memory
from . import _persistent as _p

#: A vertex moves only if its best score beats staying by more than TOL * k_v (scores are of
#: order k_v): equal scores from rounding never move it.
TOL = 1e-12
#: Passes of one level's local moving at most (a guard: every step raises Q, so a level ends).
MAX_PASSES = 1000
#: Entries of the union of copies at most (see the module docstring); and copies at most.
ENSEMBLE_ENTRIES = 1 << 20
ENSEMBLE_MAX = 16
#: Each level's coloring seed is ``seed + GOLDEN * level`` (mod 2**64).
GOLDEN = 0x9E3779B97F4A7C15
#: Blocks per copy of the quality kernel.
QUALITY_BLOCKS = 32
#: Degree tiers of the local moving (entries of a row, self-loop included): up to 32 a warp sums
#: with shuffles, up to BLOCK_DEG a warp with a hash table, up to HUB_DEG a block; above, a hub
#: has a color class of its own and the whole grid works on it.
BLOCK_DEG = 256
HUB_DEG = 2048
_M64 = (1 << 64) - 1
_INT_MAX = 2**31 - 1


def copies_for(nnz, n):
    """The number of copies R of a graph with ``nnz`` entries (W's, diagonal included) and n vertices."""
    r = max(1, min(ENSEMBLE_MAX, ENSEMBLE_ENTRIES // max(int(nnz), 1)))
    while r > 1 and r * n >= _INT_MAX:
        r -= 1
    return r


def level_seed(seed, level):
    """The coloring seed of a level."""
    return (int(seed) + GOLDEN * level) & _M64


def fits(n, nnz):
    """True if the device path can take the graph (int32 vertex ids)."""
    return n < _INT_MAX and 2 * nnz < 2**62


def _kern(name):
    return _p.kernel("louvain.cu", name, HUB_DEG=HUB_DEG)


def _prefix(x):
    """``[0, x0, x0 + x1, ...]`` (int64, length len(x) + 1)."""
    import cupy as cp

    return cp.concatenate([cp.zeros(1, dtype=cp.int64), cp.cumsum(x, dtype=cp.int64)])


def _blocks(m):
    return max(1, min(4096, -(-int(m) // _p.BLOCK)))


class _Level:
    """One level's graph (a union of copies): CSR (int64 pointers, int32 ids, int64 weights),
    each entry's row, degrees k, each vertex's copy, the copies' vertex ranges, and (once
    colored) the color classes."""

    def __init__(self, ptr, idx, w, k, copy_of, vstart):
        import cupy as cp

        self.ptr, self.idx, self.w, self.k, self.copy_of, self.vstart = ptr, idx, w, k, copy_of, vstart
        self.n = int(k.shape[0])
        self.nnz = int(idx.shape[0])
        self.rows = (cp.searchsorted(ptr, cp.arange(self.nnz, dtype=cp.int64), side="right") - 1).astype(cp.int32)
        self.perm = self.cptr = self.nblk = self.ncol = self.nhub = self.color_ctl = None

    def color(self, seed):
        """The color classes: hubs (degree > HUB_DEG) one class each, in order of id, then the
        Jones-Plassmann colors of the others (``louvain_color``); within a class, the vertices
        of the block tier (degree > BLOCK_DEG) first."""
        import cupy as cp

        n = self.n
        color, done, q0, q1 = (cp.empty(n, dtype=cp.int32) for _ in range(4))
        self.color_ctl = cp.zeros(8, dtype=cp.uint64)
        kern = _kern("louvain_color")
        blocks = min(_p.grid_size(kern, ("louvain_color", HUB_DEG)), max(1, -(-n // (_p.BLOCK // 32))))
        kern((blocks,), (_p.BLOCK,), (self.ptr, self.idx, np.int32(n), np.uint64(seed), color, done, q0, q1,
                                      self.color_ctl, _p.barrier()))
        deg = self.ptr[1:] - self.ptr[:-1]
        hub = deg > HUB_DEG
        nhub = hub.sum()
        final = cp.where(hub, cp.cumsum(hub) - 1, color.astype(cp.int64) + nhub)
        perm = cp.argsort(final * 2 + (deg <= BLOCK_DEG))
        fs = final[perm]
        self.perm = perm.astype(cp.int32)
        self.cptr = cp.searchsorted(fs, cp.arange(n + 1, dtype=cp.int64)).astype(cp.int64)
        c0 = _prefix((deg[perm] > BLOCK_DEG).astype(cp.int64))
        self.nblk = c0[self.cptr[1:]] - c0[self.cptr[:-1]]
        self.ncol = (fs[-1:] + 1).astype(cp.int32)
        self.nhub = nhub.reshape(1).astype(cp.int32)


class _Workspace:
    """Buffers of the move kernel, sized for the first (largest) level."""

    def __init__(self, n, nnz):
        import cupy as cp

        _memory.require(2 * nnz * 12 + 2 * n * 44, f"louvain: workspace of {n:,} vertices and {nnz:,} entries",
                        device="gpu")
        self.htk = cp.empty(max(2 * nnz, 1), dtype=cp.int32)
        self.htv = cp.empty(max(2 * nnz, 1), dtype=cp.int64)
        self.qv, self.qa, self.qc = (cp.empty(max(2 * n, 1), dtype=cp.int32) for _ in range(3))
        self.qd = cp.empty(max(2 * n, 1), dtype=cp.float64)
        self.J = cp.zeros(max(2 * n, 1), dtype=cp.int64)
        self.L = cp.zeros(max(2 * n, 1), dtype=cp.int64)
        self.claim = cp.zeros(max(2 * n, 1), dtype=cp.uint64)
        grid = _p.grid_size(_kern("louvain_move"), ("louvain_move", HUB_DEG))
        self.hub_s = cp.empty(grid, dtype=cp.float64)
        self.hub_c = cp.empty(grid, dtype=cp.int32)


def _fixed_point(W, total):
    """(ptr int64, idx int32, w int64, k int64) of W scaled by 2**e (total * 2**e < 2**62)."""
    import cupy as cp

    e = 62 - math.frexp(float(total))[1]
    ptr = W._indptr.astype(cp.int64)
    idx = W._indices.astype(cp.int32)
    w = cp.rint(cp.ldexp(W._values.astype(cp.float64), e)).astype(cp.int64)
    c0 = _prefix(w)
    k = c0[ptr[1:]] - c0[ptr[:-1]]
    return ptr, idx, w, k


def _union(ptr, idx, w, k, n, R):
    """The disjoint union of R copies of a graph, as a level."""
    import cupy as cp

    nnz = int(idx.shape[0])
    uptr = cp.empty(R * n + 1, dtype=cp.int64)
    uptr[:-1] = (ptr[:-1][None, :] + (cp.arange(R, dtype=cp.int64) * nnz)[:, None]).ravel()
    uptr[-1] = R * nnz
    uidx = (idx[None, :] + (cp.arange(R, dtype=cp.int32) * n)[:, None]).ravel()
    copy_of = cp.repeat(cp.arange(R, dtype=cp.int32), n)
    vstart = cp.arange(R + 1, dtype=cp.int64) * n
    return _Level(uptr, uidx, cp.tile(w, R), cp.tile(k, R), copy_of, vstart)


def prepare(W, total):
    """The level-0 union of the weights W (sum ``total``): ``(level, T as a float, R, n)``, R the
    number of copies; one host read. A Graph keeps it (``Graph.louvain_start``)."""
    ptr, idx, w, k = _fixed_point(W, total)
    n = W.nrows
    R = copies_for(int(idx.shape[0]), n)
    T = float(_host.read(k.sum()))
    return _union(ptr, idx, w, k, n, R), T, R, n


def _move(L, ws, comm, active, gamma, T, prune):
    """Local moving on level L from ``comm`` (modified in place) over the ``active`` vertices
    (uint8). Returns (sigma, ctl) on the device."""
    import cupy as cp

    n = L.n
    sigma = cp.zeros(n, dtype=cp.int64)
    _kern("louvain_scatter_add")((_blocks(n),), (_p.BLOCK,), (comm, L.k, np.int64(n), sigma))
    flag = active.copy()
    for a in (ws.J, ws.L, ws.claim):
        a[:2 * n].fill(0)
    ctl = cp.zeros(16, dtype=cp.uint64)
    bar = _p.barrier()
    kern = _kern("louvain_move")
    blocks = min(_p.grid_size(kern, ("louvain_move", HUB_DEG)), max(1, -(-n // (_p.BLOCK // 32))))
    kern((blocks,), (_p.BLOCK,),
         (L.ptr, L.idx, L.w, L.k, np.int32(n), L.perm, L.cptr, L.nblk, L.ncol, L.nhub, active, np.int32(prune),
          np.float64(gamma), np.float64(T), np.float64(TOL), np.int32(MAX_PASSES), comm, sigma, flag,
          ws.htk, ws.htv, ws.qv, ws.qa, ws.qc, ws.qd, ws.J, ws.L, ws.claim, ws.hub_s, ws.hub_c, ctl, bar))
    return sigma, ctl


def _quality(L, comm, sigma, gamma, T, R):
    """Each copy's modularity (cupy float64, shape (R,)), from exact integer sums (the kernel's
    docstring), so the same bits as the NumPy model whatever the order of the additions."""
    import cupy as cp

    B = QUALITY_BLOCKS
    part = cp.empty(5 * R * B, dtype=cp.int64)
    _kern("louvain_quality")((B, R), (_p.BLOCK,), (L.ptr, L.idx, L.rows, L.w, comm, sigma, L.vstart, part))
    inside, a2, ab, bh, bl = (x.astype(cp.float64) for x in part.reshape(5, R, B).sum(axis=2))
    # sum_c Sigma(c)^2 = sum a^2 2^62 + sum a b 2^32 + sum b^2 (each term exact before rounding)
    sq = (a2 * 2.0**62 + ab * 2.0**32) + (bh * 2.0**32 + bl)
    return inside / T - gamma * sq / (T * T)


def _per_copy_changed(L, comm, R):
    """Vertices of each copy not in their own singleton community (cupy int64, shape (R,))."""
    import cupy as cp

    changed = (comm != cp.arange(L.n, dtype=cp.int32)).astype(cp.int64)
    c0 = _prefix(changed)
    return c0[L.vstart[1:]] - c0[L.vstart[:-1]]


def _coarsen(L, comm, R):
    """(cc, next level): cc maps each vertex to its community's vertex in the coarse graph."""
    import cupy as cp

    n, nnz = L.n, L.nnz
    used = cp.zeros(n, dtype=cp.int64)
    used[comm] = 1
    new = cp.cumsum(used) - 1
    cc = new[comm].astype(cp.int32)
    keys = (cc[L.rows].astype(cp.int64) << 32) | cc[L.idx].astype(cp.int64)
    order = cp.argsort(keys)
    ks = keys[order]
    wsorted = L.w[order]
    brk = cp.ones(nnz, dtype=cp.int64)
    if nnz > 1:
        brk[1:] = ks[1:] != ks[:-1]
    seg = cp.cumsum(brk) - 1
    sizes = _host.read(cp.stack([new[-1] + 1, seg[-1] + 1]))
    K, m = int(sizes[0]), int(sizes[1])
    csum = cp.cumsum(wsorted)
    ukey = cp.empty(m, dtype=cp.int64)
    ends = cp.empty(m, dtype=cp.int64)
    _kern("louvain_runs")((_blocks(nnz),), (_p.BLOCK,), (ks, csum, seg, np.int64(nnz), ukey, ends))
    sums = ends.copy()
    sums[1:] -= ends[:-1]
    nptr = cp.searchsorted(ukey >> 32, cp.arange(K + 1, dtype=cp.int64)).astype(cp.int64)
    nidx = (ukey & 0xFFFFFFFF).astype(cp.int32)
    nk = cp.zeros(K, dtype=cp.int64)
    _kern("louvain_scatter_add")((_blocks(n),), (_p.BLOCK,), (cc, L.k, np.int64(n), nk))
    ncopy = cp.empty(K, dtype=cp.int32)
    ncopy[cc] = L.copy_of
    vstart = cp.searchsorted(ncopy, cp.arange(R + 1, dtype=cp.int32)).astype(cp.int64)
    return cc, _Level(nptr, nidx, sums, nk, ncopy, vstart)


def _representatives(part, m):
    """``part`` relabelled so that each community is named by its smallest vertex."""
    import cupy as cp

    rep = cp.full(m, _INT_MAX, dtype=cp.int32)
    _kern("louvain_first")((_blocks(m),), (_p.BLOCK,), (part, np.int64(m), rep))
    return rep[part]


def louvain(W, total, gamma, threshold, seed, max_level, prune, stats=None, start=None):
    """Louvain communities of the weights W (on the GPU, ``W = A + diag(A)``, total > 0).

    Parameters
    ----------
    W : Matrix on the GPU, shape (n, n), float64
    total : float
        Sum of W (2m).
    gamma, threshold : float
    seed : int
    max_level : int or None
    prune : bool
        Vertex pruning (a vertex is processed again only when a neighbour moved).
    stats : dict or None
        Filled with ``levels``, ``copies``, ``passes`` (per level tried), ``colorings``,
        ``host_reads`` (every read of this function: through ``semiring._host``, so counted by
        ``semiring.host_reads``), ``modularity`` and ``copy`` (of the copy kept).
    start : tuple, optional
        :func:`prepare` of ``W, total``, made earlier (a Graph keeps it); default: made here.

    Returns
    -------
    cupy int64 array, shape (n,)
        Community labels 0..K-1 in order of each community's smallest vertex.
    """
    import cupy as cp

    L0, T, R, n = prepare(W, total) if start is None else start
    ws = _Workspace(L0.n, L0.nnz)
    reads = 0
    comm = cp.arange(L0.n, dtype=cp.int32)
    sigma = L0.k.copy()
    Qprev = None
    q0 = _quality(L0, comm, sigma, gamma, T, R)
    live = np.ones(R, dtype=bool)
    nlev = np.zeros(R, dtype=np.int64)
    levels = []
    L = L0
    lev = 0
    passes = []
    colorings = 0
    while live.any():
        L.color(level_seed(seed, lev))
        colorings += 1
        active = (L.k > 0) & cp.asarray(live)[L.copy_of]
        active = active.astype(cp.uint8)
        comm = cp.arange(L.n, dtype=cp.int32)
        sigma, ctl = _move(L, ws, comm, active, gamma, T, prune)
        Q = _quality(L, comm, sigma, gamma, T, R)
        moved_copy = _per_copy_changed(L, comm, R)
        parts = [ctl[6:10].astype(cp.int64), L.color_ctl[4:5].astype(cp.int64), moved_copy, Q.view(cp.int64)]
        if Qprev is None:
            parts.append(q0.view(cp.int64))
        got = _host.read(cp.concatenate(parts))
        reads += 1
        if int(got[3]) or int(got[4]):
            raise RuntimeError("louvain: a grid barrier timed out (not every block was resident); no result")
        passes.append(int(got[1]))
        moved_copy = got[5:5 + R]
        Qn = got[5 + R:5 + 2 * R].view(np.float64)
        if Qprev is None:
            Qprev = got[5 + 2 * R:5 + 3 * R].view(np.float64).copy()
        moved = live & (moved_copy > 0)
        if not moved.any():
            break
        nlev[moved] += 1
        live = moved & (Qn - Qprev > threshold)
        if max_level is not None:
            live &= nlev < max_level
        Qprev = np.where(moved, Qn, Qprev)
        cc, nxt = _coarsen(L, comm, R)
        reads += 1
        levels.append((L, ((L.k > 0) & cp.asarray(moved)[L.copy_of]).astype(cp.uint8), cc))
        L = nxt
        lev += 1
    if stats is not None:
        stats.update(levels=len(levels), copies=R, passes=passes, colorings=colorings, host_reads=reads)
    if not levels:
        return cp.arange(n, dtype=cp.int64)
    # refinement: project the final partition down, local moving at each level from it
    part = cp.arange(L.n, dtype=cp.int32)
    for Lv, act, cc in reversed(levels):
        part = _representatives(part[cc], Lv.n)
        sigma, _ = _move(Lv, ws, part, act, gamma, T, prune)
    Qf = _host.read(_quality(L0, part, sigma, gamma, T, R))
    reads += 1
    best = int(np.argmax(Qf))
    lab = part[best * n:(best + 1) * n] - np.int32(best * n)
    # number the communities by their smallest vertex
    first = cp.full(n, _INT_MAX, dtype=cp.int32)
    _kern("louvain_first")((_blocks(n),), (_p.BLOCK,), (lab, np.int64(n), first))
    f = first[lab]
    rank = cp.cumsum(f == cp.arange(n, dtype=cp.int32)) - 1
    if stats is not None:
        stats.update(host_reads=reads, modularity=float(Qf[best]), copy=best)
    return rank[f].astype(cp.int64)
