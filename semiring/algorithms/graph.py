"""A graph: an adjacency Matrix plus the data algorithms derive from it, each computed once.

Modelled on LAGraph's ``LAGraph_Graph`` (Mattson et al., "LAGraph: a community effort to
collect graph algorithms built on top of the GraphBLAS", GrAPL 2019; Szarnyas et al.,
"LAGraph: linear algebra, network analysis libraries, and the study of graph algorithms",
IPDPSW 2021): the transpose, the degrees and the symmetry are cached properties. So is every
other item an algorithm derives from the matrix and reads again on its next call, each through
one named accessor of :class:`Graph`, so that this class lists all a Graph can hold:

- structure: :attr:`~Graph.kind`, :attr:`~Graph.out_degree`, :attr:`~Graph.in_degree`,
  :meth:`~Graph.pattern`, :meth:`~Graph.offdiag_pattern`, :attr:`~Graph.undirected_pattern`,
  :attr:`~Graph.offdiag_degrees`, :attr:`~Graph.unmirrored`, :attr:`~Graph.nan_count`,
  :attr:`~Graph.float64_weights`;
- the arrays of the whole-search loops: :attr:`~Graph.narrow_csr`, :attr:`~Graph.narrow_csc`,
  :attr:`~Graph.edge_rows`, :meth:`~Graph.node_split`;
- the per-algorithm items (their builders live in the algorithm's module):
  ``sssp_*``, ``apsp_*``, ``pagerank_links``, ``triangle_*``, ``community_weights``,
  ``louvain_start``, ``partition_*`` (:mod:`semiring.algorithms._graph_items`).

The derived data belong to one content version of ``G.A`` (``Matrix._version``, which every
write of the matrix changes): after ``G.A`` is written, the graph starts a new, empty set, so
no write leaves a stale degree, symmetry or per-algorithm item behind.

Several threads may run algorithms on one Graph at the same time. Every item is published
whole, with one assignment, and never replaced; it is built once, under the graph's lock
(``semiring._once`` states the rules), and a build may read other items of the same graph
(the lock is reentrant). Writing ``G.A`` while another thread uses the graph is the caller's
race; once the write has returned, what the graph serves is built from the new content.
"""

from __future__ import annotations

import functools

import numpy as np

from .. import core as _core
from .._once import lock_of, once_item, versioned
from ..backends._xp import xp_of
from ..core.matrix import Matrix
from ..core.vector import Vector
from ..exceptions import DimensionMismatch, InvalidValue
from ..ops import binary, indexunary, monoid, semiring, unary
from ._graph_items import AlgorithmItems


