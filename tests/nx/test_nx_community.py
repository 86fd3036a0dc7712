"""The networkx adapters ``louvain_communities`` and ``modularity`` against networkx itself.

modularity: the same number as networkx (backend="networkx") on weighted, unweighted and
self-looped graphs at several resolutions, and networkx's NotAPartition. louvain_communities: a
partition of the nodes (any hashable labels) whose modularity is within a few percent of
networkx's own Louvain (the partitions differ: parallel rounds, another random stream), the same
partition for the same seed, networkx's ValueError for max_level, and the declines (directed
graphs, multigraphs, negative weights, total weight 0). networkx's own tests of both run in
tests/nx/test_networkx_backend.py (semiring.nx._suite).
"""

from __future__ import annotations

import random

import networkx as nx
import pytest
from networkx.algorithms.community.quality import NotAPartition

from semiring.nx.backend import BackendInterface
from _nxgraphs import NX, SR, relabelled

nx.config.warnings_to_ignore.add("cache")


def lfr():
    return nx.LFR_benchmark_graph(250, 3, 1.5, 0.009, average_degree=5, min_community=20, seed=10)


def weighted_loops():
    G = relabelled(nx.ring_of_cliques(5, 6), 3)
    rng = random.Random(4)
    for u, v in G.edges():
        G[u][v]["weight"] = rng.uniform(0.5, 3.0)
    G.add_edge("v0", "v0", weight=4.0)
    G.add_edge("v7", "v7")  # no weight attribute: 1, as networkx reads it
    return G


GRAPHS = {
    "karate_club": nx.karate_club_graph(),  # int "weight" attributes
    "lfr_relabelled": relabelled(lfr(), 1),
    "weighted_loops": weighted_loops(),
}


@pytest.mark.parametrize("name", sorted(GRAPHS))
@pytest.mark.parametrize("weight", ["weight", None])
def test_modularity_matches_networkx(name, weight):
    G = GRAPHS[name]
    for seed in (0, 1):
        C = nx.community.louvain_communities(G, weight=weight, seed=seed, **NX)
        for gamma in (1, 0.5, 2.5):
            got = nx.community.modularity(G, C, weight=weight, resolution=gamma, **SR)
            assert isinstance(got, float)
            assert got == pytest.approx(nx.community.modularity(G, C, weight=weight, resolution=gamma, **NX),
                                        rel=1e-12, abs=1e-12)
    nodes = list(G)
    halves = (set(nodes[::2]), set(nodes[1::2]))
    assert nx.community.modularity(G, iter(halves), weight=weight, **SR) == pytest.approx(
        nx.community.modularity(G, halves, weight=weight, **NX), rel=1e-12, abs=1e-12)


def test_modularity_not_a_partition_as_networkx():
    G = nx.karate_club_graph()
    nodes = list(G)
    for bad in ([set(nodes[:10])], [set(nodes), {0}], [set(nodes) | {"x"}], [set(nodes[:-1]) | {"x"}]):
        with pytest.raises(NotAPartition):
            nx.community.modularity(G, bad, **NX)
        with pytest.raises(NotAPartition):
            nx.community.modularity(G, bad, **SR)


@pytest.mark.parametrize("name", sorted(GRAPHS))
@pytest.mark.parametrize("weight", ["weight", None])
def test_louvain_communities_is_a_good_partition(name, weight):
    G = GRAPHS[name]
    got = nx.community.louvain_communities(G, weight=weight, seed=3, **SR)
    assert isinstance(got, list) and all(isinstance(p, set) for p in got)
    assert nx.community.is_partition(G, got)
    firsts = [min(list(G).index(v) for v in p) for p in got]
    assert firsts == sorted(firsts)  # communities in order of their first node
    q = nx.community.modularity(G, got, weight=weight, **NX)
    best = max(nx.community.modularity(G, nx.community.louvain_communities(G, weight=weight, seed=s, **NX),
                                       weight=weight, **NX) for s in range(3))
    assert q >= 0.96 * best
    # the same seed (an int or a random.Random in the same state) gives the same partition
    assert nx.community.louvain_communities(G, weight=weight, seed=3, **SR) == got
    assert nx.community.louvain_communities(G, weight=weight, seed=random.Random(3), **SR) == got


