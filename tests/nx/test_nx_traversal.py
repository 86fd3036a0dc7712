"""The networkx backend's traversal adapters (BFS and DFS orders, trees and edges) against
networkx itself, and what the path and traversal adapters decline or raise, as networkx does
(tests/_nx_paths.py: the graphs and the comparison)."""

from __future__ import annotations

import networkx as nx
import pytest

from semiring.nx.backend import BackendInterface
from _nxgraphs import NX, SR, ids
from _nx_paths import UNWEIGHTED, assert_same, outcome


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
