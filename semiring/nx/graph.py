"""The backend graph: a networkx graph's adjacency as semiring Matrices, with its node labels.

A networkx graph converts (:func:`from_networkx`, through :func:`semiring.io.from_networkx`) to

- the pattern (bool ``Matrix``: ``A[i, j]`` present for an edge i -> j, both ways for an
  undirected graph), built from the neighbour arrays below and wrapped in a
  :class:`semiring.algorithms.Graph` so the transpose and the degrees are computed once;
- one weight ``Matrix`` per requested edge attribute (edges without it weigh 1, as networkx's
  ``_weight_function`` says; parallel edges of a multigraph keep their smallest weight, as
  networkx's shortest paths do);
- the node labels both ways (``nodes[i]`` and ``index[node]``);
- the neighbour order of each node as networkx iterates it (``G._adj[u]``, and ``G._pred[u]`` of a
  directed graph), as host CSR arrays: BFS results are rebuilt in networkx's exact order from
  them.

The matrices live on ``nx.config.backends.semiring.device`` ("cpu", "gpu" or "auto").
The views derived from them (reversed and weighted engine graphs, smallest weights) are
computed once, under the graph's lock, so threads may share one converted graph
(``semiring._once``).
"""

from __future__ import annotations

import numpy as np

from ..algorithms.graph import Graph as _EngineGraph
from .._once import lock_of, once_attr, once_item
from ..core.matrix import Matrix
from ..exceptions import InvalidValue
from ..io._networkx import from_networkx as _matrix_from_networkx
from ..io._networkx import to_networkx as _matrix_to_networkx


class Graph:
    """A networkx graph held as semiring matrices (the ``semiring`` backend's graph type).

    Build one with :func:`from_networkx` (or let networkx dispatch convert).

    Attributes
    ----------
    nodes : list
        ``nodes[i]`` is the node of row and column i.
    index : dict
        node -> row index.
    structure : semiring.algorithms.Graph
        The bool pattern ``A`` (n x n) with its cached transpose and degrees.
    weights : dict
        edge attribute -> semiring.algorithms.Graph of its values (int64 or float64).
    order : tuple of numpy int64 arrays (indptr, indices)
        Successors (neighbours) of each node in networkx's iteration order.
    pred_order : tuple or None
        Predecessors in networkx's order (directed graphs), else None.
    graph : dict
        The networkx graph's graph attributes.
    """

    __networkx_backend__ = "semiring"

    def __init__(self, nodes, structure, weights, order, pred_order, *, directed, multigraph, graph=None, index=None):
        self.nodes = list(nodes)
        self.index = {v: i for i, v in enumerate(self.nodes)} if index is None else index
        self.structure = structure
        self.weights = dict(weights)
        self.order = order
        self.pred_order = pred_order
        self._directed = bool(directed)
        self._multigraph = bool(multigraph)
        self.graph = dict(graph or {})
        self._reverse = None
        self._min_weight = {}
        self._reverse_weights = {}

    # -- the little of networkx's graph API that dispatch and decorators use --------------
    def is_directed(self):
        return self._directed

    def is_multigraph(self):
        return self._multigraph

    def __len__(self):
        return len(self.nodes)

    def number_of_nodes(self):
        return len(self.nodes)

    def __iter__(self):
        return iter(self.nodes)

    def __contains__(self, node):
        try:
            return node in self.index
        except TypeError:
            return False

    def number_of_edges(self):
        """Edges as networkx counts them (an undirected edge once; multigraph edges collapsed)."""
        A = self.structure.A
        if self._directed:
            return A.nvals
        rows, cols = (_host(a) for a in A.to_coo()[:2])
        loops = int(np.count_nonzero(rows == cols))
        return (A.nvals - loops) // 2 + loops

    @property
    def device(self):
        return self.structure.A.device

    @property
    def A(self):
        """The bool pattern Matrix."""
        return self.structure.A

    # -- engine views, computed once ------------------------------------------------------
    @property
    def reverse(self):
        """The engine graph of the reversed edges (A^T); the graph itself when undirected."""
        if not self._directed:
            return self.structure
        return once_attr(self, "_reverse", lambda: _EngineGraph(self.structure.AT, kind="directed"))

    def weighted(self, weight, *, reverse=False):
        """The engine graph of ``weight``'s values (of the reversed edges with ``reverse``).

        ``weight=None`` gives the bool pattern: unit lengths, as networkx's ``data.get(None, 1)``.

        Raises
        ------
        NotImplementedError
            The graph was converted without that attribute (networkx then falls back).
        """
        if weight is None:
            return self.reverse if reverse else self.structure
        if weight not in self.weights:
            raise NotImplementedError(f"the semiring graph holds edge attributes {sorted(self.weights)}, "
                                      f"not {weight!r}; convert it with edge_attrs={{{weight!r}: 1}}")
        if not reverse or not self._directed:
            return self.weights[weight]
        return once_item(self._reverse_weights, weight,
                         lambda: _EngineGraph(self.weights[weight].AT, kind="directed"), lock_of(self))

    def min_weight(self, weight):
        """The smallest value of ``weight`` as a Python number (1 for the pattern; 0 without edges)."""
        def build():
            from .. import core
            from ..ops import monoid

            W = self.weighted(weight).A
            if not W.nvals:
                return 0
            if weight is None:
                return 1
            low = core.reduce_scalar(W, monoid.min)
            return low.item() if hasattr(low, "item") else low

        return once_item(self._min_weight, weight, build, lock_of(self))

    def has_self_loops(self):
        rows, cols = (_host(a) for a in self.structure.A.to_coo()[:2])
        return bool(np.any(rows == cols))

    def __repr__(self):
        kind = ("Multi" if self._multigraph else "") + ("DiGraph" if self._directed else "Graph")
        return (f"<semiring.nx.Graph ({kind}) n={len(self.nodes)} entries={self.structure.A.nvals} "
                f"weights={sorted(self.weights)} {self.device}>")


