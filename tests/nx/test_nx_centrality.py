"""The networkx backend's centrality, clustering, link-analysis and link-prediction adapters.

The oracle is networkx itself: every adapter is called through networkx's dispatcher with
``backend="semiring"`` (which raises rather than fall back) and compared with the same call run by
networkx, on graphs whose node labels are strings inserted in a shuffled order: undirected and
directed, with and without weights (ints and floats), disconnected, with self-loops and
reciprocated edges. Comparisons check the result's type and order (dict keys, generator order),
ints exactly and floats to rounding. The batched searches under closeness and harmonic centrality
are checked against SciPy's ``csgraph.shortest_path``.
"""

from __future__ import annotations

import math
import random
from collections import Counter

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sps
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.sparse.csgraph import shortest_path

import semiring as sr
from semiring.nx.backend import BackendInterface
from semiring.nx.algorithms.searches import distance_matrix, hop_matrix
from _nxgraphs import NX, SR

nx.config.warnings_to_ignore.add("cache")

SETTINGS = settings(max_examples=25, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# ---------------------------------------------------------------------------------------------
# graphs and comparison
# ---------------------------------------------------------------------------------------------
def shuffled(G, seed, *, weights=None, loops=0):
    """G with nodes "v<i>" inserted in a random order, edges in a random order, optional "weight"
    values (ints 1..9 or floats in [0.5, 9]) on 80% of the edges, and ``loops`` self-loops."""
    rng = random.Random(seed)
    H = G.__class__()
    nodes = list(G)
    rng.shuffle(nodes)
    H.add_nodes_from(f"v{v}" for v in nodes)
    edges = list(G.edges())
    edges += [(v, v) for v in rng.sample(nodes, loops)]
    rng.shuffle(edges)
    for u, v in edges:
        attrs = {}
        if weights is not None and rng.random() < 0.8:
            attrs["weight"] = rng.randint(1, 9) if weights == "int" else rng.uniform(0.5, 9)
        H.add_edge(f"v{u}", f"v{v}", **attrs)
    return H


def gnp(n, p, seed, *, directed=False, **kw):
    return shuffled(nx.gnp_random_graph(n, p, seed=seed, directed=directed), seed, **kw)


def _reciprocal(seed):
    """A directed graph with reciprocated edges and self-loops."""
    G = gnp(25, 0.12, seed, directed=True, loops=3)
    rng = random.Random(seed)
    for u, v in rng.sample(list(G.edges()), 8):
        G.add_edge(v, u)
    return G


UNDIRECTED = [gnp(30, 0.15, 0), gnp(30, 0.2, 1, loops=3), gnp(25, 0.05, 2)]  # the last is disconnected
DIRECTED = [gnp(30, 0.1, 3, directed=True), _reciprocal(4), gnp(25, 0.04, 5, directed=True)]
WEIGHTED = [gnp(30, 0.15, 6, weights="int"), gnp(30, 0.15, 7, weights="float", loops=2),
            gnp(30, 0.1, 8, directed=True, weights="int"), gnp(30, 0.1, 9, directed=True, weights="float")]
U_IDS = [f"u{i}" for i in range(len(UNDIRECTED))]
D_IDS = [f"d{i}" for i in range(len(DIRECTED))]
W_IDS = [f"w{i}" for i in range(len(WEIGHTED))]


def same(got, want, rel=1e-7, abs_=1e-10):
    """got equals want in structure, order and types; floats to rounding."""
    if isinstance(want, dict):
        assert type(got) is type(want) and list(got) == list(want)
        for k in want:
            same(got[k], want[k], rel, abs_)
    elif isinstance(want, (list, tuple)):
        assert type(got) is type(want) and len(got) == len(want)
        for a, b in zip(got, want):
            same(a, b, rel, abs_)
    elif isinstance(want, float):
        assert type(got) is float and got == pytest.approx(want, rel=rel, abs=abs_)
    else:
        assert type(got) is type(want) and got == want


def both(func, *args, **kwargs):
    return func(*args, **kwargs, **SR), func(*args, **kwargs, **NX)


def check(func, *args, rel=1e-7, abs_=1e-10, **kwargs):
    """The backend's answer is networkx's (or it raises networkx's exception type)."""
    try:
        want = func(*args, **kwargs, **NX)
    except Exception as exc:  # noqa: BLE001  (whatever networkx raises, the backend must too)
        with pytest.raises(type(exc)):
            func(*args, **kwargs, **SR)
        return None
    got = func(*args, **kwargs, **SR)
    same(got, want, rel, abs_)
    return got


def raises_both(exc, func, *args, match=None, **kwargs):
    for backend in (SR, NX):
        with pytest.raises(exc, match=match):
            r = func(*args, **kwargs, **backend)
            if hasattr(r, "__next__"):
                list(r)


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


# ---------------------------------------------------------------------------------------------
# clustering
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("G", UNDIRECTED + DIRECTED + WEIGHTED, ids=U_IDS + D_IDS + W_IDS)
def test_clustering(G):
    weight = "weight" if G in WEIGHTED else None
    nodes = list(G)
    for w in {None, weight}:
        check(nx.clustering, G, weight=w, rel=1e-9)
        check(nx.clustering, G, nodes=nodes[3:9] + ["absent"], weight=w, rel=1e-9)
        check(nx.clustering, G, nodes=nodes[4], weight=w, rel=1e-9)
        for count_zeros in (True, False):
            check(nx.average_clustering, G, weight=w, count_zeros=count_zeros, rel=1e-9)
    check(nx.transitivity, G)
    check(nx.square_clustering, G)
    check(nx.square_clustering, G, nodes=nodes[:5] + [nodes[2], "absent"])
    check(nx.square_clustering, G, nodes=nodes[1])
    check(nx.square_clustering, G, nodes=[])


@pytest.mark.parametrize("G", UNDIRECTED + WEIGHTED[:2], ids=U_IDS + W_IDS[:2])
def test_triangles_and_generalized_degree(G):
    check(nx.triangles, G)
    got = check(nx.generalized_degree, G)
    for v in G:
        assert list(got[v]) == list(nx.generalized_degree(G, **NX)[v])  # each Counter's key order
    node = list(G)[2]
    same(nx.generalized_degree(G, node, **SR), nx.generalized_degree(G, node, **NX))
    check(nx.generalized_degree, G, nodes=list(G)[:4])


def test_clustering_multigraph_and_directed_errors():
    M = nx.MultiGraph([(0, 1), (1, 2), (2, 0), (0, 1)])
    for func in (nx.clustering, nx.average_clustering, nx.transitivity, nx.generalized_degree):
        raises_both(nx.NetworkXNotImplemented, func, M)
    raises_both(nx.NetworkXNotImplemented, nx.generalized_degree, nx.DiGraph([(0, 1)]))
    check(nx.square_clustering, M)
    check(nx.square_clustering, nx.MultiDiGraph([(0, 1), (1, 2), (2, 0), (0, 1), (2, 3), (3, 0)]))
    assert nx.transitivity(nx.Graph(), **SR) == 0
    raises_both(ZeroDivisionError, nx.average_clustering, nx.Graph())


# ---------------------------------------------------------------------------------------------
# reciprocity and neighbour degrees
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("G", DIRECTED, ids=D_IDS)
def test_reciprocity(G):
    check(nx.overall_reciprocity, G)
    check(nx.reciprocity, G)
    check(nx.reciprocity, G, list(G)[:10] + ["absent"])
    check(nx.reciprocity, G, next(v for v in G if G.degree(v)))


def test_reciprocity_errors():
    G = nx.DiGraph([(0, 1)])
    G.add_node(2)
    raises_both(nx.NetworkXError, nx.reciprocity, G, 2, match="isolated")
    raises_both(nx.NetworkXError, nx.overall_reciprocity, nx.empty_graph(3, nx.DiGraph))
    raises_both(nx.NetworkXNotImplemented, nx.reciprocity, nx.MultiGraph([(0, 1)]))
    check(nx.overall_reciprocity, nx.path_graph(3))  # networkx counts no reciprocated edge
    check(nx.reciprocity, nx.MultiDiGraph([(0, 1), (1, 0), (1, 2)]), [0, 1, 2])
    assert nx.reciprocity(G, [2, 0], **SR) == {2: None, 0: 0.0}


@pytest.mark.parametrize("G", UNDIRECTED + DIRECTED + WEIGHTED, ids=U_IDS + D_IDS + W_IDS)
def test_neighbour_degrees(G):
    weight = "weight" if G in WEIGHTED else None
    which = ("in", "out", "in+out") if G.is_directed() else (None,)
    for w in {None, weight}:
        for s in which:
            for t in which:
                kw = {} if s is None else {"source": s, "target": t}
                check(nx.average_neighbor_degree, G, weight=w, rel=1e-9, **kw)
                check(nx.average_degree_connectivity, G, weight=w, rel=1e-9, **kw)
        check(nx.average_neighbor_degree, G, nodes=list(G)[:5], weight=w, rel=1e-9)
        check(nx.average_degree_connectivity, G, nodes=list(G)[:5], weight=w, rel=1e-9)
        check(nx.average_degree_connectivity, G, nodes=list(G)[3], weight=w, rel=1e-9)


def test_neighbour_degree_argument_errors():
    U, D = nx.path_graph(3), nx.DiGraph([(0, 1)])
    raises_both(nx.NetworkXError, nx.average_neighbor_degree, U, source="in")
    raises_both(nx.NetworkXError, nx.average_neighbor_degree, D, source="both")
    raises_both(nx.NetworkXError, nx.average_neighbor_degree, D, target="x")
    raises_both(nx.NetworkXError, nx.average_degree_connectivity, U, target="out")
    raises_both(nx.NetworkXError, nx.average_degree_connectivity, D, source="x")


# ---------------------------------------------------------------------------------------------
# link prediction
# ---------------------------------------------------------------------------------------------
PREDICTORS = [nx.jaccard_coefficient, nx.adamic_adar_index, nx.resource_allocation_index,
              nx.preferential_attachment, nx.common_neighbor_centrality]


@pytest.mark.parametrize("G", UNDIRECTED, ids=U_IDS)
@pytest.mark.parametrize("func", PREDICTORS, ids=lambda f: f.__name__)
def test_link_prediction(G, func):
    same(list(func(G, **SR)), list(func(G, **NX)), rel=1e-9)  # every non-edge, in networkx's order
    rng = random.Random(5)
    nodes = list(G)
    pairs = [tuple(rng.sample(nodes, 2)) for _ in range(40)] + [e for e in G.edges() if e[0] != e[1]][:5]
    pairs += [pairs[0], pairs[0][::-1]]
    if func is not nx.common_neighbor_centrality:
        pairs += [(nodes[1], nodes[1])]
    same(list(func(G, pairs, **SR)), list(func(G, pairs, **NX)), rel=1e-9)


def test_link_prediction_quirks_match_networkx():
    G = gnp(15, 0.3, 11, loops=2)
    nodes = list(G)
    for func in PREDICTORS:
        raises_both(nx.NodeNotFound, func, G, [(nodes[0], "absent")])
        raises_both(nx.NetworkXNotImplemented, func, nx.DiGraph(G), [(nodes[0], nodes[1])])
        raises_both(nx.NetworkXNotImplemented, func, nx.MultiGraph(G), [(nodes[0], nodes[1])])
        # an iterator is used up by networkx's check of the nodes: nothing is scored
        assert list(func(G, iter([(nodes[0], nodes[1])]), **SR)) == []
    star = nx.star_graph(3)  # (0, 0): the leaves are common neighbours of degree 1, log(1) = 0
    gen = nx.adamic_adar_index(star, [(1, 2), (0, 0)], **SR)
    assert next(gen) == (1, 2, 1 / math.log(3))
    with pytest.raises(ZeroDivisionError):
        next(gen)
    raises_both(ZeroDivisionError, nx.adamic_adar_index, star, [(0, 0)])
    for alpha in (1, 0.5):
        check(lambda H, **kw: list(nx.common_neighbor_centrality(H, **kw)), G, alpha=alpha)
        gen = nx.common_neighbor_centrality(G, [(nodes[0], nodes[1]), (nodes[2], nodes[2])], alpha=alpha, **SR)
        assert next(gen)[:2] == (nodes[0], nodes[1])  # lazily: the pair u == u raises on reaching it
        with pytest.raises(nx.NetworkXAlgorithmError, match="Self loops are not supported"):
            next(gen)


def _with_communities(G, seed, missing=0):
    H = G.copy()
    rng = random.Random(seed)
    nodes = list(H)
    for v in nodes:
        H.nodes[v]["community"] = rng.randint(0, 2)
    for v in rng.sample(nodes, missing):
        del H.nodes[v]["community"]
    return H


@pytest.mark.parametrize("func", [nx.cn_soundarajan_hopcroft, nx.ra_index_soundarajan_hopcroft,
                                  nx.within_inter_cluster], ids=lambda f: f.__name__)
def test_community_link_prediction(func):
    for i, G in enumerate(UNDIRECTED[:2]):
        H = _with_communities(G, i)
        same(list(func(H, **SR)), list(func(H, **NX)), rel=1e-9)
        pairs = [tuple(random.Random(i).sample(list(H), 2)) for _ in range(30)] + [(list(H)[0], list(H)[0])]
        same(list(func(H, pairs, **SR)), list(func(H, pairs, **NX)), rel=1e-9)
    H = _with_communities(UNDIRECTED[0], 9, missing=4)
    got, want = func(H, **SR), func(H, **NX)
    exc = None
    try:
        for item in want:
            assert next(got) == pytest.approx(item) if isinstance(item[2], float) else next(got) == item
    except nx.NetworkXAlgorithmError as e:
        exc = e
    assert exc is not None
    with pytest.raises(nx.NetworkXAlgorithmError, match=str(exc)):
        next(got)  # the same pair, and the same node named, as networkx


def test_within_inter_cluster_delta():
    raises_both(nx.NetworkXAlgorithmError, nx.within_inter_cluster, _with_communities(nx.path_graph(3), 1),
                delta=0, match="Delta")


# ---------------------------------------------------------------------------------------------
# exact counts on random graphs
# ---------------------------------------------------------------------------------------------
@st.composite
def small_graphs(draw):
    directed = draw(st.booleans())
    n = draw(st.integers(1, 12))
    pairs = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=40))
    G = nx.DiGraph() if directed else nx.Graph()
    order = draw(st.permutations(range(n)))
    G.add_nodes_from(f"n{i}" for i in order)
    G.add_edges_from((f"n{u}", f"n{v}") for u, v in pairs)
    return G


