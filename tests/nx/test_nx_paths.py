"""The networkx backend's paths and traversal family against networkx itself.

Every adapter is called through networkx's dispatcher with ``backend="semiring"`` and compared
with ``backend="networkx"`` on graphs with string labels inserted in a shuffled order:
undirected and directed, unweighted, with small integer weights (many equal-length paths, zero
lengths included) and float weights, disconnected, with self-loops. Where networkx defines an
order (BFS discovery, Dijkstra's settle order, its path choice among equally short paths) the
comparison includes the order: dicts by their items in order, paths as lists. Where the backend
documents another choice (Bellman-Ford's and Floyd-Warshall's paths among equal ones,
bidirectional Dijkstra's path) the paths are checked to be valid and shortest, and the lengths
and predecessor sets equal networkx's.
"""

from __future__ import annotations

import math
import random

import networkx as nx
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from semiring.backends.cpu import _jit
from semiring.nx.algorithms import paths as P
from semiring.nx.backend import BackendInterface
from _nxgraphs import NX, SR, dag, gnp, ids, shuffled

nx.config.warnings_to_ignore.add("cache")

SETTINGS = settings(max_examples=40, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


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


def pairs(G, k=6):
    nodes = list(G)
    return [(s, t) for s in nodes[:k] for t in nodes[-k:]]


# ---------------------------------------------------------------------------------------------
# unweighted: networkx's BFS order and paths exactly
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("G", ALL, ids=ids(ALL, "g"))
@pytest.mark.parametrize("cutoff", [None, 0, 2, 2.5, -1])
def test_single_source_and_target_bfs_paths(G, cutoff):
    for v in list(G)[:3]:
        assert_same(lambda b: nx.single_source_shortest_path(G, v, cutoff=cutoff, **b))
        assert_same(lambda b: nx.single_source_shortest_path_length(G, v, cutoff=cutoff, **b))
        assert_same(lambda b: nx.single_target_shortest_path(G, v, cutoff=cutoff, **b))
        assert_same(lambda b: nx.single_target_shortest_path_length(G, v, cutoff=cutoff, **b))
    assert_same(lambda b: dict(nx.all_pairs_shortest_path(G, cutoff=cutoff, **b)))


@pytest.mark.parametrize("G", ALL, ids=ids(ALL, "g"))
def test_bidirectional_shortest_path_and_has_path(G):
    for s, t in pairs(G) + [(list(G)[0], list(G)[0])]:
        assert_same(lambda b: nx.bidirectional_shortest_path(G, s, t, **b))
        assert_same(lambda b: nx.has_path(G, s, t, **b))
        assert_same(lambda b: nx.shortest_path(G, s, t, **b))
        assert_same(lambda b: nx.shortest_path_length(G, s, t, **b))


def test_bidirectional_covers_both_sides_and_no_path(monkeypatch):
    """The meeting must happen on each side: a long path graph meets from the forward side for
    some targets and the backward side for others; the no-path cases end on each side's empty
    fringe. The engine's level-at-a-time search (the compiled loop, where it runs, has its own
    test below)."""
    from types import SimpleNamespace

    monkeypatch.setattr(P, "_jit", SimpleNamespace(enabled=lambda: False))
    G = shuffled(nx.path_graph(12), 1)
    G.add_edges_from([("v3", "x"), ("x", "y"), ("y", "z"), ("v9", "w")])
    D = nx.DiGraph(G)
    D.remove_edge("v5", "v4")
    for H in (G, D):
        for s in H:
            for t in ("v0", "v6", "v11", "z", "w"):
                assert_same(lambda b: nx.bidirectional_shortest_path(H, s, t, **b))
    sides = set()
    orig = P._meet
    P._meet = lambda G_, s_, x: sides.add(x) or orig(G_, s_, x)
    try:
        for t in list(G):
            nx.bidirectional_shortest_path(G, "v0", t, **SR)
            nx.bidirectional_shortest_path(G, "z", t, **SR)
    finally:
        P._meet = orig
    assert sides == {0, 1}


def _ordered_csr(G, adj, nodes, dtype):
    """(indptr, indices, weights) of ``adj`` ({node: {nbr: data}}) in networkx's iteration order."""
    index = {v: i for i, v in enumerate(nodes)}
    indptr = np.zeros(len(nodes) + 1, dtype=np.int64)
    indices, w = [], []
    for i, v in enumerate(nodes):
        indptr[i + 1] = indptr[i] + len(adj[v])
        indices += [index[u] for u in adj[v]]
        w += [d.get("weight", 1) for d in adj[v].values()]
    return indptr, np.asarray(indices, dtype=np.int64), np.asarray(w, dtype=dtype)


def _outcome(f):
    try:
        return f()
    except (nx.NetworkXNoPath, ValueError) as exc:
        return type(exc)


@pytest.mark.parametrize("seed", range(48))
def test_compiled_pair_searches_are_networkx_step_for_step(seed):
    """The compiled bidirectional BFS and Dijkstra return networkx's own path for every pair
    (ties included: small integer weights), NetworkXNoPath's None, and networkx's
    "Contradictory paths" ValueError where a negative weight makes its search contradict itself."""
    from semiring.backends.cpu import compiled_pairs as C

    r = random.Random(seed)
    n, m = r.randint(2, 24), r.randint(0, 70)
    G = nx.gnm_random_graph(n, m, seed=seed, directed=seed % 2 == 1)
    kind = seed % 4  # small ints (ties), floats, ints with a negative edge, floats with one
    for u, v in G.edges:
        G[u][v]["weight"] = r.choice([1, 2, 3]) if kind in (0, 2) else r.random()
    if kind >= 2 and m:
        u, v = r.choice(list(G.edges))
        G[u][v]["weight"] = -1 if kind == 2 else -0.5
    dtype = np.int64 if kind in (0, 2) else np.float64
    nodes = list(G)
    fwd = _ordered_csr(G, G._adj if not G.is_directed() else G._succ, nodes, dtype)
    rev = _ordered_csr(G, G._adj if not G.is_directed() else G._pred, nodes, dtype)
    for s in nodes:
        for t in nodes:
            if s == t:
                continue
            want = _outcome(lambda: nx.bidirectional_shortest_path(G, s, t, backend="networkx"))
            got = C.bidirectional_bfs(fwd[0], fwd[1], rev[0], rev[1], s, t)
            assert (got if got is not None else nx.NetworkXNoPath) == want, (s, t)
            want = _outcome(lambda: nx.bidirectional_dijkstra(G, s, t, backend="networkx"))
            got = _outcome(lambda: C.bidirectional_dijkstra(fwd, rev, s, t))
            if isinstance(got, tuple):
                got = (got[0].item(), got[1])
            assert (got if got is not None else nx.NetworkXNoPath) == want, (s, t)


@pytest.mark.parametrize("G", ALL, ids=ids(ALL, "g"))
@pytest.mark.parametrize("cutoff", [None, 0, 1, 2.5, -1])
def test_predecessor(G, cutoff):
    s = list(G)[1]
    assert_same(lambda b: nx.predecessor(G, s, cutoff=cutoff, **b))
    assert_same(lambda b: nx.predecessor(G, s, cutoff=cutoff, return_seen=True, **b))
    for t in list(G)[-4:] + ["not a node"]:
        assert_same(lambda b: nx.predecessor(G, s, t, cutoff=cutoff, **b))
        assert_same(lambda b: nx.predecessor(G, s, t, cutoff=cutoff, return_seen=True, **b))


# ---------------------------------------------------------------------------------------------
# Dijkstra: networkx's settle order, paths and predecessor lists exactly
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("G", ALL, ids=ids(ALL, "g"))
@pytest.mark.parametrize("cutoff", [None, 0, 2, 4.5])
def test_single_source_dijkstra_family(G, cutoff):
    for s in list(G)[:3]:
        assert_same(lambda b: nx.single_source_dijkstra(G, s, cutoff=cutoff, **b))
        assert_same(lambda b: nx.single_source_dijkstra_path(G, s, cutoff=cutoff, **b))
        assert_same(lambda b: nx.single_source_dijkstra_path_length(G, s, cutoff=cutoff, **b))
        assert_same(lambda b: nx.dijkstra_predecessor_and_distance(G, s, cutoff=cutoff, **b))
        assert_same(lambda b: nx.single_source_dijkstra(G, s, weight=None, cutoff=cutoff, **b))
        for t in list(G)[-4:]:
            assert_same(lambda b: nx.single_source_dijkstra(G, s, t, cutoff=cutoff, **b))


@pytest.mark.parametrize("G", ALL, ids=ids(ALL, "g"))
def test_dijkstra_pairs_and_astar(G):
    for s, t in pairs(G, 4):
        assert_same(lambda b: nx.dijkstra_path(G, s, t, **b))
        assert_same(lambda b: nx.dijkstra_path_length(G, s, t, **b))
        assert_same(lambda b: nx.astar_path(G, s, t, **b))
        assert_same(lambda b: nx.astar_path_length(G, s, t, **b))
        assert_same(lambda b: nx.astar_path(G, s, t, cutoff=3, **b))
        assert_same(lambda b: nx.shortest_path(G, s, weight="weight", **b))
        assert_same(lambda b: nx.shortest_path(G, target=t, weight="weight", **b))
        assert_same(lambda b: nx.shortest_path_length(G, target=t, weight="weight", **b))


@pytest.mark.parametrize("G", ALL, ids=ids(ALL, "g"))
def test_multi_source_and_all_pairs_dijkstra(G):
    nodes = list(G)
    for sources in ([nodes[0]], [nodes[3], nodes[0], nodes[3], nodes[7]], {nodes[2], nodes[5]}):
        for cutoff in (None, 3):
            assert_same(lambda b: nx.multi_source_dijkstra(G, sources, cutoff=cutoff, **b))
            assert_same(lambda b: nx.multi_source_dijkstra_path(G, sources, cutoff=cutoff, **b))
            assert_same(lambda b: nx.multi_source_dijkstra_path_length(G, sources, cutoff=cutoff, **b))
            for t in (nodes[-1], nodes[3]):
                assert_same(lambda b: nx.multi_source_dijkstra(G, sources, t, cutoff=cutoff, **b))
    assert_same(lambda b: dict(nx.all_pairs_dijkstra(G, **b)))
    assert_same(lambda b: dict(nx.all_pairs_dijkstra_path(G, cutoff=2, **b)))
    assert_same(lambda b: dict(nx.all_pairs_dijkstra_path_length(G, **b)))
    assert_same(lambda b: dict(nx.shortest_path(G, weight="weight", **b)))


@pytest.mark.parametrize("G", ALL, ids=ids(ALL, "g"))
def test_bidirectional_dijkstra_is_dijkstras_path(G):
    for s, t in pairs(G, 4):
        try:
            want = nx.bidirectional_dijkstra(G, s, t)
        except nx.NetworkXNoPath:
            with pytest.raises(nx.NetworkXNoPath):
                nx.bidirectional_dijkstra(G, s, t, **SR)
            continue
        d, path = nx.bidirectional_dijkstra(G, s, t, **SR)
        assert d == pytest.approx(want[0]) and length(G, path) == pytest.approx(d)
        # compiled: networkx's two-sided search itself; otherwise the one-sided search's path, which
        # is dijkstra_path's (networkx's two-sided search may pick another of equal length)
        assert path == (want[1] if _jit.enabled() else nx.dijkstra_path(G, s, t))


@st.composite
def tie_graphs(draw):
    """Small graphs with lengths in {0, 1, 2}: many equally short paths and zero-length edges."""
    n = draw(st.integers(2, 14))
    directed = draw(st.booleans())
    edges = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1), st.integers(0, 2)),
                          max_size=3 * n))
    G = nx.DiGraph() if directed else nx.Graph()
    order = draw(st.permutations(range(n)))
    G.add_nodes_from(f"n{i}" for i in order)
    for u, v, w in edges:
        G.add_edge(f"n{u}", f"n{v}", weight=w)
    return G


