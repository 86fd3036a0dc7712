"""sssp(strategy=...): every strategy against scipy.sparse.csgraph on small graphs, on the CPU
(the NumPy formulations) and, marked ``gpu``, on the device (the CuPy kernels); one test body
per property, parametrized by device and strategy, so that a failing kernel names itself."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.sparse import csgraph

import semiring as sr
from semiring.backends._xp import asnumpy
from semiring.backends.cpu import sssp_strategies as cpu_strategies
from semiring.testing.validate import check_sssp
from _devices import DEVICES

STRATEGIES = ("topology", "worklist_atomic", "worklist_filter", "worklist_hash", "worklist_scan", "near_far")
BELLMAN_FORD = STRATEGIES[:-1]


def random_graph(seed, n, *, directed, kind, active=None, m=None):
    """Random graph on n vertices, edges among the first ``active`` (the rest isolated), self-loops
    and repeated pairs kept (the smallest weight wins); kind "int" (0..9, zeros included),
    "float" (uniform [0, 10) with some exact zeros) or "negative" (directed, int weights
    w' + p(u) - p(v) with w' >= 0: negative edges, no negative cycle)."""
    rng = np.random.default_rng(seed)
    active = n if active is None else active
    m = 3 * active if m is None else m
    u, v = rng.integers(0, active, m), rng.integers(0, active, m)
    if kind == "float":
        w = rng.random(m) * 10
        w[rng.random(m) < 0.1] = 0.0
    else:
        w = rng.integers(0, 10, m)
    if kind == "negative":
        p = rng.integers(-20, 20, n)
        w = w + p[u] - p[v]
    if not directed:
        u, v, w = np.concatenate([u, v]), np.concatenate([v, u]), np.concatenate([w, w])
    dtype = "float64" if kind == "float" else "int64"
    return sr.Matrix.from_coo(u, v, w, nrows=n, ncols=n, dtype=dtype, dup_op=sr.binary.min)


def two_components(seed, kind):
    """Two random components (0..19 and 20..39) and isolated vertices 40..44."""
    a = random_graph(seed, 20, directed=False, kind=kind)
    b = random_graph(seed + 1, 20, directed=False, kind=kind)
    ra, ca, wa = a.to_coo()
    rb, cb, wb = b.to_coo()
    return sr.Matrix.from_coo(np.r_[ra, rb + 20], np.r_[ca, cb + 20], np.r_[wa, wb], nrows=45, ncols=45,
                              dtype=a.dtype)


#: name -> (graph, sources); sources include isolated vertices and vertices of other components.
CASES = {
    "directed-int": lambda: (random_graph(1, 40, directed=True, kind="int", active=35), (0, 7, 38)),
    "undirected-int": lambda: (random_graph(2, 50, directed=False, kind="int"), (0, 13)),
    "directed-float": lambda: (random_graph(3, 40, directed=True, kind="float"), (0, 21)),
    "undirected-float-sparse": lambda: (random_graph(4, 60, directed=False, kind="float", m=50), (0, 5, 59)),
    "two-components": lambda: (two_components(5, "int"), (3, 27, 44)),
    "two-components-float": lambda: (two_components(6, "float"), (0, 41)),
    "negative-weights": lambda: (random_graph(7, 40, directed=True, kind="negative"), (0, 9)),
    "single-vertex": lambda: (sr.Matrix.from_coo([], [], [], nrows=1, ncols=1, dtype="int64"), (0,)),
    "self-loop-only": lambda: (sr.Matrix.from_coo([0, 1], [0, 2], [3, 0], nrows=3, ncols=3, dtype="int64"), (0, 1)),
}


def oracle(W, s):
    """scipy's distances (float64, inf where unreached): Dijkstra, or Bellman-Ford for negative weights."""
    S = W.to("cpu").to_scipy()
    if S.nnz and S.data.min() < 0:
        return csgraph.bellman_ford(S, directed=True, indices=s)
    return csgraph.dijkstra(S, directed=True, indices=s)


def assert_matches(r, W, s):
    want = oracle(W, s)
    got = asnumpy(r.distance.to_dense(np.inf)).astype(np.float64)
    if W.dtype.kind == "i":
        np.testing.assert_array_equal(got, want)
    else:
        np.testing.assert_allclose(got, want, rtol=1e-9, atol=0)
    assert r.distance.nvals == int(np.isfinite(want).sum())
    assert r.distance.dtype == W.dtype


