"""A graph: an adjacency Matrix plus the properties algorithms keep asking for, computed once.

Modelled on LAGraph's ``LAGraph_Graph`` (Mattson et al., "LAGraph: a community effort to
collect graph algorithms built on top of the GraphBLAS", GrAPL 2019; Szarnyas et al.,
"LAGraph: linear algebra, network analysis libraries, and the study of graph algorithms",
IPDPSW 2021): the transpose, the degrees and the symmetry are cached properties.
"""

from __future__ import annotations

import numpy as np

from .. import core as _core
from ..core.matrix import Matrix
from ..exceptions import DimensionMismatch, InvalidValue
from ..ops import binary, monoid, unary


class Graph:
    """An adjacency matrix with cached transpose, degrees and symmetry.

    Parameters
    ----------
    A : Matrix, shape (n, n)
        ``A[i, j]`` present means an edge i -> j (weight = value).
    kind : {"directed", "undirected", None}
        None decides by checking symmetry (once). "undirected" asserts A is symmetric
        (then ``AT`` is A itself).

    Raises
    ------
    DimensionMismatch
        A is not square.
    InvalidValue
        A is not a Matrix, or ``kind`` is unknown.
    """

    def __init__(self, A, kind=None):
        if isinstance(A, Graph):
            A = A.A
        if not isinstance(A, Matrix):
            raise InvalidValue(f"Graph: expected a Matrix; given {type(A).__name__}")
        if A.nrows != A.ncols:
            raise DimensionMismatch(f"Graph: an adjacency matrix must be square; given {A.nrows}x{A.ncols}")
        if kind not in (None, "directed", "undirected"):
            raise InvalidValue(f"Graph: kind must be 'directed', 'undirected' or None; given {kind!r}")
        self.A = A
        self._kind = kind
        self._out_degree = self._in_degree = None
        #: Derived data algorithms compute once per graph (weights, weight ranges, the SSSP
        #: light/heavy split, patterns); like ``AT`` and the degrees, valid while A is unchanged.
        self.cache = {}

    @property
    def n(self):
        """Number of vertices."""
        return self.A.nrows

    @property
    def nedges(self):
        """Number of stored entries of A (each undirected edge counts twice)."""
        return self.A.nvals

    @property
    def AT(self):
        """The transpose (in-edges), computed once; A itself for an undirected graph."""
        return self.A if self.kind == "undirected" else self.A.T

    @property
    def kind(self):
        """"directed" or "undirected" (checked once when not given)."""
        if self._kind is None:
            self._kind = "undirected" if self.is_symmetric() else "directed"
        return self._kind

    def is_symmetric(self):
        """True if A equals its transpose (structure and values)."""
        return self.A.isequal(self.A.T)

    @property
    def out_degree(self):
        """int64 Vector: number of out-edges of each vertex (absent where 0)."""
        if self._out_degree is None:
            # d = reduce_rowwise(one(A), plus)
            self._out_degree = _core.reduce_rowwise(_pattern_int(self.A), monoid.plus)
        return self._out_degree

    @property
    def in_degree(self):
        """int64 Vector: number of in-edges of each vertex (absent where 0)."""
        if self._in_degree is None:
            self._in_degree = (self.out_degree if self.kind == "undirected"
                               else _core.reduce_columnwise(_pattern_int(self.A), monoid.plus))
        return self._in_degree

    def __repr__(self):
        return f"<Graph n={self.n} entries={self.nedges} {self._kind or 'kind unknown'}>"


def _pattern_int(A):
    """The structure of A with int64 ones."""
    # P = one(A), typecast to int64
    return _core.apply(A, unary.one).dup("int64")


def as_graph(A, what):
    """A Graph for a Matrix or Graph argument."""
    if isinstance(A, Graph):
        return A
    if isinstance(A, Matrix):
        return Graph(A)
    raise InvalidValue(f"{what}: expected a Matrix or Graph; given {type(A).__name__}")


def check_source(source, n, what):
    """The source as an int; IndexOutOfBound if it is not a vertex, InvalidValue if not an integer."""
    from ..exceptions import IndexOutOfBound

    if isinstance(source, (bool, np.bool_)) or not isinstance(source, (int, np.integer)):
        raise InvalidValue(f"{what}: source must be an integer vertex index; given {source!r}")
    if not 0 <= source < n:
        raise IndexOutOfBound(f"{what}: source must be a vertex in 0..{n - 1}; given {source}")
    return int(source)


def edges_of(G, vertices, degree):
    """Sum of ``degree`` over the entries of ``vertices`` (the edges a frontier touches)."""
    # e = plus_reduce(degree<vertices.S>)
    return int(_core.reduce_scalar(_core.ewise_mult(vertices, degree, binary.second), monoid.plus))


ENGINES = ("auto", "algebra", "fused")


def use_fused(G, engine, what, *reasons, cpu=False):
    """Whether an algorithm runs as its whole-search engine (one backend call).

    ``reasons`` are (condition, why) pairs, each saying why that engine cannot run here; on
    the GPU, vertex ids beyond int32 are always checked, and on the CPU the algorithm must have
    a CPU engine (``cpu=True``). "auto" picks the engine when no reason holds; "fused" raises
    InvalidValue with the first reason.
    """
    if not isinstance(engine, str) or engine not in ENGINES:
        raise InvalidValue(f"{what}: engine must be one of {ENGINES}; given {engine!r}")
    if engine == "algebra":
        return False
    if G.A.device == "gpu":
        checks = ((G.n >= 2**31 - 1, "vertex ids do not fit in int32"),) + reasons
    else:
        checks = ((not cpu, "the graph is on the CPU"),) + reasons
    why = next((w for cond, w in checks if cond), None)
    if why and engine == "fused":
        raise InvalidValue(f"{what}: engine='fused' cannot run here: {why}")
    return why is None


__all__ = ["Graph", "as_graph", "edges_of", "check_source", "use_fused", "ENGINES"]
