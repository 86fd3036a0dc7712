"""Betweenness centrality against networkx.

Oracle: ``networkx.betweenness_centrality`` (Brandes' algorithm one source at a time, in Python)
on the same graph: exact (every flag combination, directed and undirected), and with sampled
sources, where networkx draws ``k`` sources by ``seed.sample(list(G), k)``; the same sources are
handed to the engine (drawn from an equal ``random.Random``, or fixed by a ``Random`` whose
``sample`` returns a given list). Graphs: small cases written out, hypothesis, generated graphs
and Zachary's karate club (../shared/data).
"""

from __future__ import annotations

import doctest
import math
import random

import networkx as nx
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import semiring as sr
from semiring.algorithms import centrality as centrality_module
from semiring.backends._xp import asnumpy

bc = sr.algorithms.betweenness_centrality
FLAGS = [(normalized, endpoints) for normalized in (True, False) for endpoints in (False, True)]


def engine_graph(H, device="cpu"):
    """(Graph, node list): H's pattern in node order, directed as H is."""
    nodes = list(H)
    S = nx.to_scipy_sparse_array(H, nodelist=nodes, weight=None, format="csr", dtype=bool)
    A = sr.Matrix.from_scipy(S, device=device)
    return sr.algorithms.Graph(A, kind="directed" if H.is_directed() else "undirected"), nodes


def as_list(d, nodes):
    return [d[v] for v in nodes]


class FixedSample(random.Random):
    """A Random whose ``sample`` returns the given sources (networkx samples its ``k`` sources with it)."""

    def __init__(self, sources):
        super().__init__(0)
        self.sources = list(sources)

    def sample(self, population, k):
        assert k == len(self.sources)
        return list(self.sources)


def check_exact(H, batch=64, **kw):
    G, nodes = engine_graph(H)
    for normalized, endpoints in FLAGS:
        got = asnumpy(bc(G, normalized=normalized, endpoints=endpoints, batch=batch, **kw).to_dense())
        want = as_list(nx.betweenness_centrality(H, normalized=normalized, endpoints=endpoints), nodes)
        np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-12)


def check_sampled(H, sources, batch=64):
    """The engine with these sources (node labels) equals networkx's k-sample with the same sources."""
    G, nodes = engine_graph(H)
    index = {v: i for i, v in enumerate(nodes)}
    for normalized, endpoints in FLAGS:
        got = bc(G, sources=[index[v] for v in sources], normalized=normalized, endpoints=endpoints, batch=batch)
        want = nx.betweenness_centrality(H, k=len(sources), seed=FixedSample(sources), normalized=normalized,
                                         endpoints=endpoints)
        np.testing.assert_allclose(asnumpy(got.to_dense()), as_list(want, nodes), rtol=1e-9, atol=1e-12,
                                   equal_nan=True)


# ---------------------------------------------------------------------------------------------
# small cases written out
# ---------------------------------------------------------------------------------------------

def test_paths_and_stars_written_out():
    P3 = sr.Matrix.from_coo([0, 1, 1, 2], [1, 0, 2, 1], nrows=3, ncols=3)
    assert bc(P3, normalized=False).to_dense().tolist() == [0.0, 1.0, 0.0]
    assert bc(P3, normalized=False, endpoints=True).to_dense().tolist() == [2.0, 3.0, 2.0]
    # the same pattern counted as directed (both arcs): ordered pairs, no halving
    assert bc(sr.algorithms.Graph(P3, kind="directed"), normalized=False).to_dense().tolist() == [0.0, 2.0, 0.0]
    # a directed path 0 -> 1 -> 2: one pair (0, 2) through 1; normalized by (n-1)(n-2) = 2
    D = sr.Matrix.from_coo([0, 1], [1, 2], nrows=3, ncols=3)
    assert bc(D, normalized=False).to_dense().tolist() == [0.0, 1.0, 0.0]
    assert bc(D).to_dense().tolist() == [0.0, 0.5, 0.0]
    # star with centre 0 and 4 leaves: the centre lies on all 6 leaf pairs
    S = sr.Matrix.from_coo([0] * 4 + [1, 2, 3, 4], [1, 2, 3, 4] + [0] * 4, nrows=5, ncols=5)
    assert bc(S, normalized=False).to_dense().tolist() == [6.0, 0.0, 0.0, 0.0, 0.0]
    assert bc(S).to_dense().tolist() == [1.0, 0.0, 0.0, 0.0, 0.0]
    # two shortest paths 0-1-3 and 0-2-3 in a square: 1 and 2 each carry half of the pair (0, 3)
    C4 = sr.Matrix.from_coo([0, 1, 1, 3, 3, 2, 2, 0], [1, 0, 3, 1, 2, 3, 0, 2], nrows=4, ncols=4)
    assert bc(C4, normalized=False).to_dense().tolist() == [0.5, 0.5, 0.5, 0.5]


