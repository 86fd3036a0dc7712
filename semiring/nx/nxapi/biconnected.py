"""networkx's biconnectivity (``articulation_points``, ``biconnected_components``,
``biconnected_component_edges``, ``is_biconnected``) and bridges (``bridges``, ``has_bridges``,
``local_bridges``).

Biconnectivity is Hopcroft and Tarjan's depth-first search with low points, a sequential loop
in Python over the backend graph's adjacency arrays (networkx's neighbour order): no
algebraic formulation gives networkx's output order (components as the search closes them,
edges oriented as it walks them), and Tarjan-Vishkin's parallel one needs an Euler tour of a
spanning tree. The loop follows networkx's ``_biconnected_dfs`` step for step on integers. A
bridge is a tree edge (p, c) of that search with ``low[c] > discovery[p]``; bridges come in
``G.edges()`` order, as networkx's chain decomposition leaves them.

Local bridges are algebraic: an edge is one iff no triangle passes through it, i.e. it has no
entry in ``S<A> = A plus.pair A``. Its span (the shortest u-v path without the edge) is
``min_x d(u, x) + w(x, v)`` over the neighbours x != u of v, with d the distances from u in G
without v: Bellman-Ford rounds ``D<!V> = min(D, D min.plus W)`` for a batch of local bridges
at once (one row each, V masking out each row's v).

References
----------
J. Hopcroft, R. Tarjan, "Algorithm 447: efficient algorithms for graph manipulation", CACM
16(6), 1973. R. Tarjan, U. Vishkin, "An efficient parallel biconnectivity algorithm", SIAM J.
Comput. 14(4), 1985.
"""

from __future__ import annotations

import math

import networkx as nx
import numpy as np

from ... import core as _core
from ..._memory import require
from ...backends._xp import asnumpy
from ...core.matrix import Matrix
from ...ops import binary, semiring, unary
from ._common import checked_by, weight_reason
from ._graphs import adjacency_entries, build, parallel_reason, subgraph_order


def _dfs(G, mode="components"):
    """networkx's ``_biconnected_dfs`` on node indices. Yields, by ``mode``: each component's
    edge list ("components"), each articulation point, with repeats as networkx's ("points"),
    or each bridge (p, c), a tree edge with ``low[c] > discovery[p]`` ("bridges")."""
    components = mode == "components"
    indptr, indices = (a.tolist() for a in G.order)
    n = len(G)
    visited = [False] * n
    discovery = [0] * n
    low = [0] * n
    for start in range(n):
        if visited[start]:
            continue
        count = 1
        discovery[start] = low[start] = 0
        root_children = 0
        visited[start] = True
        edge_stack = []
        edge_index = {}
        stack = [[start, start, indptr[start]]]
        while stack:
            top = stack[-1]
            grandparent, parent, at = top
            if at < indptr[parent + 1]:
                child = indices[at]
                top[2] = at + 1
                if grandparent == child:
                    continue
                if visited[child]:
                    if discovery[child] <= discovery[parent]:  # back edge
                        if discovery[child] < low[parent]:
                            low[parent] = discovery[child]
                        if components:
                            edge_index[parent, child] = len(edge_stack)
                            edge_stack.append((parent, child))
                else:
                    low[child] = discovery[child] = count
                    count += 1
                    visited[child] = True
                    stack.append([parent, child, indptr[child]])
                    if components:
                        edge_index[parent, child] = len(edge_stack)
                        edge_stack.append((parent, child))
                continue
            stack.pop()
            if mode == "bridges":
                if stack and low[parent] > discovery[grandparent]:
                    yield grandparent, parent
                if len(stack) > 1 and low[parent] < low[grandparent]:
                    low[grandparent] = low[parent]
                continue
            if len(stack) > 1:
                if low[parent] >= discovery[grandparent]:
                    if components:
                        ind = edge_index[grandparent, parent]
                        yield edge_stack[ind:]
                        del edge_stack[ind:]
                    else:
                        yield grandparent
                if low[parent] < low[grandparent]:
                    low[grandparent] = low[parent]
            elif stack:  # the root's child
                root_children += 1
                if components:
                    ind = edge_index[grandparent, parent]
                    yield edge_stack[ind:]
                    del edge_stack[ind:]
        if mode == "points" and root_children > 1:
            yield start


def _undirected_only(G):
    if G.is_directed():
        raise nx.NetworkXNotImplemented("not implemented for directed type")


