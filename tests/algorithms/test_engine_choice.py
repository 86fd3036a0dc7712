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
    if backend == "numpy":
        limits = {"bfs": engines.CPU_FUSED_MAX_DEGREE, "sssp": engines.CPU_FUSED_MAX_DEGREE}
    else:
        limits = {"bfs": engines.SUITESPARSE_BFS_FUSED_MAX_DEGREE, "sssp": engines.SUITESPARSE_FUSED_MAX_DEGREE}
    want = {what: "fused" if 2 * per_vertex <= limit else "algebra" for what, limit in limits.items()}
    got = sr.algorithms.bfs(A, 0)
    assert got.engine == want["bfs"]
    assert sr.algorithms.sssp(A, 0).engine == want["sssp"]
    # the same levels either way
    other = sr.algorithms.bfs(A, 0, engine="algebra" if want["bfs"] == "fused" else "fused")
    assert other.level.isequal(got.level)


@pytest.mark.parametrize("backend, want", [
    ("numpy", {9.9: ("fused", "fused"), 29: ("algebra", "algebra"), 95: ("algebra", "algebra")}),
    pytest.param("suitesparse", {9.9: ("fused", "fused"), 29: ("fused", "algebra"), 95: ("fused", "algebra")},
                 marks=pytest.mark.suitesparse)])
def test_measured_cases(backend, want):
    """What "auto" takes (BFS, SSSP) at the degrees measured: cnr-2000's 9.9, Kronecker graphs'
    29 (edge factor 16) and 95 (edge factor 64). NumPy: the whole-search engines up to 16.
    SuiteSparse: the compiled BFS at any degree, the compiled SSSP up to 16."""
    n = 10_000
    with sr.backends.use_cpu_backend(backend):
        for degree, (bfs, sssp) in want.items():
            nedges = int(degree * n)
            assert engines.select("bfs", "auto", None, "cpu", n, nedges).name == bfs
            assert engines.select("sssp", "auto", None, "cpu", n, nedges).name == sssp
