"""BFS and SSSP on deep graphs, with +inf weights and hostile options: the CPU whole-search
engines (``semiring.backends.cpu.traversal`` and ``.paths``) against independent oracles, and
every loop whose end depends on weight arithmetic guarded against hangs.

The CPU engines run a level (or round) as a scalar loop when its work is at most
``SCALAR_WORK`` and vectorized otherwise; the comparisons run with the threshold at 0 (every
level vectorized, edges gathered by SciPy), 3 (both forms in one search, edges gathered by
NumPy) and its default (small graphs: all scalar).

Oracles: ``scipy.sparse.csgraph`` (hop counts, Dijkstra, Bellman-Ford), networkx (distances
with +inf weights, converted to min.plus: a vertex reached only through +inf edges has the
entry +inf, an unreached vertex none), the LAGraph / Graph500 parent checks of
``semiring.testing.validate``, and the algebra engine (``engine="algebra"``: the same levels,
trace and deterministic parents by another route). Speed goals are benchmarks
(``python -m benchmarks run --suite deep``), not tests.
"""

from __future__ import annotations


import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.sparse import csgraph

import semiring as sr
from semiring.algorithms.sssp import STRATEGIES as SSSP_STRATEGIES
from semiring.backends.cpu import paths as cpu_paths
from semiring.backends.cpu import traversal as cpu_traversal
from semiring.testing.validate import check_bfs, check_sssp

from _guards import hang_guard

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
METHODS = ("auto", "bellman_ford", "delta_stepping")
ENGINES = ("auto", "algebra", "fused")


@pytest.fixture(params=[0, 3, None], ids=["vectorized", "mixed", "default"])
def scalar_work(request, monkeypatch):
    """The scalar / vectorized threshold of both CPU engines; all-vectorized runs also gather
    every level's edges with SciPy (otherwise only levels of 2**14 edges and more do)."""
    if request.param is not None:
        monkeypatch.setattr(cpu_traversal, "SCALAR_WORK", request.param)
        monkeypatch.setattr(cpu_paths, "SCALAR_WORK", request.param)
    if request.param == 0:
        monkeypatch.setattr(cpu_traversal, "SCIPY_GATHER", 1)
        monkeypatch.setattr(cpu_paths, "SCIPY_GATHER", 1)
    return request.param


# -- random graphs ------------------------------------------------------------------------------

@st.composite
def edge_lists(draw, weights=st.integers(1, 9), max_n=40):
    """(n, rows, cols, weights, source): directed or undirected, isolated vertices, self-loops,
    several components, parallel edges collapsed to their minimum."""
    n = draw(st.integers(1, max_n))
    active = draw(st.integers(1, n))
    m = draw(st.integers(0, 4 * active))
    r = draw(st.lists(st.integers(0, active - 1), min_size=m, max_size=m))
    c = draw(st.lists(st.integers(0, active - 1), min_size=m, max_size=m))
    w = draw(st.lists(weights, min_size=m, max_size=m))
    perm = np.array(draw(st.permutations(range(n))), dtype=np.int64)
    r, c, w = perm[np.array(r, dtype=np.int64)], perm[np.array(c, dtype=np.int64)], np.array(w, dtype=np.float64)
    if not draw(st.booleans()):  # undirected: both directions, the same weight
        r, c, w = np.concatenate([r, c]), np.concatenate([c, r]), np.concatenate([w, w])
    if r.size:  # parallel edges: keep the smallest weight (the oracles see the same graph)
        order = np.lexsort((w, c, r))
        r, c, w = r[order], c[order], w[order]
        first = np.r_[True, (r[1:] != r[:-1]) | (c[1:] != c[:-1])]
        r, c, w = r[first], c[first], w[first]
    source = draw(st.integers(0, n - 1))
    return n, r, c, w, source


def matrix(n, r, c, w=None, dtype=None):
    return sr.Matrix.from_coo(r, c, w, nrows=n, ncols=n, dtype=dtype)


def scipy_hops(n, r, c, s):
    S = sp.csr_matrix((np.ones(r.size), (r, c)), shape=(n, n))
    d = csgraph.shortest_path(S, method="D", unweighted=True, indices=s)
    return np.where(np.isfinite(d), d, -1).astype(np.int64)


