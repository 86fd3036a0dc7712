"""Oracle tests of ``bfs``: levels, parents and the trace against ``scipy.sparse.csgraph``
hop counts and against NumPy written here from the definitions (minimum valid BFS parent,
trace bookkeeping). Nothing is computed with the code under test.

Random graphs come from Hypothesis (tests/_algorithms.py); a few generated graphs (Graph500
Kronecker, grids, random geometric) add size."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.sparse import csgraph

import semiring as sr
from semiring.testing.validate import check_bfs

from _algorithms import SETTINGS, UNREACHED, _oracle_form, dense, generated, graph_and_source  # noqa: F401, F811 (the generated fixture)

DIRECTIONS = ("auto", "push", "pull")


# ---------------------------------------------------------------------------------------------
# the oracle's levels and parents
# ---------------------------------------------------------------------------------------------


def hops(g, source):
    """Oracle BFS levels: csgraph unweighted shortest paths; -1 where unreachable."""
    d = csgraph.shortest_path(g.csr(np.ones(g.rows.size)), method="D", unweighted=True, indices=source)
    return np.where(np.isfinite(d), d, UNREACHED).astype(np.int64)


def min_parents(n, rows, cols, level, source):
    """The smallest valid BFS parent of every reached vertex, from the levels (-1 elsewhere)."""
    tight = (level[rows] >= 0) & (level[cols] == level[rows] + 1)
    best = np.full(n, np.iinfo(np.int64).max)
    np.minimum.at(best, cols[tight], rows[tight])
    best[level < 0] = UNREACHED
    best[source] = source
    return best


def assert_parents_valid(rows, cols, level, parent, source):
    """Own check (independent of semiring.testing): each reached vertex but the source has a
    parent one level up along a real edge; unreached vertices have none."""
    edges = set(zip(rows.tolist(), cols.tolist()))
    assert parent[source] == source
    for v in np.flatnonzero(level >= 0).tolist():
        if v == source:
            continue
        p = int(parent[v])
        assert (p, v) in edges, f"parent edge {p} -> {v} is not an edge"
        assert level[p] == level[v] - 1, f"parent {p} of {v} is at level {level[p]}, not {level[v] - 1}"
    assert (parent[level < 0] == UNREACHED).all()


# ---------------------------------------------------------------------------------------------
# BFS
# ---------------------------------------------------------------------------------------------

@SETTINGS
@given(gs=graph_and_source(), direction=st.sampled_from(DIRECTIONS), parents=st.booleans())
def test_bfs_levels_and_parents_match_scipy(gs, direction, parents):
    g, s = gs
    r = sr.algorithms.bfs(g.A, s, parents=parents, direction=direction)
    want = hops(g, s)
    assert r.level.dtype == np.int64 and r.level.size == g.n
    assert r.level.nvals == int((want >= 0).sum())  # unreached vertices are absent
    np.testing.assert_array_equal(dense(r.level, UNREACHED), want)
    assert r.depth == want.max()
    if not parents:
        assert r.parent is None
        return
    assert r.parent.dtype == np.int64 and r.parent.nvals == r.level.nvals
    parent = dense(r.parent, UNREACHED)
    assert_parents_valid(g.rows, g.cols, want, parent, s)
    assert check_bfs(g.A, s, r.level, r.parent) == int((want >= 0).sum())


@SETTINGS
@given(gs=graph_and_source(), direction=st.sampled_from(DIRECTIONS))
def test_bfs_deterministic_parents_are_the_smallest_valid_parent(gs, direction):
    g, s = gs
    r = sr.algorithms.bfs(g.A, s, parents=True, direction=direction, deterministic=True)
    want = hops(g, s)
    np.testing.assert_array_equal(dense(r.level, UNREACHED), want)
    np.testing.assert_array_equal(dense(r.parent, UNREACHED), min_parents(g.n, g.rows, g.cols, want, s))


@SETTINGS
@given(gs=graph_and_source(), direction=st.sampled_from(DIRECTIONS),
       max_depth=st.one_of(st.none(), st.integers(0, 6)))
def test_bfs_trace_is_consistent_with_the_levels(gs, direction, max_depth):
    g, s = gs
    r = sr.algorithms.bfs(g.A, s, direction=direction, max_depth=max_depth)
    full = hops(g, s)
    want = full if max_depth is None else np.where(full <= max_depth, full, UNREACHED)
    np.testing.assert_array_equal(dense(r.level, UNREACHED), want)
    counts = np.bincount(want[want >= 0])           # counts[L] = vertices at level L
    deepest = counts.size - 1
    out_deg = np.bincount(g.rows, minlength=g.n)    # stored entries per row (loops included)
    in_deg = np.bincount(g.cols, minlength=g.n)
    # one entry per level searched: depths 1, 2, ... with no gap, each level that found vertices
    # present, at most one extra (empty) level, never past max_depth
    assert [t.depth for t in r.trace] == list(range(1, len(r.trace) + 1))
    assert deepest <= len(r.trace) <= deepest + 1
    if max_depth is not None:
        assert len(r.trace) <= max_depth
    for t in r.trace:
        assert t.frontier == counts[t.depth - 1]
        assert t.discovered == (counts[t.depth] if t.depth < counts.size else 0)
        assert t.direction == direction if direction != "auto" else t.direction in ("push", "pull")
        if t.direction == "push":   # out-edges of the frontier
            assert t.edges_examined == out_deg[full == t.depth - 1].sum()
        else:                        # in-edges of the vertices not yet visited
            assert t.edges_examined == in_deg[(full < 0) | (full >= t.depth)].sum()
    assert sum(t.discovered for t in r.trace) == counts.sum() - 1


@SETTINGS
@given(gs=graph_and_source(), max_depth=st.integers(0, 4), direction=st.sampled_from(DIRECTIONS))
def test_bfs_max_depth_truncates_levels_and_parents(gs, max_depth, direction):
    g, s = gs
    r = sr.algorithms.bfs(g.A, s, parents=True, direction=direction, max_depth=max_depth)
    full = hops(g, s)
    want = np.where(full <= max_depth, full, UNREACHED)
    np.testing.assert_array_equal(dense(r.level, UNREACHED), want)
    assert_parents_valid(g.rows, g.cols, want, dense(r.parent, UNREACHED), s)


@SETTINGS
@given(gs=graph_and_source(kinds=("bool",)))
def test_bfs_accepts_a_graph_object(gs):
    g, s = gs
    G = sr.algorithms.Graph(g.A)
    a = sr.algorithms.bfs(G, s, parents=True, deterministic=True)
    np.testing.assert_array_equal(dense(a.level, UNREACHED), hops(g, s))
    np.testing.assert_array_equal(dense(a.parent, UNREACHED),
                                  min_parents(g.n, g.rows, g.cols, hops(g, s), s))


def test_bfs_explicit_zero_is_an_edge():
    A = sr.Matrix.from_coo([0, 1], [1, 2], [0.0, 0], nrows=3, ncols=3)
    assert A.nvals == 2
    for direction in DIRECTIONS:
        assert sr.algorithms.bfs(A, 0, direction=direction).level.to_dense(-1).tolist() == [0, 1, 2]


def test_bfs_errors():
    A = sr.Matrix.from_coo([0, 1], [1, 2], nrows=3, ncols=3)
    for bad in (-1, 3, 10):
        with pytest.raises(sr.IndexOutOfBound):
            sr.algorithms.bfs(A, bad)
    with pytest.raises(sr.DimensionMismatch):
        sr.algorithms.bfs(sr.Matrix.from_coo([0], [1], nrows=2, ncols=3), 0)
    for bad in ("both", "PUSH", None, ""):
        with pytest.raises(sr.InvalidValue):
            sr.algorithms.bfs(A, 0, direction=bad)
    for bad in (-1, 1.5, "2"):
        with pytest.raises(sr.InvalidValue):
            sr.algorithms.bfs(A, 0, max_depth=bad)
    with pytest.raises(sr.InvalidValue):
        sr.algorithms.bfs(A.to_scipy(), 0)  # not a Matrix


@pytest.mark.parametrize("name", ["kronecker8", "kronecker9", "kronecker10", "grid2d", "grid3d", "rgg"])
@pytest.mark.parametrize("direction", DIRECTIONS)
def test_bfs_generated_graphs(generated, name, direction):
    A = generated[name]
    n = A.nrows
    r, c, _ = _oracle_form(A)
    deg = np.bincount(r, minlength=n)
    for s in (int(np.argmax(deg)), 0, n - 1):
        d = csgraph.shortest_path(A.to_scipy().astype(np.float64), unweighted=True, indices=s)
        want = np.where(np.isfinite(d), d, UNREACHED).astype(np.int64)
        res = sr.algorithms.bfs(A, s, parents=True, direction=direction)
        np.testing.assert_array_equal(dense(res.level, UNREACHED), want)
        check_bfs(A, s, res.level, res.parent)
        det = sr.algorithms.bfs(A, s, parents=True, direction=direction, deterministic=True)
        np.testing.assert_array_equal(dense(det.parent, UNREACHED), min_parents(n, r, c, want, s))


def test_bfs_auto_switches_to_pull_on_a_kronecker_graph(generated):
    # Beamer's heuristic: from a hub of a low-diameter power-law graph the second frontier's
    # out-edges exceed (unexplored edges) / ALPHA, so "auto" must pull at some level.
    A = generated["kronecker10"]
    hub = int(np.argmax(np.bincount(A.to_coo()[0], minlength=A.nrows)))
    trace = sr.algorithms.bfs(A, hub, direction="auto").trace
    assert [t.direction for t in trace][0] == "push"
    assert "pull" in [t.direction for t in trace]
