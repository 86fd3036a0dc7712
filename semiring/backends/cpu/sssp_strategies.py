"""NumPy formulations of the SSSP work organizations of :mod:`semiring.backends.gpu.sssp_strategies`.

Each strategy is organized as its GPU kernels are (all-edge sweep versus worklist; duplicates
kept, filtered, hash-culled or never made), one vectorized step per kernel launch, so that the
CPU test suite checks every strategy's logic against an oracle and the counts (rounds, edges
examined, worklist entries) show the same work gap as on the device. Within a round a NumPy
step reads the distances as they were when the round began (a Jacobi sweep) where the GPU
threads see each other's updates (Gauss-Seidel, in no fixed order); the distances at the end
are the same, the round counts can differ.

- ``topology``: every round examines every edge (u, v) whose u is reached and lowers d(v) to
  d(u) + w(u, v) where that is smaller ("atomicMin" is ``np.minimum.at``); it stops after a
  round that changes nothing.
- ``worklist_atomic``: a round expands only the worklist's out-edges; every improving
  relaxation appends its target (duplicates allowed).
- ``worklist_filter``: the same appends, then a filter pass keeps the first claimant of each
  vertex (a per-vertex stamp array, written in reverse so that the first writer wins).
- ``worklist_hash``: an append is culled when the thread block's small hash table already holds
  the target in its slot (blocks of :data:`BLOCK` consecutive expanded edges, a table of
  :data:`HASH_SLOTS` slots each); culling is imperfect (collisions, other blocks), never wrong.
- ``worklist_scan``: improving relaxations set a per-vertex flag; the next worklist is the
  scatter of the flagged vertices to the positions an exclusive prefix sum of the flags gives.
- ``near_far``: a worklist split at a threshold: targets below it join the near pile (processed
  next round), the others the far pile; when the near pile empties, the threshold moves to the
  smallest far distance plus delta and the far pile is split again. Non-negative weights only.

A path without a negative cycle has at most n - 1 edges: after n - 1 rounds every distance is
final, and a change in round n proves a negative cycle (NegativeCycleError). For integer
weights a distance below ``floor`` (minus the largest absolute weight times n - 1, shorter than
any simple path) proves one at once.

References
----------
Harish, Narayanan, "Accelerating large graph algorithms on the GPU using CUDA", HiPC 2007.
Nasre, Burtscher, Pingali, "Data-driven versus topology-driven irregular computations on
GPUs", IPDPS 2013.
Davidson, Baxter, Garland, Owens, "Work-efficient parallel GPU methods for single-source
shortest paths", IPDPS 2014.
Merrill, Garland, Grimshaw, "Scalable GPU graph traversal", PPoPP 2012 (prefix-sum compaction).
"""

from __future__ import annotations

import numpy as np

from ..strategies import SSSP_BELLMAN_FORD, SSSP_STRATEGIES as STRATEGIES
from ...exceptions import NegativeCycleError
from ..results import PathsResult

#: Threads per block of the GPU kernels (the hash-culling blocks of the formulation here).
BLOCK = 256
#: Slots of a block's hash table (a power of two).
HASH_SLOTS = 1024
#: Multiplier of the slot hash (Knuth's multiplicative hashing).
HASH_MUL = 2654435761

#: Worklist strategies (Bellman-Ford order, any weights); ``near_far`` is the bucketed one.
WORKLISTS = tuple(s for s in SSSP_BELLMAN_FORD if s.startswith("worklist_"))


def unreached(dtype):
    """The distance of an unreached vertex: INT64_MAX for int64, inf for float64."""
    return np.iinfo(np.int64).max if np.dtype(dtype).kind == "i" else np.inf


def slot_of(v):
    """Hash-table slot of vertices ``v`` (the kernels' ``(v * HASH_MUL) >> (32 - log2 HASH_SLOTS)``
    on 32-bit unsigned arithmetic)."""
    bits = int(HASH_SLOTS).bit_length() - 1
    return ((v.astype(np.uint64) * np.uint64(HASH_MUL)) & np.uint64(0xFFFFFFFF)) >> np.uint64(32 - bits)


def _negative_cycle(source, why):
    return NegativeCycleError(f"sssp: a negative-weight cycle is reachable from source {source} ({why}); "
                              "shortest paths are undefined")