@SETTINGS
@given(tie_graphs(), st.data())
def test_dijkstra_order_with_ties_hypothesis(G, data):
    nodes = list(G)
    s = data.draw(st.sampled_from(nodes))
    srcs = data.draw(st.lists(st.sampled_from(nodes), min_size=1, max_size=3))
    assert_same(lambda b: nx.single_source_dijkstra(G, s, **b))
    assert_same(lambda b: nx.dijkstra_predecessor_and_distance(G, s, **b))
    assert_same(lambda b: nx.multi_source_dijkstra(G, srcs, **b))
    assert_same(lambda b: nx.single_source_shortest_path(G, s, **b))
    t = data.draw(st.sampled_from(nodes))
    assert_same(lambda b: nx.bidirectional_shortest_path(G, s, t, **b))


@SETTINGS
@given(tie_graphs(), st.data())
def test_settle_order_strategies_agree(G, data):
    """Group by group, all groups per round, and the heap replay reach the same fixed point."""
    H = BackendInterface.convert_from_nx(G, edge_attrs={"weight": 1})
    s = data.draw(st.integers(0, len(H) - 1))
    adj = P.adjacency(H, "weight")
    dist, reached = P.distances(H, [s], "weight")
    sweep = P.settle_order(dist, reached, [s], *adj)
    rounds = P.settle_order(dist, reached, [s], *adj, sweep=0)
    replay = P.settle_order(dist, reached, [s], *adj, rounds=0)
    assert all(np.array_equal(a, b) and np.array_equal(a, c) for a, b, c in zip(sweep, rounds, replay))


