"""Oracle tests of ``sssp``: distances and parents against ``scipy.sparse.csgraph`` (Dijkstra,
Bellman-Ford and its negative-cycle detection), on random graphs from Hypothesis
(tests/_algorithms.py) with explicit zero weights, negative weights and several weight dtypes.
Nothing is computed with the code under test."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, event, given
from hypothesis import strategies as st
from scipy.sparse import csgraph

import semiring as sr
from semiring.testing.validate import check_sssp

from _guards import hang_guard
from _algorithms import SETTINGS, UNREACHED, WEIGHT_KINDS, dense, graph_and_source

NON_NEGATIVE = ("bool", "int64", "int32", "uint8", "float64", "float32")


# ---------------------------------------------------------------------------------------------
# SSSP
# ---------------------------------------------------------------------------------------------

def expected_dtype(g):
    return np.int64 if np.dtype(WEIGHT_KINDS[g.kind][0]).kind in "biu" else np.float64


def oracle_weights(g):
    return np.ones(g.rows.size) if g.kind == "bool" else g.vals.astype(np.float64)


def assert_distances(res, g, want):
    assert res.distance.dtype == expected_dtype(g)
    assert res.distance.size == g.n
    reached = np.isfinite(want)
    assert res.distance.nvals == int(reached.sum())     # unreachable vertices are absent
    got = dense(res.distance, np.inf if expected_dtype(g) == np.float64 else 0).astype(np.float64)
    got[~reached] = np.inf
    if expected_dtype(g) == np.int64:
        assert np.isinf(res.distance.to_dense(np.inf)[~reached]).all()
    # weights are small integers or multiples of 1/8: every path length is exact
    np.testing.assert_array_equal(got, want)


def assert_sssp_parents(res, g, s):
    assert res.parent.dtype == np.int64
    d = dense(res.distance, np.inf).astype(np.float64)
    parent = dense(res.parent, UNREACHED)
    w = oracle_weights(g)
    tight = {(u, v) for u, v, x in zip(g.rows.tolist(), g.cols.tolist(), w.tolist())
             if np.isfinite(d[u]) and d[u] + x == d[v]}
    assert parent[s] == s
    for v in np.flatnonzero(np.isfinite(d)).tolist():
        if v != s:
            assert (int(parent[v]), v) in tight, f"parent edge {parent[v]} -> {v} is not tight"
    assert (parent[~np.isfinite(d)] == UNREACHED).all()
    check_sssp(g.A, s, res.distance, res.parent)


DELTAS = st.sampled_from([None, 0.5, 1, 2, 3.75, 1000.0])


@SETTINGS
@given(gs=graph_and_source(kinds=NON_NEGATIVE), method=st.sampled_from(["auto", "bellman_ford", "delta_stepping"]),
       delta=DELTAS, parents=st.booleans())
def test_sssp_non_negative_matches_dijkstra(gs, method, delta, parents):
    g, s = gs
    res = sr.algorithms.sssp(g.A, s, method=method, delta=delta if method != "bellman_ford" else None,
                             parents=parents)
    want = csgraph.dijkstra(g.csr(oracle_weights(g)), indices=s)
    assert_distances(res, g, want)
    assert res.method == ("delta_stepping" if method == "auto" else method)
    if parents:
        assert_sssp_parents(res, g, s)
    else:
        assert res.parent is None


@SETTINGS
@given(gs=graph_and_source(kinds=NON_NEGATIVE), delta=DELTAS)
def test_sssp_methods_agree(gs, delta):
    g, s = gs
    bf = sr.algorithms.sssp(g.A, s, method="bellman_ford", parents=True)
    ds = sr.algorithms.sssp(g.A, s, method="delta_stepping", delta=delta, parents=True)
    assert bf.distance.isequal(ds.distance, check_dtype=True)
    # the parent is documented as the smallest tight predecessor: unique, so equal too
    assert bf.parent.isequal(ds.parent, check_dtype=True)


@SETTINGS
@given(gs=graph_and_source(kinds=("int64",), directed=True, potentials=True),
       method=st.sampled_from(["auto", "bellman_ford"]), parents=st.booleans())
def test_sssp_negative_weights_without_negative_cycles_match_bellman_ford(gs, method, parents):
    g, s = gs
    want = csgraph.bellman_ford(g.csr(), indices=s)  # oracle; raises if there were a cycle
    res = sr.algorithms.sssp(g.A, s, method=method, parents=parents)
    assert_distances(res, g, want)
    negative = g.vals.size > 0 and g.vals.min() < 0
    assert res.method == ("bellman_ford" if method == "bellman_ford" or negative else "delta_stepping")
    if parents:
        assert_sssp_parents(res, g, s)


@SETTINGS
@given(gs=graph_and_source(kinds=("int64",), directed=True, potentials=True))
def test_sssp_delta_stepping_rejects_negative_weights(gs):
    g, s = gs
    assume(g.vals.size and g.vals.min() < 0)
    with pytest.raises(sr.InvalidValue):
        sr.algorithms.sssp(g.A, s, method="delta_stepping")


@SETTINGS
@given(gs=graph_and_source(kinds=("negative",)))
def test_sssp_negative_cycle_detection_matches_scipy(gs):
    g, s = gs
    try:
        want = csgraph.bellman_ford(g.csr(), indices=s)   # raises only for a reachable cycle
    except csgraph.NegativeCycleError:
        event("reachable negative cycle")
        with pytest.raises(sr.NegativeCycleError):
            sr.algorithms.sssp(g.A, s)
        with pytest.raises(sr.NegativeCycleError):
            sr.algorithms.sssp(g.A, s, method="bellman_ford", parents=True)
        return
    event("no reachable negative cycle")
    assert_distances(sr.algorithms.sssp(g.A, s, method="bellman_ford"), g, want)


def test_sssp_negative_cycle_examples():
    # 0 -> 1 -> 2 -> 1 with 1 -> 2 -> 1 weighing -1: reachable from 0
    A = sr.Matrix.from_coo([0, 1, 2], [1, 2, 1], [4, 2, -3], nrows=3, ncols=3)
    for method in ("auto", "bellman_ford"):
        with pytest.raises(sr.NegativeCycleError):
            sr.algorithms.sssp(A, 0, method=method)
    # the same cycle, unreachable from source 3; 3 -> 0 only
    B = sr.Matrix.from_coo([1, 2, 3], [2, 1, 0], [2.0, -3.0, 1.5], nrows=4, ncols=4)
    res = sr.algorithms.sssp(B, 3)
    assert res.distance.to_dense(np.inf).tolist() == [1.5, np.inf, np.inf, 0.0]
    # a negative self-loop at a reachable vertex is a negative cycle
    C = sr.Matrix.from_coo([0, 1], [1, 1], [1, -1], nrows=2, ncols=2)
    with pytest.raises(sr.NegativeCycleError):
        sr.algorithms.sssp(C, 0)
    # one negative undirected edge is a negative cycle (u -> v -> u)
    D = sr.Matrix.from_coo([0, 1, 1, 2], [1, 0, 2, 1], [1, 1, -1, -1], nrows=3, ncols=3)
    with pytest.raises(sr.NegativeCycleError):
        sr.algorithms.sssp(D, 0)
    with pytest.raises(sr.InvalidValue):
        sr.algorithms.sssp(D, 0, method="delta_stepping")


def test_sssp_zero_weight_edges():
    #  0 -0-> 1 -0-> 2 -5-> 3 ;  0 -7-> 3 ; 4 isolated
    A = sr.Matrix.from_coo([0, 1, 2, 0], [1, 2, 3, 3], [0, 0, 5, 7], nrows=5, ncols=5)
    for method in ("auto", "bellman_ford", "delta_stepping"):
        res = sr.algorithms.sssp(A, 0, method=method, parents=True)
        assert res.distance.dtype == np.int64
        assert res.distance.to_dense(np.inf).tolist() == [0, 0, 0, 5, np.inf]
        assert res.parent.to_dense(-1).tolist() == [0, 0, 1, 2, -1]


def test_sssp_parents_follow_back_to_the_source_with_zero_weight_cycles():
    # 3 -> 1 and 3 -> 2 (weight 1), and a zero-weight cycle 1 <-> 2. d = [., 1, 1, 0].
    # Both 2 and 3 are tight predecessors of 1 (and 1, 3 of 2). Parents must still form a
    # shortest-path tree: following them from any reached vertex must end at the source
    # (the Graph500 SSSP validation requires this). Taking "the smallest tight predecessor"
    # gives parent(1) = 2 and parent(2) = 1: a cycle that never reaches the source.
    A = sr.Matrix.from_coo([3, 3, 1, 2], [1, 2, 2, 1], [1, 1, 0, 0], nrows=4, ncols=4)
    for method in ("bellman_ford", "delta_stepping"):
        res = sr.algorithms.sssp(A, 3, method=method, parents=True)
        assert res.distance.to_dense(-1).tolist() == [-1, 1, 1, 0]
        parent = res.parent.to_dense(-1).tolist()
        for v in (1, 2):
            seen, u = [], v
            while u != 3 and u not in seen:
                seen.append(u)
                u = parent[u]
            assert u == 3, f"{method}: parents of {v} cycle through {seen} without reaching source 3"


@SETTINGS
@given(gs=graph_and_source(kinds=("positive",)), method=st.sampled_from(["bellman_ford", "delta_stepping"]))
def test_sssp_parents_form_a_shortest_path_tree_for_positive_weights(gs, method):
    g, s = gs
    res = sr.algorithms.sssp(g.A, s, method=method, parents=True)
    d = dense(res.distance, np.inf)
    parent = dense(res.parent, UNREACHED)
    weight = dict(zip(zip(g.rows.tolist(), g.cols.tolist()), g.vals.tolist()))
    for v in np.flatnonzero(np.isfinite(d)).tolist():
        length, u, steps = 0.0, v, 0
        while u != s:
            assert steps < g.n, f"parents from {v} do not reach the source"
            length += weight[(int(parent[u]), u)]
            u, steps = int(parent[u]), steps + 1
        assert length == d[v]


@pytest.mark.parametrize("weights, delta", [([0.6], 0.1), ([33], 1.1)], ids=["float-0.6/0.1", "int-33/1.1"])
def test_sssp_delta_stepping_terminates_for_any_delta(weights, delta):
    # One edge 0 -> 1. delta * floor(d / delta) can round down by a whole bucket
    # (0.6 / 0.1 = 5.999...), so the bucket [lo, lo + delta) computed from the smallest pending
    # distance must still contain it; otherwise nothing is ever settled.
    A = sr.Matrix.from_coo([0], [1], weights, nrows=2, ncols=2)
    with hang_guard(5):  # a 2-vertex graph: milliseconds when it terminates
        res = sr.algorithms.sssp(A, 0, method="delta_stepping", delta=delta)
    assert res.distance.to_dense(np.inf).tolist() == [0, weights[0]]


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_sssp_nan_weights_are_rejected(dtype):
    # the NaN edge is not even reachable: the weights are invalid as a whole
    A = sr.Matrix.from_coo([0, 2], [1, 3], [1.0, np.nan], nrows=4, ncols=4, dtype=dtype)
    for method in ("auto", "bellman_ford", "delta_stepping"):
        with pytest.raises(sr.InvalidValue):
            sr.algorithms.sssp(A, 0, method=method)


def test_sssp_errors():
    A = sr.Matrix.from_coo([0, 1], [1, 2], [1.0, 2.0], nrows=3, ncols=3)
    for bad in (-1, 3):
        with pytest.raises(sr.IndexOutOfBound):
            sr.algorithms.sssp(A, bad)
    with pytest.raises(sr.DimensionMismatch):
        sr.algorithms.sssp(sr.Matrix.from_coo([0], [1], [1.0], nrows=2, ncols=3), 0)
    with pytest.raises(sr.InvalidValue):
        sr.algorithms.sssp(A, 0, method="dijkstra")
    for bad in (0, -1.0, np.inf, np.nan):
        with pytest.raises(sr.InvalidValue):
            sr.algorithms.sssp(A, 0, method="delta_stepping", delta=bad)


@pytest.mark.parametrize("dtype, want", [("bool", np.int64), ("int8", np.int64), ("int32", np.int64),
                                         ("uint8", np.int64), ("int64", np.int64),
                                         ("float32", np.float64), ("float64", np.float64)])
def test_sssp_distance_dtype(dtype, want):
    A = sr.Matrix.from_coo([0, 1], [1, 2], [1, 1], nrows=4, ncols=4, dtype=dtype)
    for method in ("bellman_ford", "delta_stepping"):
        d = sr.algorithms.sssp(A, 0, method=method).distance
        assert d.dtype == want
        assert d.to_dense(np.inf).tolist() == [0, 1, 2, np.inf]


@pytest.mark.parametrize("name, weights", [(name, w) for name in ("kronecker8", "kronecker10", "grid2d", "rgg")
                                            for w in ((1, 255), (0.0, 1.0))] + [("rgg", "distance")])
def test_sssp_generated_graphs(name, weights):
    A = {"kronecker8": lambda: sr.generators.kronecker(8, seed=5, weights=weights),
         "kronecker10": lambda: sr.generators.kronecker(10, seed=6, weights=weights),
         "grid2d": lambda: sr.generators.grid(20, 25, weights=weights, seed=7),
         "rgg": lambda: sr.generators.random_geometric(800, seed=8, weights=weights)}[name]()
    n = A.nrows
    s = int(np.argmax(np.bincount(A.to_coo()[0], minlength=n)))
    want = csgraph.dijkstra(A.to_scipy().astype(np.float64), indices=s)
    for method in ("bellman_ford", "delta_stepping"):
        res = sr.algorithms.sssp(A, s, method=method, parents=True)
        got = res.distance.to_dense(np.inf).astype(np.float64)
        assert res.distance.nvals == np.isfinite(want).sum()
        if A.dtype.kind in "iu":
            assert res.distance.dtype == np.int64
            np.testing.assert_array_equal(got, want)
        else:
            assert res.distance.dtype == np.float64
            np.testing.assert_allclose(got, want, rtol=1e-12)
        check_sssp(A, s, res.distance, res.parent)
