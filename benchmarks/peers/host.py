"""CPU peers: scipy.sparse.csgraph, python-graphblas (SuiteSparse:GraphBLAS) and networkx.

python-graphblas and networkx are optional: :func:`graphblas` and :func:`networkx` return the
module or None, and the suites write a note instead of a row when one is missing. The
python-graphblas algorithms are written as its documentation writes them (level-synchronous
``any_pair`` BFS; Bellman-Ford as repeated ``min_plus`` products until nothing changes).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse.csgraph as csgraph

from semiring._bench.references import levels_from_tree

#: networkx runs only on graphs with fewer stored entries than this (its conversion and
#: pure-Python loops take seconds beyond).
NETWORKX_MAX_EDGES = 200_000


def graphblas():
    """The ``graphblas`` module, or None if it cannot be imported."""
    try:
        import graphblas as gb
    except ImportError:
        return None
    return gb


def networkx():
    """The ``networkx`` module, or None if it cannot be imported."""
    try:
        import networkx as nx
    except ImportError:
        return None
    return nx


# -- scipy ---------------------------------------------------------------------------------
def scipy_bfs(S, source):
    """``breadth_first_order`` with predecessors along out-edges: ``(order, predecessors)``."""
    return csgraph.breadth_first_order(S, source, directed=True, return_predecessors=True)


def scipy_levels(S, source):
    """Reference BFS levels (int32, -1 unreached) from scipy's BFS tree."""
    order, pred = scipy_bfs(S, source)
    return levels_from_tree(order, pred, source)


def scipy_dijkstra(S, source):
    """Dijkstra distances along out-edges (float64, inf unreached)."""
    return csgraph.dijkstra(S, directed=True, indices=source)


# -- python-graphblas ----------------------------------------------------------------------
def gb_matrix(gb, A):
    """The same matrix (semiring Matrix on the CPU) as a python-graphblas Matrix."""
    r, c, v = A.to_coo()
    return gb.Matrix.from_coo(r, c, v, nrows=A.nrows, ncols=A.ncols)


def gb_bfs_levels(gb, G, s):
    """Level-synchronous BFS in python-graphblas (push, ``any_pair``); Vector of levels."""
    n = G.nrows
    v = gb.Vector(int, n)
    q = gb.Vector(bool, n)
    q[s] << True
    v[s] << 0
    d = 0
    while q.nvals:
        d += 1
        # q<!v.S, replace> = q any.pair G
        q(~v.S, replace=True) << q.vxm(G, gb.semiring.any_pair)
        v(q.S) << d
    return v


def gb_bellman_ford(gb, G, s):
    """Bellman-Ford in python-graphblas: ``d = min(d, d min.plus G)`` until nothing changes."""
    d = gb.Vector(G.dtype, G.nrows)
    d[s] << 0
    while True:
        dnew = d.dup()
        dnew(gb.binary.min) << d.vxm(G, gb.semiring.min_plus)
        if dnew.isequal(d):
            return d
        d = dnew


def gb_dense(v, fill):
    """A python-graphblas Vector as a dense float64 NumPy array (``fill`` where absent)."""
    idx, vals = v.to_coo()
    out = np.full(v.size, fill, dtype=np.float64)
    out[idx] = vals
    return out


# -- networkx ------------------------------------------------------------------------------
def nx_graph(nx, S, undirected):
    """networkx Graph (undirected) or DiGraph from a scipy sparse array."""
    return nx.from_scipy_sparse_array(S, create_using=nx.Graph if undirected else nx.DiGraph)


def nx_levels(nx, g, s, n):
    """BFS levels with ``single_source_shortest_path_length`` as a dense int32 array."""
    out = np.full(n, -1, np.int32)
    for v, d in nx.single_source_shortest_path_length(g, s).items():
        out[v] = d
    return out


def nx_greedy(nx, g, n):
    """networkx ``greedy_color(strategy="largest_first")`` as a dense int64 array."""
    out = np.full(n, -1, np.int64)
    for v, c in nx.greedy_color(g, strategy="largest_first").items():
        out[v] = c
    return out