def _settled(G, s, **kw):
    H = BackendInterface.convert_from_nx(G, edge_attrs={"weight": 1})
    adj = P.adjacency(H, "weight")
    dist, reached = P.distances(H, [H.index[s]], "weight")
    order, parent, _ = P.settle_order(dist, reached, [H.index[s]], *adj, **kw)
    return [H.nodes[i] for i in order.tolist()], P.path_lists(order, parent, H.nodes)


def _with_replays(G, s, **kw):
    calls = []
    orig = P._replay
    P._replay = lambda *a: calls.append(1) or orig(*a)
    try:
        return _settled(G, s, **kw), bool(calls)
    finally:
        P._replay = orig


def test_settle_order_when_ties_chain_long():
    """A grid with lengths 2 everywhere but one 1: the order of each group of equal distance
    depends on the one before, along the whole grid (about 30 groups). Group by group that is
    one pass per group; all groups at once it is one round per group, more than the rounds
    allowed, and the heap replay must still give networkx's order."""
    G = shuffled(nx.grid_2d_graph(16, 16), 3)
    nx.set_edge_attributes(G, 2, "weight")
    u, v = next(iter(G.edges()))
    G[u][v]["weight"] = 1
    dist, paths = nx.single_source_dijkstra(G, u)
    want = (list(dist), paths)
    for kw, replayed in (({}, False), ({"rounds": 2}, False), ({"sweep": 0}, True)):
        (order, got), did = _with_replays(G, u, **kw)
        assert did is replayed and order == want[0] and same(got, want[1]), kw


