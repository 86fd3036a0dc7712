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

The kernels are in ``kernels/partition.cu`` and their launches in
:mod:`semiring.backends.gpu._partition_ops` (:class:`CupyOps`); the work over all edges (connections to the parts,
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

from ._partition_ops import (  # noqa: F401 (the device operations and their constants: importable here too)
    BLOCK, BUCKET_BITS, CHUNK, DEST_SLACK, DEVICE_LOOPS, JET_PATIENCE, JET_TOLERANCE, MATCH_ROUNDS, MAX_BLOCKS,
    MAX_PARTS, S_BCUT, S_BIMB, S_COPY, S_COUNT, S_CUT, S_DONE, S_IMB, S_ITER, S_MAXR, S_ROUNDS, SHARED_BYTES,
    CupyOps, Refinement, Workspace, digits, lanes_per_vertex, seed_mix,
)

#: A level that keeps more than this fraction of its vertices ends the coarsening.
COARSEN_MIN_SHRINK = 0.9
#: Jet's filter: a candidate may lose up to floor(c * conn(own part)).
FILTER_UNIFORM = 0.25
FILTER_WEIGHTED = 0.75
#: Most refinement steps of one level.
JET_MAX_ROUNDS = 400
#: V-cycles after the first multilevel pass (each keeps the partition and refines it again).
VCYCLES = 1
#: Most V-cycles of Kernighan-Lin on the device (they stop when one does not lower the cut).
KL_VCYCLES = 3
#: Refinement steps per level of Kernighan-Lin on the device for each pass networkx would make.
KL_ROUNDS_PER_PASS = 2 * JET_PATIENCE


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
