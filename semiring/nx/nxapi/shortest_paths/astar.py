"""networkx.astar_path and astar_path_length without a heuristic, on the engine's SSSP.

With ``heuristic=None`` networkx's A* is Dijkstra's search: it pops by (distance, push counter),
pushes a node only when an edge strictly improves its queued distance and records the node it
was pushed from, so its path is the one networkx's Dijkstra returns
(:func:`semiring.nx.nxapi.shortest_paths.weighted.search`). A heuristic is a Python callable
evaluated per node: declined, networkx runs it.
"""

from __future__ import annotations

import networkx as nx

from .... import _checks
from ...algorithms.paths import path_to
from .._common import checked_by, weight_reason
from .weighted import search


def _reason(G, source, target, heuristic=None, weight="weight", *, cutoff=None):
    if heuristic is not None:
        return "a heuristic is a Python callable evaluated per node; the backend runs A* only without one"
    return weight_reason(weight) or _checks.reason(_checks.real, cutoff, "", "cutoff", none=True)


def _path(G, source, target, weight, cutoff):
    if source == target:
        return 0, [source]
    t = G.index[target]
    # networkx's "if cutoff and cost > cutoff": a cutoff of 0 (or None) bounds nothing
    s = search(G, [source], weight, cutoff if cutoff else None, until=t)
    if s.rank[t] < 0:
        raise nx.NetworkXNoPath(f"Node {target} not reachable from {source}")
    return s.dist[t].item(), path_to(s.parent, t, G.nodes)


@checked_by(_reason)
def astar_path(G, source, target, heuristic=None, weight="weight", *, cutoff=None):
    """networkx.astar_path (``heuristic=None``): networkx's Dijkstra path from ``source`` to
    ``target``, over nodes within ``cutoff``.

    Raises networkx.NodeNotFound for a missing ``source`` or ``target`` and
    networkx.NetworkXNoPath when ``target`` is not reached.
    """
    if source not in G:
        raise nx.NodeNotFound(f"Source {source} is not in G")
    if target not in G:
        raise nx.NodeNotFound(f"Target {target} is not in G")
    return _path(G, source, target, weight, cutoff)[1]


@checked_by(_reason)
def astar_path_length(G, source, target, heuristic=None, weight="weight", *, cutoff=None):
    """networkx.astar_path_length (``heuristic=None``): the length of :func:`astar_path`'s path.

    Raises networkx.NodeNotFound for a missing ``source`` or ``target`` and
    networkx.NetworkXNoPath when ``target`` is not reached.
    """
    if source not in G or target not in G:
        raise nx.NodeNotFound(f"Either source {source} or target {target} is not in G")
    return _path(G, source, target, weight, cutoff)[0]


__all__ = ["astar_path", "astar_path_length"]
