"""networkx.minimum_spanning_tree on the engine's minimum spanning forest
(``semiring.algorithms.mst``).

networkx's Kruskal takes the edges in ``G.edges()`` order, stably sorted by weight, so its
forest is the unique minimum spanning forest under the order (weight, position in
``G.edges()``). The engine ranks the edges by that same order (the tie-break is each edge's
position in networkx's adjacency order, which the backend graph holds) and returns that forest:
Kruskal's answer exactly, ties included. Prim and Borůvka in networkx break ties in their own
search order, so those algorithms run only when the weights are distinct (the forest is then
unique); otherwise they decline.

The tree is rebuilt as networkx builds it: a ``networkx.Graph`` with G's nodes and graph
attributes and each forest edge with all its data, inserted in Kruskal's order. The backend
graph holds numeric edge attributes only and no node attributes, so graphs with node
attributes, non-numeric edge data, edges carrying different attribute names, an attribute
mixing ints and floats, multigraphs and Graph subclasses decline.
"""

from __future__ import annotations

import numbers

import networkx as nx
import numpy as np

from ... import _checks
from ... import core as _core
from ...algorithms.graph import Graph as _EngineGraph
from ...algorithms.mst import forest_edges
from ...backends._xp import asnumpy
from ...core.matrix import Matrix
from ...ops import IndexUnaryOp, binary, indexunary, unary
from ._common import checked_by

#: networkx's algorithm names -> the engine's method.
ALGORITHMS = {"kruskal": "boruvka", "prim": "prim", "boruvka": "boruvka", "borůvka": "boruvka"}

#: Keep the entries that are not NaN.
_NOT_NAN = IndexUnaryOp(lambda x, i, j, t: x == x, "notnan", output="bool", cuda="x == x")


#: The key of :func:`_attribute_kinds`'s answer in networkx's per-graph cache.
_KINDS_KEY = "semiring.edge_attribute_kinds"


def _attribute_kinds(G):
    """Why G's edge data cannot be rebuilt from numeric weight matrices, or None.

    The answer is kept in networkx's cache of G (``G.__networkx_cache__``, which networkx clears
    whenever G changes through its methods, as it does for converted graphs), so the pass over
    the edge data is made once per version of G."""
    cache = getattr(G, "__networkx_cache__", None)
    if isinstance(cache, dict) and _KINDS_KEY in cache:
        return cache[_KINDS_KEY]
    why = _edge_data_reason(G)
    if isinstance(cache, dict):
        cache[_KINDS_KEY] = why
    return why


def _edge_data_reason(G):
    names = None
    kinds = {}
    plain = {int: "int", float: "float"}
    for _, _, d in G.edges(data=True):
        keys = d.keys()
        if names is None:
            names = frozenset(keys)
        elif len(keys) != len(names) or keys != names:
            return "edges carry different attribute names (the backend graph gives every edge every attribute)"
        for key, x in d.items():
            kind = plain.get(type(x))
            if kind is None:
                if not isinstance(key, str):
                    return f"edge attribute {key!r} is not named by a str"
                if isinstance(x, (bool, np.bool_)) or not isinstance(x, numbers.Real):
                    return f"edge attribute {key!r} holds {type(x).__name__} values; the backend graph holds numbers"
                kind = "int" if isinstance(x, numbers.Integral) else "float"
            elif key not in kinds and not isinstance(key, str):
                return f"edge attribute {key!r} is not named by a str"
            if kinds.setdefault(key, kind) != kind:
                return f"edge attribute {key!r} mixes ints and floats (they would come back as floats)"
    return None


def _reason(G, weight="weight", algorithm="kruskal", ignore_nan=False):
    if G.is_multigraph():
        return "a multigraph's tree keeps edge keys and each parallel edge's data; the backend graph holds neither"
    if G.is_directed() or algorithm not in ALGORITHMS:
        return None  # the adapter raises as networkx does
    if not isinstance(weight, str):
        return f"weight must name an edge attribute (a str); given {weight!r}"
    if isinstance(G, nx.Graph):
        if type(G) is not nx.Graph:
            return f"networkx returns a {type(G).__name__} (G.__class__()); the adapter builds a networkx.Graph"
        if any(G._node[v] for v in G._node):
            return "G has node attributes, which the backend graph does not hold"
        why = _attribute_kinds(G)
        if why:
            return why
        if algorithm != "kruskal":
            w = [d.get(weight, 1) for u, v, d in G.edges(data=True) if u != v]
            w = [x for x in w if x == x]  # NaN: ignored or raised, never a tie
            if len(set(w)) < len(w):
                return _tie_reason(algorithm)
    return None


