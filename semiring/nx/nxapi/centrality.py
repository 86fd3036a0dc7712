"""networkx.betweenness_centrality on the engine's batched Brandes algorithm
(``semiring.algorithms.betweenness_centrality``), unweighted.

With ``k``, the sources are drawn exactly as networkx draws them, ``seed.sample(list(G), k)``
on the ``random.Random`` that networkx's ``py_random_state`` made of ``seed``, so the estimate
is networkx's for the same seed; the scaling is networkx's ``_rescale``. Weighted betweenness
(Dijkstra's shortest paths) declines.
"""

from __future__ import annotations

from ... import algorithms as _alg
from ...backends._xp import asnumpy
from ._common import checked_by


def _reason(G, k=None, normalized=True, weight=None, endpoints=False, seed=None):
    if weight is not None:
        return "weighted betweenness (Dijkstra's shortest paths) is not in the engine; it is unweighted (BFS)"
    return None


@checked_by(_reason)
def betweenness_centrality(G, k=None, normalized=True, weight=None, endpoints=False, seed=None):
    """networkx.betweenness_centrality (``weight=None``): ``{node: value}`` in node order.

    Raises ValueError as networkx's sampling does for k > n or k < 0, and ZeroDivisionError for
    k = 0 where networkx's rescaling divides by zero.
    """
    reason = _reason(G, k, normalized, weight, endpoints, seed)
    if reason:
        raise NotImplementedError(reason)
    nodes = G.nodes
    if k == len(G):
        k = None  # networkx: all nodes, the same result
    sources = None
    if k is not None:
        sources = [G.index[v] for v in seed.sample(list(nodes), k)]
        if not sources:
            N = len(G) if endpoints else len(G) - 1
            if N >= 2:
                raise ZeroDivisionError("division by zero")  # networkx's rescale with no source
            return dict.fromkeys(nodes, 0.0)
    bc = _alg.betweenness_centrality(G.structure, sources=sources, normalized=normalized, endpoints=endpoints)
    return dict(zip(nodes, asnumpy(bc.to_dense()).tolist()))


__all__ = ["betweenness_centrality"]
