"""networkx's DAG functions on the engine: topological generations and sorts, acyclicity,
longest paths and the transitive closure.

Topological generations are in-degree rounds (Kahn's algorithm, a whole generation at a
time): ``t = r plus.pair A`` counts the edges from the round's vertices ``r`` into each
vertex, and the vertices whose remaining in-degree falls to 0 form the next generation. A
vertex left over lies on a cycle or below one. networkx appends a vertex to its generation when
its last predecessor in the generation before is scanned, so within a generation the vertices
come by (rank of that predecessor in its generation, position in its adjacency): rebuilt per
generation from the adjacency order, as the BFS order is (``semiring.nx.algorithms.traversal``).

The longest path of a DAG is a ``max.plus`` product per generation
(``d<gen.S> = d max.plus W``, a vertex whose best is negative restarting at 0, as networkx's),
with networkx's choice of predecessor (the first in ``G.pred`` order reaching the best) and of
end (the first in topological order). The transitive closure is ``R(g, :) = A(g, :) +
A(g, :) any.pair R`` over the generations g from the last.

``lexicographical_topological_sort`` is inherently sequential (the smallest available vertex
first): it runs networkx's heap over the backend graph's adjacency arrays, with the engine's
in-degrees.
"""

from __future__ import annotations

import heapq

import networkx as nx
import numpy as np

from ... import _checks
from ... import core as _core
from ...backends._xp import asnumpy
from ...backends.cpu import _jit
from ...backends.cpu import compiled_dag as _dag
from ...core.vector import Vector
from ...ops import binary, semiring, unary
from ._common import checked_by, entries, weight_reason
from ._graphs import adjacency_entries, attribute_reason, build

_UNDIRECTED = "Topological sort not defined on undirected graphs."
_CYCLE = "Graph contains a cycle or graph changed during iteration"


def _in_degrees(G):
    return asnumpy(G.structure.in_degree.to_dense(0)).astype(np.int64)


def generations(G):
    """The topological generations of G as lists of node indices in networkx's order, and
    whether vertices were left over (a cycle). Where the compiled CPU loops run
    (:func:`semiring.backends.cpu._jit.enabled`), one compiled pass of Kahn's algorithm
    (:func:`semiring.backends.cpu.compiled_dag.generations`); elsewhere a product per generation."""
    n = len(G)
    indeg = _in_degrees(G)
    if G.device == "cpu" and _jit.enabled():
        return _dag.generations(*G.order, indeg)
    gen = np.full(n, -1, dtype=np.int64)
    cur = np.flatnonzero(indeg == 0)
    indptr, indices = G.order
    out = []
    level = 0
    while cur.shape[0]:
        gen[cur] = level
        out.append(cur)
        r = Vector.from_coo(cur, np.ones(cur.shape[0], np.int64), size=n, dtype="int64", device=G.device)
        # t = r plus.pair A   (edges from this generation into each vertex)
        idx, cnt = entries(_core.vxm(r, G.structure.A, semiring.plus_pair))
        indeg[idx] -= cnt.astype(np.int64)
        nxt = idx[(indeg[idx] == 0) & (gen[idx] < 0)]
        if nxt.shape[0]:
            nxt = _order_next(cur, nxt, indptr, indices, gen, level)
        cur = nxt
        level += 1
    return out, bool((gen < 0).any())


def _order_next(cur, nxt, indptr, indices, gen, level):
    """``nxt`` (the next generation) in networkx's order: by (rank in ``cur`` of the vertex's
    last predecessor in ``cur``, position in that predecessor's adjacency)."""
    counts = indptr[cur + 1] - indptr[cur]
    first = np.repeat(indptr[cur] - (np.cumsum(counts) - counts), counts)
    pos = first + np.arange(first.shape[0], dtype=np.int64)
    rank = np.repeat(np.arange(cur.shape[0], dtype=np.int64), counts)
    offset = pos - np.repeat(indptr[cur], counts)
    head = indices[pos]
    into = gen[head] < 0
    sel = np.zeros(gen.shape[0], dtype=bool)
    sel[nxt] = True
    into &= sel[head]
    head, rank, offset = head[into], rank[into], offset[into]
    # the last predecessor: the largest rank per head
    o = np.lexsort((-rank, head))
    head, rank, offset = head[o], rank[o], offset[o]
    keep = np.r_[True, head[1:] != head[:-1]]
    head, rank, offset = head[keep], rank[keep], offset[keep]
    return head[np.lexsort((offset, rank))]


