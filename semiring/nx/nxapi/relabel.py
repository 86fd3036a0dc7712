"""networkx's ``relabel_nodes`` (a copy), ``convert_node_labels_to_integers`` and the binary
operators ``compose``, ``union``, ``disjoint_union`` (and their ``_all`` forms): graphs rebuilt
from backend graphs as networkx builds them (its ``add_nodes_from`` and ``add_edges_from``
calls in its order, ``semiring.nx.nxapi._graphs``).

These compute nothing beyond the relabelling (the degree orderings read the engine's degrees);
they let the backend return the graphs networkx's own tests build their inputs with. Multigraphs
decline (their edge keys are not held), as do node attributes and edge attributes the backend
graph does not hold.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from ... import _checks
from ...backends._xp import asnumpy
from ._common import checked_by
from ._graphs import attribute_reason, edge_values, nx_class


def _reason(G):
    if G.is_multigraph():
        return "a multigraph's edge keys are not held by the backend graph"
    return attribute_reason(G)


def edges_order(G):
    """(rows, cols) of ``G.edges()`` in networkx's order (an undirected edge once, from the
    endpoint that comes first in G's node order)."""
    indptr, indices = G.order
    n = len(G)
    rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    if G.is_directed():
        return rows, indices
    keep = indices >= rows
    return rows[keep], indices[keep]


def _add(R, G, labels):
    """networkx's ``R.graph.update(G.graph); R.add_nodes_from(G.nodes(data=True));
    R.add_edges_from(G.edges(data=True))`` with G's node i named ``labels[i]``."""
    R.graph.update(G.graph)
    R.add_nodes_from(labels)
    rows, cols = edges_order(G)
    us = [labels[i] for i in rows.tolist()]
    vs = [labels[i] for i in cols.tolist()]
    data = edge_values(G, rows, cols)
    R.add_edges_from(zip(us, vs) if data is None else zip(us, vs, data))


def _degree(G):
    """networkx's degree of each node (a self-loop counts twice) from the engine's degrees."""
    S = G.structure
    deg = asnumpy(S.out_degree.to_dense(0)).astype(np.int64)
    if G.is_directed():
        return deg + asnumpy(S.in_degree.to_dense(0)).astype(np.int64)
    rows, cols, _ = (asnumpy(a) for a in S.A.to_coo())
    loops = rows[rows == cols]
    deg[loops] += 1
    return deg


def _convert_reason(G, first_label=0, ordering="default", label_attribute=None):
    return _checks.reason(_checks.integer, first_label, "", "first_label") or _reason(G)


@checked_by(_convert_reason)
def convert_node_labels_to_integers(G, first_label=0, ordering="default", label_attribute=None):
    """networkx.convert_node_labels_to_integers: G with its nodes numbered from ``first_label``
    by ``ordering`` ("default", "sorted", "increasing degree", "decreasing degree"), nodes and
    edges in G's order; the old labels in ``label_attribute`` when given.

    Raises networkx.NetworkXError for an unknown ordering (and TypeError where networkx's sorts
    meet labels that do not compare).
    """
    nodes = G.nodes
    n = len(nodes)
    first_label = int(first_label)
    if ordering == "default":
        mapping = dict(zip(nodes, range(first_label, first_label + n)))
    elif ordering == "sorted":
        mapping = dict(zip(sorted(nodes), range(first_label, first_label + n)))
    elif ordering in ("increasing degree", "decreasing degree"):
        pairs = sorted(zip(_degree(G).tolist(), nodes)) if n else []
        if ordering == "decreasing degree":
            pairs.reverse()
        mapping = dict(zip([v for _, v in pairs], range(first_label, first_label + n)))
    else:
        raise nx.NetworkXError(f"Unknown node ordering: {ordering}")
    H = _relabelled(G, [mapping[v] for v in nodes])
    if label_attribute is not None:  # networkx's set_node_attributes(H, {new: old}, label_attribute)
        for old, new in mapping.items():
            H._node[new][label_attribute] = old
    return H


def _relabel_reason(G, mapping, copy=True):
    if copy is not True:
        return "copy=False relabels the networkx graph in place; the backend holds a converted copy"
    if not callable(mapping) and not isinstance(mapping, dict):
        return f"mapping must be a dict or a callable; given {type(mapping).__name__}"
    return _reason(G)