def test_settle_order_zero_length_chains_inside_a_group():
    """Zero-length edges chain nodes of one distance: ordering that group takes a pass per link
    (then the replay), group by group or all at once."""
    G = nx.DiGraph()
    chain = [f"c{i}" for i in range(12)]
    random.Random(4).shuffle(chain)
    G.add_nodes_from(reversed(chain))
    G.add_edge("s", chain[0], weight=1)
    G.add_edge("s", "x", weight=1)
    nx.add_path(G, chain, weight=0)
    G.add_edge("x", chain[5], weight=0)
    dist, paths = nx.single_source_dijkstra(G, "s")
    for kw in ({}, {"sweep": 0}):
        assert _with_replays(G, "s", **kw) == ((list(dist), paths), False)
        assert _with_replays(G, "s", rounds=2, **kw) == ((list(dist), paths), True)


def test_johnson_is_networkx_dijkstra_on_reweighted_lengths():
    for G in WEIGHTED[:2] + NEGATIVE[:1] + [NEGATIVE[2]]:
        assert_same(lambda b: nx.johnson(G, **b))
    assert nx.johnson(nx.DiGraph(), **SR) == {}
    D = nx.DiGraph()
    D.add_node(0)
    assert nx.johnson(D, **SR) == {0: {0: [0]}}
    U = nx.Graph([(0, 1, {"weight": -1})])
    with pytest.raises(nx.NetworkXUnbounded):
        nx.johnson(U, **SR)


# ---------------------------------------------------------------------------------------------
# Bellman-Ford: equal lengths and predecessor sets, valid shortest paths
# ---------------------------------------------------------------------------------------------
def _bf_check(G, s):
    try:
        want_pred, want_dist = nx.bellman_ford_predecessor_and_distance(G, s)
    except nx.NetworkXUnbounded:
        for f in (nx.bellman_ford_predecessor_and_distance, nx.single_source_bellman_ford,
                  nx.single_source_bellman_ford_path_length, nx.goldberg_radzik):
            with pytest.raises(nx.NetworkXUnbounded):
                f(G, s, **SR)
        return "unbounded"
    pred, dist = nx.bellman_ford_predecessor_and_distance(G, s, **SR)
    assert dist.keys() == want_dist.keys() and all(dist[v] == pytest.approx(want_dist[v]) for v in dist)
    assert {v: set(p) for v, p in pred.items()} == {v: set(p) for v, p in want_pred.items()}
    d2, paths = nx.single_source_bellman_ford(G, s, **SR)
    assert list(d2.items()) == list(dist.items())
    assert list(nx.single_source_bellman_ford_path_length(G, s, **SR).items()) == list(dist.items())
    assert nx.single_source_bellman_ford_path(G, s, **SR) == paths
    gr_pred, gr_dist = nx.goldberg_radzik(G, s, **SR)
    assert gr_dist == dist and gr_pred[s] is None
    for v, path in paths.items():
        assert path[0] == s and path[-1] == v and length(G, path) == pytest.approx(dist[v])
        if v != s:
            assert pred[v][0] == path[-2]  # the tree parent first
        assert gr_pred[v] == (None if v == s else path[-2])
        assert nx.bellman_ford_path(G, s, v, **SR) == path
        assert nx.bellman_ford_path_length(G, s, v, **SR) == pytest.approx(dist[v])
        assert nx.single_source_bellman_ford(G, s, v, **SR) == (dist[v], path)
    for t in G:
        if t not in dist:
            with pytest.raises(nx.NetworkXNoPath):
                nx.bellman_ford_path(G, s, t, **SR)
    return "ok"


@pytest.mark.parametrize("G", ALL + NEGATIVE, ids=ids(ALL, "g") + ids(NEGATIVE, "neg"))
def test_bellman_ford_family(G):
    outcomes = {_bf_check(G, s) for s in sorted(G, key=lambda v: (len(v), v))[:4]}
    if G is NEGATIVE[2]:
        assert "unbounded" in outcomes  # the graph does hold a reachable negative cycle
    lengths = dict(nx.all_pairs_bellman_ford_path_length(G, **SR)) if "unbounded" not in outcomes else None
    if lengths is not None:
        want = dict(nx.all_pairs_bellman_ford_path_length(G))
        assert lengths.keys() == want.keys()
        assert all(lengths[u][v] == pytest.approx(want[u][v]) for u in want for v in want[u])
        paths = dict(nx.all_pairs_bellman_ford_path(G, **SR))
        assert all(length(G, p) == pytest.approx(want[u][v]) for u in paths for v, p in paths[u].items())
    assert nx.negative_edge_cycle(G, **SR) is nx.negative_edge_cycle(G)