def assert_parents(r, W, s):
    """parent[s] == s; for every other reached v, (parent[v], v) is an edge with d[parent] + w == d[v]."""
    d = asnumpy(r.distance.to_dense(np.inf)).astype(np.float64)
    parent = asnumpy(r.parent.to_dense(-1))
    assert parent[s] == s
    S = W.to("cpu").to_scipy()
    for v in np.flatnonzero(np.isfinite(d)).tolist():
        if v == s:
            continue
        u = int(parent[v])
        assert u >= 0, f"reached vertex {v} has no parent"
        lo, hi = S.indptr[u], S.indptr[u + 1]
        hit = np.flatnonzero(S.indices[lo:hi] == v)
        assert hit.size, f"parent edge {u} -> {v} does not exist"
        w = float(S.data[lo + hit].min())
        assert d[u] + w == pytest.approx(d[v], rel=1e-12, abs=0), f"parent edge {u} -> {v} is not tight"
    assert (parent[~np.isfinite(d)] == -1).all()
    check_sssp(W.to("cpu"), s, r.distance.to("cpu"), r.parent.to("cpu"))


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_strategy_matches_scipy(strategy, case, device):
    W, sources = CASES[case]()
    if strategy == "near_far" and case == "negative-weights":
        pytest.skip("near_far refuses negative weights (tested below)")
    G = sr.algorithms.Graph(W.to(device))
    for s in sources:
        r = sr.algorithms.sssp(G, s, strategy=strategy, parents=s == sources[0])
        assert_matches(r, W, s)
        assert r.engine == f"strategy:{strategy}" and r.strategy == strategy
        assert r.method == ("delta_stepping" if strategy == "near_far" else "bellman_ford")
        assert r.rounds >= 1 and r.edges_examined >= 0 and r.worklist_entries >= 1
        if strategy == "topology":
            assert r.edges_examined == r.rounds * W.nvals
        if device == "gpu":
            assert r.launches > 0 and r.host_syncs > 0
        if s == sources[0]:
            assert_parents(r, W, s)
        else:
            assert r.parent is None


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_strategy_on_a_kronecker_graph_with_hubs(strategy, device):
    # hubs: many threads improve the same vertices in one round (duplicates, hash collisions)
    W = sr.generators.kronecker(9, weights=(1, 255))
    G = sr.algorithms.Graph(W.to(device), "undirected")
    deg = np.diff(W.to_scipy().indptr)
    for s in (int(np.argmax(deg)), int(np.flatnonzero(deg)[3])):
        r = sr.algorithms.sssp(G, s, strategy=strategy)
        assert_matches(r, W, s)
        # the same distances as the algebra's delta-stepping on the same device
        assert r.distance.isequal(sr.algorithms.sssp(G, s, engine="algebra").distance, check_dtype=True)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_strategy_on_a_grid_long_paths_float(strategy, device):
    W = sr.generators.grid(12, 12, weights=(0.25, 3.5))
    r = sr.algorithms.sssp(W.to(device), 0, strategy=strategy, parents=True)
    assert_matches(r, W, 0)
    assert_parents(r, W, 0)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_zero_weight_cycles(strategy, device):
    # 0 -> 1 -> 2 -> 1 all weight 0, 2 -> 3 weight 5, 3 -> 0 weight 0
    W = sr.Matrix.from_coo([0, 1, 2, 2, 3], [1, 2, 1, 3, 0], [0, 0, 0, 5, 0], nrows=5, ncols=5, dtype="int64")
    r = sr.algorithms.sssp(W.to(device), 0, strategy=strategy, parents=True)
    assert asnumpy(r.distance.to_dense(-1)).tolist() == [0, 0, 0, 5, -1]
    assert_parents(r, W, 0)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("strategy", BELLMAN_FORD)
