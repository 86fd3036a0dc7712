"""Distributed delta-stepping single-source shortest paths on a 1D row-block partition.

Tentative distances live with the owner of each vertex. The buckets of width delta are
global: one allreduce (min) of the smallest unsettled distance opens the next bucket
``[lo, hi)`` on every rank, and one allreduce (sum) per relaxation round says whether any
rank still has bucket vertices to relax. A round is the masked product of the single-device
engine split around one exchange:

``t = bucket min.plus AL`` (light edges, w <= delta): each rank relaxes the light out-edges of
its bucket vertices, keeps the smallest candidate per target, and sends (target, candidate)
pairs to the owners (all-to-all-v); the owner applies ``d<changed> = min(d, t)`` and the
changed vertices still below ``hi`` form the next round's bucket. When a bucket is empty its
vertices relax their heavy edges once (``t = d<settled_here> min.plus AH``) and are settled.

References
----------
Meyer, Sanders, "Delta-stepping: a parallelizable shortest path algorithm", J. Algorithms 49, 2003.
Chakaravarthy, Checconi, Murali, Petrini, Sabharwal, "Scalable single source shortest path
algorithms for massively parallel systems", IPDPS 2014 (distributed delta-stepping).
Sridhar et al., "Delta-stepping SSSP: from vertices and edges to GraphBLAS implementations", GrAPL 2019.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import _checks
from ..exceptions import DomainMismatch, InvalidValue
from . import _array as K
from .matrix import DistMatrix, DistVector, _vid_dtype


@dataclass
class DistSSSPResult:
    """Result of :func:`sssp`.

    Attributes
    ----------
    distance : DistVector
        int64 for integer (and bool) weights, float64 for float weights; unreachable
        vertices are absent.
    delta : float
        Bucket width used.
    buckets : int
        Buckets settled.
    rounds : int
        Light-edge relaxation rounds (each one exchange and one allreduce).
    bytes_sent : list of int
        Bytes each rank sent to other ranks over the whole search (index = rank).
    """

    distance: DistVector
    delta: float
    buckets: int
    rounds: int
    bytes_sent: list


def _weights(A):
    """(dtype of distances, local weights as that dtype); bool means unit weights."""
    xp = A.ctx.xp
    if A.dtype == np.bool_ or A.vals is None:
        return np.dtype(np.int64), xp.ones(A.local_nvals, dtype=np.int64)
    if A.dtype.kind in "iu":
        return np.dtype(np.int64), A.vals.astype(np.int64, copy=False)
    return np.dtype(np.float64), A.vals.astype(np.float64, copy=False)


def _global_stats(A, w):
    """(smallest weight, largest |weight|, NaN count, weight sum, smallest positive weight) over all ranks."""
    ctx, xp = A.ctx, A.ctx.xp
    big = np.finfo(np.float64).max
    if w.shape[0]:
        wf = w.astype(np.float64)
        nan = int(xp.isnan(wf).sum())
        ok = wf[~xp.isnan(wf)]
        pos = ok[ok > 0]
        lo = float(ok.min()) if ok.shape[0] else big
        top = float(xp.abs(ok).max()) if ok.shape[0] else 0.0
        total = float(ok.sum())
        minpos = float(pos.min()) if pos.shape[0] else big
    else:
        nan, lo, top, total, minpos = 0, big, 0.0, 0.0, big
    mins = ctx.allreduce(np.array([lo, minpos, -top], dtype=np.float64), "min", "sssp weights")
    sums = ctx.allreduce(np.array([total, nan], dtype=np.float64), "sum", "sssp weights")
    return mins[0], -mins[2], int(sums[1]), sums[0], mins[1]


#: Out-edges expanded at once in a relaxation (bounds the temporaries of a large GPU rank).
_EDGES_PER_CHUNK = 1 << 26


class ArraySSSP:
    """Per-rank state and steps of delta-stepping as whole-array operations (any ``xp``)."""

    def __init__(self, A, w, dtype, delta):
        ctx = A.ctx
        self.ctx, self.xp, self.A, self.w = ctx, ctx.xp, A, w
        self.B, self.P, self.lo, self.nl = A.blocks.B, ctx.size, A.lo, A.nlocal
        self.vdt = _vid_dtype(A.n)
        self.inf = np.iinfo(np.int64).max if dtype == np.int64 else np.inf
        self.dtype, self.delta = dtype, delta
        xp = self.xp
        self.dist = xp.full(self.nl, self.inf, dtype=dtype)
        self.settled = xp.zeros(self.nl, dtype=bool)
        self.members = xp.zeros(self.nl, dtype=bool)
        self.active = xp.zeros(0, dtype=np.int64)

    def start(self, source):
        if self.lo <= source < self.lo + self.nl:
            self.dist[source - self.lo] = 0

    def pending_min(self):
        """Smallest tentative distance of a reached, unsettled vertex of this rank (inf if none)."""
        xp = self.xp
        d = xp.where(self.settled, self.inf, self.dist)
        return self.ctx.to_host(d.min() if d.shape[0] else xp.asarray(self.inf, dtype=self.dtype), "sssp bucket")

    def open_bucket(self, hi):
        """bucket = pending restricted to [lo, hi): the bucket's first active vertices."""
        xp = self.xp
        self.hi = hi
        self.active = xp.nonzero(~self.settled & (self.dist < hi))[0]
        self.members[:] = False
        self.members[self.active] = True
        return int(self.active.shape[0])

    def relax(self, light, what):
        """t = from min.plus A{light|heavy}; exchange; d<changed> = t. Returns the new active count."""
        xp, ctx, A = self.xp, self.ctx, self.A
        rows = self.active if light else xp.nonzero(self.members)[0]
        parts = []
        for rs in K.row_chunks(xp, A.indptr, rows, _EDGES_PER_CHUNK):
            pos, which = K.expand(xp, A.indptr, A.cols, rs)
            w = self.w[pos]
            keep = (w <= self.delta) if light else (w > self.delta)
            pos, which, w = pos[keep], which[keep], w[keep]
            cand = self.dist[rs[which]] + w
            parts.append(K.min_by_key(xp, A.cols[pos].astype(np.int64), cand))
            del pos, which, w, cand, keep
        if len(parts) == 1:
            tgt, cand = parts[0]
        else:  # the smallest candidate per target over the chunks
            tgt, cand = K.min_by_key(xp, xp.concatenate([p[0] for p in parts]), xp.concatenate([p[1] for p in parts]))
        del parts
        send = ctx.to_host(K.owners_counts(xp, tgt, self.B, self.P), "sssp counts").astype(np.int64)
        recv = ctx.alltoall(send, f"{what} (counts)")
        got_t, got_c = ctx.channel.alltoallv([tgt.astype(self.vdt), cand], send, recv, what)
        loc, c = K.min_by_key(xp, got_t.astype(np.int64) - self.lo, got_c)
        better = c < self.dist[loc]
        loc, c = loc[better], c[better]
        self.dist[loc] = c
        if not light:
            return 0
        self.active = loc[c < self.hi]
        self.members[self.active] = True
        return int(self.active.shape[0])

    def settle(self):
        self.settled |= self.members

    def results(self):
        xp = self.xp
        present = self.dist != self.inf
        return xp.where(present, self.dist, 0).astype(self.dtype), present