def _generations(G):
    if not G.is_directed():
        raise nx.NetworkXError(_UNDIRECTED)
    gens, cyclic = generations(G)
    nodes = G.nodes
    for g in gens:
        yield [nodes[i] for i in g.tolist()]
    if cyclic:
        raise nx.NetworkXUnfeasible(_CYCLE)


def topological_generations(G):
    """networkx.topological_generations: lists of nodes, generation by generation, in networkx's
    order (a generator).

    Raises (lazily, as networkx) networkx.NetworkXError for an undirected graph and
    networkx.NetworkXUnfeasible after the last generation when G has a cycle. The backend
    sorts the graph as converted: it cannot see G change during the iteration.
    """
    return _generations(G)


def topological_sort(G):
    """networkx.topological_sort: the nodes generation by generation, in networkx's order
    (a generator). Raises as :func:`topological_generations`."""
    for gen in _generations(G):
        yield from gen


def _lex_reason(G, key=None):
    return None if key is None or callable(key) else f"key must be a callable or None; given {key!r}"


@checked_by(_lex_reason)
def lexicographical_topological_sort(G, key=None):
    """networkx.lexicographical_topological_sort: the topological order that takes the available
    node of smallest ``(key(node), position in G)`` first (a generator).

    Sequential (networkx's heap) over the backend graph's adjacency arrays, with the engine's
    in-degrees; ``key`` is called once per node as networkx calls it. Raises as networkx:
    networkx.NetworkXError for an undirected graph, networkx.NetworkXUnfeasible after the last
    node reached when G has a cycle, TypeError for keys that do not compare.
    """
    if not G.is_directed():
        raise nx.NetworkXError(_UNDIRECTED)
    if key is None:
        def key(node):
            return node
    nodes = G.nodes
    indeg = _in_degrees(G).tolist()
    indptr, indices = (a.tolist() for a in G.order)
    heap = [(key(nodes[i]), i) for i in range(len(nodes)) if indeg[i] == 0]
    heapq.heapify(heap)
    left = len(nodes) - len(heap)
    while heap:
        _, i = heapq.heappop(heap)
        for j in indices[indptr[i]:indptr[i + 1]]:
            indeg[j] -= 1
            if indeg[j] == 0:
                left -= 1
                try:
                    heapq.heappush(heap, (key(nodes[j]), j))
                except TypeError as err:
                    raise TypeError(f"{err}\nConsider using `key=` parameter to resolve ambiguities in the sort "
                                    "order.") from None
        yield nodes[i]
    if left:
        raise nx.NetworkXUnfeasible(_CYCLE)


def is_directed_acyclic_graph(G):
    """networkx.is_directed_acyclic_graph: directed and without a cycle (self-loops included)."""
    return G.is_directed() and not generations(G)[1]


def has_cycle(G):
    """networkx.has_cycle: whether a directed graph has a cycle.

    Raises networkx.NetworkXError for an undirected graph, as networkx does.
    """
    if not G.is_directed():
        raise nx.NetworkXError(_UNDIRECTED)
    return generations(G)[1]


# ---------------------------------------------------------------------------------------------
# longest paths
# ---------------------------------------------------------------------------------------------
def _spread_reason(G, weight, default_weight):
    """Why a multigraph's longest path is declined: networkx takes each node pair's heaviest
    parallel edge, the backend graph holds the lightest."""
    if not G.is_multigraph():
        return None
    if weight is None:
        return None
    if not isinstance(G, nx.Graph):
        return "a multigraph given as a backend graph: it holds each node pair's lightest parallel edge"
    for u, v in G.edges():
        ws = [d.get(weight, default_weight) for d in G[u][v].values()]
        if len(ws) > 1 and min(ws) != max(ws):
            return ("parallel edges of different weights: networkx takes the heaviest, the backend graph holds "
                    "the lightest")
    return None


