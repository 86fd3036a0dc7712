"""networkx's cores (``core_number``, ``k_core``, ``k_shell``, ``k_crust``, ``k_corona``,
``onion_layers``) and ``k_truss`` on the engine.

Cores by parallel peeling (the onion decomposition of Hébert-Dufresne, Grochow and Allard,
which refines the cores of Batagelj and Zaversnik): each round removes every remaining vertex
whose degree is at most ``k`` (``k`` the largest minimum degree seen so far); the removed
vertices' edges leave their neighbours' degrees by one ``plus.pair`` product of the adjacency
with the round's vertices (``d -= A' r``, and ``d -= A' r + A r`` on a directed graph, whose
degree is the in-degree plus the out-degree). A vertex's core number is the ``k`` of its round,
its onion layer the round's number: the same values as networkx's Batagelj-Zaversnik sweep
(and its layers, in its order). Only the vertices whose degree just fell can join the next
round at the same ``k``; the whole degree vector is scanned only when ``k`` grows.

k-truss by rounds of edge supports, as LAGraph's ``LAGraph_KTruss``: ``S<C> = C plus.pair C``
counts the triangles through each remaining edge, and the edges with fewer than ``k - 2``
leave together; then vertices left without edges are dropped, until a round drops nothing.

The subgraphs are rebuilt as networkx builds them (``semiring.nx.nxapi._graphs``); graphs
with node attributes or edge attributes the backend graph does not hold decline.

References
----------
V. Batagelj, M. Zaversnik, "An O(m) algorithm for cores decomposition of networks", 2003.
L. Hébert-Dufresne, J. A. Grochow, A. Allard, "Multi-scale structure and topological anomaly
detection via a new network statistic: the onion decomposition", Sci. Rep. 6, 31708, 2016.
J. Cohen, "Trusses: cohesive subgraphs for social network analysis", 2005. LAGraph
``LAGraph_KTruss`` (Davis).
"""

from __future__ import annotations


import networkx as nx
import numpy as np

from ... import _checks
from ... import core as _core
from ...backends._xp import asnumpy
from ...core.vector import Vector
from ...ops import indexunary, semiring, unary
from ._common import checked_by, entries
from ._graphs import adjacency_entries, attribute_reason, build, subgraph_copy

_SELF_LOOPS = ("Input graph has self loops which is not permitted; "
               "Consider using G.remove_edges_from(nx.selfloop_edges(G)).")


def _degrees(G):
    """Host int64: networkx's degree of each node (in + out on a directed graph)."""
    S = G.structure
    deg = asnumpy(S.out_degree.to_dense(0)).astype(np.int64)
    if G.is_directed():
        deg = deg + asnumpy(S.in_degree.to_dense(0)).astype(np.int64)
    return deg


def peel(G):
    """The onion decomposition by parallel peeling.

    Returns
    -------
    core : int64 array, shape (n,)
        Core numbers.
    rounds : list of int64 arrays
        The vertices of each round (layer), each ordered by (degree at the round's start, index):
        networkx's ``sorted(degrees, key=degrees.get)``.
    """
    n = len(G)
    S = G.structure
    deg = _degrees(G)
    alive = np.ones(n, dtype=bool)
    core = np.zeros(n, dtype=np.int64)
    rounds = []
    k, left = 0, n
    frontier = np.zeros(0, dtype=np.int64)
    while left:
        if not frontier.shape[0]:
            # no vertex fell to k: k grows to the smallest remaining degree
            k = max(k, int(deg[alive].min()))
            frontier = np.flatnonzero(alive & (deg <= k))
        frontier = frontier[np.lexsort((frontier, deg[frontier]))]
        rounds.append(frontier)
        core[frontier] = k
        alive[frontier] = False
        left -= frontier.shape[0]
        if not left:
            break
        r = Vector.from_coo(frontier, np.ones(frontier.shape[0], np.int64), size=n, dtype="int64", device=G.device)
        # t = r plus.pair A   (edges from the removed vertices into each vertex)
        idx, cnt = entries(_core.vxm(r, S.A, semiring.plus_pair))
        if G.is_directed():
            # t += A plus.pair r   (edges into the removed vertices)
            i2, c2 = entries(_core.mxv(S.A, r, semiring.plus_pair))
            idx, cnt = np.concatenate([idx, i2]), np.concatenate([cnt, c2])
        np.subtract.at(deg, idx, cnt.astype(np.int64))
        touched = idx[alive[idx]]
        frontier = np.unique(touched[deg[touched] <= k])
    return core, rounds


def _no_self_loops(G, message=_SELF_LOOPS):
    if G.has_self_loops():
        raise nx.NetworkXNotImplemented(message)


def core_number(G):
    """networkx.core_number: ``{node: core number}`` in G's node order.

    Raises networkx.NetworkXNotImplemented for a graph with self-loops (networkx rejects
    multigraphs before dispatching).
    """
    _no_self_loops(G)
    if not len(G):
        return {}
    core, _ = peel(G)
    return dict(zip(G.nodes, core.tolist()))


def _cores_reason(G, k=None, core_number=None):
    reason = _checks.reason(_checks.real, k, "", "k", none=True)
    if reason:
        return reason
    if core_number is not None and not isinstance(core_number, dict):
        return f"core_number must be a dict or None; given {type(core_number).__name__}"
    return attribute_reason(G)


