"""The networkx backend's clustering, reciprocity, neighbour-degree and link-prediction
adapters, against the same calls run by networkx (tests/_nx_centrality.py: the graphs and the
comparison), on the shared graphs and on random graphs (Hypothesis) with exact counts."""

from __future__ import annotations

import math
import random

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from _nxgraphs import NX, SR
from _nx_centrality import (DIRECTED, D_IDS, PREDICTORS, UNDIRECTED, U_IDS, WEIGHTED, W_IDS,
                            _with_communities, check, gnp, raises_both, same)

SETTINGS = settings(max_examples=25, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


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