def _expand(indptr, wl):
    """(u, p): the owner and the CSR position of every out-edge of the worklist entries, in order."""
    start = indptr[wl]
    deg = indptr[wl + 1] - start
    excl = np.cumsum(deg) - deg  # exclusive prefix sum: where each entry's edges begin
    p = np.arange(int(deg.sum()), dtype=np.int64) + np.repeat(start - excl, deg)
    return np.repeat(wl, deg), p


def _relax(d, du, v, w, floor, source):
    """Lower d(v) to du + w where smaller, as atomicMin calls arriving in array order; return
    the positions (into v) of the calls that lowered d(v): a candidate below d(v) and below
    every earlier candidate for the same v. ``du`` is finite everywhere."""
    if floor is not None:
        # du + w below floor (tested without forming the sum, which could overflow)
        low = du < floor - np.minimum(w, 0)
        if low.any():
            raise _negative_cycle(source, "a distance fell below minus the largest weight times n - 1")
    with np.errstate(over="ignore"):  # a float sum beyond the largest float is +inf: no path
        cand = du + w
    better = np.flatnonzero(cand < d[v])
    if better.shape[0] > 1:
        # among the candidates for one v, a call lowers d(v) when every earlier one is larger:
        # ordered by (v, candidate, arrival), that is an arrival earlier than all before it in its group
        bv, bc = v[better], cand[better]
        order = np.lexsort((better, bc, bv))
        gid = np.cumsum(np.r_[True, bv[order][1:] != bv[order][:-1]])
        key = better[order] - gid * (int(v.shape[0]) + 1)  # groups in decreasing key ranges
        before = np.r_[np.iinfo(np.int64).max, np.minimum.accumulate(key)[:-1]]
        better = np.sort(better[order][key < before])
    # d(v) = min(d(v), du + w): the kernels' atomicMin
    np.minimum.at(d, v[better], cand[better])
    return better


def topology(indptr, indices, weights, source, floor):
    """All-edge Bellman-Ford sweeps until a round changes nothing. Returns a PathsResult."""
    n = indptr.shape[0] - 1
    inf = unreached(weights.dtype)
    rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    d = np.full(n, inf, dtype=weights.dtype)
    d[source] = 0
    rounds = 0
    while True:
        rounds += 1
        # every edge is examined; those from reached vertices relax
        live = np.flatnonzero(d[rows] != inf)
        changed = _relax(d, d[rows[live]], indices[live], weights[live], floor, source).size
        if not changed:
            break
        if rounds == n:
            raise _negative_cycle(source, f"distances still fell in round {n}")
    return PathsResult(d, rounds, edges_examined=rounds * int(indices.shape[0]), worklist_entries=rounds * n)


def _no_dedup(v, pos, n):
    return v


def _filter(v, pos, n):
    """The first claimant of each vertex survives: stamp[v] = its first position (written from
    the back, so that the first writer is the one left), kept where the stamp is its own."""
    stamp = np.full(n, -1, dtype=np.int64)
    k = np.arange(v.shape[0], dtype=np.int64)
    stamp[v[::-1]] = k[::-1]
    return v[stamp[v] == k]


def _hash(v, pos, n):
    """Per-block hash culling: an append is dropped when its block's table slot already holds
    the same vertex (the last earlier append in that block and slot)."""
    if v.shape[0] < 2:
        return v
    block = pos // BLOCK
    slot = slot_of(v).astype(np.int64)
    order = np.lexsort((pos, slot, block))  # by block, slot, then arrival (thread) order
    vb, bb, sb = v[order], block[order], slot[order]
    dup = np.zeros(v.shape[0], dtype=bool)
    dup[1:] = (vb[1:] == vb[:-1]) & (bb[1:] == bb[:-1]) & (sb[1:] == sb[:-1])
    keep = np.ones(v.shape[0], dtype=bool)
    keep[order[dup]] = False
    return v[keep]


def _scan(v, pos, n):
    """flags -> exclusive prefix sum -> scatter (the next worklist in vertex order, no duplicates)."""
    flag = np.zeros(n, dtype=np.int64)
    flag[v] = 1
    incl = np.cumsum(flag)
    out = np.empty(int(incl[-1]) if n else 0, dtype=np.int64)
    where = np.flatnonzero(flag)
    out[incl[where] - flag[where]] = where  # exclusive scan = inclusive - own flag
    return out


