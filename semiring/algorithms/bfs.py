"""Breadth-first search as masked semiring products, direction-optimizing.

Each level is one product over the frontier ``q``, masked by the complement of the visited set:

- push (top-down): ``q<!level.S, replace> = q any.pair A`` (``vxm``, expands the frontier's out-edges);
- pull (bottom-up): ``q<!level.S, replace> = AT any.pair q`` (``mxv`` over the rows of A^T of
  unvisited vertices; the ``any`` monoid's terminal value lets a row stop at its first hit).

With ``parents=True`` the semiring is ``any_secondi`` (``min_secondi`` with
``deterministic=True``): the product's value is the index k of the frontier vertex the edge
came from, i.e. the parent.

References
----------
Beamer, Asanovic, Patterson, "Direction-optimizing breadth-first search", SC 2012.
Yang, Buluc, Owens, "Implementing push-pull efficiently in GraphBLAS", ICPP 2018.
LAGraph ``LAGr_BreadthFirstSearch`` (Davis et al.), Graph500 specification 3.0 (BFS kernel).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .. import core as _core
from ..core.vector import Vector
from ..exceptions import InvalidValue
from ..ops import semiring as _semirings
from .graph import as_graph, check_source, edges_of, use_fused

#: Switch push -> pull when the frontier's out-edges exceed the unexplored edges / ALPHA
#: (Beamer et al. SC'12 and the GAP benchmark suite use 15; LAGraph uses 8).
ALPHA = 15.0
#: Switch pull -> push when the frontier has fewer than n / BETA vertices and is shrinking
#: (GAP uses 18; LAGraph's beta1 = 8, beta2 = 512 play the same role).
BETA = 18.0
_DIRECTIONS = ("auto", "push", "pull", "edge")


@dataclass
class LevelTrace:
    """One BFS level: the direction used, the frontier entering it, and the edges examined
    (push: out-edges of the frontier; pull: in-edges of the unvisited vertices, an upper bound
    since a row may stop early)."""

    depth: int
    direction: str
    frontier: int
    edges_examined: int
    discovered: int


@dataclass
class BFSResult:
    """Result of :func:`bfs`.

    Attributes
    ----------
    level : Vector of int64, size n
        Hop distance from the source (source 0); unreached vertices are absent.
    parent : Vector of int64, size n, or None
        BFS-tree parent of each reached vertex; ``parent[source] == source``.
    trace : list of LevelTrace
        Per level: direction, frontier size, edges examined, vertices discovered.
    """

    level: Vector
    parent: Vector | None = None
    trace: list = field(default_factory=list)
    #: "algebra" (one masked product per level) or "fused" (one device-resident kernel).
    engine: str = "algebra"
    #: Kernel launches and host synchronizations of a fused run (None for the algebra engine).
    launches: int | None = None
    host_syncs: int | None = None

    @property
    def depth(self):
        """Largest level reached (0 when only the source is reached)."""
        return max((t.depth for t in self.trace if t.discovered), default=0)


def bfs(A, source, *, parents=False, direction="auto", max_depth=None, deterministic=False, engine="auto"):
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
        search as one persistent GPU kernel with a grid barrier per level and no host round
        trip until it ends (GPU only; directions auto/push/pull; not with ``deterministic``).
        "auto" picks "fused" where it applies. Both give the same levels; parents may differ
        (any valid BFS tree).

    Returns
    -------
    BFSResult
        ``level`` (int64 Vector), ``parent`` (int64 Vector or None), ``trace``.

    Raises
    ------
    IndexOutOfBound
        ``source`` is not a vertex.
    InvalidValue
        Unknown direction or engine, negative max_depth, or engine="fused" where it cannot
        run (CPU matrix, direction="edge", deterministic=True).
    DimensionMismatch
        A is not square.

    Examples
    --------
    >>> import semiring as sr
    >>> A = sr.Matrix.from_coo([0, 0, 1, 2], [1, 2, 3, 3], nrows=4, ncols=4)
    >>> sr.algorithms.bfs(A, 0).level.to_dense(-1).tolist()
    [0, 1, 1, 2]
    """
    G = as_graph(A, "bfs")
    n = G.n
    if direction not in _DIRECTIONS:
        raise InvalidValue(f"bfs: direction must be one of {_DIRECTIONS}; given {direction!r}")
    if max_depth is not None and (isinstance(max_depth, (bool, np.bool_))
                                  or not isinstance(max_depth, (int, np.integer)) or max_depth < 0):
        raise InvalidValue(f"bfs: max_depth must be a non-negative int or None; given {max_depth!r}")
    source = check_source(source, n, "bfs")
    if use_fused(G, engine, "bfs", (direction == "edge", "direction='edge' is an algebra strategy"),
                 (deterministic, "deterministic parents need the min_secondi product")):
        return _bfs_fused(G, source, parents, direction, max_depth)
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
    trace = []
    use_pull = direction == "pull"
    unexplored = G.nedges
    nq_last = 0
    depth = 0
    while q.nvals and (max_depth is None or depth < max_depth):
        depth += 1
        nq = q.nvals
        frontier_edges = edges_of(G, q, G.out_degree)
        if direction == "auto":
            if not use_pull:
                use_pull = nq > nq_last and frontier_edges > unexplored / ALPHA
            else:
                use_pull = not (nq < nq_last and nq < n / BETA)
        if use_pull:
            if G.kind == "undirected":  # in-degree = out-degree: every visited vertex was a frontier
                unvisited_edges = unexplored - frontier_edges
            else:
                unvisited_edges = G.nedges - edges_of(G, level, G.in_degree)
            # q<!level.S, replace> = AT any.pair q   (secondi: the frontier index k)
            q = _core.mxv(G.AT, q, s, mask=~level.S, direction="pull")
            examined = unvisited_edges
        elif direction == "edge":
            # q<!level.S, replace> = q any.pair A, one thread per edge of A
            q = _core.vxm(q, G.A, s, mask=~level.S, direction="edge")
            examined = G.nedges
        else:
            # q<!level.S, replace> = q any.pair A
            q = _core.vxm(q, G.A, s, mask=~level.S, direction="push")
            examined = frontier_edges
        unexplored -= frontier_edges
        nq_last = nq
        used = "pull" if use_pull else ("edge" if direction == "edge" else "push")
        trace.append(LevelTrace(depth, used, nq, examined, q.nvals))
        if not q.nvals:
            break
        # level<q.S> = depth
        _core.assign(level, depth, None, mask=q.S)
        if parents:
            # parent<q.S> = q
            _core.assign(parent, q, None, mask=q.S)
    return BFSResult(level, parent, trace)


def _bfs_fused(G, source, parents, direction, max_depth):
    """The whole search in one persistent kernel (semiring.backends.gpu.traversal)."""
    from ..backends.gpu import traversal

    lv, reached, pa, steps, launches, syncs = traversal.bfs(G.A, G.AT, source, parents=parents,
                                                            direction=direction, max_depth=max_depth,
                                                            alpha=ALPHA, beta=BETA)
    nvals = 1 + sum(s[3] for s in steps)
    level = Vector._from_bitmap("int64", reached, lv, nvals)
    parent = Vector._from_bitmap("int64", reached.copy(), pa, nvals) if parents else None
    trace = [LevelTrace(i + 1, d, f, e, disc) for i, (d, f, e, disc) in enumerate(steps)]
    return BFSResult(level, parent, trace, "fused", launches + (1 if parents else 0), syncs)