def test_bellman_ford_negative_self_loop_anywhere_and_single_node():
    G = nx.DiGraph([(0, 1, {"weight": 1})])
    G.add_edge(5, 5, weight=-1)  # unreachable from 0: still a negative cycle for these two
    for f in (nx.bellman_ford_predecessor_and_distance, nx.goldberg_radzik):
        for backend in (SR, NX):
            with pytest.raises(nx.NetworkXUnbounded):
                f(G, 0, **backend)
    assert nx.single_source_bellman_ford_path_length(G, 0, **SR) == {0: 0, 1: 1}
    one = nx.DiGraph()
    one.add_node("a")
    assert nx.bellman_ford_predecessor_and_distance(one, "a", **SR) == ({"a": []}, {"a": 0})
    assert nx.goldberg_radzik(one, "a", **SR) == ({"a": None}, {"a": 0})
    assert nx.negative_edge_cycle(one, **SR) is False
    assert nx.negative_edge_cycle(nx.DiGraph([(1, 2, {"w": -2}), (2, 1, {"w": -1})]), weight="w", **SR) is True


# ---------------------------------------------------------------------------------------------
# generic entry points and all shortest paths
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("G", ALL + NEGATIVE[:2], ids=ids(ALL, "g") + ids(NEGATIVE[:2], "neg"))
@pytest.mark.parametrize("method", ["dijkstra", "bellman-ford"])
def test_shortest_path_every_case(G, method):
    s, t = list(G)[0], list(G)[-1]
    negative = any(d.get("weight", 1) < 0 for _, _, d in G.edges(data=True))
    for weight in (None, "weight"):
        kw = {"weight": weight, "method": method}
        exact = weight is None or method == "dijkstra"
        if negative and method == "dijkstra" and weight is not None:
            with pytest.raises(NotImplementedError):
                nx.shortest_path(G, s, **kw, **SR)
            continue
        for args in ({}, {"source": s}, {"target": t}, {"source": s, "target": t}, {"source": s, "target": s}):
            if exact and not (method == "dijkstra" and weight and "target" in args and "source" in args):
                assert_same(lambda b: nx.shortest_path(G, **args, **kw, **b))
            got, want = outcome(lambda b: nx.shortest_path_length(G, **args, **kw, **b), SR), \
                outcome(lambda b: nx.shortest_path_length(G, **args, **kw, **b), NX)
            if isinstance(want, list):
                got, want = dict(got), dict(want)
            if isinstance(want, dict):
                assert list(got) == list(want) if exact else set(got) == set(want)
                assert all(got[k] == pytest.approx(want[k]) for k in want)
            else:
                assert got == want if isinstance(want, type) else got == pytest.approx(want)


@pytest.mark.parametrize("G", ALL + NEGATIVE[:1], ids=ids(ALL, "g") + ["neg0"])
def test_all_shortest_paths_family(G):
    s = list(G)[0]
    for weight, method in ((None, "dijkstra"), ("weight", "dijkstra"), ("weight", "bellman-ford")):
        if method == "dijkstra" and G in NEGATIVE:
            continue
        kw = {"weight": weight, "method": method}
        for t in list(G)[-5:]:
            got, want = outcome(lambda b: nx.all_shortest_paths(G, s, t, **kw, **b), SR), \
                outcome(lambda b: nx.all_shortest_paths(G, s, t, **kw, **b), NX)
            if isinstance(want, type) or method == "dijkstra":
                assert same(got, want)
            else:
                assert sorted(got) == sorted(want)
        got = dict(nx.single_source_all_shortest_paths(G, s, **kw, **SR))
        want = dict(nx.single_source_all_shortest_paths(G, s, **kw))
        assert same(got, want) if method == "dijkstra" else {k: sorted(v) for k, v in got.items()} == {
            k: sorted(v) for k, v in want.items()}
    assert_same(lambda b: dict(nx.all_pairs_all_shortest_paths(G, **b)))
    with pytest.raises(ValueError, match="method not supported"):
        nx.all_shortest_paths(G, s, list(G)[1], weight="weight", method="SPAM", **SR)


@pytest.mark.parametrize("method", [None, "unweighted", "dijkstra", "bellman-ford", "floyd-warshall",
                                    "floyd-warshall-numpy"])
@pytest.mark.parametrize("weight", [None, "weight"])
def test_average_shortest_path_length(method, weight):
    graphs = [nx.relabel_nodes(nx.path_graph(5), str), gnp(15, 0.3, 1, weights="int", low=1, high=5),
              gnp(15, 0.3, 2, weights="float", low=0.5, high=3),
              shuffled(nx.DiGraph(nx.cycle_graph(6)), 3, weights="int", low=1, high=4)]
    answers = []
    for G in graphs:
        want = outcome(lambda b: nx.average_shortest_path_length(G, weight=weight, method=method, **b), NX)
        got = outcome(lambda b: nx.average_shortest_path_length(G, weight=weight, method=method, **b), SR)
        assert got is want if isinstance(want, type) else got == pytest.approx(want)
        answers.append(want)
    assert sum(not isinstance(a, type) for a in answers) >= 3  # most graphs are connected: numbers compared


