"""The device-resident (fused) GPU engines against the algebra engine, scipy and the validators:
BFS (one persistent kernel, direction-optimizing), and the same on graphs built to stress its
load balancing (hubs split into chunks) and its level loop (long paths). Marked ``gpu``.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as csgraph
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import semiring as sr
from semiring.backends._xp import asnumpy
from semiring.testing.validate import check_bfs

gpu = pytest.mark.gpu


def _scipy_levels(A, s):
    S = A.to_scipy() if hasattr(A, "to_scipy") else A
    d = csgraph.shortest_path(sp.csr_array(S, dtype=np.float64), unweighted=True, indices=s, directed=True)
    return np.where(np.isinf(d), -1, d).astype(np.int64)


def _levels(r):
    return asnumpy(r.level.to_dense(-1))


def _graph(n, edges):
    u, v = (np.asarray(t, dtype=np.int64) for t in zip(*edges)) if edges else (np.zeros(0, int),) * 2
    return sr.Matrix.from_coo(u, v, None, nrows=n, ncols=n, dtype="bool", dup_op=sr.binary.lor)


@st.composite
def digraphs(draw):
    n = draw(st.integers(1, 60))
    m = draw(st.integers(0, 4 * n))
    edges = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), min_size=m, max_size=m))
    sym = draw(st.booleans())
    if sym:
        edges = edges + [(b, a) for a, b in edges]
    return n, edges, draw(st.integers(0, n - 1))


@gpu
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=digraphs(), direction=st.sampled_from(["auto", "push", "pull"]), parents=st.booleans())
def test_fused_bfs_matches_scipy_on_random_digraphs(case, direction, parents):
    n, edges, s = case
    A = _graph(n, edges)
    r = sr.algorithms.bfs(A.to("gpu"), s, parents=parents, direction=direction, engine="fused")
    assert r.engine == "fused" and r.launches == (2 if parents else 1) and r.host_syncs == 1
    np.testing.assert_array_equal(_levels(r), _scipy_levels(A, s))
    assert r.level.nvals == int((_scipy_levels(A, s) >= 0).sum())
    check_bfs(A, s, r.level, r.parent if parents else None)
    alg = sr.algorithms.bfs(A.to("gpu"), s, direction=direction if direction != "auto" else "auto",
                            engine="algebra")
    assert [(t.frontier, t.discovered) for t in r.trace] == [(t.frontier, t.discovered) for t in alg.trace]
    assert r.depth == alg.depth


@gpu
@pytest.mark.parametrize("direction", ["auto", "push", "pull"])
def test_fused_bfs_splits_hubs_and_keeps_levels(direction):
    # a hub with 20000 leaves (10 chunks), the leaves chained to a second hub, and a long tail
    n = 40_000
    hub, hub2 = 0, 30_000
    edges = [(hub, i) for i in range(1, 20_001)] + [(i, hub2) for i in range(1, 20_001, 7)]
    edges += [(i, i + 1) for i in range(hub2, n - 1)]
    edges += [(b, a) for a, b in edges]
    A = _graph(n, edges)
    for s in (hub, 5, n - 1):
        r = sr.algorithms.bfs(A.to("gpu"), s, parents=True, direction=direction, engine="fused")
        np.testing.assert_array_equal(_levels(r), _scipy_levels(A, s))
        check_bfs(A, s, r.level, r.parent)


@gpu
def test_fused_bfs_on_a_path_runs_every_level_on_the_device():
    n = 20_000
    A = _graph(n, [(i, i + 1) for i in range(n - 1)])
    r = sr.algorithms.bfs(A.to("gpu"), 0, parents=True)
    assert r.engine == "fused" and r.depth == n - 1 and r.host_syncs == 2
    np.testing.assert_array_equal(_levels(r), np.arange(n))
    check_bfs(A, 0, r.level, r.parent)


def _tail_core_tail(tail=60, scale=12):
    """A path of `tail` vertices into a Kronecker core (2^scale vertices) and out along another
    path: a long search whose frontier is small (the sub-grid), then large (the whole grid, pull),
    then small again."""
    K = sr.generators.kronecker(scale, seed=3).to_scipy().tocoo()
    core = 1 << scale
    deg = np.bincount(K.row, minlength=core)
    hub, far = int(np.argmax(deg)), int(np.flatnonzero(deg)[0])
    n = 2 * tail + core
    path1 = [(i, i + 1) for i in range(tail - 1)] + [(tail - 1, tail + hub)]
    path2 = [(tail + far, tail + core)] + [(tail + core + i, tail + core + i + 1) for i in range(tail - 1)]
    edges = path1 + path2
    u = np.concatenate([[a for a, _ in edges], [b for _, b in edges], K.row + tail])
    v = np.concatenate([[b for _, b in edges], [a for a, _ in edges], K.col + tail])
    return sr.Matrix.from_coo(u, v, None, nrows=n, ncols=n, dtype="bool", dup_op=sr.binary.lor)


@gpu
@pytest.mark.parametrize("max_depth", [None, 20, 70])
def test_fused_bfs_long_search_in_and_out_of_the_sub_grid(monkeypatch, max_depth):
    from semiring.backends.gpu import traversal

    A = _tail_core_tail()
    G = sr.algorithms.Graph(A.to("gpu"), "undirected")
    f = sr.algorithms.bfs(G, 0, parents=True, max_depth=max_depth)
    a = sr.algorithms.bfs(G, 0, max_depth=max_depth, engine="algebra")
    assert f.engine == "fused"
    want = _scipy_levels(A, 0)
    if max_depth is not None:
        want[want > max_depth] = -1
    np.testing.assert_array_equal(_levels(f), want)
    np.testing.assert_array_equal(_levels(a), want)
    if max_depth is None:
        check_bfs(A, 0, f.level, f.parent)
        assert "pull" in {t.direction for t in f.trace}
    # the same decisions and counts, level by level, as the algebra engine and as the kernel
    # with the sub-grid turned off
    key = [(t.direction, t.frontier, t.discovered) for t in f.trace]
    assert key == [(t.direction, t.frontier, t.discovered) for t in a.trace]
    monkeypatch.setattr(traversal, "SUB_EDGES", 0)
    g = sr.algorithms.bfs(G, 0, parents=True, max_depth=max_depth)
    assert key == [(t.direction, t.frontier, t.discovered) for t in g.trace]
    np.testing.assert_array_equal(_levels(g), want)


@gpu
@pytest.mark.parametrize("max_depth", [0, 1, 3])
def test_fused_bfs_max_depth_matches_algebra(max_depth):
    A = sr.generators.kronecker(10)
    Ag = A.to("gpu")
    f = sr.algorithms.bfs(Ag, 3, max_depth=max_depth, engine="fused")
    a = sr.algorithms.bfs(Ag, 3, max_depth=max_depth, engine="algebra")
    np.testing.assert_array_equal(_levels(f), _levels(a))
    assert f.level.nvals == a.level.nvals


@gpu
@pytest.mark.parametrize("scale", [12, 16])
def test_fused_bfs_on_kronecker_matches_algebra_trace(scale):
    A = sr.generators.kronecker(scale)
    G = sr.algorithms.Graph(A.to("gpu"), "undirected")
    deg = np.diff(A.to_scipy().indptr)
    for s in np.random.default_rng(1).choice(np.flatnonzero(deg), 4, replace=False):
        f = sr.algorithms.bfs(G, int(s), parents=True)
        a = sr.algorithms.bfs(G, int(s), engine="algebra")
        np.testing.assert_array_equal(_levels(f), _levels(a))
        check_bfs(A, int(s), f.level, f.parent)
        # the same direction decisions, level by level (same counters, same rule)
        assert [t.direction for t in f.trace] == [t.direction for t in a.trace]
        assert "pull" in {t.direction for t in f.trace} or scale == 12


@gpu
def test_fused_bfs_refuses_what_it_cannot_do():
    A = sr.generators.kronecker(6)
    # on the CPU "fused" is the whole-search CPU engine: the same levels as the GPU's
    assert sr.algorithms.bfs(A, 0, engine="fused").level.isequal(sr.algorithms.bfs(A.to("gpu"), 0).level.to("cpu"))
    with pytest.raises(sr.InvalidValue, match="on the CPU"):
        sr.algorithms.coloring(A, engine="fused")
    with pytest.raises(sr.InvalidValue, match="edge"):
        sr.algorithms.bfs(A.to("gpu"), 0, engine="fused", direction="edge")
    with pytest.raises(sr.InvalidValue, match="engine must be one of"):
        sr.algorithms.bfs(A.to("gpu"), 0, engine="persistent")
    r = sr.algorithms.bfs(A.to("gpu"), 0, direction="edge")  # auto falls back to the algebra
    assert r.engine == "algebra"


def _scipy_dist(W, s):
    S = W.to_scipy()
    return csgraph.dijkstra(sp.csr_array(S, dtype=np.float64), indices=s, directed=True)


@st.composite
def weighted_digraphs(draw):
    n = draw(st.integers(1, 50))
    m = draw(st.integers(0, 5 * n))
    edges = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1), st.integers(0, 20)),
                          min_size=m, max_size=m))
    return n, edges, draw(st.integers(0, n - 1))


@gpu
@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=weighted_digraphs(), dtype=st.sampled_from(["int64", "int32", "float64", "float32"]),
       delta=st.sampled_from([None, 1, 3, 50]))
def test_fused_sssp_matches_dijkstra(case, dtype, delta):
    n, edges, s = case
    u, v, w = (np.array(t, dtype=np.int64) for t in zip(*edges)) if edges else (np.zeros(0, np.int64),) * 3
    W = sr.Matrix.from_coo(u, v, w.astype(dtype), nrows=n, ncols=n, dtype=dtype, dup_op=sr.binary.min)
    r = sr.algorithms.sssp(W.to("gpu"), s, method="delta_stepping", delta=delta, engine="fused")
    assert r.engine == "fused"
    expect = _scipy_dist(W, s)
    got = asnumpy(r.distance.to_dense(np.inf)).astype(np.float64)
    np.testing.assert_allclose(got, expect, rtol=1e-6)
    assert r.distance.nvals == int(np.isfinite(expect).sum())
    alg = sr.algorithms.sssp(W.to("gpu"), s, method="delta_stepping", delta=delta, engine="algebra")
    assert r.distance.dtype == alg.distance.dtype


@gpu
@pytest.mark.parametrize("weights", [(1, 255), (0.5, 100.0)])
def test_fused_sssp_on_kronecker_with_hubs(weights):
    from semiring.testing.validate import check_sssp

    W = sr.generators.kronecker(14, weights=weights)
    G = sr.algorithms.Graph(W.to("gpu"), "undirected")
    deg = np.diff(W.to_scipy().indptr)
    for s in (int(np.argmax(deg)), int(np.flatnonzero(deg)[7])):
        for delta in (None, 1, 10_000):
            r = sr.algorithms.sssp(G, s, delta=delta, parents=isinstance(weights[0], int))
            assert r.engine == "fused"
            np.testing.assert_allclose(asnumpy(r.distance.to_dense(np.inf)), _scipy_dist(W, s), rtol=1e-9)
            # the same distances, bit for bit, as the algebra engine on the same device
            a = sr.algorithms.sssp(G, s, delta=delta, engine="algebra")
            np.testing.assert_array_equal(asnumpy(r.distance.to_dense(np.inf)), asnumpy(a.distance.to_dense(np.inf)))
            check_sssp(W, s, r.distance, r.parent)


@gpu
def test_sssp_parents_with_float_weights_on_gpu():
    # the tight-edge test d(u) + W(u, v) == d(v) needs exact float64 min merges (see reduce.py)
    from semiring.testing.validate import check_sssp

    W = sr.generators.kronecker(14, weights=(0.5, 100.0))
    r = sr.algorithms.sssp(W.to("gpu"), 9, parents=True)
    check_sssp(W, 9, r.distance, r.parent)


@gpu
def test_fused_sssp_refuses_what_it_cannot_do():
    W = sr.generators.grid(4, 4, weights=(1, 9))
    with pytest.raises(sr.InvalidValue, match="method must be 'auto' or 'delta_stepping' with it on the GPU"):
        sr.algorithms.sssp(W.to("gpu"), 0, method="bellman_ford", engine="fused")
    with pytest.raises(sr.InvalidValue, match="engine must be one of"):
        sr.algorithms.sssp(W.to("gpu"), 0, engine="near_far")


def test_fused_engines_on_the_cpu():
    # BFS and SSSP have a whole-search CPU engine on both CPU backends; coloring's fused CPU
    # engine is a compiled loop, refused on a graph stored by the NumPy backend
    W = sr.generators.grid(4, 4, weights=(1, 9))
    fused = sr.algorithms.sssp(W, 0, engine="fused")
    algebra = sr.algorithms.sssp(W, 0, engine="algebra")
    assert (fused.engine, algebra.engine) == ("fused", "algebra")
    assert fused.distance.isequal(algebra.distance)
    with pytest.raises(sr.InvalidValue, match="on the CPU as a compiled loop.*given a graph on the NumPy backend"):
        sr.algorithms.coloring(W.to("cpu", backend="numpy"), engine="fused")


@gpu
@pytest.mark.parametrize("make", [lambda: sr.generators.random_geometric(3000, seed=2),
                                  lambda: sr.generators.kronecker(12),
                                  lambda: sr.generators.grid(30, 30)])
@pytest.mark.parametrize("seed", [0, 5])
def test_fused_coloring_equals_the_algebra_jones_plassmann(make, seed):
    from semiring.testing.validate import check_coloring

    A = make()
    fused = sr.algorithms.coloring(A.to("gpu"), seed=seed, engine="fused")
    check_coloring(A, fused)
    same = sr.algorithms.coloring(A, seed=seed, engine="algebra")  # the CPU algebra engine
    np.testing.assert_array_equal(asnumpy(fused.to_dense()), asnumpy(same.to_dense()))


@gpu
def test_fused_coloring_of_a_directed_graph_and_self_loops():
    from semiring.testing.validate import check_coloring

    A = sr.Matrix.from_coo([0, 1, 2, 2, 3], [1, 2, 0, 2, 3], None, nrows=5, ncols=5, dtype="bool")
    c = sr.algorithms.coloring(A.to("gpu"))
    check_coloring(A, c)
    np.testing.assert_array_equal(asnumpy(c.to_dense()), asnumpy(sr.algorithms.coloring(A).to_dense()))
