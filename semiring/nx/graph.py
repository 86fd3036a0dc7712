"""The backend graph: a networkx graph's adjacency as semiring Matrices, with its node labels.

A networkx graph converts (:func:`from_networkx`) to

- the pattern (bool ``Matrix``: ``A[i, j]`` present for an edge i -> j, both ways for an
  undirected graph), wrapped in a :class:`semiring.algorithms.Graph` so the transpose and the
  degrees are computed once;
- one weight ``Matrix`` per requested edge attribute that some edge has (edges without it weigh
  the default, 1 as networkx's ``_weight_function`` says; parallel edges of a multigraph keep
  their smallest weight, as networkx's shortest paths do). An attribute no edge has builds no
  matrix: every edge weighs the default (:meth:`Graph.uniform_weight`);
- the node labels both ways (``nodes[i]`` and ``index[node]``);
- the neighbour order of each node as networkx iterates it (``G._adj[u]``, and ``G._pred[u]`` of a
  directed graph), as host CSR arrays: BFS results are rebuilt in networkx's exact order from
  them.

Everything is read once from networkx's adjacency dicts with NumPy (``semiring.io._networkx``):
about a second per million edges on two cores, less for integer node labels.

The matrices live on ``nx.config.backends.semiring.device`` ("cpu", "gpu" or "auto").
The views derived from them (reversed and weighted engine graphs, smallest weights) are
computed once, under the graph's lock, so threads may share one converted graph
(``semiring._once``).
"""

from __future__ import annotations

import numbers
from itertools import chain
from operator import methodcaller

import numpy as np

