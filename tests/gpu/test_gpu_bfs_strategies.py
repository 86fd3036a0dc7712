"""``bfs(..., strategy=name)``: the GPU kernels' own corners (CuPy RawKernels): grid-stride
loops of a few blocks, int64 offsets and columns, level histograms past the shared-memory
capacity, the kernel signatures and their argument checks. Each strategy on both devices
against scipy and the CPU formulation is ``test_strategy_matches_scipy``
(tests/algorithms/test_bfs_strategies.py).

The ``gpu`` cases check every launch's arguments against the kernel's CUDA signature
(``CHECK_ARGS``). On the NumPy stand-in for CuPy (no ``RawModule``) the kernels are replaced
by the Python emulations in ``_bfs_kernel_emulators`` (the host code runs, the CUDA does not).
"""

from __future__ import annotations

import numpy as np
import pytest

import semiring as sr
from _bfsgraphs import GRAPHS, assert_parents, gpu_kernels, matrix, run, scipy_levels  # noqa: F401 (autouse fixture)
from semiring.algorithms.bfs import STRATEGIES
from semiring.backends._xp import asnumpy
from semiring.backends.gpu import bfs_strategies as gpu_strategies


@pytest.mark.gpu
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_grid_stride_loops(strategy, monkeypatch):
    # three blocks at most: every kernel's grid-stride loop runs many rounds, and the privatized
    # blocks fill their local queues
    monkeypatch.setattr(gpu_strategies, "MAX_GRID", 3)
    for case in ("undirected", "hub", "warp-buckets"):
        A, sources = GRAPHS[case]
        for s in sources:
            r = run(A, "gpu", s, parents=True, strategy=strategy)
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
    r = run(A, "cpu", 0, strategy="single_block")
    assert r.launches == 3 and r.depth == 499


@pytest.mark.gpu
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_long_path_histogram_in_global_memory(strategy):
    # 700 levels: more than HIST_CAP, so bfs_finish counts levels in global memory
    n = gpu_strategies.HIST_CAP + 188
    A = matrix(n, np.arange(n - 1), np.arange(1, n))
    r = run(A, "gpu", 0, parents=True, strategy=strategy)
    np.testing.assert_array_equal(asnumpy(r.level.to_dense(-1)), np.arange(n))
    np.testing.assert_array_equal(asnumpy(r.parent.to_dense(-1)), np.r_[0, np.arange(n - 1)])
    assert [t.discovered for t in r.trace] == [1] * (n - 1) + [0]
    assert r.launches == run(A, "cpu", 0, strategy=strategy).launches
