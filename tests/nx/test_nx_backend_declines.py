"""The ``semiring`` networkx backend's coloring, independent sets and components against
networkx itself, and ``can_run``: what the backend declines, with its reasons, and networkx's
fallback to its own implementation."""

from __future__ import annotations

import networkx as nx
import pytest

from semiring.nx.backend import BackendInterface
from _nxgraphs import NX, SR, gnp
from _nxgraphs import ids as _ids
from _nx_backend import DIRECTED, UNDIRECTED


# ---------------------------------------------------------------------------------------------
# coloring, independent sets, components
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("G", UNDIRECTED, ids=_ids(UNDIRECTED, "u"))
def test_greedy_color_largest_first_in_networkx_order(G):
    got = nx.greedy_color(G, **SR)
    assert list(got.items()) == list(nx.greedy_color(G).items())
    assert nx.greedy_color(G, strategy=nx.coloring.strategy_largest_first, **SR) == got


@pytest.mark.parametrize("G", UNDIRECTED + [nx.karate_club_graph()], ids=_ids(UNDIRECTED, "u") + ["karate"])
@pytest.mark.parametrize("seed", [0, 1, 7])
def test_maximal_independent_set_is_valid_and_contains_nodes(G, seed):
    nodes = list(G)
    for given in (None, [nodes[0]], [nodes[0], next(v for v in nodes if v not in G[nodes[0]] and v != nodes[0])]):
        S = nx.maximal_independent_set(G, nodes=given, seed=seed, **SR)
        assert isinstance(S, list) and len(set(S)) == len(S)
        assert not any(G.has_edge(u, v) for u in S for v in S)  # independent
        assert all(v in S or any(u in S for u in G[v]) for v in G)  # maximal
        if given:
            assert set(given) <= set(S)
    assert nx.maximal_independent_set(G, seed=seed, **SR) == nx.maximal_independent_set(G, seed=seed, **SR)


def test_maximal_independent_set_errors_match_networkx():
    G = nx.path_graph(5)
    for backend in (SR, NX):
        with pytest.raises(nx.NetworkXUnfeasible, match="is not a subset"):
            nx.maximal_independent_set(G, [0, 9], **backend)
        with pytest.raises(nx.NetworkXUnfeasible, match="is not an independent set"):
            nx.maximal_independent_set(G, [1, 2], **backend)
        with pytest.raises(nx.NetworkXNotImplemented):
            nx.maximal_independent_set(nx.DiGraph(G), **backend)


@pytest.mark.parametrize("G", UNDIRECTED + [nx.MultiGraph([(0, 1), (0, 1), (2, 2), (3, 4)])],
                         ids=_ids(UNDIRECTED, "u") + ["multi"])
def test_components(G):
    assert list(nx.connected_components(G, **SR)) == list(nx.connected_components(G))
    assert nx.number_connected_components(G, **SR) == nx.number_connected_components(G)
    assert nx.is_connected(G, **SR) is nx.is_connected(G)
    for backend in (SR, NX):
        with pytest.raises(nx.NetworkXNotImplemented):
            nx.connected_components(nx.DiGraph(G), **backend)


@pytest.mark.parametrize("G", DIRECTED + [gnp(40, 0.03, 9, directed=True), nx.DiGraph([(0, 1), (1, 2), (2, 0)])],
                         ids=_ids(DIRECTED, "d") + ["sparse", "cycle"])
def test_weak_and_strong_components(G):
    assert list(nx.weakly_connected_components(G, **SR)) == list(nx.weakly_connected_components(G))
    assert nx.number_weakly_connected_components(G, **SR) == nx.number_weakly_connected_components(G)
    assert nx.is_weakly_connected(G, **SR) is nx.is_weakly_connected(G)
    assert nx.number_strongly_connected_components(G, **SR) == nx.number_strongly_connected_components(G)
    assert nx.is_strongly_connected(G, **SR) is nx.is_strongly_connected(G)
    for func in (nx.is_weakly_connected, nx.is_strongly_connected):
        with pytest.raises(nx.NetworkXPointlessConcept):
            func(nx.DiGraph(), **SR)
    with pytest.raises(nx.NetworkXNotImplemented):
        nx.number_strongly_connected_components(nx.Graph(G), **SR)


def test_strong_components_differ_from_weak():
    G = nx.DiGraph([(0, 1), (1, 0), (1, 2), (3, 2)])
    assert nx.number_strongly_connected_components(G, **SR) == 3 and nx.number_weakly_connected_components(G, **SR) == 1
    assert nx.is_weakly_connected(G, **SR) is True and nx.is_strongly_connected(G, **SR) is False


def test_components_connected_and_not():
    assert nx.is_connected(nx.cycle_graph(6), **SR) is True
    G = nx.Graph([("a", "b"), ("c", "d")])
    G.add_node("e")
    assert list(nx.connected_components(G, **SR)) == [{"a", "b"}, {"c", "d"}, {"e"}]
    assert nx.is_connected(G, **SR) is False and nx.number_connected_components(G, **SR) == 3