def scipy_distances(n, r, c, w, s):
    S = sp.csr_matrix((w, (r, c)), shape=(n, n))
    S.eliminate_zeros()  # csgraph: explicit zeros would be no edge; the weights here are >= 1
    return csgraph.shortest_path(S, method="D", indices=s)


def networkx_distances(n, r, c, w, s, method="dijkstra"):
    """networkx's distances in min.plus form: a dense array, NaN where there is no entry
    (unreached), +inf where only +inf paths reach."""
    G = nx.DiGraph()
    G.add_nodes_from(range(n))
    G.add_weighted_edges_from(zip(r.tolist(), c.tolist(), w.tolist()))
    got = (nx.single_source_dijkstra_path_length(G, s) if method == "dijkstra"
           else nx.single_source_bellman_ford_path_length(G, s))
    out = np.full(n, np.nan)
    for v, x in got.items():
        out[v] = x
    return out


def entries(v):
    """A Vector as a dense float array with NaN where there is no entry."""
    idx, vals = v.to_coo()
    out = np.full(v.size, np.nan)
    out[idx] = vals
    return out


# -- BFS: the CPU engine against scipy, the checker and the algebra engine ---------------------

@SETTINGS
@given(g=edge_lists(), direction=st.sampled_from(("auto", "push", "pull")), det=st.booleans(),
       max_depth=st.one_of(st.none(), st.integers(0, 5)))
def test_bfs_cpu_engine_matches_scipy_and_the_algebra_engine(scalar_work, g, direction, det, max_depth):
    n, r, c, _, s = g
    A = matrix(n, r, c)
    got = sr.algorithms.bfs(A, s, parents=True, deterministic=det, direction=direction, max_depth=max_depth,
                            engine="fused")
    assert got.engine == "fused"
    want = scipy_hops(n, r, c, s)
    if max_depth is not None:
        want = np.where(want <= max_depth, want, -1)
    np.testing.assert_array_equal(got.level.to_dense(-1), want)
    assert got.level.nvals == got.parent.nvals == int((want >= 0).sum())
    if max_depth is None:
        assert check_bfs(A, s, got.level, got.parent) == int((want >= 0).sum())
    alg = sr.algorithms.bfs(A, s, parents=True, deterministic=det, direction=direction, max_depth=max_depth,
                            engine="algebra")
    assert got.trace == alg.trace and got.depth == alg.depth
    if det:  # the smallest parent on the previous level, as min_secondi
        assert got.parent.isequal(alg.parent)
    else:  # any valid parent: one level up, along an edge
        lv, pa = got.level.to_dense(-1), got.parent.to_dense(-1)
        edges = set(zip(r.tolist(), c.tolist()))
        for v in np.flatnonzero(lv > 0).tolist():
            assert (int(pa[v]), v) in edges and lv[pa[v]] == lv[v] - 1


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("direction", ["auto", "push", "pull"])
def test_bfs_cpu_engine_deterministic_parents_on_denser_graphs(scalar_work, seed, direction):
    # many vertices with several parents on the previous level, in every level form
    rng = np.random.default_rng(seed)
    n = 300
    m = int(rng.integers(300, 3000))
    r, c = rng.integers(0, n, m), rng.integers(0, n, m)
    if seed % 2:
        r, c = np.r_[r, c], np.r_[c, r]
    A = sr.Matrix.from_coo(r, c, nrows=n, ncols=n, dup_op=sr.binary.lor)
    for s in (0, int(np.argmax(np.bincount(r, minlength=n)))):
        got = sr.algorithms.bfs(A, s, parents=True, deterministic=True, direction=direction, engine="fused")
        alg = sr.algorithms.bfs(A, s, parents=True, deterministic=True, direction=direction, engine="algebra")
        assert got.engine == "fused" and got.level.isequal(alg.level) and got.parent.isequal(alg.parent)
        assert got.trace == alg.trace
        anyp = sr.algorithms.bfs(A, s, parents=True, direction=direction)
        check_bfs(A, s, anyp.level, anyp.parent)


