"""Shortest-path pieces networkx's path API needs beyond :func:`semiring.algorithms.sssp`.

networkx's path functions return paths and dicts whose choice among equally short paths, and
whose order, follow its searches: a BFS queue for hop counts and a binary heap keyed by
(distance, push counter) for Dijkstra. Both are rebuilt here from the engine's distances and
the adjacency order networkx iterates:

- :func:`adjacency`: each node's out-edges (or in-edges) in networkx's order with their weights
  (the smallest of parallel edges), as host CSR arrays, computed once per graph.
- :func:`distances`: the engine's shortest-path lengths from one source or a set of sources
  (a super source joined to them by zero-length edges, the standard reduction), dense on the host.
- :func:`settle_order`: the order in which networkx's Dijkstra settles the reached nodes, and the
  parent it records for each. networkx pushes a node when an edge improves its tentative
  distance and pops by (distance, push counter); a node's last improvement comes from the first
  *settled* node whose edge to it is tight (``d(t) + w(t, h) == d(h)``), at that node's position
  in its adjacency. The pushes happen in the order (settle rank of the pusher, adjacency
  position), so the settle order is the sort by (distance, rank of the parent, position), with
  the parent the tight predecessor of least rank: a fixed point, reached group of equal distance
  by group (few groups), or by re-sorting all groups until the ranks stop changing (many groups,
  short chains of groups that depend on each other), or by replaying the pops on the tight edges
  alone when neither settles quickly.
- :func:`bidirectional_bfs`: networkx's alternating bidirectional BFS (the search behind
  ``bidirectional_shortest_path`` and ``shortest_path(G, s, t)``), one ``any.pair``
  product per level on the engine and the meeting edge found in networkx's scan order.

References
----------
networkx ``algorithms/shortest_paths/weighted.py`` (``_dijkstra_multisource``) and
``unweighted.py`` (``_bidirectional_pred_succ``), the searches reproduced.
Dijkstra, "A note on two problems in connexion with graphs", Numer. Math. 1, 1959.
"""

from __future__ import annotations

import contextlib
import gc
import heapq

import numpy as np

from ... import algorithms as _alg
from ... import core as _core
from ...algorithms.graph import Graph as _EngineGraph
from ...backends._xp import asnumpy
from ...backends.cpu import _jit
from ...backends.cpu import compiled_pairs as _pairs
from ...core.matrix import Matrix
from ...core.vector import Vector
from ...exceptions import DomainMismatch, InvalidValue, NegativeCycleError
from ...ops import semiring as _semirings
from .. import _derived
from .traversal import levels, queue_order

#: Re-sorting rounds of :func:`settle_order` before it replays the heap instead.
SETTLE_ROUNDS = 24
#: :func:`settle_order` orders groups of equal distance one by one when there are at most this many.
SWEEP_GROUPS = 2048


class Unbounded(Exception):
    """A negative cycle is reachable from the sources (the adapters raise networkx's error)."""


def adjacency(G, weight=None, *, reverse=False):
    """Each node's out-edges (in-edges with ``reverse`` on a directed graph) in networkx's order.

    Parameters
    ----------
    G : semiring.nx.Graph, n nodes
    weight : str or None
        Edge attribute held by G; None gives unit weights.
    reverse : bool

    Returns
    -------
    indptr : int64 array, shape (n + 1,)
    indices : int64 array, shape (m,)
        ``indices[indptr[i]:indptr[i + 1]]`` are the neighbours of node i as networkx iterates
        ``G._adj[i]`` (``G._pred[i]`` with ``reverse``).
    w : array, shape (m,)
        The weight of each of those edges (int64 or float64; the smallest of parallel edges).
    """
    reverse = reverse and G.is_directed()
    indptr, indices = G.pred_order if reverse else G.order
    if weight is None:
        return indptr, indices, np.ones(indices.shape[0], dtype=np.int64)
    engine = G.weighted(weight, reverse=reverse)
    return _derived.once(engine, "ordered_weights", lambda: (indptr, indices, _aligned(engine.A, indptr, indices)))


