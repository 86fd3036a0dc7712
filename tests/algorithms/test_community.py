"""Modularity and Louvain communities against networkx, planted partitions and known optima.

Oracles: ``networkx.community.modularity`` for the modularity of a given partition (equal up to
float rounding, self-loops and resolution included); ``networkx.community.louvain_communities``
for the modularity Louvain reaches (the partitions differ: the engine moves vertices in parallel
rounds, networkx one at a time in random order; the modularity must be within a few percent);
the planted partitions of networkx's generators, which a modularity maximiser recovers when the
groups are well separated; connected components (scipy), which maximise modularity at
resolution 0; the proven optimum modularity of Zachary's karate club, 0.4197896 (Brandes et al.,
"On modularity clustering", IEEE TKDE 20(2), 2008), which no partition may exceed.
"""

from __future__ import annotations

import doctest
import functools

import networkx as nx
import numpy as np
import pytest
import scipy.sparse.csgraph as csgraph
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import semiring as sr
from semiring.algorithms import community as community_module
from semiring.backends._xp import asnumpy
from _nxgraphs import to_nx

louvain = sr.algorithms.louvain
modularity = sr.algorithms.modularity

#: The optimum modularity of Zachary's karate club (Brandes et al. 2008, by integer programming).
KARATE_OPTIMUM = 0.4197896


def from_nx(G, weight="weight"):
    """The symmetric Matrix of a networkx graph (nodes 0..n-1), weights as float64."""
    S = nx.to_scipy_sparse_array(G, nodelist=range(len(G)), weight=weight, dtype=np.float64)
    return sr.Matrix.from_scipy(S)


def parts(labels):
    """The partition of a label Vector (or array) as a list of sets, in order of label."""
    lab = asnumpy(labels.to_dense()) if isinstance(labels, sr.Vector) else np.asarray(labels)
    return [set(np.flatnonzero(lab == c).tolist()) for c in range(int(lab.max()) + 1)] if lab.size else []


def check_labels(labels, n):
    """int64, every vertex present, labels 0..k-1 numbered in order of their smallest vertex."""
    assert labels.dtype == np.int64 and labels.size == n and labels.nvals == n
    lab = asnumpy(labels.to_dense())
    if n == 0:
        return lab
    firsts = [int(np.flatnonzero(lab == c)[0]) for c in range(int(lab.max()) + 1)]
    assert firsts == sorted(firsts) and firsts[0] == 0  # every label used, in order of first vertex
    return lab


def nx_best(G, **kw):
    """networkx's Louvain modularity: the best of seeds 0-2 (seed 0 alone from 1,000 nodes: time)."""
    seeds = (0,) if len(G) >= 1000 else (0, 1, 2)
    return max(nx.community.modularity(G, nx.community.louvain_communities(G, seed=s, **kw)) for s in seeds)


def barbell():
    """networkx's barbell_graph(3, 0): triangles {0, 1, 2} and {3, 4, 5} joined by the edge 2-3."""
    return from_nx(nx.barbell_graph(3, 0))


# ---------------------------------------------------------------------------------------------
# modularity
# ---------------------------------------------------------------------------------------------

def test_modularity_hand_values():
    # the values of networkx's own tests (test_quality.py), from the formula by hand
    A = barbell()
    assert modularity(A, [{0, 1, 4}, {2, 3, 5}]) == pytest.approx(-16 / 14**2, abs=1e-12)
    assert modularity(A, [{0, 1, 2}, {3, 4, 5}]) == pytest.approx(35 * 2 / 14**2, abs=1e-12)
    for gamma in (0.2, 1, 2):
        assert modularity(A, [{0, 1, 2}, {3, 4, 5}], resolution=gamma) == pytest.approx(6 / 7 - gamma * 98 / 14**2)
    B = from_nx(nx.barbell_graph(5, 3))
    C = [set(range(5)), set(range(8, 13)), set(range(5, 8))]
    assert modularity(B, C, resolution=2) == pytest.approx(22 / 24 - 2 * 918 / 48**2)


def test_modularity_label_forms_agree():
    A = barbell()
    want = modularity(A, [{0, 1, 2}, {3, 4, 5}])
    # labels: any integers, equal labels = same community, in any order
    for lab in ([0, 0, 0, 1, 1, 1], [7, 7, 7, -3, -3, -3], [5, 5, 5, 2, 2, 2]):
        assert modularity(A, sr.Vector.from_dense(np.array(lab))) == want
    # a list of frozensets, a generator, an empty community
    assert modularity(A, [frozenset({3, 4, 5}), frozenset({0, 1, 2})]) == pytest.approx(want, abs=1e-15)
    assert modularity(A, (set(p) for p in ([0, 1, 2], [3, 4, 5]))) == pytest.approx(want, abs=1e-15)
    assert modularity(A, [{0, 1, 2}, set(), {3, 4, 5}]) == pytest.approx(want, abs=1e-15)
    # uint labels
    assert modularity(A, sr.Vector.from_dense(np.array([1, 1, 1, 0, 0, 0], dtype=np.uint8))) == want