def _host(a):
    from ..backends._xp import asnumpy

    return asnumpy(a)


def _order_of(adj, nodes, index):
    """(indptr, indices) of each node's neighbours in the order networkx iterates ``adj``."""
    counts = np.fromiter((len(adj[u]) for u in nodes), dtype=np.int64, count=len(nodes))
    indptr = np.zeros(len(nodes) + 1, dtype=np.int64)
    np.cumsum(counts, out=indptr[1:])
    try:
        indices = np.fromiter((index[v] for u in nodes for v in adj[u]), dtype=np.int64, count=int(indptr[-1]))
    except ValueError:
        # a view whose len() disagrees with its iteration (networkx's multigraph edge_subgraph
        # counts a neighbour whose keys are all filtered out): count what iterating gives
        rows = [[index[v] for v in adj[u]] for u in nodes]
        indptr[1:] = np.cumsum([len(r) for r in rows])
        indices = np.fromiter((i for r in rows for i in r), dtype=np.int64, count=int(indptr[-1]))
    return indptr, indices


def _collapse_min(G, weight, default):
    """A simple graph with each multigraph edge's smallest ``weight`` (networkx's shortest-path rule)."""
    import networkx as nx

    H = nx.DiGraph() if G.is_directed() else nx.Graph()
    H.add_nodes_from(G)
    best = {}
    for u, v, d in G.edges(data=True):
        w = d.get(weight, default)
        key = (u, v) if G.is_directed() else frozenset((u, v))
        if key not in best or _less(w, best[key][2]):
            best[key] = (u, v, w)
    H.add_edges_from((u, v, {weight: w}) for u, v, w in best.values())
    return H


def _less(a, b):
    try:
        return a < b
    except TypeError:  # not a number: from_networkx says so with its own message
        return False


def _pattern(order, n, device):
    """The bool adjacency Matrix of (indptr, indices) (any order within a row; one entry per neighbour)."""
    indptr, indices = order
    rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    return Matrix.from_coo(rows, indices, None, nrows=n, ncols=n, dtype="bool", device=device)


def from_networkx(G, *, weights=(), preserve_all=False, device=None, defaults=None):
    """A backend :class:`Graph` from a networkx graph.

    Parameters
    ----------
    G : networkx.Graph, DiGraph, MultiGraph or MultiDiGraph
    weights : iterable of str
        Edge attributes to hold as weight matrices.
    preserve_all : bool
        Hold every edge attribute whose values are all numbers.
    device : {"cpu", "gpu", "auto"}, optional
        Default ``nx.config.backends.semiring.device``.
    defaults : dict, optional
        attribute -> value of edges without it (default 1, as networkx's shortest paths use).

    Returns
    -------
    Graph

    Raises
    ------
    NotImplementedError
        An attribute has a value that is not a number (networkx then falls back to itself).
    InvalidValue
        G is not a networkx graph.
    """
    import networkx as nx

    if not isinstance(G, nx.Graph):
        raise InvalidValue(f"semiring.nx.from_networkx: expected a networkx graph; given {type(G).__name__}")
    if device is None:
        device = nx.config.backends.semiring.device
    nodes = list(G)
    defaults = dict(defaults or {})
    names = list(weights)
    if preserve_all:
        names += sorted({k for _, _, d in G.edges(data=True) for k in d if isinstance(k, str)} - set(names))
    directed = G.is_directed()
    kind = "directed" if directed else "undirected"
    index = {v: i for i, v in enumerate(nodes)}
    order = _order_of(G._adj, nodes, index)
    pred_order = _order_of(G._pred, nodes, index) if directed else None
    # the pattern straight from the adjacency arrays read above (one pass over G, not two)
    A = _pattern(order, len(nodes), device)
    mats = {} if nodes else {w: Matrix(0, 0, "int64", device=device) for w in names}
    if nodes:
        for w in names:
            default = defaults.get(w, 1)
            H = _collapse_min(G, w, default) if (G.is_multigraph() or default != 1) else G
            try:
                mats[w], _ = _matrix_from_networkx(H, weight=w, nodelist=nodes, device=device)
            except InvalidValue as exc:
                if preserve_all and w not in weights:
                    continue  # an attribute that is not a weight: not held
                raise NotImplementedError(f"semiring backend: {exc}") from None
    return Graph(nodes, _EngineGraph(A, kind=kind), {w: _EngineGraph(M, kind=kind) for w, M in mats.items()},
                 order, pred_order, directed=directed, multigraph=G.is_multigraph(), graph=G.graph, index=index)


def to_networkx(G):
    """A networkx graph (Graph or DiGraph) with the backend graph's nodes, edges and weights.

    Multigraph edges come back collapsed (one edge per node pair, with the held weights).
    """
    import networkx as nx

    if not len(G):
        H = nx.DiGraph() if G.is_directed() else nx.Graph()
    else:
        first = next(iter(G.weights), None)
        A = G.A if first is None else G.weights[first].A
        H = _matrix_to_networkx(A, nodes=G.nodes, weight=first, directed=G.is_directed())
        for w in list(G.weights)[1:]:
            rows, cols, vals = (_host(a).tolist() for a in G.weights[w].A.to_coo())
            nx.set_edge_attributes(H, {(G.nodes[i], G.nodes[j]): x for i, j, x in zip(rows, cols, vals)}, w,
                                   backend="networkx")
    H.graph.update(G.graph)
    return H


__all__ = ["Graph", "from_networkx", "to_networkx"]
