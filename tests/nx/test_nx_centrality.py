"""The networkx backend's centrality adapters: degree, eigenvector and Katz, HITS and the
Google matrix, closeness and harmonic, edge and subset betweenness, group centralities and
trophic levels. The oracle is networkx itself: every adapter is called through networkx's
dispatcher with ``backend="semiring"`` and compared with the same call run by networkx
(tests/_nx_centrality.py: the graphs and the comparison)."""

from __future__ import annotations

import random

import networkx as nx
import numpy as np
import pytest

from _nxgraphs import NX, SR
from _nx_centrality import (DIRECTED, D_IDS, UNDIRECTED, U_IDS, WEIGHTED, W_IDS, both, check, gnp,
                            raises_both, same, shuffled)


# ---------------------------------------------------------------------------------------------
# degree centralities
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("G", UNDIRECTED + DIRECTED, ids=U_IDS + D_IDS)
def test_degree_centralities(G):
    check(nx.degree_centrality, G)
    if G.is_directed():
        check(nx.in_degree_centrality, G)
        check(nx.out_degree_centrality, G)
    else:
        raises_both(nx.NetworkXNotImplemented, nx.in_degree_centrality, G)
        raises_both(nx.NetworkXNotImplemented, nx.out_degree_centrality, G)


def test_degree_centrality_small_graphs_and_multigraph_without_parallel_edges():
    for G in (nx.Graph(), nx.path_graph(1), nx.DiGraph([(0, 0)])):
        check(nx.degree_centrality, G)
    check(nx.degree_centrality, nx.MultiGraph([(0, 1), (1, 2), (2, 2)]))


# ---------------------------------------------------------------------------------------------
# eigenvector and Katz
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("G", UNDIRECTED[:2] + DIRECTED[:2] + WEIGHTED, ids=U_IDS[:2] + D_IDS[:2] + W_IDS)
def test_eigenvector_centrality(G):
    weight = "weight" if G in WEIGHTED else None
    check(nx.eigenvector_centrality, G, max_iter=2000, weight=weight, rel=1e-5)
    nodes = list(G)
    random.Random(1).shuffle(nodes)
    nstart = {v: 1 + i % 3 for i, v in enumerate(nodes)}
    got = check(nx.eigenvector_centrality, G, max_iter=2000, nstart=nstart, weight=weight, rel=1e-5)
    assert list(got) == list(nstart)  # networkx keeps nstart's order


def test_eigenvector_centrality_errors():
    G = nx.path_graph(3)
    raises_both(nx.PowerIterationFailedConvergence, nx.eigenvector_centrality, G, max_iter=0)
    raises_both(nx.PowerIterationFailedConvergence, nx.eigenvector_centrality, nx.path_graph(40), max_iter=3)
    raises_both(nx.NetworkXPointlessConcept, nx.eigenvector_centrality, nx.Graph())
    raises_both(nx.NetworkXError, nx.eigenvector_centrality, G, nstart={0: 0, 1: 0, 2: 0},
                match="cannot have all zero")


def _strong(seed):
    """A strongly connected directed graph: a cycle through all nodes plus random arcs."""
    G = gnp(20, 0.1, seed, directed=True)
    nodes = list(G)
    G.add_edges_from(zip(nodes, nodes[1:] + nodes[:1]))
    return G


@pytest.mark.parametrize("G", [UNDIRECTED[0], UNDIRECTED[1], _strong(1), WEIGHTED[0]], ids=["u0", "u1", "strong", "w"])
def test_eigenvector_centrality_numpy(G):
    weight = "weight" if G is WEIGHTED[0] else None
    H = G.subgraph(max(nx.connected_components(G), key=len)).copy() if not G.is_directed() else G
    check(nx.eigenvector_centrality_numpy, H, weight=weight, rel=1e-6)


def test_eigenvector_centrality_numpy_errors():
    raises_both(nx.AmbiguousSolution, nx.eigenvector_centrality_numpy, nx.empty_graph(3))
    raises_both(nx.AmbiguousSolution, nx.eigenvector_centrality_numpy, nx.DiGraph([(0, 1), (1, 2)]))
    raises_both(nx.NetworkXPointlessConcept, nx.eigenvector_centrality_numpy, nx.Graph())


