"""Graphs and comparisons of the networkx backend's structure tests
(tests/nx/test_nx_structure*.py): undirected and directed graphs whose node labels are
strings inserted in a shuffled order, and the comparison of an adapter run with
``backend="semiring"`` and with ``backend="networkx"``: the same result in networkx's exact
output order (dict insertion order, generator order, a returned graph's node and adjacency
order), or the same exception; ``reason``: why the backend declines a call. Importing it sets
the networkx config those tests share."""

from __future__ import annotations

import random

import networkx as nx

from semiring.nx.backend import BackendInterface
from _nxgraphs import NX, SR, gnp, shuffled

nx.config.warnings_to_ignore.add("cache")


# ---------------------------------------------------------------------------------------------
# graphs and comparisons
# ---------------------------------------------------------------------------------------------
def with_loops(G, k, seed):
    rng = random.Random(seed)
    G = G.copy()
    G.add_edges_from((v, v) for v in rng.sample(list(G), k))
    return G


UNDIRECTED = [gnp(40, p, s) for s, p in ((1, 0.03), (2, 0.06), (3, 0.12))] + [
    shuffled(nx.karate_club_graph(), 4), shuffled(nx.barbell_graph(5, 3), 5), shuffled(nx.caveman_graph(3, 5), 6)]
DIRECTED = [gnp(40, p, s, directed=True) for s, p in ((1, 0.02), (2, 0.04), (3, 0.08))]


def outcome(func, *args, **kwargs):
    """The result (generators consumed, items listed until an exception) or the exception type."""
    got = []
    try:
        out = func(*args, **kwargs)
        if hasattr(out, "__next__"):
            for item in out:
                got.append(item)
            return got
        return out
    except Exception as exc:  # noqa: BLE001 (the type is the compared outcome)
        return (got, type(exc)) if got else type(exc)


def both(name, *args, **kwargs):
    """(semiring's outcome, networkx's outcome) of nx.<name>."""
    func = _function(name)
    return outcome(func, *args, **kwargs, **SR), outcome(func, *args, **kwargs, **NX)


def _function(name):
    """networkx's dispatchable function of that name."""
    return nx.utils.backends._registered_algorithms[name]


def assert_same(name, *args, **kwargs):
    got, want = both(name, *args, **kwargs)
    if isinstance(want, nx.Graph):
        assert_same_graph(got, want)
    else:
        assert got == want, name
        if isinstance(want, dict):
            assert list(got.items()) == list(want.items()), f"{name}: order"


def assert_same_graph(a, b, *, edge_order=True):
    """Equal graphs with equal node order, node and graph attributes, and (``edge_order``)
    equal adjacency order with edge attributes (else equal adjacency dicts)."""
    assert type(a) is type(b)
    assert list(a.nodes(data=True)) == list(b.nodes(data=True))
    assert a.graph == b.graph
    for u in b:
        if edge_order:
            assert list(a._adj[u].items()) == list(b._adj[u].items()), u
            if b.is_directed():
                assert list(a._pred[u]) == list(b._pred[u]), u
        else:
            assert dict(a._adj[u]) == dict(b._adj[u]), u


def reason(name, *args, **kwargs):
    return BackendInterface.can_run(name, args, kwargs)
