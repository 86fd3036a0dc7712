"""``bfs(..., strategy=name)``: the seed notes' BFS strategies (NumPy formulations on the CPU)
against scipy.sparse.csgraph on small graphs built to reach their corners: directed and
undirected, disconnected, isolated sources, self-loops, hubs past the warp / block buckets and
the node split, frontiers that overflow the single block's and a block's local queue, long
paths; plus max_depth, the trace, the launch counts and the errors."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as csgraph

import semiring as sr
from semiring.algorithms.bfs import STRATEGIES
from semiring.backends.cpu import bfs_strategies as cpu_strategies


def _matrix(n, rows, cols):
    rows, cols = np.asarray(rows, dtype=np.int64), np.asarray(cols, dtype=np.int64)
    return sr.Matrix.from_coo(rows, cols, None, nrows=n, ncols=n, dtype="bool", dup_op=sr.binary.lor)


def _random(n, m, seed, symmetric=False, loops=True):
    rng = np.random.default_rng(seed)
    u, v = rng.integers(0, n, m), rng.integers(0, n, m)
    if not loops:
        u, v = u[u != v], v[u != v]
    if symmetric:
        u, v = np.concatenate([u, v]), np.concatenate([v, u])
    return _matrix(n, u, v)


def _hub_graph():
    """0 -> 3000 leaves (hub: block bucket, 94 virtual nodes, overflows the single block's and
    one block's local queue); every leaf -> 3001; 3001 -> a path of 12; vertex 3014 isolated."""
    leaves = np.arange(1, 3001)
    path = np.arange(3001, 3013)
    rows = np.concatenate([np.zeros(3000, int), leaves, path])
    cols = np.concatenate([leaves, np.full(3000, 3001), path + 1])
    return _matrix(3015, rows, cols)


def _warp_bucket_graph():
    """Undirected: 40 vertices of degree 40..79 (warp bucket) around a ring, with leaves."""
    rows, cols, nxt = [], [], 40
    for h in range(40):
        rows.append(h)
        cols.append((h + 1) % 40)
        for _ in range(40 + h):
            rows.append(h)
            cols.append(nxt)
            nxt += 1
    rows, cols = np.array(rows), np.array(cols)
    return _matrix(nxt, np.concatenate([rows, cols]), np.concatenate([cols, rows]))


def _path(n):
    return _matrix(n, np.arange(n - 1), np.arange(1, n))


#: name -> (matrix, sources)
CASES = {
    "directed": (_random(60, 150, 1), (0, 7, 59)),
    "directed-sparse": (_random(80, 70, 2), (0, 3, 40)),
    "undirected": (_random(70, 120, 3, symmetric=True, loops=False), (0, 35)),
    "disconnected": (_matrix(40, np.r_[np.arange(0, 9), np.arange(20, 29), np.arange(1, 10)],
                             np.r_[np.arange(1, 10), np.arange(21, 30), np.arange(0, 9)]), (0, 25, 35)),
    "isolated-source": (_matrix(6, [1, 2, 3], [2, 3, 4]), (0, 5)),
    "self-loops": (_matrix(5, [0, 0, 1, 1, 2, 4], [0, 1, 1, 2, 2, 4]), (0, 4)),
    "source-with-only-a-loop": (_matrix(4, [0, 1, 2], [0, 2, 3]), (0,)),
    "single-vertex": (_matrix(1, [], []), (0,)),
    "hub": (_hub_graph(), (0, 5, 3001)),
    "warp-buckets": (_warp_bucket_graph(), (0, 45)),
    "path": (_path(300), (0, 150)),
}


def _scipy_levels(A, s):
    S = sp.csr_array(A.to_scipy(), dtype=np.float64)
    d = csgraph.shortest_path(S, unweighted=True, directed=True, indices=s)
    levels = np.where(np.isinf(d), -1, d).astype(np.int64)
    # the reached set once more, from scipy's BFS itself
    order = csgraph.breadth_first_order(S, s, directed=True, return_predecessors=False)
    assert set(order.tolist()) == set(np.flatnonzero(levels >= 0).tolist())
    return levels


def _assert_parents(A, s, level, parent):
    """Each reached vertex but the source has a parent on the level above along an edge of A."""
    rows, cols, _ = A.to_coo()
    edges = set(zip(rows.tolist(), cols.tolist()))
    assert parent[s] == s
    for v in np.flatnonzero(level > 0).tolist():
        p = int(parent[v])
        assert level[p] == level[v] - 1, f"parent {p} of {v} is on level {level[p]}, not {level[v] - 1}"
        assert (p, v) in edges, f"parent edge {p} -> {v} is not an edge"
    assert (parent[level < 0] == -1).all()


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_strategy_matches_scipy(strategy, case):
    A, sources = CASES[case]
    G = sr.algorithms.Graph(A)
    for s in sources:
        want = _scipy_levels(A, s)
        r = sr.algorithms.bfs(G, s, parents=True, strategy=strategy)
        assert r.engine == f"strategy:{strategy}"
        level = r.level.to_dense(-1)
        np.testing.assert_array_equal(level, want)
        assert r.level.dtype == np.int64 and r.level.nvals == int((want >= 0).sum())
        assert r.parent.dtype == np.int64 and r.parent.nvals == r.level.nvals
        _assert_parents(A, s, want, r.parent.to_dense(-1))
        assert r.depth == want.max()
        plain = sr.algorithms.bfs(G, s, strategy=strategy)
        assert plain.parent is None
        np.testing.assert_array_equal(plain.level.to_dense(-1), want)


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("max_depth", [0, 1, 2, 5])
def test_strategy_max_depth_and_trace(strategy, max_depth):
    for A, s in ((CASES["directed"][0], 0), (CASES["hub"][0], 0), (CASES["undirected"][0], 35)):
        full = _scipy_levels(A, s)
        for md in (max_depth, None):
            want = full if md is None else np.where(full <= md, full, -1)
            r = sr.algorithms.bfs(A, s, parents=True, max_depth=md, strategy=strategy)
            np.testing.assert_array_equal(r.level.to_dense(-1), want)
            _assert_parents(A, s, want, r.parent.to_dense(-1))
            # the trace: one entry per level run, frontier and discovered from the levels,
            # edges examined as the strategy sweeps them
            counts = np.bincount(want[want >= 0])
            rows, cols, _ = A.to_coo()
            out_deg, in_deg = np.bincount(rows, minlength=A.nrows), np.bincount(cols, minlength=A.nrows)
            deepest = counts.size - 1
            assert deepest <= len(r.trace) <= deepest + 1
            if md is not None:
                assert len(r.trace) <= md
            for t in r.trace:
                assert t.frontier == counts[t.depth - 1]
                assert t.discovered == (counts[t.depth] if t.depth < counts.size else 0)
                if strategy == "vertex_pull":
                    assert t.direction == "pull"
                    assert t.edges_examined == in_deg[(full < 0) | (full >= t.depth)].sum()
                elif strategy == "edge":
                    assert (t.direction, t.edges_examined) == ("edge", A.nvals)
                else:
                    assert t.direction == "push"
                    assert t.edges_examined == out_deg[full == t.depth - 1].sum()
            alg = sr.algorithms.bfs(A, s, max_depth=md, direction="push", engine="algebra")
            assert [(t.frontier, t.discovered) for t in r.trace] == [(t.frontier, t.discovered) for t in alg.trace]


def test_launch_counts():
    # a path of 300 vertices: 300 levels (the last empty); one launch each, plus init and finish
    A = CASES["path"][0]
    for strategy in ("vertex_push", "vertex_pull", "edge", "queue_atomic", "queue_privatized", "degree_bucketed"):
        assert sr.algorithms.bfs(A, 0, strategy=strategy).launches == 300 + 2, strategy
    # node_split: counts, scan and expand per level with work (299), none for the last
    assert sr.algorithms.bfs(A, 0, strategy="node_split").launches == 3 * 299 + 2
    # single_block: the whole search in one launch
    r = sr.algorithms.bfs(A, 0, strategy="single_block")
    assert (r.launches, r.depth) == (3, 299)
    # the hub: level 1 (3000 vertices) overflows the block's queue, so the single block returns;
    # one multi-block level finds 3001, then a single block runs the rest
    H = CASES["hub"][0]
    assert sr.algorithms.bfs(H, 0, strategy="single_block").launches == 2 + 3
    # degree_bucketed: the hub's level runs the block kernel, the leaves' the thread kernel
    r = sr.algorithms.bfs(H, 0, strategy="degree_bucketed")
    assert r.launches == 2 + len(r.trace)
    r = sr.algorithms.bfs(CASES["warp-buckets"][0], 0, strategy="degree_bucketed")
    assert r.launches > 2 + len(r.trace)  # warp- and thread-bucket vertices share levels
    # max_depth bounds the single block's levels too
    assert sr.algorithms.bfs(A, 0, strategy="single_block", max_depth=7).level.nvals == 8


def test_per_graph_data_is_built_once():
    G = sr.algorithms.Graph(CASES["hub"][0])
    sr.algorithms.bfs(G, 0, strategy="edge")
    sr.algorithms.bfs(G, 0, strategy="node_split")
    keys = set(G.cache)
    rows = G.cache["bfs_strategy_rows_cpu"]
    vfirst, vptr = G.cache[("bfs_strategy_split_cpu", cpu_strategies.SPLIT_K)]
    sr.algorithms.bfs(G, 3, strategy="edge")
    sr.algorithms.bfs(G, 3, strategy="node_split")
    assert set(G.cache) == keys and G.cache["bfs_strategy_rows_cpu"] is rows
    # the split: the hub's 3000 edges in ceil(3000 / 32) = 94 virtual nodes of at most 32 edges
    assert vfirst[1] - vfirst[0] == 94
    sizes = np.diff(vptr)
    assert sizes.max() == cpu_strategies.SPLIT_K and sizes.min() >= 1
    assert vptr[-1] == G.A.nvals and vfirst[-1] == sizes.shape[0]


def test_privatized_queue_spills_past_the_local_capacity():
    # one block of the hub's level claims 3000 vertices: the first LOCAL_CAP stay local, the
    # rest go straight to the global queue, which holds them first
    A = CASES["hub"][0]
    optr, oidx = A._indptr, A._indices
    level = np.full(A.nrows, -1, dtype=np.int64)
    level[0] = 0
    st = {"optr": optr, "oidx": oidx, "level": level, "parent": None, "launches": 0}
    q = cpu_strategies._queue_privatized_level(st, np.array([0]), 0)
    assert sorted(q.tolist()) == list(range(1, 3001))
    spill = 3000 - cpu_strategies.LOCAL_CAP
    assert q[:spill].tolist() == list(range(cpu_strategies.LOCAL_CAP + 1, 3001))


def test_strategy_errors():
    A = _matrix(3, [0, 1], [1, 2])
    for bad in ("queue", "VERTEX_PUSH", "", 3, ("edge",)):
        with pytest.raises(sr.InvalidValue, match="strategy must be None or one of"):
            sr.algorithms.bfs(A, 0, strategy=bad)
    for kw in ({"direction": "push"}, {"direction": "pull"}, {"engine": "fused"}, {"engine": "algebra"},
               {"deterministic": True}):
        with pytest.raises(sr.InvalidValue, match="only parents and max_depth combine"):
            sr.algorithms.bfs(A, 0, strategy="queue_atomic", **kw)
    with pytest.raises(sr.IndexOutOfBound):
        sr.algorithms.bfs(A, 3, strategy="edge")
    with pytest.raises(sr.InvalidValue):
        sr.algorithms.bfs(A, 0, strategy="edge", max_depth=-1)
    with pytest.raises(sr.InvalidValue):
        cpu_strategies.bfs("nope", A._indptr, A._indices, 0)
