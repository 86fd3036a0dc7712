"""networkx's generic shortest-path entry points (``shortest_path``, ``shortest_path_length``,
``has_path``, ``average_shortest_path_length``, the ``all_shortest_paths`` family), following
networkx's own dispatch on (source, target, weight, method) to the BFS, Dijkstra and
Bellman-Ford adapters."""

from __future__ import annotations

import math

import networkx as nx

from .... import algorithms as _alg
from .... import core as _core
from ....exceptions import DomainMismatch, InvalidValue, NegativeCycleError, OutOfMemory
from ....ops import monoid
from ...algorithms.paths import bidirectional_bfs, check_weights
from .._common import checked_by, weight_reason
from ..components import labels
from .bellman_ford import (
    _Tree, all_pairs_bellman_ford_path, all_pairs_bellman_ford_path_length, bellman_ford_path,
    bellman_ford_path_length, bellman_ford_predecessor_and_distance,
)
from .unweighted import (
    all_pairs_shortest_path, all_pairs_shortest_path_length, bidirectional_shortest_path, lengths, paths_from,
    predecessor,
)
from .weighted import (
    all_pairs_dijkstra_path, all_pairs_dijkstra_path_length, bidirectional_dijkstra, dijkstra_path_length,
    dijkstra_predecessor_and_distance, distance_dict, reject_negative, search,
)
from ...algorithms.paths import path_lists

_METHODS = ("dijkstra", "bellman-ford")


def _reason(G, source=None, target=None, weight=None, method="dijkstra"):
    return weight_reason(weight)


def _check_method(method):
    if method not in _METHODS:
        raise ValueError(f"method not supported: {method}")


def _eager(G, weight, method):
    """Declines found before any lazy result is handed out (networkx cannot fall back later)."""
    if method == "unweighted":
        return
    if method == "dijkstra":
        reject_negative(G, weight)
    check_weights(G, weight)


def _missing(method, *, paths):
    if method == "unweighted":
        return "Source {} not in G" if paths else "Source {} is not in G"
    return "Node {} not found in graph" if method == "dijkstra" else "Source {} not in G"


def _one_source(G, source, weight, method, *, reverse, paths):
    """networkx's single_source_<method>[_path|_path_length] from ``source`` (along reversed
    edges with ``reverse``)."""
    if source not in G:
        raise nx.NodeNotFound(_missing(method, paths=paths).format(source))
    nodes = G.nodes
    if method == "unweighted":
        return paths_from(G, source, reverse=reverse) if paths else lengths(G, source, reverse=reverse)
    if method == "dijkstra":
        s = search(G, [source], weight, reverse=reverse)
        return path_lists(s.order, s.parent, nodes, reverse=reverse) if paths else distance_dict(G, s)
    tree = _Tree(G, G.index[source], weight, reverse=reverse)
    if not paths:
        return tree.lengths(nodes)
    out = tree.paths(nodes)
    return {v: p[::-1] for v, p in out.items()} if reverse else out


def _by_case(G, source, target, weight, method, *, paths, all_pairs, one_pair):
    """networkx's case split of ``shortest_path`` (``paths``) and ``shortest_path_length``: all
    pairs without source and target (``all_pairs[method](G[, weight=weight])``), one source (or,
    along reversed edges, one target) with one of them, ``one_pair[method](source, target,
    weight)`` with both; ``method`` is "unweighted" where ``weight`` is None."""
    _check_method(method)
    method = "unweighted" if weight is None else method
    _eager(G, weight, method)
    if source is None:
        if target is None:
            if method == "unweighted":
                return all_pairs[method](G)
            return all_pairs[method](G, weight=weight)
        return _one_source(G, target, weight, method, reverse=True, paths=paths)
    if target is None:
        return _one_source(G, source, weight, method, reverse=False, paths=paths)
    return one_pair[method](source, target, weight)


@checked_by(_reason)
def shortest_path(G, source=None, target=None, weight=None, method="dijkstra"):
    """networkx.shortest_path: paths by BFS (``weight=None``), Dijkstra or Bellman-Ford.

    Returns what networkx returns for each case: an iterator of ``(node, {node: path})`` without
    source and target, a dict with one of them (paths *to* ``target`` without ``source``), a list
    with both.

    Raises ValueError for an unknown method, networkx.NodeNotFound, networkx.NetworkXNoPath and
    networkx.NetworkXUnbounded as networkx does.
    """
    return _by_case(
        G, source, target, weight, method, paths=True,
        all_pairs={"unweighted": all_pairs_shortest_path, "dijkstra": all_pairs_dijkstra_path,
                   "bellman-ford": all_pairs_bellman_ford_path},
        one_pair={"unweighted": lambda s, t, w: bidirectional_shortest_path(G, s, t),
                  "dijkstra": lambda s, t, w: bidirectional_dijkstra(G, s, t, w)[1],
                  "bellman-ford": lambda s, t, w: bellman_ford_path(G, s, t, w)},
    )


