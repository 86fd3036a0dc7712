"""Connected components, spanning forests, Gebremedhin-Manne coloring, Floyd-Warshall and
betweenness on the device: equal to SciPy and to the CPU path on random graphs (Hypothesis), on
graphs large enough for the union-find hooks to race, and on the NY road network; connected
components read nothing back to the host.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.sparse import csgraph

import semiring as sr
from semiring.backends._xp import asnumpy

gpu = pytest.mark.gpu
alg = sr.algorithms


def _random(n, m, seed, symmetric, weights=None):
    rng = np.random.default_rng(seed)
    r, c = rng.integers(0, max(n, 1), m), rng.integers(0, max(n, 1), m)
    w = rng.integers(1, weights + 1, m).astype(np.float64) if weights else np.ones(m)
    S = sp.coo_matrix((w, (r, c)), shape=(n, n)).tocsr()
    S.sum_duplicates()
    if symmetric:
        S = S.maximum(S.T).tocsr()
    return sr.Matrix.from_scipy(S)


def _min_labels(S, connection="weak"):
    k, lab = csgraph.connected_components(S, directed=True, connection=connection)
    first = np.full(k, S.shape[0], dtype=np.int64)
    np.minimum.at(first, lab, np.arange(S.shape[0]))
    return first[lab]


def _cc_check(A):
    dev = alg.connected_components(A.to("gpu"))
    assert dev.nvals == A.nrows
    np.testing.assert_array_equal(asnumpy(dev.to_dense()), _min_labels(A.to_scipy().tocsr()))


@gpu
@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(n=st.integers(0, 300), density=st.floats(0, 3), seed=st.integers(0, 2**31), symmetric=st.booleans())
def test_components_random(n, density, seed, symmetric):
    _cc_check(_random(n, int(n * density), seed, symmetric))


@gpu
@pytest.mark.parametrize("name", ["kronecker14", "rgg", "path_reversed", "star", "grid_directed"])
def test_components_large(name):
    n = 50_000
    A = {"kronecker14": lambda: sr.generators.kronecker(14, seed=3),
         "rgg": lambda: sr.generators.random_geometric(40_000, radius=0.006, seed=1),
         # every hook climbs from a large root to a small one along one long chain
         "path_reversed": lambda: sr.Matrix.from_coo(np.arange(1, n), np.arange(n - 1), None, nrows=n, ncols=n),
         "star": lambda: sr.Matrix.from_coo(np.full(n - 1, n - 1), np.arange(n - 1), None, nrows=n, ncols=n),
         "grid_directed": lambda: sr.select(sr.generators.grid(200, 150), sr.indexunary.triu)}[name]()
    _cc_check(A)
    # the GPU labels stay on the device: no host read
    G = alg.Graph(A.to("gpu"), "directed")
    alg.connected_components(G)
    with sr.host_reads() as hr:
        alg.connected_components(G)
    assert hr.count == 0


def _forest_weight(F):
    return float(asnumpy(F.to_coo()[2]).sum()) / 2


@gpu
@settings(max_examples=30, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(n=st.integers(0, 200), density=st.floats(0, 4), seed=st.integers(0, 2**31), high=st.sampled_from([1, 2, 50]),
       method=st.sampled_from(["boruvka", "prim"]))
def test_forest_random_equals_cpu(n, density, seed, high, method):
    # few distinct weights: ties everywhere, broken by the edge index on both devices
    W = _random(n, int(n * density), seed, True, weights=high)
    cpu = alg.minimum_spanning_forest(W, method=method)
    dev = alg.minimum_spanning_forest(W.to("gpu"), method=method)
    from _devices import same

    same(cpu, dev)


@gpu
@pytest.mark.parametrize("high", [2, 255])
def test_forest_large_matches_scipy(high):
    A = sr.generators.kronecker(14, seed=5, weights=(1, high))
    dev = alg.minimum_spanning_forest(A.to("gpu"))
    S = A.to_scipy().tocsr()
    T = csgraph.minimum_spanning_tree(S)
    k, _ = csgraph.connected_components(S, directed=False)
    assert dev.nvals == 2 * (A.nrows - k)
    assert _forest_weight(dev) == pytest.approx(float(T.sum()))
    # a forest: as many components as the graph
    assert csgraph.connected_components(dev.to_scipy(), directed=False)[0] == k


@gpu
@pytest.mark.data
def test_ny_roads_on_device(shared_data):
    A = sr.io.read(shared_data / "roads/USA-road-t.NY.gr.gz")
    A = sr.ewise_add(A, sr.transpose(A), sr.binary.min)
    S = A.to_scipy().tocsr()
    G = alg.Graph(A.to("gpu"), "undirected")
    np.testing.assert_array_equal(asnumpy(alg.connected_components(G).to_dense()), _min_labels(S))
    F = alg.minimum_spanning_forest(G)
    assert F.nvals == 2 * (A.nrows - 1)
    assert _forest_weight(F) == pytest.approx(float(csgraph.minimum_spanning_tree(S).sum()))
    c = asnumpy(alg.coloring(G, method="gebremedhin_manne").to_dense())
    r, k = S.nonzero()
    off = r != k
    assert (c >= 0).all() and not (c[r[off]] == c[k[off]]).any()
    assert set(np.unique(c)) == set(range(int(c.max()) + 1))


@gpu
@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(n=st.integers(1, 400), density=st.floats(0.5, 8), seed=st.integers(0, 2**31),
       blocks=st.one_of(st.none(), st.integers(1, 40)))
def test_gebremedhin_manne_equals_algebra(n, density, seed, blocks):
    from _devices import same

    A = _random(n, int(n * density), seed, False)
    cpu = alg.coloring(A, method="gebremedhin_manne", seed=seed % 97, blocks=blocks)
    dev = alg.coloring(A.to("gpu"), method="gebremedhin_manne", seed=seed % 97, blocks=blocks)
    same(cpu, dev)


@gpu
@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(n=st.integers(0, 140), density=st.floats(0, 5), seed=st.integers(0, 2**31),
       kind=st.sampled_from(["float64", "int64", "bool"]))
def test_floyd_warshall_random(n, density, seed, kind):
    from _devices import same

    A = _random(n, int(n * density), seed, False, weights=9)
    A = A.dup(kind)
    same(alg.floyd_warshall(A), alg.floyd_warshall(A.to("gpu")))


@gpu
@settings(max_examples=30, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(n=st.integers(1, 200), density=st.floats(0, 4), seed=st.integers(0, 2**31), symmetric=st.booleans(),
       endpoints=st.booleans(), normalized=st.booleans(), batch=st.sampled_from([1, 7, 32, 40]),
       sampled=st.booleans())
def test_betweenness_equals_cpu(n, density, seed, symmetric, endpoints, normalized, batch, sampled):
    A = _random(n, int(n * density), seed, symmetric)
    src = None
    if sampled:
        src = np.random.default_rng(seed).permutation(n)[: max(1, n // 3)]
    cpu = alg.betweenness_centrality(A, sources=src, endpoints=endpoints, normalized=normalized, batch=batch)
    dev = alg.betweenness_centrality(A.to("gpu"), sources=src, endpoints=endpoints, normalized=normalized,
                                     batch=batch)
    assert dev.device == "gpu" and dev.nvals == n
    np.testing.assert_allclose(asnumpy(dev.to_dense()), cpu.to_dense(), rtol=1e-9, atol=1e-12, equal_nan=True)


@gpu
def test_betweenness_kronecker_matches_cpu():
    A = sr.generators.kronecker(12, seed=1)
    src = np.arange(0, 4096, 256)
    cpu = alg.betweenness_centrality(A, sources=src)
    dev = alg.betweenness_centrality(A.to("gpu"), sources=src)
    np.testing.assert_allclose(asnumpy(dev.to_dense()), cpu.to_dense(), rtol=1e-9, atol=1e-12)


@gpu
@pytest.mark.parametrize("dtype", ["float32", "int64", "int8", "uint8", "bool", "float64"])
def test_forest_dtypes_and_signed_zeros(dtype):
    from _devices import same

    rng = np.random.default_rng(11)
    n = 300
    W = _random(n, 1500, 7, True, weights=3)
    r, c, w = W.to_coo()
    if dtype == "bool":
        v = np.ones(r.size, dtype=bool)
    elif dtype[0] == "u":
        v = w.astype(dtype)
    else:
        # negative weights, explicit zeros and (for floats) -0.0 beside 0.0, symmetric
        sign = np.where((np.minimum(r, c) * 31 + np.maximum(r, c)) % 3 == 0, -1, 1)
        v = (sign * (w - 1)).astype(dtype)
        if dtype[0] == "f":
            v = np.where(v == 0, np.where((r + c) % 2 == 0, -0.0, 0.0), v).astype(dtype)
    A = sr.Matrix.from_coo(r, c, v, nrows=n, ncols=n, dtype=dtype)
    for method in ("boruvka", "prim"):
        same(alg.minimum_spanning_forest(A, method=method), alg.minimum_spanning_forest(A.to("gpu"), method=method))


@gpu
def test_batched_bfs_many_batches_equals_cpu():
    from _devices import same

    A = sr.select(sr.generators.kronecker(10, seed=4), sr.indexunary.triu)  # directed: i -> j, i < j
    src = np.r_[np.arange(0, 1024, 5), [7, 7]]  # 207 sources in four batches, one repeated
    same(alg.all_pairs_shortest_paths(A, method="batched_bfs", sources=src),
         alg.all_pairs_shortest_paths(A.to("gpu"), method="batched_bfs", sources=src))
