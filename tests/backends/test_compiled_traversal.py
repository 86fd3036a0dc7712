"""The compiled CPU BFS and SSSP loops (``semiring.backends.cpu.compiled_traversal`` and
``.compiled_paths``): ``engine="fused"`` on the CPU where compiled loops are enabled (the graph
stored by SuiteSparse, numba importable).

Oracles: the NumPy whole-search engines (``semiring.backends.cpu.traversal`` and ``.paths``,
the reference), which must give the same levels, trace, deterministic parents and distances (bit
for bit); ``scipy.sparse.csgraph`` (hop counts, Dijkstra, Bellman-Ford); the LAGraph / Graph500
checks of ``semiring.testing.validate``; the New York roads and cnr-2000 graphs of
../shared/data. On the NumPy backend the compiled loops never run.
"""

from __future__ import annotations

from unittest import mock

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.sparse import csgraph

import semiring as sr
from semiring.algorithms import engines
from semiring.backends.cpu import _jit
from semiring.backends.cpu import compiled_paths as cpaths
from semiring.backends.cpu import compiled_traversal as ctrav
from semiring.backends.cpu import paths as npaths
from semiring.backends.cpu import traversal as ntrav
from semiring.testing.validate import check_bfs, check_sssp

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])
DIRECTIONS = ("auto", "push", "pull")


def ss(A):
    return A.to("cpu", backend="suitesparse")


def np_backend(A):
    return A.to("cpu", backend="numpy")


@st.composite
def graphs(draw, weights=st.integers(1, 9), max_n=40):
    """(n, rows, cols, weights, source): directed or undirected, isolated vertices, self-loops,
    several components, the empty graph; parallel edges collapsed to their smallest weight."""
    n = draw(st.integers(1, max_n))
    active = draw(st.integers(1, n))
    m = draw(st.integers(0, 4 * active))
    r = np.array(draw(st.lists(st.integers(0, active - 1), min_size=m, max_size=m)), dtype=np.int64)
    c = np.array(draw(st.lists(st.integers(0, active - 1), min_size=m, max_size=m)), dtype=np.int64)
    w = np.array(draw(st.lists(weights, min_size=m, max_size=m)), dtype=np.float64)
    perm = np.array(draw(st.permutations(range(n))), dtype=np.int64)
    r, c = perm[r], perm[c]
    if draw(st.booleans()):  # undirected: both directions, the same weight
        r, c, w = np.r_[r, c], np.r_[c, r], np.r_[w, w]
    if r.size:
        order = np.lexsort((w, c, r))
        r, c, w = r[order], c[order], w[order]
        first = np.r_[True, (r[1:] != r[:-1]) | (c[1:] != c[:-1])]
        r, c, w = r[first], c[first], w[first]
    return n, r, c, w, draw(st.integers(0, n - 1))


def pattern(n, r, c):
    """The bool pattern, on the NumPy backend (the reference)."""
    return sr.Matrix.from_coo(r, c, None, nrows=n, ncols=n, dtype="bool", backend="numpy")


def weighted(n, r, c, w, dtype):
    return sr.Matrix.from_coo(r, c, w, nrows=n, ncols=n, dtype=dtype, backend="numpy")


def scipy_hops(n, r, c, s):
    S = sp.csr_matrix((np.ones(r.size), (r, c)), shape=(n, n))
    d = csgraph.shortest_path(S, method="D", unweighted=True, indices=s)
    return np.where(np.isfinite(d), d, -1).astype(np.int64)


def csr(n, r, c, w=None):
    """int64 CSR arrays (sorted indices) of the edges, and the weights when given."""
    S = sp.csr_array((np.ones(r.size) if w is None else w, (r, c)), shape=(n, n))
    S.sort_indices()
    out = (S.indptr.astype(np.int64), S.indices.astype(np.int64))
    return out if w is None else out + (S.data,)


def spy(module, name):
    """A mock wrapping ``module.name`` (counts its calls, returns what it returns)."""
    return mock.patch.object(module, name, wraps=getattr(module, name))


# -- BFS ------------------------------------------------------------------------------------------

@pytest.mark.suitesparse
@SETTINGS
@given(g=graphs(), direction=st.sampled_from(DIRECTIONS), det=st.booleans(),
       max_depth=st.one_of(st.none(), st.integers(0, 5)))