@SETTINGS
@given(g=edge_lists())
def test_bfs_cpu_engine_on_a_graph_with_cached_transpose(scalar_work, g):
    n, r, c, _, s = g
    G = sr.algorithms.Graph(matrix(n, r, c))
    want = scipy_hops(n, r, c, s)
    for direction in ("pull", "auto", "push"):  # the Graph keeps A^T between searches
        np.testing.assert_array_equal(sr.algorithms.bfs(G, s, direction=direction).level.to_dense(-1), want)


@pytest.mark.parametrize("n", [10_000])
@pytest.mark.parametrize("shape", ["path", "undirected path", "cycle", "two paths"])
def test_bfs_deep_graphs(scalar_work, n, shape):
    a = np.arange(n - 1)
    r, c = a, a + 1
    if shape == "undirected path":
        r, c = np.r_[a, a + 1], np.r_[a + 1, a]
    elif shape == "cycle":
        r, c = np.r_[a, n - 1], np.r_[a + 1, 0]
    elif shape == "two paths":  # two components; the source in the middle of the first
        keep = a != n // 2
        r, c = a[keep], a[keep] + 1
    A = matrix(n, r, c)
    s = n // 4
    want = scipy_hops(n, r, c, s)
    for direction in ("auto", "push", "pull") if shape != "cycle" else ("auto", "push"):
        if direction == "pull" and scalar_work != 0:
            continue  # forced pull scans every unvisited vertex per level: once is enough
        res = sr.algorithms.bfs(A, s, parents=True, direction=direction)
        np.testing.assert_array_equal(res.level.to_dense(-1), want)
        check_bfs(A, s, res.level, res.parent)
        assert res.depth == want.max() and len(res.trace) in (want.max(), want.max() + 1)
    cut = sr.algorithms.bfs(A, s, max_depth=100)
    np.testing.assert_array_equal(cut.level.to_dense(-1), np.where(want <= 100, want, -1))


def test_bfs_trace_is_a_lazy_sequence_of_level_traces():
    A = matrix(5, np.arange(4), np.arange(1, 5))
    t = sr.algorithms.bfs(A, 0, direction="push").trace
    assert isinstance(t, sr.algorithms.LevelTraces) and len(t) == 5
    assert t[0] == sr.algorithms.LevelTrace(1, "push", 1, 1, 1)
    assert t[-1] == sr.algorithms.LevelTrace(5, "push", 1, 0, 0)
    assert t[1:3] == [t[1], t[2]] and list(t) == [t[i] for i in range(5)]
    assert t == list(t) and t.depth == 4 and t.directions == ["push"] * 5
    with pytest.raises(IndexError):
        t[5]
    codes, frontier, examined, discovered = t.arrays()
    assert frontier.tolist() == [1] * 5 and discovered.tolist() == [1, 1, 1, 1, 0]


# -- SSSP: the CPU engines against scipy and the algebra engine --------------------------------

@SETTINGS
@given(g=edge_lists(weights=st.integers(1, 64).map(lambda k: k / 8)), method=st.sampled_from(METHODS),
       delta=st.sampled_from([None, 0.125, 0.5, 1.0, 3.0, 100.0]), integer=st.booleans())
def test_sssp_cpu_engine_matches_dijkstra_and_the_algebra_engine(scalar_work, g, method, delta, integer):
    n, r, c, w, s = g
    if integer:
        w = np.ceil(w)
    A = matrix(n, r, c, w, "int64" if integer else "float64")
    got = sr.algorithms.sssp(A, s, method=method, delta=delta, parents=True, engine="fused")
    assert got.engine == "fused" and got.distance.dtype == (np.int64 if integer else np.float64)
    want = scipy_distances(n, r, c, w, s)
    np.testing.assert_array_equal(got.distance.to_dense(np.inf), want)
    assert check_sssp(A, s, got.distance, got.parent) == int(np.isfinite(want).sum())
    alg = sr.algorithms.sssp(A, s, method=method, delta=delta, engine="algebra")
    assert got.distance.isequal(alg.distance, check_dtype=True)


