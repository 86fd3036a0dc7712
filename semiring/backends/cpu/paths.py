"""Whole-search single-source shortest paths on the CPU: delta-stepping and a worklist
Bellman-Ford, each run in one call (the CPU counterpart of :mod:`semiring.backends.gpu.paths`).

Both are round-synchronous, and a round runs in one of two forms by its work, as the BFS
engine (:mod:`semiring.backends.cpu.traversal`) does: a scalar loop in Python over memoryviews
of the CSR arrays and the distances when the round's vertices plus their out-edges are at most
:data:`SCALAR_WORK` (no NumPy call, nothing of size n allocated), vectorized otherwise (gather
the out-edges, candidate distances, ``np.minimum.at``). A scalar round sees the distances
lowered earlier in the same round (Gauss-Seidel), a vectorized one those at its start (Jacobi);
both settle on the same distances.

Delta-stepping keeps its buckets as compact candidate lists in a dict keyed by bucket number
(``distance // delta``) with a heap of the non-empty keys: the next bucket is found without
scanning empty ones (a tiny delta with large weights costs nothing per empty bucket) and a
bucket never rescans the vertices. An entry is live while its vertex's distance is below the
distance at which it was last expanded, so entries made stale by a later improvement are
dropped when met and no vertex is expanded twice at one distance. A bucket is settled by
rounds over its light edges (weight <= delta); then its settled vertices relax their heavy
edges once. Every expansion follows a strict decrease of a distance, so the search ends for any
positive delta.

Bellman-Ford is data-driven: a round relaxes the out-edges of the vertices whose distance fell
in the previous round. After round k every distance is at most the length of the shortest
path of at most k edges (also with the Gauss-Seidel rounds), so without a negative cycle round
n changes nothing, and a change in round n proves one.

Weights must be finite (the caller removes +inf edges and gives +inf to what only they reach)
and, for delta-stepping, non-negative. A candidate distance that overflows to +inf (floats)
improves nothing: such vertices stay unreached here, and the caller's reachability pass gives
them +inf.

References: Meyer, Sanders, "Delta-stepping: a parallelizable shortest path algorithm",
J. Algorithms 49(1), 2003; Bellman, "On a routing problem", 1958.
"""

from __future__ import annotations

import heapq

import numpy as np
import scipy.sparse as sp

from ..._memory import require
from ...exceptions import NegativeCycleError
from ..results import PathsResult

#: A round whose vertices plus out-edges are at most this runs as a scalar loop (see
#: :data:`semiring.backends.cpu.traversal.SCALAR_WORK`).
SCALAR_WORK = 256


def unreached(dtype):
    """The distance of an unreached vertex: INT64_MAX for int64, inf for float64."""
    return np.iinfo(np.int64).max if np.dtype(dtype).kind == "i" else np.inf


#: Edges from which a gather uses SciPy's compiled CSR row selection (below, its per-call
#: overhead exceeds the gain over the NumPy gather).
SCIPY_GATHER = 1 << 14


def _edges(optr, oidx, w, q, d):
    """(d(tail), head, weight) of every out-edge of the vertices ``q`` (int64 array)."""
    starts = optr[q].astype(np.int64)
    cnt = optr[q + 1].astype(np.int64) - starts
    total = int(cnt.sum())
    du = np.repeat(d[q], cnt)
    if total >= SCIPY_GATHER:
        S = sp.csr_array((w, oidx, optr), shape=(optr.shape[0] - 1, optr.shape[0] - 1), copy=False)
        B = S[q]
        return du, B.indices.astype(np.int64, copy=False), B.data
    offs = np.arange(total, dtype=np.int64) + np.repeat(starts - (np.cumsum(cnt) - cnt), cnt)
    return du, oidx[offs].astype(np.int64, copy=False), w[offs]


def _relax_wide(d, mark, du, v, wt, floor=None, source=0, exact=False):
    """d(v) = min(d(v), d(u) + w) over the edges (u, v, w) at once; returns the vertices
    lowered, each once. Integer candidates beyond INT64_MAX are dropped (longer than any simple
    path) unless ``exact`` says none can be; with ``floor``, a distance below it raises
    NegativeCycleError."""
    if d.dtype.kind == "i" and not exact:
        if floor is not None and du.shape[0] and bool((du < floor - np.minimum(wt, 0)).any()):
            raise _cycle(source, "a distance fell below minus the largest weight times n - 1")
        fits = du <= np.iinfo(np.int64).max - np.maximum(wt, 0)  # du + w does not overflow
        if not fits.all():
            du, v, wt = du[fits], v[fits], wt[fits]
    with np.errstate(over="ignore"):  # a float sum beyond the largest float is +inf: no path here
        cand = du + wt
    better = cand < d[v]
    v, cand = v[better], cand[better]
    if not v.shape[0]:
        return v
    # d(v) = min(d(v), cand): several candidates may target one v
    np.minimum.at(d, v, cand)
    v = v[d[v] == cand]
    # each lowered vertex once: every occurrence writes its rank, the one that stays is kept
    k = np.arange(v.shape[0], dtype=np.int64)
    mark[v] = k
    return v[mark[v] == k]