@pytest.mark.parametrize("dtype", ["int64", "float64"])
def test_negative_cycle_raises(strategy, dtype, device):
    # 0 -> 1 -> 2 -> 1: the cycle 1 -> 2 -> 1 weighs -1 and is reachable from 0 (not from 3)
    W = sr.Matrix.from_coo([0, 1, 2, 3], [1, 2, 1, 0], [4, 2, -3, 1], nrows=4, ncols=4, dtype=dtype)
    assert pytest.raises(csgraph.NegativeCycleError, csgraph.bellman_ford, W.to_scipy(), indices=0)
    with pytest.raises(sr.NegativeCycleError, match="negative"):
        sr.algorithms.sssp(W.to(device), 0, strategy=strategy)
    with pytest.raises(sr.NegativeCycleError):
        sr.algorithms.sssp(W.to(device), 0, strategy=strategy, parents=True)
    # a cycle not reachable from the source does not matter
    V = sr.Matrix.from_coo([0, 1, 2, 3], [3, 2, 1, 0], [4, 2, -3, 1], nrows=4, ncols=4, dtype=dtype)
    r = sr.algorithms.sssp(V.to(device), 0, strategy=strategy)
    assert asnumpy(r.distance.to_dense(np.inf)).tolist() == [0, np.inf, np.inf, 4]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("strategy", BELLMAN_FORD)
def test_long_negative_cycle_found_by_the_round_limit(strategy, device):
    # a 30-vertex ring weighing -1 in all (float: no floor shortcut), entered from 30
    n = 31
    u = np.r_[np.arange(30), 30]
    v = np.r_[(np.arange(30) + 1) % 30, 0]
    w = np.r_[np.full(29, 1.0), -30.0, 2.0]
    W = sr.Matrix.from_coo(u, v, w, nrows=n, ncols=n)
    with pytest.raises(sr.NegativeCycleError):
        sr.algorithms.sssp(W.to(device), 30, strategy=strategy)


@pytest.mark.parametrize("device", DEVICES)
def test_near_far_refuses_negative_weights(device):
    W, _ = CASES["negative-weights"]()
    assert W.to_scipy().data.min() < 0
    with pytest.raises(sr.InvalidValue, match="non-negative"):
        sr.algorithms.sssp(W.to(device), 0, strategy="near_far")


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("delta", [1, 3, 2.5, 1000])
def test_near_far_any_delta(delta, device):
    W, (s, *_) = CASES["undirected-float-sparse"]()
    r = sr.algorithms.sssp(W.to(device), s, strategy="near_far", delta=delta)
    assert_matches(r, W, s)
    V, (t, *_) = CASES["undirected-int"]()
    r = sr.algorithms.sssp(V.to(device), t, strategy="near_far", delta=delta)
    assert_matches(r, V, t)
    assert r.delta == max(1, int(np.ceil(delta)))


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_nan_weights_raise(strategy, dtype):
    W = sr.Matrix.from_coo([0, 1], [1, 2], [1.0, np.nan], nrows=3, ncols=3, dtype=dtype)
    with pytest.raises(sr.InvalidValue, match="NaN"):
        sr.algorithms.sssp(W, 0, strategy=strategy)


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_weight_types(strategy):
    # bool means unit weights; int32 and float32 weights give int64 and float64 distances
    A = sr.Matrix.from_coo([0, 1, 1], [1, 2, 3], nrows=5, ncols=5)
    r = sr.algorithms.sssp(A, 0, strategy=strategy)
    assert r.distance.dtype == np.int64 and r.distance.to_dense(-1).tolist() == [0, 1, 2, 2, -1]
    for dtype, out in (("int32", np.int64), ("uint8", np.int64), ("float32", np.float64)):
        W = sr.Matrix.from_coo([0, 1, 1], [1, 2, 3], [2, 5, 1], nrows=5, ncols=5, dtype=dtype)
        r = sr.algorithms.sssp(W, 0, strategy=strategy)
        assert r.distance.dtype == out and r.distance.to_dense(-1).tolist() == [0, 2, 7, 3, -1]


def test_strategy_overflow_guard():
    # 4e18 * (n - 1) fits int64 (the default methods run), 4e18 * n does not: the strategies refuse
    W = sr.Matrix.from_coo([0, 1], [1, 2], [4 * 10**18, -4 * 10**18], nrows=3, ncols=3, dtype="int64")
    assert sr.algorithms.sssp(W, 0).distance.to_dense(-1).tolist() == [0, 4 * 10**18, 0]
    with pytest.raises(sr.DomainMismatch, match="overflow"):
        sr.algorithms.sssp(W, 0, strategy="worklist_atomic")


