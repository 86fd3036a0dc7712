"""networkx graphs in and out, through networkx's own SciPy conversions.

An edge's weight attribute becomes the entry's value (explicit zeros stay entries); without
``weight`` the matrix is the bool pattern. Nodes are numbered in ``nodelist`` order (default:
the graph's own node order), and that order is returned so results can be mapped back.
"""

from __future__ import annotations

import numpy as np

from ..core.matrix import Matrix
from ..exceptions import InvalidValue


def _nx():
    try:
        import networkx as nx
    except ImportError as exc:  # pragma: no cover - networkx is a test dependency
        raise InvalidValue(f"networkx conversions need networkx (pip install networkx); {exc}") from None
    return nx


def _to_scipy(nx, G, **kwargs):
    """networkx's own ``to_scipy_sparse_array``, pinned to networkx where dispatch exists: a
    backend converts its input through it, so it must never be dispatched to a backend itself."""
    import inspect

    if "backend" in inspect.signature(nx.to_scipy_sparse_array).parameters:
        kwargs["backend"] = "networkx"
    return nx.to_scipy_sparse_array(G, **kwargs)


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
    if len(nodes) != G.number_of_nodes() or len(set(nodes)) != len(nodes) or any(v not in G for v in nodes):
        raise InvalidValue(f"from_networkx: nodelist must list each of the graph's {G.number_of_nodes()} nodes "
                           f"exactly once; given {len(nodes)} entries")
    if not nodes:  # networkx's SciPy conversion refuses a graph without nodes
        return Matrix(0, 0, ("bool" if weight is None else "int64") if dtype is None else dtype, device=device), nodes
    if weight is None:
        S = _to_scipy(nx, G, nodelist=nodes, weight=None, dtype=np.int64, format="csr")
        S.data = np.ones(S.data.shape, dtype=bool)
        return Matrix.from_scipy(S, dtype="bool" if dtype is None else dtype, device=device), nodes
    values = [d.get(weight, 1) for _, _, d in G.edges(data=True)]
    bad = next((w for w in values if isinstance(w, (bool, np.bool_)) or not isinstance(w, (int, float, np.number))),
               None)
    if bad is not None:
        raise InvalidValue(f"from_networkx: edge attribute {weight!r} must be a number; given {bad!r}")
    kind = np.float64 if any(isinstance(w, (float, np.floating)) for w in values) else np.int64
    S = _to_scipy(nx, G, nodelist=nodes, weight=weight, dtype=kind, format="csr")
    return Matrix.from_scipy(S, dtype=dtype, device=device), nodes


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