def sssp(A, source, *, delta=None):
    """Shortest-path lengths from ``source`` by delta-stepping, on P ranks (a collective call).

    Parameters
    ----------
    A : DistMatrix, shape (n, n)
        ``A[i, j]`` is the length of edge i -> j, non-negative; a bool matrix means unit lengths.
    source : int
        The same on every rank.
    delta : float, optional
        Bucket width; default the single-device rule :func:`semiring.algorithms.sssp.auto_delta`
        (mean weight x 32 / mean degree, at least the smallest positive weight) on global sums.

    Returns
    -------
    DistSSSPResult
        ``distance`` as a :class:`DistVector` (``to_vector()`` gathers it), ``delta``, ``buckets``,
        ``rounds`` and the bytes each rank sent.

    Raises
    ------
    InvalidValue
        A negative, NaN or +inf weight, a non-positive delta, not a DistMatrix.
    DomainMismatch
        Integer weights whose path sums could overflow int64.
    IndexOutOfBound
        ``source`` is not a vertex.
    """
    if not isinstance(A, DistMatrix):
        raise InvalidValue(f"sssp: expected a DistMatrix; given {type(A).__name__}")
    source = _checks.vertex(source, A.n, "sssp")
    ctx = A.ctx
    dtype, w = _weights(A)
    wmin, wtop, nan, wsum, minpos = _global_stats(A, w)
    nv = A.nvals
    if nan:
        raise InvalidValue(f"sssp: edge weights must be numbers; given {nan} NaN weights")
    if nv and wmin < 0:
        raise InvalidValue(f"sssp: delta-stepping needs non-negative weights; the smallest is {wmin:g}")
    if not np.isfinite(wtop) or not np.isfinite(wsum):
        raise InvalidValue("sssp: the distributed search needs finite weights whose sum is finite; given a +inf "
                           "weight or weights summing past float64 (semiring.algorithms.sssp gives +inf distances "
                           "for them)")
    if dtype == np.int64 and wtop * max(A.n - 1, 1) >= 2**63:
        raise DomainMismatch(f"sssp: integer weights up to {wtop:g} over paths of up to {A.n - 1} edges can "
                             "overflow the int64 distances; give float64 weights")
    if delta is None:
        if not nv:
            delta = 1.0
        else:
            floor = minpos if minpos < np.finfo(np.float64).max else 1.0
            delta = max((wsum / nv) * 32.0 / max(nv / max(A.n, 1), 1.0), floor)
    elif not (isinstance(delta, (int, float, np.integer, np.floating)) and delta > 0 and np.isfinite(delta)):
        raise InvalidValue(f"sssp: delta must be a positive finite number; given {delta!r}")
    delta = float(delta)
    eng = ArraySSSP(A, w, dtype, delta)
    eng.start(source)
    b0 = ctx.bytes_sent
    buckets = rounds = 0
    while True:
        dmin = ctx.allreduce(eng.pending_min(), "min", "sssp next bucket")
        if dmin == eng.inf:
            break
        buckets += 1
        hi = delta * (np.floor(float(dmin) / delta) + 1)
        if not hi > dmin:  # floating-point rounding put dmin at the top of the bucket below
            hi = float(dmin) + delta
        if not hi > dmin:  # delta below the spacing of the floats at dmin: the next float up
            hi = float(np.nextafter(float(dmin), np.inf))
        count = ctx.allreduce(np.int64(eng.open_bucket(hi)), "sum", f"sssp bucket {buckets}")
        while count:
            rounds += 1
            count = ctx.allreduce(np.int64(eng.relax(True, f"sssp round {rounds}")), "sum", f"sssp round {rounds}")
        eng.relax(False, f"sssp bucket {buckets} (heavy edges)")
        eng.settle()
    by_rank = ctx.allgather_host(np.array([ctx.bytes_sent - b0], dtype=np.int64), "sssp bytes")
    d, present = eng.results()
    return DistSSSPResult(DistVector(ctx, A.n, d, present), delta, buckets, rounds, [int(x) for x in by_rank])


__all__ = ["sssp", "DistSSSPResult", "ArraySSSP"]
