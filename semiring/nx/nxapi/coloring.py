"""networkx.greedy_color on the engine's greedy coloring (``coloring(A, method="greedy")``).

The engine colours vertices largest degree first (ties in node order, as networkx's stable
``sorted(G, key=G.degree, reverse=True)``), each with the smallest colour its coloured
neighbours lack: networkx's "largest_first" strategy exactly, on simple undirected graphs
without self-loops. Everything else declines.
"""

from __future__ import annotations

import numpy as np

from ... import algorithms as _alg
from ...backends._xp import asnumpy
from ._common import checked_by


def _largest_first(strategy):
    if isinstance(strategy, str):
        return strategy == "largest_first"
    from networkx.algorithms.coloring.greedy_coloring import strategy_largest_first

    return strategy is strategy_largest_first


def _reason(G, strategy="largest_first", interchange=False):
    if not _largest_first(strategy):
        name = strategy if isinstance(strategy, str) else getattr(strategy, "__name__", repr(strategy))
        return f"strategy {name!r}: the engine's greedy coloring is largest_first only"
    if interchange:
        return "interchange=True (the interchange recoloring) is not in the engine"
    if G.is_directed():
        return "networkx colours a directed graph against successors only; the engine colours the undirected graph"
    if G.is_multigraph():
        return "networkx's degree order counts parallel edges; the engine's counts neighbours"
    return None


@checked_by(_reason)
def greedy_color(G, strategy="largest_first", interchange=False):
    """networkx.greedy_color with ``strategy="largest_first"``: ``{node: color}`` in colouring order."""
    reason = _reason(G, strategy, interchange)
    if reason:
        raise NotImplementedError(reason)
    if not len(G):
        return {}
    if G.has_self_loops():
        raise NotImplementedError("self-loops count twice in networkx's degree order, not at all in the engine's")
    color = asnumpy(_alg.coloring(G.structure, method="greedy").to_dense()).tolist()
    order = np.argsort(-np.diff(G.order[0]), kind="stable").tolist()
    nodes = G.nodes
    return {nodes[i]: color[i] for i in order}


__all__ = ["greedy_color"]
