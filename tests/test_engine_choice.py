"""The CPU engine "auto" picks by the graph's average degree and the backend that stores it."""

from __future__ import annotations

import pytest

import semiring as sr
from semiring.algorithms import engines


def _ring_with_chords(n, per_vertex):
    """An undirected graph of ``2 * per_vertex`` stored entries per vertex."""
    rows = [i for i in range(n) for _ in range(per_vertex)]
    cols = [(i + k + 1) % n for i in range(n) for k in range(per_vertex)]
    A = sr.Matrix.from_coo(rows + cols, cols + rows, nrows=n, ncols=n, backend="numpy")
    return A


@pytest.mark.parametrize("backend", ("numpy", pytest.param("suitesparse", marks=pytest.mark.suitesparse)))
@pytest.mark.parametrize("per_vertex", (1, 4, 8, 9, 12))
def test_auto_engine_follows_degree_and_backend(backend, per_vertex):
    A = _ring_with_chords(64, per_vertex).to("cpu", backend=backend)
    limit = engines.CPU_FUSED_MAX_DEGREE if backend == "numpy" else engines.SUITESPARSE_FUSED_MAX_DEGREE
    want = "fused" if 2 * per_vertex <= limit else "algebra"
    got = sr.algorithms.bfs(A, 0)
    assert got.engine == want
    assert sr.algorithms.sssp(A, 0).engine == want
    # the same levels either way
    other = sr.algorithms.bfs(A, 0, engine="algebra" if want == "fused" else "fused")
    assert other.level.isequal(got.level)
