"""``bfs(..., strategy=name)`` on the GPU (CuPy RawKernels) against scipy.sparse.csgraph and
against the CPU formulation of the same strategy: levels, parents, the trace and the launch
count must agree (frontier sizes, hence launches, do not depend on which parent wins). One
parametrized case per strategy and graph, so a failing kernel names itself.

The ``gpu`` cases check every launch's arguments against the kernel's CUDA signature
(``CHECK_ARGS``). On the NumPy stand-in for CuPy (no ``RawModule``) the kernels are replaced
by the Python emulations in ``_bfs_kernel_emulators`` (the host code runs, the CUDA does not).
"""

from __future__ import annotations

import numpy as np
import pytest

import semiring as sr
from _bfsgraphs import CASES, assert_parents, matrix, scipy_levels
from semiring.algorithms.bfs import STRATEGIES
from semiring.backends._xp import asnumpy
from semiring.backends.gpu import bfs_strategies as gpu_strategies
from _devices import DEVICES


#: The reference cases plus a Kronecker graph (hubs, short), a 2-d grid (long, thin) and an
#: undirected random graph with a few thousand vertices (many blocks per level).
GRAPHS = dict(CASES)
GRAPHS["kronecker-10"] = (sr.apply(sr.generators.kronecker(10), sr.unary.one).dup("bool"), (0, 17))
GRAPHS["grid-40x40"] = (sr.apply(sr.generators.grid(40, 40), sr.unary.one).dup("bool"), (0, 820))


def _emulated():
    import cupy

    return not hasattr(cupy, "RawModule")


@pytest.fixture(autouse=True)
def _kernels(request, monkeypatch):
    """gpu cases: argument checks on; on the NumPy stand-in, emulated kernels."""
    if request.node.get_closest_marker("gpu") is None:
        return
    monkeypatch.setattr(gpu_strategies, "CHECK_ARGS", True)
    if _emulated():
        import _bfs_kernel_emulators as emu

        monkeypatch.setattr(gpu_strategies, "_launch", emu.launch)


def _run(A, device, s, **kw):
    G = sr.algorithms.Graph(A.to(device) if device == "gpu" else A)
    return sr.algorithms.bfs(G, s, **kw)


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
def test_strategy_on_device(device, strategy, case):
    A, sources = GRAPHS[case]
    if device == "gpu" and _emulated() and A.nvals > 20_000 and strategy in ("edge", "vertex_push", "vertex_pull"):
        pytest.skip("the Python emulation of an all-vertex or all-edge sweep per level is too slow here")
    for s in sources:
        want = scipy_levels(A, s)
        r = _run(A, device, s, parents=True, strategy=strategy)
        assert r.engine == f"strategy:{strategy}" and r.level.device == device
        level = asnumpy(r.level.to_dense(-1))
        np.testing.assert_array_equal(level, want)
        assert r.level.nvals == int((want >= 0).sum()) and r.parent.nvals == r.level.nvals
        assert_parents(A, s, want, asnumpy(r.parent.to_dense(-1)))
        cpu = r if device == "cpu" else _run(A, "cpu", s, parents=True, strategy=strategy)
        assert [tuple(vars(t).values()) for t in r.trace] == [tuple(vars(t).values()) for t in cpu.trace]
        assert r.launches == cpu.launches
        if device == "gpu":
            assert r.host_syncs == _expected_syncs(strategy, r)
        plain = _run(A, device, s, strategy=strategy, max_depth=2)
        assert plain.parent is None
        np.testing.assert_array_equal(asnumpy(plain.level.to_dense(-1)), np.where(want <= 2, want, -1))


@pytest.mark.gpu
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_grid_stride_loops(strategy, monkeypatch):
    # three blocks at most: every kernel's grid-stride loop runs many rounds, and the privatized
    # blocks fill their local queues
    monkeypatch.setattr(gpu_strategies, "MAX_GRID", 3)
    for case in ("undirected", "hub", "warp-buckets"):
        A, sources = GRAPHS[case]
        for s in sources:
            r = _run(A, "gpu", s, parents=True, strategy=strategy)
            want = scipy_levels(A, s)
            np.testing.assert_array_equal(asnumpy(r.level.to_dense(-1)), want)
            assert_parents(A, s, want, asnumpy(r.parent.to_dense(-1)))


