"""networkx's isolates (nodes of degree 0) and ``number_of_selfloops`` on the engine.

A node is isolated when its row and column of the adjacency are empty: ``d = reduce_rowwise(A,
plus)`` (and ``reduce_columnwise`` on a directed graph) has no entry there. A self-loop counts
(networkx's degree counts it twice), as it is an entry of A. The self-loops are the entries of
``select(A, diag)``.
"""

from __future__ import annotations

import numpy as np

from ... import core as _core
from ...backends._xp import asnumpy
from ...ops import indexunary
from ._common import checked_by
from ._graphs import parallel_reason


def _isolated(G):
    """Host bool array: which nodes have degree 0."""
    S = G.structure
    lonely = np.ones(len(G), dtype=bool)
    # a node with an out-edge (or, directed, an in-edge) has an entry in the degree vector
    lonely[asnumpy(S.out_degree.to_coo()[0])] = False
    if G.is_directed():
        lonely[asnumpy(S.in_degree.to_coo()[0])] = False
    return lonely


def isolates(G):
    """networkx.isolates: an iterator over the nodes of degree 0, in G's node order."""
    nodes = G.nodes
    return (nodes[i] for i in np.flatnonzero(_isolated(G)).tolist())


def number_of_isolates(G):
    """networkx.number_of_isolates."""
    return int(np.count_nonzero(_isolated(G))) if len(G) else 0


def _node_reason(G, n):
    return None if n in G else ("n is not a node of G (networkx answers by reading it as a bunch of nodes, or "
                                "raises)")


def _is_isolate(G, n):
    i = G.index[n]
    indptr = G.order[0]
    if indptr[i + 1] > indptr[i]:
        return False
    return not G.is_directed() or G.pred_order[0][i + 1] == G.pred_order[0][i]


@checked_by(_node_reason)
def is_isolate(G, n):
    """networkx.is_isolate: whether node n has degree 0 (read from the adjacency arrays)."""
    if n not in G:
        raise NotImplementedError(_node_reason(G, n))
    return bool(_is_isolate(G, n))


@checked_by(lambda G: parallel_reason(G))
def number_of_selfloops(G):
    """networkx.number_of_selfloops: ``nvals(select(A, diag))``. Declines multigraphs with
    parallel edges (networkx counts each parallel self-loop)."""
    # L = select(A, diag)   (the self-loops)
    return _core.select(G.structure.A, indexunary.diag).nvals if len(G) else 0


__all__ = ["isolates", "number_of_isolates", "is_isolate", "number_of_selfloops"]