def test_bad_strategy_and_options_raise():
    W, _ = CASES["undirected-int"]()
    for bad in ("dijkstra", "", "Topology", 3, ("topology",)):
        with pytest.raises(sr.InvalidValue, match="strategy must be None or one of"):
            sr.algorithms.sssp(W, 0, strategy=bad)
    with pytest.raises(sr.InvalidValue, match="engine"):
        sr.algorithms.sssp(W, 0, strategy="topology", engine="fused")
    with pytest.raises(sr.InvalidValue, match="engine"):
        sr.algorithms.sssp(W, 0, strategy="worklist_scan", engine="algebra")
    with pytest.raises(sr.InvalidValue, match="Bellman-Ford method"):
        sr.algorithms.sssp(W, 0, strategy="worklist_hash", method="delta_stepping")
    with pytest.raises(sr.InvalidValue, match="delta-stepping method"):
        sr.algorithms.sssp(W, 0, strategy="near_far", method="bellman_ford")
    with pytest.raises(sr.InvalidValue, match="delta must be None with it"):
        sr.algorithms.sssp(W, 0, strategy="topology", delta=2)
    for bad in (0, -1, np.inf, "2"):
        with pytest.raises(sr.InvalidValue, match="delta must be"):
            sr.algorithms.sssp(W, 0, strategy="near_far", delta=bad)
    with pytest.raises(sr.IndexOutOfBound):
        sr.algorithms.sssp(W, W.nrows, strategy="topology")
    # the default (strategy=None): the CPU whole-search engine (for a graph of this degree on the
    # NumPy backend), no strategy counters
    r = sr.algorithms.sssp(W.to("cpu", backend="numpy"), 0)
    assert r.strategy is None and r.engine == "fused" and r.edges_examined is None


def test_data_driven_examines_fewer_edges_than_topology_driven():
    # the work gap the strategies exist to show: on a random graph a worklist reads each edge
    # about once per improvement of its tail, the sweep reads all of them every round
    W = random_graph(11, 2000, directed=False, kind="int", m=8000)
    G = sr.algorithms.Graph(W)
    topo = sr.algorithms.sssp(G, 0, strategy="topology")
    for name in ("worklist_atomic", "worklist_filter", "worklist_hash", "worklist_scan", "near_far"):
        r = sr.algorithms.sssp(G, 0, strategy=name)
        assert r.distance.isequal(topo.distance)
        assert 3 * r.edges_examined < topo.edges_examined, name
    # dedup: the filtered and scanned lists hold each vertex once per round, the atomic one may not
    f = sr.algorithms.sssp(G, 0, strategy="worklist_filter")
    a = sr.algorithms.sssp(G, 0, strategy="worklist_atomic")
    sc = sr.algorithms.sssp(G, 0, strategy="worklist_scan")
    assert f.worklist_entries == sc.worklist_entries <= a.worklist_entries


# -- the NumPy formulations' dedup steps, by hand ------------------------------------------------

def test_filter_keeps_the_first_claimant():
    v = np.array([4, 2, 4, 2, 7, 4])
    assert cpu_strategies._filter(v, np.arange(6), 8).tolist() == [4, 2, 7]


def test_scan_compaction_is_sorted_and_unique():
    v = np.array([5, 1, 5, 6])
    assert cpu_strategies._scan(v, np.arange(4), 8).tolist() == [1, 5, 6]


def test_hash_culls_within_a_block_only():
    B = cpu_strategies.BLOCK
    v = np.array([3, 3, 5, 3, 3])
    pos = np.array([0, 1, 2, B + 7, B + 9])
    assert cpu_strategies.slot_of(np.array([3]))[0] != cpu_strategies.slot_of(np.array([5]))[0]
    # block 0 keeps 3 once and 5; block 1 keeps 3 once
    assert cpu_strategies._hash(v, pos, 8).tolist() == [3, 5, 3]
    # two vertices in one slot evict each other: 3, x, 3 keeps all three
    slots = cpu_strategies.slot_of(np.arange(1, 5000))
    x = int(np.flatnonzero(slots == cpu_strategies.slot_of(np.array([3]))[0])[1]) + 1
    assert x != 3
    assert cpu_strategies._hash(np.array([3, x, 3]), np.array([0, 1, 2]), 5000).tolist() == [3, x, 3]


def test_relax_appends_only_calls_that_lower_the_distance():
    # five candidates for vertex 0 arriving in order 5, 7, 3, 3, 4: atomicMin lowers d(0) twice
    d = np.full(2, np.iinfo(np.int64).max)
    got = cpu_strategies._relax(d, np.array([5, 7, 3, 3, 4, 1]), np.array([0, 0, 0, 0, 0, 1]),
                                np.zeros(6, dtype=np.int64), None, 0)
    assert got.tolist() == [0, 2, 5]
    assert d.tolist() == [3, 1]