def _cycle(source, why):
    return NegativeCycleError(f"sssp: a negative-weight cycle is reachable from source {source} ({why}); "
                              "shortest paths are undefined")


def _state(optr, w, source, what):
    n = optr.shape[0] - 1
    require(24 * n, f"sssp: per-vertex arrays of {n:,} vertices")
    d = np.full(n, unreached(w.dtype), dtype=w.dtype)
    d[source] = 0
    return n, d


def bellman_ford(optr, oidx, w, source, floor=None):
    """Worklist Bellman-Ford. Returns a PathsResult: ``dist`` (:func:`unreached` where no path
    exists) and ``rounds``.

    ``floor`` (integer weights): minus the largest absolute weight times n - 1; a distance
    below it proves a negative cycle at once (and keeps int64 from overflowing).

    Raises
    ------
    NegativeCycleError
        Distances still fell in round n, or one fell below ``floor``.
    """
    n, d = _state(optr, w, source, "bellman_ford")
    stamp = np.full(n, -1, dtype=np.int64)
    mark = None
    lowest = -np.inf if floor is None else floor
    ip, ix, wv, dv, sv = memoryview(optr), memoryview(oidx), memoryview(w), memoryview(d), memoryview(stamp)
    cur, work = [source], 1 + ip[source + 1] - ip[source]
    rounds = 0
    while len(cur):
        if rounds == n:
            raise _cycle(source, f"distances still fell in round {n}")
        rounds += 1
        if work <= SCALAR_WORK:
            nxt, work = [], 0
            for u in (cur if isinstance(cur, list) else cur.tolist()):
                du = dv[u]
                for p in range(ip[u], ip[u + 1]):
                    v = ix[p]
                    nd = du + wv[p]
                    if nd < dv[v]:
                        if nd < lowest:
                            raise _cycle(source, "a distance fell below minus the largest weight times n - 1")
                        dv[v] = nd
                        if sv[v] != rounds:
                            sv[v] = rounds
                            nxt.append(v)
                            work += 1 + ip[v + 1] - ip[v]
            cur = nxt
        else:
            if mark is None:
                mark = np.empty(n, dtype=np.int64)
            cur = _relax_wide(d, mark, *_edges(optr, oidx, w, np.asarray(cur, dtype=np.int64), d), floor, source)
            work = cur.shape[0] + int((optr[cur + 1] - optr[cur]).sum())
    return PathsResult(d, rounds)


class _Buckets:
    """Delta-stepping's buckets: candidate lists by bucket number, with a heap of the numbers."""

    __slots__ = ("lists", "heap")

    def __init__(self):
        self.lists, self.heap = {}, []

    def add(self, key, v):
        lst = self.lists.get(key)
        if lst is None:
            self.lists[key] = [v]
            heapq.heappush(self.heap, key)
        else:
            lst.append(v)

    def add_many(self, keys, vs):
        """Add vertices ``vs`` (int64 array) under ``keys`` (array of bucket numbers)."""
        order = np.argsort(keys, kind="stable")
        keys, vs = keys[order], vs[order]
        cut = np.flatnonzero(keys[1:] != keys[:-1]) + 1
        starts = [0] + cut.tolist()
        stops = cut.tolist() + [keys.shape[0]]
        for key, a, b in zip(keys[starts].tolist(), starts, stops):
            lst = self.lists.get(key)
            if lst is None:
                self.lists[key] = vs[a:b].tolist()
                heapq.heappush(self.heap, key)
            else:
                lst.extend(vs[a:b].tolist())

    def pop(self):
        """(key, candidates) of the smallest non-empty bucket, or None."""
        if not self.heap:
            return None
        key = heapq.heappop(self.heap)
        return key, self.lists.pop(key)