@pytest.mark.gpu
@pytest.mark.parametrize("types", [(np.int64, np.int64), (np.int64, np.int32)])
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_wide_index_types(strategy, types):
    # the module compiled for int64 offsets (and int64 columns)
    import cupy as cp

    A, sources = GRAPHS["hub"]
    D = A.to("gpu")
    W = sr.Matrix._from_csr(D.nrows, D.ncols, D.dtype, D._indptr.astype(types[0]), D._indices.astype(types[1]),
                            D._values)
    for s in sources:
        r = sr.algorithms.bfs(W, s, parents=True, strategy=strategy)
        assert isinstance(r.level.to_dense(-1), cp.ndarray)
        want = scipy_levels(A, s)
        np.testing.assert_array_equal(asnumpy(r.level.to_dense(-1)), want)
        assert_parents(A, s, want, asnumpy(r.parent.to_dense(-1)))


def test_kernel_signatures_and_argument_checks():
    sigs = gpu_strategies.signatures()
    assert set(sigs) == {"bfs_init", "bfs_vertex_push", "bfs_vertex_pull", "bfs_edge", "bfs_queue_atomic",
                         "bfs_queue_privatized", "bfs_single_block", "bfs_bucket_thread", "bfs_bucket_warp",
                         "bfs_bucket_block", "bfs_split_counts", "bfs_split_expand", "bfs_finish"}
    assert sigs["bfs_init"] == [(False, "int"), (False, "int"), (True, "int"), (True, "int"), (False, "int"),
                                (True, "int"), (True, "ull")]
    types = ("int", "int")
    q, ctl = np.zeros(4, np.int32), np.zeros(24, np.uint64)
    good = (np.int32(4), np.int32(0), q, q, np.int32(0), q, ctl)
    gpu_strategies.check_args(types, "bfs_init", good)
    for bad in (good[:-1], (4,) + good[1:], (np.int64(4),) + good[1:], good[:6] + (q,),
                good[:2] + (np.int32(0),) + good[3:]):
        with pytest.raises(TypeError):
            gpu_strategies.check_args(types, "bfs_init", bad)
    with pytest.raises(TypeError):
        gpu_strategies.check_args(types, "bfs_nope", good)
    # the source compiles with these constants for both index widths (the text, not nvcc, here)
    for t in (("int", "int"), ("long long", "long long")):
        src = gpu_strategies.source(t)
        assert f"#define IPT {t[0]}\n" in src and f"#define SB_CAP {gpu_strategies.SB_CAP}\n" in src
        assert '#include "common.cuh"' not in src and "typedef unsigned long long ull;" in src


def test_strategy_bad_values_on_the_gpu_matrix_path():
    with pytest.raises(sr.InvalidValue):
        gpu_strategies.bfs("nope", np.zeros(2, np.int32), np.zeros(0, np.int32), 0)


def test_single_block_launches_on_a_path():
    A = matrix(500, np.arange(499), np.arange(1, 500))
    r = _run(A, "cpu", 0, strategy="single_block")
    assert r.launches == 3 and r.depth == 499


@pytest.mark.gpu
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_long_path_histogram_in_global_memory(strategy):
    # 700 levels: more than HIST_CAP, so bfs_finish counts levels in global memory
    n = gpu_strategies.HIST_CAP + 188
    A = matrix(n, np.arange(n - 1), np.arange(1, n))
    r = _run(A, "gpu", 0, parents=True, strategy=strategy)
    np.testing.assert_array_equal(asnumpy(r.level.to_dense(-1)), np.arange(n))
    np.testing.assert_array_equal(asnumpy(r.parent.to_dense(-1)), np.r_[0, np.arange(n - 1)])
    assert [t.discovered for t in r.trace] == [1] * (n - 1) + [0]
    assert r.launches == _run(A, "cpu", 0, strategy=strategy).launches