def _aligned(W, indptr, indices):
    """The values of W at the edges (i, indices[k]) for k in row i's slice of indptr."""
    n = W.nrows
    rows, cols, vals = (asnumpy(a) for a in W.to_coo())
    keys = rows * n + cols
    if keys.shape[0] > 1 and np.any(keys[1:] < keys[:-1]):
        o = np.argsort(keys, kind="stable")
        keys, vals = keys[o], vals[o]
    want = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr)) * n + indices
    return vals[np.searchsorted(keys, want)]


def uniform(w):
    """The common value of the weights ``w`` if they are all equal and >= 0, else None."""
    if w.shape[0] and w[0] >= 0 and np.all(w == w[0]):
        return w[0].item()
    return None


def with_super_source(W, sources, dtype):
    """W (n x n) bordered by a vertex n with zero-length edges n -> s for each source s."""
    n = W.nrows
    rows, cols, vals = (asnumpy(a) for a in W.to_coo())
    k = len(sources)
    rows = np.concatenate([rows, np.full(k, n, dtype=np.int64)])
    cols = np.concatenate([cols, np.asarray(sources, dtype=np.int64)])
    vals = np.concatenate([vals.astype(dtype, copy=False), np.zeros(k, dtype=dtype)])
    return Matrix.from_coo(rows, cols, vals, nrows=n + 1, ncols=n + 1, dtype=dtype, device=W.device)


def _weight_dtype(W):
    return np.float64 if W.dtype.kind == "f" else np.int64


def distances(G, sources, weight, method="dijkstra", *, reverse=False, parents=False):
    """Shortest-path lengths from the nearest of ``sources`` (node indices), dense on the host.

    Parameters
    ----------
    G : semiring.nx.Graph
    sources : sequence of int
        Distinct node indices (at least one).
    weight : str or None
        None: unit lengths.
    method : {"dijkstra", "bellman-ford"}
        "dijkstra" runs delta-stepping (non-negative weights: the caller checks), "bellman-ford"
        the engine's Bellman-Ford.
    reverse : bool
        Along reversed edges.
    parents : bool
        Also return the engine's shortest-path tree (``sssp(parents=True)``: a BFS over the
        tight edges, each node taking its smallest-index tight predecessor one hop nearer).

    Returns
    -------
    dist : int64 or float64 array, shape (n,)
        0 where unreached (see ``reached``).
    reached : bool array, shape (n,)
    parent : int64 array, shape (n,)
        Only with ``parents``: -1 for the sources and unreached nodes.

    Raises
    ------
    Unbounded
        A negative cycle reachable from a source.
    NotImplementedError
        The engine declines the weights (NaN, or integers that could overflow int64).
    """
    engine = G.weighted(weight, reverse=reverse)
    how = "delta_stepping" if method == "dijkstra" else "bellman_ford"
    n = len(G)
    try:
        if len(sources) == 1:
            r = _alg.sssp(engine, int(sources[0]), method=how, parents=parents)
        else:
            dtype = _weight_dtype(engine.A)
            S = with_super_source(engine.A, sources, dtype)
            r = _alg.sssp(_EngineGraph(S, kind="directed"), n, method=how, parents=parents)
    except NegativeCycleError:
        raise Unbounded() from None
    except (DomainMismatch, InvalidValue) as exc:
        raise NotImplementedError(f"the engine declines these weights: {exc}") from None
    idx, vals = (asnumpy(a) for a in r.distance.to_coo())
    keep = idx < n
    idx, vals = idx[keep], vals[keep]
    dist = np.zeros(n, dtype=vals.dtype if vals.dtype.kind in "fi" else np.int64)
    dist[idx] = vals
    reached = np.zeros(n, dtype=bool)
    reached[idx] = True
    if not parents:
        return dist, reached
    pidx, pvals = (asnumpy(a) for a in r.parent.to_coo())
    keep = pidx < n
    parent = np.full(n, -1, dtype=np.int64)
    parent[pidx[keep]] = pvals[keep]
    parent[(parent >= n) | (parent == np.arange(n))] = -1  # the super source, and a source's own entry
    return dist, reached, parent


def check_weights(G, weight, *, reverse=False):
    """NotImplementedError where the engine's SSSP declines ``weight``'s values (NaN or -inf
    weights, integers whose sums could overflow int64): found before any lazy result is handed
    out, so networkx can still fall back."""
    try:
        G.weighted(weight, reverse=reverse).sssp_weights
    except (DomainMismatch, InvalidValue) as exc:
        raise NotImplementedError(f"the engine declines these weights: {exc}") from None


