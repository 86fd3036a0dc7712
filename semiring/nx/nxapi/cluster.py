"""networkx.triangles on the engine's per-vertex triangle counts
(``semiring.algorithms.triangles_per_vertex``: two masked ``plus.pair`` products).

The counts are exact integers, the same as networkx's for every node (self-loops ignored,
parallel edges of a multigraph counted once, as networkx's neighbour sets do). networkx declines
directed graphs itself (``not_implemented_for("directed")``) before dispatching.
"""

from __future__ import annotations

import networkx as nx

from ... import algorithms as _alg
from ._common import entries


class _Members:
    """What networkx's ``Graph.nbunch_iter`` reads of a graph (membership and ``_adj``), so that
    ``nodes`` is read by networkx's own code, with its own errors."""

    def __init__(self, index):
        self._adj = index

    def __contains__(self, node):
        try:
            return node in self._adj
        except TypeError:
            return False


def _counts(G):
    """Host int64 array: the triangles of every node, in node order."""
    idx, vals = entries(_alg.triangles_per_vertex(G.structure))
    out = [0] * len(G)
    for i, t in zip(idx.tolist(), vals.tolist()):
        out[i] = t
    return out


def triangles(G, nodes=None):
    """networkx.triangles: ``{node: count}`` (every node, or those of ``nodes``), or one count
    when ``nodes`` is a node of G.

    Raises networkx.NetworkXError when ``nodes`` is neither a node nor an iterable of nodes, and
    networkx.NetworkXNotImplemented for ``nodes`` on a multigraph, as networkx does.
    """
    if G.is_directed():
        raise nx.NetworkXNotImplemented("not implemented for directed type")
    if nodes is None:
        return dict(zip(G.nodes, _counts(G)))
    if G.is_multigraph():  # networkx's per-node path is not_implemented_for("multigraph")
        raise nx.NetworkXNotImplemented("not implemented for multigraph type")
    if nodes in G:
        return _counts(G)[G.index[nodes]]
    wanted = list(nx.Graph.nbunch_iter(_Members(G.index), nodes))
    if not wanted:
        return {}
    counts = _counts(G)
    return {v: counts[G.index[v]] for v in wanted}


__all__ = ["triangles"]
