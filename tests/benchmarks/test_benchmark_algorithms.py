"""The algorithms suite (``python -m benchmarks run --suite algorithms``, the graph algorithm
timings): the tiny run validates every row on the CPU; one failing algorithm, a wrong answer, a
time limit or missing data is reported in its row while the others run; the oracles reject wrong
answers and agree with networkx."""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import time
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # `pytest` (not `python -m pytest`) does not put the repository root there
    sys.path.insert(0, str(ROOT))

import semiring as sr  # noqa: E402
from benchmarks.__main__ import main  # noqa: E402
from benchmarks.harness.graphs import DATA_DIR  # noqa: E402
from benchmarks.peers import algorithms as peers  # noqa: E402
from benchmarks.peers import oracles as oracle  # noqa: E402
from benchmarks.suites import algorithms as suite  # noqa: E402
from benchmarks.suites.algorithms import measure, report, targets  # noqa: E402
from benchmarks.suites.algorithms.graphs import Loaded, specs  # noqa: E402
from benchmarks.suites.algorithms.rows import Bench, _kl_start, benches  # noqa: E402
from semiring._bench import env  # noqa: E402
from semiring._bench.timing import CpuTimer, OverBudget, time_limit  # noqa: E402


def bench(*argv):
    """``python -m benchmarks run --suite algorithms ARGV``; its exit status."""
    return main(["run", "--suite", "algorithms", *argv])


def _options(**kw):
    return argparse.Namespace(**({"algorithms": None, "graph_source": None, "targets_only": False} | kw))


def _doc(out):
    js, md = sorted(out.glob("algorithms-*.json")), sorted(out.glob("algorithms-*.md"))
    assert len(js) == 1 and len(md) == 1, list(out.iterdir())
    return json.loads(js[0].read_text()), md[0].read_text()


@pytest.mark.data
def test_tiny_cpu_run_validates_every_row(tmp_path, shared_data, capsys):
    assert bench("--device", "cpu", "--size", "tiny", "--out", str(tmp_path), "--data", str(shared_data)) == 0
    doc, md = _doc(tmp_path)
    rows = doc["rows"]
    expected = {(b.algorithm, b.variant) for b in benches("tiny")}
    assert {(r["algorithm"], r["variant"]) for r in rows} == expected
    assert len(rows) == 2 * len(expected)  # a shared and a generated graph each
    assert {r["source"] for r in rows} == {"shared", "generated"}
    bad = [r for r in rows if r["status"] != "ok" or r["validated"] is not True]
    assert not bad, bad
    metis = "ok" if importlib.util.find_spec("pymetis") else "unavailable"
    for r in rows:
        assert r["warmup_ms"] > 0 and r["median_ms"] > 0
        assert r["warmup_only"] or (1 <= r["runs"] == len(r["times_ms"]) <= 2)
        assert r["oracle_ms"] is not None and r["oracle"]
        # every row has its CPU peer, timed (METIS only where pymetis is installed); no targets on the CPU
        assert r["peer"] and r["peer_status"] == (metis if r["algorithm"] == "partition" else "ok"), r
        if r["peer_status"] == "ok":
            assert r["peer_ms"] > 0 and r["beats_peer"] is (r["median_ms"] < r["peer_ms"])
        assert r["target_ms"] is None and r["meets_target"] is None
    louvain = [r for r in rows if r["algorithm"] == "louvain"]
    assert all("peer: " in r["check"] or "modularity" in r["peer_detail"] for r in louvain)
    assert {r["algorithm"] for r in rows} >= {"connected_components", "strongly_connected_components", "pagerank",
                                              "triangle_count", "minimum_spanning_forest", "floyd_warshall",
                                              "all_pairs_shortest_paths", "betweenness_centrality", "louvain",
                                              "modularity", "partition", "kernighan_lin_bisection", "coloring"}
    assert md.startswith("# semiring benchmarks: algorithms suite (tiny)") and "issue" not in md.lower()
    assert "| beats peer | before ms |" in md and "## Targets" not in md and doc["targets"] == []
    assert "rows with a measured CPU peer beat it" in doc["summary"] and doc["failed"] == []
    assert "| triangle_count | method=burkhardt | karate | 34 | 156 |" in md and "45 triangles (scipy 45)" in md
    assert doc["meta"]["command"].startswith("python -m benchmarks run --suite algorithms --device cpu --size tiny")
    assert "- limits: 1 s of timed runs per row (at most 2 runs)" in md
    err = capsys.readouterr().err  # the progress lines
    assert "40/40 kernighan_lin_bisection (random start (seed 0)) on kron8" in err and "validated" in err


