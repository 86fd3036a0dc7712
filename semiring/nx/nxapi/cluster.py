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


def _nbunch(G, nodes):
    """The nodes of the iterable ``nodes`` that are in G, in order: networkx's ``nbunch_iter``,
    with its errors for a non-iterable or an unhashable member."""
    try:
        for v in nodes:
            if v in G.index:
                yield v
    except TypeError as err:
        message = err.args[0] if err.args else ""
        if "iter" in message:
            raise nx.NetworkXError("nbunch is not a node or a sequence of nodes.") from err
        if "hashable" in message:
            raise nx.NetworkXError(f"Node {v} in sequence nbunch is not a valid node.") from err
        raise


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

    Raises networkx.NetworkXError when ``nodes`` is neither a node nor an iterable of nodes.
    """
    if G.is_directed():
        raise nx.NetworkXNotImplemented("not implemented for directed type")
    if nodes is not None and nodes in G:
        return _counts(G)[G.index[nodes]]
    if nodes is None:
        return dict(zip(G.nodes, _counts(G)))
    wanted = list(_nbunch(G, nodes))
    if not wanted:
        return {}
    counts = _counts(G)
    return {v: counts[G.index[v]] for v in wanted}


__all__ = ["triangles"]