def _tie_reason(algorithm):
    return (f"equal weights: networkx's {algorithm} breaks ties in its own search order (only Kruskal's "
            "order is reproduced)")


def _has_ties(W):
    """Whether two edges (self-loops aside) of the engine weight graph W weigh the same."""
    # w = values of triu(W, 1)
    w = asnumpy(_core.select(W.A, indexunary.triu, 1).to_coo()[2])
    s = np.sort(w)
    return bool((s[1:] == s[:-1]).any())


def _position_matrix(G):
    """``T(i, j)``: the position of j in i's neighbour list in networkx's order, over all entries."""
    indptr, indices = G.order
    n = len(G)
    rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    return Matrix.from_coo(rows, indices, np.arange(indices.shape[0], dtype=np.int64), nrows=n, ncols=n,
                           dtype="int64", device=G.device)


def _edge_data(G, F, u, v):
    """For each forest edge (u[t], v[t]): ``{attribute: value}`` of every held attribute."""
    n = len(G)
    want = u * n + v
    data = [{} for _ in range(u.shape[0])]
    # Fp = one(F) as bool   (first(W, Fp) keeps W's dtype: bool unifies with any)
    Fp = _core.apply(F, unary.one).dup("bool")
    for name, W in G.weights.items():
        # X = W .* Fp   (the attribute at the forest's edges)
        r, c, x = (asnumpy(a) for a in _core.ewise_mult(W.A, Fp, binary.first).to_coo())
        keys = r * n + c
        x = x[np.searchsorted(keys, want)].tolist()
        for t, val in enumerate(x):
            data[t][name] = val
    return data


def _nan_edge(G, W):
    """(u, v, data) of the first edge in ``G.edges()`` order whose weight is NaN, or None."""
    r, c, x = (asnumpy(a) for a in W.A.to_coo())
    bad = np.isnan(x) & (r <= c)
    if not bad.any():
        return None
    P = _position_matrix(G)
    pr, pc, pos = (asnumpy(a) for a in P.to_coo())
    n = len(G)
    where = np.searchsorted(pr * n + pc, r[bad] * n + c[bad])
    first = int(np.argmin(pos[where]))
    i, j = int(r[bad][first]), int(c[bad][first])
    F = Matrix.from_coo([i, j], [j, i], [True, True], nrows=n, ncols=n, dtype="bool", device=G.device)
    (d,) = _edge_data(G, F, np.array([i]), np.array([j]))
    return G.nodes[i], G.nodes[j], d


@checked_by(_reason)
def minimum_spanning_tree(G, weight="weight", algorithm="kruskal", ignore_nan=False):
    """networkx.minimum_spanning_tree: a networkx.Graph with G's nodes, graph attributes and the
    forest's edges with their data (Kruskal's forest; Prim and Borůvka when the weights are distinct).

    Raises networkx.NetworkXNotImplemented for a directed graph, ValueError for an unknown
    algorithm and, without ``ignore_nan``, for a NaN weight (naming the first such edge in
    ``G.edges()`` order).
    """
    reason = _reason(G, weight, algorithm, ignore_nan)
    if reason:
        raise NotImplementedError(reason)
    if G.is_directed():
        raise nx.NetworkXNotImplemented("not implemented for directed type")
    if algorithm not in ALGORITHMS:
        raise ValueError(f"{algorithm} is not a valid choice for an algorithm.")
    T = nx.Graph()
    T.graph.update(G.graph)
    T.add_nodes_from(G.nodes)
    if not G.structure.A.nvals:
        return T
    # edges without the attribute weigh 1 (networkx's d.get(weight, 1)): the pattern
    W = G.weights.get(weight, G.structure)
    if W.A.dtype.kind == "f":
        if not ignore_nan:
            bad = _nan_edge(G, W)
            if bad is not None:
                raise ValueError(f"NaN found as an edge weight. Edge {bad}")
        else:
            # W = select(W, x == x)   (edges weighing NaN are left out)
            W = _EngineGraph(_core.select(W.A, _NOT_NAN), kind="undirected")
    if algorithm != "kruskal" and _has_ties(W):
        raise NotImplementedError(_tie_reason(algorithm))
    # Tb = positions .* W   (each edge's place in G.edges(), on W's pattern)
    Tb = _core.ewise_mult(_position_matrix(G), W.A, binary.first)
    u, v, F = forest_edges(W, ALGORITHMS[algorithm], tiebreak=Tb, what="minimum_spanning_tree")
    u, v = asnumpy(u), asnumpy(v)
    nodes = G.nodes
    T.add_edges_from((nodes[a], nodes[b], d) for a, b, d in zip(u.tolist(), v.tolist(), _edge_data(G, F, u, v)))
    return T


__all__ = ["minimum_spanning_tree"]
