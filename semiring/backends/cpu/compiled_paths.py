"""Whole-search single-source shortest paths compiled by numba: delta-stepping and a worklist
Bellman-Ford, the compiled counterparts of :mod:`semiring.backends.cpu.paths`, run where
:func:`semiring.backends.cpu._jit.enabled` (the SuiteSparse CPU backend in effect and numba
importable).

Delta-stepping (Meyer and Sanders) keeps tentative distances in buckets of width delta, settles
the smallest non-empty bucket by rounds over its light edges (weight <= delta) and then relaxes
the heavy edges of the vertices it settled, once. As in the NumPy engine, a vertex taken from a
bucket is live while its distance is below the distance at which it last relaxed its light
edges, so stale entries are dropped when met and no vertex is expanded twice at one distance.
Each row's edges are partitioned once per graph and delta, light ones first (:func:`partition`),
so a phase reads one contiguous range per vertex. A vertex is in at most one bucket at a time
(it moves when its bucket number falls), so the buckets hold at most n entries, kept in one of
two ways:

- a circular window of W buckets (a power of two at least ``wmax / delta + 3``), each a doubly
  linked list through per-vertex links: every pending distance lies within ``wmax`` of the
  bucket being settled, so the pending bucket numbers span fewer than W buckets and bucket ``k``
  is slot ``k mod W``; the next bucket is found by stepping over empty slots. Used where W is at
  most :data:`WINDOW_MAX`;
- otherwise a binary heap of bucket numbers indexed by vertex (decrease-key), so that a tiny
  delta with large weights costs nothing per empty bucket.

A bucket number computed as below the bucket being settled (float rounding) is raised to it, and
in the window one beyond its end is lowered to the last slot: such a vertex is expanded earlier
than its bucket, which delta-stepping tolerates (every expansion follows a strict decrease of a
distance, and every live vertex is expanded).

Bellman-Ford is data-driven: a round relaxes the out-edges of the vertices whose distance fell in
the previous round, each round's vertices kept once.

Both loops are Gauss-Seidel (a relaxation sees the distances lowered earlier in its round). The
distances equal the NumPy engine's, bit for bit: a label-correcting search with non-decreasing
candidates ends at the least fixed point of d(v) = min over in-edges of fl(d(u) + w), whatever
the order of its relaxations. ``rounds`` counts this engine's light-edge rounds (delta-stepping)
or relaxation rounds (Bellman-Ford); it can differ from the NumPy engine's, whose large rounds
are vectorized (Jacobi: they see only the distances at their start) and whose buckets list their
entries in another order.

Weights must be finite (the caller removes +inf edges and gives +inf to what only they reach)
and, for delta-stepping, non-negative (the caller checks before the search). A float candidate
that overflows to +inf improves nothing; an integer candidate beyond INT64_MAX is dropped (longer
than any simple path). Bellman-Ford raises NegativeCycleError, with the NumPy engine's messages,
when distances still fall in round n, or (integer weights) one falls below ``floor``.

References: Meyer, Sanders, "Delta-stepping: a parallelizable shortest path algorithm",
J. Algorithms 49(1), 2003; Bellman, "On a routing problem", 1958.
"""

from __future__ import annotations

import numpy as np

from ..._memory import require
from ..results import PathsResult
from . import _jit
from .paths import _cycle, unreached

#: Largest bucket window (slots); a wider span of bucket numbers uses the heap.
WINDOW_MAX = 1 << 12


def _partition_loop(indptr, indices, weights, delta, idx, w, mid):
    """Each row's edges into ``idx``/``w`` with its light ones (weight <= ``delta``) first;
    ``mid[u]`` is where row u's heavy edges begin."""
    n = indptr.shape[0] - 1
    for u in range(n):
        a = indptr[u]
        z = indptr[u + 1] - 1
        for p in range(indptr[u], indptr[u + 1]):
            if weights[p] <= delta:
                idx[a] = indices[p]
                w[a] = weights[p]
                a += 1
            else:
                idx[z] = indices[p]
                w[z] = weights[p]
                z -= 1
        mid[u] = a