def bfs_order(G, sources, depth=None, *, reverse=False):
    """networkx's BFS from ``sources``: (order, parent, level).

    ``order`` lists the reached node indices in discovery order (sources first, in the given
    order), ``parent`` the first discoverer (-1 for the sources and unreached nodes), ``level``
    the hop count (-1 where unreached within ``depth`` levels).
    """
    reverse = reverse and G.is_directed()
    graph = G.reverse if reverse else G.structure
    indptr, indices = G.pred_order if reverse else G.order
    lv = levels(graph, list(sources), depth)
    layers, parent = queue_order(lv, indptr, indices, list(sources))
    order = np.concatenate(layers) if layers else np.zeros(0, dtype=np.int64)
    return order, parent, lv


def tight_edges(dist, reached, indptr, indices, w, *, exclude=None):
    """The edges t -> h with both ends reached, t != h and ``dist[t] + w == dist[h]``.

    Returns (t, h, pos) host arrays, ``pos`` the edge's position in t's adjacency, in CSR order
    (by tail, then position). Heads in ``exclude`` (a bool mask) are left out.
    """
    n = dist.shape[0]
    tail = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    pos = np.arange(indices.shape[0], dtype=np.int64) - indptr[tail]
    keep = reached[tail] & reached[indices] & (tail != indices)
    if exclude is not None:
        keep &= ~exclude[indices]
    t, h, p, ww = tail[keep], indices[keep], pos[keep], w[keep]
    tight = dist[t] + ww == dist[h]
    return t[tight], h[tight], p[tight]


def settle_order(dist, reached, sources, indptr, indices, w, *, rounds=SETTLE_ROUNDS, sweep=SWEEP_GROUPS):
    """networkx's Dijkstra settle order and parents, from the final distances.

    Nodes of different distance settle in distance order; within a group of equal distance
    networkx settles by (rank of the parent, position in the parent's adjacency), the parent
    being the tight predecessor of least rank. With at most ``sweep`` such groups they are
    ordered one after the other (a group's parents settled before it, except along zero-length
    edges inside it, which take a few passes); with more, every group is re-sorted at once per
    round until no rank moves (one round per link of the longest chain of groups whose order
    depends on each other), and after ``rounds`` rounds the heap is replayed on the tight edges.

    Parameters
    ----------
    dist : array, shape (n,)
        Shortest-path lengths (non-negative weights), valid where ``reached``.
    reached : bool array, shape (n,)
        The nodes networkx settles (those within the cutoff).
    sources : sequence of int
        Distinct node indices in networkx's push order.
    indptr, indices, w : arrays
        The adjacency in networkx's order with weights (:func:`adjacency`).
    rounds : int
        Re-sorting rounds before replaying the heap on the tight edges.
    sweep : int
        Order the groups of equal distance one by one when there are at most this many.

    Returns
    -------
    order : int64 array
        The reached nodes in settle order (the sources first).
    parent : int64 array, shape (n,)
        The node each was pushed from last (its path's previous node); -1 for sources and
        unreached nodes.
    rank : int64 array, shape (n,)
        Position in ``order`` (-1 where unreached).
    """
    n = dist.shape[0]
    sources = np.asarray(sources, dtype=np.int64)
    is_source = np.zeros(n, dtype=bool)
    is_source[sources] = True
    t, h, p = tight_edges(dist, reached, indptr, indices, w, exclude=is_source)
    R = np.flatnonzero(reached)
    # by distance (then index): final except within groups of equal distance, re-sorted below
    R = R[np.argsort(dist[R], kind="stable")]
    d = dist[R]
    rank = np.full(n, -1, dtype=np.int64)
    rank[R] = np.arange(R.shape[0])
    cut = np.r_[True, d[1:] != d[:-1]] if R.shape[0] else np.zeros(0, dtype=bool)
    group = np.cumsum(cut) - 1
    size = np.bincount(group)
    tie = size[group] > 1
    T, gid, slots = R[tie], group[tie], np.flatnonzero(tie)  # the nodes whose rank can still move
    key_pos = np.full(n, -1, dtype=np.int64)
    key_pos[sources] = np.arange(sources.shape[0])
    parent = np.full(n, -1, dtype=np.int64)
    # a node with one tight predecessor: that is its parent (the others are chosen by rank below)
    parent[h] = t
    key_pos[h] = p
    multi = np.bincount(h, minlength=n)[h] > 1
    mt, mh, mp = t[multi], h[multi], p[multi]
    state = (R, rank, parent, key_pos, is_source)
    ties = int(np.count_nonzero(size > 1))
    if ties <= sweep:
        node_group = np.full(n, -1, dtype=np.int64)
        node_group[R] = group
        if _sweep(state, T, gid, slots, (mt, mh, mp), node_group, (t, h), rounds):
            return R, parent, rank
    elif _rounds(state, T, gid, slots, (mt, mh, mp), rounds):
        return R, parent, rank
    return _replay(dist, sources, t, h, p, n)