@SETTINGS
@given(g=edge_lists(weights=st.integers(-3, 9)), potentials=st.booleans())
def test_sssp_cpu_bellman_ford_negative_weights(scalar_work, g, potentials):
    n, r, c, w, s = g
    if potentials:  # w + p(u) - p(v), w >= 0: negative weights, no negative cycle
        p = np.arange(n) % 5
        w = np.abs(w) + p[r] - p[c]
    A = matrix(n, r, c, w, "int64")
    try:
        want = networkx_distances(n, r, c, w, s, "bellman_ford")
    except nx.NetworkXUnbounded:  # a negative cycle the source reaches
        for engine in ("fused", "algebra"):
            with hang_guard(10), pytest.raises(sr.NegativeCycleError):
                sr.algorithms.sssp(A, s, method="bellman_ford", engine=engine)
        return
    got = sr.algorithms.sssp(A, s, method="bellman_ford", parents=True, engine="fused")
    assert got.engine == "fused"
    np.testing.assert_array_equal(entries(got.distance), want)
    check_sssp(A, s, got.distance, got.parent)
    assert got.distance.isequal(sr.algorithms.sssp(A, s, method="bellman_ford", engine="algebra").distance)


def test_sssp_deep_paths_and_cycles(scalar_work):
    n = 10_000
    a = np.arange(n - 1)
    cases = {"path": (a, a + 1, np.ones(n - 1)),
             "cycle": (np.r_[a, n - 1], np.r_[a + 1, 0], np.r_[a % 7 + 0.5, 2.0]),
             "path with shortcuts": (np.r_[a, a[::10]], np.r_[a + 1, np.minimum(a[::10] + 20, n - 1)],
                                     np.r_[np.ones(n - 1), np.full(a[::10].size, 25.0)])}
    for name, (r, c, w) in cases.items():
        A = matrix(n, r, c, w)
        s = 3
        want = scipy_distances(n, r, c, w, s)
        for method in ("delta_stepping", "bellman_ford"):
            for delta in ((None, 0.25, 1e6) if method == "delta_stepping" else (None,)):
                got = sr.algorithms.sssp(A, s, method=method, delta=delta)
                np.testing.assert_array_equal(got.distance.to_dense(np.inf), want, err_msg=f"{name} {method} {delta}")
    # a long negative cycle: found by the round limit (or the distance floor), never a hang
    V = matrix(n, np.r_[a, n - 1], np.r_[a + 1, 0], np.r_[np.ones(n - 1), -float(n)], "int64")
    with hang_guard(60), pytest.raises(sr.NegativeCycleError):
        sr.algorithms.sssp(V, 0)


# -- +inf weights ---------------------------------------------------------------------------------

def _runs(negative=False):
    """Every (label, keyword arguments) combination of sssp that runs on the CPU."""
    out = [(f"{m}/{e}", {"method": m, "engine": e}) for m in METHODS for e in ENGINES
           if not (negative and m == "delta_stepping")]
    out += [(f"strategy {s}", {"strategy": s}) for s in SSSP_STRATEGIES if not (negative and s == "near_far")]
    return out


def test_sssp_inf_weight_gives_an_inf_entry_for_every_method_and_strategy():
    # networkx answers {0: 0, 1: 1.0, 2: inf}; vertex 3 is unreached
    A = matrix(4, [0, 1], [1, 2], [1.0, np.inf])
    for label, kw in _runs():
        for parents in (False, True):
            with hang_guard(10):
                res = sr.algorithms.sssp(A, 0, parents=parents, **kw)
            np.testing.assert_array_equal(entries(res.distance), [0.0, 1.0, np.inf, np.nan], err_msg=label)
            if parents:
                np.testing.assert_array_equal(res.parent.to_dense(-1), [0, 0, 1, -1], err_msg=label)


@SETTINGS
@given(g=edge_lists(weights=st.one_of(st.integers(1, 9).map(float), st.just(np.inf))),
       run=st.sampled_from(_runs()))