@pytest.mark.parametrize("G", UNDIRECTED + DIRECTED[:2] + WEIGHTED, ids=U_IDS + D_IDS[:2] + W_IDS)
def test_katz_centrality(G):
    weight = "weight" if G in WEIGHTED else None
    alpha = 0.01 if weight else 0.05
    check(nx.katz_centrality, G, alpha=alpha, weight=weight, rel=1e-5)
    check(nx.katz_centrality, G, alpha=alpha, weight=weight, normalized=False, beta=2.0, rel=1e-5)
    check(nx.katz_centrality_numpy, G, alpha=alpha, weight=weight, rel=1e-9)
    nodes = list(G)
    random.Random(2).shuffle(nodes)
    beta = {v: 1 + i % 4 for i, v in enumerate(nodes)}
    got = check(nx.katz_centrality_numpy, G, alpha=alpha, beta=beta, weight=weight, rel=1e-9)
    assert list(got) == list(beta)  # networkx's nodelist is beta's keys
    check(nx.katz_centrality, G, alpha=alpha, beta=beta, nstart=dict.fromkeys(nodes, 0.5), weight=weight, rel=1e-5)


def test_katz_errors():
    G = nx.path_graph(3)
    for func in (nx.katz_centrality, nx.katz_centrality_numpy):
        raises_both(nx.NetworkXError, func, G, 0.1, beta={0: 1})
        raises_both(nx.NetworkXError, func, G, 0.1, beta="foo")
        assert func(nx.Graph(), **SR) == {}
    raises_both(nx.PowerIterationFailedConvergence, nx.katz_centrality, G, 0.1, max_iter=0)
    raises_both(nx.PowerIterationFailedConvergence, nx.katz_centrality, nx.complete_graph(6), 0.5, max_iter=50)


# ---------------------------------------------------------------------------------------------
# HITS and the Google matrix
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("G", [UNDIRECTED[0], DIRECTED[0], DIRECTED[1], WEIGHTED[2]], ids=["u", "d", "recip", "w"])
def test_hits(G):
    hubs, auth = nx.hits(G, **SR)
    h0, a0 = nx.hits(G, **NX)
    same(hubs, h0, rel=1e-5, abs_=1e-8)
    same(auth, a0, rel=1e-5, abs_=1e-8)
    nstart = {v: 1.0 for v in G}
    same(nx.hits(G, nstart=nstart, **SR), nx.hits(G, nstart=nstart, **NX), rel=1e-5, abs_=1e-8)


def test_hits_errors_and_empty():
    assert nx.hits(nx.DiGraph(), **SR) == ({}, {})
    G = nx.path_graph(50)
    for max_iter in (0, 1):
        raises_both(nx.PowerIterationFailedConvergence, nx.hits, G, max_iter=max_iter)


@pytest.mark.parametrize("G", [DIRECTED[2], WEIGHTED[3], UNDIRECTED[2]], ids=["d", "w", "u"])
def test_google_matrix(G):
    nodes = list(G)
    random.Random(3).shuffle(nodes)
    pers = {v: i % 3 for i, v in enumerate(nodes)}
    dang = {v: 1 + i % 2 for i, v in enumerate(nodes)}
    for kw in ({}, {"nodelist": nodes}, {"personalization": pers, "dangling": dang, "alpha": 0.7},
               {"weight": None, "nodelist": nodes}):
        got, want = both(nx.google_matrix, G, **kw)
        assert isinstance(got, np.ndarray) and got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-12)
    raises_both(ZeroDivisionError, nx.google_matrix, G, personalization=dict.fromkeys(G, 0))


# ---------------------------------------------------------------------------------------------
# closeness and harmonic
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("G", UNDIRECTED + DIRECTED + WEIGHTED, ids=U_IDS + D_IDS + W_IDS)
def test_closeness_centrality(G):
    distance = "weight" if G in WEIGHTED else None
    for wf in (True, False):
        check(nx.closeness_centrality, G, distance=distance, wf_improved=wf, rel=1e-9)
    for u in list(G)[:3]:
        check(nx.closeness_centrality, G, u=u, distance=distance, rel=1e-9)
    raises_both(nx.NodeNotFound, nx.closeness_centrality, G, u="absent", distance=distance)