_DEDUP = {"worklist_atomic": _no_dedup, "worklist_filter": _filter, "worklist_hash": _hash,
          "worklist_scan": _scan}


def worklist(name, indptr, indices, weights, source, floor):
    """Data-driven Bellman-Ford: each round relaxes the worklist's out-edges; the next worklist
    is made of the improved targets, deduplicated as strategy ``name`` does. Returns a PathsResult."""
    n = indptr.shape[0] - 1
    dedup = _DEDUP[name]
    d = np.full(n, unreached(weights.dtype), dtype=weights.dtype)
    d[source] = 0
    wl = np.array([source], dtype=np.int64)
    rounds = edges = entries = 0
    while wl.shape[0]:
        if rounds == n:
            raise _negative_cycle(source, f"distances still fell in round {n}")
        rounds += 1
        entries += wl.shape[0]
        u, p = _expand(indptr, wl)
        edges += p.shape[0]
        v = indices[p]
        better = _relax(d, d[u], v, weights[p], floor, source)
        wl = dedup(v[better], better, n)
    return PathsResult(d, rounds, edges_examined=edges, worklist_entries=entries)


def near_far(indptr, indices, weights, source, delta):
    """Near-far worklists (non-negative weights): returns a PathsResult with ``splits``."""
    n = indptr.shape[0] - 1
    d = np.full(n, unreached(weights.dtype), dtype=weights.dtype)
    d[source] = 0
    near = np.array([source], dtype=np.int64)
    far = np.empty(0, dtype=np.int64)
    thr = weights.dtype.type(delta)
    rounds = edges = entries = splits = 0
    while True:
        if near.shape[0]:
            rounds += 1
            entries += near.shape[0]
            u, p = _expand(indptr, near)
            edges += p.shape[0]
            v = indices[p]
            with np.errstate(over="ignore"):
                cand = d[u] + weights[p]
            better = _relax(d, d[u], v, weights[p], None, source)
            to_near = cand[better] < thr
            # the near pile is deduplicated per round, the far pile per split (per-vertex stamps)
            near = np.unique(v[better][to_near])
            far = np.concatenate([far, v[better][~to_near]])
            continue
        far = np.unique(far)
        lo = thr
        left = far[d[far] >= lo]  # below lo: settled through a near pile already
        if not left.shape[0]:
            break
        splits += 1
        low = d[left].min()
        thr = low + weights.dtype.type(delta)
        if not thr > low:  # delta below the spacing of the floats at low: the next float up
            thr = np.nextafter(low, np.inf)
        near, far = left[d[left] < thr], left[d[left] >= thr]
    return PathsResult(d, rounds, edges_examined=edges, worklist_entries=entries, splits=splits)


def run(name, indptr, indices, weights, source, *, floor=None, delta=None):
    """Distances from ``source`` by strategy ``name``.

    Parameters
    ----------
    name : one of :data:`STRATEGIES`
    indptr, indices : int64 ndarray, shapes (n + 1,) and (nnz,)
        CSR structure of the weight matrix (out-edges).
    weights : int64 or float64 ndarray, shape (nnz,)
        No NaN; non-negative for "near_far".
    source : int
    floor : int, optional
        Integer weights: minus the largest absolute weight times (n - 1); a distance below it
        proves a negative cycle.
    delta : number
        Bucket width of "near_far".

    Returns
    -------
    PathsResult
        ``dist`` (shape (n,), dtype of weights, :func:`unreached` where no path exists),
        ``rounds`` (relaxation rounds), ``edges_examined``, ``worklist_entries`` (vertices whose
        out-edges a round expanded, duplicates included; topology: n per round), and
        ``splits`` for near_far; ``launches`` and ``host_syncs`` None.

    Raises
    ------
    NegativeCycleError
        A negative cycle is reachable from the source (not for near_far).
    """
    if name == "topology":
        return topology(indptr, indices, weights, source, floor)
    if name == "near_far":
        return near_far(indptr, indices, weights, source, delta)
    return worklist(name, indptr, indices, weights, source, floor)


__all__ = ["run", "STRATEGIES", "WORKLISTS", "BLOCK", "HASH_SLOTS", "unreached", "slot_of"]