def _choose_parents(state, mt, mh, mp):
    """parent(h) = the tight predecessor of least rank, for heads with several."""
    _, rank, parent, key_pos, _ = state
    if not mh.shape[0]:
        return
    o = np.lexsort((rank[mt], mh))
    lead = np.r_[True, mh[o][1:] != mh[o][:-1]]
    parent[mh[o][lead]] = mt[o][lead]
    key_pos[mh[o][lead]] = mp[o][lead]


def _group_order(state, members, gid):
    """``members`` sorted by (group, rank of the parent, position); sources (-1, their order) first."""
    _, rank, parent, key_pos, is_source = state
    prank = np.where(is_source[members], -1, rank[parent[members]])
    return members[np.lexsort((key_pos[members], prank, gid))]


def _rounds(state, T, gid, slots, multi, rounds):
    """Re-sort every group at once until no rank moves; False after ``rounds`` rounds."""
    R, rank = state[0], state[1]
    for _ in range(rounds):
        _choose_parents(state, *multi)
        moved = _group_order(state, T, gid)
        if np.array_equal(moved, R[slots]):
            return True
        R[slots] = moved
        rank[moved] = slots
    return False


def _sweep(state, T, gid, slots, multi, node_group, tight, rounds):
    """Order the groups one by one in distance order; False if zero-length edges inside a group
    need more than ``rounds`` passes."""
    R, rank = state[0], state[1]
    mt, mh, mp = multi
    o = np.argsort(node_group[mh], kind="stable")
    mt, mh, mp = mt[o], mh[o], mp[o]
    edge_group = node_group[mh]
    t, h = tight
    inner = np.zeros(int(node_group.max()) + 1 if node_group.shape[0] else 0, dtype=bool)
    inner[node_group[h][node_group[t] == node_group[h]]] = True  # zero-length tight edges inside
    cuts = np.flatnonzero(np.r_[True, gid[1:] != gid[:-1], True]) if gid.shape[0] else np.zeros(1, dtype=np.int64)
    for a, b in zip(cuts[:-1].tolist(), cuts[1:].tolist()):
        g = int(gid[a])
        lo, hi = np.searchsorted(edge_group, [g, g + 1])
        members = T[a:b]
        for _ in range(rounds):
            _choose_parents(state, mt[lo:hi], mh[lo:hi], mp[lo:hi])
            moved = _group_order(state, members, gid[a:b])
            changed = not np.array_equal(moved, R[slots[a:b]])
            R[slots[a:b]] = moved
            rank[moved] = slots[a:b]
            if not inner[g] or not changed:
                break
        else:
            return False
    _choose_parents(state, mt, mh, mp)  # the ranks are final: every node with several tight predecessors
    return True


