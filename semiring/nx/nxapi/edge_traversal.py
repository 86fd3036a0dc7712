"""networkx's edge-level breadth-first searches (``edge_bfs``, ``bfs_labeled_edges``) on the
engine's BFS levels.

Both visit the nodes in networkx's BFS queue order (the engine's levels, then the discovery
order rebuilt by :func:`semiring.nx.algorithms.queue_order`) and report every edge of each
visited node in its adjacency order; what is reported for an edge follows from the levels and
the queue ranks alone, so the whole edge list is computed at once:

- ``edge_bfs`` reports an edge the first time a visited node lists it (an undirected edge, or a
  directed one under ``orientation="ignore"``, is listed from both ends);
- ``bfs_labeled_edges`` labels an edge u -> v by the levels: "tree" where v was discovered
  through it, "level" for equal levels (once per undirected edge), "forward" one level down,
  "reverse" one or more levels up (directed graphs).

Multigraphs are declined (their edge keys are not held).
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from .. import algorithms as _nxalg
from ... import core as _core
from ...algorithms.graph import Graph as _EngineGraph
from ...ops import binary
from ._common import checked_by

FORWARD = "forward"
REVERSE = "reverse"
_ORIENTATIONS = (None, "original", "reverse", "ignore")


def _sources_of(G, source):
    """networkx's ``G.nbunch_iter(source)`` as a list of node indices (duplicates dropped)."""
    if source is None:
        nodes = G.nodes
    elif source in G:
        nodes = [source]
    else:
        try:
            nodes = [v for v in source if v in G]
        except TypeError:
            raise nx.NetworkXError("nbunch is not a node or a sequence of nodes.") from None
    return list(dict.fromkeys(G.index[v] for v in nodes))


def _edge_bfs_reason(G, source=None, orientation=None):
    if G.is_multigraph():
        return "a multigraph's edge keys are not held by the backend graph"
    if source is not None and source not in G and not isinstance(source, (list, tuple, set, frozenset, range)):
        return f"source must be a node, a list of nodes or None; given {type(source).__name__}"
    return None


def _combined(G):
    """Each node's successors followed by its predecessors (networkx's ``orientation="ignore"``)."""
    (sp, si), (pp, pi) = G.order, G.pred_order
    n = len(G)
    deg = np.diff(sp) + np.diff(pp)
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(deg, out=indptr[1:])
    indices = np.empty(int(indptr[-1]), dtype=np.int64)
    rows_s = np.repeat(np.arange(n), np.diff(sp))
    at_s = indptr[rows_s] + (np.arange(si.shape[0]) - sp[rows_s])
    indices[at_s] = si
    rows_p = np.repeat(np.arange(n), np.diff(pp))
    at_p = indptr[rows_p] + np.diff(sp)[rows_p] + (np.arange(pi.shape[0]) - pp[rows_p])
    indices[at_p] = pi
    return indptr, indices


def _visit_order(G, sources, indptr, indices, graph):
    """Node indices in networkx's BFS queue order from ``sources`` over ``graph``."""
    lv = _nxalg.levels(graph, sources)
    layers, _ = _nxalg.queue_order(lv, indptr, indices, sources)
    return np.concatenate(layers), lv


@checked_by(_edge_bfs_reason)
def edge_bfs(G, source=None, orientation=None):
    """networkx.edge_bfs: every edge reachable from ``source`` (all nodes by default), in
    networkx's breadth-first order, each once (a generator).

    ``orientation`` as in networkx: None gives ``(u, v)``; "original", "reverse" and "ignore"
    add "forward"/"reverse" (directed graphs follow out-edges, in-edges, or both). Raises (on the
    first ``next``) networkx.NetworkXError for an unknown orientation on a directed graph.
    """
    reason = _edge_bfs_reason(G, source, orientation)
    if reason:
        raise NotImplementedError(reason)
    return _edge_bfs(G, source, orientation)