@pytest.mark.parametrize("G", UNDIRECTED + DIRECTED + WEIGHTED, ids=U_IDS + D_IDS + W_IDS)
def test_harmonic_centrality(G):
    distance = "weight" if G in WEIGHTED else None
    nodes = list(G)
    for kw in ({}, {"nbunch": nodes[:4]}, {"sources": nodes[:4]}, {"nbunch": nodes[:6], "sources": nodes[3:20]},
               {"nbunch": nodes[0]}, {"sources": nodes[5:7] + ["absent"]}):
        check(nx.harmonic_centrality, G, distance=distance, rel=1e-9, **kw)
    raises_both(nx.NetworkXError, nx.harmonic_centrality, G, nbunch=[["unhashable"]])


def test_closeness_and_harmonic_zero_lengths():
    G = nx.Graph()
    G.add_edge("a", "b", weight=0)
    G.add_edge("b", "c", weight=2)
    G.add_node("d")
    check(nx.closeness_centrality, G, distance="weight")
    check(nx.harmonic_centrality, G, distance="weight")
    check(nx.harmonic_centrality, G)


# ---------------------------------------------------------------------------------------------
# edge and subset betweenness
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("G", UNDIRECTED + DIRECTED, ids=U_IDS + D_IDS)
def test_edge_betweenness_centrality(G):
    for normalized in (True, False):
        check(nx.edge_betweenness_centrality, G, normalized=normalized, rel=1e-9)
    for k, seed in ((5, 1), (len(G), 2), (1, 3)):
        check(nx.edge_betweenness_centrality, G, k=k, seed=seed, rel=1e-9)


@pytest.mark.parametrize("G", UNDIRECTED + DIRECTED, ids=U_IDS + D_IDS)
def test_subset_betweenness(G):
    rng = random.Random(len(G))
    nodes = list(G)
    for sources, targets in ((nodes[:8], nodes[5:15]), (rng.choices(nodes, k=10), set(rng.sample(nodes, 6))),
                             (nodes, nodes), ([nodes[0]], [nodes[0]]), (nodes[:3], [])):
        for normalized in (False, True):
            check(nx.betweenness_centrality_subset, G, sources, targets, normalized=normalized, rel=1e-9)
            check(nx.edge_betweenness_centrality_subset, G, sources, targets, normalized=normalized, rel=1e-9)


def test_multigraphs_where_parallel_edges_do_not_matter():
    """Unweighted searches see each neighbour once and weighted ones the lightest parallel edge,
    as networkx's do: these run on multigraphs."""
    M = nx.MultiGraph(gnp(25, 0.15, 12, weights="int"))
    rng = random.Random(12)
    for u, v in rng.sample(list(M.edges()), 10):
        M.add_edge(u, v, weight=rng.randint(1, 9))
    nodes = list(M)
    check(nx.betweenness_centrality_subset, M, nodes[:6], nodes[4:12], rel=1e-9)
    check(nx.load_centrality, M, rel=1e-9)
    for distance in (None, "weight"):
        check(nx.closeness_centrality, M, distance=distance, rel=1e-9)
        check(nx.harmonic_centrality, M, distance=distance, rel=1e-9)
        check(nx.group_closeness_centrality, M, nodes[:3], weight=distance, rel=1e-9)
    check(nx.square_clustering, M)
    check(nx.local_reaching_centrality, M, nodes[0])
    with pytest.raises(NotImplementedError):  # degrees count parallel edges: declined
        nx.degree_centrality(M, **SR)


def test_subset_betweenness_missing_source_raises_key_error():
    G = nx.path_graph(4)
    raises_both(KeyError, nx.betweenness_centrality_subset, G, [9], [1])
    raises_both(KeyError, nx.edge_betweenness_centrality_subset, G, [0, 9], [1])


def test_edge_betweenness_sampling_errors():
    G = nx.path_graph(5)
    raises_both(ValueError, nx.edge_betweenness_centrality, G, k=9, seed=1)
    raises_both(ZeroDivisionError, nx.edge_betweenness_centrality, G, k=0, seed=1)


@pytest.mark.parametrize("G", UNDIRECTED + DIRECTED, ids=U_IDS + D_IDS)
def test_load_centrality(G):
    for normalized in (True, False):
        for cutoff in (None, 1, 2.5, 0):
            check(nx.load_centrality, G, normalized=normalized, cutoff=cutoff, rel=1e-9)
    for v in list(G)[:3] + ["absent"]:
        check(nx.load_centrality, G, v=v, rel=1e-9)
    for cutoff in (False, 2):
        check(nx.edge_load_centrality, G, cutoff=cutoff, rel=1e-9)


