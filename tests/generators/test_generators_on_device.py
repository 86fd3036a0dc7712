"""The generators on the device: the same graph as on the CPU for a seed (counter-based random
numbers), generated and built on the GPU without a pass through the host. Marked ``gpu``:
skipped with CuPy's reason where no GPU is present; run with ``pytest -m gpu``.
"""

from __future__ import annotations

import numpy as np
import pytest

import semiring as sr
from semiring.backends._xp import asnumpy
from semiring.testing.validate import check_bfs

from _devices import no_host_build

gpu = pytest.mark.gpu


def _assert_undirected_on_host(A):
    """Square, symmetric in structure and values, no self-loops (checked on a host copy)."""
    S = A.to_scipy()
    S.sort_indices()
    rows = np.repeat(np.arange(S.shape[0]), np.diff(S.indptr))
    assert not np.any(rows == S.indices), "self-loop"
    T = S.T.tocsr()
    T.sort_indices()
    assert np.array_equal(S.indptr, T.indptr) and np.array_equal(S.indices, T.indices), "not symmetric"
    assert np.array_equal(S.data, T.data), "A[i, j] != A[j, i]"


@gpu
@pytest.mark.parametrize("scale, weights", [(1, None), (6, None), (10, None), (10, (1, 255)),
                                            (9, (0.5, 2.0)),
                                            (13, (-3, 3)), (16, None)])
def test_kronecker_on_gpu_is_the_cpu_graph(monkeypatch, scale, weights):
    import cupy as cp

    cpu = sr.generators.kronecker(scale, seed=scale, weights=weights)
    no_host_build(monkeypatch)
    dev = sr.generators.kronecker(scale, seed=scale, weights=weights, device="gpu")
    assert dev.device == "gpu" and isinstance(dev._indices, cp.ndarray)
    assert dev._indptr.dtype == np.int32 and dev._indices.dtype == np.int32  # as Matrix.to("gpu") stores
    assert dev.dtype == cpu.dtype and dev.shape == (2**scale, 2**scale)
    assert dev.isequal(cpu, check_dtype=True)
    _assert_undirected_on_host(dev)
    assert 0 < dev.nvals <= 2 * 16 * 2**scale
    if scale >= 10:
        assert dev.nvals >= 0.45 * 2 * 16 * 2**scale


@gpu
def test_kronecker_on_gpu_is_deterministic_per_seed():
    a = sr.generators.kronecker(12, seed=5, weights=(1, 255), device="gpu")
    b = sr.generators.kronecker(12, seed=5, weights=(1, 255), device="gpu")
    c = sr.generators.kronecker(12, seed=6, weights=(1, 255), device="gpu")
    assert a.isequal(b, check_dtype=True)
    assert not a.isequal(c)


@gpu
@pytest.mark.parametrize("chunk", [1000, 4097])
def test_kronecker_on_gpu_in_many_chunks(monkeypatch, chunk):
    from semiring.generators import _kronecker

    cpu = sr.generators.kronecker(12, 5, seed=1, weights=(1, 9))
    monkeypatch.setitem(_kronecker._CHUNK, "gpu", chunk)  # 20480 edges: several chunks, a partial last one
    assert sr.generators.kronecker(12, 5, seed=1, weights=(1, 9), device="gpu").isequal(cpu, check_dtype=True)


@gpu
def test_kronecker_scale_20_on_gpu_matches_cpu_and_validates():
    import cupy as cp

    dev = sr.generators.kronecker(20, edge_factor=40, seed=2, device="gpu")  # 42M edges: two GPU chunks
    cp.cuda.Device().synchronize()
    assert 0.45 * 2 * 40 * 2**20 <= dev.nvals <= 2 * 40 * 2**20
    cpu = sr.generators.kronecker(20, edge_factor=40, seed=2)
    assert dev.isequal(cpu)
    src = int(cp.argmax(cp.diff(dev._indptr)))
    r = sr.algorithms.bfs(dev, src, parents=True)
    assert check_bfs(dev, src, r.level, r.parent) == r.level.nvals


@gpu
@pytest.mark.parametrize("dims, weights", [((1,), None), ((7,), None), ((30, 40), None), ((30, 40), (1, 9)),
                                           ((5, 6, 7), (0.5, 2.0))])
def test_grid_on_gpu_is_the_cpu_graph(monkeypatch, dims, weights):
    cpu = sr.generators.grid(*dims, weights=weights, seed=2)
    no_host_build(monkeypatch)
    dev = sr.generators.grid(*dims, weights=weights, seed=2, device="gpu")
    assert dev.device == "gpu"
    assert dev.isequal(cpu, check_dtype=True)


@gpu
@pytest.mark.parametrize("n, radius, weights", [(2, 1.5, None), (500, None, None), (5000, None, (1, 255)),
                                                (5000, 0.03, "distance"), (3000, 0.7, None),
                                                (1 << 17, None, "distance")])
def test_random_geometric_on_gpu_is_the_cpu_graph(monkeypatch, n, radius, weights):
    cpu = sr.generators.random_geometric(n, radius, seed=3, weights=weights)
    no_host_build(monkeypatch)
    dev = sr.generators.random_geometric(n, radius, seed=3, weights=weights, device="gpu")
    assert dev.device == "gpu"
    assert dev.isequal(cpu, check_dtype=True)  # exact, distances included


@gpu
def test_cell_search_on_gpu_finds_exactly_the_kdtree_pairs():
    import cupy as cp
    from scipy.spatial import cKDTree

    from semiring.generators._generators import _pairs_within

    rng = np.random.default_rng(8)
    for n, r, scale in [(1000, 0.05, 1.0), (4000, 0.01, 1.0), (300, 0.3, 100.0), (2000, 0.05, 1.0)]:
        pts = rng.random((n, 2)) * scale
        if n == 2000:
            pts = np.round(pts * 20) / 20  # a lattice: many ties at exactly r
        want = set(map(tuple, cKDTree(pts).query_pairs(r, output_type="ndarray").tolist()))
        i, j = _pairs_within(cp.asarray(pts[:, 0]), cp.asarray(pts[:, 1]), r, budget=5000)
        got = set(zip(asnumpy(i).tolist(), asnumpy(j).tolist()))
        assert len(got) == i.shape[0] and got == want