def test_sssp_inf_weights_match_networkx(scalar_work, g, run):
    n, r, c, w, s = g
    label, kw = run
    A = matrix(n, r, c, w)
    with hang_guard(10):
        res = sr.algorithms.sssp(A, s, parents=True, **kw)
    want = networkx_distances(n, r, c, w, s)
    np.testing.assert_array_equal(entries(res.distance), want, err_msg=label)
    # every reached vertex (finite or +inf) has a parent along an edge, leading back to the source
    pa = res.parent.to_dense(-1)
    edges = set(zip(r.tolist(), c.tolist()))
    reached = ~np.isnan(want)
    assert ((pa >= 0) == reached).all()
    for v in np.flatnonzero(reached).tolist():
        u, hops = v, 0
        while u != s:
            assert (int(pa[u]), u) in edges and hops < n
            u, hops = int(pa[u]), hops + 1


@SETTINGS
@given(g=edge_lists(weights=st.one_of(st.integers(-2, 9).map(float), st.just(np.inf))),
       run=st.sampled_from(_runs(negative=True)))
def test_sssp_inf_weights_with_negative_weights_match_networkx(g, run):
    n, r, c, w, s = g
    label, kw = run
    A = matrix(n, r, c, w)
    try:
        # networkx's Bellman-Ford never takes a +inf edge (inf < inf fails: no entry), where its
        # Dijkstra gives an entry +inf; in min.plus every vertex the graph reaches has an entry
        want = networkx_distances(n, r, c, w, s, "bellman_ford")
        want[np.isnan(want) & (scipy_hops(n, r, c, s) >= 0)] = np.inf
    except nx.NetworkXUnbounded:  # a negative cycle the source reaches along finite edges
        with hang_guard(10), pytest.raises(sr.NegativeCycleError):
            sr.algorithms.sssp(A, s, **kw)
        return
    if (w < 0).any() and (kw.get("method") == "delta_stepping" or kw.get("strategy") == "near_far"):
        return
    with hang_guard(10):
        res = sr.algorithms.sssp(A, s, **kw)
    np.testing.assert_array_equal(entries(res.distance), want, err_msg=label)


@pytest.mark.parametrize("bad", [np.nan, -np.inf])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_sssp_nan_and_minus_inf_weights_are_rejected_everywhere(bad, dtype):
    A = matrix(4, [0, 2], [1, 3], [1.0, bad], dtype)  # the bad edge is not even reachable
    for label, kw in _runs():
        with pytest.raises(sr.InvalidValue, match="NaN" if np.isnan(bad) else "-inf"):
            sr.algorithms.sssp(A, 0, **kw)


# -- loops whose end depends on weight arithmetic -------------------------------------------------

