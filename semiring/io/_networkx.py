"""networkx graphs in and out, built straight from networkx's adjacency dicts.

A networkx graph keeps, for each node ``u``, a dict ``G._adj[u]`` of its neighbours (successors
of a directed graph; ``G._pred[u]`` holds the predecessors), each mapping to the edge's data dict
(to ``{key: data}`` of a multigraph). The conversion reads those dicts once with NumPy: the
neighbour counts give the row pointers, the neighbours (mapped to row numbers, vectorised for
integer labels) give the column indices in networkx's iteration order, and one sort per row
gives the canonical CSR form. An edge attribute is read only when asked for: an edge's weight
attribute becomes the entry's value (explicit zeros stay entries); without ``weight`` the matrix
is the bool pattern. Nodes are numbered in ``nodelist`` order (default: the graph's own node
order), and that order is returned so results can be mapped back.
"""

from __future__ import annotations

import numbers
from itertools import chain, repeat
from operator import itemgetter, methodcaller

import numpy as np

from ..core.matrix import Matrix
from ..exceptions import InvalidValue

#: the value ``dict.get`` gives an edge without the attribute (see :func:`edge_values`)
MISSING = type("Missing", (), {"__repr__": lambda self: "<missing>"})()


def _nx():
    try:
        import networkx as nx
    except ImportError as exc:  # pragma: no cover - networkx is a test dependency
        raise InvalidValue(f"networkx conversions need networkx (pip install networkx); {exc}") from None
    return nx


# -- the adjacency as arrays -------------------------------------------------------------------
def neighbour_dicts(adj, nodes):
    """``[adj[u] for u in nodes]`` as cheaply as ``adj`` allows: the dict's own values view when
    ``adj`` is a plain dict whose keys are ``nodes`` in that order (networkx's graph classes),
    else one lookup per node (graph views, another node order)."""
    if type(adj) is dict and len(adj) == len(nodes) and all(a is b or a == b for a, b in zip(adj, nodes)):
        return list(adj.values())
    return [adj[u] for u in nodes]


def _int_labels(nodes):
    """The nodes as an int64 array when every one is an integer (not a bool), else None."""
    types = set(map(type, nodes))
    if not all(issubclass(t, (int, np.integer)) and not issubclass(t, (bool, np.bool_)) for t in types):
        return None
    try:
        return np.fromiter(nodes, dtype=np.int64, count=len(nodes))
    except (OverflowError, TypeError, ValueError):
        return None


def _rows_of(labels, keys):
    """Row number of each key (an int64 array of node labels), vectorised; None if a key is not
    a node (then the caller maps them one by one)."""
    n = labels.shape[0]
    if not n:
        return None if keys.shape[0] else keys
    if keys.shape[0] == 0:
        return keys
    lo, hi = int(labels.min()), int(labels.max())
    if lo == 0 and hi == n - 1 and bool((labels == np.arange(n)).all()):
        rows = keys  # nodes 0..n-1 in order: the label is the row
    elif lo >= 0 and hi < 4 * n + 64:
        where = np.full(hi + 1, -1, dtype=np.int64)
        where[labels] = np.arange(n, dtype=np.int64)
        inside = (keys >= 0) & (keys <= hi)
        rows = where[np.where(inside, keys, 0)]
        rows[~inside] = -1
    else:
        sorter = np.argsort(labels, kind="stable")
        pos = np.searchsorted(labels, keys, sorter=sorter)
        rows = sorter[np.minimum(pos, n - 1)]
    if not bool((labels[np.maximum(rows, 0)] == keys).all()) or bool((rows < 0).any()):
        return None
    return rows


def adjacency(dicts, nodes, index, labels=None):
    """``(indptr, indices)``: each node's neighbours (the keys of ``dicts[i]``) as row numbers, in
    networkx's iteration order.

    Parameters
    ----------
    dicts : list of dict, length n
        The neighbour dict of each node (:func:`neighbour_dicts`).
    nodes : list, length n
    index : dict
        node -> row number.
    labels : numpy int64 array, optional
        ``nodes`` as integers (:func:`_int_labels`): the neighbours are then mapped with NumPy.

    Returns
    -------
    indptr : numpy int64 array, shape (n + 1,)
    indices : numpy int64 array, shape (indptr[-1],)
    """
    n = len(dicts)
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.fromiter(map(len, dicts), dtype=np.int64, count=n), out=indptr[1:])
    m = int(indptr[-1])
    try:
        if labels is not None:
            keys = np.fromiter(chain.from_iterable(dicts), dtype=np.int64, count=m)
            rows = _rows_of(labels, keys)
            if rows is not None:
                return indptr, rows
        return indptr, np.fromiter(map(index.__getitem__, chain.from_iterable(dicts)), dtype=np.int64, count=m)
    except ValueError:
        # a view whose len() disagrees with its iteration (networkx's multigraph edge_subgraph
        # counts a neighbour whose keys are all filtered out): count what iterating gives
        lists = [[index[v] for v in d] for d in dicts]
        indptr[1:] = np.cumsum(np.fromiter(map(len, lists), dtype=np.int64, count=n))
        return indptr, np.fromiter(chain.from_iterable(lists), dtype=np.int64, count=int(indptr[-1]))