class Graph(AlgorithmItems):
    """An adjacency matrix with the data algorithms derive from it, each computed once.

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

    Notes
    -----
    Every derived item is built on first use, for A's current content, and kept until A is
    next written (see the module docstring for the rules under threads).
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
        self._derived = None  # (A's content version, dict of the derived items), see _items

    # -- the store ---------------------------------------------------------------------------
    @property
    def _version(self):
        return self.A._version

    def _items(self):
        """The derived items of A's current content (a new, empty dict after each write of A),
        keyed by accessor name, or ``(name, parameter)`` for an accessor with a parameter."""
        return versioned(self, "_derived", dict)

    def _once(self, name, build, key=None):
        """The item of accessor ``name`` (for parameter ``key``), built by ``build()`` on first
        use under the graph's lock and published with one assignment; what ``build`` raises is
        raised and nothing is stored (the next call builds again)."""
        return once_item(self._items(), name if key is None else (name, key), build, lock_of(self))

    def derived(self):
        """The derived items built so far for A's current content (a snapshot, for inspection).

        Returns
        -------
        dict
            accessor name (or ``(name, parameter)``) -> the item that accessor returns.
        """
        return dict(self._items())

    # -- the graph ---------------------------------------------------------------------------
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
        return self._once("kind", lambda: "undirected" if self.is_symmetric() else "directed")

    def is_symmetric(self):
        """True if A equals its transpose (structure and values)."""
        return self.A.isequal(self.A.T)

    @property
    def out_degree(self):
        """int64 Vector: number of out-edges of each vertex (absent where 0)."""
        # d = reduce_rowwise(one(A), plus)
        return self._once("out_degree", lambda: _core.reduce_rowwise(_ones(self.A, "int64"), monoid.plus))

    @property
    def in_degree(self):
        """int64 Vector: number of in-edges of each vertex (absent where 0)."""
        # d = reduce_columnwise(one(A), plus)
        return self._once("in_degree", lambda: (self.out_degree if self.kind == "undirected"
                                                else _core.reduce_columnwise(_ones(self.A, "int64"), monoid.plus)))

    # -- structure ---------------------------------------------------------------------------
    def pattern(self, dtype="bool"):
        """The structure of A: a Matrix with the value 1 (True) of ``dtype`` at every entry of A.

        Parameters
        ----------
        dtype : numpy dtype or name, default "bool"

        Returns
        -------
        Matrix, shape (n, n)
            Its transpose, ``pattern(dtype).T``, is cached on it.
        """
        dtype = np.dtype(dtype).name
        # P = one(A) as dtype
        return self._once("pattern", lambda: _ones(self.A, dtype), dtype)

    def offdiag_pattern(self, dtype="bool"):
        """The structure of A without self-loops: 1 (True) of ``dtype`` at every entry A[i, j], i != j.

        Parameters
        ----------
        dtype : numpy dtype or name, default "bool"

        Returns
        -------
        Matrix, shape (n, n)
        """
        dtype = np.dtype(dtype).name
        # P = offdiag(one(A)) as dtype
        return self._once("offdiag_pattern", lambda: _core.select(_ones(self.A, dtype), indexunary.offdiag), dtype)

    @property
    def undirected_pattern(self):
        """bool Matrix (n, n): the undirected graph of A, ``offdiag(one(A) lor one(A)')`` (the
        edges of either direction, self-loops left out); ``offdiag_pattern()`` when undirected."""
        if self.kind == "undirected":
            return self.offdiag_pattern()

        def build():
            # P = one(A) as bool;  P = offdiag(P lor P')
            P = _ones(self.A, "bool")
            return _core.select(_core.ewise_add(P, _core.transpose(P), binary.lor), indexunary.offdiag)

        return self._once("undirected_pattern", build)

    @property
    def offdiag_degrees(self):
        """``(din, dout)``: full int64 Vectors, each vertex's in- and out-degree with self-loops
        left out (0 where none)."""
        def build():
            S = self.offdiag_pattern()
            one = Vector.from_dense(np.ones(self.n, dtype=np.int64), device=self.A.device)
            # dout = S plus.pair 1;  din = S' plus.pair 1   (int64 counts, 0 where none)
            dout, din = _core.mxv(S, one, semiring.plus_pair), _core.mxv(S.T, one, semiring.plus_pair)
            return _full(din, 0), _full(dout, 0)

        return self._once("offdiag_degrees", build)

    @property
    def unmirrored(self):
        """int: entries A[i, j] whose mirror A[j, i] is absent (0: a symmetric pattern; 0 without
        a check for a graph of kind "undirected")."""
        if self.kind == "undirected":
            return 0

        def build():
            # P = one(A) as bool;  unmirrored = nvals(P lor P') - nvals(P)
            P = _ones(self.A, "bool")
            return _core.ewise_add(P, _core.transpose(P), binary.lor).nvals - P.nvals

        return self._once("unmirrored", build)

    @property
    def nan_count(self):
        """int: values of A that are NaN (0 for a matrix of a non-float dtype)."""
        def build():
            if np.dtype(self.A.dtype).kind not in "fc" or not self.A.nvals:
                return 0
            vals = self.A.to_coo()[2]
            return int(xp_of(vals).isnan(vals).sum())

        return self._once("nan_count", build)

    @property
    def float64_weights(self):
        """float64 Matrix (n, n): A's values as float64 (True as 1.0); A itself when it is float64."""
        return self._once("float64_weights", lambda: self.A if self.A.dtype == np.float64 else self.A.dup("float64"))

    # -- the arrays of the whole-search loops ----------------------------------------------
    @property
    def narrow_csr(self):
        """``(indptr, indices)`` of A (host arrays): int32 where the entries fit, else int64 (the
        compiled CPU loops read half the bytes per edge); see
        :func:`semiring.backends.cpu.compiled_traversal.narrow`."""
        def build():
            from ..backends.cpu.compiled_traversal import narrow

            return narrow(self.A._indptr, self.A._indices)

        return self._once("narrow_csr", build)

    @property
    def narrow_csc(self):
        """``(indptr, indices)`` of A^T (the in-edges), as :attr:`narrow_csr`; :attr:`narrow_csr`
        itself for an undirected graph."""
        if self.AT is self.A:
            return self.narrow_csr

        def build():
            from ..backends.cpu.compiled_traversal import narrow

            AT = self.AT
            return narrow(AT._indptr, AT._indices)

        return self._once("narrow_csc", build)

    @property
    def edge_rows(self):
        """The row of every entry of A in storage order (the COO rows of the ``edge`` BFS
        strategy): a host int64 array on the CPU, a device array of A's index dtype on the GPU."""
        def build():
            A = self.A
            if A.device == "gpu":
                from ..backends.gpu import bfs_strategies as impl

                return impl.edge_rows(A._indptr, A._indices)
            from ..backends.cpu import bfs_strategies as impl

            return impl.edge_rows(A._indptr)

        return self._once("edge_rows", build)

    def node_split(self, k):
        """The node split of A's out-edges into virtual nodes of at most ``k`` edges (the
        ``node_split`` BFS strategy).

        Parameters
        ----------
        k : int, > 0

        Returns
        -------
        tuple of 2 arrays
            ``(vfirst, vptr)``: vertex u owns virtual nodes ``vfirst[u] .. vfirst[u + 1] - 1``,
            virtual node j covers the edges ``vptr[j] .. vptr[j + 1] - 1``; host int64 on the
            CPU, device arrays of A's index dtype on the GPU.
        """
        k = int(k)

        def build():
            A = self.A
            if A.device == "gpu":
                from ..backends.gpu import bfs_strategies as impl
            else:
                from ..backends.cpu import bfs_strategies as impl
            return impl.split(A._indptr, k)

        return self._once("node_split", build, k)

    def __repr__(self):
        kind = self._given_kind or self._items().get("kind", "kind unknown")
        return f"<Graph n={self.n} entries={self.nedges} {kind}>"


def _ones(A, dtype):
    """The structure of A with ones of ``dtype`` (a new Matrix)."""
    # P = one(A), typecast to dtype
    return _core.apply(A, unary.one).dup(dtype)


def _full(t, fill):
    """t with ``fill`` at every absent position (a full Vector)."""
    return Vector.from_dense(t.to_dense(fill), device=t.device)


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
