"""benchmarks.algorithms (the graph algorithm timings): the quick run validates every row on
the CPU; one failing algorithm, a wrong answer, a time limit or missing data is reported in its
row while the others run; the oracles reject wrong answers and agree with networkx."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # `pytest` (not `python -m pytest`) does not put the repository root there
    sys.path.insert(0, str(ROOT))

import semiring as sr  # noqa: E402
from benchmarks import algorithm_oracles as oracle  # noqa: E402
from benchmarks import algorithms as bench  # noqa: E402


def _doc(out):
    js, md = sorted(out.glob("algorithms-*.json")), sorted(out.glob("algorithms-*.md"))
    assert len(js) == 1 and len(md) == 1, list(out.iterdir())
    return json.loads(js[0].read_text()), md[0].read_text()


@pytest.mark.data
def test_quick_cpu_run_validates_every_row(tmp_path, shared_data, capsys):
    t = time.perf_counter()
    assert bench.main(["--device", "cpu", "--quick", "--out", str(tmp_path), "--data", str(shared_data)]) == 0
    seconds = time.perf_counter() - t
    doc, md = _doc(tmp_path)
    rows = doc["rows"]
    expected = {(b.algorithm, b.variant) for b in bench.benches(True)}
    assert {(r["algorithm"], r["variant"]) for r in rows} == expected
    assert len(rows) == 2 * len(expected)  # a shared and a generated graph each
    assert {r["source"] for r in rows} == {"shared", "generated"}
    bad = [r for r in rows if r["status"] != "ok" or r["validated"] is not True]
    assert not bad, bad
    for r in rows:
        assert r["warmup_ms"] > 0 and r["median_ms"] > 0
        assert r["warmup_only"] or (1 <= r["runs"] == len(r["times_ms"]) <= 2)
        assert r["oracle_ms"] is not None and r["oracle"]
    assert {r["algorithm"] for r in rows} >= {"connected_components", "strongly_connected_components", "pagerank",
                                              "triangle_count", "minimum_spanning_forest", "floyd_warshall",
                                              "all_pairs_shortest_paths", "betweenness_centrality", "louvain",
                                              "modularity", "partition", "kernighan_lin_bisection", "coloring"}
    assert md.startswith("# semiring: graph algorithm timings (cpu, quick)")
    assert "| triangle_count | method=burkhardt | karate | 34 | 156 |" in md and "45 triangles (scipy 45)" in md
    assert doc["meta"]["command"].startswith("python -m benchmarks.algorithms --device cpu --quick")
    out = capsys.readouterr().out
    assert "40/40 kernighan_lin_bisection (random start (seed 0)) on kron8" in out and "validated" in out
    assert seconds < 60


def test_a_failing_or_wrong_algorithm_is_reported_in_its_row(tmp_path, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    def wrong(A, **kwargs):  # every vertex its own component
        return sr.Vector.from_dense(np.arange(A.n, dtype=np.int64))

    monkeypatch.setattr(sr.algorithms, "pagerank", broken)
    monkeypatch.setattr(sr.algorithms, "connected_components", wrong)
    status = bench.main(["--quick", "--graphs", "generated", "--only", "connected_components,pagerank,triangle_count",
                         "--out", str(tmp_path)])
    assert status == 1
    doc, md = _doc(tmp_path)
    by = {(r["algorithm"], r["variant"]): r for r in doc["rows"]}
    pr = by[("pagerank", "alpha=0.85, tol=1e-6")]
    assert pr["status"] == "error" and "RuntimeError: boom" in pr["error"] and pr["validated"] is None
    cc = by[("connected_components", "")]
    assert cc["status"] == "ok" and cc["validated"] is False and "vertices differ" in cc["check"]
    tri = [r for r in doc["rows"] if r["algorithm"] == "triangle_count"]
    assert len(tri) == 4 and all(r["validated"] is True for r in tri)
    assert "| **NO** |" in md and "error: RuntimeError: boom" in md
    assert "2 failed" in doc["summary"]


def test_row_time_limit_and_total_budget(tmp_path):
    with pytest.raises(bench.RowTimeout):
        with bench.time_limit(0.2):
            while True:
                pass
    # a row that runs past its limit is a "timeout" row
    L = bench.Loaded(bench.specs(True)[("generated", "undirected")], bench.DATA_DIR, "cpu")

    def forever(G, L):
        while True:
            pass

    b = bench.Bench("spin", "", "undirected", False, forever, lambda r, L, d: oracle.Verdict(True, "", ""))
    row = bench.run_row(b, L, bench.CpuTimer(), bench.QUICK, 0.3, bench.DATA_DIR)
    assert row["status"] == "timeout" and bench.failed(row)
    # nothing starts once the total budget is spent; the files are still written
    assert bench.main(["--quick", "--total-budget-s", "0", "--only", "pagerank", "--out", str(tmp_path)]) == 0
    doc, md = _doc(tmp_path)
    assert [r["status"] for r in doc["rows"]] == ["skipped", "skipped"]
    assert "total budget" in doc["rows"][0]["error"] and "2 skipped" in doc["summary"]


def test_missing_data_skips_only_the_shared_rows(tmp_path):
    assert bench.main(["--quick", "--only", "connected_components", "--data", str(tmp_path / "none"),
                       "--out", str(tmp_path)]) == 0
    doc, _ = _doc(tmp_path)
    rows = {r["source"]: r for r in doc["rows"]}
    assert rows["shared"]["status"] == "skipped" and "data file missing" in rows["shared"]["error"]
    assert rows["generated"]["validated"] is True


def test_warmup_only_when_the_warmup_takes_over_half_the_budget():
    L = bench.Loaded(bench.specs(True)[("generated", "small")], bench.DATA_DIR, "cpu")
    calls = []

    def slow(G, L):
        calls.append(1)
        time.sleep(0.06)
        return 1

    b = bench.Bench("slow", "", "small", False, slow, lambda r, L, d: oracle.Verdict(r == 1, "one", "none", 0.0))
    row = bench.run_row(b, L, bench.CpuTimer(), bench.Budget(0.1, 10, 10, 5), 10, bench.DATA_DIR)
    assert row["warmup_only"] and row["runs"] == 0 and len(calls) == 1 and row["validated"] is True
    assert row["median_ms"] == row["warmup_ms"] >= 60
    row = bench.run_row(b, L, bench.CpuTimer(), bench.Budget(1.0, 10, 10, 3), 10, bench.DATA_DIR)
    assert not row["warmup_only"] and row["runs"] == 3 and len(calls) == 5


# --------------------------------------------------------------------------------------------
# the oracles
# --------------------------------------------------------------------------------------------

def _path_graph(n):
    r = np.arange(n - 1)
    return sp.csr_matrix((np.ones(2 * (n - 1)), (np.r_[r, r + 1], np.r_[r + 1, r])), shape=(n, n))


def test_oracles_reject_wrong_answers():
    S = _path_graph(5)
    good = sr.Vector.from_dense(np.zeros(5, dtype=np.int64))
    assert oracle.check_components(S, good).ok is True
    assert oracle.check_components(S, sr.Vector.from_dense(np.array([0, 0, 0, 3, 3]))).ok is False
    assert oracle.check_coloring(S, sr.Vector.from_dense(np.array([0, 1, 0, 1, 0])))[0].ok is True
    assert oracle.check_coloring(S, sr.Vector.from_dense(np.array([0, 1, 1, 0, 1])))[0].ok is False
    assert oracle.check_coloring(S, sr.Vector.from_dense(np.array([0, 2, 0, 2, 0])))[0].ok is False  # no color 1
    cache = {}
    tri = sp.csr_matrix(np.ones((3, 3)) - np.eye(3))
    assert oracle.check_triangles(tri, 1, cache).ok and not oracle.check_triangles(tri, 2, cache).ok
    # a spanning tree that is not the minimum one
    W = sp.csr_matrix(np.array([[0, 1, 5], [1, 0, 2], [5, 2, 0]], dtype=float))
    best = sr.Matrix.from_coo([0, 1, 1, 2], [1, 0, 2, 1], [1.0, 1, 2, 2], nrows=3, ncols=3)
    worse = sr.Matrix.from_coo([0, 2, 1, 2], [2, 0, 2, 1], [5.0, 5, 2, 2], nrows=3, ncols=3)
    assert oracle.check_forest(W, best).ok and not oracle.check_forest(W, worse).ok
    D = sr.Matrix.from_coo([0, 0, 0, 1, 1, 1, 2, 2, 2], [0, 1, 2, 0, 1, 2, 0, 1, 2], [0.0, 1, 3, 1, 0, 2, 3, 2, 0],
                           nrows=3, ncols=3)
    assert oracle.check_distances(W, D).ok
    D2 = sr.Matrix.from_coo([0, 0, 0, 1, 1, 1, 2, 2, 2], [0, 1, 2, 0, 1, 2, 0, 1, 2], [0.0, 1, 5, 1, 0, 2, 5, 2, 0],
                            nrows=3, ncols=3)
    assert not oracle.check_distances(W, D2).ok
    parts = sr.Vector.from_dense(np.array([0, 0, 0, 1, 1]))
    assert oracle.check_partition(S, parts, 2, 0.03, 1).ok
    assert not oracle.check_partition(S, parts, 2, 0.03, 2).ok           # edge_cut disagrees
    assert not oracle.check_partition(S, sr.Vector.from_dense(np.array([0, 0, 0, 0, 1])), 2, 0.03, 1).ok  # balance
    start = np.array([1, 0, 1, 0, 0])
    assert oracle.check_bisection(S, sr.Vector.from_dense(np.array([1, 1, 0, 0, 0])), start).ok
    assert not oracle.check_bisection(S, sr.Vector.from_dense(np.array([1, 1, 1, 0, 0])), start).ok
    lab = sr.Vector.from_dense(np.array([0, 0, 0, 1, 1]))
    assert oracle.check_louvain(S, lab)[0].ok
    assert not oracle.check_louvain(S, sr.Vector.from_dense(np.array([1, 1, 1, 0, 0])))[0].ok  # numbering
    assert not oracle.check_louvain(S, sr.Vector.from_dense(np.zeros(5, dtype=np.int64)))[0].ok  # Q = 0


def test_oracles_agree_with_networkx():
    G = nx.gnm_random_graph(60, 150, seed=3)
    S = nx.to_scipy_sparse_array(G, nodelist=range(60), format="csr")
    # PageRank: networkx's own, on a directed version
    D = nx.gnm_random_graph(60, 200, seed=4, directed=True)
    SD = sp.csr_matrix(nx.to_scipy_sparse_array(D, nodelist=range(60)))
    ref = nx.pagerank(D)
    ours = oracle.scipy_pagerank(SD)
    assert np.allclose(ours, [ref[i] for i in range(60)], atol=1e-9)
    # triangles
    assert oracle.scipy_triangles(S) == sum(nx.triangles(G).values()) // 3
    # betweenness: Brandes over scipy BFS, rescaled, against networkx with the same sampled sources
    src = [0, 7, 19, 33]
    raw = oracle.brandes_raw(S, src)
    nx_raw = nx.betweenness_centrality_subset(G, src, list(G), normalized=False)
    assert np.allclose(raw / 2, [nx_raw[i] for i in range(60)])  # the subset version halves undirected sums
    bc = sr.algorithms.betweenness_centrality(sr.Matrix.from_scipy(S), sources=src)
    assert oracle.check_betweenness(S, src, bc, directed=False).ok
    wrong = sr.apply(bc, sr.binary.times, right=1.01)
    assert not oracle.check_betweenness(S, src, wrong, directed=False).ok
    # modularity
    comms = nx.community.louvain_communities(G, seed=1)
    lab = np.empty(60, dtype=np.int64)
    for c, part in enumerate(comms):
        lab[list(part)] = c
    assert np.isclose(oracle.modularity_of(S, lab), nx.community.modularity(G, comms))
    # with self-loops (networkx: a loop of weight w counts 2w in the degree)
    G.add_edge(3, 3)
    G.add_edge(5, 5)
    S2 = nx.to_scipy_sparse_array(G, nodelist=range(60), format="csr")
    assert np.isclose(oracle.modularity_of(S2, lab), nx.community.modularity(G, comms))


@pytest.mark.gpu
def test_quick_gpu_run(tmp_path):
    status = bench.main(["--device", "gpu", "--quick", "--graphs", "generated", "--out", str(tmp_path)])
    doc, _ = _doc(tmp_path)
    bad = [r for r in doc["rows"] if r["status"] != "ok" or r["validated"] is not True]
    assert status == 0 and not bad, bad
    assert doc["meta"]["env"]["gpu"] is not None