@SETTINGS
@given(small_graphs())
def test_integer_measures_are_networkx_exactly(G):
    for func in (nx.degree_centrality, nx.clustering, nx.transitivity, nx.square_clustering,
                 nx.average_neighbor_degree, nx.average_degree_connectivity):
        same(func(G, **SR), func(G, **NX), rel=0, abs_=0)
    if G.is_directed():
        same(nx.reciprocity(G, list(G), **SR), nx.reciprocity(G, list(G), **NX), rel=0, abs_=0)
    else:
        for func in (nx.jaccard_coefficient, nx.preferential_attachment):
            same(list(func(G, **SR)), list(func(G, **NX)), rel=0, abs_=0)
        same(nx.generalized_degree(G, **SR), nx.generalized_degree(G, **NX))
    same(nx.closeness_centrality(G, **SR), nx.closeness_centrality(G, **NX), rel=0, abs_=0)


@SETTINGS
@given(small_graphs(), st.data())
def test_subset_betweenness_on_random_graphs(G, data):
    nodes = list(G)
    sources = data.draw(st.lists(st.sampled_from(nodes), max_size=6))
    targets = data.draw(st.lists(st.sampled_from(nodes), max_size=6))
    for func in (nx.betweenness_centrality_subset, nx.edge_betweenness_centrality_subset):
        same(func(G, sources, targets, **SR), func(G, sources, targets, **NX), rel=1e-9, abs_=1e-12)
    same(nx.edge_betweenness_centrality(G, **SR), nx.edge_betweenness_centrality(G, **NX), rel=1e-9, abs_=1e-12)


