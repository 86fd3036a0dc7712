"""The ``semiring`` networkx backend's shortest-path lengths (unweighted, weighted, negative
weights) against networkx itself, on generated graphs with shuffled string labels, and once on
the DIMACS New York roads (``../shared/data``)."""

from __future__ import annotations

import math

import networkx as nx
import pytest

import semiring as sr
from _nxgraphs import NX, SR, dag, gnp
from _nxgraphs import ids as _ids
from _nx_backend import DIRECTED, UNDIRECTED


# ---------------------------------------------------------------------------------------------
# shortest-path lengths
# ---------------------------------------------------------------------------------------------
def _approx_nested(a, b):
    assert list(a) == list(b) if isinstance(a, list) else set(a) == set(b)
    for k in (b if isinstance(b, dict) else []):
        assert a[k] == pytest.approx(b[k])


@pytest.mark.parametrize("G", UNDIRECTED + DIRECTED, ids=_ids(UNDIRECTED, "u") + _ids(DIRECTED, "d"))
@pytest.mark.parametrize("cutoff", [None, 0, 2, 2.5, -1])
def test_unweighted_lengths(G, cutoff):
    for s in list(G)[:3]:
        assert nx.single_source_shortest_path_length(G, s, cutoff=cutoff, **SR) == \
            nx.single_source_shortest_path_length(G, s, cutoff=cutoff)
    got = list(nx.all_pairs_shortest_path_length(G, cutoff=cutoff, **SR))
    assert got == list(nx.all_pairs_shortest_path_length(G, cutoff=cutoff))


WEIGHTED = [gnp(35, 0.1, s, weights=w) for s, w in ((1, "int"), (2, "float"))] + \
           [gnp(35, 0.08, s, weights=w, directed=True) for s, w in ((3, "int"), (4, "float"))]


@pytest.mark.parametrize("G", WEIGHTED, ids=_ids(WEIGHTED, "w"))
def test_dijkstra_lengths(G):
    nodes = list(G)
    for s in nodes[:3]:
        for cutoff in (None, 4, 7.5, -1):
            got = nx.single_source_dijkstra_path_length(G, s, cutoff=cutoff, **SR)
            want = nx.single_source_dijkstra_path_length(G, s, cutoff=cutoff)
            assert got.keys() == want.keys() and all(got[k] == pytest.approx(want[k]) for k in want)
        for t in nodes[-4:]:
            try:
                want = nx.dijkstra_path_length(G, s, t)
            except nx.NetworkXNoPath:
                with pytest.raises(nx.NetworkXNoPath):
                    nx.dijkstra_path_length(G, s, t, **SR)
                continue
            assert nx.dijkstra_path_length(G, s, t, **SR) == pytest.approx(want)
    # weight=None: unit lengths
    assert nx.single_source_dijkstra_path_length(G, nodes[0], weight=None, **SR) == \
        nx.single_source_dijkstra_path_length(G, nodes[0], weight=None)


NEGATIVE = [gnp(30, 0.07, s, weights=w, low=-3, directed=True) for s, w in ((5, "int"), (6, "float"))] + \
           [dag(30, 0.15, s, weights=w, low=-9, high=3) for s, w in ((8, "int"), (9, "float"))]


def _pairs(G):
    """(source, target) pairs from the 4 lowest to the 5 highest original indices ("v<i>"): in a DAG
    the low ones reach the high ones."""
    order = sorted(G, key=lambda v: int(v[1:]))
    return [(s, t) for s in order[:4] for t in order[-5:]]


def _bf(G, s, t, backend):
    try:
        return nx.bellman_ford_path_length(G, s, t, **backend)
    except (nx.NetworkXUnbounded, nx.NetworkXNoPath) as exc:
        return type(exc)


@pytest.mark.parametrize("G", NEGATIVE + WEIGHTED, ids=_ids(NEGATIVE, "neg") + _ids(WEIGHTED, "w"))
def test_bellman_ford_lengths_with_negative_weights_and_cycles(G):
    for s, t in _pairs(G):
        want, got = _bf(G, s, t, NX), _bf(G, s, t, SR)
        assert got is want if isinstance(want, type) else got == pytest.approx(want)


def test_negative_graphs_cover_cycles_and_negative_lengths():
    """NEGATIVE must hold a reachable negative cycle and negative lengths, or the test above would
    not test what it says."""
    outcomes = [_bf(G, s, t, NX) for G in NEGATIVE for s, t in _pairs(G)]
    assert nx.NetworkXUnbounded in outcomes
    assert any(not isinstance(x, type) and x < 0 for x in outcomes)


