"""A graph: an adjacency Matrix plus the properties algorithms keep asking for, computed once.

Modelled on LAGraph's ``LAGraph_Graph`` (Mattson et al., "LAGraph: a community effort to
collect graph algorithms built on top of the GraphBLAS", GrAPL 2019; Szarnyas et al.,
"LAGraph: linear algebra, network analysis libraries, and the study of graph algorithms",
IPDPSW 2021): the transpose, the degrees and the symmetry are cached properties.

The cached properties belong to one content version of ``G.A`` (``Matrix._version``, which
every write of the matrix changes): after ``G.A`` is written, the graph starts a new, empty
set of them, so no write leaves a stale degree, symmetry or per-algorithm item behind.

Several threads may run algorithms on one Graph at the same time. Every cached property and
every item of ``G.cache`` is published whole, with one assignment, and never replaced; the
costly ones are built once, under the graph's lock (:meth:`Graph.cached`; ``semiring._once``
states the rules). Writing ``G.A`` while another thread uses the graph is the caller's race;
once the write has returned, what the graph serves is built from the new content.
"""

from __future__ import annotations

import functools

from .. import core as _core
from .._once import lock_of, once_item, versioned
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
        self._given_kind = kind
        self._derived = None  # (A's content version, _Derived), see _state

    @property
    def _version(self):
        return self.A._version

    def _state(self):
        """The derived data of A's current content (a new, empty set after each write of A)."""
        return versioned(self, "_derived", _Derived)

    @property
    def cache(self):
        """Derived data algorithms compute once per graph (weights, weight ranges, the SSSP
        light/heavy split, patterns); like ``AT`` and the degrees, for A's current content.

        A dict whose items are only added, each whole and once: through :meth:`cached`, or
        (cheap arrays of the BFS strategies) with ``dict.setdefault``; never changed or removed.
        Writing A gives the graph a new, empty dict."""
        return self._state().cache

    def cached(self, key, build):
        """``self.cache[key]``, computed by ``build()`` on first use.

        The build runs under the graph's lock, so threads asking for the same item at the same
        time compute it once; the finished value is stored with one assignment.

        Parameters
        ----------
        key : hashable
            The item's name in ``self.cache`` (e.g. ``("sssp_split", delta)``).
        build : callable
            ``build()`` returns the finished value; it may read other cached data of this graph.

        Returns
        -------
        object
            The cached value; the same object for every caller.

        Raises
        ------
        Exception
            Whatever ``build`` raises (e.g. InvalidValue for an input the algorithm refuses);
            nothing is stored then, and the next call builds again.
        """
        return once_item(self._state().cache, key, build, lock_of(self))

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
        if self._given_kind is not None:
            return self._given_kind
        return once_item(self._state().props, "kind", lambda: "undirected" if self.is_symmetric() else "directed",
                         lock_of(self))

    def is_symmetric(self):
        """True if A equals its transpose (structure and values)."""
        return self.A.isequal(self.A.T)

    @property
    def out_degree(self):
        """int64 Vector: number of out-edges of each vertex (absent where 0)."""
        # d = reduce_rowwise(one(A), plus)
        return once_item(self._state().props, "out_degree",
                         lambda: _core.reduce_rowwise(_pattern_int(self.A), monoid.plus), lock_of(self))

    @property
    def in_degree(self):
        """int64 Vector: number of in-edges of each vertex (absent where 0)."""
        # d = reduce_columnwise(one(A), plus)
        return once_item(self._state().props, "in_degree",
                         lambda: (self.out_degree if self.kind == "undirected"
                                  else _core.reduce_columnwise(_pattern_int(self.A), monoid.plus)), lock_of(self))

    def __repr__(self):
        kind = self._given_kind or self._state().props.get("kind", "kind unknown")
        return f"<Graph n={self.n} entries={self.nedges} {kind}>"


class _Derived:
    """What a Graph derives from one content version of its matrix: ``props`` (kind, degrees)
    and ``cache`` (the algorithms' per-graph data); both dicts whose items are only added."""

    __slots__ = ("props", "cache")

    def __init__(self):
        self.props = {}
        self.cache = {}


def _pattern_int(A):
    """The structure of A with int64 ones."""
    # P = one(A), typecast to int64
    return _core.apply(A, unary.one).dup("int64")


def as_graph(A, what):
    """A Graph for a Matrix or Graph argument.

    A Matrix remembers the Graph built for it (its transpose, degrees, symmetry and every
    algorithm's per-graph data) until it is next written, so an algorithm called again on the
    same Matrix costs what it costs on a Graph. Built once when several threads ask."""
    if isinstance(A, Graph):
        return A
    if isinstance(A, Matrix):
        # remembered per content version of A (Matrix._version): a write makes the next call build anew
        return versioned(A, "_graph", lambda: Graph(A))
    raise InvalidValue(f"{what}: expected a Matrix or Graph; given {type(A).__name__}")


def edges_of(G, vertices, degree):
    """Sum of ``degree`` over the entries of ``vertices`` (the edges a frontier touches)."""
    # e = plus_reduce(degree<vertices.S>)
    return int(_core.reduce_scalar(_core.ewise_mult(vertices, degree, binary.second), monoid.plus))


__all__ = ["Graph", "as_graph", "edges_of"]


def on_graph_backend(fn):
    """Decorator of the public algorithms: the containers the algorithm makes are stored by the
    CPU backend of the graph it is given (its first argument, a Matrix or a :class:`Graph`), so
    that a SuiteSparse graph is searched with SuiteSparse vectors, each step one GraphBLAS call,
    whatever the default CPU backend is."""

    @functools.wraps(fn)
    def inner(A, *args, **kwargs):
        M = A.A if isinstance(A, Graph) else A
        backend = getattr(M, "backend", None) if getattr(M, "device", None) == "cpu" else None
        if backend is None:
            return fn(A, *args, **kwargs)
        from ..backends import cpu_backend, use_cpu_backend

        if backend == cpu_backend():
            return fn(A, *args, **kwargs)
        with use_cpu_backend(backend):
            return fn(A, *args, **kwargs)

    return inner