def test_a_failing_or_wrong_algorithm_is_reported_in_its_row(tmp_path, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    def wrong(A, **kwargs):  # every vertex its own component
        return sr.Vector.from_dense(np.arange(A.n, dtype=np.int64))

    monkeypatch.setattr(sr.algorithms, "pagerank", broken)
    monkeypatch.setattr(sr.algorithms, "connected_components", wrong)
    status = bench("--size", "tiny", "--graph-source", "generated", "--algorithms",
                   "connected_components,pagerank,triangle_count", "--out", str(tmp_path))
    assert status == 1
    doc, md = _doc(tmp_path)
    by = {(r["algorithm"], r["variant"]): r for r in doc["rows"]}
    pr = by[("pagerank", "alpha=0.85, tol=1e-6")]
    assert pr["status"] == "error" and "RuntimeError: boom" in pr["error"] and pr["validated"] is None
    cc = by[("connected_components", "")]
    assert cc["status"] == "validation failed" and cc["validated"] is False and "vertices differ" in cc["check"]
    tri = [r for r in doc["rows"] if r["algorithm"] == "triangle_count"]
    assert len(tri) == 4 and all(r["validated"] is True for r in tri)
    assert "| **NO** |" in md and "error: RuntimeError: boom" in md
    assert "2 failed" in doc["summary"] and len(doc["failed"]) == 2
    boom = "kron8-directed pagerank alpha=0.85, tol=1e-6: error: RuntimeError: boom"
    assert any(line.startswith(boom) for line in doc["failed"])


def test_row_time_limit_and_total_budget(tmp_path):
    with pytest.raises(OverBudget):
        with time_limit(0.2):
            while True:
                pass
    # a row that runs past its limit is a "timeout" row
    L = Loaded(specs("tiny")["kron14"], DATA_DIR, "cpu")

    def forever(G, L):
        while True:
            pass

    b = Bench("spin", "", ("kron14", "kron14"), False, forever, lambda r, L, d: oracle.Verdict(True, "", ""))
    row = measure.run_row(b, L, CpuTimer(), measure.TINY, 0.3, DATA_DIR)
    assert row["status"] == "timeout" and measure.failed(row)
    # nothing starts once the total budget is spent; the files are still written
    assert bench("--size", "tiny", "--budget-s", "0", "--algorithms", "pagerank", "--out", str(tmp_path)) == 0
    doc, md = _doc(tmp_path)
    assert [r["status"] for r in doc["rows"]] == ["skipped", "skipped"]
    assert "total budget" in doc["rows"][0]["error"] and "2 skipped" in doc["summary"]


def test_missing_data_skips_only_the_shared_rows(tmp_path):
    assert bench("--size", "tiny", "--algorithms", "connected_components", "--data", str(tmp_path / "none"),
                 "--out", str(tmp_path)) == 0
    doc, _ = _doc(tmp_path)
    rows = {r["source"]: r for r in doc["rows"]}
    assert rows["shared"]["status"] == "skipped" and "data file missing" in rows["shared"]["error"]
    assert rows["generated"]["validated"] is True


def test_warmup_only_when_the_warmup_takes_over_half_the_budget_and_a_third_of_the_limit():
    L = Loaded(specs("tiny")["kron8"], DATA_DIR, "cpu")
    calls = []

    def slow(G, L):
        calls.append(1)
        time.sleep(0.06)
        return 1

    b = Bench("slow", "", ("kron8", "kron8"), False, slow,
                    lambda r, L, d: oracle.Verdict(r == 1, "one", "none", 0.0))
    row = measure.run_row(b, L, CpuTimer(), measure.Budget(0.1, 10, 0.15, 5), 10, DATA_DIR)
    assert row["warmup_only"] and row["runs"] == 0 and len(calls) == 1 and row["validated"] is True
    assert row["median_ms"] == row["warmup_ms"] >= 60
    row = measure.run_row(b, L, CpuTimer(), measure.Budget(1.0, 10, 10, 3), 10, DATA_DIR)
    assert not row["warmup_only"] and row["runs"] == 3 and len(calls) == 5


def test_a_slow_first_call_is_followed_by_a_timed_run():
    """The warm-up may compile kernels: a row whose first call alone passes half the budget is
    still timed once when the row's limit allows."""
    L = Loaded(specs("tiny")["kron8"], DATA_DIR, "cpu")
    calls = []

    def compiles_once(G, L):
        calls.append(1)
        time.sleep(0.08 if len(calls) == 1 else 0.001)
        return 1

    b = Bench("compiles", "", ("kron8", "kron8"), False, compiles_once,
                    lambda r, L, d: oracle.Verdict(r == 1, "one", "none", 0.0))
    row = measure.run_row(b, L, CpuTimer(), measure.Budget(0.1, 10, 10, 5), 10, DATA_DIR)
    assert not row["warmup_only"] and row["runs"] == 5 and row["warmup_ms"] >= 80
    assert row["median_ms"] < 40


# --------------------------------------------------------------------------------------------
# targets and peers
# --------------------------------------------------------------------------------------------

def test_every_target_is_a_row_and_the_gpu_runs_the_target_rows_first():
    full = specs("full")
    names = {(b.algorithm, b.variant, full[k].name) for b in benches("full") for k in b.graphs}
    assert set(targets.ALGORITHM_TARGETS_MS) <= names, set(targets.ALGORITHM_TARGETS_MS) - names
    previous, about = targets.load_previous(targets.PREVIOUS["gpu"])
    assert "NVIDIA H200" in about
    assert previous[("pagerank", "alpha=0.85, tol=1e-6", "cnr-2000")] == pytest.approx(29.24, abs=0.01)
    plan = suite.schedule("gpu", "full", _options(), previous)
    assert len(plan) == 2 * len(benches("full"))
    first = [p for p in plan if p[3] is not None]
    assert plan[: len(first)] == first
    keys = {(b.algorithm, b.variant, spec.name): (t, src, before) for _, b, spec, t, src, before in first}
    for key, ms in targets.ALGORITHM_TARGETS_MS.items():
        assert keys[key][:2] == (ms, "target")
    # PageRank and triangle counting: no slower than the previous run, on every graph they ran on
    slower = {k: v for k, v in keys.items() if k[0] in ("pagerank", "triangle_count")}
    assert len(slower) == 2 + 8
    assert all(t == before == previous[k] and src != "target" for k, (t, src, before) in slower.items())
    assert len(first) == len(targets.ALGORITHM_TARGETS_MS) + len(slower)
    # the CPU has no targets; --targets-only still picks the same rows there
    cpu = suite.schedule("cpu", "full", _options(targets_only=True), previous)
    assert {(b.algorithm, b.variant, s.name) for _, b, s, *_ in cpu} == set(keys)
    assert all(p[3] is None for p in cpu)
    # the targets table lists them in the order of the targets
    order = sorted(keys, key=lambda k: targets.algorithm_target_order(*k))
    assert order[: len(targets.ALGORITHM_TARGETS_MS)] == list(targets.ALGORITHM_TARGETS_MS)


@pytest.mark.data
def test_target_graphs_are_the_named_ones(shared_data):
    full = specs("full")
    fw = full["fw"].build(str(shared_data))
    assert fw.nrows == fw.ncols == 2003
    K = full["kron16"].build(str(shared_data))
    ref = sr.generators.kronecker(16)
    assert K.nrows == 2**16 and np.array_equal(K.to_coo()[0], ref.to_coo()[0])
    assert np.array_equal(K.to_coo()[1], ref.to_coo()[1])


class _FakeCupy:
    """Enough of CuPy for the harness's GPU path (timer, memory pool) to run on the host."""

    __version__ = "fake"

    class cuda:
        class Device:
            def synchronize(self):
                pass

    class _Pool:
        def free_all_blocks(self):
            pass

    def get_default_memory_pool(self):
        return self._Pool()


@pytest.mark.data
def test_gpu_path_reports_the_targets_table(tmp_path, shared_data, monkeypatch):
    """The GPU run's own path (targets, previous run, targets table), its algorithms run on the
    host: a rehearsal of the GPU command."""
    real_describe = env.describe

    def describe(cp=None, packages=()):
        d = real_describe(None, packages)
        d["gpu"] = {"name": "Fake GPU", "memory_gib": 1.0, "compute_capability": "0.0", "multiprocessors": 1,
                    "cupy": "fake", "cuda_driver": "0.0", "cuda_runtime": "0.0"}
        return d

    monkeypatch.setattr(env, "gpu_status", lambda: (_FakeCupy(), None))
    monkeypatch.setattr(env, "describe", describe)
    monkeypatch.setattr(env, "copy_bandwidth", lambda cp: None)
    monkeypatch.setattr(suite, "Loaded", lambda spec, data, device: Loaded(spec, data, "cpu"))
    argv = ["--device", "gpu", "--targets-only", "--algorithms", "connected_components,triangle_count",
            "--graph-source", "shared", "--runs", "1", "--system-budget-s", "0.5", "--out", str(tmp_path),
            "--data", str(shared_data)]
    assert bench(*argv) == 0
    doc, md = _doc(tmp_path)
    rows = doc["rows"]
    assert [(r["algorithm"], r["graph"]) for r in rows] == [("connected_components", "USA-road-t.NY")] + [
        ("triangle_count", "USA-road-t.NY")] * 4
    cc = rows[0]
    assert cc["target_ms"] == 2.0 and cc["target_source"] == "target" and cc["validated"] is True
    assert cc["meets_target"] is (cc["median_ms"] <= 2.0) and cc["before_ms"] == pytest.approx(177.66, abs=0.01)
    assert cc["peer"] == "scipy connected_components" and cc["peer_ms"] == cc["oracle_ms"]
    for r in rows[1:]:
        assert r["target_ms"] == r["before_ms"] is not None and r["target_source"] != "target"
    assert "## Targets" in md and "algorithms-nvidia-h200-20261122.json (NVIDIA H200" in md
    goals = doc["targets"]
    assert [t["target"] for t in goals][:1] == ["connected_components on USA-road-t.NY <= 2.00 ms"]
    assert goals[0]["status"] == ("met" if cc["meets_target"] else "not met")
    assert all(t["target"].endswith("(the previous run)") for t in goals[1:]) and len(goals) == 5
    table = md.split("## Targets")[1]
    assert "| connected_components on USA-road-t.NY <= 2.00 ms |" in table
    assert "rows with a target meet it" in doc["summary"] and "issue" not in md.lower()


def _row(**kw):
    r = measure.blank_row(benches("tiny")[0], specs("tiny")["roads"])
    r.update(median_ms=10.0, validated=True)
    r.update(kw)
    return measure.judge(r)


def test_target_and_peer_verdicts():
    assert _row(target_ms=10.0)["meets_target"] is True
    assert _row(target_ms=9.99)["meets_target"] is False
    assert _row(target_ms=20.0, validated=False)["meets_target"] is False  # a wrong answer meets nothing
    assert _row(target_ms=20.0, status="timeout", median_ms=None)["meets_target"] is False
    assert _row()["meets_target"] is None
    assert _row(peer_status="ok", peer_ms=10.5)["beats_peer"] is True
    assert _row(peer_status="ok", peer_ms=10.0)["beats_peer"] is False  # a tie does not beat
    assert _row(peer_status="ok", peer_ms=50.0, validated=False)["beats_peer"] is False
    assert _row(peer_status="timeout", peer_limit_s=0.011)["beats_peer"] is True
    assert _row(peer_status="timeout", peer_limit_s=0.005)["beats_peer"] is False
    assert _row(peer_status="unavailable")["beats_peer"] is None
    assert _row(peer_status="not run")["beats_peer"] is None
    assert report.peer_ms(_row(peer_status="timeout", peer_limit_s=20.0)) == "> 20,000"
    assert report.peer_ms(_row(peer_status="ok", peer_ms=12.345)) == "12.35"
    rows = [_row(target_ms=20.0, peer_status="ok", peer_ms=5.0), _row(target_ms=5.0, peer_status="timeout",
                                                                        peer_limit_s=1.0),
            _row(peer="METIS", peer_status="unavailable")]
    line = report.summary({"rows": rows})
    assert "1 of 2 rows with a target meet it" in line and "1 of 2 rows with a measured CPU peer beat it" in line
    assert "1 rows without a peer time" in line


def test_peer_time_limit_repeats_memo_and_missing_library(monkeypatch):
    L = Loaded(specs("tiny")["kron8"], DATA_DIR, "cpu")
    spins = []

    def spin(L):
        def run():
            spins.append(1)
            while True:
                pass
        return run, str

    r = measure.measure_peer(peers.Peer("spin", spin), L, 0.2, 5)
    assert r["peer_status"] == "timeout" and r["peer_ms"] is None and r["peer_limit_s"] == 0.2
    assert measure.measure_peer(peers.Peer("spin", spin), L, 0.2, 5) is r and len(spins) == 1  # once per graph
    calls = []
    fast = peers.Peer("fast", lambda L: (lambda: calls.append(1) or 7, lambda res: f"got {res}"))
    r = measure.measure_peer(fast, L, 5, 5)
    assert r["peer_status"] == "ok" and r["peer_detail"] == "got 7"
    assert r["peer_runs"] == measure.PEER_RUNS == len(calls)
    slow = peers.Peer("slow", lambda L: (lambda: time.sleep(0.6), lambda res: ""))
    assert measure.measure_peer(slow, L, 5, 5)["peer_runs"] == 2  # stops once past PEER_BUDGET_S
    monkeypatch.setitem(sys.modules, "pymetis", None)
    r = measure.measure_peer(peers.metis(2), L, 5, 5)
    assert r["peer_status"] == "unavailable" and "pymetis" in r["peer_detail"]


def test_kernighan_lin_peer_starts_from_the_rows_start(monkeypatch):
    L = Loaded(specs("tiny")["roads"], DATA_DIR, "cpu")
    seen = []

    def record(G, partition=None, seed=None):
        seen.append((G.number_of_nodes(), G.number_of_edges(), partition, seed))
        return partition

    monkeypatch.setattr(nx.community, "kernighan_lin_bisection", record)
    r = measure.measure_peer(peers.nx_kernighan_lin(_kl_start), L, 5, 5)
    side = _kl_start(L)
    n, m, halves, seed = seen[0]
    assert (n, m, seed) == (34, 78, 0)
    assert halves == (set(np.flatnonzero(side == 0).tolist()), set(np.flatnonzero(side == 1).tolist()))
    assert r["peer_detail"] == f"cut {oracle.cut_of(L.S, side):,} edges"


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
def test_tiny_gpu_run(tmp_path):
    status = bench("--device", "gpu", "--size", "tiny", "--graph-source", "generated", "--out", str(tmp_path))
    doc, _ = _doc(tmp_path)
    bad = [r for r in doc["rows"] if r["status"] != "ok" or r["validated"] is not True]
    assert status == 0 and not bad, bad
    assert doc["meta"]["env"]["gpu"] is not None
