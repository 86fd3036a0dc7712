"""The networkx backend's unweighted and Dijkstra shortest paths against networkx itself.

Every adapter is called through networkx's dispatcher with ``backend="semiring"`` and compared
with ``backend="networkx"`` (tests/_nx_paths.py: the graphs and the comparison). Where networkx
defines an order (BFS discovery, Dijkstra's settle order, its path choice among equally short
paths) the comparison includes the order: dicts by their items in order, paths as lists."""

from __future__ import annotations

import random

import networkx as nx
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from semiring.backends.cpu import _jit
from semiring.nx.algorithms import paths as P
from semiring.nx.backend import BackendInterface
from _nxgraphs import SR, ids, shuffled
from _nx_paths import ALL, NEGATIVE, WEIGHTED, assert_same, length, same

SETTINGS = settings(max_examples=40, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


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