def _longest_reason(G, weight="weight", default_weight=1, topo_order=None):
    why = weight_reason(weight)
    if why:
        return why
    reason = _checks.reason(_checks.real, default_weight, "", "default_weight")
    if reason:
        return reason
    if topo_order is not None and not isinstance(topo_order, (list, tuple)):
        return "topo_order must be a list or tuple (an iterator would be consumed before networkx could use it)"
    return _spread_reason(G, weight, default_weight)


def _length_reason(G, weight="weight", default_weight=1):
    return _longest_reason(G, weight, default_weight)


def _weights(G, weight, default_weight):
    """The engine matrix of edge lengths: ``weight``'s values, or ``default_weight`` everywhere."""
    if weight is None:
        # W = default_weight on A's pattern
        W = _core.apply(G.structure.A, unary.one).dup("float64" if isinstance(default_weight, float) else "int64")
        return _core.apply(W, binary.times, right=default_weight) if default_weight != 1 else W
    W = G.weighted(weight).A
    if W.dtype.kind == "f":
        vals = asnumpy(W.to_coo()[2])
        if np.isnan(vals).any():
            raise NotImplementedError(f"NaN {weight!r} weights: networkx's max() depends on their order")
    return W


def _topo(G, topo_order):
    """(generations, node indices in topological order): the generations' order, or a given
    order (checked; one that is not topological declines)."""
    gens, cyclic = generations(G)
    if topo_order is None:
        if cyclic:
            raise nx.NetworkXUnfeasible(_CYCLE)
        return gens, (np.concatenate(gens) if gens else np.zeros(0, np.int64))
    index = G.index
    try:
        order = np.array([index[v] for v in topo_order], dtype=np.int64)
    except (KeyError, TypeError):
        raise NotImplementedError("topo_order lists something that is not a node of G") from None
    n = len(G)
    if order.shape[0] != n or np.unique(order).shape[0] != n:
        raise NotImplementedError("topo_order does not list every node once")
    rank = np.empty(n, dtype=np.int64)
    rank[order] = np.arange(n)
    rows, cols, _ = (asnumpy(a) for a in G.structure.A.to_coo())
    if cyclic or (rank[rows] >= rank[cols]).any():
        raise NotImplementedError("topo_order is not a topological order of G")
    return gens, order


def _longest_by_generations(G, gens, W):
    """Longest-path distances (host array), one ``max.plus`` product per generation."""
    n, dev = len(G), G.device
    dist = Vector.from_coo(gens[0], np.zeros(gens[0].shape[0], dtype=W.dtype), size=n, dtype=W.dtype, device=dev)
    for g in gens[1:]:
        m = Vector.from_coo(g, np.ones(g.shape[0], bool), size=n, dtype="bool", device=dev)
        # best<g.S> = d max.plus W   (the longest way in from an earlier generation)
        best = _core.vxm(dist, W, semiring.max_plus, mask=m.S)
        # d<g.S> = max(best, 0)   (a negative best restarts at 0, as networkx's)
        _core.assign(dist, _core.apply(best, binary.max, right=0), None, mask=m.S)
    return asnumpy(dist.to_dense(0))