def test_bellman_ford_negative_cycle_raises_unbounded():
    G = nx.DiGraph()
    G.add_weighted_edges_from([(0, 1, 2), (1, 2, -3), (2, 1, 1), (2, 3, 1)])
    with pytest.raises(nx.NetworkXUnbounded):
        nx.bellman_ford_path_length(G, 0, 3, **SR)
    with pytest.raises(nx.NetworkXUnbounded):
        nx.shortest_path_length(G, 0, weight="weight", method="bellman-ford", **SR)
    assert nx.bellman_ford_path_length(G, 3, 3, **SR) == 0
    U = nx.Graph()
    U.add_edge("a", "b", weight=-1)  # an undirected negative edge is a negative 2-cycle, as in networkx
    with pytest.raises(nx.NetworkXUnbounded):
        nx.bellman_ford_path_length(U, "a", "b", **SR)


@pytest.mark.parametrize("G", WEIGHTED + UNDIRECTED[:1], ids=_ids(WEIGHTED, "w") + ["u0"])
@pytest.mark.parametrize("method", ["dijkstra", "bellman-ford"])
@pytest.mark.parametrize("weight", [None, "weight"])
def test_shortest_path_length_every_case(G, method, weight):
    nodes = list(G)
    s, t = nodes[0], nodes[-1]
    kw = {"weight": weight, "method": method}

    def both(**args):
        out = []
        for backend in (SR, NX):
            try:
                r = nx.shortest_path_length(G, **args, **kw, **backend)
                out.append(dict(r) if not isinstance(r, (int, float, dict)) else r)
            except nx.NetworkXNoPath as exc:
                out.append(type(exc))
        return out

    for args in ({}, {"source": s}, {"target": t}, {"source": s, "target": t}, {"source": s, "target": s}):
        got, want = both(**args)
        if isinstance(want, dict):
            assert got.keys() == want.keys()
            for k in want:
                assert got[k] == pytest.approx(want[k])
        else:
            assert got == pytest.approx(want) if not isinstance(want, type) else got is want


@pytest.mark.parametrize("G", WEIGHTED + [gnp(20, 0.1, 3, directed=True)], ids=_ids(WEIGHTED, "w") + ["d"])
def test_floyd_warshall(G):
    got, want = nx.floyd_warshall(G, **SR), nx.floyd_warshall(G)
    assert list(got) == list(want)
    for u in want:
        assert set(got[u]) == set(want[u])
        for v in want[u]:
            assert got[u][v] == pytest.approx(want[u][v])
        assert got[u]["not a node"] == math.inf  # a defaultdict(inf), as networkx's


def test_floyd_warshall_declines_a_negative_cycle():
    G = nx.DiGraph()
    G.add_weighted_edges_from([(0, 1, 1), (1, 0, -2)])
    with pytest.raises(NotImplementedError):
        nx.floyd_warshall(G, **SR)


def test_shortest_path_errors_match_networkx():
    G = nx.path_graph(4, create_using=nx.DiGraph)
    cases = [
        (nx.single_source_shortest_path_length, (G, 9), nx.NodeNotFound),
        (nx.single_source_dijkstra_path_length, (G, 9), nx.NodeNotFound),
        (nx.dijkstra_path_length, (G, 9, 0), nx.NodeNotFound),
        (nx.dijkstra_path_length, (G, 3, 0), nx.NetworkXNoPath),
        (nx.dijkstra_path_length, (G, 0, 9), nx.NetworkXNoPath),
        (nx.bellman_ford_path_length, (G, 9, 0), nx.NodeNotFound),
        (nx.bellman_ford_path_length, (G, 9, 9), nx.NodeNotFound),
        (nx.bellman_ford_path_length, (G, 3, 0), nx.NetworkXNoPath),
    ]
    for func, args, exc in cases:
        for backend in (SR, NX):
            with pytest.raises(exc):
                func(*args, **backend)
    for kw in ({"source": 9}, {"target": 9}, {"source": 0, "target": 9}, {"source": 9, "weight": "weight"},
               {"target": 9, "weight": "weight", "method": "bellman-ford"}):
        for backend in (SR, NX):
            with pytest.raises(nx.NodeNotFound):
                nx.shortest_path_length(G, **kw, **backend)
    for backend in (SR, NX):
        with pytest.raises(nx.NetworkXNoPath):
            nx.shortest_path_length(G, 3, 0, **backend)
        with pytest.raises(ValueError, match="method not supported"):
            nx.shortest_path_length(G, 0, 1, method="astar", **backend)


@pytest.mark.data
def test_ny_roads_dijkstra_and_bfs_order(shared_data):
    """The DIMACS New York road graph (264,346 nodes, 733,846 arcs): distances and BFS edge order."""
    A = sr.io.read(shared_data / "roads/USA-road-d.NY.gr.gz")
    G = nx.from_scipy_sparse_array(A.to_scipy(), create_using=nx.DiGraph)
    got = nx.single_source_dijkstra_path_length(G, 0, **SR)
    want = nx.single_source_dijkstra_path_length(G, 0)
    assert got == want  # integer lengths: exact
    assert list(nx.bfs_edges(G, 0, **SR)) == list(nx.bfs_edges(G, 0))