def _corona_reason(G, k, core_number=None):
    return _cores_reason(G, k, core_number)


def _given_cores(G, given):
    """(node indices in the dict's order, core numbers by index) of a core_number dict."""
    index = G.index
    if len(given) != len(G) or any(v not in index for v in given):
        raise NotImplementedError("core_number does not list exactly G's nodes (networkx reads it as it is)")
    values = list(given.values())
    if not all(_checks.is_real(x) for x in values):
        raise NotImplementedError("core_number holds values that are not real numbers")
    order = np.fromiter((index[v] for v in given), dtype=np.int64, count=len(given))
    core = np.empty(len(G), dtype=np.float64 if any(isinstance(x, float) for x in values) else np.int64)
    core[order] = values
    return order, core


def _cores(G, given):
    if given is None:
        _no_self_loops(G)
        core, _ = peel(G) if len(G) else (np.zeros(0, np.int64), [])
        return np.arange(len(G), dtype=np.int64), core
    return _given_cores(G, given)


def _main(core, k, shift=0):
    if k is None:
        return max(core.tolist()) + shift  # networkx's max(): ValueError on a graph without nodes
    return k


def _subgraph(G, order, keep):
    """networkx's ``G.subgraph(v for v in core if keep(v)).copy()``, ``order``: the core dict's."""
    return subgraph_copy(G, order[keep[order]])


@checked_by(_cores_reason)
def k_core(G, k=None, core_number=None):
    """networkx.k_core: the subgraph of the nodes of core number >= k (default the main core),
    with G's graph and edge attributes, nodes and edges in networkx's order."""
    order, core = _cores(G, core_number)
    k = _main(core, k)
    return _subgraph(G, order, core >= k)


@checked_by(_cores_reason)
def k_shell(G, k=None, core_number=None):
    """networkx.k_shell: the subgraph of the nodes of core number k (default the main core)."""
    order, core = _cores(G, core_number)
    k = _main(core, k)
    return _subgraph(G, order, core == k)


@checked_by(_cores_reason)
def k_crust(G, k=None, core_number=None):
    """networkx.k_crust: the subgraph of the nodes of core number <= k (default the main core
    number less one)."""
    order, core = _cores(G, core_number)
    k = _main(core, k, shift=-1)
    return _subgraph(G, order, core <= k)


@checked_by(_corona_reason)
def k_corona(G, k, core_number=None):
    """networkx.k_corona: the subgraph of the nodes of core number k with exactly k neighbours
    (successors, on a directed graph) of core number >= k."""
    order, core = _cores(G, core_number)
    n = len(G)
    if not n:
        return subgraph_copy(G, order)
    inner = np.flatnonzero(core >= k)
    m = Vector.from_coo(inner, np.ones(inner.shape[0], np.int64), size=n, dtype="int64", device=G.device)
    # c = A plus.pair m   (each node's neighbours of core number >= k)
    idx, cnt = entries(_core.mxv(G.structure.A, m, semiring.plus_pair))
    inside = np.zeros(n, dtype=np.int64)
    inside[idx] = cnt
    return _subgraph(G, order, (core == k) & (inside == k))


def _truss_reason(G, k):
    return _checks.reason(_checks.real, k, "", "k") or attribute_reason(G)


@checked_by(_truss_reason)
def k_truss(G, k):
    """networkx.k_truss: the maximal subgraph whose every edge is in at least k - 2 triangles,
    without isolated nodes; G's node and adjacency order, graph and edge attributes.

    Raises networkx.NetworkXNotImplemented for a graph with self-loops (networkx rejects
    directed graphs and multigraphs before dispatching).
    """
    _no_self_loops(G)
    n = len(G)
    # C = one(A) as int64
    C = _core.apply(G.structure.A, unary.one).dup("int64")
    if k - 2 > 0:
        while True:
            # S<C> = C plus.pair C   (triangles through each remaining edge; none: no entry)
            S = _core.mxm(C, C, semiring.plus_pair, mask=C.S)
            # C = select(S, s >= k - 2)
            kept = _core.select(S, indexunary.valuege, int(np.ceil(k - 2)))
            if kept.nvals == C.nvals:
                break
            C = kept
    rows, cols, _ = (asnumpy(a) for a in C.to_coo())
    live = np.zeros(n, dtype=bool)
    live[rows] = True
    indptr, indices = G.order
    crow = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    keep = np.isin(crow * n + indices, rows.astype(np.int64) * n + cols)
    order = np.flatnonzero(live)
    r, c = adjacency_entries(G, order, keep)
    return build(G, order, r, c)


def onion_layers(G):
    """networkx.onion_layers: ``{node: layer}`` in networkx's order (isolated nodes first, then
    layer by layer, each by degree at the layer's start, then node order).

    Raises networkx.NetworkXNotImplemented for a graph with self-loops (networkx rejects
    directed graphs and multigraphs before dispatching).
    """
    _no_self_loops(G, "Input graph contains self loops which is not permitted; "
                      "Consider using G.remove_edges_from(nx.selfloop_edges(G)).")
    if not len(G):
        return {}
    _, rounds = peel(G)
    nodes = G.nodes
    return {nodes[i]: layer for layer, part in enumerate(rounds, 1) for i in part.tolist()}


__all__ = ["core_number", "k_core", "k_shell", "k_crust", "k_corona", "k_truss", "onion_layers", "peel"]