def _longest(G, weight, default_weight, topo_order):
    """(path as node indices, edge lengths along it) of networkx's dag_longest_path."""
    n = len(G)
    gens, order = _topo(G, topo_order)
    W = _weights(G, weight, default_weight)
    # the length of each in-edge, in G.pred order
    pindptr, pindices = G.pred_order
    heads = np.repeat(np.arange(n, dtype=np.int64), np.diff(pindptr))
    rows, cols, vals = (asnumpy(a) for a in W.to_coo())
    keys = rows.astype(np.int64) * n + cols
    if keys.shape[0] > 1 and (np.diff(keys) < 0).any():
        o = np.argsort(keys, kind="stable")
        keys, vals = keys[o], vals[o]
    w = vals[np.searchsorted(keys, pindices * n + heads)]
    if G.device == "cpu" and w.dtype.kind in "iuf" and _jit.enabled():
        d = _dag.longest_distances(order, pindptr, pindices, w)
    else:
        d = _longest_by_generations(G, gens, W)
    reach = d[pindices] + w
    best = np.full(n, -np.inf if reach.dtype.kind == "f" else np.iinfo(np.int64).min, dtype=reach.dtype)
    np.maximum.at(best, heads, reach)
    parent = np.arange(n, dtype=np.int64)
    hit = (reach == best[heads]) & (best[heads] >= 0)
    first = np.flatnonzero(hit)
    h = heads[first]
    keep = np.r_[True, h[1:] != h[:-1]] if h.shape[0] else h.astype(bool)
    parent[h[keep]] = pindices[first[keep]]
    step = dict(zip(zip(pindices[first[keep]].tolist(), h[keep].tolist()), w[first[keep]].tolist()))
    # the end: the first vertex in topological order with the largest distance
    v = int(order[np.argmax(d[order])])
    path = [v]
    while parent[v] != v:
        v = int(parent[v])
        path.append(v)
    path.reverse()
    return path, [step[(a, b)] for a, b in zip(path, path[1:])]


@checked_by(_longest_reason)
def dag_longest_path(G, weight="weight", default_weight=1, topo_order=None):
    """networkx.dag_longest_path: the nodes of a longest path, with networkx's choices among
    equal ones (the first predecessor in ``G.pred`` order, the first end in topological order).

    Raises networkx.NetworkXUnfeasible when G has a cycle (networkx rejects undirected graphs
    before dispatching).
    """
    if not len(G):
        return []
    path, _ = _longest(G, weight, default_weight, topo_order)
    nodes = G.nodes
    return [nodes[i] for i in path]


@checked_by(_length_reason)
def dag_longest_path_length(G, weight="weight", default_weight=1):
    """networkx.dag_longest_path_length: the sum of the edge lengths along dag_longest_path, in
    path order (0 for a path of one node)."""
    if not len(G):
        return 0
    _, steps = _longest(G, weight, default_weight, None)
    total = 0
    for w in steps:
        total += w
    return total


# ---------------------------------------------------------------------------------------------
# transitive closure
# ---------------------------------------------------------------------------------------------
def _closure_reason(G, topo_order=None):
    if topo_order is not None and not isinstance(topo_order, (list, tuple)):
        return "topo_order must be a list or tuple (an iterator would be consumed before networkx could use it)"
    if G.is_multigraph():
        return "a multigraph's closure keeps edge keys and each parallel edge's data; the backend graph holds neither"
    return attribute_reason(G)


def _closure(A, gens):
    """R(u, v) present iff v is reachable from u (a DAG's generations ``gens``)."""
    R = _core.apply(A, unary.one)  # bool; rows are filled generation by generation from the last
    for g in reversed(gens[:-1]):
        # R(g, :) = A(g, :) lor (A(g, :) any.pair R)   (the successors and all they reach)
        Ag = _core.extract(A, g, None)
        Rg = _core.ewise_add(Ag, _core.mxm(Ag, R, semiring.any_pair), binary.lor)
        _core.assign(R, Rg, (g, None))
    return R