def test_average_shortest_path_length_errors_match_networkx():
    cases = [(nx.Graph(), nx.NetworkXPointlessConcept), (nx.DiGraph([(0, 1)]), nx.NetworkXError),
             (nx.Graph([(0, 1), (2, 3)]), nx.NetworkXError)]
    for G, exc in cases:
        for backend in (SR, NX):
            with pytest.raises(exc):
                nx.average_shortest_path_length(G, **backend)
    for backend in (SR, NX):
        with pytest.raises(ValueError, match="method not supported"):
            nx.average_shortest_path_length(nx.path_graph(3), method="SPAM", **backend)
    assert nx.average_shortest_path_length(nx.trivial_graph(), **SR) == 0
    C = nx.DiGraph([(0, 1, {"weight": -3}), (1, 0, {"weight": 1})])
    with pytest.raises(nx.NetworkXUnbounded):
        nx.average_shortest_path_length(C, weight="weight", method="bellman-ford", **SR)
    with pytest.raises(NotImplementedError):
        nx.average_shortest_path_length(C, weight="weight", method="floyd-warshall", **SR)


# ---------------------------------------------------------------------------------------------
# Floyd-Warshall: lengths as networkx's, predecessors on shortest paths
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("G", ALL + NEGATIVE[:2], ids=ids(ALL, "g") + ids(NEGATIVE[:2], "neg"))
def test_floyd_warshall_numpy_and_predecessors(G):
    want = nx.floyd_warshall_numpy(G)
    got = nx.floyd_warshall_numpy(G, **SR)
    assert got.dtype == np.float64 and np.allclose(got, want, equal_nan=False)
    order = list(G)[::-1]
    assert np.allclose(nx.floyd_warshall_numpy(G, nodelist=order, **SR), nx.floyd_warshall_numpy(G, nodelist=order))
    pred, dist = nx.floyd_warshall_predecessor_and_distance(G, **SR)
    want_pred, want_dist = nx.floyd_warshall_predecessor_and_distance(G)
    assert set(pred) == set(want_pred) and all(set(pred[u]) == set(want_pred[u]) for u in want_pred)
    for u in want_dist:
        assert set(dist[u]) == set(want_dist[u]) and dist[u]["not a node"] == math.inf
        assert all(dist[u][v] == pytest.approx(want_dist[u][v]) for v in want_dist[u])
        for v in pred.get(u, {}):
            if v != u:
                path = nx.reconstruct_path(u, v, pred)
                assert path[0] == u and path[-1] == v and length(G, path) == pytest.approx(dist[u][v])


def test_floyd_warshall_errors_and_declines():
    G = nx.path_graph(4)
    for backend in (SR, NX):
        with pytest.raises(nx.NetworkXError, match="nodelist must contain every node"):
            nx.floyd_warshall_numpy(G, nodelist=[0, 1], **backend)
        with pytest.raises(nx.NetworkXError, match="nodelist"):
            nx.floyd_warshall_numpy(G, nodelist=[0, 1, 2, 9], **backend)
    cycle = nx.DiGraph([(0, 1, {"weight": 1}), (1, 0, {"weight": -2})])
    for f in (nx.floyd_warshall_numpy, nx.floyd_warshall_predecessor_and_distance):
        with pytest.raises(NotImplementedError):
            f(cycle, **SR)
    assert nx.floyd_warshall_predecessor_and_distance(nx.Graph(), **SR) == ({}, {})
    L = nx.DiGraph([(0, 0, {"weight": 2}), (0, 1, {"weight": 1})])
    pred, dist = nx.floyd_warshall_predecessor_and_distance(L, **SR)
    assert pred == nx.floyd_warshall_predecessor_and_distance(L)[0] == {0: {0: 0, 1: 0}}


# ---------------------------------------------------------------------------------------------
# traversal
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("G", UNWEIGHTED, ids=ids(UNWEIGHTED, "u"))
@pytest.mark.parametrize("depth_limit", [None, 0, 1, 3])
def test_bfs_predecessors_and_successors(G, depth_limit):
    for s in list(G)[:3]:
        assert_same(lambda b: list(nx.bfs_predecessors(G, s, depth_limit=depth_limit, **b)))
        assert_same(lambda b: list(nx.bfs_successors(G, s, depth_limit=depth_limit, **b)))


@pytest.mark.parametrize("G", UNWEIGHTED + [nx.DiGraph([(0, 1), (1, 0), (2, 0), (2, 1), (3, 1), (3, 3)]),
                                            nx.Graph([(0, 1), (2, 0), (2, 1), (3, 1), (1, 1)])],
                         ids=ids(UNWEIGHTED, "u") + ["small-d", "small-u"])