@SETTINGS
@given(small_graphs(), st.data())
def test_link_prediction_on_random_pairs(G, data):
    if G.is_directed():
        G = G.to_undirected()
    nodes = list(G)
    pairs = data.draw(st.lists(st.tuples(st.sampled_from(nodes), st.sampled_from(nodes)), max_size=12))
    for func in PREDICTORS:
        check(lambda H, **kw: list(func(H, pairs, **kw)), G, rel=1e-12)


# ---------------------------------------------------------------------------------------------
# the batched searches (engine level), against SciPy
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
def test_batched_searches_match_scipy(directed, weighted):
    rng = np.random.default_rng(3)
    n = 60
    S = sps.random(n, n, density=0.05, random_state=4, format="coo")
    if not directed:
        S = (S + S.T).tocoo()
    vals = rng.integers(1, 9, S.nnz).astype(np.float64) if weighted else np.ones(S.nnz)
    if not directed:  # the mirror entry gets the same length
        lo = np.minimum(S.row, S.col) * n + np.maximum(S.row, S.col)
        vals = (lo % 7 + 1).astype(np.float64) if weighted else vals
    W = sps.coo_matrix((vals, (S.row, S.col)), shape=(n, n)).tocsr()
    A = sr.Matrix.from_scipy(W)
    src = np.array([0, 5, 5, 17, 59], dtype=np.int64)  # a repeated source is its own row
    want = shortest_path(W, directed=True, unweighted=not weighted, indices=src)

    def dense(M):
        got = np.full((src.shape[0], n), np.inf)
        r, c, v = M.to_coo()
        got[r, c] = v
        return got

    if weighted:
        np.testing.assert_array_equal(dense(distance_matrix(A, src)), want)
        nearest = dense(distance_matrix(A, src, nearest=True))[0]
        np.testing.assert_array_equal(nearest, want.min(axis=0))
    else:
        np.testing.assert_array_equal(dense(hop_matrix(A, src, undirected=not directed)), want)
        for depth in (0, 1, 3):
            np.testing.assert_array_equal(dense(hop_matrix(A, src, depth, undirected=not directed)),
                                          np.where(want <= depth, want, np.inf))


