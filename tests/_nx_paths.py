"""Graphs and comparisons of the networkx backend's path tests (tests/nx/test_nx_paths*.py,
tests/nx/test_nx_traversal.py): graphs with string labels inserted in a shuffled order
(undirected and directed, unweighted, with small integer weights, many equal-length paths and
zero lengths included, and float weights, disconnected, with self-loops; negative weights with
and without a reachable negative cycle), and the comparison of an adapter called with
``backend="semiring"`` and ``backend="networkx"``: the same result or the same exception."""

from __future__ import annotations

import networkx as nx

from _nxgraphs import NX, SR, dag, gnp

nx.config.warnings_to_ignore.add("cache")


# ---------------------------------------------------------------------------------------------
# graphs
# ---------------------------------------------------------------------------------------------
UNWEIGHTED = [gnp(30, 0.1, 1), gnp(30, 0.08, 2, directed=True), gnp(25, 0.04, 3), gnp(20, 0.12, 4, loops=3)]
WEIGHTED = [gnp(30, 0.12, 5, weights="int", high=3), gnp(30, 0.1, 6, weights="int", directed=True, high=3),
            gnp(30, 0.1, 7, weights="float", high=9), gnp(30, 0.1, 8, weights="float", directed=True, high=9),
            gnp(25, 0.12, 9, weights="int", low=0, high=1, loops=2)]  # many zero lengths
ALL = UNWEIGHTED + WEIGHTED
NEGATIVE = [dag(25, 0.15, 11, weights="int", low=-4, high=3), dag(25, 0.15, 12, weights="float", low=-4, high=3),
            gnp(20, 0.12, 18, weights="int", low=-1, high=4, directed=True)]  # a reachable negative cycle


def same(a, b):
    """Equal, with dict keys in the same order at every level."""
    if isinstance(a, dict):
        return isinstance(b, dict) and list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return isinstance(b, (list, tuple)) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b and type(a) is type(b) or (isinstance(a, float) and isinstance(b, int) and a == b)


def outcome(f, backend):
    """f(backend) (an iterator as a list), or the type of networkx error it raises."""
    try:
        r = f(backend)
        return list(r) if hasattr(r, "__next__") else r
    except (nx.NetworkXException, ValueError, KeyError) as exc:
        return type(exc)


def assert_same(f):
    got, want = outcome(f, SR), outcome(f, NX)
    assert same(got, want), (got, want)


def length(G, path, weight="weight"):
    return sum(min(d.get(weight, 1) for d in G[u][v].values()) if G.is_multigraph() else G[u][v].get(weight, 1)
               for u, v in zip(path[:-1], path[1:]))