@pytest.mark.parametrize("orientation", [None, "original", "reverse", "ignore"])
def test_edge_bfs(G, orientation):
    nodes = list(G)
    for source in (None, nodes[0], nodes[-1], [nodes[1], nodes[0], nodes[1], "not a node"], []):
        assert_same(lambda b: list(nx.edge_bfs(G, source, orientation=orientation, **b)))


@pytest.mark.parametrize("G", UNWEIGHTED + [nx.DiGraph([(0, 1), (1, 2), (2, 0), (0, 0), (3, 1)])],
                         ids=ids(UNWEIGHTED, "u") + ["small-d"])
def test_bfs_labeled_edges(G):
    nodes = list(G)
    for sources in (nodes[0], [nodes[2], nodes[0]], [nodes[1], nodes[1]], []):
        assert_same(lambda b: list(nx.bfs_labeled_edges(G, sources, **b)))


@pytest.mark.parametrize("G", UNWEIGHTED, ids=ids(UNWEIGHTED, "u"))
def test_descendants_ancestors_component(G):
    for v in list(G)[:5]:
        assert_same(lambda b: nx.descendants(G, v, **b))
        assert_same(lambda b: nx.ancestors(G, v, **b))
        if not G.is_directed():
            assert_same(lambda b: nx.node_connected_component(G, v, **b))


def test_traversal_errors_match_networkx():
    G = nx.path_graph(3)
    D = nx.DiGraph(G)
    for H in (G, D):
        for f in (nx.descendants, nx.ancestors):
            with pytest.raises(nx.NetworkXError, match="The node 9 is not in the"):
                f(H, 9, **SR)
        for f in (nx.bfs_predecessors, nx.bfs_successors):
            it = f(H, 9, **SR)  # lazy, as networkx's generators
            with pytest.raises(nx.NetworkXError):
                next(it)
    with pytest.raises(KeyError):
        nx.node_connected_component(G, 9, **SR)
    it = nx.edge_bfs(D, 0, orientation="hello", **SR)
    with pytest.raises(nx.NetworkXError, match="invalid orientation"):
        list(it)
    assert list(nx.edge_bfs(G, 0, orientation="hello", **SR)) == list(nx.edge_bfs(G, 0, orientation="hello"))
    assert list(nx.edge_bfs(nx.Graph(), **SR)) == []


# ---------------------------------------------------------------------------------------------
# declines and errors
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name, args, kwargs, words", [
    ("astar_path", (nx.path_graph(3), 0, 2), {"heuristic": lambda u, v: 0}, "heuristic"),
    ("single_source_dijkstra", (nx.path_graph(3), 0), {"weight": lambda u, v, d: 1}, "callable weight"),
    ("bellman_ford_path", (nx.path_graph(3), 0, 2), {"weight": lambda u, v, d: 1}, "callable weight"),
    ("johnson", (nx.path_graph(3),), {"weight": lambda u, v, d: 1}, "callable weight"),
    ("predecessor", (nx.path_graph(3), 0), {"cutoff": "2"}, "cutoff"),
    ("bfs_successors", (nx.path_graph(3), 0), {"sort_neighbors": sorted}, "sort_neighbors"),
    ("edge_bfs", (nx.MultiGraph([(0, 1)]),), {}, "multigraph"),
    ("edge_bfs", (nx.path_graph(3), 1.5), {}, "source must be"),
    ("bfs_labeled_edges", (nx.path_graph(3), [0, 9]), {}, "not in the graph"),
    ("bfs_labeled_edges", (nx.MultiDiGraph([(0, 1)]), 0), {}, "multigraph"),
    ("multi_source_dijkstra", (nx.path_graph(3), [0]), {"cutoff": "x"}, "cutoff"),
])
def test_declines_with_a_reason(name, args, kwargs, words):
    reason = BackendInterface.can_run(name, args, kwargs)
    assert isinstance(reason, str) and words in reason, reason


def test_declines_inside_the_adapter_come_before_lazy_results():
    """Negative weights (Dijkstra) and NaN weights are found at the call, not while iterating,
    so networkx can still fall back."""
    N = nx.DiGraph([(0, 1, {"weight": -1}), (1, 2, {"weight": 1})])
    for f in (lambda: nx.all_pairs_dijkstra_path(N, **SR), lambda: nx.shortest_path(N, weight="weight", **SR),
              lambda: nx.single_source_all_shortest_paths(N, 0, weight="weight", **SR),
              lambda: nx.all_pairs_dijkstra(N, **SR), lambda: nx.astar_path(N, 0, 2, **SR)):
        with pytest.raises(NotImplementedError):
            f()
    nan = nx.DiGraph([(0, 1, {"weight": float("nan")})])
    for f in (lambda: nx.all_pairs_bellman_ford_path_length(nan, **SR),
              lambda: nx.single_source_dijkstra(nan, 0, **SR)):
        with pytest.raises(NotImplementedError):
            f()


