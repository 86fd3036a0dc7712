"""The networkx backend's Bellman-Ford, generic shortest-path entry points, all shortest paths
and Floyd-Warshall against networkx itself (tests/_nx_paths.py: the graphs and the comparison).

Where the backend documents another choice than networkx (Bellman-Ford's and Floyd-Warshall's
paths among equal ones, bidirectional Dijkstra's path) the paths are checked to be valid and
shortest, and the lengths and predecessor sets equal networkx's."""

from __future__ import annotations

import math

import networkx as nx
import numpy as np
import pytest

from _nxgraphs import NX, SR, gnp, ids, shuffled
from _nx_paths import ALL, NEGATIVE, assert_same, length, outcome, same


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
