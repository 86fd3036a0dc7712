"""networkx's local and global reaching centralities (unweighted) on the engine's BFS.

A node's local reaching centrality is the share of the other nodes it reaches (directed), or
the mean over the other nodes of ``1 / d`` (undirected; networkx's average edge "weight" 1 per
path, over its length). The hop counts come from one BFS (local) or a batched BFS from every node
(global, :mod:`semiring.nx.algorithms.searches`); the ``1 / d`` terms are added level by level
in the order networkx's breadth-first paths list them, so the sums are networkx's to the last
bit (the global centrality's ``max - c`` differences included).

Weighted reaching (paths by ``total / weight`` lengths, whose ties networkx breaks by its own
search order) declines after networkx's own checks of the weights (negative weights, a total
weight <= 0 raise its errors); given ``paths`` decline.

References
----------
E. Mones, L. Vicsek, T. Vicsek, "Hierarchy measure for complex networks", PLoS ONE 7(3), 2012.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from ...backends._xp import asnumpy
from ..algorithms.searches import batches, hop_matrix
from ..algorithms.traversal import levels
from ._common import checked_by, weight_reason


def _sum_by_level(counts):
    """Per row, 0 + (1/1 added counts[:, 0] times) + (1/2 added counts[:, 1] times) + ..., in that
    order (networkx's sum over its paths). ``counts`` is int (rows x depth)."""
    total = np.zeros(counts.shape[0])
    for d in range(counts.shape[1]):
        c = counts[:, d]
        step = 1 / (d + 1)
        for k in range(int(c.max()) if c.shape[0] else 0):
            total[c > k] += step
    return total


_WEIGHTED = "weighted reaching follows networkx's own choice among equally short paths; the backend is unweighted"


def _reason(G, *args, weight=None, paths=None, **kwargs):
    if paths is not None:
        return "given paths are networkx's dict of paths; the backend computes its own"
    return weight_reason(weight)


def _weighted(G, weight, local):
    """networkx's checks of a weighted call (its errors), then NotImplementedError: the weighted
    measure itself is networkx's."""
    from ... import core as _core
    from ...ops import indexunary, monoid

    W = G.weighted(weight).A
    total = _core.reduce_scalar(W, monoid.plus).item() if W.nvals else 0
    if not G.is_directed():  # an undirected edge is two entries, a self-loop one
        loops = _core.reduce_scalar(_core.select(W, indexunary.diag), monoid.plus).item() if W.nvals else 0
        total = (total + loops) / 2
    if local and total > 0 and len(G) == 1:
        raise nx.NetworkXError("local_reaching_centrality of a single node with self-loop not well-defined")
    if W.nvals and G.min_weight(weight) < 0:
        raise nx.NetworkXError("edge weights must be positive")
    if total <= 0:
        raise nx.NetworkXError("Size of G must be positive")
    raise NotImplementedError(_WEIGHTED)


def _edges_check(G, local_single=True):
    size = G.number_of_edges()
    if local_single and size > 0 and len(G) == 1:
        raise nx.NetworkXError("local_reaching_centrality of a single node with self-loop not well-defined")
    if size <= 0:
        raise nx.NetworkXError("Size of G must be positive")


def _values(G, rows_levels):
    """Local reaching centrality of each row of hop counts (host int arrays, -1 unreached)."""
    n = len(G)
    if G.is_directed():
        return [(int((r >= 0).sum()) - 1) / (n - 1) for r in rows_levels]
    top = max((int(r.max()) for r in rows_levels), default=0)
    counts = np.zeros((len(rows_levels), max(top, 0)), dtype=np.int64)
    for i, r in enumerate(rows_levels):
        hops = r[r > 0]
        if hops.shape[0]:
            counts[i, :int(hops.max())] = np.bincount(hops - 1, minlength=int(hops.max()))
    return [s / 1 / (n - 1) for s in _sum_by_level(counts).tolist()]


@checked_by(lambda G, v, paths=None, weight=None, normalized=True: _reason(G, weight=weight, paths=paths))
def local_reaching_centrality(G, v, paths=None, weight=None, normalized=True):
    """networkx.local_reaching_centrality (``weight=None``, ``paths=None``).

    Raises networkx.NetworkXError for a graph without edges or a single node with a self-loop,
    and networkx.NodeNotFound when ``v`` is not a node, as networkx does.
    """
    reason = _reason(G, weight=weight, paths=paths)
    if reason:
        raise NotImplementedError(reason)
    if weight is not None:
        _weighted(G, weight, local=True)
    _edges_check(G)
    if v not in G:
        raise nx.NodeNotFound(f"Source {v} not in G")
    return _values(G, [levels(G.structure, [G.index[v]])])[0]


@checked_by(lambda G, weight=None, normalized=True: _reason(G, weight=weight))
def global_reaching_centrality(G, weight=None, normalized=True):
    """networkx.global_reaching_centrality (``weight=None``): the mean excess of the largest
    local reaching centrality over every node's.

    Raises networkx.NetworkXError for a graph without edges or a single node with a self-loop.
    """
    reason = _reason(G, weight=weight)
    if reason:
        raise NotImplementedError(reason)
    if weight is not None:
        _weighted(G, weight, local=False)
    _edges_check(G, local_single=False)
    if len(G) == 1:
        _edges_check(G)
    n = len(G)
    lrc = []
    for batch in batches(np.arange(n, dtype=np.int64), n):
        L = hop_matrix(G.A, batch, undirected=not G.is_directed())
        rows, cols, vals = (asnumpy(a) for a in L.to_coo())
        dense = np.full((batch.shape[0], n), -1, dtype=np.int64)
        dense[rows, cols] = vals
        lrc += _values(G, list(dense))
    max_lrc = max(lrc)
    return sum(max_lrc - c for c in lrc) / (len(G) - 1)


__all__ = ["local_reaching_centrality", "global_reaching_centrality"]
