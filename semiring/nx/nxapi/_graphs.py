"""The networkx graphs that networkx's structure functions return, rebuilt from a backend graph.

networkx builds a subgraph as ``G.subgraph(nbunch).copy()`` and most other results by one
``add_nodes_from`` and one ``add_edges_from`` over ``G``'s adjacency. The graph's node order
and each node's neighbour order follow from that call sequence: :func:`build` replays it with
the nodes, adjacency order and edge attributes the backend graph holds, so the result equals
networkx's, orders included. :func:`subgraph_order` gives the node order of
``G.subgraph(nbunch)``: networkx's ``FilterAtlas`` iterates the set of ``nbunch`` (built in
``nbunch``'s order) when it holds fewer than half of G's nodes, else G's nodes in order.

The backend graph holds numeric edge attributes only, and no node attributes:
:func:`attribute_reason` is the ``can_run`` check of the functions whose result carries G's
attributes.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from ...backends._xp import asnumpy
from .tree import _attribute_kinds

#: The graph classes the backend rebuilds (a subclass would need its own constructor).
CLASSES = (nx.Graph, nx.DiGraph, nx.MultiGraph, nx.MultiDiGraph)


def attribute_reason(G):
    """Why a result carrying G's node and edge attributes cannot be rebuilt from the backend
    graph, or None (a backend graph is taken as it is)."""
    if not isinstance(G, nx.Graph):
        return None
    if type(G) not in CLASSES:
        return f"networkx returns a {type(G).__name__} (G.__class__()); the backend builds networkx's own classes"
    if any(G._node[v] for v in G._node):
        return "G has node attributes, which the backend graph does not hold"
    return _attribute_kinds(G)


def plain_reason(G):
    """Why a result without attributes cannot be rebuilt (a Graph subclass), or None."""
    if isinstance(G, nx.Graph) and type(G) not in CLASSES:
        return f"networkx returns a {type(G).__name__} (G.__class__()); the backend builds networkx's own classes"
    return None


def parallel_reason(G):
    """Why a multigraph is declined where parallel edges change the answer: a backend graph holds
    one edge per node pair. None for a multigraph without parallel edges (or not a multigraph)."""
    if not G.is_multigraph():
        return None
    if not isinstance(G, nx.Graph):
        return "a multigraph given as a backend graph: it does not hold which edges are parallel"
    if any(len(keys) > 1 for nbrs in G._adj.values() for keys in nbrs.values()):
        return "parallel edges: the backend graph holds one edge per node pair"
    return None


def nx_class(G):
    """The networkx class of the backend graph G."""
    return {(False, False): nx.Graph, (True, False): nx.DiGraph, (False, True): nx.MultiGraph,
            (True, True): nx.MultiDiGraph}[(G.is_directed(), G.is_multigraph())]


def edge_values(G, rows, cols):
    """``[{attribute: value}]`` of the held edge attributes at (rows[t], cols[t]) (each an
    entry of G's pattern), or None when G holds no attribute."""
    if not G.weights or not rows.shape[0]:
        return None
    n = len(G)
    want = rows * n + cols
    columns = []
    for name, W in G.weights.items():
        r, c, x = (asnumpy(a) for a in W.A.to_coo())
        keys = r.astype(np.int64) * n + c
        if keys.shape[0] > 1 and (np.diff(keys) < 0).any():
            o = np.argsort(keys, kind="stable")
            keys, x = keys[o], x[o]
        columns.append(x[np.searchsorted(keys, want)].tolist())
    names = list(G.weights)
    return [dict(zip(names, vals)) for vals in zip(*columns)]


def adjacency_entries(G, node_order, keep=None):
    """The entries of G's adjacency (networkx's order) met by ``for u in node_order: for v in
    G._adj[u]``, as (rows, cols) index arrays; ``keep`` (bool per CSR entry) filters them."""
    indptr, indices = G.order
    node_order = np.asarray(node_order, dtype=np.int64)
    counts = indptr[node_order + 1] - indptr[node_order]
    starts = np.repeat(indptr[node_order] - (np.cumsum(counts) - counts), counts)
    pos = starts + np.arange(starts.shape[0], dtype=np.int64)
    rows = np.repeat(node_order, counts)
    if keep is not None:
        sel = keep[pos]
        pos, rows = pos[sel], rows[sel]
    return rows, indices[pos]


def build(G, node_order, rows, cols, *, cls=None, graph=None, data=True):
    """A networkx graph made as networkx makes one: ``add_nodes_from`` of ``node_order``, then
    ``add_edges_from`` of the edges (rows[t], cols[t]) in that order with their held
    attributes (``data=False``: none); graph attributes ``graph`` (default G's)."""
    H = (cls or nx_class(G))()
    H.graph.update(G.graph if graph is None else graph)
    nodes = G.nodes
    H.add_nodes_from(nodes[i] for i in np.asarray(node_order).tolist())
    if rows.shape[0]:
        us = [nodes[i] for i in rows.tolist()]
        vs = [nodes[i] for i in cols.tolist()]
        values = edge_values(G, rows, cols) if data else None
        if values is None:
            H.add_edges_from(zip(us, vs))
        else:
            H.add_edges_from(zip(us, vs, values))
    return H


def subgraph_order(G, members):
    """The node order of networkx's ``G.subgraph(nbunch)``, ``members`` being nbunch's node
    indices in nbunch's order (each once): the iteration order of ``set(nbunch)`` when it holds
    fewer than half of G's nodes, else G's node order."""
    members = np.asarray(members, dtype=np.int64)
    if 2 * members.shape[0] < len(G):
        nodes, index = G.nodes, G.index
        return np.fromiter((index[v] for v in set(nodes[i] for i in members.tolist())), dtype=np.int64,
                           count=members.shape[0])
    return np.sort(members)


def subgraph_copy(G, members, *, drop=None):
    """networkx's ``G.subgraph(nbunch).copy()`` (then ``remove_node(drop)``) as a networkx
    graph; ``members``: nbunch's node indices in nbunch's order (each once)."""
    order = subgraph_order(G, members)
    inside = np.zeros(len(G), dtype=bool)
    inside[order] = True
    if drop is not None:
        inside[drop] = False
        order = order[order != drop]
    rows, cols = adjacency_entries(G, order, inside[G.order[1]])
    return build(G, order, rows, cols)


__all__ = ["attribute_reason", "plain_reason", "nx_class", "edge_values", "adjacency_entries", "build",
           "subgraph_order", "subgraph_copy", "parallel_reason", "CLASSES"]