def biconnected_component_edges(G):
    """networkx.biconnected_component_edges: each biconnected component's edges (a list of
    (parent, child) pairs as networkx's search walks them), in networkx's order (a generator)."""
    _undirected_only(G)
    nodes = G.nodes
    for comp in _dfs(G):
        yield [(nodes[u], nodes[v]) for u, v in comp]


def biconnected_components(G):
    """networkx.biconnected_components: each biconnected component's node set, in networkx's
    order (a generator)."""
    _undirected_only(G)
    nodes = G.nodes
    for comp in _dfs(G):
        yield {nodes[i] for e in comp for i in e}


def articulation_points(G):
    """networkx.articulation_points: the cut vertices, each once, in networkx's order (a generator)."""
    _undirected_only(G)
    seen = set()
    nodes = G.nodes
    for i in _dfs(G, "points"):
        if i not in seen:
            seen.add(i)
            yield nodes[i]


def is_biconnected(G):
    """networkx.is_biconnected: one biconnected component holding every node (False for a
    graph without edges)."""
    _undirected_only(G)
    comps = _dfs(G)
    first = next(comps, None)
    if first is None:
        return False
    if next(comps, None) is not None:
        return False
    return len({i for e in first for i in e}) == len(G)


# ---------------------------------------------------------------------------------------------
# bridges
# ---------------------------------------------------------------------------------------------
def _bridge_pairs(G):
    """The bridges as sorted ``u * n + v`` keys (both orientations)."""
    n = len(G)
    keys = [k for u, v in _dfs(G, "bridges") for k in (u * n + v, v * n + u)]
    return np.array(sorted(keys), dtype=np.int64)


def _bridges_reason(G, root=None):
    if G.is_multigraph():
        if root is not None:
            return ("a multigraph with a root: networkx orders the root's component by the adjacency of "
                    "nx.Graph(G), which the backend graph does not reproduce")
        why = parallel_reason(G)
        if why:
            return why + " (networkx never counts parallel edges as bridges)"
    return None


def _edges_order(G, members=None):
    """(rows, cols) of ``G.edges()`` (of ``G.subgraph(members).copy()``) in networkx's order."""
    n = len(G)
    if members is None:
        rows, cols = adjacency_entries(G, np.arange(n, dtype=np.int64))
        keep = cols >= rows
        return rows[keep], cols[keep]
    H = build(G, subgraph_order(G, members), *_induced(G, members), data=False, graph={})
    index = G.index
    pairs = [(index[u], index[v]) for u, v in H.edges()]
    if not pairs:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    rows, cols = (np.array(x, dtype=np.int64) for x in zip(*pairs))
    return rows, cols


def _induced(G, members):
    order = subgraph_order(G, members)
    inside = np.zeros(len(G), dtype=bool)
    inside[order] = True
    return adjacency_entries(G, order, inside[G.order[1]])


def _bridges(G, root):
    if G.is_directed():
        raise nx.NetworkXNotImplemented("not implemented for directed type")
    if root is not None and root not in G:
        raise nx.NodeNotFound(f"Root node {root} is not in graph")
    members = None
    if root is not None:
        members = _component_bfs_order(G, G.index[root])
    rows, cols = _edges_order(G, members)
    n = len(G)
    found = _bridge_pairs(G)
    hit = np.isin(rows * n + cols, found)
    nodes = G.nodes
    for u, v in zip(rows[hit].tolist(), cols[hit].tolist()):
        yield nodes[u], nodes[v]


def _component_bfs_order(G, s):
    """The nodes of s's component in the order networkx's ``node_connected_component`` set
    iterates them (its BFS inserts them in discovery order)."""
    from ..algorithms.traversal import levels, queue_order

    lv = levels(G.structure, [s])
    layers, _ = queue_order(lv, *G.order, [s])
    nodes, index = G.nodes, G.index
    seen = set(nodes[i] for layer in layers for i in layer.tolist())
    return np.fromiter((index[v] for v in seen), dtype=np.int64, count=len(seen))


@checked_by(_bridges_reason)
def bridges(G, root=None):
    """networkx.bridges: the bridges (of ``root``'s component) in ``G.edges()`` order (a generator).

    Raises networkx.NodeNotFound for a ``root`` not in G (lazily, as networkx).
    """
    return _bridges(G, root)


@checked_by(_bridges_reason)
def has_bridges(G, root=None):
    """networkx.has_bridges. Raises networkx.NodeNotFound for a ``root`` not in G."""
    return next(_bridges(G, root), None) is not None


