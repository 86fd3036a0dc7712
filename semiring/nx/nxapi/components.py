"""networkx's component API on the engine's component labels (each vertex labelled with the
smallest vertex index of its component): ``semiring.algorithms.connected_components`` (weak
components: a directed graph taken as A + A^T) and ``strongly_connected_components``.

networkx yields (weakly) connected components in the order of their first node, which is the
order of the labels. It yields strongly connected components in the order Tarjan's search closes
them, a reverse topological order of the condensation (a component comes after every component
it has an edge into); :func:`strongly_connected_components` yields a reverse topological order
too: by height in the condensation (0 for a component without out-edges, else 1 + the largest
height of the components it reaches in one edge), then by first node. Among the components of
one height the order can differ from networkx's, which follows its depth-first search.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from ... import algorithms as _alg
from ...backends._xp import asnumpy


def labels(G, strong=False):
    """Host int64 array: the smallest node index of each node's (weak, or strong) component."""
    find = _alg.strongly_connected_components if strong else _alg.connected_components
    return asnumpy(find(G.structure).to_dense()).astype(np.int64, copy=False)


def _components(G):
    lab = labels(G)
    order = np.argsort(lab, kind="stable")
    cuts = np.flatnonzero(np.diff(lab[order])) + 1
    nodes = G.nodes
    # components in the order of their first node (the label is that node's index), as networkx
    for part in np.split(order, cuts):
        yield {nodes[i] for i in part.tolist()}


def connected_components(G):
    """networkx.connected_components: a generator of node sets, in the order of their first node."""
    if not len(G):
        return iter(())
    return _components(G)


def number_connected_components(G):
    """networkx.number_connected_components."""
    return _count(G)


def is_connected(G):
    """networkx.is_connected. Raises networkx.NetworkXPointlessConcept for the null graph."""
    return _connected(G)


def _count(G, strong=False):
    if not len(G):
        return 0
    lab = labels(G, strong)
    return int(np.count_nonzero(lab == np.arange(lab.shape[0])))  # one root per component


def _connected(G, strong=False):
    if not len(G):
        raise nx.NetworkXPointlessConcept("Connectivity is undefined for the null graph.")
    return bool(np.all(labels(G, strong) == 0))


def weakly_connected_components(G):
    """networkx.weakly_connected_components (directed graphs): node sets in the order of their first node."""
    return connected_components(G)


def number_weakly_connected_components(G):
    """networkx.number_weakly_connected_components."""
    return _count(G)


def is_weakly_connected(G):
    """networkx.is_weakly_connected. Raises networkx.NetworkXPointlessConcept for the null graph."""
    return _connected(G)


def _by_height(lab, indptr, indices, *, heights=False):
    """The members of each strong component (host int64 arrays), sinks of the condensation first
    (with ``heights``: and each one's height, an int64 array).

    ``lab``: each node's smallest-member label; ``indptr, indices``: the successors of each node.
    The height of a component is found by peeling the condensation's sinks in rounds (Kahn's
    algorithm run backwards): a round costs the edges into the peeled components."""
    n = lab.shape[0]
    roots = np.flatnonzero(lab == np.arange(n))  # one per component, in order of first node
    comp = np.searchsorted(roots, lab)
    k = roots.shape[0]
    src, dst = np.repeat(comp, np.diff(indptr)), comp[indices]
    cross = src != dst
    src, dst = src[cross], dst[cross]
    out = np.bincount(src, minlength=k)
    pred = src[np.argsort(dst, kind="stable")]  # the condensation's edges by head
    ptr = np.zeros(k + 1, dtype=np.int64)
    np.cumsum(np.bincount(dst, minlength=k), out=ptr[1:])
    height = np.zeros(k, dtype=np.int64)
    level, frontier = 0, np.flatnonzero(out == 0)
    while frontier.size:
        height[frontier] = level
        level += 1
        counts = ptr[frontier + 1] - ptr[frontier]
        if not counts.any():
            break
        # the tails of the edges into the frontier: pred[ptr[f] : ptr[f + 1]] for every f
        first = np.repeat(ptr[frontier] - (np.cumsum(counts) - counts), counts)
        tails = pred[first + np.arange(first.shape[0])]
        np.subtract.at(out, tails, 1)
        done = np.sort(tails[out[tails] == 0])
        frontier = done[np.r_[True, done[1:] != done[:-1]]] if done.size else done
    rank = np.empty(k, dtype=np.int64)
    rank[np.lexsort((np.arange(k), height))] = np.arange(k)
    order = np.argsort(rank[comp], kind="stable")
    parts = np.split(order, np.flatnonzero(np.diff(rank[comp][order])) + 1)
    return (parts, np.sort(height)) if heights else parts


def _strong_components(G):
    lab = labels(G, strong=True)
    nodes = G.nodes
    for part in _by_height(lab, *G.order):
        yield {nodes[i] for i in part.tolist()}