@checked_by(_reason)
def shortest_path_length(G, source=None, target=None, weight=None, method="dijkstra"):
    """networkx.shortest_path_length: hops (``weight=None``), Dijkstra or Bellman-Ford lengths.

    Returns what networkx returns for each case: an iterator of ``(node, dict)`` without source
    and target, a dict with one of them (lengths *to* ``target`` without ``source``), a number
    with both.

    Raises ValueError for an unknown method, networkx.NodeNotFound, networkx.NetworkXNoPath and
    networkx.NetworkXUnbounded as networkx does.
    """
    return _by_case(
        G, source, target, weight, method, paths=False,
        all_pairs={"unweighted": all_pairs_shortest_path_length, "dijkstra": all_pairs_dijkstra_path_length,
                   "bellman-ford": all_pairs_bellman_ford_path_length},
        one_pair={"unweighted": lambda s, t, w: len(bidirectional_shortest_path(G, s, t)) - 1,
                  "dijkstra": lambda s, t, w: dijkstra_path_length(G, s, t, w),
                  "bellman-ford": lambda s, t, w: bellman_ford_path_length(G, s, t, w)},
    )


def has_path(G, source, target):
    """networkx.has_path: whether ``target`` is reachable from ``source`` (networkx's
    bidirectional BFS, one engine product per level).

    Raises networkx.NodeNotFound for a missing ``source`` or ``target``.
    """
    if source not in G:
        raise nx.NodeNotFound(f"Source {source} is not in G")
    if target not in G:
        raise nx.NodeNotFound(f"Target {target} is not in G")
    return bidirectional_bfs(G, G.index[source], G.index[target]) is not None


_SINGLE = ("unweighted", "dijkstra", "bellman-ford")
_ALL_PAIRS = ("floyd-warshall", "floyd-warshall-numpy")
#: Stored distances per batch of sources in average_shortest_path_length.
APSP_BATCH_ENTRIES = 1 << 22


def _aspl_reason(G, weight=None, method=None):
    return weight_reason(weight)


@checked_by(_aspl_reason)
def average_shortest_path_length(G, weight=None, method=None):
    """networkx.average_shortest_path_length: the sum of d(u, v) over ordered pairs / (n (n - 1)).

    The distances come from the engine's all-pairs searches in batches of sources (batched BFS,
    one SSSP per source, or Floyd-Warshall by ``method``), summed as they are produced.

    Raises ValueError for an unknown method, networkx.NetworkXPointlessConcept for the null graph,
    networkx.NetworkXError for a graph that is not (strongly) connected and
    networkx.NetworkXUnbounded for a negative cycle (Bellman-Ford). Declined (NotImplementedError):
    Dijkstra on negative weights, Floyd-Warshall on a negative cycle (networkx sums whatever its
    relaxation leaves there), a result the engine's memory limit refuses.
    """
    if method is None:
        method = "unweighted" if weight is None else "dijkstra"
    if method not in _SINGLE + _ALL_PAIRS:
        raise ValueError(f"method not supported: {method}")
    n = len(G)
    if n == 0:
        raise nx.NetworkXPointlessConcept(
            "the null graph has no paths, thus there is no average shortest path length")
    if n == 1:
        return 0
    if G.is_directed() and not (labels(G, strong=True) == 0).all():
        raise nx.NetworkXError("Graph is not strongly connected.")
    if not G.is_directed() and not (labels(G) == 0).all():
        raise nx.NetworkXError("Graph is not connected.")
    if method == "dijkstra":
        reject_negative(G, weight)
    total = _distance_sum(G, weight, method)
    return total / (n * (n - 1))