def _replay(dist, sources, t, h, p, n):
    """:func:`settle_order` by replaying networkx's heap over the tight edges only."""
    o = np.lexsort((p, t))  # tight out-edges by tail, in adjacency order
    t, h, p = t[o], h[o], p[o]
    ptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(t, minlength=n), out=ptr[1:])
    heads, poss, ptr = h.tolist(), p.tolist(), ptr.tolist()
    dl = dist.tolist()
    parent = np.full(n, -1, dtype=np.int64)
    pushed = set(sources.tolist())
    heap = [(dl[s], -1, i, s, -1) for i, s in enumerate(sources.tolist())]
    heapq.heapify(heap)
    order = []
    while heap:
        _, _, _, u, par = heapq.heappop(heap)
        r = len(order)
        order.append(u)
        parent[u] = par
        for k in range(ptr[u], ptr[u + 1]):
            v = heads[k]
            if v not in pushed:  # the first settled tight predecessor pushes v with its final distance
                pushed.add(v)
                heapq.heappush(heap, (dl[v], r, poss[k], v, u))
    order = np.asarray(order, dtype=np.int64)
    rank = np.full(n, -1, dtype=np.int64)
    rank[order] = np.arange(order.shape[0])
    return order, parent, rank


def first_push_order(dist, rank, sources, indptr, indices, w, cutoff=None):
    """The reached nodes in the order networkx's Dijkstra first pushes them (its ``pred`` dict's
    order): sources first, then by (rank of the first settled in-neighbour whose edge stays within
    ``cutoff``, position in its adjacency)."""
    n = dist.shape[0]
    sources = np.asarray(sources, dtype=np.int64)
    tail = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    pos = np.arange(indices.shape[0], dtype=np.int64) - indptr[tail]
    keep = (rank[tail] >= 0) & (rank[indices] >= 0)
    if cutoff is not None:
        keep[keep] &= dist[tail[keep]] + w[keep] <= cutoff
    t, h, p = tail[keep], indices[keep], pos[keep]
    is_source = np.zeros(n, dtype=bool)
    is_source[sources] = True
    out = ~is_source[h]
    t, h, p = t[out], h[out], p[out]
    o = np.lexsort((p, rank[t], h))
    lead = np.r_[True, h[o][1:] != h[o][:-1]] if h.shape[0] else np.zeros(0, dtype=bool)
    heads, by, at = h[o][lead], rank[t[o][lead]], p[o][lead]
    rest = heads[np.lexsort((at, by))]
    return np.concatenate([sources, rest])


@contextlib.contextmanager
def no_gc():
    """Python's cyclic collector paused: building millions of path lists (which hold no cycles)
    would otherwise trigger collections that scan every list built so far."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def path_lists(order, parent, nodes, *, reverse=False):
    """``{node: path}`` for the nodes of ``order`` (parents before children), each path the
    parent's path plus the node (prepended with ``reverse``), in ``order``'s order."""
    paths = {}
    by_index = {}
    with no_gc():
        for i, p in zip(order.tolist(), parent[order].tolist()):
            v = nodes[i]
            if p < 0:
                path = [v]
            else:
                path = by_index[p] + [v] if not reverse else [v] + by_index[p]
            by_index[i] = path
            paths[v] = path
    return paths


def path_to(parent, target, nodes):
    """The path from the root of ``parent``'s tree to ``target`` (node labels)."""
    out = [target]
    p = parent[target]
    while p >= 0:
        out.append(int(p))
        p = parent[p]
    return [nodes[i] for i in reversed(out)]


def bidirectional_bfs(G, source, target):
    """networkx's bidirectional BFS between node indices: the path (indices) it returns, or None.

    networkx expands the smaller fringe (the forward one on a tie) a level at a time and stops
    at the first scanned edge whose far end the other side has seen. Each expansion is one
    ``any.pair`` product of the fringe with the adjacency (its transpose for the backward side
    of a directed graph); the levels seen so far are kept on the host, and the meeting edge and
    the two half-paths come from them in networkx's scan order
    (:func:`~semiring.nx.algorithms.queue_order`). Where the compiled CPU loops run
    (:func:`semiring.backends.cpu._jit.enabled`), the same scan runs as one compiled loop
    (:func:`semiring.backends.cpu.compiled_pairs.bidirectional_bfs`).
    """
    if source == target:
        return [source]
    if _jit.enabled():
        # the same scan, compiled: it stops where networkx stops, without a product per level
        indptr, indices = G.order
        rindptr, rindices = G.pred_order if G.is_directed() else G.order
        return _pairs.bidirectional_bfs(indptr, indices, rindptr, rindices, source, target)
    n = len(G)
    dev = G.A.device
    directed = G.is_directed()
    sides = []
    for root, graph in ((source, G.structure), (target, G.reverse if directed else G.structure)):
        lv = np.full(n, -1, dtype=np.int64)
        lv[root] = 0
        sides.append({"root": root, "graph": graph, "lv": lv, "seen": [np.asarray([root], dtype=np.int64)],
                      "fringe": np.asarray([root], dtype=np.int64), "depth": 0})
    while sides[0]["fringe"].shape[0] and sides[1]["fringe"].shape[0]:
        x = 0 if sides[0]["fringe"].shape[0] <= sides[1]["fringe"].shape[0] else 1
        me, other = sides[x], sides[1 - x]
        q = Vector.from_coo(me["fringe"], np.ones(me["fringe"].shape[0], dtype=bool), size=n, dtype="bool",
                            device=dev)
        # reach = q any.pair A: every neighbour the expansion scans
        reach = asnumpy(_core.vxm(q, me["graph"].A, _semirings.any_pair).to_coo()[0])
        if np.any(other["lv"][reach] >= 0):
            return _meet(G, sides, x)
        new = reach[me["lv"][reach] < 0]
        me["depth"] += 1
        me["lv"][new] = me["depth"]
        me["seen"].append(new)
        me["fringe"] = new
    return None


