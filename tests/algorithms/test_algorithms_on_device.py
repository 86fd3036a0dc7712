"""The graph algorithms on the GPU: BFS (every direction), SSSP, coloring and MIS equal to the
CPU's on Kronecker graphs and validated; the real graphs' published answers (karate, cnr-2000,
the DIMACS NY roads and coloring instances, the LDBC Graphalytics outputs) computed on the GPU.
Marked ``gpu``: skipped with CuPy's reason where no GPU is present; run with ``pytest -m gpu``.
"""

from __future__ import annotations

import numpy as np
import pytest

import semiring as sr
from semiring.backends._xp import asnumpy
from semiring.testing.validate import check_bfs, check_coloring, check_mis, check_sssp

from _devices import same

gpu = pytest.mark.gpu


@gpu
@pytest.mark.parametrize("scale", [8, 12])
def test_algorithms_on_gpu_match_cpu(scale):
    A = sr.generators.kronecker(scale, seed=scale)
    W = sr.generators.kronecker(scale, seed=scale, weights=(1, 255))
    Ag, Wg = A.to("gpu"), W.to("gpu")
    src = int(np.argmax(np.diff(A.to_scipy().indptr)))
    for direction in ("auto", "push", "pull"):
        cpu = sr.algorithms.bfs(A, src, parents=True, direction=direction)
        dev = sr.algorithms.bfs(Ag, src, parents=True, direction=direction)
        same(cpu.level, dev.level)
        check_bfs(A, src, dev.level, dev.parent)
    for method in ("delta_stepping", "bellman_ford"):
        cpu = sr.algorithms.sssp(W, src, method=method)
        dev = sr.algorithms.sssp(Wg, src, method=method, parents=True)
        same(cpu.distance, dev.distance)
        check_sssp(W, src, dev.distance, dev.parent)
    for method in ("jones_plassmann", "luby", "greedy"):
        cpu = sr.algorithms.coloring(A, method=method, seed=1)
        dev = sr.algorithms.coloring(Ag, method=method, seed=1)
        same(cpu, dev)
        check_coloring(A, dev)
    dev = sr.algorithms.mis(Ag, seed=2)
    same(sr.algorithms.mis(A, seed=2), dev)
    check_mis(A, dev)


@gpu
@pytest.mark.data
def test_real_graphs_on_gpu_match_cpu_and_published_answers(shared_data):
    """karate, cnr-2000 (BFS), the DIMACS NY road graph (SSSP: the published Dijkstra sum) and
    the DIMACS coloring instances, on the GPU."""
    for name in ("small/lagraph/karate.mtx", "web/cnr-2000.mtx.gz"):
        A = sr.io.read(shared_data / name)
        Ag = A.to("gpu")
        hub = int(np.argmax(np.diff(A.to_scipy().indptr)))
        for s in (0, hub):
            for direction in ("auto", "push", "pull"):
                dev = sr.algorithms.bfs(Ag, s, parents=True, direction=direction)
                same(sr.algorithms.bfs(A, s).level, dev.level)
                check_bfs(A, s, dev.level, dev.parent)
    W = sr.io.read(shared_data / "roads/USA-road-d.NY.gr.gz")
    d = sr.algorithms.sssp(W.to("gpu"), 0).distance
    vals = asnumpy(d.to_coo()[1])
    assert d.nvals == W.nrows and int(vals.max()) == 1_440_081 and int(vals.sum()) == 186_686_642_878
    for path in sorted((shared_data / "coloring").glob("*.col"))[:12]:
        A = sr.io.read(path)
        c = sr.algorithms.coloring(A.to("gpu"))
        same(sr.algorithms.coloring(A), c)
        check_coloring(A, c)


@gpu
def test_kronecker_scale_22_on_gpu():
    A = sr.generators.kronecker(22, seed=1)
    G = sr.algorithms.Graph(A.to("gpu"), "undirected")
    deg = np.diff(A.to_scipy().indptr)
    for s in np.random.default_rng(0).choice(np.flatnonzero(deg > 0), 2, replace=False):
        r = sr.algorithms.bfs(G, int(s), parents=True)
        check_bfs(A, int(s), r.level, r.parent)


@gpu
@pytest.mark.data
@pytest.mark.parametrize("case", ["example-directed", "example-undirected", "dir", "undir"])
def test_ldbc_bfs_and_sssp_on_gpu(shared_data, case):
    """The LDBC Graphalytics reference outputs, computed on the GPU."""
    from test_published_answers import LDBC_UNREACHED, ldbc_case

    A, index, source, expected = ldbc_case(shared_data, "bfs", case)
    for direction in ("auto", "push", "pull", "edge"):
        r = sr.algorithms.bfs(A.to("gpu"), index[source], parents=True, direction=direction)
        got = asnumpy(r.level.to_dense(-1))
        for label, value in expected.items():
            assert got[index[label]] == (-1 if int(value) == LDBC_UNREACHED else int(value)), label
        check_bfs(A, index[source], r.level, r.parent)
    A, index, source, expected = ldbc_case(shared_data, "sssp", case)
    want = np.full(A.nrows, np.nan)
    for label, value in expected.items():
        want[index[label]] = float(value)
    for method in ("bellman_ford", "delta_stepping"):
        d = sr.algorithms.sssp(A.to("gpu"), index[source], method=method).distance
        np.testing.assert_allclose(asnumpy(d.to_dense(np.inf)), want, rtol=1e-12, atol=0)