def _delta_loop(ptr, mid, idx, wt, source, delta, window, d, ovf, big):
    """Delta-stepping from ``source`` into ``d`` (unreached: ``big``) over edges partitioned by
    :func:`_partition_loop`; ``window`` slots (a power of two) or 0 for the heap. ``ovf``:
    integer candidates may pass ``big`` and are tested. Returns the light-edge rounds.

    Every vertex is in at most one bucket at a time (it moves when its bucket number falls):
    the window keeps each slot as a doubly linked list through ``nxt_``/``prv``, the heap is
    indexed by vertex (``pos``), so both hold at most n entries."""
    n = d.shape[0]
    expanded = np.empty(n, dtype=d.dtype)  # the distance at which v last relaxed its light edges
    expanded[:] = big
    settled = np.full(n, -1, dtype=np.int64)  # the last bucket (by count) v was settled in
    stamp = np.full(n, -1, dtype=np.int64)  # the last round v was put in ``cand_``
    live = np.empty(n, dtype=np.int64)
    cand_ = np.empty(n, dtype=np.int64)
    done = np.empty(n, dtype=np.int64)
    inb = np.full(n, -1, dtype=np.int64)  # window: v's bucket number (-1: in none); heap: v's position
    nxt_ = np.empty(n if window else 0, dtype=np.int64)
    prv = np.empty(n if window else 0, dtype=np.int64)
    mask = window - 1
    head = np.full(max(window, 1), -1, dtype=np.int64)
    hk = np.empty(0 if window else n, dtype=np.int64)
    hv = np.empty(0 if window else n, dtype=np.int64)
    pending = 0  # window: vertices in buckets; heap: its size
    d[source] = 0
    b = 0
    if window:
        head[0], nxt_[source], prv[source], inb[source] = source, -1, -1, 0
    else:
        hk[0], hv[0], inb[source] = 0, source, 0
    pending = 1
    rounds = count = rnd = 0
    while pending:
        # the next bucket b: its live vertices, each once, into live[:nl]
        nl = 0
        if window:
            while head[b & mask] < 0:
                b += 1
            v = head[b & mask]
            head[b & mask] = -1
            while v >= 0:
                inb[v] = -1
                pending -= 1
                if d[v] < expanded[v]:
                    expanded[v] = d[v]
                    live[nl] = v
                    nl += 1
                v = nxt_[v]
        else:
            b = hk[0]
            while pending > 0 and hk[0] == b:
                v = hv[0]
                inb[v] = -1
                # the last entry sifts down from the root
                pending -= 1
                k, x = hk[pending], hv[pending]
                i = 0
                while True:
                    c = 2 * i + 1
                    if c >= pending:
                        break
                    if c + 1 < pending and hk[c + 1] < hk[c]:
                        c += 1
                    if hk[c] < k:
                        hk[i], hv[i] = hk[c], hv[c]
                        inb[hv[i]] = i
                        i = c
                    else:
                        break
                if pending > 0:
                    hk[i], hv[i] = k, x
                    inb[x] = i
                if d[v] < expanded[v]:
                    expanded[v] = d[v]
                    live[nl] = v
                    nl += 1
        count += 1
        ndone = 0
        for i in range(nl):
            v = live[i]
            if settled[v] != count:
                settled[v] = count
                done[ndone] = v
                ndone += 1
        # light rounds until the bucket stays empty, then the heavy edges of what it settled, once
        heavy = False
        while True:
            if not heavy and nl == 0:
                heavy = True
            if not heavy:
                rounds += 1
                rnd += 1
            nn = 0
            for i in range(ndone if heavy else nl):
                u = done[i] if heavy else live[i]
                du = d[u]
                for p in range(mid[u] if heavy else ptr[u], ptr[u + 1] if heavy else mid[u]):
                    w = wt[p]
                    if ovf and du > big - w:
                        continue  # beyond INT64_MAX: longer than any simple path
                    c = du + w
                    v = idx[p]
                    if c < d[v]:
                        d[v] = c
                        k = np.int64(c // delta)
                        if k < b:
                            k = b
                        if k == b and not heavy:
                            if stamp[v] != rnd:
                                stamp[v] = rnd
                                cand_[nn] = v
                                nn += 1
                            continue
                        # v to bucket k
                        if window:
                            if k - b >= window:
                                k = b + window - 1
                            old = inb[v]
                            if old == k:
                                continue
                            if old >= 0:  # out of its bucket
                                a, z = prv[v], nxt_[v]
                                if a >= 0:
                                    nxt_[a] = z
                                else:
                                    head[old & mask] = z
                                if z >= 0:
                                    prv[z] = a
                            else:
                                pending += 1
                            z = head[k & mask]
                            nxt_[v], prv[v] = z, -1
                            if z >= 0:
                                prv[z] = v
                            head[k & mask] = v
                            inb[v] = k
                        else:
                            i2 = inb[v]
                            if i2 < 0:
                                i2 = pending
                                pending += 1
                            elif hk[i2] <= k:
                                continue
                            while i2 > 0:  # sift up
                                par = (i2 - 1) // 2
                                if hk[par] <= k:
                                    break
                                hk[i2], hv[i2] = hk[par], hv[par]
                                inb[hv[i2]] = i2
                                i2 = par
                            hk[i2], hv[i2] = k, v
                            inb[v] = i2
            if heavy:
                break
            # the live vertices among the new candidates of bucket b
            nl = 0
            for i in range(nn):
                v = cand_[i]
                if d[v] < expanded[v]:
                    expanded[v] = d[v]
                    live[nl] = v
                    nl += 1
                    if settled[v] != count:
                        settled[v] = count
                        done[ndone] = v
                        ndone += 1
    return rounds


def _bellman_ford_loop(optr, oidx, w, source, d, lowest, use_floor, ovf, big):
    """Worklist Bellman-Ford from ``source`` into ``d`` (unreached: ``big``). Returns (rounds,
    status): 0 done, 1 distances still fell in round n, 2 a distance fell below ``lowest``
    (``use_floor``). ``ovf``: integer candidates may pass ``big`` and are tested."""
    n = d.shape[0]
    stamp = np.full(n, -1, dtype=np.int64)
    work = np.empty(2 * max(n, 1), dtype=np.int64)  # this round's vertices and the next's: two halves
    d[source] = 0
    work[0] = source
    cur, nc = 0, 1
    rounds = 0
    while nc:
        if rounds == n:
            return rounds, 1
        rounds += 1
        nxt = n - cur
        nn = 0
        for i in range(cur, cur + nc):
            u = work[i]
            du = d[u]
            for p in range(optr[u], optr[u + 1]):
                wt = w[p]
                if use_floor and wt < 0 and du < lowest - wt:
                    return rounds, 2  # du + wt < lowest (tested without forming the sum)
                if ovf and wt > 0 and du > big - wt:
                    continue  # beyond INT64_MAX: longer than any simple path
                nd = du + wt
                v = oidx[p]
                if nd < d[v]:
                    d[v] = nd
                    if stamp[v] != rounds:
                        stamp[v] = rounds
                        work[nxt + nn] = v
                        nn += 1
        cur, nc = nxt, nn
    return rounds, 0


def _i64(a):
    return np.ascontiguousarray(a, dtype=np.int64)


def _weights(w):
    return np.ascontiguousarray(w, dtype=np.int64 if np.dtype(w.dtype).kind in "iub" else np.float64)


def _window(wmax, delta):
    """Slots of the bucket window, or 0 for the heap (see the module docstring)."""
    if wmax is None:
        return 0
    span = float(wmax) / float(delta) + 3.0
    if not span <= WINDOW_MAX:
        return 0
    slots = 1
    while slots < span:
        slots *= 2
    return slots


def partition(indptr, indices, weights, delta):
    """The edges of a CSR with each row's light ones (weight <= ``delta``) first.

    Parameters
    ----------
    indptr, indices, weights : ndarray
        CSR of the weights (shapes (n + 1,), (nnz,), (nnz,); int64 or float64 weights).
    delta : int or float
        Bucket width.

    Returns
    -------
    tuple of 4 ndarrays
        ``(indptr, mid, indices, weights)``: row pointers (n + 1,), ``mid`` (n,) where each
        row's heavy edges begin, the indices and the weights (nnz,), each row's light edges in
        ``indptr[u]:mid[u]``, its heavy ones in ``mid[u]:indptr[u + 1]``; positions and indices
        int32 where n and nnz are below 2**31, else int64; weights int64 or float64.

    Raises
    ------
    OutOfMemory
        The partitioned copy does not fit in memory.
    BackendUnavailable
        numba cannot be imported.
    """
    loop = _jit.compile(_partition_loop)
    indptr, indices, weights = _i64(indptr), _i64(indices), _weights(weights)
    n, nnz = indptr.shape[0] - 1, indices.shape[0]
    # int32 positions and indices where they fit: half the bytes per edge read
    index = np.int32 if n < 2**31 and nnz < 2**31 else np.int64
    size = np.dtype(index).itemsize
    require(size * (2 * n + 1 + nnz) + 8 * nnz, f"sssp: the light / heavy partition of {nnz:,} edges")
    idx = np.empty(nnz, dtype=index)
    w = np.empty(nnz, dtype=weights.dtype)
    mid = np.empty(n, dtype=index)
    ptr = indptr.astype(index)
    loop(ptr, indices, weights, weights.dtype.type(delta), idx, w, mid)
    return ptr, mid, idx, w


def delta_stepping(parts, source, delta, wmax=None):
    """Delta-stepping with bucket width ``delta`` (int for int64 weights, float for float64),
    in one compiled loop.

    Parameters
    ----------
    parts : tuple of 4 ndarrays
        The edges as :func:`partition` gives them for this ``delta`` (weights int64 or float64,
        finite, non-negative).
    source : int
        0 <= source < n (checked by the caller).
    delta : int or float
        Bucket width (> 0).
    wmax : int or float, optional
        The largest weight: sizes the bucket window (without it, the heap) and spares the
        integer overflow test where ``wmax * n < 2**63``.

    Returns
    -------
    PathsResult
        ``dist`` (shape (n,), the weights' dtype; :func:`~semiring.backends.cpu.paths.unreached`
        where no path exists) and ``rounds`` (the light-edge rounds).

    Raises
    ------
    OutOfMemory
        The per-vertex arrays do not fit in memory.
    BackendUnavailable
        numba cannot be imported.
    """
    loop = _jit.compile(_delta_loop)
    ptr, mid, idx, w = parts
    n = ptr.shape[0] - 1
    # the distances and the loop's ten per-vertex arrays, 8 bytes each
    require(88 * max(n, 1), f"sssp: per-vertex arrays of {n:,} vertices")
    big = unreached(w.dtype)
    d = np.full(n, big, dtype=w.dtype)
    exact = wmax is not None and wmax * n < 2**63
    ovf = w.dtype.kind == "i" and not exact
    width = w.dtype.type(delta)
    rounds = loop(ptr, mid, idx, w, np.int64(source), width, np.int64(_window(wmax, delta)), d, ovf,
                  w.dtype.type(big))
    return PathsResult(d, int(rounds))


def bellman_ford(optr, oidx, w, source, floor=None):
    """Worklist Bellman-Ford in one compiled loop.

    Parameters
    ----------
    optr, oidx, w : ndarray
        CSR ``(indptr, indices, weights)`` (shapes (n + 1,), (nnz,), (nnz,); weights int64 or
        float64, finite).
    source : int
        0 <= source < n (checked by the caller).
    floor : int, optional
        Integer weights: minus the largest absolute weight times n - 1; a distance below it
        proves a negative cycle at once (and keeps int64 from overflowing).

    Returns
    -------
    PathsResult
        ``dist`` (:func:`~semiring.backends.cpu.paths.unreached` where no path exists) and
        ``rounds``.

    Raises
    ------
    NegativeCycleError
        Distances still fell in round n, or one fell below ``floor``.
    OutOfMemory
        The per-vertex arrays do not fit in memory.
    BackendUnavailable
        numba cannot be imported.
    """
    loop = _jit.compile(_bellman_ford_loop)
    optr, oidx, w = _i64(optr), _i64(oidx), _weights(w)
    n = optr.shape[0] - 1
    require(32 * max(n, 1), f"sssp: per-vertex arrays of {n:,} vertices")
    big = unreached(w.dtype)
    d = np.full(n, big, dtype=w.dtype)
    integer = w.dtype.kind == "i"
    lowest = w.dtype.type(floor if (integer and floor is not None) else 0)
    rounds, status = loop(optr, oidx, w, np.int64(source), d, lowest, integer and floor is not None, integer,
                          w.dtype.type(big))
    if status == 1:
        raise _cycle(source, f"distances still fell in round {n}")
    if status == 2:
        raise _cycle(source, "a distance fell below minus the largest weight times n - 1")
    return PathsResult(d, int(rounds))


__all__ = ["delta_stepping", "bellman_ford", "partition", "WINDOW_MAX"]