def test_modularity_self_loops_count_as_networkx():
    # a self-loop of weight w: 2w in the degree, w inside its community (networkx's convention)
    G = nx.barbell_graph(3, 0)
    nx.set_edge_attributes(G, 1.0, "weight")
    G.add_edge(0, 0, weight=2.5)
    G.add_edge(4, 4, weight=1.0)
    A = from_nx(G)
    for C in ([{0, 1, 2}, {3, 4, 5}], [{0}, {1, 2, 3}, {4, 5}], [set(range(6))], [{v} for v in range(6)]):
        for gamma in (0.0, 1.0, 1.7):
            assert modularity(A, C, resolution=gamma) == pytest.approx(
                nx.community.modularity(G, C, resolution=gamma), rel=1e-12, abs=1e-12)


@st.composite
def weighted_graphs(draw):
    n = draw(st.integers(1, 25))
    m = draw(st.integers(1, 3 * n))
    r = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    c = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    integer = draw(st.booleans())
    # no subnormal weights: networkx's 1 / deg_sum**2 overflows there
    wts = st.integers(0, 9) if integer else st.one_of(st.just(0.0), st.floats(1e-3, 10))
    w = draw(st.lists(wts, min_size=m, max_size=m))
    G = nx.Graph()
    G.add_nodes_from(range(n))
    for u, v, x in zip(r, c, w):
        G.add_edge(u, v, weight=x)  # a repeated pair keeps the last weight, as the matrix below
    k = draw(st.integers(1, n))
    labels = draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n))
    return G, labels, draw(st.sampled_from([0.0, 0.5, 1.0, 2.5])), integer


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=weighted_graphs())
def test_modularity_matches_networkx_random(case):
    G, labels, gamma, integer = case
    S = nx.to_scipy_sparse_array(G, nodelist=range(len(G)), dtype=np.int64 if integer else np.float64)
    A = sr.Matrix.from_scipy(S)
    lab = np.array(labels)
    C = [set(np.flatnonzero(lab == c).tolist()) for c in np.unique(lab)]
    if G.size(weight="weight") == 0:
        with pytest.raises(sr.InvalidValue, match="m = 0"):
            modularity(A, C)
        return
    want = nx.community.modularity(G, C, resolution=gamma)
    assert modularity(A, C, resolution=gamma) == pytest.approx(want, rel=1e-10, abs=1e-12)
    assert modularity(A, sr.Vector.from_dense(lab), resolution=gamma) == pytest.approx(want, rel=1e-10, abs=1e-12)


@pytest.mark.data
def test_modularity_karate_factions(shared_data):
    A = sr.io.read(shared_data / "small/lagraph/karate.mtx")
    K = nx.karate_club_graph()  # the same graph, numbered alike; its 'club' attribute is the split
    clubs = [{v for v, d in K.nodes(data=True) if d["club"] == name} for name in ("Mr. Hi", "Officer")]
    G = to_nx(A)
    assert modularity(A, clubs) == pytest.approx(nx.community.modularity(G, clubs), abs=1e-12)


# ---------------------------------------------------------------------------------------------
# Louvain: small graphs with a known answer
# ---------------------------------------------------------------------------------------------