def test_bfs_compiled_equals_the_numpy_engine(g, direction, det, max_depth):
    n, r, c, _, s = g
    A = pattern(n, r, c)
    with spy(ctrav, "bfs") as compiled:
        got = sr.algorithms.bfs(ss(A), s, parents=True, deterministic=det, direction=direction,
                                max_depth=max_depth, engine="fused")
    assert compiled.call_count == 1 and got.engine == "fused"
    ref = sr.algorithms.bfs(A, s, parents=True, deterministic=det, direction=direction, max_depth=max_depth,
                            engine="fused")
    want = scipy_hops(n, r, c, s)
    if max_depth is not None:
        want = np.where(want <= max_depth, want, -1)
    np.testing.assert_array_equal(got.level.to_dense(-1), want)
    assert got.level.isequal(ref.level, check_dtype=True) and got.trace == ref.trace
    assert got.parent.nvals == got.level.nvals
    if det:  # the smallest parent on the previous level, both engines
        assert got.parent.isequal(ref.parent, check_dtype=True)
    lv, pa = got.level.to_dense(-1), got.parent.to_dense(-1)
    edges = set(zip(r.tolist(), c.tolist()))
    assert pa[s] == s
    for v in np.flatnonzero(lv > 0).tolist():  # one level up, along an edge
        assert (int(pa[v]), v) in edges and lv[pa[v]] == lv[v] - 1
    if max_depth is None:
        assert check_bfs(A, s, got.level, got.parent) == int((want >= 0).sum())


@pytest.mark.suitesparse
@SETTINGS
@given(g=graphs(max_n=60), alpha=st.sampled_from([0.5, 2.0, 15.0, 1e6]), beta=st.sampled_from([1.0, 4.0, 18.0]),
       parents=st.booleans())
def test_bfs_loop_directions_and_in_edges_requests(g, alpha, beta, parents):
    """The compiled loop against the NumPy loop on CSR arrays with Beamer thresholds that switch
    often; A^T is asked for once, before the first pull level, and never by a push-only search."""
    n, r, c, _, s = g
    optr, oidx = csr(n, r, c)
    tptr, tidx = csr(n, c, r)
    narrow = ctrav.narrow(optr, oidx)
    assert [a.dtype for a in narrow] == [np.int32, np.int32]
    np.testing.assert_array_equal(narrow[0], optr)
    np.testing.assert_array_equal(narrow[1], oidx)
    for direction in DIRECTIONS:
        # int32 indices (as the algorithm passes them) and int64 ones: the same search
        a = ctrav.bfs(*narrow, s, in_edges=lambda: ctrav.narrow(tptr, tidx), parents=True, direction=direction,
                      deterministic=True, alpha=alpha, beta=beta)
        b = ctrav.bfs(optr, oidx, s, in_edges=lambda: (tptr, tidx), parents=True, direction=direction,
                      deterministic=True, alpha=alpha, beta=beta)
        for x, y in zip((a.level, a.present, a.parent) + a.trace, (b.level, b.present, b.parent) + b.trace):
            np.testing.assert_array_equal(x, y)
            assert x.dtype == y.dtype
        asked = []

        def in_edges():
            asked.append(1)
            return tptr, tidx

        got = ctrav.bfs(optr, oidx, s, in_edges=in_edges, parents=parents, deterministic=True, direction=direction,
                        alpha=alpha, beta=beta)
        ref = ntrav.bfs(optr, oidx, s, in_edges=lambda: (tptr, tidx), parents=parents, deterministic=True,
                        direction=direction, alpha=alpha, beta=beta)
        np.testing.assert_array_equal(got.level, ref.level)
        np.testing.assert_array_equal(got.present, ref.present)
        assert got.nvals == ref.nvals == int(ref.present.sum())
        for a, b in zip(got.trace, ref.trace):
            np.testing.assert_array_equal(a, b)
            assert a.dtype == b.dtype
        if parents:
            np.testing.assert_array_equal(got.parent, ref.parent)
        else:
            assert got.parent is None
        pulls = int((got.trace[0] == 1).sum())
        assert len(asked) == (1 if pulls else 0)
        if direction == "push":
            assert not asked