def test_small_batches_and_chunks_give_the_same_answers(monkeypatch):
    """Sources searched a few at a time, and pairs scored a few at a time, change nothing."""
    from semiring.nx.algorithms import searches
    from semiring.nx.nxapi import link_prediction

    monkeypatch.setattr(searches, "BATCH_ENTRIES", 60)  # 2 sources per batch on 30 nodes
    monkeypatch.setattr(link_prediction, "CHUNK", 7)
    monkeypatch.setattr(link_prediction, "PAIR_ENTRIES", 5)  # often one pair per product
    G, D = UNDIRECTED[1], DIRECTED[1]
    nodes = list(G)
    for H in (G, D, WEIGHTED[3]):
        distance = "weight" if H is WEIGHTED[3] else None
        check(nx.closeness_centrality, H, distance=distance, rel=1e-9)
        check(nx.harmonic_centrality, H, distance=distance, rel=1e-9)
    for H in (G, D):
        check(nx.edge_betweenness_centrality, H, rel=1e-9)
        check(nx.betweenness_centrality_subset, H, list(H)[:9], list(H)[4:20], rel=1e-9)
        check(nx.edge_betweenness_centrality_subset, H, list(H)[:9], list(H)[4:20], rel=1e-9)
        check(nx.load_centrality, H, rel=1e-9)
        check(nx.edge_load_centrality, H, rel=1e-9)
        check(nx.global_reaching_centrality, H, rel=0, abs_=0)
    pairs = [(nodes[i], nodes[(3 * i + 1) % len(nodes)]) for i in range(len(nodes))]
    for func in PREDICTORS:
        same(list(func(G, pairs, **SR)), list(func(G, pairs, **NX)), rel=1e-9)
    H = _with_communities(G, 3)
    same(list(nx.ra_index_soundarajan_hopcroft(H, **SR)), list(nx.ra_index_soundarajan_hopcroft(H, **NX)), rel=1e-9)


