"""The ``semiring`` networkx backend (``semiring.nx``): registration, the info entry point and
config, the graph type and its conversions, and traversal in networkx's exact order.

The oracle is networkx itself: every adapter is called through networkx's dispatcher with
``backend="semiring"`` and compared with the same call run by networkx (``backend="networkx"``),
on generated graphs whose node labels are strings inserted in a shuffled order and on
Zachary's karate club."""

from __future__ import annotations

import os
import subprocess
import sys

import networkx as nx
import pytest

import semiring as sr
from semiring.nx.backend import FUNCTIONS, BackendInterface
from _nxgraphs import NX, SR, gnp
from _nxgraphs import ids as _ids
from _nx_backend import DIRECTED, UNDIRECTED


@pytest.fixture(scope="module")
def karate(shared_data):
    S = sr.io.read(shared_data / "small/lagraph/karate.mtx").to_scipy()
    return nx.from_scipy_sparse_array(S)


# ---------------------------------------------------------------------------------------------
# registration and the info entry point
# ---------------------------------------------------------------------------------------------
def test_import_networkx_does_not_import_the_engine():
    code = ("import sys, networkx as nx; info = nx.utils.backends.backend_info['semiring']; "
            "print(sorted(info['functions'])); print('semiring' in sys.modules, 'cupy' in sys.modules, "
            "nx.config.backends.semiring.device)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={k: v for k, v in os.environ.items() if k != "SEMIRING_NX_DEVICE"}).stdout.splitlines()
    assert eval(out[0]) == sorted(FUNCTIONS)
    assert out[1] == "False False cpu"


def test_info_matches_the_backend_and_networkx_signatures():
    import inspect

    info = nx.utils.backends.backend_info["semiring"]
    assert set(info["functions"]) == set(FUNCTIONS)
    for name, adapter in FUNCTIONS.items():
        dispatchable = nx.utils.backends._registered_algorithms[name]
        assert "semiring" in dispatchable.backends, name
        assert inspect.signature(adapter) == inspect.signature(dispatchable.orig_func), name
        assert getattr(BackendInterface, name) is not None


def test_env_device_and_bad_device():
    import _nx_semiring

    assert _nx_semiring.default_device({}) == "cpu"
    assert _nx_semiring.default_device({"SEMIRING_NX_DEVICE": "auto"}) == "auto"
    with pytest.raises(ValueError, match="SEMIRING_NX_DEVICE must be one of"):
        _nx_semiring.default_device({"SEMIRING_NX_DEVICE": "tpu"})
    code = "import networkx as nx; print(nx.config.backends.semiring.device)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, "SEMIRING_NX_DEVICE": "auto"}).stdout.strip()
    assert out == "auto"


def test_config_device_validates_and_places_the_graph():
    cfg = nx.config.backends.semiring
    assert cfg.device == "cpu"
    with pytest.raises(ValueError, match="must be one of"):
        cfg.device = "tpu"
    assert cfg.device == "cpu"
    G = nx.path_graph(5)
    assert BackendInterface.convert_from_nx(G).device == "cpu"
    with cfg(device="auto"):
        expected = "gpu" if _gpu_available() else "cpu"
        assert BackendInterface.convert_from_nx(G).device == expected
    assert cfg.device == "cpu"


def _gpu_available():
    try:
        sr.backends.gpu.load()
        return True
    except sr.BackendUnavailable:
        return False


def test_config_gpu_without_a_gpu_raises_backend_unavailable():
    if _gpu_available():
        pytest.skip("a GPU is present: test_gpu_device_matches_networkx covers device='gpu'")
    with nx.config.backends.semiring(device="gpu"):
        with pytest.raises(sr.BackendUnavailable):
            nx.single_source_shortest_path_length(nx.path_graph(3), 0, **SR)


@pytest.mark.gpu
def test_gpu_device_matches_networkx():
    G = gnp(60, 0.05, 3, weights="float")
    with nx.config.backends.semiring(device="gpu"):
        H = BackendInterface.convert_from_nx(G, edge_attrs={"weight": 1})
        assert H.device == "gpu"
        s = next(iter(G))
        assert list(nx.bfs_edges(G, s, **SR)) == list(nx.bfs_edges(G, s))
        assert nx.single_source_dijkstra_path_length(G, s, **SR) == pytest.approx(
            nx.single_source_dijkstra_path_length(G, s))
        assert nx.greedy_color(G, **SR) == nx.greedy_color(G)
        assert list(nx.connected_components(G, **SR)) == list(nx.connected_components(G))
        assert list(nx.bfs_layers(G, list(G)[:3], **SR)) == list(nx.bfs_layers(G, list(G)[:3]))
        t = list(nx.single_source_dijkstra_path_length(G, s))[-1]  # the farthest reachable node
        assert nx.bellman_ford_path_length(G, s, t, **SR) == pytest.approx(nx.bellman_ford_path_length(G, s, t))
        fw, want = nx.floyd_warshall(G, **SR), nx.floyd_warshall(G)
        assert all(fw[u][v] == pytest.approx(want[u][v]) for u in want for v in want[u])
        S = nx.maximal_independent_set(G, [s], seed=1, **SR)
        assert s in S and not any(G.has_edge(u, v) for u in S for v in S)
        assert all(v in S or any(u in S for u in G[v]) for v in G)
        D = gnp(40, 0.06, 2, directed=True)
        assert nx.number_strongly_connected_components(D, **SR) == nx.number_strongly_connected_components(D)
        assert list(nx.bfs_edges(D, list(D)[0], reverse=True, **SR)) == list(nx.bfs_edges(D, list(D)[0], reverse=True))


# ---------------------------------------------------------------------------------------------
# the graph type and its conversions
# ---------------------------------------------------------------------------------------------
def test_convert_holds_pattern_weights_labels_and_order():
    G = gnp(30, 0.1, 1, weights="float", directed=True)
    H = BackendInterface.convert_from_nx(G, edge_attrs={"weight": 1})
    assert isinstance(H, sr.nx.Graph) and H.__networkx_backend__ == "semiring"
    assert H.nodes == list(G) and all(H.index[v] == i for i, v in enumerate(G))
    assert H.is_directed() and not H.is_multigraph() and len(H) == len(G)
    assert H.number_of_edges() == G.number_of_edges()
    rows, cols, vals = H.weights["weight"].A.to_coo()
    got = {(H.nodes[i], H.nodes[j]): w for i, j, w in zip(rows.tolist(), cols.tolist(), vals.tolist())}
    assert got == {(u, v): d.get("weight", 1) for u, v, d in G.edges(data=True)}
    indptr, indices = H.order
    for i, u in enumerate(H.nodes):  # successors in networkx's iteration order
        assert [H.nodes[j] for j in indices[indptr[i]:indptr[i + 1]]] == list(G.succ[u])
    indptr, indices = H.pred_order
    for i, u in enumerate(H.nodes):
        assert [H.nodes[j] for j in indices[indptr[i]:indptr[i + 1]]] == list(G.pred[u])


def test_convert_multigraph_keeps_the_smallest_weight_and_round_trips():
    M = nx.MultiGraph()
    M.add_edge("a", "b", weight=5)
    M.add_edge("a", "b", weight=2)
    M.add_edge("b", "c")  # no weight: 1
    H = BackendInterface.convert_from_nx(M, edge_attrs={"weight": 1})
    assert H.is_multigraph()
    back = BackendInterface.convert_to_nx(H)
    assert isinstance(back, nx.Graph) and not back.is_directed()
    assert {frozenset(e[:2]): e[2]["weight"] for e in back.edges(data=True)} == {
        frozenset("ab"): 2, frozenset("bc"): 1}
    assert nx.dijkstra_path_length(M, "a", "c", **SR) == nx.dijkstra_path_length(M, "a", "c") == 3


def test_convert_preserve_all_and_round_trip():
    G = nx.DiGraph()
    G.add_edge(1, 2, weight=2.5, cost=3, label="x")
    G.add_edge(2, 3, weight=1.0, cost=4, label="y")
    G.graph["name"] = "g"
    H = BackendInterface.convert_from_nx(G, preserve_edge_attrs=True)
    assert sorted(H.weights) == ["cost", "weight"]  # "label" is not a number: not held
    back = BackendInterface.convert_to_nx(H)
    assert back.graph == {"name": "g"}
    assert {(u, v): (d["weight"], d["cost"]) for u, v, d in back.edges(data=True)} == {
        (1, 2): (2.5, 3), (2, 3): (1.0, 4)}
    assert BackendInterface.convert_to_nx({"not": "a graph"}) == {"not": "a graph"}


def test_convert_declines_weights_that_are_not_numbers():
    G = nx.Graph()
    G.add_edge(0, 1, weight="heavy")
    with pytest.raises(NotImplementedError, match="must be a number"):
        BackendInterface.convert_from_nx(G, edge_attrs={"weight": 1})
    with pytest.raises(NotImplementedError):  # networkx's own message, the conversion's error as cause
        nx.dijkstra_path_length(G, 0, 1, **SR)


def test_empty_graph_converts_and_answers_as_networkx():
    G = nx.Graph()
    assert sr.io.from_networkx(G)[0].shape == (0, 0)
    assert nx.greedy_color(G, **SR) == {} == nx.greedy_color(G)
    assert list(nx.connected_components(G, **SR)) == [] == list(nx.connected_components(G))
    assert nx.number_connected_components(G, **SR) == 0 == nx.number_connected_components(G)
    assert nx.floyd_warshall(G, **SR) == {} == nx.floyd_warshall(G)
    with pytest.raises(nx.NetworkXPointlessConcept):
        nx.is_connected(G, **SR)
    with pytest.raises(IndexError):  # networkx's seed.choice([]) on a graph without nodes
        nx.maximal_independent_set(G, seed=1, **SR)


# ---------------------------------------------------------------------------------------------
# traversal: networkx's exact order
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("G", UNDIRECTED + DIRECTED, ids=_ids(UNDIRECTED, "u") + _ids(DIRECTED, "d"))
@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("depth_limit", [None, 0, 1, 3, -1])
def test_bfs_edges_and_tree_in_networkx_order(G, reverse, depth_limit):
    for s in list(G)[:4]:
        got = list(nx.bfs_edges(G, s, reverse=reverse, depth_limit=depth_limit, **SR))
        assert got == list(nx.bfs_edges(G, s, reverse=reverse, depth_limit=depth_limit, **NX))
        T = nx.bfs_tree(G, s, reverse=reverse, depth_limit=depth_limit, **SR)
        E = nx.bfs_tree(G, s, reverse=reverse, depth_limit=depth_limit, **NX)
        assert list(T.nodes) == list(E.nodes) and list(T.edges) == list(E.edges)


@pytest.mark.parametrize("G", UNDIRECTED + DIRECTED, ids=_ids(UNDIRECTED, "u") + _ids(DIRECTED, "d"))
def test_bfs_layers_and_descendants(G):
    nodes = list(G)
    for sources in (nodes[0], nodes[:3], [nodes[5], nodes[1], nodes[5]], []):
        assert list(nx.bfs_layers(G, sources, **SR)) == list(nx.bfs_layers(G, sources, **NX))
    for d in (0, 1, 2, 4, 50, -1):
        assert nx.descendants_at_distance(G, nodes[2], d, **SR) == nx.descendants_at_distance(G, nodes[2], d)


def test_bfs_on_multigraph_and_self_loops():
    M = nx.MultiDiGraph([(0, 1), (0, 1), (1, 1), (1, 2), (2, 0), (3, 2)])
    for s in M:
        for reverse in (False, True):
            assert list(nx.bfs_edges(M, s, reverse=reverse, **SR)) == list(nx.bfs_edges(M, s, reverse=reverse))


@pytest.mark.data
def test_karate_traversal_and_lengths(karate):
    for s in (0, 30, 33):
        assert list(nx.bfs_edges(karate, s, **SR)) == list(nx.bfs_edges(karate, s))
        assert list(nx.bfs_layers(karate, s, **SR)) == list(nx.bfs_layers(karate, s))
        assert nx.single_source_shortest_path_length(karate, s, **SR) == nx.single_source_shortest_path_length(
            karate, s)
    assert dict(nx.all_pairs_shortest_path_length(karate, **SR)) == dict(nx.all_pairs_shortest_path_length(karate))
    assert nx.greedy_color(karate, **SR) == nx.greedy_color(karate)
    assert list(nx.greedy_color(karate, **SR).items()) == list(nx.greedy_color(karate).items())
    assert nx.is_connected(karate, **SR) and nx.number_connected_components(karate, **SR) == 1


def test_traversal_errors_match_networkx():
    G = nx.path_graph(4)
    D = nx.DiGraph(G)
    for graph, kw in ((G, {}), (D, {}), (D, {"reverse": True})):
        for backend in (SR, NX):
            gen = nx.bfs_edges(graph, 9, **kw, **backend)  # lazy, as networkx: the error comes on next()
            with pytest.raises(nx.NetworkXError, match="The node 9 is not in the"):
                next(gen)
    with pytest.raises(nx.NetworkXError, match="The node 9 is not in the graph"):
        nx.bfs_tree(G, 9, **SR)
    with pytest.raises(nx.NetworkXError, match="The node 9 is not in the graph"):
        list(nx.bfs_layers(G, [0, 9], **SR))
    with pytest.raises(nx.NetworkXError, match="The node 9 is not in the graph"):
        nx.descendants_at_distance(G, 9, 1, **SR)