def test_errors_match_networkx():
    G = nx.path_graph(4, create_using=nx.DiGraph)
    calls = [
        (nx.single_source_shortest_path, (G, 9)), (nx.single_target_shortest_path, (G, 9)),
        (nx.single_target_shortest_path_length, (G, 9)), (nx.bidirectional_shortest_path, (G, 9, 0)),
        (nx.bidirectional_shortest_path, (G, 0, 9)), (nx.bidirectional_shortest_path, (G, 3, 0)),
        (nx.has_path, (G, 9, 0)), (nx.predecessor, (G, 9)),
        (nx.single_source_dijkstra, (G, 9)), (nx.single_source_dijkstra, (G, 0, 9)),
        (nx.single_source_dijkstra, (G, 3, 0)), (nx.single_source_dijkstra, (G, 9, 9)),
        (nx.dijkstra_path, (G, 9, 0)), (nx.dijkstra_path, (G, 3, 0)),
        (nx.dijkstra_predecessor_and_distance, (G, 9)), (nx.multi_source_dijkstra, (G, [])),
        (nx.multi_source_dijkstra_path, (G, [0, 9])), (nx.multi_source_dijkstra_path_length, (G, set())),
        (nx.bidirectional_dijkstra, (G, 9, 0)), (nx.bidirectional_dijkstra, (G, 0, 9)),
        (nx.bidirectional_dijkstra, (G, 3, 0)), (nx.astar_path, (G, 9, 0)), (nx.astar_path, (G, 3, 0)),
        (nx.astar_path_length, (G, 0, 9)), (nx.bellman_ford_path, (G, 9, 0)), (nx.bellman_ford_path, (G, 3, 0)),
        (nx.bellman_ford_path, (G, 9, 9)), (nx.single_source_bellman_ford_path_length, (G, 9)),
        (nx.bellman_ford_predecessor_and_distance, (G, 9)), (nx.goldberg_radzik, (G, 9)),
        (nx.shortest_path, (G, 9)), (nx.shortest_path, (G, None, 9)), (nx.shortest_path, (G, 0, 9)),
        (nx.shortest_path, (G, 3, 0)), (nx.shortest_path, (G, 0, 1, None, "SPAM")),
    ]
    for f, args in calls:
        got, want = outcome(lambda b: f(*args, **b), SR), outcome(lambda b: f(*args, **b), NX)
        assert isinstance(want, type) and got is want, (f.__name__, args, got, want)
    # messages as networkx's
    for f, args in calls[:6]:
        with pytest.raises(outcome(lambda b: f(*args, **b), NX)) as a:
            f(*args, **SR)
        with pytest.raises(outcome(lambda b: f(*args, **b), NX)) as b:
            f(*args)
        assert str(a.value) == str(b.value)
    assert nx.multi_source_dijkstra(G, [0, 1], 1, **SR) == (0, [1])
    assert nx.single_source_bellman_ford(G, 2, 2, **SR) == (0, [2])


def test_multigraph_lengths_take_the_smallest_parallel_edge():
    M = nx.MultiGraph()
    M.add_edge("a", "b", weight=10)
    M.add_edge("a", "b", weight=3)
    M.add_edge("b", "c", weight=1)
    M.add_edge("a", "c", weight=5)
    assert_same(lambda b: nx.single_source_dijkstra(M, "a", **b))
    assert_same(lambda b: nx.dijkstra_predecessor_and_distance(M, "a", **b))
    assert nx.bidirectional_dijkstra(M, "a", "c", **SR) == (4, ["a", "b", "c"])
    assert nx.bellman_ford_path(M, "a", "c", **SR) == ["a", "b", "c"]


@pytest.mark.data
def test_ny_roads_settle_order_and_paths(shared_data):
    """The DIMACS New York roads (264,346 nodes, integer lengths with many ties): networkx's
    settle order over the whole graph, its paths to far nodes and its bidirectional BFS path."""
    import semiring as sr

    A = sr.io.read(shared_data / "roads/USA-road-d.NY.gr.gz")
    G = nx.from_scipy_sparse_array(A.to_scipy(), create_using=nx.DiGraph)
    got = nx.single_source_dijkstra_path_length(G, 0, **SR)
    assert list(got.items()) == list(nx.single_source_dijkstra_path_length(G, 0).items())
    assert nx.dijkstra_path(G, 0, 200000, **SR) == nx.dijkstra_path(G, 0, 200000)
    assert nx.bidirectional_shortest_path(G, 0, 50000, **SR) == nx.bidirectional_shortest_path(G, 0, 50000)


def test_all_pairs_dicts_raise_out_of_memory_before_building(monkeypatch):
    import semiring as sr
    from semiring.nx.nxapi.shortest_paths import _pairs

    monkeypatch.setattr(_pairs, "DICT_ENTRY_BYTES", 10**15)
    G = nx.path_graph(5)
    for f in (nx.floyd_warshall, nx.floyd_warshall_predecessor_and_distance, nx.johnson):
        with pytest.raises(sr.OutOfMemory, match="5 x 5 node pairs"):
            f(G, **SR)