# ---------------------------------------------------------------------------------------------
# can_run: what declines, and why
# ---------------------------------------------------------------------------------------------
MULTI = nx.MultiGraph([(0, 1), (0, 1), (1, 2)])
MULTI_D = nx.MultiDiGraph([(0, 1), (0, 1), (1, 2), (2, 0)])
P3 = nx.path_graph(3)


@pytest.mark.parametrize("name, args, kwargs, words", [
    ("degree_centrality", (MULTI,), {}, "parallel edges"),
    ("in_degree_centrality", (MULTI_D,), {}, "parallel edges"),
    ("eigenvector_centrality", (P3,), {"weight": lambda u, v, d: 1}, "callable weight"),
    ("eigenvector_centrality", (P3,), {"nstart": {0: 1, 1: 1}}, "every node"),
    ("eigenvector_centrality", (P3,), {"nstart": {0: 1, 1: 1, 2: "x"}}, "real numbers"),
    ("eigenvector_centrality", (P3,), {"max_iter": 2.5}, "max_iter"),
    ("eigenvector_centrality_numpy", (nx.path_graph(2),), {}, "at least 3 nodes"),
    ("eigenvector_centrality_numpy", (MULTI,), {}, "parallel edges"),
    ("katz_centrality", (P3,), {"beta": [1, 2, 3]}, "beta must be a number or a dict"),
    ("katz_centrality", (P3,), {"alpha": None}, "alpha"),
    ("katz_centrality_numpy", (P3,), {"beta": {0: 1, 1: None, 2: 1}}, "beta values"),
    ("hits", (MULTI_D,), {}, "parallel edges"),
    ("google_matrix", (P3,), {"nodelist": [0, 1]}, "every node once"),
    ("closeness_centrality", (P3,), {"distance": lambda u, v, d: 1}, "callable weight"),
    ("harmonic_centrality", (P3,), {"distance": True}, "must name an edge attribute"),
    ("edge_betweenness_centrality", (P3,), {"weight": "weight"}, "weighted betweenness"),
    ("edge_betweenness_centrality", (MULTI,), {}, "edge key"),
    ("betweenness_centrality_subset", (P3, [0], iter([2])), {}, "iterator"),
    ("edge_betweenness_centrality_subset", (P3, [0], [2]), {"weight": "w"}, "weighted betweenness"),
    ("clustering", (P3,), {"weight": lambda u, v, d: 1}, "callable weight"),
    ("average_neighbor_degree", (P3,), {"nodes": 1}, "single node"),
    ("average_neighbor_degree", (nx.MultiGraph([(0, 1)]),), {"weight": "weight"}, "edge-key dict"),
    ("average_degree_connectivity", (MULTI,), {}, "parallel edges"),
    ("common_neighbor_centrality", (P3,), {"alpha": "0.5"}, "alpha"),
    ("within_inter_cluster", (P3,), {"delta": None}, "delta"),
    ("group_degree_centrality", (P3, iter([0])), {}, "iterator"),
    ("newman_betweenness_centrality", (P3,), {"weight": "weight"}, "weighted load"),
    ("newman_betweenness_centrality", (P3,), {"cutoff": "2"}, "cutoff"),
    ("edge_load_centrality", (MULTI,), {}, "multigraph"),
    ("trophic_levels", (MULTI_D,), {}, "parallel edges"),
    ("local_reaching_centrality", (P3, 0), {"paths": {0: [0]}}, "given paths"),
    ("global_reaching_centrality", (P3,), {"weight": lambda u, v, d: 1}, "callable weight"),
])
def test_can_run_declines_with_a_reason(name, args, kwargs, words):
    reason = BackendInterface.can_run(name, args, kwargs)
    assert isinstance(reason, str) and words in reason, reason