def test_louvain_hand_examples():
    assert louvain(barbell()).to_dense().tolist() == [0, 0, 0, 1, 1, 1]
    # a ring of six 5-cliques: each clique is a community
    A = from_nx(nx.ring_of_cliques(6, 5))
    assert louvain(A).to_dense().tolist() == [v // 5 for v in range(30)]
    # two disjoint triangles and an isolated vertex (its own community)
    B = from_nx(nx.disjoint_union_all([nx.complete_graph(3), nx.empty_graph(1), nx.complete_graph(3)]))
    assert louvain(B).to_dense().tolist() == [0, 0, 0, 1, 2, 2, 2]


@pytest.mark.parametrize("n", [0, 1, 5])
def test_louvain_without_edges(n):
    # no edge weight at all: every vertex alone (as networkx's louvain on an edgeless graph)
    for A in (sr.Matrix(n, n, "bool"), sr.Matrix.from_coo(list(range(n)), list(range(n)), [0.0] * n,
                                                        nrows=n, ncols=n)):
        lab = louvain(A)
        assert check_labels(lab, n).tolist() == list(range(n))


def test_louvain_weights_decide():
    # path 0-1-2-3: heavy outer edges pair {0, 1} and {2, 3}; a heavy middle edge pairs {1, 2}
    def path(w):
        return sr.Matrix.from_coo([0, 1, 1, 2, 2, 3], [1, 0, 2, 1, 3, 2], [w[0], w[0], w[1], w[1], w[2], w[2]],
                                  nrows=4, ncols=4)
    assert louvain(path([10.0, 1.0, 10.0])).to_dense().tolist() == [0, 0, 1, 1]
    lab = louvain(path([1.0, 10.0, 1.0])).to_dense()
    assert lab[1] == lab[2]
    # the same structure as int64 and bool (all ones) weights gives the float result
    A = from_nx(nx.ring_of_cliques(4, 4))
    ones = sr.apply(A, sr.unary.one)
    assert louvain(ones.dup("int64")).isequal(louvain(ones)) and louvain(ones.dup("bool")).isequal(louvain(ones))


def test_louvain_self_loops():
    # two vertices joined by an edge: together (Q 0 > -0.5); with heavy self-loops each stays
    # apart (Q 0.495 > 0), as networkx counts a self-loop twice in the degree
    A = sr.Matrix.from_coo([0, 1], [1, 0], [1.0, 1.0], nrows=2, ncols=2)
    assert louvain(A).to_dense().tolist() == [0, 0]
    B = sr.Matrix.from_coo([0, 1, 0, 1], [1, 0, 0, 1], [1.0, 1.0, 100.0, 100.0], nrows=2, ncols=2)
    assert louvain(B).to_dense().tolist() == [0, 1]
    assert modularity(B, [{0}, {1}]) == pytest.approx(nx.community.modularity(to_nx(B), [{0}, {1}]))


def _set_partitions(n):
    """Every partition of 0..n-1, as restricted growth strings (labels[i] <= 1 + max of the earlier)."""
    def grow(prefix, top):
        if len(prefix) == n:
            yield prefix
            return
        for c in range(top + 2):
            yield from grow(prefix + [c], max(top, c))
    yield from grow([0], 0) if n else iter(())


def _best_modularity(G):
    """The largest modularity over every partition of a small networkx graph (brute force, networkx's Q)."""
    return max(nx.community.modularity(G, parts(labels)) for labels in _set_partitions(len(G)))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_louvain_reaches_the_optimum_on_tiny_graphs(seed):
    rng = np.random.default_rng(seed)
    G = nx.gnm_random_graph(7, 10, seed=seed)
    for u, v in G.edges():
        G[u][v]["weight"] = float(rng.integers(1, 4))
    A = from_nx(G)
    got = modularity(A, louvain(A, seed=seed))
    best = _best_modularity(G)
    assert sum(1 for _ in _set_partitions(7)) == 877  # the Bell number B(7)
    assert got <= best + 1e-12
    assert got >= 0.97 * best


# ---------------------------------------------------------------------------------------------
# Louvain: quality against networkx and planted partitions
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("deactivation", [0.0, 0.1, 0.5])
def test_louvain_recovers_planted_partition(seed, deactivation):
    G = nx.planted_partition_graph(6, 25, 0.6, 0.01, seed=seed)
    planted = sorted(sorted(p) for p in G.graph["partition"])
    lab = louvain(from_nx(G), seed=seed, deactivation=deactivation)
    check_labels(lab, 150)
    assert sorted(sorted(p) for p in parts(lab)) == planted


@functools.lru_cache(maxsize=1)
def _generated():
    return {
        "sbm": from_nx(nx.stochastic_block_model(
            [60, 80, 100, 50], [[.2, .01, .005, .01], [.01, .15, .01, .005], [.005, .01, .1, .01],
                                [.01, .005, .01, .25]], seed=4)),
        "planted_noisy": from_nx(nx.planted_partition_graph(10, 40, 0.3, 0.02, seed=3)),
        "lfr": from_nx(nx.LFR_benchmark_graph(250, 3, 1.5, 0.009, average_degree=5, min_community=20, seed=10)),
        "rgg12": sr.generators.random_geometric(2**12, seed=1),
        "rgg12_weighted": sr.generators.random_geometric(2**12, seed=2, weights=(0.5, 2.0)),
        "kronecker10": sr.generators.kronecker(10, seed=1),
        "kronecker10_weighted": sr.generators.kronecker(10, seed=3, weights=(1, 20)),
    }


#: The least fraction of networkx's modularity (see nx_best) the engine must reach.
QUALITY = 0.96


@pytest.mark.parametrize("name", list(_generated()))
def test_louvain_modularity_close_to_networkx(name):
    A = _generated()[name]
    lab = louvain(A)
    check_labels(lab, A.nrows)
    G = to_nx(A)
    got = modularity(A, lab)
    assert got == pytest.approx(nx.community.modularity(G, parts(lab)), abs=1e-10)
    assert got >= QUALITY * nx_best(G)


@pytest.mark.data
@pytest.mark.parametrize("path", ["small/lagraph/karate.mtx", "small/lagraph/jagmesh7.mtx",
                                  "small/lagraph/bcsstk13.mtx", "coloring/anna.col"])
def test_louvain_shared_graphs(shared_data, path):
    A = sr.io.read(shared_data / path)
    # the pattern: bcsstk13 is a stiffness matrix with negative entries, which modularity rejects
    A = sr.apply(A, sr.unary.one).dup("bool")
    lab = louvain(A)
    check_labels(lab, A.nrows)
    got = modularity(A, lab)
    assert got >= QUALITY * nx_best(to_nx(A))
    if "karate" in path:
        assert got <= KARATE_OPTIMUM + 1e-7
        for seed in range(5):
            for alpha in (0.0, 0.5):
                assert QUALITY * KARATE_OPTIMUM <= modularity(A, louvain(A, seed=seed, deactivation=alpha)) \
                    <= KARATE_OPTIMUM + 1e-7


def test_resolution_zero_gives_connected_components():
    # at resolution 0, Q is the weight inside communities: one community per component is optimal
    for A in (sr.generators.random_geometric(600, radius=0.04, seed=3), sr.generators.kronecker(8, seed=2),
              from_nx(nx.disjoint_union_all([nx.path_graph(9), nx.cycle_graph(5), nx.star_graph(4)]))):
        k, comp = csgraph.connected_components(A.to_scipy(), directed=False)
        lab = louvain(A, resolution=0.0)
        assert sorted(map(sorted, parts(lab))) == sorted(map(sorted, parts(comp)))


def test_resolution_orders_community_counts():
    # as networkx's test_resolution: more communities at a higher resolution
    A = _generated()["lfr"]
    counts = [int(louvain(A, resolution=g, seed=12).to_dense().max()) + 1 for g in (0.5, 1.0, 2.0)]
    assert counts == sorted(counts) and counts[0] < counts[-1]


def test_levels_nest_and_threshold_stops_after_the_first():
    A = sr.generators.random_geometric(2**11, seed=5)
    full = louvain(A, seed=3)
    first = louvain(A, seed=3, max_level=1)
    # a level-1 community lies inside one final community (the final ones are unions of them)
    f, g = asnumpy(first.to_dense()), asnumpy(full.to_dense())
    for p in parts(f):
        assert len({int(g[v]) for v in p}) == 1
    assert int(f.max()) > int(g.max())
    assert modularity(A, first) < modularity(A, full)
    # a threshold above any gain stops after the first level (whose partition is kept)
    assert louvain(A, seed=3, threshold=1.0).isequal(first)
    # two levels lie between
    two = louvain(A, seed=3, max_level=2)
    assert modularity(A, first) <= modularity(A, two) <= modularity(A, full)


def test_seed_determinism_and_graph_cache():
    A = sr.generators.kronecker(8, seed=4)
    G = sr.algorithms.Graph(A)
    one = louvain(G, seed=7)
    assert louvain(G, seed=7).isequal(one) and louvain(A, seed=7).isequal(one)
    assert "community_weights" in G.derived()
    assert modularity(G, one) == modularity(A, one)
    lab = louvain(A, seed=None)
    check_labels(lab, A.nrows)


def test_inputs_are_not_modified():
    A = from_nx(nx.ring_of_cliques(4, 4))
    before = A.dup()
    labels = sr.Vector.from_dense(np.arange(16) // 4)
    lab_before = labels.dup()
    modularity(A, labels)
    louvain(A)
    assert A.isequal(before, check_dtype=True) and labels.isequal(lab_before, check_dtype=True)


def test_docstring_examples():
    result = doctest.testmod(community_module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 4 and result.failed == 0


# ---------------------------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("f", [louvain, lambda A: modularity(A, [{0, 1, 2}])], ids=["louvain", "modularity"])
def test_bad_graphs_raise(f):
    with pytest.raises(sr.InvalidValue, match="undirected"):
        f(sr.Matrix.from_coo([0], [1], [1.0], nrows=2, ncols=2))  # one direction only
    with pytest.raises(sr.InvalidValue, match="undirected"):
        f(sr.Matrix.from_coo([0, 1], [1, 0], [1.0, 2.0], nrows=2, ncols=2))  # values differ
    for bad, match in ((-1.0, "non-negative"), (np.nan, "finite"), (np.inf, "finite")):
        with pytest.raises(sr.InvalidValue, match=match):
            f(sr.Matrix.from_coo([0, 1, 1, 2], [1, 0, 2, 1], [1.0, 1.0, bad, bad], nrows=3, ncols=3))
    with pytest.raises(sr.DimensionMismatch, match="square"):
        f(sr.Matrix(3, 4, "bool"))
    with pytest.raises(sr.InvalidValue, match="expected a Matrix or Graph"):
        f(np.eye(3))


def test_bad_partitions_raise():
    A = barbell()
    with pytest.raises(sr.InvalidValue, match="vertex 2 is in communities 0 and 1"):
        modularity(A, [{0, 1, 2}, {2, 3, 4, 5}])
    with pytest.raises(sr.InvalidValue, match="1 vertices are in none, e.g. 5"):
        modularity(A, [{0, 1, 2}, {3, 4}])
    with pytest.raises(sr.IndexOutOfBound, match="0..5"):
        modularity(A, [{0, 1, 2}, {3, 4, 5, 6}])
    with pytest.raises(sr.InvalidValue, match="a community's vertex must be an integer vertex index; given 5.0"):
        modularity(A, [{0, 1, 2}, {3, 4, 5.0}])
    with pytest.raises(sr.InvalidValue, match="set of vertex indices"):
        modularity(A, [{0, 1, 2}, 3, 4, 5])
    with pytest.raises(sr.InvalidValue, match="iterable of sets"):
        modularity(A, 3)
    with pytest.raises(sr.DimensionMismatch, match="size 6"):
        modularity(A, sr.Vector.from_dense(np.zeros(5, dtype=np.int64)))
    with pytest.raises(sr.DomainMismatch, match="integer"):
        modularity(A, sr.Vector.from_dense(np.zeros(6)))
    with pytest.raises(sr.InvalidValue, match="1 of 6 are absent"):
        modularity(A, sr.Vector.from_coo([0, 1, 2, 3, 4], [0, 0, 0, 1, 1], size=6))
    with pytest.raises(sr.InvalidValue, match="m = 0"):
        modularity(sr.Matrix(3, 3, "bool"), [{0, 1, 2}])


@pytest.mark.parametrize("kw, match", [
    ({"max_level": 0}, "max_level"), ({"max_level": -1}, "max_level"), ({"max_level": 1.5}, "max_level"),
    ({"max_level": True}, "max_level"), ({"deactivation": 1.0}, "deactivation"),
    ({"deactivation": -0.1}, "deactivation"), ({"resolution": np.nan}, "resolution"),
    ({"resolution": "1"}, "resolution"), ({"threshold": np.inf}, "threshold"), ({"seed": -1}, "seed"),
    ({"seed": 1.5}, "seed"),
])
def test_bad_parameters_raise(kw, match):
    with pytest.raises(sr.InvalidValue, match=match):
        louvain(barbell(), **kw)


# ---------------------------------------------------------------------------------------------
# GPU (one body: the GPU result is a valid partition as good as the CPU's)
# ---------------------------------------------------------------------------------------------

@pytest.mark.gpu
@pytest.mark.parametrize("name", ["planted", "rgg", "kronecker"])
def test_louvain_on_gpu(name):
    A = {"planted": lambda: from_nx(nx.planted_partition_graph(6, 25, 0.6, 0.01, seed=1)),
         "rgg": lambda: sr.generators.random_geometric(2**12, seed=1),
         "kronecker": lambda: sr.generators.kronecker(10, seed=1)}[name]()
    cpu = louvain(A)
    dev = louvain(A.to("gpu"))
    assert dev.device == "gpu"
    check_labels(dev, A.nrows)
    q_cpu, q_gpu = modularity(A, cpu), modularity(A, dev.to("cpu"))
    assert q_gpu >= 0.98 * q_cpu
    # modularity of a given partition: the same number on both devices
    assert modularity(A.to("gpu"), cpu.to("gpu")) == pytest.approx(q_cpu, rel=1e-12)
    if name == "planted":
        assert sorted(map(sorted, parts(dev.to("cpu")))) == sorted(map(sorted, parts(cpu)))