# ---------------------------------------------------------------------------------------------
# local bridges
# ---------------------------------------------------------------------------------------------
#: Rows (local bridges) per batch of the span computation.
SPAN_BATCH = 1024


def _local_reason(G, with_span=True, weight=None):
    return weight_reason(weight) if with_span is True else None


def _lengths(G, weight):
    """The engine matrix of edge lengths (1 without ``weight``); NotImplementedError for
    negative or NaN lengths (networkx's Dijkstra is not defined there)."""
    if weight is None:
        return _core.apply(G.structure.A, unary.one).dup("int64")
    W = G.weighted(weight).A
    vals = asnumpy(W.to_coo()[2])
    if vals.shape[0] and (np.isnan(vals).any() if vals.dtype.kind == "f" else False):
        raise NotImplementedError(f"NaN {weight!r} weights: networkx's Dijkstra compares them in its order")
    if vals.shape[0] and (vals < 0).any():
        raise NotImplementedError(f"negative {weight!r} weights: networkx's Dijkstra is not defined for them")
    return W


def _spans(G, us, vs, W):
    """Length of the shortest u-v path avoiding the edge (u, v), for each pair (inf: none)."""
    n = len(G)
    k = us.shape[0]
    out = np.full(k, math.inf)
    dtype = W.dtype
    dev = G.device
    for lo in range(0, k, SPAN_BATCH):
        u, v = us[lo:lo + SPAN_BATCH], vs[lo:lo + SPAN_BATCH]
        b = u.shape[0]
        require(b * n * 17, "local_bridges spans (a batch of distance rows)")
        rows = np.arange(b, dtype=np.int64)
        V = Matrix.from_coo(rows, v, None, nrows=b, ncols=n, dtype="bool", device=dev)
        D = Matrix.from_coo(rows, u, np.zeros(b, dtype=dtype), nrows=b, ncols=n, dtype=dtype, device=dev)
        while True:
            # D<!V> = min(D, D min.plus W)   (distances from u in G without v)
            T = _core.mxm(D, W, semiring.min_plus, mask=~V.S)
            N = _core.ewise_add(D, T, binary.min)
            if N.nvals == D.nvals and N.isequal(D):
                break
            D = N
        # D' = D without each row's u;  span = (D' min.plus W)(r, v_r)
        U = Matrix.from_coo(rows, u, None, nrows=b, ncols=n, dtype="bool", device=dev)
        Dx = _core.apply(D, unary.identity, mask=~U.S)
        T = _core.mxm(Dx, W, semiring.min_plus, mask=V.S)
        r, c, x = (asnumpy(a) for a in T.to_coo())
        span = np.full(b, math.inf)
        span[r] = x
        out[lo:lo + b] = span
    return out


@checked_by(_local_reason)
def local_bridges(G, with_span=True, weight=None):
    """networkx.local_bridges: the edges on no triangle, in ``G.edges()`` order, with the span
    (networkx's Dijkstra length without the edge, inf where none) when ``with_span`` is True
    (a generator). networkx rejects directed graphs and multigraphs before dispatching.
    """
    n = len(G)
    rows, cols = _edges_order(G)
    if not rows.shape[0]:
        return
    P = _core.apply(G.structure.A, unary.one).dup("int64")
    # S<A> = A plus.pair A   (triangles through each edge; an edge on none has no entry)
    S = _core.mxm(P, P, semiring.plus_pair, mask=P.S)
    sr_, sc_, _ = (asnumpy(a) for a in S.to_coo())
    on_triangle = np.isin(rows * n + cols, sr_.astype(np.int64) * n + sc_)
    local = ~on_triangle & (rows != cols)
    rows, cols = rows[local], cols[local]
    nodes = G.nodes
    if with_span is not True:
        for u, v in zip(rows.tolist(), cols.tolist()):
            yield nodes[u], nodes[v]
        return
    W = _lengths(G, weight)
    spans = _spans(G, rows, cols, W)
    as_int = W.dtype.kind in "iub"
    for u, v, s in zip(rows.tolist(), cols.tolist(), spans.tolist()):
        yield nodes[u], nodes[v], (int(s) if as_int and s != math.inf else s)


__all__ = ["articulation_points", "biconnected_components", "biconnected_component_edges", "is_biconnected",
           "bridges", "has_bridges", "local_bridges"]