def test_small_and_degenerate_graphs():
    for n in (0, 1, 2):
        got = bc(sr.Matrix(n, n, "bool"))
        assert got.size == n and got.nvals == n and got.dtype == np.float64
        assert got.to_dense().tolist() == [0.0] * n
    for H in (nx.empty_graph(4), nx.path_graph(2), nx.complete_graph(5), nx.DiGraph([(0, 1)])):
        check_exact(H)


def test_values_self_loops_and_explicit_zeros_are_ignored():
    H = nx.cycle_graph(6)
    G, nodes = engine_graph(H)
    r, c, _ = G.A.to_coo()
    # the same graph with weights (zeros, negatives, NaN) and self-loops
    vals = np.where(r % 2 == 0, 0.0, np.nan)
    A = sr.Matrix.from_coo(np.concatenate([r, [0, 3]]), np.concatenate([c, [0, 3]]),
                           np.concatenate([vals, [-1.0, 7.0]]), nrows=6, ncols=6)
    want = as_list(nx.betweenness_centrality(H), nodes)
    np.testing.assert_allclose(bc(A).to_dense(), want, rtol=1e-12)


def test_disconnected_and_directed_graphs():
    H = nx.Graph()
    nx.add_path(H, [0, 1, 2])
    nx.add_path(H, [3, 4, 5, 6])
    H.add_node(7)
    check_exact(H)
    D = nx.DiGraph([(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (5, 4)])
    check_exact(D, batch=2)


def test_bad_inputs_raise():
    A = sr.Matrix.from_coo([0, 1], [1, 2], nrows=3, ncols=3)
    with pytest.raises(sr.DimensionMismatch, match="square"):
        bc(sr.Matrix(3, 4, "bool"))
    with pytest.raises(sr.InvalidValue, match="expected a Matrix or Graph"):
        bc(np.eye(3))
    with pytest.raises(sr.InvalidValue, match="at least one vertex"):
        bc(A, sources=[])
    with pytest.raises(sr.InvalidValue, match="distinct; vertex 1 appears more than once"):
        bc(A, sources=[1, 0, 1])
    with pytest.raises(sr.IndexOutOfBound, match=r"vertices in 0..2; given 3"):
        bc(A, sources=[0, 3])
    with pytest.raises(sr.IndexOutOfBound, match="given -1"):
        bc(A, sources=[-1])
    with pytest.raises(sr.InvalidValue, match="integer vertex indices"):
        bc(A, sources=[0.5])
    with pytest.raises(sr.InvalidValue, match="integer vertex indices"):
        bc(A, sources=[[0, 1]])
    for batch in (0, -2, 1.5, True, "8"):
        with pytest.raises(sr.InvalidValue, match="batch must be an integer >= 1"):
            bc(A, batch=batch)


def test_scale_factors_match_networkx_rescale():
    """The scaling table against networkx's own ``_rescale`` (its private helper) on unit sums."""
    from networkx.algorithms.centrality.betweenness import _rescale

    for n in (1, 2, 3, 7):
        for normalized, endpoints in FLAGS:
            for directed in (False, True):
                for k in (None, 1, 2, n):
                    if k is not None and k > n:
                        continue
                    sampled = None if k is None else list(range(k))
                    ones = _rescale(dict.fromkeys(range(n), 1.0), n, normalized=normalized, directed=directed,
                                    endpoints=endpoints, sampled_nodes=sampled)
                    s_src, s_other = centrality_module.scale_factors(n, normalized=normalized, directed=directed,
                                                                     endpoints=endpoints, k=k)
                    want = [1.0 if s_src is None else (s_src if sampled and v in sampled else s_other)
                            for v in range(n)]
                    np.testing.assert_allclose(list(ones.values()), want, rtol=1e-15, equal_nan=True)


def test_docstring_examples():
    result = doctest.testmod(centrality_module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 1 and result.failed == 0


# ---------------------------------------------------------------------------------------------
# random and generated graphs against networkx
# ---------------------------------------------------------------------------------------------

@st.composite
def nx_graphs(draw):
    n = draw(st.integers(1, 16))
    m = draw(st.integers(0, 3 * n))
    edges = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), min_size=m, max_size=m))
    H = nx.DiGraph() if draw(st.booleans()) else nx.Graph()
    H.add_nodes_from(draw(st.permutations(range(n))))  # node order differs from labels
    H.add_edges_from(edges)
    return H


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(H=nx_graphs(), batch=st.sampled_from([1, 3, 64]))
def test_random_graphs_match_networkx(H, batch):
    check_exact(H, batch=batch)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(H=nx_graphs(), data=st.data())
