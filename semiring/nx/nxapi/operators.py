"""networkx's ``complement`` and ``reverse``, rebuilt as networkx builds them.

The complement's pattern is the engine's ``C<!A.S> = true`` without the diagonal (a dense
result: n^2 - nnz entries, checked against the memory before it is made); its edges go in as
networkx adds them, row by row in node order (an undirected multigraph gets each pair twice,
as networkx's does). The reverse is the transposed pattern, its edges added in the order of
G's edges. Graph subclasses decline (networkx returns ``G.__class__()``); ``reverse`` declines
multigraphs (edge keys), ``copy=False`` (networkx reverses the graph in place) and graphs with
node or edge attributes (networkx copies them; its dispatcher converts none for it).
"""

from __future__ import annotations

import copy

import networkx as nx
import numpy as np

from ... import core as _core
from ..._memory import require
from ...backends._xp import asnumpy
from ...core.matrix import Matrix
from ...ops import indexunary
from ._common import checked_by
from ._graphs import adjacency_entries, build, plain_reason


@checked_by(lambda G: plain_reason(G))
def complement(G):
    """networkx.complement: the graph of the node pairs (u != v) that are not edges, G's class,
    nodes in G's order, no attributes."""
    n = len(G)
    require(n * n * 17, "complement (its n x n pattern and the edge lists)")
    C = Matrix(n, n, "bool", device=G.device)
    # C<!A.S> = true   (every pair that is not an edge), then C = offdiag(C)
    _core.assign(C, True, (None, None), mask=~G.structure.A.S)
    rows, cols, _ = (asnumpy(a) for a in _core.select(C, indexunary.offdiag).to_coo())
    o = np.lexsort((cols, rows))
    return build(G, np.arange(n), rows[o].astype(np.int64), cols[o].astype(np.int64), graph={}, data=False)


def _reverse_reason(G, copy=True):
    if copy is not True:
        return "copy=False reverses the networkx graph in place; the backend holds a converted copy"
    if G.is_multigraph():
        return "a multigraph's reverse keeps edge keys and each parallel edge's data; the backend graph holds neither"
    why = plain_reason(G)
    if why or not isinstance(G, nx.Graph):
        return why
    if any(G._node[v] for v in G._node):
        return "G has node attributes, which the backend graph does not hold"
    if any(d for _, _, d in G.edges(data=True)):
        return "G has edge attributes, which networkx's dispatcher does not convert for reverse"
    return None


@checked_by(_reverse_reason)
def reverse(G, copy=True):
    """networkx.reverse: a new DiGraph with every edge turned around (edges added in the order of
    G's edges; graph attributes deep-copied).

    Raises networkx.NetworkXError for an undirected graph, as networkx does.
    """
    if not G.is_directed():
        raise nx.NetworkXError("Cannot reverse an undirected graph.")
    why = _reverse_reason(G, copy)
    if why:
        raise NotImplementedError(why)
    rows, cols = adjacency_entries(G, np.arange(len(G), dtype=np.int64))
    return build(G, np.arange(len(G)), cols, rows, graph=_deepcopy(G.graph))


def _deepcopy(x):
    return copy.deepcopy(x)


__all__ = ["complement", "reverse"]