HOSTILE = {
    # a delta far below the spacing of the floats at the distances: bucket bounds must still advance
    "tiny delta, huge weights": ([1e20, 1e20, 3.0], "float64", 1e-10),
    "subnormal weights and delta": ([5e-324, 5e-324, 5e-324], "float64", 5e-324),
    # 10**12 buckets between the distances: empty ones must be skipped, not visited
    "sparse buckets": ([1e12, 1.0, 1e12], "float64", 1.0),
    # sums beyond the largest float overflow to +inf: an entry +inf, never a bucket of +inf
    "overflowing sums": ([1e308, 1e308, 1.0], "float64", None),
    "overflowing sums, tiny delta": ([1e308, 1e308, 1.0], "float64", 5e-324),
    "huge delta": ([1.0, 2.0, 3.0], "float64", 1e300),
    "integer weights, huge delta": ([1, 2, 3], "int64", 1e300),
    # 5 vertices: 1.8e18 * 5 < 2**63, so no overflow refusal; a bucket width of 1 over 3.6e18
    "integer weights near the int64 bound": ([18 * 10**17, 18 * 10**17, 2], "int64", 1),
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_no_weight_or_delta_hangs_any_method_or_strategy(case):
    w, dtype, delta = HOSTILE[case]
    A = matrix(5, [0, 1, 2], [1, 2, 3], w, dtype)
    want = networkx_distances(5, np.array([0, 1, 2]), np.array([1, 2, 3]), np.array(w, dtype=object), 0)
    assert np.isnan(want[4])
    for label, kw in _runs():
        kw = dict(kw)
        if delta is not None and (kw.get("method") == "delta_stepping" or kw.get("strategy") == "near_far"):
            kw["delta"] = delta
        with hang_guard(10):
            res = sr.algorithms.sssp(A, 0, **kw)
        got = entries(res.distance)
        np.testing.assert_array_equal(got, want.astype(np.float64), err_msg=f"{case}: {label}")
        if dtype == "int64":  # exact
            assert res.distance.to_coo()[1].tolist() == [0, w[0], w[0] + w[1], w[0] + w[1] + w[2]], label
        if res.delta is not None:
            assert np.isfinite(res.delta) and res.delta > 0


# -- every option checked, whether the chosen path uses it or not ---------------------------------

BAD_BFS = {
    "direction": ["both", "PUSH", None, 1, ("push",)],
    "max_depth": [-1, 1.5, "2", True, np.float64(2)],
    "parents": [1, "yes", None, np.int64(1)],
    "deterministic": [1, "no", None],
    "engine": ["gpu", None, 0, ["fused"]],
    "strategy": ["", "bfs", 3, ["edge"]],
}


@pytest.mark.parametrize("option", sorted(BAD_BFS))
def test_bfs_checks_every_option_whether_used_or_not(option):
    A = matrix(3, [0, 1], [1, 2])
    # contexts where the option is ignored or irrelevant: a strategy, the algebra engine, no parents
    contexts = [{}, {"engine": "algebra"}, {"strategy": "edge"}, {"parents": True}, {"direction": "pull"}]
    for bad in BAD_BFS[option]:
        for ctx in contexts:
            kw = {k: v for k, v in ctx.items() if k != option}
            kw[option] = bad
            with pytest.raises(sr.InvalidValue, match=option if option != "strategy" else "strategy"):
                sr.algorithms.bfs(A, 0, **kw)


BAD_SSSP = {
    "delta": [0, -1, -1.0, np.inf, np.nan, "2", True, [1.0], 0.0],
    "method": ["dijkstra", None, 1],
    "parents": [1, "yes", None],
    "engine": ["gpu", None, 0],
    "strategy": ["", "bfs", 3],
}


@pytest.mark.parametrize("option", sorted(BAD_SSSP))
def test_sssp_checks_every_option_whether_used_or_not(option):
    pos = matrix(3, [0, 1], [1, 2], [1.0, 2.0])
    neg = matrix(3, [0, 1], [1, 2], [1.0, -2.0])  # auto picks Bellman-Ford, which takes no delta
    contexts = [{}, {"method": "bellman_ford"}, {"engine": "algebra"}, {"strategy": "topology"},
                {"strategy": "near_far"}]
    for bad in BAD_SSSP[option]:
        for A in (pos, neg):
            for ctx in contexts:
                kw = {k: v for k, v in ctx.items() if k != option}
                kw[option] = bad
                with pytest.raises(sr.InvalidValue, match=option):
                    sr.algorithms.sssp(A, 0, **kw)


def test_sssp_negative_delta_with_negative_weights_is_rejected():
    # auto picks Bellman-Ford (delta unused) and must still refuse delta=-1
    A = matrix(3, [0, 1], [1, 2], [1.0, -2.0])
    with pytest.raises(sr.InvalidValue, match="delta"):
        sr.algorithms.sssp(A, 0, delta=-1)
    assert sr.algorithms.sssp(A, 0, delta=2.0).distance.to_dense().tolist() == [0.0, 1.0, -1.0]


def test_fused_engine_runs_on_the_cpu_and_refuses_what_it_cannot_do():
    A = matrix(4, [0, 1, 2], [1, 2, 3], [1.0, 2.0, 3.0])
    assert sr.algorithms.bfs(A, 0, engine="fused", deterministic=True, parents=True).engine == "fused"
    assert sr.algorithms.sssp(A, 0, engine="fused", method="bellman_ford").engine == "fused"
    assert sr.algorithms.bfs(A, 0, direction="edge").engine == "algebra"
    with pytest.raises(sr.InvalidValue, match="edge"):
        sr.algorithms.bfs(A, 0, direction="edge", engine="fused")