def row_sort(n, indptr, indices):
    """The permutation that sorts each row's column indices (rows keep their place), and the
    sorted indices: ``indices[perm]``."""
    import scipy.sparse as sp

    m = indices.shape[0]
    S = sp.csr_array((np.arange(m, dtype=np.int64), indices.copy(), indptr), shape=(n, n))
    S.has_sorted_indices = False
    S.sort_indices()  # sorts (index, position) pairs within each row, in compiled code
    return S.data, S.indices


def edge_values(dicts, attr, *, multigraph, combine="min", default=1, what="from_networkx"):
    """The ``attr`` value of every adjacency entry, in :func:`adjacency`'s order.

    Parameters
    ----------
    dicts : list of dict
        Neighbour dicts (:func:`neighbour_dicts`).
    attr : str
        The edge attribute.
    multigraph : bool
        Entries are ``{key: data}`` dicts; parallel edges are combined by ``combine``.
    combine : {"min", "sum"}
        "min": the first smallest, as Python's ``min`` (networkx's shortest paths); "sum": the
        total, as ``nx.to_scipy_sparse_array``.
    default : number
        The value of an edge without ``attr``.

    Returns
    -------
    numpy array (int64 or float64) or None
        None when no edge has ``attr``. int64 when every value is an integer, float64 when one is
        a float.

    Raises
    ------
    InvalidValue
        A value (or the default, where an edge lacks ``attr``) is not a number, or a bool.
    """
    values_of = _values_of(dicts)
    if not multigraph and not any(chain.from_iterable(map(values_of, dicts))):
        return None  # no edge has any attribute (found without building the list)
    datas = list(chain.from_iterable(map(values_of, dicts)))
    if multigraph:
        groups = list(map(_values_of(datas), datas))
        sizes = np.fromiter(map(len, groups), dtype=np.int64, count=len(groups))
        datas = list(chain.from_iterable(groups))
        if not any(datas):
            return None
    try:  # every edge has it: the fastest read
        values = list(map(itemgetter(attr), datas))
    except KeyError:
        if all(type(d) is dict for d in datas):
            values = list(map(dict.get, datas, repeat(attr), repeat(MISSING)))
        else:
            values = list(map(methodcaller("get", attr, MISSING), datas))
    types = set(map(type, values))
    if types == {type(MISSING)}:
        return None
    if type(MISSING) in types:
        values = [default if v is MISSING else v for v in values]
        types = set(map(type, values))
    bad = [t for t in types if issubclass(t, (bool, np.bool_)) or not issubclass(t, (numbers.Real, np.number))]
    if bad:
        first = next(v for v in values if type(v) in bad)
        raise InvalidValue(f"{what}: edge attribute {attr!r} must be a number; given {first!r}")
    floating = any(not issubclass(t, (numbers.Integral, np.integer)) for t in types)
    if multigraph:
        ends = np.cumsum(sizes).tolist()
        starts = [0] + ends[:-1]
        if combine == "min":
            values = [min(values[s:e]) for s, e in zip(starts, ends)]
        else:
            values = [sum(values[s:e]) for s, e in zip(starts, ends)]
    try:
        return np.array(values, dtype=np.float64 if floating else np.int64)
    except OverflowError:
        big = next(v for v in values if not -2**63 <= v < 2**63)
        raise InvalidValue(f"{what}: edge attribute {attr!r} must fit a 64-bit integer; given {big!r}") from None


def _values_of(dicts):
    """``dict.values`` when every item is a plain dict (the fast path), else the method by name."""
    return dict.values if all(type(d) is dict for d in dicts) else methodcaller("values")


def csr_matrix(n, indptr, indices, values, *, dtype=None, device="cpu"):
    """A Matrix of canonical CSR arrays (shared, not copied), on ``device``."""
    import scipy.sparse as sp

    if values is None:
        values = np.ones(indices.shape[0], dtype=bool)
    S = sp.csr_array((values, indices, indptr), shape=(n, n))
    return Matrix.from_scipy(S, dtype=dtype, device=device)


