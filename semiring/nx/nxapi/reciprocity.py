"""networkx's reciprocity of directed graphs on the engine.

The reciprocated edges are the pattern ``A .* A'`` (``ewise_mult``): overall reciprocity counts
its off-diagonal entries against ``nvals(A)``; a node's reciprocity is ``2 |pred & succ| /
(|pred| + |succ|)`` from the row count of ``A .* A'`` and the in- and out-degrees (a self-loop
is its own predecessor and successor, as in networkx). Exact integer counts: networkx's values.
"""

from __future__ import annotations

import networkx as nx

from ... import core as _core
from ...ops import binary, indexunary
from ..algorithms import clustering as _cl
from ._common import checked_by
from ._measures import nbunch, parallel_reason


def _check(G):
    # networkx's not_implemented_for("undirected", "multigraph") refuses undirected multigraphs
    if not G.is_directed() and G.is_multigraph():
        raise nx.NetworkXNotImplemented("not implemented for undirected multigraph type")


def _reason(G, nodes=None):
    if not G.is_directed() and not G.is_multigraph() and nodes is not None:
        return "networkx asks an undirected graph for its predecessors and fails"
    return parallel_reason(G)


def _mutual(G):
    # R = A .* A'   (pattern: the edges whose reverse is an edge)
    return _core.ewise_mult(G.A, G.A.T, binary.pair)


@checked_by(lambda G: _reason(G))
def overall_reciprocity(G):
    """networkx.overall_reciprocity: the share of edges whose reverse is an edge (self-loops not
    reciprocated).

    An undirected graph has no reciprocated edge (0.0), as networkx computes it. Raises
    networkx.NetworkXError for a graph without edges, and networkx.NetworkXNotImplemented for
    undirected multigraphs.
    """
    _check(G)
    reason = _reason(G)
    if reason:
        raise NotImplementedError(reason)
    if not G.is_directed():
        if not G.number_of_edges():
            raise nx.NetworkXError("Not defined for empty graphs")
        return 0.0  # every edge of an undirected graph is its own reverse: networkx counts no overlap
    n_all_edge = G.A.nvals
    if n_all_edge == 0:
        raise nx.NetworkXError("Not defined for empty graphs")
    # overlap = nvals(offdiag(A .* A'))
    n_overlap_edge = _core.select(_mutual(G), indexunary.offdiag).nvals
    return n_overlap_edge / n_all_edge


@checked_by(_reason)
def reciprocity(G, nodes=None):
    """networkx.reciprocity: overall reciprocity (``nodes=None``), one node's, or ``{node: value}``
    in ``nodes``' order (None for a node without edges).

    Raises networkx.NetworkXError for a single isolated node, and
    networkx.NetworkXNotImplemented for undirected multigraphs.
    """
    _check(G)
    reason = _reason(G, nodes)
    if reason:
        raise NotImplementedError(reason)
    if nodes is None:
        return overall_reciprocity(G)
    both = _cl.row_counts(_mutual(G)).tolist()
    total = (_cl.row_counts(G.A) + _cl.row_counts(G.A.T)).tolist()
    index = G.index

    def value(v):
        i = index[v]
        return None if total[i] == 0 else 2 * both[i] / total[i]

    if nodes in G:
        r = value(nodes)
        if r is None:
            raise nx.NetworkXError("Not defined for isolated nodes.")
        return r
    return {v: value(v) for v in nbunch(G, nodes)}


__all__ = ["reciprocity", "overall_reciprocity"]
