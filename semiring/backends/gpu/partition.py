"""Multilevel graph partitioning resident on the GPU (``semiring.algorithms.partition`` and
``kernighan_lin_bisection`` on device "gpu").

The vertices never move on the host. Coarsening reads one pair of sizes per level (the coarse
graph's vertices and edges, which size its arrays); refinement reads a small status array
only when its level may be done; only the coarsest graph (about 30 vertices per part) goes to
the host, for its initial partition.

1. *Coarsening* by heavy-edge matching (handshaking: every candidate proposes to its heaviest
   candidate neighbour, ties by a random rank, and mutual proposals match; Fagginger Auer and
   Bisseling 2012), MATCH_ROUNDS rounds, then two-hop pairs of the left-over vertices that share
   their heaviest neighbour (METIS): sorted by (neighbour, id), a group pairs its 1st and 2nd
   members, its 3rd and 4th, and so on. Contraction:
   the edges' ends are mapped to their coarse vertices, sorted by (row, column) and merged
   (weights added in sorted order, the pairs' inner edges dropped).
2. *Initial partition* of the coarsest graph on the host (recursive bisection by greedy graph
   growing and Fiduccia-Mattheyses, :mod:`semiring.algorithms.partition`).
3. *Refinement* at every level by Jet (Gilbert, Madduri, Boman, Rajamanickam 2023). Each step
   is one of two kinds, chosen on the device by the current imbalance (max over parts of
   weight - cap):

   - balanced: *Jet label propagation*. Every vertex not moved in the previous step finds the
     adjacent part it is most connected to; it is a candidate when moving there gains, or loses
     less than ``floor(c * conn(v, own part))`` (c = 0.25 on a graph of equal edge weights, 0.75
     otherwise). The *afterburner* then recomputes each candidate's gain as if every candidate of
     higher priority (larger gain, then smaller id) had already moved, and the candidates whose
     gain stays >= 0 move at once.
   - unbalanced: *rebalancing*. The vertices of a part above its cap are ordered by a key: the
     bucket of their loss per weight (the top BUCKET_BITS bits of its float32 pattern), then id;
     each such part gives away its first vertices while the weight before them is below its
     excess (exact: the part ends at its cap); each goes to its preferred part (the adjacent part
     below the destination limit it is most connected to) while that part, taking them in key
     order, has room; the others fill the remaining room of the light parts in order of id
     ("cookie cutter", Jet's strong rebalancing). The thresholds are found by radix selection
     over the keys (histograms of one digit per level), without sorting.

   After each step a status kernel computes the cut and the imbalance and keeps the best
   partition (the lowest cut among balanced ones; while none is balanced, the least
   imbalanced); a level ends after JET_PATIENCE steps without a cut below JET_TOLERANCE times
   the best, or after its most steps. The host queues the steps in pairs (a label-propagation
   step, then a rebalancing step, each a no-op unless the imbalance calls for it), and reads the
   status only when the level can be done (JET_PATIENCE steps after the last gain it saw).

``kernighan_lin_bisection`` runs the same refinement with each side's cap equal to its starting
size, in V-cycles that keep the bisection: every kept partition has exactly the starting sizes,
and the cut never rises above the start's.

The kernels are in ``kernels/partition_*.cu`` (what they expect from the host, constants and
workspace, is in :mod:`semiring.backends.gpu._partition_layout`); the work over all edges (connections to the parts,
the afterburner, the proposals of the matching, the cut) is one thread group per vertex. Results
depend only on the seed; with integer weights every sum is exact, so they equal the NumPy
emulation of the same steps (``tests/_partition_emulator.py``).

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
from ._partition_layout import (  # noqa: F401 (the kernels' constants and layout: importable here too)
    BLOCK, BUCKET_BITS, CHUNK, KERNEL_FILES, MAX_BLOCKS, MAX_PARTS, S_BCUT, S_BIMB, S_COPY, S_COUNT, S_CUT, S_DONE,
    S_IMB, S_ITER, S_MAXR, S_ROUNDS, SHARED_BYTES, Refinement, Workspace, digits, lanes_per_vertex, seed_mix,
)

#: Handshake rounds of the matching per level.
MATCH_ROUNDS = 6
#: A level that keeps more than this fraction of its vertices ends the coarsening.
COARSEN_MIN_SHRINK = 0.9
#: Jet's filter: a candidate may lose up to floor(c * conn(own part)).
FILTER_UNIFORM = 0.25
FILTER_WEIGHTED = 0.75
#: A level's refinement stops after this many steps without a cut below JET_TOLERANCE x best.
JET_PATIENCE = 12
JET_TOLERANCE = 0.999
#: Most refinement steps of one level.
JET_MAX_ROUNDS = 400
#: V-cycles after the first multilevel pass (each keeps the partition and refines it again).
VCYCLES = 1
#: Most V-cycles of Kernighan-Lin on the device (they stop when one does not lower the cut).
KL_VCYCLES = 3
#: Refinement steps per level of Kernighan-Lin on the device for each pass networkx would make.
KL_ROUNDS_PER_PASS = 2 * JET_PATIENCE
#: Destination limit of rebalancing: parts below (1 - DEST_SLACK) x cap take vertices.
DEST_SLACK = 0.01
#: Run each level's refinement loop on the device as one CUDA graph where conditional graph nodes
#: are available (False: the host loop, which reads the status when the level can be done).
DEVICE_LOOPS = True


class DeviceGraph:
    """One level: CSR arrays on the device, symmetric, no diagonal.

    Parameters
    ----------
    ops : CupyOps or its emulation
    indptr : int array, shape (n + 1,)
    indices : int array, shape (nnz,)
    w : float64 array, shape (nnz,)
        Edge weights.
    vw : int64 array, shape (n,)
        Vertex weights.
    maxvw : int
        An upper bound of the vertex weights (host).
    uniform : bool
        Every edge has the same weight.
    rows : int32 array, shape (nnz,), optional
        The row of every entry (computed when not given).
    """

    def __init__(self, ops, indptr, indices, w, vw, maxvw, uniform, rows=None):
        xp = ops.xp
        self.indptr, self.indices, self.w, self.vw = indptr, indices, w, vw
        self.n = int(vw.shape[0])
        self.nnz = int(indices.shape[0])
        self.maxvw, self.uniform = int(maxvw), bool(uniform)
        if rows is None:  # the row whose range holds each entry
            rows = (xp.searchsorted(indptr, xp.arange(self.nnz, dtype=np.int64), side="right") - 1).astype(np.int32)
        self.rows = rows
        self.cmap = None  # coarse vertex of each vertex, once coarsened
        self.ops = ops


# ---------------------------------------------------------------------------------------------
# coarsening
# ---------------------------------------------------------------------------------------------

def coarsen(G, maxvw, rng, part=None):
    """The next coarser DeviceGraph (G.cmap set), or None when it would keep over
    COARSEN_MIN_SHRINK of the vertices; with ``part`` (device int32), only vertices of one part
    merge. One host read (the coarse sizes)."""
    seed = int(rng.integers(0, 2**63))
    out = G.ops.coarsen(G, maxvw, seed, part, COARSEN_MIN_SHRINK)
    if out is None:
        return None
    cmap, indptr, indices, rows, w, vw = out
    G.cmap = cmap
    return DeviceGraph(G.ops, indptr, indices, w, vw, min(maxvw, 2 * G.maxvw), False, rows)


# ---------------------------------------------------------------------------------------------
# Jet refinement
# ---------------------------------------------------------------------------------------------

def refine(G, part, k, capv, opt, ws, max_rounds=JET_MAX_ROUNDS, read=True):
    """Jet refinement of ``part`` (device int32) on G with caps ``capv`` and targets ``opt``
    (device int64, length k) in workspace ``ws``; returns (best part (a new device array), cut,
    imbalance, steps) with imbalance = max(pw - capv).

    Where the device can loop by itself (CUDA graphs with conditional nodes) the level is one
    graph launch and the host reads nothing, or only the status at the end when ``read`` (else
    cut, imbalance and steps are None). Otherwise the host queues a label-propagation step and a
    rebalancing step at a time (each runs on the device only when the imbalance calls for it)
    and reads the status when the level can be done: not before JET_PATIENCE - count more
    steps, at most two per pair."""
    ops = G.ops
    c = FILTER_UNIFORM if G.uniform else FILTER_WEIGHTED
    R = ops.refine_begin(G, part, k, capv, opt, c, max_rounds, ws)
    if ops.run_on_device(R):
        s = ops.read_status(R) if read else None
    else:
        queued = 0
        due = -(-min(JET_PATIENCE, max(max_rounds, 1)) // 2)
        while True:
            ops.step_pair(R)
            queued += 1
            if queued < due:
                continue
            s = ops.read_status(R)
            if s[S_DONE]:
                break
            left = min(JET_PATIENCE - s[S_COUNT], max_rounds - s[S_ROUNDS])
            due = queued + max(1, -(-int(left) // 2))
    best = ops.best(R)
    if s is None:
        return best, None, None, None
    return best, float(s[S_BCUT]), int(s[S_BIMB]), int(s[S_ROUNDS])


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
    part = ops.from_host(np.asarray(initial(*ops.graph_to_host(top), rng), dtype=np.int32))
    ws = ops.workspace(n, k)
    opt_host = math.ceil(n / k)
    opt = xp.full(k, opt_host, dtype=np.int64)
    rounds = 0
    for i in range(len(levels) - 1, -1, -1):
        L = levels[i]
        if i < len(levels) - 1:
            part = part[L.cmap]
        capv = xp.full(k, max(cap, opt_host + L.maxvw - 1), dtype=np.int64)
        part, cut, imb, r = refine(L, part, k, capv, opt, ws, read=i == 0 or stats is not None)
        rounds += r or 0
    capv = xp.full(k, cap, dtype=np.int64)
    for _ in range(VCYCLES):
        p2, c2, i2 = vcycle(G, part, k, capv, opt, rng, coarsen_to, ws)
        if i2 <= 0 and c2 < cut:
            part, cut, imb = p2, c2, i2
    if stats is not None:
        stats.update(levels=len(levels), rounds=rounds, cut=cut, imbalance=imb,
                     sizes=[L.n for L in levels])
    return part


def vcycle(G, part, k, capv, opt, rng, coarsen_to, ws, max_rounds=JET_MAX_ROUNDS):
    """One V-cycle that keeps ``part``: coarsening merges vertices of the same part only, so the
    partition holds on every level, and Jet refines it on each level up (caps ``capv`` relaxed
    by the level's largest vertex weight less one, exact on G). Returns (part, cut, imbalance)."""
    ops = G.ops
    levels, parts = [G], [part]
    maxvw = max(1, math.ceil(1.5 * G.n / coarsen_to))
    while levels[-1].n > coarsen_to:
        nxt = coarsen(levels[-1], maxvw, rng, parts[-1])
        if nxt is None:
            break
        parts.append(ops.restrict(levels[-1].cmap, parts[-1], nxt.n))
        levels.append(nxt)
    part = parts[-1]
    for i in range(len(levels) - 1, -1, -1):
        L = levels[i]
        if i < len(levels) - 1:
            part = part[L.cmap]
        part, cut, imb, _ = refine(L, part, k, capv + (L.maxvw - 1), opt, ws, max_rounds, read=i == 0)
    return part, cut, imb


def bisection(ops, indptr, indices, w, n, side, uniform, max_rounds, seed=0, coarsen_to=60):
    """Jet refinement of the 0/1 ``side`` (device int32) with each side's cap its starting size,
    in V-cycles that keep the bisection (:func:`vcycle`). The result's cut is at most the
    start's."""
    rng = np.random.default_rng(seed)
    G = DeviceGraph(ops, indptr, indices, w, ops.xp.ones(n, dtype=np.int64), 1, uniform)
    ws = ops.workspace(n, 2)
    sizes = ops.part_weights(side, G.vw, 2)
    part, cut, imb = vcycle(G, side, 2, sizes, sizes, rng, coarsen_to, ws, max_rounds)
    for _ in range(KL_VCYCLES - 1):
        if imb > 0:
            break
        p2, c2, i2 = vcycle(G, part, 2, sizes, sizes, rng, coarsen_to, ws, max_rounds)
        if i2 > 0 or c2 >= cut:
            break
        part, cut, imb = p2, c2, i2
    start_cut = ops.edge_cut(G, side)
    if imb > 0 or cut > start_cut:  # the V-cycle lost the sizes or the cut: refine the start alone
        part, cut, imb, _ = refine(G, side, 2, sizes, sizes, ws, max_rounds)
    return part


# ---------------------------------------------------------------------------------------------
# the device operations (kernels/partition_*.cu; their files, constants, workspace: _partition_layout)
# ---------------------------------------------------------------------------------------------

class CupyOps:
    """The device operations on CuPy arrays (compiled kernels; the host reads only where said).

    Kernels are launched through :func:`semiring.backends.gpu.launch.launch` (a driver call with
    a reused parameter block). Where CUDA graphs with conditional nodes are available
    (:func:`semiring.backends.gpu.recording.available`), a level's refinement loop is one graph
    whose WHILE node runs pairs of steps until the status says done: no read at all."""

    def __init__(self, k):
        from . import load

        self.xp = load()
        self.k = k
        self._kernels = {}

    # -- transfers -------------------------------------------------------------------------

    @staticmethod
    def to_host(a):
        """A device array on the host (one counted read)."""
        return _host.read(a)

    def from_host(self, a):
        return self.xp.asarray(a)

    def graph_to_host(self, G):
        """(indptr, indices, w, vw) of G on the host, in one read."""
        xp = self.xp
        parts = [G.indptr.astype(np.int64), G.indices.astype(np.int64), G.w.astype(np.float64), G.vw.astype(np.int64)]
        sizes = [int(a.shape[0]) for a in parts]
        buf = _host.read(xp.concatenate([a.view(np.uint8) for a in parts]))
        out, at = [], 0
        for a, m in zip(parts, sizes):
            out.append(buf[at:at + 8 * m].view(a.dtype))
            at += 8 * m
        return tuple(out)

    # -- kernels ---------------------------------------------------------------------------

    def _k(self, name, G=None, tpv=1, loop=False):
        """The compiled kernel ``name`` for G's index types and ``tpv`` lanes per vertex."""
        from . import compiler

        ipt = compiler.ctype(G.indptr.dtype) if G is not None else "int"
        ixt = compiler.ctype(G.indices.dtype) if G is not None else "int"
        key = (name, ipt, ixt, tpv, loop)
        kern = self._kernels.get(key)
        if kern is None:
            d = {"IPT": ipt, "IXT": ixt, "TPV": tpv, "BUCKET_BITS": BUCKET_BITS}
            if loop:
                d["LOOP"] = 1
            kern = self._kernels[key] = compiler.kernel(KERNEL_FILES[name], name, d)
        return kern

    @staticmethod
    def _run(kern, grid, block, args, shared=0):
        from .launch import launch

        launch(kern, grid, (block,), args, shared)

    @staticmethod
    def _grid(m, cap=65536):
        return (max(1, min(-(-int(m) // BLOCK), cap)),)

    def _tpv(self, G):
        if getattr(G, "_tpv", None) is None:
            G._tpv = lanes_per_vertex(G.nnz / max(G.n, 1), self.k)
        return G._tpv

    def _groups(self, G, k):
        """(tpv, groups per block, block, blocks) of a connection kernel with k-slot arrays."""
        tpv = self._tpv(G)
        groups = max(1, min(BLOCK // tpv, SHARED_BYTES // (k * 8)))
        groups = max(32 // tpv, (groups * tpv // 32) * 32 // tpv)  # whole warps
        return tpv, groups, groups * tpv, max(1, -(-G.n // groups))

    # -- small operations ------------------------------------------------------------------

    def scatter_add(self, out, idx, vals):
        m = int(idx.shape[0])
        if m:
            self._run(self._k("scatter_add_i64"), self._grid(m), BLOCK, (
                idx.astype(np.int32, copy=False), vals.astype(np.int64, copy=False), np.int64(m), out))

    def part_weights(self, part, vw, k):
        pw = self.xp.zeros(k, dtype=np.int64)
        self.scatter_add(pw, part, vw)
        return pw

    def edge_cut(self, G, part):
        """The cut of ``part`` on G (one read)."""
        out = self.xp.zeros(1, dtype=np.float64)
        if G.nnz:
            self._run(self._k("edge_cut", G), self._grid(G.nnz, 1024), BLOCK, (
                G.rows, G.indices, G.w, np.int64(G.nnz), part, out))
        return float(_host.read(out)[0])

    def restrict(self, cmap, part, nc):
        """The parts of the coarse vertices (each takes its members' common part)."""
        pc = self.xp.zeros(nc, dtype=np.int32)
        pc[cmap] = part
        return pc

    # -- coarsening ------------------------------------------------------------------------

    def coarsen(self, G, maxvw, seed, part, min_shrink):
        """(cmap, indptr, indices, rows, w, vw) of the coarse graph of one matching, or None when
        it keeps more than ``min_shrink`` of the vertices. One read (the coarse sizes)."""
        xp = self.xp
        n, nnz = G.n, G.nnz
        run = self._run
        K = lambda name: self._k(name, G)  # noqa: E731
        g1 = self._grid(n)
        smix = np.uint64(seed_mix(seed))
        use = np.int32(self.k if part is not None else 0)  # parts keep the two-hop groups apart
        pp = part if part is not None else G.rows  # a placeholder pointer when unused
        cand = xp.empty(n, dtype=np.int8)
        mate = xp.empty(n, dtype=np.int32)
        choice = xp.empty(n, dtype=np.int32)
        counter = xp.empty(1, dtype=np.int64)
        vw, mv, n32 = G.vw, np.int64(maxvw), np.int32(n)
        run(K("match_init"), g1, BLOCK, (n32, vw, mv, cand, mate, counter))
        for r in range(MATCH_ROUNDS):
            run(K("match_propose"), g1, BLOCK, (G.indptr, G.indices, G.w, n32, cand, smix, pp, use, choice))
            run(K("match_resolve"), g1, BLOCK, (n32, choice, cand, mate, vw, mv, np.int32(r == MATCH_ROUNDS - 1),
                                                counter))
        key = xp.empty(n, dtype=np.int64)
        run(K("match_hubkey"), g1, BLOCK, (G.indptr, G.indices, G.w, n32, mate, vw, mv, smix, pp, use, counter, key))
        order = xp.argsort(key)
        run(K("match_pairs"), g1, BLOCK, (n32, key, order, mate))
        # contraction
        flag = xp.empty(n, dtype=np.int32)
        run(K("coarse_flags"), g1, BLOCK, (n32, mate, flag))
        cid = xp.cumsum(flag, dtype=np.int32)
        cmap = xp.empty(n, dtype=np.int32)
        ekey = xp.empty(max(nnz, 1), dtype=np.int64)
        run(K("coarse_keys"), self._grid(max(n, nnz)), BLOCK, (n32, np.int64(nnz), G.rows, G.indices, mate, cid,
                                                             cmap, ekey))
        if nnz:
            eorder = xp.argsort(ekey[:nnz])
            sflag = xp.empty(nnz, dtype=np.int32)
            nvalid = xp.full(1, nnz, dtype=np.int64)
            run(K("coarse_starts"), self._grid(nnz), BLOCK, (np.int64(nnz), ekey, eorder, sflag, nvalid))
            sid = xp.cumsum(sflag, dtype=np.int32)
            nc, nnzc = (int(x) for x in _host.read(xp.concatenate((cid[-1:], sid[-1:]))))
        else:
            nc, nnzc = int(_host.read(cid[-1:])[0]), 0
        if nc > min_shrink * n:
            return None
        indptr = xp.zeros(nc + 1, dtype=np.int64)
        ccol = xp.empty(nnzc, dtype=np.int32)
        crow = xp.empty(nnzc, dtype=np.int32)
        wc = xp.empty(nnzc, dtype=np.float64)
        vwc = xp.zeros(nc, dtype=np.int64)
        if nnzc:
            start = xp.empty(nnzc + 1, dtype=np.int64)
            run(K("coarse_fill"), self._grid(nnz), BLOCK, (np.int64(nnz), n32, ekey, eorder, sflag, sid,
                                                          np.int64(nnzc), nvalid, start, crow, ccol))
        else:  # placeholders: no coarse edge
            start = eorder = xp.zeros(1, dtype=np.int64)
            crow = xp.zeros(1, dtype=np.int32)
        run(K("coarse_sum"), self._grid(max(nnzc, n)), BLOCK, (np.int64(nnzc), np.int32(nc), G.w, eorder, start, crow,
                                                               wc, indptr, n32, cmap, vw, vwc))
        return cmap, indptr, ccol, crow[:nnzc], wc, vwc

    # -- refinement ------------------------------------------------------------------------

    def workspace(self, n, k):
        return Workspace(self.xp, n, k)

    def refine_begin(self, G, part, k, capv, opt, c, max_rounds, ws):
        """A Refinement of ``part`` on G: the start's status (best = start); no read."""
        xp = self.xp
        n = G.n
        R = Refinement(G, k, ws, c, max_rounds)
        ws.part[:n] = part
        ws.lock[:n] = 0
        ws.pw[...] = 0
        self.scatter_add(ws.pw, ws.part[:n], G.vw)
        ws.cap[...] = capv
        ws.opt[...] = opt
        # limit = min(max(opt, cap - max(1, floor(DEST_SLACK * cap))), cap)
        lim = xp.maximum(opt, capv - xp.maximum(1, xp.floor(DEST_SLACK * capv).astype(np.int64)))
        ws.limit[...] = xp.minimum(lim, capv)
        ws.st[...] = 0
        ws.st[S_MAXR] = float(max_rounds)
        self.status(R, 0)
        self.copy(R)
        return R

    def status(self, R, kind):
        G, ws = R.G, R.ws
        blocks = max(1, min(-(-G.nnz // BLOCK), 1024))
        self._run(self._k("jet_status", G), (blocks,), BLOCK, (
            G.rows, G.indices, G.w, np.int64(G.nnz), ws.part, ws.pw, ws.cap, np.int32(R.k), ws.st, ws.partial,
            ws.ticket[0:], np.int32(kind), np.int32(JET_PATIENCE), np.float64(JET_TOLERANCE)))

    def copy(self, R):
        self._run(self._k("jet_copy"), self._grid(R.n), BLOCK, (np.int32(R.n), R.ws.part, R.ws.best, R.ws.st))

    def lp_step(self, R):
        """Jet label propagation, afterburner and moves (a no-op unless balanced and not done)."""
        G, ws, k = R.G, R.ws, R.k
        tpv, groups, block, blocks = self._groups(G, k)
        n32 = np.int32(G.n)
        self._run(self._k("jet_lp", G, tpv), (blocks,), block, (
            G.indptr, G.indices, G.w, ws.part, n32, np.int32(k), np.float64(R.c), ws.lock, ws.dest, ws.gain, ws.st),
            groups * k * 8)
        self._run(self._k("jet_afterburner", G, tpv), (max(1, -(-G.n // (BLOCK // tpv))),), BLOCK, (
            G.indptr, G.indices, G.w, ws.part, n32, ws.dest, ws.gain, ws.move, ws.st))
        self._run(self._k("jet_apply"), self._grid(G.n), BLOCK, (
            n32, ws.dest, ws.move, G.vw, ws.part, ws.pw, ws.lock, ws.st))

    def rb_step(self, R):
        """Rebalancing (a no-op unless unbalanced and not done)."""
        G, ws, k, n = R.G, R.ws, R.k, R.n
        tpv, groups, block, blocks = self._groups(G, k)
        D, L, nb = ws.dbits, ws.levels, np.int32(ws.nb)
        d32, n32, k32 = np.int32(D), np.int32(n), np.int32(k)
        shifts = [np.int32(D * (L - 1 - lv)) for lv in range(L)]
        g = self._grid(n, MAX_BLOCKS)
        self._run(self._k("rb_conn", G, tpv), (blocks,), block, (
            G.indptr, G.indices, G.w, ws.part, G.vw, n32, k32, ws.pw, ws.cap, ws.opt, ws.limit, np.int32(ws.idbits),
            ws.dest, ws.key, ws.hist, nb, d32, shifts[0], ws.sel, ws.sst, ws.ticket[1:], ws.st), groups * k * 8)
        level = self._k("rb_level")
        for mode, sel, sst in ((0, ws.sel, ws.sst), (1, ws.sela, ws.ssta)):
            if mode == 1:
                self._run(self._k("rb_evict"), g, BLOCK, (
                    n32, k32, shifts[0], ws.part, ws.dest, ws.key, G.vw, ws.pw, ws.cap, ws.limit, ws.sel, ws.sst,
                    ws.ev, ws.hist, nb, d32, ws.sela, ws.ssta, ws.ticket[3:], ws.st))
            for lv in range(1, L):
                self._run(level, g, BLOCK, (
                    n32, k32, np.int32(mode), np.int32(lv), shifts[lv], ws.part, ws.dest, ws.key, ws.ev, G.vw, ws.pw,
                    ws.cap, ws.limit, ws.hist, nb, d32, sel, sst, ws.ticket[2:], ws.st))
        chunks = (max(1, -(-n // CHUNK)),)
        self._run(self._k("rb_rest"), chunks, 256, (
            n32, k32, ws.dest, ws.key, G.vw, ws.pw, ws.cap, ws.limit, ws.sela, ws.ssta, ws.ev, ws.taken, ws.bsum,
            ws.ends, ws.ticket[4:], ws.st))
        self._run(self._k("rb_assign"), chunks, 256, (
            n32, k32, ws.dest, G.vw, ws.ev, ws.bsum, ws.ends, ws.part, ws.pw, ws.st))

    def step_pair(self, R):
        """A label-propagation step and a rebalancing step, each with its status and copy."""
        self.lp_step(R)
        self.status(R, 1)
        self.copy(R)
        self.rb_step(R)
        self.status(R, 2)
        self.copy(R)

    def run_on_device(self, R):
        """Run the level's loop as one CUDA graph (a WHILE node over step pairs, no read) and
        return True; False where such graphs are not available (the host loops instead)."""
        global graph_failure
        from . import recording

        if not DEVICE_LOOPS or graph_failure is not None or not recording.available():
            return False
        from .launch import launch

        cond = self._k("jet_condition", loop=True)
        st = R.ws.st
        try:
            kinds = (self.xp.cuda.runtime.getDevice(), str(R.G.indptr.dtype), str(R.G.indices.dtype),
                     self._tpv(R.G))
            if kinds not in _warm:
                # compile (and load) every kernel of a step pair before recording: a pair on a done
                # status launches them all and changes nothing
                saved = st[S_DONE].copy()
                st[S_DONE] = 1.0
                self.step_pair(R)
                st[S_DONE] = saved
                _warm.add(kinds)
            recording.run_loop(lambda h: launch(cond, (1,), (32,), (h, st)), lambda: self.step_pair(R),
                               keep=(R.ws, R.G), what="partition refinement")
        except Exception as exc:  # noqa: BLE001 - nothing was launched by a failed recording
            graph_failure = f"{type(exc).__name__}: {exc}"
            return False
        return True

    def read_status(self, R):
        """The status array on the host (one read)."""
        return _host.read(R.ws.st)

    def best(self, R):
        return R.ws.best[:R.n].copy()


#: Why the device loops (CUDA graphs) failed in this process, if they did (the host loops then).
graph_failure = None
#: (device, index types, lanes per vertex) whose refinement kernels have run once in this process
#: (compiled, loaded and their launch parameters built: a recording may use them).
_warm = set()
