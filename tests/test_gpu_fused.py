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
    assert r.engine == "fused" and r.launches >= 3 and r.host_syncs <= 2
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
    with pytest.raises(sr.InvalidValue, match="on the CPU"):
        sr.algorithms.bfs(A, 0, engine="fused")
    with pytest.raises(sr.InvalidValue, match="edge"):
        sr.algorithms.bfs(A.to("gpu"), 0, engine="fused", direction="edge")
    with pytest.raises(sr.InvalidValue, match="engine must be one of"):
        sr.algorithms.bfs(A.to("gpu"), 0, engine="persistent")
    r = sr.algorithms.bfs(A.to("gpu"), 0, direction="edge")  # auto falls back to the algebra
    assert r.engine == "algebra"