@pytest.mark.suitesparse
@pytest.mark.parametrize("shape", ["path", "undirected path", "cycle", "star"])
def test_bfs_deep_and_wide_graphs(shape):
    n = 5000
    a = np.arange(n - 1)
    r, c = {"path": (a, a + 1), "undirected path": (np.r_[a, a + 1], np.r_[a + 1, a]),
            "cycle": (np.r_[a, n - 1], np.r_[a + 1, 0]),
            "star": (np.r_[np.zeros(n - 1, int), a + 1], np.r_[a + 1, np.zeros(n - 1, int)])}[shape]
    A = pattern(n, r, c)
    s = 0 if shape == "star" else n // 4
    want = scipy_hops(n, r, c, s)
    for direction in DIRECTIONS:
        got = sr.algorithms.bfs(ss(A), s, parents=True, direction=direction, engine="fused")
        ref = sr.algorithms.bfs(A, s, parents=True, direction=direction, engine="fused")
        np.testing.assert_array_equal(got.level.to_dense(-1), want)
        assert got.trace == ref.trace and got.depth == want.max()
        check_bfs(A, s, got.level, got.parent)
    cut = sr.algorithms.bfs(ss(A), s, max_depth=7, engine="fused")
    np.testing.assert_array_equal(cut.level.to_dense(-1), np.where(want <= 7, want, -1))
    assert len(cut.trace) == min(7, want.max() + 1)


@pytest.mark.suitesparse
def test_bfs_single_vertex_and_empty_graph():
    for r, c in (([], []), ([0], [0])):
        A = pattern(1, np.array(r, dtype=np.int64), np.array(c, dtype=np.int64))
        for direction in DIRECTIONS:
            got = sr.algorithms.bfs(ss(A), 0, parents=True, direction=direction, engine="fused")
            assert got.level.to_dense(-1).tolist() == [0] and got.parent.to_dense(-1).tolist() == [0]
            assert [(t.frontier, t.discovered) for t in got.trace] == [(1, 0)]
        zero = sr.algorithms.bfs(ss(A), 0, max_depth=0, engine="fused")
        assert zero.level.to_dense(-1).tolist() == [0] and len(zero.trace) == 0


@pytest.mark.suitesparse
def test_bfs_directed_graph_pulls_along_in_edges():
    """A directed graph whose first level pulls: the in-edges are A^T, not A."""
    n = 300
    rng = np.random.default_rng(7)
    r = np.r_[np.zeros(200, int), rng.integers(1, n, 600)]
    c = np.r_[np.arange(1, 201), rng.integers(1, n, 600)]
    A = pattern(n, r, c)
    G = sr.algorithms.Graph(ss(A))
    got = sr.algorithms.bfs(G, 0, parents=True, deterministic=True)
    assert got.engine == "fused" and "pull" in got.trace.directions
    ref = sr.algorithms.bfs(A, 0, parents=True, deterministic=True, engine="fused")
    assert got.level.isequal(ref.level) and got.parent.isequal(ref.parent) and got.trace == ref.trace
    np.testing.assert_array_equal(got.level.to_dense(-1), scipy_hops(n, r, c, 0))


# -- SSSP -----------------------------------------------------------------------------------------

@pytest.mark.suitesparse
@SETTINGS
@given(g=graphs(weights=st.integers(0, 64).map(lambda k: k / 8)), method=st.sampled_from(["auto", "bellman_ford"]),
       delta=st.sampled_from([None, 1e-9, 0.125, 1.0, 3.0, 1e6]), integer=st.booleans())
def test_sssp_compiled_equals_the_numpy_engine(g, method, delta, integer):
    n, r, c, w, s = g
    if integer:
        w = np.ceil(w)
    A = weighted(n, r, c, w, "int64" if integer else "float64")
    name = "delta_stepping" if method == "auto" else "bellman_ford"
    with spy(cpaths, name) as compiled:
        got = sr.algorithms.sssp(ss(A), s, method=method, delta=delta, parents=True, engine="fused")
    assert compiled.call_count == 1 and got.engine == "fused"
    ref = sr.algorithms.sssp(A, s, method=method, delta=delta, parents=True, engine="fused")
    assert got.distance.isequal(ref.distance, check_dtype=True) and got.delta == ref.delta
    assert got.parent.isequal(ref.parent, check_dtype=True)
    S = sp.csr_matrix((w, (r, c)), shape=(n, n))  # explicit zeros kept: a zero-length edge
    want = csgraph.dijkstra(S, indices=s) if not (w == 0).any() else None
    if want is not None:
        np.testing.assert_array_equal(got.distance.to_dense(np.inf), want)
    check_sssp(A, s, got.distance, got.parent)