@checked_by(_closure_reason)
def transitive_closure_dag(G, topo_order=None):
    """networkx.transitive_closure_dag: G with an edge (u, v) added for every v reachable from u;
    G's edges first with their attributes, in networkx's order, then the added ones (without
    attributes) for u in reverse topological order, each u's by node order (networkx's follow
    the iteration order of a set).

    Raises networkx.NetworkXUnfeasible when G has a cycle (networkx rejects undirected graphs
    before dispatching).
    """
    gens, order = _topo(G, topo_order)  # a cycle raises; a given order is checked
    n = len(G)
    everyone = np.arange(n, dtype=np.int64)
    rows, cols = adjacency_entries(G, everyone)
    H = build(G, everyone, rows, cols, cls=nx.DiGraph)
    if not n:
        return H
    A = G.structure.A
    R = _closure(A, gens)
    # the added edges: R<!A.S>
    nr, nc, _ = (asnumpy(a) for a in _core.apply(R, unary.one, mask=~A.S).to_coo())
    rank = np.empty(n, dtype=np.int64)
    rank[order] = np.arange(n)
    o = np.lexsort((nc, -rank[nr]))
    labels = G.nodes
    H.add_edges_from((labels[u], labels[v]) for u, v in zip(nr[o].tolist(), nc[o].tolist()))
    return H


def transitive_reduction(G):
    """networkx.transitive_reduction: a DiGraph with G's nodes and the edges (u, v) of G such that
    v is reached from no other successor of u, i.e. ``A<!(A any.pair R)>``, R the closure (the
    engine's, by generations). Each u's edges come in networkx's order: the iteration order of
    its set of successors after networkx's removals (``u_nbrs -= descendants[v]`` for v in G[u]),
    replayed on the same Python set.

    Raises networkx.NetworkXError when G is not a DAG (networkx rejects undirected graphs before
    dispatching).
    """
    gens, cyclic = generations(G)
    if cyclic:
        raise nx.NetworkXError("Directed Acyclic Graph required for transitive_reduction")
    n = len(G)
    TR = nx.DiGraph()
    TR.add_nodes_from(G.nodes)
    if not n:
        return TR
    A = G.structure.A
    R = _closure(A, gens)
    rr, rc, _ = (asnumpy(a) for a in R.to_coo())
    o = np.lexsort((rc, rr))
    rr, rc = rr[o].astype(np.int64), rc[o].astype(np.int64)
    rptr = np.searchsorted(rr, np.arange(n + 1))
    nodes = G.nodes
    indptr, indices = G.order
    for u in range(n):
        succ = indices[indptr[u]:indptr[u + 1]]
        s = set(nodes[j] for j in succ.tolist())
        if succ.shape[0] > 1:
            ordered = np.sort(succ)
            for v in succ.tolist():
                if nodes[v] in s:
                    # the successors of u that v reaches: R(v, :) .* A(u, :)
                    below = np.intersect1d(rc[rptr[v]:rptr[v + 1]], ordered, assume_unique=True)
                    if below.shape[0]:
                        s -= {nodes[w] for w in below.tolist()}
        TR.add_edges_from((nodes[u], v) for v in s)
    return TR


def is_aperiodic(G):
    """networkx.is_aperiodic: whether the greatest common divisor of the lengths of G's cycles
    is 1, as networkx computes it: with BFS levels from G's first node (the engine's BFS), the gcd
    of ``level(u) - level(v) + 1`` over the edges (u, v).

    Raises networkx.NetworkXError for an undirected graph or one that is not strongly connected,
    networkx.NetworkXPointlessConcept for the null graph.
    """
    from ..algorithms.traversal import levels
    from .components import _connected

    if not G.is_directed():
        raise nx.NetworkXError("is_aperiodic not defined for undirected graphs")
    if not len(G):
        raise nx.NetworkXPointlessConcept("Graph has no nodes.")
    if not _connected(G, strong=True):
        raise nx.NetworkXError("Graph is not strongly connected.")
    lv = levels(G.structure, [0])
    rows, cols, _ = (asnumpy(a) for a in G.structure.A.to_coo())
    if not rows.shape[0]:
        return False
    return int(np.gcd.reduce(np.abs(lv[rows] - lv[cols] + 1))) == 1


__all__ = ["topological_generations", "topological_sort", "lexicographical_topological_sort",
           "is_directed_acyclic_graph", "has_cycle", "dag_longest_path", "dag_longest_path_length",
           "transitive_closure_dag", "transitive_reduction", "is_aperiodic", "generations"]