def delta_stepping(light, heavy, source, delta, wmax=None):
    """Delta-stepping with bucket width ``delta`` (int for int64 weights, float for float64).

    ``light`` and ``heavy`` are the CSR ``(indptr, indices, weights)`` of the edges of weight
    at most ``delta`` and above it (the split is made once per graph and delta by the caller).
    ``wmax``: the largest weight, when known (integer candidates then need no overflow test
    where wmax * n < 2**63). Returns a PathsResult: ``dist`` (:func:`unreached` where no path
    exists) and ``rounds`` (the light-edge rounds)."""
    optr, oidx, w = light
    n, d = _state(optr, w, source, "delta_stepping")
    exact = wmax is not None and wmax * n < 2**63
    # expanded[v]: the distance at which v last relaxed its light edges (an entry is live below it)
    expanded = np.full(n, unreached(w.dtype), dtype=w.dtype)
    settled = np.full(n, -1, dtype=np.int64)  # settled[v]: the last bucket (by count) v was settled in
    mark = np.empty(n, dtype=np.int64)
    ip, ix, wv, dv = memoryview(optr), memoryview(oidx), memoryview(w), memoryview(d)
    ev, sv = memoryview(expanded), memoryview(settled)
    buckets = _Buckets()
    buckets.add(0, source)
    rounds = count = 0
    while True:
        got = buckets.pop()
        if got is None:
            break
        b, cur = got
        count += 1
        done = []  # vertices settled in this bucket: ints and arrays
        while len(cur):
            if len(cur) <= SCALAR_WORK:
                # the live candidates, each once, and their light out-edges
                live, work = [], 0
                for v in (cur if isinstance(cur, list) else cur.tolist()):
                    x = dv[v]
                    if x < ev[v]:
                        ev[v] = x
                        live.append(v)
                        work += ip[v + 1] - ip[v]
                        if sv[v] != count:
                            sv[v] = count
                            done.append(v)
                if not live:
                    break
                rounds += 1
                if len(live) + work <= SCALAR_WORK:
                    cur = _relax_scalar(live, ip, ix, wv, dv, delta, buckets, b)
                    continue
                live = np.asarray(live, dtype=np.int64)
            else:
                cur = np.asarray(cur, dtype=np.int64)
                live = cur[d[cur] < expanded[cur]]
                k = np.arange(live.shape[0], dtype=np.int64)
                mark[live] = k
                live = live[mark[live] == k]  # each once
                if not live.shape[0]:
                    break
                expanded[live] = d[live]
                fresh = live[settled[live] != count]
                settled[fresh] = count
                done.append(fresh)
                rounds += 1
            low = _relax_wide(d, mark, *_edges(optr, oidx, w, live, d), exact=exact)
            keys = d[low] // delta
            same = keys == b
            if not same.all():
                buckets.add_many(keys[~same], low[~same])
            cur = low[same]
        _heavy(heavy, d, mark, done, delta, buckets, dv, exact)
    return PathsResult(d, rounds)


def _relax_scalar(vertices, ip, ix, wv, dv, delta, buckets, b=None):
    """Relax the out-edges of ``vertices`` one by one (Python ints over memoryviews of the CSR
    and of the distances ``dv``): an improved vertex goes to its bucket, or, if that is bucket
    ``b`` (the one being settled), to the returned list of new candidates."""
    cur = []
    for u in vertices:
        du = dv[u]
        for p in range(ip[u], ip[u + 1]):
            v = ix[p]
            nd = du + wv[p]
            if nd < dv[v]:
                dv[v] = nd
                key = nd // delta
                if key == b:
                    cur.append(v)
                else:
                    buckets.add(key, v)
    return cur


def _heavy(heavy, d, mark, done, delta, buckets, dv, exact):
    """Relax the heavy edges (weight > delta) of the vertices settled in a bucket, once each."""
    hptr, hidx, hw = heavy
    small = [v for v in done if not isinstance(v, np.ndarray)]
    wide = [v for v in done if isinstance(v, np.ndarray)]
    if not wide and len(small) <= SCALAR_WORK:
        _relax_scalar(small, memoryview(hptr), memoryview(hidx), memoryview(hw), dv, delta, buckets)
        return
    q = np.concatenate([np.asarray(small, dtype=np.int64)] + wide)
    low = _relax_wide(d, mark, *_edges(hptr, hidx, hw, q, d), exact=exact)
    if low.shape[0]:
        buckets.add_many(d[low] // delta, low)


def split(indptr, indices, weights, delta):
    """The light (weight <= delta) and heavy parts of a CSR, each ``(indptr, indices, weights)``."""
    n = indptr.shape[0] - 1
    rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    out = []
    for keep in (weights <= delta, weights > delta):
        ptr = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(np.bincount(rows[keep], minlength=n), out=ptr[1:])
        out.append((ptr, np.ascontiguousarray(indices[keep]), np.ascontiguousarray(weights[keep])))
    return tuple(out)


__all__ = ["delta_stepping", "bellman_ford", "split", "unreached", "SCALAR_WORK"]