def _random_csr(rng, n, m, weights):
    r, c = rng.integers(0, n, m), rng.integers(0, n, m)
    S = sp.csr_array((weights(m), (r, c)), shape=(n, n))
    S.sum_duplicates()
    S.sort_indices()
    return S.indptr.astype(np.int64), S.indices.astype(np.int64), S.data


@pytest.mark.suitesparse
@pytest.mark.parametrize("seed", range(6))
def test_delta_stepping_loop_window_heap_and_clamped_buckets(seed):
    """Every way the loop keeps its buckets gives the NumPy engine's distances: the window (wmax
    given), the heap (wmax unknown, or a span over WINDOW_MAX buckets) and a window too narrow
    for the weights (wmax given as 0: bucket numbers past its end are lowered to its last slot)."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 400))
    scale = [1e-3, 1.0, 1e9][seed % 3]
    for kind in ("int", "float"):
        if kind == "int":
            ip, ix, w = _random_csr(rng, n, 4 * n, lambda m: rng.integers(0, 1000, m).astype(np.int64))
            deltas = [1, 7, 100, 5000]
        else:
            ip, ix, w = _random_csr(rng, n, 4 * n, lambda m: rng.random(m) * scale)
            deltas = [scale * 1e-7, scale * 0.01, scale * 0.3, scale * 5]
        s = int(rng.integers(0, n))
        want = csgraph.dijkstra(sp.csr_array((w.astype(np.float64) + 0.0, ix, ip), shape=(n, n)), indices=s) \
            if (w > 0).all() else None
        wmax = w.max() if w.size else 0
        for delta in deltas:
            ref = npaths.delta_stepping(*npaths.split(ip, ix, w, delta), s, delta, wmax)
            parts = cpaths.partition(ip, ix, w, delta)
            wide = tuple(a.astype(np.int64) for a in parts[:3]) + parts[3:]  # the int64 form of huge graphs
            for bound in (wmax, None, 0):
                for form in (parts, wide):
                    got = cpaths.delta_stepping(form, s, delta, bound)
                    assert got.dist.dtype == ref.dist.dtype
                    np.testing.assert_array_equal(got.dist, ref.dist, err_msg=f"{kind} delta={delta} wmax={bound}")
            if want is not None:
                np.testing.assert_array_equal(np.where(got.dist == npaths.unreached(w.dtype), np.inf, got.dist), want)


@pytest.mark.suitesparse
@pytest.mark.parametrize("seed", range(4))
def test_delta_stepping_settles_buckets_in_order(seed):
    """With every weight above delta a bucket has no light edges: its vertices are final when it
    is reached (their distances come from earlier buckets), so each non-empty bucket is taken
    once and runs one light round. ``rounds`` is then the number of distinct buckets of the
    distances, for the window and the heap alike; a bucket taken out of order costs more."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(50, 300))
    for kind, delta in (("int", 3), ("float", 0.75)):
        if kind == "int":
            ip, ix, w = _random_csr(rng, n, 3 * n, lambda m: rng.integers(4, 40, m).astype(np.int64))
        else:
            ip, ix, w = _random_csr(rng, n, 3 * n, lambda m: 0.76 + 10 * rng.random(m))
        parts = cpaths.partition(ip, ix, w, delta)
        s = int(rng.integers(0, n))
        for bound in (w.max(), None):
            got = cpaths.delta_stepping(parts, s, delta, bound)
            reached = got.dist[got.dist != npaths.unreached(w.dtype)]
            assert got.rounds == np.unique(reached // delta).shape[0]


@pytest.mark.suitesparse
def test_partition_puts_each_rows_light_edges_first():
    rng = np.random.default_rng(3)
    ip, ix, w = _random_csr(rng, 50, 400, lambda m: rng.integers(0, 20, m).astype(np.int64))
    ptr, mid, idx, pw = cpaths.partition(ip, ix, w, 9)
    assert (ptr.dtype, mid.dtype, idx.dtype, pw.dtype) == (np.int32, np.int32, np.int32, np.int64)
    np.testing.assert_array_equal(ptr, ip)
    for u in range(50):
        row = sorted(zip(ix[ip[u]:ip[u + 1]].tolist(), w[ip[u]:ip[u + 1]].tolist()))
        light = list(zip(idx[ptr[u]:mid[u]].tolist(), pw[ptr[u]:mid[u]].tolist()))
        heavy = list(zip(idx[mid[u]:ptr[u + 1]].tolist(), pw[mid[u]:ptr[u + 1]].tolist()))
        assert all(x <= 9 for _, x in light) and all(x > 9 for _, x in heavy)
        assert sorted(light + heavy) == row


@pytest.mark.suitesparse
def test_integer_candidates_beyond_int64_are_dropped():
    """Weights near 2**62 on a path: the third hop passes INT64_MAX (longer than any simple path
    the caller admits) and is dropped, as the NumPy engine drops it."""
    big = 2**62
    ip, ix, w = np.array([0, 1, 2, 3, 3]), np.array([1, 2, 3]), np.array([big, big - 1, big], dtype=np.int64)
    for delta in (1, big):
        ref = npaths.delta_stepping(*npaths.split(ip, ix, w, delta), 0, delta, big)
        got = cpaths.delta_stepping(cpaths.partition(ip, ix, w, delta), 0, delta, big)
        np.testing.assert_array_equal(got.dist, ref.dist)
        assert got.dist.tolist() == [0, big, 2 * big - 1, np.iinfo(np.int64).max]
    got = cpaths.bellman_ford(ip, ix, w, 0)
    assert got.dist.tolist() == [0, big, 2 * big - 1, np.iinfo(np.int64).max]


@pytest.mark.suitesparse
@SETTINGS
@given(g=graphs(weights=st.integers(-3, 9)), potentials=st.booleans(), integer=st.booleans())
def test_bellman_ford_negative_weights_and_cycles(g, potentials, integer):
    n, r, c, w, s = g
    if potentials:  # w + p(u) - p(v), w >= 0: negative weights, no negative cycle
        p = np.arange(n) % 5
        w = np.abs(w) + p[r] - p[c]
    A = weighted(n, r, c, w, "int64" if integer else "float64")
    try:
        ref = sr.algorithms.sssp(A, s, method="bellman_ford", engine="fused")
    except sr.NegativeCycleError:
        with pytest.raises(sr.NegativeCycleError, match=f"reachable from source {s}"):
            sr.algorithms.sssp(ss(A), s, method="bellman_ford", engine="fused")
        return
    got = sr.algorithms.sssp(ss(A), s, method="bellman_ford", engine="fused")
    assert got.distance.isequal(ref.distance, check_dtype=True)
    S = sp.csr_matrix((w, (r, c)), shape=(n, n))
    S.eliminate_zeros()
    if S.nnz == r.size:  # scipy reads explicit zeros as no edge
        np.testing.assert_array_equal(got.distance.to_dense(np.inf), csgraph.bellman_ford(S, indices=s))


@pytest.mark.suitesparse
def test_negative_cycle_messages():
    n = 1000
    a = np.arange(n - 1)
    r, c, w = np.r_[a, n - 1], np.r_[a + 1, 0], np.r_[np.ones(n - 1), -float(n)]
    for dtype in ("float64", "int64"):  # float weights: found in round n
        W = weighted(n, r, c, w, dtype)
        with pytest.raises(sr.NegativeCycleError, match="reachable from source 0") as e:
            sr.algorithms.sssp(ss(W), 0, engine="fused")
        if dtype == "float64":
            assert f"distances still fell in round {n}" in str(e.value)
        # the same cycle unreachable from the source (vertex n, isolated): no error
        U = weighted(n + 1, r, c, w, dtype)
        assert sr.algorithms.sssp(ss(U), n, engine="fused").distance.to_coo()[0].tolist() == [n]
    # integer weights with a floor: a distance below it proves a cycle before round n
    ip, ix, wt = np.r_[0, 1, 2, np.full(48, 2)], np.array([1, 0]), np.array([1, -3], dtype=np.int64)
    for engine in (cpaths, npaths):
        with pytest.raises(sr.NegativeCycleError, match="source 0 .a distance fell below minus the largest weight"):
            engine.bellman_ford(ip, ix, wt, 0, floor=-5)


@pytest.mark.suitesparse
def test_negative_weights_refused_before_the_delta_stepping_loop():
    A = weighted(3, np.array([0, 1]), np.array([1, 2]), np.array([1.0, -1.0]), "float64")
    with spy(_jit, "compile") as compiled:
        with pytest.raises(sr.InvalidValue, match="delta-stepping needs non-negative weights; the smallest is -1.0"):
            sr.algorithms.sssp(ss(A), 0, method="delta_stepping", engine="fused")
    assert compiled.call_count == 0


@pytest.mark.suitesparse
def test_inf_weights_give_inf_entries():
    A = weighted(5, np.array([0, 1, 0, 3]), np.array([1, 2, 3, 4]), np.array([1.0, np.inf, 2.5, np.inf]), "float64")
    for method in ("delta_stepping", "bellman_ford"):
        got = sr.algorithms.sssp(ss(A), 0, method=method, parents=True, engine="fused")
        ref = sr.algorithms.sssp(A, 0, method=method, parents=True, engine="fused")
        assert got.distance.isequal(ref.distance, check_dtype=True) and got.parent.isequal(ref.parent)
        assert got.distance.to_dense(-1.0).tolist() == [0.0, 1.0, np.inf, 2.5, np.inf]


# -- which engine runs ----------------------------------------------------------------------------

def _low_degree_graph(n=200):
    a = np.arange(n - 1)
    return weighted(n, np.r_[a, a + 1], np.r_[a + 1, a], np.r_[a % 5 + 1, a % 5 + 1].astype(float), "float64")


def test_numpy_backend_never_compiles(monkeypatch):
    def refuse(func):
        raise AssertionError(f"compiled {func.__name__} on the NumPy backend")
    monkeypatch.setattr(_jit, "compile", refuse)
    A = _low_degree_graph()
    P = sr.apply(A, sr.unary.one).dup("bool")
    for engine in ("auto", "fused"):
        for direction in DIRECTIONS:
            r = sr.algorithms.bfs(P, 3, parents=True, direction=direction, engine=engine)
            assert r.engine == "fused"
            check_bfs(P, 3, r.level, r.parent)
        for method in ("auto", "bellman_ford", "delta_stepping"):
            r = sr.algorithms.sssp(A, 3, method=method, parents=True, engine=engine)
            assert r.engine == "fused"
            check_sssp(A, 3, r.distance, r.parent)


@pytest.mark.suitesparse
def test_numpy_graph_inside_a_suitesparse_default_never_compiles(monkeypatch):
    """The graph's backend decides: a NumPy-backend graph runs the NumPy engines even where new
    containers are SuiteSparse ones."""
    def refuse(func):
        raise AssertionError(f"compiled {func.__name__} for a NumPy-backend graph")
    A = _low_degree_graph()
    with sr.backends.use_cpu_backend("suitesparse"):
        monkeypatch.setattr(_jit, "compile", refuse)
        assert sr.algorithms.bfs(A, 0, engine="fused").level.nvals == A.nrows
        assert sr.algorithms.sssp(A, 0, engine="fused").distance.nvals == A.nrows


@pytest.mark.suitesparse
def test_without_numba_the_numpy_engines_run(monkeypatch):
    A = _low_degree_graph()
    want_bfs = sr.algorithms.bfs(A, 5, parents=True, deterministic=True, engine="fused")
    want_sssp = sr.algorithms.sssp(A, 5, engine="fused")
    monkeypatch.setattr(_jit, "_numba", False)
    with spy(ntrav, "bfs") as nb, spy(npaths, "delta_stepping") as nd:
        got = sr.algorithms.bfs(ss(A), 5, parents=True, deterministic=True, engine="fused")
        d = sr.algorithms.sssp(ss(A), 5, engine="fused")
    assert nb.call_count == 1 and nd.call_count == 1
    assert got.level.isequal(want_bfs.level) and got.parent.isequal(want_bfs.parent) and got.trace == want_bfs.trace
    assert d.distance.isequal(want_sssp.distance, check_dtype=True)
    # "auto" keeps the NumPy engines' degree limit
    K = ss(sr.Matrix.from_dense(~np.eye(40, dtype=bool), missing=False, backend="numpy"))  # degree 39
    assert sr.algorithms.bfs(K, 0).engine == "algebra" and sr.algorithms.bfs(ss(A), 0).engine == "fused"


@pytest.mark.suitesparse
def test_auto_takes_the_compiled_loops_on_suitesparse_graphs():
    """On a SuiteSparse graph "auto" runs the compiled BFS at any average degree and the compiled
    SSSP up to SUITESPARSE_FUSED_MAX_DEGREE: cnr-2000's 9.9 goes fused, a Kronecker graph's 29
    the algebra."""
    with sr.backends.use_cpu_backend("suitesparse"):
        assert 9.9 <= engines.SUITESPARSE_FUSED_MAX_DEGREE < 29
        for degree, sssp in ((9.9, "fused"), (29, "algebra"), (1000, "algebra")):
            assert engines.select("bfs", "auto", None, "cpu", 1000, int(degree * 1000)).name == "fused"
            assert engines.select("sssp", "auto", None, "cpu", 1000, int(degree * 1000)).name == sssp
    A = ss(_low_degree_graph())
    with spy(ctrav, "bfs") as b, spy(cpaths, "delta_stepping") as d:
        assert sr.algorithms.bfs(A, 0).engine == "fused" and sr.algorithms.sssp(A, 0).engine == "fused"
    assert b.call_count == 1 and d.call_count == 1
    K = ss(sr.Matrix.from_dense(~np.eye(40, dtype=bool), missing=False, backend="numpy"))  # degree 39
    with spy(ctrav, "bfs") as b:
        got = sr.algorithms.bfs(K, 3, parents=True)
    assert b.call_count == 1 and got.engine == "fused"
    assert got.level.to_dense(-1).tolist() == [1] * 3 + [0] + [1] * 36 and got.parent.to_dense(-1).tolist() == [3] * 40


@pytest.mark.suitesparse
def test_per_vertex_arrays_that_do_not_fit_are_out_of_memory(monkeypatch):
    n = 3_000_000  # 32 bytes a vertex and more: past the 64 MiB below which nothing is checked
    A = ss(sr.Matrix.from_coo([0, 1], [1, 2], [1.0, 1.0], nrows=n, ncols=n, backend="numpy"))
    G = sr.algorithms.Graph(A)
    for method in ("delta_stepping", "bellman_ford"):  # the weights and the light / heavy partition
        sr.algorithms.sssp(G, 0, method=method, engine="fused")
    monkeypatch.setattr(sr._memory, "available_bytes", lambda device="cpu": 2**20)
    with pytest.raises(sr.OutOfMemory, match="bfs: per-vertex arrays of 3,000,000 vertices"):
        sr.algorithms.bfs(G, 0, engine="fused")
    for method in ("delta_stepping", "bellman_ford"):
        with pytest.raises(sr.OutOfMemory, match="sssp: per-vertex arrays of 3,000,000 vertices"):
            sr.algorithms.sssp(G, 0, method=method, engine="fused")


# -- real graphs ----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def ny_roads(shared_data):
    """The DIMACS New York road graph (travel times), NumPy backend."""
    A = np_backend(sr.io.read(shared_data / "roads/USA-road-t.NY.gr.gz"))
    assert A.nrows == 264_346
    return A


@pytest.mark.data
@pytest.mark.suitesparse
def test_ny_roads_bfs_and_sssp(ny_roads):
    A = ny_roads
    P = sr.apply(A, sr.unary.one).dup("bool")
    Gp, Gw = sr.algorithms.Graph(ss(P)), sr.algorithms.Graph(ss(A))
    S = A.to_scipy()
    for s in (0, 140_000):
        got = sr.algorithms.bfs(Gp, s, parents=True, deterministic=True, engine="fused")
        ref = sr.algorithms.bfs(P, s, parents=True, deterministic=True, engine="fused")
        assert got.level.isequal(ref.level) and got.parent.isequal(ref.parent) and got.trace == ref.trace
        hops = csgraph.shortest_path(S, method="D", unweighted=True, indices=s)
        np.testing.assert_array_equal(got.level.to_dense(-1), np.where(np.isfinite(hops), hops, -1))
        d = sr.algorithms.sssp(Gw, s, engine="fused")
        assert d.distance.dtype == np.int64
        np.testing.assert_array_equal(d.distance.to_dense(np.inf), csgraph.dijkstra(S, indices=s))
        assert d.distance.isequal(sr.algorithms.sssp(A, s, engine="fused").distance, check_dtype=True)


@pytest.mark.data
@pytest.mark.suitesparse
def test_cnr2000_bfs_same_levels_trace_and_parents(cnr2000):
    A = np_backend(cnr2000[0])
    G = sr.algorithms.Graph(ss(A))
    for s in (0, 1000):
        got = sr.algorithms.bfs(G, s, parents=True, deterministic=True, engine="fused")
        ref = sr.algorithms.bfs(A, s, parents=True, deterministic=True, engine="fused")
        assert got.level.isequal(ref.level) and got.parent.isequal(ref.parent) and got.trace == ref.trace
        order = csgraph.breadth_first_order(A.to_scipy(), s, directed=True, return_predecessors=False)
        assert got.level.nvals == order.shape[0]