@pytest.mark.parametrize("G", UNDIRECTED + DIRECTED, ids=U_IDS + D_IDS)
def test_reaching_centralities(G):
    check(nx.global_reaching_centrality, G, rel=0, abs_=0)  # networkx's sums to the last bit
    for v in list(G)[:4]:
        check(nx.local_reaching_centrality, G, v, rel=0, abs_=0)
    raises_both(nx.NodeNotFound, nx.local_reaching_centrality, G, "absent")


def test_reaching_errors_and_exact_zero():
    for G in (nx.cycle_graph(7), nx.cycle_graph(5, create_using=nx.DiGraph)):
        assert nx.global_reaching_centrality(G, **SR) == 0
    for func, args in ((nx.global_reaching_centrality, ()), (nx.local_reaching_centrality, (0,))):
        raises_both(nx.NetworkXError, func, nx.empty_graph(3), *args, match="Size of G")
        raises_both(nx.NetworkXError, func, nx.Graph([(0, 0)]), *args, match="single node with self-loop")
        G = nx.Graph([(0, 1, {"weight": -1}), (1, 2, {"weight": 3})])
        raises_both(nx.NetworkXError, func, G, *args, weight="weight", match="must be positive")
        G = nx.Graph([(0, 1, {"weight": 0}), (1, 2, {"weight": 0})])
        raises_both(nx.NetworkXError, func, G, *args, weight="weight", match="Size of G")
        with pytest.raises(NotImplementedError):  # positive weights: networkx's own measure
            func(nx.Graph([(0, 1, {"weight": 2})]), *args, weight="weight", **SR)


# ---------------------------------------------------------------------------------------------
# group centralities and trophic levels
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("G", UNDIRECTED + DIRECTED + WEIGHTED, ids=U_IDS + D_IDS + W_IDS)
def test_group_centralities(G):
    nodes = list(G)
    weight = "weight" if G in WEIGHTED else None
    for S in ([nodes[0]], nodes[:5], nodes[3:6] + [nodes[3]], []):
        check(nx.group_degree_centrality, G, S)
        if G.is_directed():
            check(nx.group_in_degree_centrality, G, S)
            check(nx.group_out_degree_centrality, G, S)
        check(nx.group_closeness_centrality, G, S, weight=weight, rel=1e-9)
    raises_both(nx.NetworkXError, nx.group_degree_centrality, G, [nodes[0], "absent"])
    raises_both(ZeroDivisionError, nx.group_degree_centrality, G, nodes)
    raises_both(nx.NodeNotFound, nx.group_closeness_centrality, G, ["absent"])
    if not G.is_directed():
        raises_both(nx.NetworkXNotImplemented, nx.group_in_degree_centrality, G, nodes[:2])


def _food_web(seed, *, weights=None, loops=0):
    """A DAG (edges from lower to higher random rank) whose nodes all descend from a basal node."""
    rng = random.Random(seed)
    D = nx.DiGraph()
    n = 25
    D.add_nodes_from(range(n))
    for j in range(1, n):
        for i in rng.sample(range(j), min(j, rng.randint(1, 3))):
            D.add_edge(i, j)
    return shuffled(D, seed, weights=weights, loops=loops)


@pytest.mark.parametrize("G", [_food_web(1), _food_web(2, weights="int", loops=2), _food_web(3, weights="float")],
                         ids=["plain", "int-loops", "float"])
def test_trophic(G):
    weight = "weight" if any("weight" in d for *_, d in G.edges(data=True)) else None
    for w in {None, weight, "weight"}:
        check(nx.trophic_levels, G, weight=w, rel=1e-9)
        check(nx.trophic_differences, G, weight=w, rel=1e-9, abs_=1e-9)
        for cannibalism in (False, True):
            check(nx.trophic_incoherence_parameter, G, weight=w, cannibalism=cannibalism, rel=1e-9)


def test_trophic_errors():
    raises_both(nx.NetworkXError, nx.trophic_levels, nx.cycle_graph(4, create_using=nx.DiGraph), match="no basal")
    G = nx.DiGraph([(0, 1), (2, 3), (3, 2)])  # 2 and 3 have no path from the basal node 0
    raises_both(nx.NetworkXError, nx.trophic_levels, G, match="path from a basal node")
    raises_both(nx.NetworkXNotImplemented, nx.trophic_levels, nx.path_graph(3))