def test_random_sources_match_networkx_sampling(H, data):
    k = data.draw(st.integers(1, len(H)))
    sources = data.draw(st.permutations(list(H)))[:k]
    check_sampled(H, sources, batch=data.draw(st.sampled_from([1, 2, 64])))


@pytest.mark.parametrize("seed", [0, 1, 42])
@pytest.mark.parametrize("directed", [False, True])
def test_k_sampling_reproduces_networkx_seed(seed, directed):
    """networkx draws k sources by random.Random(seed).sample(list(G), k): the same list gives its answer."""
    H = nx.gnp_random_graph(40, 0.08, seed=seed, directed=directed)
    G, nodes = engine_graph(H)
    for k in (1, 5, 39):
        sources = random.Random(seed).sample(list(H), k)
        for normalized, endpoints in FLAGS:
            want = nx.betweenness_centrality(H, k=k, seed=seed, normalized=normalized, endpoints=endpoints)
            got = bc(G, sources=sources, normalized=normalized, endpoints=endpoints)
            np.testing.assert_allclose(got.to_dense(), as_list(want, nodes), rtol=1e-9, atol=1e-12, equal_nan=True)
            if k == 1 and not endpoints:
                assert math.isnan(got.to_dense()[sources[0]])  # networkx's 0/0 at the only source


def test_all_vertices_as_sources_is_exact():
    H = nx.les_miserables_graph()
    G, nodes = engine_graph(H)
    perm = np.random.default_rng(0).permutation(len(nodes))
    for normalized, endpoints in FLAGS:
        a = bc(G, normalized=normalized, endpoints=endpoints, batch=17).to_dense()
        b = bc(G, sources=perm, normalized=normalized, endpoints=endpoints).to_dense()
        np.testing.assert_allclose(a, b, rtol=1e-12)
    check_exact(H, batch=17)


def _oriented(A, seed):
    r, c, _ = A.to_coo()
    keep = r < c
    flip = np.random.default_rng(seed).random(keep.sum()) < 0.5
    r, c = r[keep], c[keep]
    return sr.Matrix.from_coo(np.where(flip, c, r), np.where(flip, r, c), nrows=A.nrows, ncols=A.ncols)


GENERATED = {
    "kronecker8": lambda: sr.generators.kronecker(8, seed=3),
    "grid_12x15": lambda: sr.generators.grid(12, 15),
    "rgg_300": lambda: sr.generators.random_geometric(300, radius=0.08, seed=2),
    "kronecker8_directed": lambda: _oriented(sr.generators.kronecker(8, seed=4), 4),
}


def _nx_of(A):
    S = A.to_scipy()
    directed = (S != S.T).nnz > 0
    return nx.from_scipy_sparse_array(S, create_using=nx.DiGraph if directed else nx.Graph)


@pytest.mark.parametrize("name", sorted(GENERATED))
def test_generated_graphs_match_networkx(name):
    A = GENERATED[name]()
    H = _nx_of(A)
    got = bc(A, batch=40).to_dense()
    want = nx.betweenness_centrality(H)
    np.testing.assert_allclose(got, [want[i] for i in range(A.nrows)], rtol=1e-9, atol=1e-12)


@pytest.mark.data
def test_karate_club(shared_data):
    A = sr.io.read(shared_data / "small/lagraph/karate.mtx")
    H = nx.from_scipy_sparse_array(A.to_scipy())
    for normalized, endpoints in FLAGS:
        got = bc(A, normalized=normalized, endpoints=endpoints).to_dense()
        want = nx.betweenness_centrality(H, normalized=normalized, endpoints=endpoints)
        np.testing.assert_allclose(got, [want[i] for i in range(34)], rtol=1e-12, atol=1e-14)
    # the known leaders: vertex 0 (the instructor) first, 33 (the administrator) second
    order = np.argsort(-bc(A).to_dense())
    assert order[:2].tolist() == [0, 33]


# ---------------------------------------------------------------------------------------------
# CPU / GPU parity (one body)
# ---------------------------------------------------------------------------------------------

@pytest.mark.gpu
@pytest.mark.parametrize("name", sorted(GENERATED))
def test_betweenness_on_gpu_matches_cpu(name):
    from _devices import same

    A = GENERATED[name]()
    for normalized, endpoints in FLAGS:
        cpu = bc(A, normalized=normalized, endpoints=endpoints, batch=32)
        dev = bc(A.to("gpu"), normalized=normalized, endpoints=endpoints, batch=32)
        same(cpu, dev)
    src = [5, 0, 77]
    same(bc(A, sources=src), bc(A.to("gpu"), sources=src))
    H = _nx_of(A)
    want = nx.betweenness_centrality(H)
    np.testing.assert_allclose(asnumpy(bc(A.to("gpu")).to_dense()), [want[i] for i in range(A.nrows)],
                               rtol=1e-9, atol=1e-12)