def _relabelled(G, labels):
    """networkx's ``_relabel_copy`` with G's node i renamed ``labels[i]`` (labels may merge)."""
    H = nx_class(G)()
    H.add_nodes_from(labels)
    rows, cols = edges_order(G)
    data = edge_values(G, rows, cols)
    us, vs = [labels[i] for i in rows.tolist()], [labels[i] for i in cols.tolist()]
    H.add_edges_from(zip(us, vs) if data is None else zip(us, vs, data))
    H.graph.update(G.graph)
    return H


@checked_by(_relabel_reason)
def relabel_nodes(G, mapping, copy=True):
    """networkx.relabel_nodes with ``copy=True``: a new graph with each node n named
    ``mapping.get(n, n)`` (``mapping(n)`` for a callable), in G's order."""
    if callable(mapping):
        mapping = {v: mapping(v) for v in G.nodes}
    return _relabelled(G, [mapping.get(v, v) for v in G.nodes])


def _pair_reason(G, H):
    return _reason(G) or _reason(H)


def _list_reason(graphs):
    if not isinstance(graphs, (list, tuple)):
        return f"graphs must be a list or tuple (an iterator would be consumed); given {type(graphs).__name__}"
    for G in graphs:
        why = _reason(G)
        if why:
            return why
    return None


def _kinds(R, G):
    if G.is_directed() != R.is_directed():
        raise nx.NetworkXError("All graphs must be directed or undirected.")
    if G.is_multigraph() != R.is_multigraph():
        raise nx.NetworkXError("All graphs must be graphs or multigraphs.")


def _compose(graphs):
    R = None
    for i, G in enumerate(graphs):
        if i == 0:
            R = nx_class(G)()
        else:
            _kinds(R, G)
        _add(R, G, G.nodes)
    if R is None:
        raise ValueError("cannot apply compose_all to an empty list")
    return R


def _union(graphs, rename=(), *, what="union_all"):
    """networkx's union_all over (graph, labels) pairs: ``labels`` names each graph's nodes."""
    R = None
    seen = set()
    names = list(rename)
    for i, (G, labels) in enumerate(graphs):
        prefix = names[i] if i < len(names) else None
        if prefix is not None:
            labels = [f"{prefix}{x}" for x in labels]
        here = set(labels)
        if i == 0:
            R = nx_class(G)()
        else:
            _kinds(R, G)
            if not seen.isdisjoint(here):
                raise nx.NetworkXError("The node sets of the graphs are not disjoint.\n"
                                       "Use `rename` to specify prefixes for the graphs or use\n"
                                       "disjoint_union(G1, G2, ..., GN).")
        seen |= here
        _add(R, G, labels)
    if R is None:
        raise ValueError(f"cannot apply {what} to an empty list")
    return R


def _numbered(graphs):
    first = 0
    for G in graphs:
        yield G, list(range(first, first + len(G)))
        first += len(G)


@checked_by(_pair_reason)
def compose(G, H):
    """networkx.compose: G's nodes and edges, then H's (H's attributes win), G's class.

    Raises networkx.NetworkXError when one graph is directed and the other not.
    """
    return _compose([G, H])


@checked_by(lambda graphs: _list_reason(graphs))
def compose_all(graphs):
    """networkx.compose_all. Raises ValueError for no graphs, networkx.NetworkXError for graphs
    of different kinds."""
    return _compose(graphs)


@checked_by(lambda G, H, rename=(): _pair_reason(G, H))
def union(G, H, rename=()):
    """networkx.union: G's and H's nodes (prefixed by ``rename``), which must be disjoint."""
    return _union([(G, G.nodes), (H, H.nodes)], rename)


@checked_by(lambda graphs, rename=(): _list_reason(graphs))
def union_all(graphs, rename=()):
    """networkx.union_all. Raises networkx.NetworkXError for node sets that meet or graphs of
    different kinds, ValueError for no graphs."""
    return _union([(G, G.nodes) for G in graphs], rename)


@checked_by(_pair_reason)
def disjoint_union(G, H):
    """networkx.disjoint_union: G's nodes numbered 0..len(G)-1 and H's from len(G), in their
    node orders, with their edges and attributes."""
    return _union(_numbered([G, H]))


@checked_by(lambda graphs: _list_reason(graphs))
def disjoint_union_all(graphs):
    """networkx.disjoint_union_all."""
    return _union(_numbered(graphs))


__all__ = ["relabel_nodes", "convert_node_labels_to_integers", "compose", "compose_all", "union", "union_all",
           "disjoint_union", "disjoint_union_all", "edges_order"]