def _edge_bfs(G, source, orientation):
    sources = _sources_of(G, source)
    if not sources:
        return
    directed = G.is_directed()
    if directed and orientation not in _ORIENTATIONS:
        raise nx.NetworkXError("invalid orientation argument.")
    n = len(G)
    if not directed or orientation in (None, "original"):
        indptr, indices = G.order
        graph = G.structure
    elif orientation == "reverse":
        indptr, indices = G.pred_order
        graph = G.reverse
    else:
        indptr, indices = _combined(G)
        # the undirected view: A lor A^T
        graph = _EngineGraph(_core.ewise_add(G.A, G.structure.AT, binary.lor), kind="undirected")
    order, _ = _visit_order(G, sources, indptr, indices, graph)
    rank = np.full(n, -1, dtype=np.int64)
    rank[order] = np.arange(order.shape[0])
    x = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    pos = np.arange(indices.shape[0], dtype=np.int64) - indptr[x]
    other = indices
    if directed and orientation == "ignore":
        reverse = pos >= np.diff(G.order[0])[x]
    else:
        reverse = np.full(x.shape[0], directed and orientation == "reverse")
    keep = rank[x] >= 0
    x, pos, other, reverse = x[keep], pos[keep], other[keep], reverse[keep]
    o = np.lexsort((pos, rank[x]))
    x, other, reverse = x[o], other[o], reverse[o]
    u = np.where(reverse, other, x)
    v = np.where(reverse, x, other)
    key = np.minimum(u, v) * n + np.maximum(u, v) if not directed else u * n + v
    _, first = np.unique(key, return_index=True)
    first.sort()
    nodes = G.nodes
    tag = orientation is not None
    for a, b, r in zip(u[first].tolist(), v[first].tolist(), reverse[first].tolist()):
        if tag:
            yield nodes[a], nodes[b], REVERSE if r else FORWARD
        else:
            yield nodes[a], nodes[b]


def _labeled_reason(G, sources):
    if G.is_multigraph():
        return "a multigraph's parallel edges are each labelled by networkx; the backend holds one per pair"
    try:
        if sources in G:
            return None
        missing = [v for v in sources if v not in G]
    except TypeError:
        return "sources must be a node or an iterable of nodes"
    if missing:
        return f"sources {missing!r} are not in the graph; networkx raises its own error"
    return None


@checked_by(_labeled_reason)
def bfs_labeled_edges(G, sources):
    """networkx.bfs_labeled_edges: ``(u, v, label)`` for every edge of every node the BFS from
    ``sources`` visits, in networkx's order, labelled "tree", "level", "forward" or "reverse" (a
    generator)."""
    reason = _labeled_reason(G, sources)
    if reason:
        raise NotImplementedError(reason)
    return _labeled(G, sources)


def _labeled(G, sources):
    if sources in G:
        sources = [sources]
    src = list(dict.fromkeys(G.index[v] for v in sources))
    if not src:
        return
    n = len(G)
    directed = G.is_directed()
    indptr, indices = G.order
    lv = _nxalg.levels(G.structure, src)
    layers, parent = _nxalg.queue_order(lv, indptr, indices, src)
    order = np.concatenate(layers)
    rank = np.full(n, -1, dtype=np.int64)
    rank[order] = np.arange(order.shape[0])
    u = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    pos = np.arange(indices.shape[0], dtype=np.int64) - indptr[u]
    keep = rank[u] >= 0
    u, v, pos = u[keep], indices[keep], pos[keep]
    o = np.lexsort((pos, rank[u]))
    u, v = u[o], v[o]
    du, dv = lv[u], lv[v]
    tree = (parent[v] == u) & (dv == du + 1)
    # an undirected level edge is reported from the end visited first (v not yet visited)
    level = (du == dv) & (directed | (rank[v] >= rank[u]))
    forward = (du < dv) & ~tree
    back = (du > dv) & directed
    label = np.full(u.shape[0], -1, dtype=np.int64)
    label[back] = 3
    label[forward] = 2
    label[level] = 1
    label[tree] = 0
    keep = label >= 0
    names = ("tree", "level", "forward", "reverse")
    nodes = G.nodes
    for a, b, k in zip(u[keep].tolist(), v[keep].tolist(), label[keep].tolist()):
        yield nodes[a], nodes[b], names[k]


__all__ = ["edge_bfs", "bfs_labeled_edges"]
