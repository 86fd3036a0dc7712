"""networkx's bipartite ``is_bipartite``, ``color``, ``sets`` and ``is_bipartite_node_set``
on the engine's BFS levels.

A graph is 2-colourable iff no edge joins two vertices at the same BFS-level parity. networkx
colours each component from its first node (in G's order) that has a successor (any neighbour,
undirected), with colour 1, so that node is each component's BFS source: one multi-source BFS
(``q<!level.S> = q any.pair A``, on ``A + A'`` for a directed graph, whose colouring follows
predecessors and successors alike) gives every level, ``1 - level mod 2`` the colour, and two
masked products find a conflict: ``t<odd.S> = A any.pair odd`` (and the same for the even
levels) has an entry iff an edge joins two odd (two even) vertices. Nodes of degree 0 get 0.

networkx's ``color`` dict follows its depth-first search; the backend's lists the nodes with
edges in G's node order, then the nodes of degree 0 (as networkx puts them last).
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from ... import algorithms as _alg
from ... import core as _core
from ...algorithms.graph import Graph as _EngineGraph
from ...backends._xp import asnumpy
from ...core.vector import Vector
from ...ops import binary, semiring
from .. import _derived
from ..algorithms.traversal import levels
from ._common import checked_by, entries
from .isolates import _isolated


def undirected(G):
    """The engine graph of A + A' (G's pattern for an undirected graph), computed once."""
    if not G.is_directed():
        return G.structure
    S = G.structure
    # U = A lor A'
    return _derived.once(S, "undirected", lambda: _EngineGraph(_core.ewise_add(S.A, S.AT, binary.lor),
                                                               kind="undirected"))


def _sources(G, U):
    """The first node with a successor in each component (networkx's colouring roots)."""
    label = asnumpy(_alg.connected_components(U).to_dense()).astype(np.int64)
    cand = np.flatnonzero(np.diff(G.order[0]) > 0)
    # the smallest candidate index per component label
    _, first = np.unique(label[cand], return_index=True)
    return cand[first]


def _colours(G):
    """(colour per node, which nodes have a neighbour of their own colour), host arrays."""
    n = len(G)
    colour = np.zeros(n, dtype=np.int64)
    clash = np.zeros(n, dtype=bool)
    if not n:
        return colour, clash
    U = undirected(G)
    roots = _sources(G, U)
    if not roots.shape[0]:
        return colour, clash
    lv = levels(U, roots)
    reached = lv >= 0
    colour[reached] = 1 - lv[reached] % 2
    dev = G.device
    for side in (1, 0):
        members = np.flatnonzero(reached & (colour == side))
        s = Vector.from_coo(members, np.ones(members.shape[0], bool), size=n, dtype="bool", device=dev)
        # t<s.S> = A any.pair s   (the nodes of this colour with a neighbour of this colour)
        clash[entries(_core.mxv(U.A, s, semiring.any_pair, mask=s.S))[0]] = True
    return colour, clash


def is_bipartite(G):
    """networkx.is_bipartite: whether G is 2-colourable (predecessors and successors alike on a
    directed graph; a self-loop never is).

    A BFS from one node per component, level by level, stops at the first level holding an edge
    (``t<q.S> = A any.pair q``): in BFS levels an edge joins two nodes of the same parity iff
    they are on the same level.
    """
    n = len(G)
    if not n:
        return True
    U = undirected(G)
    dev = G.device
    # first the component of the first node with an edge (most odd cycles show there, and
    # soon), then one root for each component not reached
    first = np.flatnonzero(np.diff(G.order[0]) > 0)[:1]
    seen = Vector.from_coo(first, np.ones(first.shape[0], bool), size=n, dtype="bool", device=dev)
    if not _even_levels(U, first, seen, n, dev):
        return False
    roots = _sources(G, U)
    reached = np.zeros(n, dtype=bool)
    reached[entries(seen)[0]] = True
    roots = roots[~reached[roots]]
    if roots.shape[0]:
        _core.assign(seen, True, roots)
    return _even_levels(U, roots, seen, n, dev)


def _even_levels(U, roots, seen, n, dev):
    """BFS from ``roots`` (already in ``seen``), level by level: False at the first level that
    holds an edge (in BFS levels an edge joins two nodes of one parity iff they share a level)."""
    q = Vector.from_coo(roots, np.ones(roots.shape[0], bool), size=n, dtype="bool", device=dev)
    while q.nvals:
        # t<q.S> = A any.pair q   (an edge inside this level: an odd cycle)
        if _core.mxv(U.A, q, semiring.any_pair, mask=q.S).nvals:
            return False
        # q<!seen.S, replace> = q any.pair A;  seen<q.S> = true
        q = _core.vxm(q, U.A, semiring.any_pair, mask=~seen.S)
        _core.assign(seen, True, None, mask=q.S)
    return True


def color(G):
    """networkx.bipartite.color: ``{node: 0 or 1}``, each component's first node with a
    successor coloured 1; nodes with edges in G's order, then the nodes of degree 0 (coloured 0).

    Raises networkx.NetworkXError("Graph is not bipartite.") as networkx does.
    """
    colour, clash = _colours(G)
    if clash.any():
        raise nx.NetworkXError("Graph is not bipartite.")
    lonely = _isolated(G) if len(G) else np.zeros(0, bool)
    nodes = G.nodes
    order = np.concatenate([np.flatnonzero(~lonely), np.flatnonzero(lonely)])
    return {nodes[i]: c for i, c in zip(order.tolist(), colour[order].tolist())}


def _connected(G):
    if not len(G):
        raise nx.NetworkXPointlessConcept("Connectivity is undefined for the null graph.")
    label = asnumpy(_alg.connected_components(undirected(G)).to_dense())
    return bool((label == 0).all())


def sets(G, top_nodes=None):
    """networkx.bipartite.sets: (X, Y), X the nodes coloured 1 (or ``set(top_nodes)``).

    Raises networkx.AmbiguousSolution for a disconnected graph without ``top_nodes``,
    networkx.NetworkXPointlessConcept for the null graph and networkx.NetworkXError for a graph
    that is not bipartite, as networkx does.
    """
    if top_nodes is not None:
        X = set(top_nodes)
        return X, set(G.nodes) - X
    if not _connected(G):
        raise nx.AmbiguousSolution("Disconnected graph: Ambiguous solution for bipartite sets.")
    c = color(G)
    return {v for v, top in c.items() if top}, {v for v, top in c.items() if not top}


def _node_set_reason(G, nodes):
    try:
        iter(nodes)
        len(nodes)
    except TypeError:
        return f"nodes must be a sized iterable of nodes; given {type(nodes).__name__}"
    return None


@checked_by(_node_set_reason)
def is_bipartite_node_set(G, nodes):
    """networkx.bipartite.is_bipartite_node_set: whether ``nodes`` is one side of a 2-colouring
    of every component.

    Raises networkx.AmbiguousSolution when ``nodes`` repeats a node and networkx.NetworkXError
    when a component is not bipartite, as networkx does.
    """
    S = set(nodes)
    if len(S) < len(nodes):
        raise nx.AmbiguousSolution(
            "The input node set contains duplicates.\n"
            "This may lead to incorrect results when using it in bipartite algorithms.\n"
            "Consider using set(nodes) as the input")
    if G.is_directed():  # networkx's connected_components
        raise nx.NetworkXNotImplemented("not implemented for directed type")
    n = len(G)
    if not n:
        return True
    colour, clash = _colours(G)
    label = asnumpy(_alg.connected_components(G.structure).to_dense()).astype(np.int64)
    inside = np.zeros(n, dtype=bool)
    index = G.index
    inside[[index[v] for v in S if v in index]] = True
    # per component: S is its colour-1 side or its colour-0 side (either colouring of it)
    top = colour == 1
    agree = np.ones(n, dtype=bool)
    flip = np.ones(n, dtype=bool)
    np.logical_and.at(agree, label, top == inside)
    np.logical_and.at(flip, label, top != inside)
    bad = np.zeros(n, dtype=bool)
    bad[label[clash]] = True
    fail = ~(agree | flip) & ~bad
    fail[label != np.arange(n)] = False  # one entry per component, at its label
    # networkx checks the components in order of their first node (their label)
    first_bad = np.flatnonzero(bad)
    first_fail = np.flatnonzero(fail)
    if first_bad.shape[0] and (not first_fail.shape[0] or first_bad[0] < first_fail[0]):
        raise nx.NetworkXError("Graph is not bipartite.")
    return not first_fail.shape[0]



__all__ = ["is_bipartite", "color", "sets", "is_bipartite_node_set", "undirected"]