from .. import _checks
from ..algorithms.graph import Graph as _EngineGraph
from .._once import lock_of, once_attr, once_item
from ..exceptions import InvalidValue
from ..io import _networkx as _io


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
        edge attribute -> semiring.algorithms.Graph of its values (int64 or float64), for the
        attributes some edge has.
    uniform : dict
        edge attribute -> the value every edge weighs, for requested attributes that no edge has.
    order : tuple of numpy int64 arrays (indptr, indices)
        Successors (neighbours) of each node in networkx's iteration order.
    pred_order : tuple or None
        Predecessors in networkx's order (directed graphs), else None.
    graph : dict
        The networkx graph's graph attributes.
    node_data : list of dict or None
        ``node_data[i]``: the attributes of ``nodes[i]`` (graphs the backend generates), or None.
    """

    __networkx_backend__ = "semiring"

    def __init__(self, nodes, structure, weights, order, pred_order, *, directed, multigraph, graph=None, index=None,
                 uniform=None, node_data=None):
        self.nodes = list(nodes)
        self.index = dict(zip(self.nodes, range(len(self.nodes)))) if index is None else index
        self.structure = structure
        self.weights = dict(weights)
        self.uniform = dict(uniform or {})
        self.node_data = node_data
        self._csr = None  # (indptr, sorted indices, perm) of the pattern: order[1][perm] is row-sorted
        self._defaults = {}
        self._uniform_graphs = {}
        #: True when ``weights`` holds every edge attribute there is (graphs the backend generates):
        #: any other attribute weighs 1 on every edge
        self.edge_attrs_complete = False
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
        if weight not in self.weights and self.uniform_weight(weight) is not None:
            return self._uniform_graph(weight, reverse)
        if weight not in self.weights:
            raise NotImplementedError(f"the semiring graph holds edge attributes {sorted(self.weights)}, "
                                      f"not {weight!r}; convert it with edge_attrs={{{weight!r}: 1}}")
        if not reverse or not self._directed:
            return self.weights[weight]
        return once_item(self._reverse_weights, weight,
                         lambda: _EngineGraph(self.weights[weight].AT, kind="directed"), lock_of(self))

    def uniform_weight(self, weight):
        """The value every edge weighs under ``weight``, when they all weigh the same by
        construction (1 for ``weight=None``; the default of an attribute no edge has), else None.

        Adapters may answer such calls with their unweighted algorithm (BFS for shortest paths).
        """
        if weight is None:
            return 1
        if weight in self.weights:
            return None
        if weight in self.uniform:
            return self.uniform[weight]
        return 1 if self.edge_attrs_complete else None

    def _uniform_graph(self, weight, reverse):
        """The engine graph whose every edge weighs ``uniform[weight]``: the pattern's arrays with
        one value repeated, built on first use."""
        def build():
            value = self.uniform_weight(weight)
            if self._csr is None:
                from .. import core
                from ..ops import binary

                dtype = "int64" if isinstance(value, (numbers.Integral, np.integer)) else "float64"
                # W = second(A, value): the pattern with every entry value
                M = core.apply(self.structure.A.dup(dtype), binary.second, right=value)
            else:
                indptr, indices, _ = self._csr
                dtype = np.int64 if isinstance(value, (numbers.Integral, np.integer)) else np.float64
                M = _io.csr_matrix(len(self.nodes), indptr, indices, np.full(indices.shape[0], value, dtype=dtype),
                                   device=self.device)
            kind = "directed" if self._directed else "undirected"
            return _EngineGraph(M, kind=kind)

        W = once_item(self._uniform_graphs, weight, build, lock_of(self))
        if not reverse or not self._directed:
            return W
        return once_item(self._reverse_weights, weight, lambda: _EngineGraph(W.AT, kind="directed"), lock_of(self))

    def min_weight(self, weight):
        """The smallest value of ``weight`` as a Python number (1 for the pattern; 0 without edges)."""
        def build():
            from .. import core
            from ..ops import monoid

            W = self.weighted(weight).A
            if not W.nvals:
                return 0
            if self.uniform_weight(weight) is not None:
                return self.uniform_weight(weight)
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


def from_networkx(G, *, weights=(), preserve_all=False, device=None, defaults=None, reuse=None):
    """A backend :class:`Graph` from a networkx graph, read once from its adjacency dicts.

    The pattern and the neighbour orders come from one pass over ``G._adj`` (and ``G._pred`` of a
    directed graph); each requested attribute from one more pass over the edge data, only when
    asked for: an attribute that no edge has builds no matrix (every edge weighs its default,
    see :meth:`Graph.uniform_weight`).

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
    reuse : Graph, optional
        A conversion of the same, unchanged G (networkx's cache holds it): its nodes, orders and
        pattern are shared, and only the attributes it lacks are read.

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
    defaults = dict(defaults or {})
    directed, multigraph = G.is_directed(), G.is_multigraph()
    kind = "directed" if directed else "undirected"
    if reuse is not None and reuse._csr is not None and reuse.device == _resolve(device) \
            and reuse.is_directed() == directed and reuse.is_multigraph() == multigraph and len(reuse) == len(G):
        nodes, index = reuse.nodes, reuse.index
        dicts = _io.neighbour_dicts(G._adj, nodes)
        order, pred_order, structure, csr = reuse.order, reuse.pred_order, reuse.structure, reuse._csr
    else:
        nodes = list(G)
        index = dict(zip(nodes, range(len(nodes))))
        labels = _io._int_labels(nodes)
        dicts = _io.neighbour_dicts(G._adj, nodes)
        order = _io.adjacency(dicts, nodes, index, labels)
        pred_order = _io.adjacency(_io.neighbour_dicts(G._pred, nodes), nodes, index, labels) if directed else None
        perm, sorted_indices = _io.row_sort(len(nodes), *order)
        csr = (order[0], sorted_indices, perm)
        structure = _EngineGraph(_io.csr_matrix(len(nodes), order[0], sorted_indices, None, device=device), kind=kind)
    names = list(dict.fromkeys(weights))
    if preserve_all:
        datas = chain.from_iterable(map(methodcaller("values"), dicts))
        if multigraph:
            datas = chain.from_iterable(map(methodcaller("values"), datas))
        names += sorted({k for d in datas for k in d if isinstance(k, str)} - set(names))
    held, uniform = {}, {}
    for w in names:
        if reuse is not None and structure is reuse.structure and reuse._defaults.get(w) == defaults.get(w, 1) \
                and (w in reuse.weights or w in reuse.uniform):
            if w in reuse.weights:
                held[w] = reuse.weights[w]
            else:
                uniform[w] = reuse.uniform[w]
            continue
        default = defaults.get(w, 1)
        try:
            vals = _io.edge_values(dicts, w, multigraph=multigraph, combine="min", default=default,
                                   what="semiring backend")
        except InvalidValue as exc:
            if preserve_all and w not in weights:
                continue  # an attribute that is not a weight: not held
            raise NotImplementedError(str(exc)) from None
        if vals is None:
            if not _checks.is_real(default):
                raise NotImplementedError(f"semiring backend: edges without {w!r} weigh {default!r}, not a number")
            uniform[w] = default
            continue
        indptr, sorted_indices, perm = csr
        held[w] = _EngineGraph(_io.csr_matrix(len(nodes), indptr, sorted_indices, vals[perm], device=device),
                               kind=kind)
    out = Graph(nodes, structure, held, order, pred_order, directed=directed, multigraph=multigraph,
                graph=G.graph, index=index, uniform=uniform)
    out._csr = csr
    out._defaults = {w: defaults.get(w, 1) for w in names}
    return out


def _resolve(device):
    """The device a Matrix placed on ``device`` lives on ("auto" resolved)."""
    from ..core import _validate

    return _validate.device(device)


def to_networkx(G):
    """A networkx graph (Graph or DiGraph) with the backend graph's nodes (and their attributes),
    edges, held weights and graph attributes.

    Edges are added node by node, each node's neighbours in the order networkx iterated them
    (``G.order``). Multigraph edges come back collapsed (one edge per node pair, with the held
    weights); attributes no edge had (``G.uniform``) are not added.
    """
    import networkx as nx

    H = nx.DiGraph() if G.is_directed() else nx.Graph()
    H.graph.update(G.graph)
    if G.node_data is None:
        H.add_nodes_from(G.nodes)
    else:
        H.add_nodes_from((v, dict(d)) for v, d in zip(G.nodes, G.node_data))
    indptr, indices = G.order
    if not indices.shape[0]:
        return H
    rows = np.repeat(np.arange(len(G.nodes), dtype=np.int64), np.diff(indptr))
    names = G.nodes
    columns = [[names[i] for i in rows.tolist()], [names[j] for j in indices.tolist()]]
    keys = list(G.weights)
    for w in keys:
        vals = _host(G.weights[w].A.to_coo()[2])  # row-sorted CSR order
        if G._csr is not None:
            ordered = np.empty_like(vals)
            ordered[G._csr[2]] = vals  # position perm[k] of G.order holds sorted entry k
        else:  # no permutation kept: look each entry of G.order up among the sorted ones
            r, c = (_host(a) for a in G.weights[w].A.to_coo()[:2])
            n = len(names)
            ordered = vals[np.searchsorted(r * n + c, rows * n + indices)]
        columns.append(ordered.tolist())
    if keys:
        H.add_edges_from((u, v, dict(zip(keys, x))) for u, v, *x in zip(*columns))
    else:
        H.add_edges_from(zip(*columns))
    return H


__all__ = ["Graph", "from_networkx", "to_networkx"]