def strongly_connected_components(G):
    """networkx.strongly_connected_components (directed graphs): a generator of node sets, in a
    reverse topological order of the condensation (sinks first), as networkx's Tarjan search
    yields them; components of the same height in the condensation come by first node."""
    if not len(G):
        return iter(())
    return _strong_components(G)


def number_strongly_connected_components(G):
    """networkx.number_strongly_connected_components."""
    return _count(G, strong=True)


def is_strongly_connected(G):
    """networkx.is_strongly_connected. Raises networkx.NetworkXPointlessConcept for the null graph."""
    return _connected(G, strong=True)


# condensation, attracting and semiconnected components ---------------------------------------
# (the strong components above; a component is attracting when no edge leaves it, i.e. its
# height in the condensation is 0)


def _strong_parts(G):
    """(members of each strong component in the order strongly_connected_components yields
    them, their heights in the condensation)."""
    return _by_height(labels(G, strong=True), *G.order, heights=True)


def _component_of(n, parts):
    comp = np.empty(n, dtype=np.int64)
    for c, part in enumerate(parts):
        comp[part] = c
    return comp


def _directed_only(G):
    if not G.is_directed():
        raise nx.NetworkXNotImplemented("not implemented for undirected type")


def _attracting(G):
    _directed_only(G)
    if not len(G):
        return []
    parts, height = _strong_parts(G)
    return [p for p, h in zip(parts, height.tolist()) if h == 0]


def attracting_components(G):
    """networkx.attracting_components: the strong components no edge leaves, as node sets in the
    order strongly_connected_components yields them (a generator; networkx's follows its Tarjan
    search, the backend's lists them by first node)."""
    nodes = G.nodes
    for part in _attracting(G):
        yield {nodes[i] for i in part.tolist()}


def number_attracting_components(G):
    """networkx.number_attracting_components."""
    return len(_attracting(G))


def is_attracting_component(G):
    """networkx.is_attracting_component: whether G is one attracting component (False for the
    null graph)."""
    ac = _attracting(G)
    return len(ac) == 1 and ac[0].shape[0] == len(G)


def is_semiconnected(G):
    """networkx.is_semiconnected: whether every pair of nodes has a path one way. That holds iff
    the condensation is a chain: its components have distinct heights.

    Raises networkx.NetworkXPointlessConcept for the null graph (networkx rejects undirected
    graphs before dispatching).
    """
    _directed_only(G)
    if not _connected(G):  # weak components first, as networkx
        return False
    parts, height = _strong_parts(G)
    return np.unique(height).shape[0] == len(parts)


def condensation(G, scc=None):
    """networkx.condensation: the DiGraph of the strong components (node i for the i-th of
    ``scc``, with its ``members``; graph attribute ``mapping``), edges in networkx's order.

    Without ``scc`` the components are numbered in the order networkx's own search yields them;
    the backend reproduces that order only when it is forced (the condensation is a chain), and
    declines otherwise. Raises networkx.NetworkXNotImplemented for an undirected graph.
    """
    _directed_only(G)
    n = len(G)
    if scc is None and n:
        parts, height = _strong_parts(G)
        if np.unique(height).shape[0] != len(parts):
            raise NotImplementedError("networkx numbers the components in its Tarjan search order, which the "
                                      "backend reproduces only when the condensation is a chain; give scc")
        nodes = G.nodes
        scc = [{nodes[i] for i in part.tolist()} for part in parts]
    mapping = {}
    members = {}
    C = nx.DiGraph()
    C.graph["mapping"] = mapping
    if not n:
        return C
    for i, component in enumerate(scc):
        members[i] = component
        mapping.update((v, i) for v in component)
    number_of_components = i + 1  # noqa: F821 (unbound for an empty scc, as in networkx)
    C.add_nodes_from(range(number_of_components))
    index = G.index
    comp = np.full(n, -1, dtype=np.int64)
    for v, c in mapping.items():
        i = index.get(v)
        if i is not None:
            comp[i] = c
    indptr, indices = G.order
    tails = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    cu, cv = comp[tails], comp[indices]
    missing = np.flatnonzero((cu < 0) | (cv < 0))
    if missing.shape[0]:  # networkx's mapping[u] (then mapping[v]) on the first such edge
        e = missing[0]
        raise KeyError(G.nodes[tails[e]] if cu[e] < 0 else G.nodes[indices[e]])
    cross = np.flatnonzero(cu != cv)
    key = cu[cross] * (number_of_components + 1) + cv[cross]
    _, first = np.unique(key, return_index=True)
    first = np.sort(first)
    C.add_edges_from(zip(cu[cross][first].tolist(), cv[cross][first].tolist()))
    for i, component in members.items():  # networkx's set_node_attributes(C, members, "members")
        C._node[i]["members"] = component
    return C


__all__ = ["connected_components", "number_connected_components", "is_connected", "weakly_connected_components",
           "number_weakly_connected_components", "is_weakly_connected", "strongly_connected_components",
           "number_strongly_connected_components", "is_strongly_connected",
           # condensation
           "condensation", "attracting_components", "number_attracting_components", "is_attracting_component",
           "is_semiconnected"]