def test_declines_inside_the_adapter_fall_back():
    G = nx.DiGraph([(0, 1, {"weight": -1.0}), (1, 2, {"weight": 2.0})])
    with pytest.raises(NotImplementedError):
        nx.closeness_centrality(G, distance="weight", **SR)
    with pytest.raises(NotImplementedError):
        nx.clustering(nx.Graph([(0, 1, {"weight": 0}), (1, 2, {"weight": 0}), (0, 2, {"weight": 0})]),
                      weight="weight", **SR)
    with pytest.raises(NotImplementedError):  # singular: I - A' for alpha = 1 on a cycle
        nx.katz_centrality_numpy(nx.cycle_graph(4, create_using=nx.DiGraph), alpha=1.0, **SR)
    prio = nx.utils.backends.BackendPriorities(algos=["semiring"], generators=[], classes=[])
    with nx.config(backend_priority=prio, fallback_to_nx=True):
        assert nx.closeness_centrality(G, distance="weight") == nx.closeness_centrality(G, distance="weight", **NX)


def test_community_decline_on_a_backend_graph_without_communities():
    H = BackendInterface.convert_from_nx(nx.path_graph(3))
    reason = BackendInterface.can_run("cn_soundarajan_hopcroft", (H,), {})
    assert isinstance(reason, str) and "node attribute 'community'" in reason
    G = nx.path_graph(3)
    nx.set_node_attributes(G, {0: "a", 1: "a"}, "community")
    H = BackendInterface.convert_from_nx(G, node_attrs={"community": None})
    assert H.node_attrs == {"community": {0: "a", 1: "a"}}
    assert BackendInterface.can_run("cn_soundarajan_hopcroft", (H,), {}) is True
    assert list(nx.cn_soundarajan_hopcroft(H, [(0, 1)])) == [(0, 1, 0)]


def test_harmonic_values_stay_ints_where_nothing_is_added():
    G = nx.DiGraph([("a", "b")])
    G.add_node("c")
    got = nx.harmonic_centrality(G, **SR)
    assert got == nx.harmonic_centrality(G) and type(got["a"]) is int and type(got["b"]) is float
    assert math.isclose(nx.harmonic_centrality(G, sources=["a"], **SR)["b"], 1.0)
    assert Counter(nx.generalized_degree(nx.complete_graph(4), 0, **SR)) == Counter({2: 3})
