"""networkx.relabel_nodes (copy=True) and convert_node_labels_to_integers on a backend graph:
new labels, the same matrices.

Relabelling changes no edge: the result shares the adjacency and weight matrices of the input
and only replaces the labels (node i becomes ``first_label`` plus its position in the ordering),
keeping networkx's node order (the input's, relabelled). networkx builds the new graph by adding
the input's edges in ``G.edges`` order, which reorders neighbours: a directed graph's
predecessors come in node order, and an undirected node lists its neighbours that come before it
in node order first (in node order), then the others in its own order. The neighbour order of
the result is rebuilt that way (:func:`_rebuilt_order`), so later searches on it follow
networkx's order on networkx's relabelled graph.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from ..graph import Graph
from ._common import checked_by, is_int

_ORDERINGS = ("default", "sorted", "increasing degree", "decreasing degree")


def _graph_reason(G):
    """Why the relabelled backend graph would not carry all of networkx graph G, or None."""
    if isinstance(G, nx.Graph):
        if G.is_multigraph():
            return "a multigraph's edge keys are not held by the backend graph"
        if any(G._node[v] for v in G._node):
            return "the graph has node attributes; the backend graph holds none"
        if any(d for _, nbrs in G._adj.items() for d in nbrs.values()):
            return "the graph has edge attributes; the relabelled backend graph would not carry all of them"
    return None


def _reason(G, first_label=0, ordering="default", label_attribute=None):
    if label_attribute is not None:
        return "label_attribute sets node attributes; the backend graph holds none"
    if ordering in ("increasing degree", "decreasing degree"):
        return f"ordering={ordering!r} sorts (degree, node) pairs in Python; the backend relabels by position only"
    if not is_int(first_label):
        return f"first_label must be an int; given {first_label!r}"
    return _graph_reason(G)


def _rebuilt_order(G):
    """(order, pred_order) of the graph networkx builds from ``G.edges`` (see the module docstring)."""
    indptr, indices = G.order
    n = len(G)
    tail = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    if G.is_directed():
        o = np.lexsort((tail, indices))  # by head, then tail in node order
        ptr = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(np.bincount(indices, minlength=n), out=ptr[1:])
        return G.order, (ptr, tail[o])
    pos = np.arange(indices.shape[0], dtype=np.int64) - indptr[tail]
    later = indices >= tail
    # within each row: earlier neighbours by node order, then the rest in the row's own order
    o = np.lexsort((np.where(later, pos, indices), later, tail))
    return (indptr, indices[o]), None


def _relabel(G, labels):
    order, pred_order = _rebuilt_order(G)
    return Graph(labels, G.structure, G.weights, order, pred_order, directed=G.is_directed(),
                 multigraph=G.is_multigraph(), graph=G.graph)


def _new_labels(G, mapping):
    if callable(mapping):
        return [mapping(v) for v in G]
    return [mapping.get(v, v) for v in G]


def _relabel_reason(G, mapping, copy=True):
    if not copy:
        return "copy=False relabels the networkx graph in place"
    if not (callable(mapping) or hasattr(mapping, "get")):
        return f"mapping must be a dict-like or a callable; given {type(mapping).__name__}"
    reason = _graph_reason(G)
    if reason:
        return reason
    try:
        labels = _new_labels(G, mapping)
        distinct = len(set(labels)) == len(labels)
    except Exception as exc:  # noqa: BLE001 (the user's mapping: networkx raises what it raises)
        return f"the mapping raised {type(exc).__name__}; networkx reports it"
    if not distinct:
        return "the mapping merges nodes; the backend relabels one to one"
    return None


@checked_by(_relabel_reason)
def relabel_nodes(G, mapping, copy=True):
    """networkx.relabel_nodes with ``copy=True`` and a one-to-one mapping: a new graph with node v
    labelled ``mapping[v]`` (v where absent; ``mapping(v)`` for a callable), node order, edges and
    graph attributes kept."""
    reason = _relabel_reason(G, mapping, copy)
    if reason:
        raise NotImplementedError(reason)
    return _relabel(G, _new_labels(G, mapping))


@checked_by(_reason)
def convert_node_labels_to_integers(G, first_label=0, ordering="default", label_attribute=None):
    """networkx.convert_node_labels_to_integers: the same graph with nodes labelled
    ``first_label, first_label + 1, ...`` in G's order ("default") or in sorted order of the old
    labels ("sorted"); node order, edges and graph attributes kept.

    Raises networkx.NetworkXError for an unknown ordering.
    """
    if ordering not in _ORDERINGS:
        raise nx.NetworkXError(f"Unknown node ordering: {ordering}")
    reason = _reason(G, first_label, ordering, label_attribute)
    if reason:
        raise NotImplementedError(reason)
    n = len(G)
    first = int(first_label)
    if ordering == "default":
        labels = list(range(first, first + n))
    else:
        rank = {v: first + i for i, v in enumerate(sorted(G.nodes))}
        labels = [rank[v] for v in G.nodes]
    return _relabel(G, labels)


__all__ = ["convert_node_labels_to_integers", "relabel_nodes"]