# ---------------------------------------------------------------------------------------------
# can_run: declines with reasons, and networkx's fallback
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name, args, kwargs, words", [
    ("bfs_edges", (nx.path_graph(3), 0), {"sort_neighbors": sorted}, "sort_neighbors"),
    ("bfs_tree", (nx.path_graph(3), 0), {"depth_limit": 1.5}, "depth_limit"),
    ("descendants_at_distance", (nx.path_graph(3), 0, 1.0), {}, "distance must be an int"),
    ("dijkstra_path_length", (nx.path_graph(3), 0, 2), {"weight": lambda u, v, d: 1}, "callable weight"),
    ("shortest_path_length", (nx.path_graph(3),), {"weight": True}, "must name an edge attribute"),
    ("single_source_shortest_path_length", (nx.path_graph(3), 0), {"cutoff": "2"}, "cutoff"),
    ("greedy_color", (nx.path_graph(3),), {"strategy": "DSATUR"}, "largest_first only"),
    ("greedy_color", (nx.path_graph(3),), {"interchange": True}, "interchange"),
    ("greedy_color", (nx.path_graph(3, create_using=nx.DiGraph),), {}, "directed"),
    ("greedy_color", (nx.MultiGraph([(0, 1)]),), {}, "parallel edges"),
    ("edge_dfs", (nx.path_graph(3), 0), {}, "not implemented by the semiring backend"),
    ("astar_path_length", (nx.path_graph(3), 0, 2), {"heuristic": lambda u, v: 0}, "heuristic"),
    ("bfs_edges", ([1, 2], 0), {}, "expected a networkx graph"),
    ("bfs_edges", (nx.path_graph(3),), {}, "signature"),
])
def test_can_run_declines_with_a_reason(name, args, kwargs, words):
    reason = BackendInterface.can_run(name, args, kwargs)
    assert isinstance(reason, str) and words in reason


def test_can_run_accepts_what_it_runs():
    G = nx.path_graph(3)
    for name, args in (("bfs_edges", (G, 0)), ("greedy_color", (G,)), ("dijkstra_path_length", (G, 0, 2)),
                       ("floyd_warshall", (G,)), ("connected_components", (G,)),
                       ("maximal_independent_set", (G,))):
        assert BackendInterface.can_run(name, args, {}) is True, name


def test_should_run_leaves_small_networkx_graphs_to_networkx():
    from semiring.nx.backend import SHOULD_RUN_MIN_EDGES

    small = nx.path_graph(10)
    big = nx.gnm_random_graph(SHOULD_RUN_MIN_EDGES // 4, SHOULD_RUN_MIN_EDGES, seed=1)
    assert "networkx is faster" in BackendInterface.should_run("bfs_edges", (small, 0), {})
    assert BackendInterface.should_run("bfs_edges", (big, 0), {}) is True
    assert BackendInterface.should_run("bfs_edges", (BackendInterface.convert_from_nx(small), 0), {}) is True
    prio = nx.utils.backends.BackendPriorities(algos=["semiring"], generators=[], classes=[])
    with nx.config(backend_priority=prio):  # by priority, small graphs stay with networkx ...
        calls = []
        orig = BackendInterface.bfs_edges
        BackendInterface.bfs_edges = staticmethod(lambda *a, **k: calls.append(1) or orig(*a, **k))
        try:
            assert list(nx.bfs_edges(small, 0)) == list(nx.bfs_edges(small, 0, **NX))
            assert not calls
            assert list(nx.bfs_edges(big, 0)) == list(nx.bfs_edges(big, 0, **NX))  # ... big ones run here
            assert calls
        finally:
            BackendInterface.bfs_edges = staticmethod(orig)


def test_declined_calls_raise_with_backend_and_fall_back_by_priority():
    G = nx.petersen_graph()
    with pytest.raises(NotImplementedError, match="not implemented by 'semiring' backend for the given arguments"):
        nx.greedy_color(G, strategy="DSATUR", **SR)
    with pytest.raises(NotImplementedError):  # a negative weight: Dijkstra declines inside the adapter
        nx.dijkstra_path_length(nx.DiGraph([(0, 1, {"weight": -1})]), 0, 1, **SR)
    prio = nx.utils.backends.BackendPriorities(algos=["semiring"], generators=[], classes=[])
    with nx.config(backend_priority=prio, fallback_to_nx=True):
        assert nx.greedy_color(G, strategy="DSATUR") == nx.greedy_color(G, strategy="DSATUR", **NX)
        assert nx.dijkstra_path_length(nx.DiGraph([(0, 1, {"weight": -1})]), 0, 1) == -1
        assert nx.greedy_color(G) == nx.greedy_color(G, **NX)


def test_greedy_color_declines_self_loops():
    G = nx.Graph([(0, 1), (1, 1)])
    with pytest.raises(NotImplementedError) as info:
        nx.greedy_color(G, **SR)
    assert "self-loops" in str(info.value.__cause__)  # networkx re-raises with the backend's error as cause


def test_backend_graph_input_without_the_weight_attribute_declines():
    H = BackendInterface.convert_from_nx(gnp(10, 0.3, 1, weights="int"))  # pattern only
    assert nx.single_source_shortest_path_length(H, "v0") == nx.single_source_shortest_path_length(
        gnp(10, 0.3, 1), "v0")  # a backend graph dispatches to the backend by itself
    with pytest.raises(NotImplementedError):
        nx.dijkstra_path_length(H, "v0", "v1")
    with pytest.raises(NotImplementedError, match="holds edge attributes"):
        BackendInterface.dijkstra_path_length(H, "v0", "v1")
