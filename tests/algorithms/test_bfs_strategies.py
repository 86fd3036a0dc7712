"""``bfs(..., strategy=name)``: the named BFS strategies (NumPy formulations on the CPU, CuPy
RawKernels on the GPU: one body over both devices) against scipy.sparse.csgraph on graphs
built to reach their corners: directed and undirected, disconnected, isolated sources,
self-loops, hubs past the warp / block buckets and the node split, frontiers that overflow the
single block's and a block's local queue, long paths, a Kronecker graph and a grid; plus
max_depth, the trace, the launch counts and the errors. One parametrized case per strategy and
graph, so a failing kernel names itself; the GPU kernels' own corners are in
tests/gpu/test_gpu_bfs_strategies.py."""

from __future__ import annotations

import numpy as np
import pytest

import semiring as sr
from _bfsgraphs import (CASES, GRAPHS, assert_parents, emulated, gpu_kernels,  # noqa: F401 (autouse fixture)
                        matrix, run, scipy_levels)
from _devices import DEVICES
from semiring.algorithms.bfs import STRATEGIES
from semiring.backends._xp import asnumpy
from semiring.backends.cpu import bfs_strategies as cpu_strategies


def _expected_syncs(strategy, r):
    """Device-to-host reads of a GPU strategy run: one per level-launch group, one for the
    result's histogram, one for the source's degree (degree_bucketed, node_split)."""
    levels = len(r.trace)
    if strategy == "single_block":
        return r.launches - 2 + 1
    if strategy == "node_split":
        return (r.launches - 2) // 3 + 2
    return levels + 1 + (strategy == "degree_bucketed")


@pytest.mark.parametrize("case", sorted(GRAPHS))
@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("parents", [True, False], ids=["parents", "levels"])
def test_strategy_matches_scipy(parents, device, strategy, case):
    """Levels (and parents) against scipy; the trace and the launch count against the CPU
    formulation (frontier sizes, hence launches, do not depend on which parent wins); on the
    GPU the host reads; and the same search cut at depth 2."""
    A, sources = GRAPHS[case]
    if device == "gpu" and emulated() and A.nvals > 20_000 and strategy in ("edge", "vertex_push", "vertex_pull"):
        pytest.skip("the Python emulation of an all-vertex or all-edge sweep per level is too slow here")
    for s in sources:
        want = scipy_levels(A, s)
        r = run(A, device, s, parents=parents, strategy=strategy)
        assert r.engine == f"strategy:{strategy}" and r.level.device == device
        np.testing.assert_array_equal(asnumpy(r.level.to_dense(-1)), want)
        assert r.level.dtype == np.int64 and r.level.nvals == int((want >= 0).sum())
        assert r.depth == want.max()
        if parents:
            assert r.parent.dtype == np.int64 and r.parent.nvals == r.level.nvals
            assert_parents(A, s, want, asnumpy(r.parent.to_dense(-1)))
        else:
            assert r.parent is None
        cpu = r if device == "cpu" else run(A, "cpu", s, parents=parents, strategy=strategy)
        assert [tuple(vars(t).values()) for t in r.trace] == [tuple(vars(t).values()) for t in cpu.trace]
        assert r.launches == cpu.launches
        if device == "gpu" and parents:
            assert r.host_syncs == _expected_syncs(strategy, r)
        shallow = run(A, device, s, parents=parents, strategy=strategy, max_depth=2)
        cut = np.where(want <= 2, want, -1)
        np.testing.assert_array_equal(asnumpy(shallow.level.to_dense(-1)), cut)
        if parents:
            assert_parents(A, s, cut, asnumpy(shallow.parent.to_dense(-1)))
        else:
            assert shallow.parent is None


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("max_depth", [0, 1, 2, 5])
def test_strategy_max_depth_and_trace(strategy, max_depth):
    for A, s in ((CASES["directed"][0], 0), (CASES["hub"][0], 0), (CASES["undirected"][0], 35)):
        full = scipy_levels(A, s)
        for md in (max_depth, None):
            want = full if md is None else np.where(full <= md, full, -1)
            r = sr.algorithms.bfs(A, s, parents=True, max_depth=md, strategy=strategy)
            np.testing.assert_array_equal(r.level.to_dense(-1), want)
            assert_parents(A, s, want, r.parent.to_dense(-1))
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
    items = G.derived()
    rows = items["edge_rows"]
    vfirst, vptr = items[("node_split", cpu_strategies.SPLIT_K)]
    sr.algorithms.bfs(G, 3, strategy="edge")
    sr.algorithms.bfs(G, 3, strategy="node_split")
    again = G.derived()
    assert again.keys() == items.keys() and all(again[k] is v for k, v in items.items())
    assert G.edge_rows is rows and G.node_split(cpu_strategies.SPLIT_K)[0] is vfirst
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
    A = matrix(3, [0, 1], [1, 2])
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


def test_cpu_and_gpu_modules_share_names_and_constants():
    # the NumPy formulation follows the kernels' organization: same names, same capacities
    from semiring.backends.gpu import bfs_strategies as gpu_strategies

    assert cpu_strategies.STRATEGIES == gpu_strategies.STRATEGIES == STRATEGIES
    for name in ("BLOCK", "LOCAL_CAP", "SB_CAP", "WARP_DEGREE", "BLOCK_DEGREE", "SPLIT_K"):
        assert getattr(cpu_strategies, name) == getattr(gpu_strategies, name), name