# -- the public conversions ----------------------------------------------------------------------
def from_networkx(G, *, weight=None, nodelist=None, dtype=None, device="cpu"):
    """A Matrix from a networkx graph, and the node order of its rows and columns.

    Parameters
    ----------
    G : networkx.Graph, DiGraph, MultiGraph or MultiDiGraph
        An undirected graph gives a symmetric matrix; parallel edges of a multigraph add up.
    weight : str, optional
        Edge attribute holding the value (edges without it count 1, as networkx does). None
        gives the bool pattern.
    nodelist : sequence of nodes, optional
        Row/column order; default ``list(G)``. Must list every node of G exactly once.
    dtype : dtype, optional
        Default: bool without ``weight``, else what the weights are (int64 or float64).
    device : {"cpu", "gpu", "auto"}

    Returns
    -------
    A : Matrix, shape (n, n)
    nodes : list
        ``nodes[i]`` is the node of row and column i.

    Raises
    ------
    InvalidValue
        G is not a networkx graph, ``nodelist`` is not a permutation of G's nodes, or a weight
        is not a number.

    Examples
    --------
    >>> import networkx as nx, semiring as sr
    >>> A, nodes = sr.io.from_networkx(nx.path_graph(["a", "b", "c"]))
    >>> A.nvals, nodes
    (4, ['a', 'b', 'c'])
    """
    nx = _nx()
    if not isinstance(G, nx.Graph):
        raise InvalidValue(f"from_networkx: expected a networkx graph; given {type(G).__name__}")
    nodes = list(G) if nodelist is None else list(nodelist)
    if nodelist is not None and (len(nodes) != G.number_of_nodes() or len(set(nodes)) != len(nodes)
                                 or any(v not in G for v in nodes)):
        raise InvalidValue(f"from_networkx: nodelist must list each of the graph's {G.number_of_nodes()} nodes "
                           f"exactly once; given {len(nodes)} entries")
    n = len(nodes)
    index = dict(zip(nodes, range(n)))
    dicts = neighbour_dicts(G._adj, nodes)
    indptr, indices = adjacency(dicts, nodes, index, _int_labels(nodes))
    perm, sorted_indices = row_sort(n, indptr, indices)
    if weight is None:
        return csr_matrix(n, indptr, sorted_indices, None, dtype="bool" if dtype is None else dtype,
                          device=device), nodes
    vals = edge_values(dicts, weight, multigraph=G.is_multigraph(), combine="sum")
    if vals is None:  # no edge has it: every edge counts 1 (parallel edges add up)
        if G.is_multigraph():
            vals = np.fromiter(map(len, chain.from_iterable(map(_values_of(dicts), dicts))), dtype=np.int64,
                               count=indices.shape[0])
        else:
            vals = np.ones(indices.shape[0], dtype=np.int64)
    return csr_matrix(n, indptr, sorted_indices, vals[perm], dtype=dtype, device=device), nodes


def to_networkx(A, *, nodes=None, weight="weight", directed=True):
    """A networkx graph with A's entries as edges.

    Parameters
    ----------
    A : Matrix, shape (n, n)
    nodes : sequence, optional
        Node of each row/column (default 0..n-1), e.g. the list ``from_networkx`` returned.
    weight : str or None
        Edge attribute for the values; None, or a bool matrix, stores no attribute.
    directed : bool
        True gives a DiGraph (entry (i, j) is edge i -> j); False a Graph, which needs A symmetric.

    Returns
    -------
    networkx.DiGraph or networkx.Graph

    Raises
    ------
    DimensionMismatch
        A is not square.
    InvalidValue
        ``nodes`` has the wrong length or repeats a node; ``directed=False`` with A not symmetric.
    """
    from ..exceptions import DimensionMismatch

    nx = _nx()
    if not isinstance(A, Matrix):
        raise InvalidValue(f"to_networkx: expected a Matrix; given {type(A).__name__}")
    if A.nrows != A.ncols:
        raise DimensionMismatch(f"to_networkx: expected a square matrix; given {A.nrows}x{A.ncols}")
    names = list(range(A.nrows)) if nodes is None else list(nodes)
    if len(names) != A.nrows or len(set(names)) != len(names):
        raise InvalidValue(f"to_networkx: nodes must name each of the {A.nrows} rows once; given {len(names)} "
                           f"({len(set(names))} distinct)")
    if not directed and not A.isequal(A.T):
        raise InvalidValue("to_networkx: directed=False needs a symmetric matrix; A differs from its transpose")
    G = nx.DiGraph() if directed else nx.Graph()
    G.add_nodes_from(names)
    rows, cols, vals = (np.asarray(a.get() if hasattr(a, "get") else a) for a in A.to_coo())
    if weight is None or A.dtype == np.bool_:
        G.add_edges_from((names[i], names[j]) for i, j in zip(rows.tolist(), cols.tolist()))
    else:
        G.add_weighted_edges_from(((names[i], names[j], w) for i, j, w in
                                   zip(rows.tolist(), cols.tolist(), vals.tolist())), weight=weight)
    return G


__all__ = ["from_networkx", "to_networkx"]