def _distance_sum(G, weight, method):
    n = len(G)
    unit = method == "unweighted"
    graph = G.structure if unit else G.weighted(weight)
    how = "batched_bfs" if unit else ("floyd_warshall" if method in _ALL_PAIRS else "repeated")
    floats = not unit and (graph.A.dtype.kind == "f" or (weight is None and method in _ALL_PAIRS))
    total = 0.0 if floats else 0
    parts = []
    try:
        if how == "floyd_warshall":
            batches = [None]
        else:
            size = max(1, APSP_BATCH_ENTRIES // n)
            batches = [list(range(a, min(n, a + size))) for a in range(0, n, size)]
        for batch in batches:
            if how == "floyd_warshall":
                D = _alg.floyd_warshall(graph)
            else:
                D = _alg.all_pairs_shortest_paths(graph, method=how, sources=batch)
            # total += sum of D (the plus monoid over the stored distances)
            s = _core.reduce_scalar(D, monoid.plus)
            s = s.item() if hasattr(s, "item") else s
            parts.append(float(s) if floats else int(s))
    except NegativeCycleError:
        if method == "bellman-ford":
            raise nx.NetworkXUnbounded("Negative cycle detected.") from None
        raise NotImplementedError("a negative cycle: networkx's Floyd-Warshall sums the values its relaxation "
                                  "leaves there") from None
    except (DomainMismatch, InvalidValue, OutOfMemory) as exc:
        raise NotImplementedError(f"the engine declines: {exc}") from None
    total = math.fsum(parts) if floats else sum(parts)
    return total


def _build_paths(sources, target, pred):
    """Every path from ``sources`` to ``target`` through ``pred`` lists, in networkx's order
    (its ``_build_paths_from_predecessors``: a depth-first walk of the predecessor lists)."""
    if target not in pred:
        raise nx.NetworkXNoPath(f"Target {target} cannot be reached from given sources")
    seen = {target}
    stack = [[target, 0]]
    top = 0
    while top >= 0:
        node, i = stack[top]
        if node in sources:
            yield [p for p, _ in reversed(stack[: top + 1])]
        if len(pred[node]) > i:
            stack[top][1] = i + 1
            nxt = pred[node][i]
            if nxt in seen:
                continue
            seen.add(nxt)
            top += 1
            if top == len(stack):
                stack.append([nxt, 0])
            else:
                stack[top][:] = [nxt, 0]
        else:
            seen.discard(node)
            top -= 1


def _pred(G, source, weight, method):
    if method == "unweighted":
        return predecessor(G, source)
    if method == "dijkstra":
        return dijkstra_predecessor_and_distance(G, source, weight=weight)[0]
    if method == "bellman-ford":
        return bellman_ford_predecessor_and_distance(G, source, weight=weight)[0]
    raise ValueError(f"method not supported: {method}")


def _all_reason(G, *args, weight=None, method="dijkstra", **kwargs):
    return weight_reason(weight)


@checked_by(_all_reason)
def all_shortest_paths(G, source, target, weight=None, method="dijkstra"):
    """networkx.all_shortest_paths: a generator of every shortest path from ``source`` to
    ``target``, from the predecessor lists of ``predecessor`` (BFS),
    ``dijkstra_predecessor_and_distance`` or ``bellman_ford_predecessor_and_distance``.

    Raises ValueError (unknown method), networkx.NodeNotFound and networkx.NetworkXUnbounded at
    the call; networkx.NetworkXNoPath on the first ``next``.
    """
    method = "unweighted" if weight is None else method
    pred = _pred(G, source, weight, method)
    return _build_paths({source}, target, pred)


def _check_lazy(G, weight, method):
    method = "unweighted" if weight is None else method
    if method in ("dijkstra", "bellman-ford"):
        _eager(G, weight, method)
    return method


@checked_by(_all_reason)
def single_source_all_shortest_paths(G, source, weight=None, method="dijkstra"):
    """networkx.single_source_all_shortest_paths: ``(node, [every shortest path to it])`` for
    every node reached, lazily."""
    method = _check_lazy(G, weight, method)
    return _single_source_all(G, source, weight, method)


def _single_source_all(G, source, weight, method):
    pred = _pred(G, source, weight, method)
    for v in pred:
        yield v, list(_build_paths({source}, v, pred))


@checked_by(_all_reason)
def all_pairs_all_shortest_paths(G, weight=None, method="dijkstra"):
    """networkx.all_pairs_all_shortest_paths: ``(node, {node: [every shortest path]})`` for every
    node, lazily."""
    method = _check_lazy(G, weight, method)
    return _all_pairs_all(G, weight, method)


def _all_pairs_all(G, weight, method):
    for v in G.nodes:
        yield v, dict(_single_source_all(G, v, weight, method))


__all__ = ["shortest_path", "shortest_path_length", "has_path", "average_shortest_path_length",
           "all_shortest_paths", "single_source_all_shortest_paths", "all_pairs_all_shortest_paths"]
