"""The batched searches under closeness and harmonic centrality, checked against SciPy's
``csgraph.shortest_path``; and ``can_run``: what the centrality, clustering and link adapters
decline, and why."""

from __future__ import annotations

import math
from collections import Counter

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sps
from scipy.sparse.csgraph import shortest_path

import semiring as sr
from semiring.nx.backend import BackendInterface
from semiring.nx.algorithms.searches import distance_matrix, hop_matrix
from _nxgraphs import NX, SR
from _nx_centrality import DIRECTED, PREDICTORS, UNDIRECTED, WEIGHTED, _with_communities, check, same


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
