"""Breadth-first search as masked semiring products, direction-optimizing.

Each level is one product over the frontier ``q``, masked by the complement of the visited set:

- push (top-down): ``q<!level.S, replace> = q any.pair A`` (``vxm``, expands the frontier's out-edges);
- pull (bottom-up): ``q<!level.S, replace> = AT any.pair q`` (``mxv`` over the rows of A^T of
  unvisited vertices; the ``any`` monoid's terminal value lets a row stop at its first hit).

With ``parents=True`` the semiring is ``any_secondi`` (``min_secondi`` with
``deterministic=True``): the product's value is the index k of the frontier vertex the edge
came from, i.e. the parent.

``engine="fused"`` (picked by "auto" where it runs) runs the whole search in one backend call:
a persistent kernel on the GPU (``semiring.backends.gpu.traversal``), and on the CPU
``semiring.backends.cpu.traversal``, which runs small levels as scalar loops and large ones
vectorized, so that a deep, narrow search costs no O(n) work per level; where the SuiteSparse
backend and numba are in use, ``semiring.backends.cpu.compiled_traversal``, the same search as
one compiled loop.

``strategy=`` selects instead one of the classic GPU BFS work organizations (vertex- and
edge-centric sweeps, atomic and privatized frontier queues, a single-block multi-level kernel,
degree buckets, node splitting; :data:`STRATEGIES`), each its own level-synchronous
implementation: CuPy RawKernels on a GPU matrix (``semiring.backends.gpu.bfs_strategies``),
the same work organization in NumPy on a CPU matrix (``semiring.backends.cpu.bfs_strategies``).

References
----------
Beamer, Asanovic, Patterson, "Direction-optimizing breadth-first search", SC 2012.
Yang, Buluc, Owens, "Implementing push-pull efficiently in GraphBLAS", ICPP 2018.
LAGraph ``LAGr_BreadthFirstSearch`` (Davis et al.), Graph500 specification 3.0 (BFS kernel).
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from .. import _checks
from .. import core as _core
from ..core.vector import Vector
from ..exceptions import InvalidValue
from ..backends import results as _results
from ..backends.direction import ALPHA, BETA, Beamer
from ..ops import semiring as _semirings
from . import engines as _engines
from .graph import as_graph, edges_of, on_graph_backend

_DIRECTIONS = ("auto", "push", "pull", "edge")
#: The BFS strategies (see :func:`bfs`'s ``strategy``).
STRATEGIES = _engines.BFS_STRATEGIES


@dataclass
class LevelTrace:
    """One BFS level: the direction used, the frontier entering it, and the edges examined.

    Attributes
    ----------
    depth : int
        The level being discovered (1 for the source's neighbours).
    direction : str
        "push", "pull" or "edge".
    frontier : int
        Vertices in the frontier entering the level.
    edges_examined : int
        Push: the out-edges of the frontier; pull: the in-edges of the unvisited vertices (an
        upper bound for the algebra engine, since a row may stop early).
    discovered : int
        Vertices reached for the first time at this level.
    """

    depth: int
    direction: str
    frontier: int
    edges_examined: int
    discovered: int


class LevelTraces(Sequence):
    """The per-level trace of a search: a read-only sequence of :class:`LevelTrace`, kept as
    compact arrays and built into objects on access (a search of a million levels keeps four
    arrays, not a million objects).

    Parameters
    ----------
    directions : array_like of int, shape (levels,)
        Index into :data:`DIRECTION_NAMES` per level.
    frontier, examined, discovered : array_like of int, shape (levels,)
        Frontier size, edges examined and vertices discovered per level.
    """

    #: Direction of each code.
    DIRECTION_NAMES = _results.DIRECTIONS

    def __init__(self, directions=(), frontier=(), examined=(), discovered=()):
        self._dir = np.asarray(directions, dtype=np.int8)
        self._frontier = np.asarray(frontier, dtype=np.int64)
        self._examined = np.asarray(examined, dtype=np.int64)
        self._discovered = np.asarray(discovered, dtype=np.int64)

    @classmethod
    def from_rows(cls, rows):
        """From rows ``(direction name, frontier, examined, discovered)``, one per level."""
        return cls(*_results.trace_columns(rows))

    def __len__(self):
        return int(self._dir.shape[0])

    def _row(self, i):
        return LevelTrace(i + 1, self.DIRECTION_NAMES[self._dir[i]], int(self._frontier[i]), int(self._examined[i]),
                          int(self._discovered[i]))

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self._row(k) for k in range(*i.indices(len(self)))]
        k = operator.index(i)
        if k < 0:
            k += len(self)
        if not 0 <= k < len(self):
            raise IndexError(f"level trace index {i} out of range for {len(self)} levels")
        return self._row(k)

    def __eq__(self, other):
        if isinstance(other, LevelTraces):
            return all(np.array_equal(a, b) for a, b in zip(self.arrays(), other.arrays()))
        if isinstance(other, (list, tuple)):
            return list(self) == list(other)
        return NotImplemented

    def arrays(self):
        """(direction codes, frontier, examined, discovered): the per-level arrays (copies)."""
        return self._dir.copy(), self._frontier.copy(), self._examined.copy(), self._discovered.copy()

    @property
    def directions(self):
        """List of the direction name of every level."""
        return [self.DIRECTION_NAMES[c] for c in self._dir.tolist()]

    @property
    def depth(self):
        """Largest level that discovered a vertex (0 when none did)."""
        hit = np.flatnonzero(self._discovered)
        return int(hit[-1]) + 1 if hit.shape[0] else 0

    def __repr__(self):
        return f"<LevelTraces: {len(self)} levels, depth {self.depth}>"


@dataclass
class BFSResult:
    """Result of :func:`bfs`.

    Attributes
    ----------
    level : Vector of int64, size n
        Hop distance from the source (source 0); unreached vertices are absent.
    parent : Vector of int64, size n, or None
        BFS-tree parent of each reached vertex; ``parent[source] == source``.
    trace : LevelTraces
        Per level a :class:`LevelTrace`: direction, frontier size, edges examined, vertices
        discovered (a sequence; its ``arrays()`` gives the columns as arrays).
    """

    level: Vector
    parent: Vector | None = None
    trace: LevelTraces = field(default_factory=LevelTraces)
    #: "algebra" (one masked product per level), "fused" (the whole search in one backend
    #: call: a persistent kernel on the GPU, :mod:`semiring.backends.cpu.traversal` on the CPU)
    #: or "strategy:<name>" (one of :data:`STRATEGIES`).
    engine: str = "algebra"
    #: Kernel launches and host synchronizations of a GPU fused or strategy run (None for the
    #: algebra engine and the CPU fused engine; a strategy on the CPU counts the launches its
    #: GPU version makes and leaves host_syncs None).
    launches: int | None = None
    host_syncs: int | None = None

    @property
    def depth(self):
        """Largest level reached (0 when only the source is reached)."""
        if isinstance(self.trace, LevelTraces):
            return self.trace.depth
        return max((t.depth for t in self.trace if t.discovered), default=0)


@on_graph_backend
def bfs(A, source, *, parents=False, direction="auto", max_depth=None, deterministic=False, engine="auto",
        strategy=None):
    """Breadth-first search from ``source`` along out-edges.

    Parameters
    ----------
    A : Matrix or Graph, shape (n, n)
        ``A[i, j]`` present means an edge i -> j; values are ignored.
    source : int
        0 <= source < n.
    parents : bool, default False
        Also return a BFS-tree parent for every reached vertex.
    direction : {"auto", "push", "pull", "edge"}
        "auto" switches per level with Beamer's heuristic (:data:`ALPHA`, :data:`BETA`);
        "edge" runs every level edge-centric (one GPU thread per edge; for small graphs).
    max_depth : int, optional
        Stop after this many levels.
    deterministic : bool, default False
        With ``parents``, pick the smallest-index parent (``min_secondi``) instead of any.
    engine : {"auto", "algebra", "fused"}
        "algebra" runs one masked product per level (any backend). "fused" runs the whole
        search in one backend call: on the GPU one persistent kernel with a grid barrier per
        level and no host round trip until it ends (not with ``deterministic``); on the CPU
        :mod:`semiring.backends.cpu.traversal`, small levels as scalar loops and large ones
        vectorized, with no per-level work proportional to n, or one compiled loop
        (:mod:`semiring.backends.cpu.compiled_traversal`) where the SuiteSparse backend and
        numba are in use. Directions auto/push/pull.
        "auto" picks "fused" where it applies (on the CPU for graphs of average degree up to
        ``engines.CPU_FUSED_MAX_DEGREE``, or ``SUITESPARSE_BFS_FUSED_MAX_DEGREE``, any, for a
        graph stored by SuiteSparse). All give the same levels and trace; parents may differ (any valid BFS
        tree; the same with ``deterministic``).
    strategy : str, optional
        None (default) runs the engines above. A name runs that strategy as its own
        level-synchronous implementation (GPU: CuPy RawKernels, one level per launch except
        "single_block"; CPU: the same work organization in NumPy); levels equal the engines',
        parents are any valid BFS parents, ``engine`` of the result is ``"strategy:<name>"``,
        ``launches`` and ``host_syncs`` count what the search did (see :class:`BFSResult`).
        Only ``parents`` and ``max_depth`` combine with it (``direction``, ``engine`` and
        ``deterministic`` must keep their defaults). Pass a Graph to build the per-graph data
        of "edge" and "node_split" once.

        - "vertex_push": vertex-centric push without a frontier: each level one thread per
          vertex; a vertex on the current level writes the next level into its unvisited
          out-neighbours (plain stores, a "changed" flag; Harish and Narayanan 2007).
        - "vertex_pull": one thread per unvisited vertex scans its in-edges and stops at the
          first on the current level (early exit).
        - "edge": edge-centric, one thread per edge (a COO row array built once per graph).
        - "queue_atomic": a frontier queue; each vertex claimed by ``atomicCAS`` is appended
          with a global ``atomicAdd``.
        - "queue_privatized": a block-local queue in shared memory, flushed to the global
          queue with one ``atomicAdd`` per block; a full local queue spills to the global one
          (Luo, Wong and Hwu 2010).
        - "single_block": while the frontier fits one block's shared-memory queue, ONE block
          runs several levels in one launch with ``__syncthreads`` between levels; when a
          level outgrows it, multi-block "queue_privatized" launches take over until the
          frontier is small again (fewer launches; compare ``launches`` with ``depth``).
        - "degree_bucketed": the frontier split by out-degree into three buckets expanded by a
          thread, a warp or a block per vertex (Merrill, Garland and Grimshaw 2012).
        - "node_split": adjacency lists cut into virtual nodes of at most 32 edges (built
          once per graph); each virtual node of the frontier is one work item.

    Returns
    -------
    BFSResult
        ``level`` (int64 Vector), ``parent`` (int64 Vector or None), ``trace``.

    Raises
    ------
    IndexOutOfBound
        ``source`` is not a vertex.
    InvalidValue
        Unknown direction, engine or strategy, max_depth not a non-negative int, parents or
        deterministic not a bool (each checked whether or not the search uses it),
        engine="fused" where it cannot run (direction="edge"; on the GPU deterministic=True),
        a strategy with a direction, engine or deterministic=True, or a strategy on a GPU
        graph with n >= 2**31 - 1.
    OutOfMemory
        The per-vertex arrays of the search do not fit in memory.
    DimensionMismatch
        A is not square.

    Examples
    --------
    >>> import semiring as sr
    >>> A = sr.Matrix.from_coo([0, 0, 1, 2], [1, 2, 3, 3], nrows=4, ncols=4)
    >>> sr.algorithms.bfs(A, 0).level.to_dense(-1).tolist()
    [0, 1, 1, 2]
    >>> r = sr.algorithms.bfs(A, 0, parents=True, strategy="queue_privatized")
    >>> r.level.to_dense(-1).tolist(), r.engine
    ([0, 1, 1, 2], 'strategy:queue_privatized')

    References
    ----------
    Harish, Narayanan, "Accelerating large graph algorithms on the GPU using CUDA", HiPC 2007.
    Luo, Wong, Hwu, "An effective GPU implementation of breadth-first search", DAC 2010.
    Merrill, Garland, Grimshaw, "Scalable GPU graph traversal", PPoPP 2012.
    Hwu, Kirk, El Hajj, "Programming Massively Parallel Processors", 4th ed., 2022, ch. 15.
    """
    G = as_graph(A, "bfs")
    n = G.n
    _check_options(direction, max_depth, parents, deterministic, engine, strategy)
    source = _checks.vertex(source, n, "bfs")
    dev = G.A.device
    choice = _engines.select("bfs", engine, strategy, dev, n, G.nedges, direction=direction,
                             deterministic=deterministic)
    if choice.kind == "strategy":
        return _bfs_strategy(G, source, parents, max_depth, strategy)
    if choice.name == "fused":
        if dev == "gpu":
            return _bfs_fused(G, source, parents, direction, max_depth)
        return _bfs_cpu(G, source, parents, deterministic, direction, max_depth)
    return _bfs_algebra(G, source, parents, deterministic, direction, max_depth)


def _check_options(direction, max_depth, parents, deterministic, engine, strategy):
    """InvalidValue for any option of :func:`bfs` outside its domain, used or not."""
    if not isinstance(direction, str) or direction not in _DIRECTIONS:
        raise InvalidValue(f"bfs: direction must be one of {_DIRECTIONS}; given {direction!r}")
    _checks.depth(max_depth, "bfs", "max_depth")
    _checks.flag(parents, "bfs", "parents")
    _checks.flag(deterministic, "bfs", "deterministic")
    _engines.check_names("bfs", engine, strategy)


def _bfs_algebra(G, source, parents, deterministic, direction, max_depth):
    """One masked product per level (any device)."""
    n = G.n
    dev = G.A.device
    level = Vector.from_coo([source], [0], size=n, dtype="int64", device=dev)
    if parents:
        s = _semirings.min_secondi if deterministic else _semirings.any_secondi
        parent = Vector.from_coo([source], [source], size=n, dtype="int64", device=dev)
        q = Vector.from_coo([source], [source], size=n, dtype="int64", device=dev)
    else:
        s = _semirings.any_pair
        parent = None
        q = Vector.from_coo([source], [True], size=n, dtype="bool", device=dev)
    rows = []
    rule = Beamer(n, G.nedges, "push" if direction == "edge" else direction)
    depth = 0
    nq = q.nvals
    while nq and (max_depth is None or depth < max_depth):
        depth += 1
        frontier_edges = edges_of(G, q, G.out_degree)
        use_pull = rule.next(nq, frontier_edges)
        # q is written in place (replace: the old frontier is inside level, outside the mask)
        if use_pull:
            if G.kind == "undirected":  # in-degree = out-degree: every visited vertex was a frontier
                unvisited_edges = rule.unexplored - frontier_edges
            else:
                unvisited_edges = G.nedges - edges_of(G, level, G.in_degree)
            # q<!level.S, replace> = AT any.pair q   (secondi: the frontier index k)
            _core.mxv(G.AT, q, s, mask=~level.S, replace=True, out=q, direction="pull")
            examined = unvisited_edges
        elif direction == "edge":
            # q<!level.S, replace> = q any.pair A, one thread per edge of A
            _core.vxm(q, G.A, s, mask=~level.S, replace=True, out=q, direction="edge")
            examined = G.nedges
        else:
            # q<!level.S, replace> = q any.pair A
            _core.vxm(q, G.A, s, mask=~level.S, replace=True, out=q, direction="push")
            examined = frontier_edges
        rule.advance(nq, frontier_edges)
        used = "pull" if use_pull else ("edge" if direction == "edge" else "push")
        discovered = q.nvals
        rows.append((used, nq, examined, discovered))
        nq = discovered
        if not nq:
            break
        # level<q.S> = depth
        _core.assign(level, depth, None, mask=q.S)
        if parents:
            # parent<q.S> = q
            _core.assign(parent, q, None, mask=q.S)
    return BFSResult(level, parent, LevelTraces.from_rows(rows))


def _bfs_cpu(G, source, parents, deterministic, direction, max_depth):
    """The whole search in one call: compiled (semiring.backends.cpu.compiled_traversal) where
    the compiled CPU loops run, else semiring.backends.cpu.traversal."""
    from ..backends.cpu import _jit

    if _jit.enabled():
        from ..backends.cpu import compiled_traversal as traversal

        # the structure with int32 indices where they fit, once per graph (A^T: A itself when
        # undirected)
        optr, oidx = G.narrow_csr

        def in_edges():
            return G.narrow_csc
    else:
        from ..backends.cpu import traversal

        optr, oidx = G.A._indptr, G.A._indices

        def in_edges():
            return G.AT._indptr, G.AT._indices

    r = traversal.bfs(optr, oidx, source, in_edges=in_edges, parents=parents, deterministic=deterministic,
                      direction=direction, max_depth=max_depth)
    return _result(r, parents, "fused", None)


def _bfs_fused(G, source, parents, direction, max_depth):
    """The whole search in one persistent kernel (semiring.backends.gpu.traversal)."""
    from ..backends.gpu import traversal

    r = traversal.bfs(G.A, G.AT, source, parents=parents, direction=direction, max_depth=max_depth)
    # one launch more with parents: the copy of ``present`` for the parent Vector
    return _result(r, parents, "fused", r.launches + (1 if parents else 0))


def _bfs_strategy(G, source, parents, max_depth, strategy):
    """One of the BFS strategies (semiring.backends.{cpu,gpu}.bfs_strategies)."""
    if G.A.device == "gpu":
        from ..backends.gpu import bfs_strategies as impl
    else:
        from ..backends.cpu import bfs_strategies as impl

    def in_edges():
        return G.AT._indptr, G.AT._indices

    # the edge rows and the node split are kept on G, built on first use
    r = impl.bfs(strategy, G.A._indptr, G.A._indices, source, parents=parents, max_depth=max_depth,
                 in_edges=in_edges, rows=lambda: G.edge_rows, splits=G.node_split)
    return _result(r, parents, f"strategy:{strategy}", r.launches)


def _result(r, parents, engine, launches):
    """The BFSResult of a backend's :class:`~semiring.backends.results.TraversalResult`."""
    level = Vector._from_bitmap("int64", r.present, r.level, r.nvals)
    parent = Vector._from_bitmap("int64", r.present.copy(), r.parent, r.nvals) if parents else None
    return BFSResult(level, parent, LevelTraces(*r.trace), engine, launches, r.host_syncs)


__all__ = ["bfs", "BFSResult", "LevelTrace", "LevelTraces", "STRATEGIES", "ALPHA", "BETA"]