def _side_tree(G, side, reverse):
    """networkx's BFS parents of one side over the levels it has seen (a host pass over the
    adjacency rows of the seen nodes only)."""
    n = len(G)
    idx = np.concatenate(side["seen"])
    lv = side["lv"]
    indptr, indices = G.pred_order if reverse else G.order
    # the seen nodes' rows, their edges kept in adjacency order (positions only compared within a row)
    local = np.full(n, -1, dtype=np.int64)
    local[idx] = np.arange(idx.shape[0])
    counts = indptr[idx + 1] - indptr[idx]
    flat = np.repeat(indptr[idx] - np.cumsum(counts) + counts, counts) + np.arange(int(counts.sum()))
    row = np.repeat(np.arange(idx.shape[0]), counts)
    heads = local[indices[flat]]
    keep = heads >= 0
    sub_ptr = np.zeros(idx.shape[0] + 1, dtype=np.int64)
    np.cumsum(np.bincount(row[keep], minlength=idx.shape[0]), out=sub_ptr[1:])
    layers, sub_parent = queue_order(lv[idx], sub_ptr, heads[keep], [int(local[side["root"]])])
    parent = np.full(n, -1, dtype=np.int64)
    has = sub_parent >= 0
    parent[idx[has]] = idx[sub_parent[has]]
    return lv, [idx[layer] for layer in layers], parent, indptr, indices


def _meet(G, sides, x):
    """The path networkx returns when side x's expansion of its current fringe meets the other side."""
    directed = G.is_directed()
    trees = [_side_tree(G, sides[i], reverse=(i == 1 and directed)) for i in (0, 1)]
    lv_x, layers_x, parent_x, indptr, indices = trees[x]
    lv_y = trees[1 - x][0]
    layer = layers_x[sides[x]["depth"]]
    starts, counts = indptr[layer], np.diff(indptr)[layer]
    owner = np.repeat(np.arange(layer.shape[0]), counts)
    flat = np.repeat(starts - np.cumsum(counts) + counts, counts) + np.arange(int(counts.sum()))
    nbrs = indices[flat]
    k = int(np.flatnonzero(lv_y[nbrs] >= 0)[0])  # the first scanned edge into the other side
    v, w = int(layer[owner[k]]), int(nbrs[k])
    link = parent_x.copy()
    if lv_x[w] < 0:
        link[w] = v  # w first seen by v in this expansion
    links = [None, None]
    links[x] = link
    links[1 - x] = trees[1 - x][2]
    forward = []
    u = w
    while u >= 0:
        forward.append(u)
        u = int(links[0][u])
    forward.reverse()
    u = int(links[1][w])
    while u >= 0:
        forward.append(u)
        u = int(links[1][u])
    return forward


__all__ = ["adjacency", "uniform", "with_super_source", "distances", "check_weights", "bfs_order", "tight_edges",
           "settle_order", "first_push_order", "path_lists", "no_gc", "path_to", "bidirectional_bfs", "Unbounded",
           "SETTLE_ROUNDS", "SWEEP_GROUPS"]