def test_louvain_communities_parameters():
    G = relabelled(lfr(), 2)
    counts = [len(nx.community.louvain_communities(G, resolution=g, seed=12, **SR)) for g in (0.5, 1, 2)]
    assert counts == sorted(counts) and counts[0] < counts[-1]
    full = nx.community.louvain_communities(G, seed=5, **SR)
    first = nx.community.louvain_communities(G, seed=5, max_level=1, **SR)
    assert all(any(p <= f for f in full) for p in first) and len(first) > len(full)  # levels nest
    assert nx.community.louvain_communities(G, seed=5, threshold=0.9, **SR) == first
    assert nx.community.modularity(G, first) <= nx.community.modularity(G, full)
    for bad in (0, -2):
        with pytest.raises(ValueError, match="max_level argument must be a positive integer"):
            nx.community.louvain_communities(G, max_level=bad, **SR)


def test_louvain_communities_small_graphs_as_networkx():
    for G in (nx.Graph(), nx.empty_graph(5), nx.empty_graph(["a", "b"])):
        assert nx.community.louvain_communities(G, **SR) == nx.community.louvain_communities(G, **NX)
    B = relabelled(nx.barbell_graph(4, 0), 6)
    got = nx.community.louvain_communities(B, **SR)
    assert sorted(map(sorted, got)) == sorted(map(sorted, nx.community.louvain_communities(B, seed=1, **NX)))


@pytest.mark.parametrize("name, args, kwargs, words", [
    ("louvain_communities", (nx.DiGraph([(0, 1)]),), {}, "directed"),
    ("louvain_communities", (nx.MultiGraph([(0, 1), (0, 1)]),), {}, "multigraph"),
    ("louvain_communities", (nx.path_graph(3),), {"weight": lambda u, v, d: 1}, "callable weight"),
    ("louvain_communities", (nx.path_graph(3),), {"resolution": "1"}, "resolution"),
    ("louvain_communities", (nx.path_graph(3),), {"threshold": float("nan")}, "threshold"),
    ("louvain_communities", (nx.path_graph(3),), {"max_level": 1.5}, "max_level"),
    ("modularity", (nx.DiGraph([(0, 1)]), [{0, 1}]), {}, "directed"),
    ("modularity", (nx.MultiGraph([(0, 1)]), [{0, 1}]), {}, "multigraph"),
    ("modularity", (nx.path_graph(3), [{0, 1, 2}]), {"resolution": None}, "resolution"),
])
def test_can_run_declines_with_a_reason(name, args, kwargs, words):
    reason = BackendInterface.can_run(name, args, kwargs)
    assert isinstance(reason, str) and words in reason


def test_declines_inside_and_fallback():
    neg = nx.Graph([(0, 1, {"weight": -1.0}), (1, 2, {"weight": 2.0})])
    zero = nx.Graph([(0, 1, {"weight": 0.0})])
    for call in (lambda G, **k: nx.community.louvain_communities(G, **k),
                 lambda G, **k: nx.community.modularity(G, [set(G)], **k)):
        for G in (neg, zero):
            with pytest.raises(NotImplementedError):
                call(G, **SR)
    assert BackendInterface.can_run("louvain_communities", (nx.path_graph(3),), {}) is True
    assert BackendInterface.can_run("modularity", (nx.path_graph(3), [{0, 1, 2}]), {}) is True
    prio = nx.utils.backends.BackendPriorities(algos=["semiring"], generators=[], classes=[])
    D = nx.DiGraph([(0, 1), (1, 2), (2, 0), (3, 4)])
    with nx.config(backend_priority=prio, fallback_to_nx=True):
        assert nx.community.modularity(neg, [{0, 1}, {2}]) == nx.community.modularity(neg, [{0, 1}, {2}], **NX)
        assert nx.community.modularity(D, [{0, 1, 2}, {3, 4}]) == nx.community.modularity(D, [{0, 1, 2}, {3, 4}],
                                                                                           **NX)
        with pytest.raises(ZeroDivisionError):  # networkx's own answer for total weight 0
            nx.community.modularity(zero, [{0, 1}])


@pytest.mark.gpu
def test_adapters_on_gpu():
    G = GRAPHS["weighted_loops"]
    with nx.config.backends.semiring(device="gpu"):
        assert BackendInterface.convert_from_nx(G, edge_attrs={"weight": 1}).device == "gpu"
        got = nx.community.louvain_communities(G, seed=1, **SR)
        assert nx.community.is_partition(G, got)
        q = nx.community.modularity(G, got, **NX)
        assert nx.community.modularity(G, got, **SR) == pytest.approx(q, rel=1e-12)
        assert q >= 0.96 * nx.community.modularity(G, nx.community.louvain_communities(G, seed=1, **NX), **NX)
