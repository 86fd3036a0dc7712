"""Distributed breadth-first search, direction-optimizing, on a 1D row-block partition.

Each rank owns a block of vertices, their levels and parents, and their out-edges (for
push) and in-edges (for pull; the same rows for an undirected graph). A level is one masked
product of the single-device engine, split around one exchange:

- push (top-down): ``q<!level.S, replace> = q any.pair A``. Each rank expands its frontier's
  out-edges, keeps one (target, parent) per target, and sends the targets to their owners
  (all-to-all-v); the owner keeps the ones it has not visited.
- pull (bottom-up): ``q<!level.S, replace> = AT any.pair q``. The frontier is allgathered as
  an n-bit bitmap; each rank scans the in-edges of its unvisited vertices and stops a row at
  its first frontier neighbour (the ``any`` monoid's terminal value).

The direction of each level comes from the rule of every BFS engine
(:class:`semiring.backends.direction.Beamer`, with its ALPHA and BETA) on the global frontier
size and edge counts, which
one allreduce per level gives every rank: all ranks take the same decision, and the search
takes the same directions as the single-process one.

References
----------
Beamer, Asanovic, Patterson, "Direction-optimizing breadth-first search", SC 2012.
Beamer, Buluc, Asanovic, Patterson, "Distributed memory breadth-first search revisited:
enabling bottom-up search", IPDPSW 2013 (the 1D bitmap allgather for bottom-up levels).
Buluc, Madduri, "Parallel breadth-first search on distributed memory systems", SC 2011.
Graph500 specification 3.0 (BFS kernel and its validation).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .. import _checks
from ..backends.direction import ALPHA, BETA, Beamer
from ..exceptions import InvalidValue
from ._array import ArrayBFS
from ._cuda import CudaBFS
from .matrix import DistMatrix, DistVector

_DIRECTIONS = ("auto", "push", "pull")
_KERNELS = ("auto", "array", "cuda")


@dataclass
class DistLevelTrace:
    """One level of a distributed BFS.

    Attributes
    ----------
    depth : int
    direction : {"push", "pull"}
    frontier : int
        Vertices entering the level (all ranks).
    edges_examined : int
        push: out-edges of the frontier; pull: in-edges of the unvisited vertices (an upper
        bound: a row stops at its first hit).
    discovered : int
        Vertices reached at this level (all ranks).
    bytes_sent : list of int
        Bytes each rank sent to other ranks in this level's exchange (index = rank).
    """

    depth: int
    direction: str
    frontier: int
    edges_examined: int
    discovered: int
    bytes_sent: list = field(default_factory=list)


@dataclass
class DistBFSResult:
    """Result of :func:`bfs`: ``level`` (int64 DistVector, source 0, unreached absent),
    ``parent`` (int64 DistVector or None; ``parent[source] == source``), ``trace``
    (list of :class:`DistLevelTrace`) and ``kernels`` ("array" or "cuda")."""

    level: DistVector
    parent: DistVector | None
    trace: list
    kernels: str = "array"

    @property
    def depth(self):
        """Largest level reached."""
        return max((t.depth for t in self.trace if t.discovered), default=0)


def _engine(A, AT, parents, kernels):
    if kernels == "auto":
        kernels = "cuda" if A.ctx.device == "gpu" and _cuda_ok() else "array"
    if kernels == "cuda":
        if A.ctx.device != "gpu":
            raise InvalidValue("bfs: kernels='cuda' needs a GPU context (device='gpu')")
        return CudaBFS(A, AT, parents), "cuda"
    return ArrayBFS(A, AT, parents), "array"


def _cuda_ok():
    try:
        import cupy

        return hasattr(cupy, "RawModule")
    except ImportError:
        return False


def bfs(A, source, *, parents=False, direction="auto", max_depth=None, kernels="auto"):
    """Breadth-first search from ``source`` along out-edges, on P ranks (a collective call).

    Parameters
    ----------
    A : DistMatrix, shape (n, n)
        ``A[i, j]`` present means an edge i -> j; values are ignored.
    source : int
        0 <= source < n, the same on every rank.
    parents : bool, default False
        Also compute a BFS-tree parent of every reached vertex (push levels then send
        (vertex, parent) pairs: twice the bytes).
    direction : {"auto", "push", "pull"}
        "auto" switches per level with the single-device heuristic (ALPHA, BETA).
    max_depth : int, optional
        Stop after this many levels.
    kernels : {"auto", "array", "cuda"}
        "array": whole-array steps (NumPy or CuPy); "cuda": fused CUDA kernels on GPU ranks
        (one kernel for the expansion, one for the update per level). "auto" picks "cuda" on GPUs.

    Returns
    -------
    DistBFSResult
        ``level`` and ``parent`` as :class:`DistVector` (``to_vector()`` gathers them), and a
        per-level trace with the bytes every rank sent.

    Raises
    ------
    IndexOutOfBound
        ``source`` is not a vertex.
    InvalidValue
        Not a DistMatrix, unknown direction or kernels, negative max_depth.

    Examples
    --------
    Under ``mpiexec -n 2 python script.py``::

        import semiring.distributed as dist
        A = dist.kronecker(16)
        r = dist.bfs(A, 0)
        level = r.level.to_vector()     # a semiring.Vector on every rank
    """
    if not isinstance(A, DistMatrix):
        raise InvalidValue(f"bfs: expected a DistMatrix; given {type(A).__name__}")
    if direction not in _DIRECTIONS:
        raise InvalidValue(f"bfs: direction must be one of {_DIRECTIONS}; given {direction!r}")
    if kernels not in _KERNELS:
        raise InvalidValue(f"bfs: kernels must be one of {_KERNELS}; given {kernels!r}")
    _checks.depth(max_depth, "bfs", "max_depth")
    source = _checks.vertex(source, A.n, "bfs")
    ctx, n = A.ctx, A.n
    AT = A.T if A.kind == "directed" else A
    eng, used = _engine(A, AT, parents, kernels)
    g = ctx.allreduce(eng.start(source), "sum", "bfs start")
    nq, frontier_edges, visited_in = int(g[0]), int(g[1]), int(g[2])
    nedges = A.nvals
    rule = Beamer(n, nedges, direction)
    depth = 0
    trace, sent = [], []
    while nq and (max_depth is None or depth < max_depth):
        depth += 1
        use_pull = rule.next(nq, frontier_edges)
        b0 = ctx.bytes_sent
        if use_pull:
            examined = nedges - visited_in
            st = eng.pull(depth)
        else:
            examined = frontier_edges
            st = eng.push(depth)
        g = ctx.allreduce(st, "sum", f"bfs level {depth}")
        sent.append(ctx.bytes_sent - b0)
        rule.advance(nq, frontier_edges)
        trace.append(DistLevelTrace(depth, "pull" if use_pull else "push", nq, examined, int(g[0])))
        nq, frontier_edges = int(g[0]), int(g[1])
        visited_in += int(g[2])
    by_rank = ctx.allgather_host(np.asarray(sent, dtype=np.int64).reshape(1, -1), "bfs trace") \
        if sent else np.zeros((ctx.size, 0), np.int64)
    by_rank = by_rank.reshape(ctx.size, -1)
    for i, t in enumerate(trace):
        t.bytes_sent = [int(x) for x in by_rank[:, i]]
    level, present, parent = eng.results()
    lv = DistVector(ctx, n, level, present)
    pa = None if parent is None else DistVector(ctx, n, parent, present.copy())
    return DistBFSResult(lv, pa, trace, used)


__all__ = ["bfs", "DistBFSResult", "DistLevelTrace", "ArrayBFS", "ALPHA", "BETA"]
