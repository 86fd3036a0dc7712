"""The benchmark harness (``python -m benchmarks``): the tiny suites run on a CPU-only machine,
validate every result and write their JSON and Markdown; the device-side validators (run here
with NumPy standing in for CuPy: they only use functions both provide) reject wrong answers.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse.csgraph as csgraph

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # `pytest` (not `python -m pytest`) does not put the repository root there
    sys.path.insert(0, str(ROOT))

import semiring as sr  # noqa: E402
from benchmarks.__main__ import main  # noqa: E402
from benchmarks.peers import device as gpu_peers  # noqa: E402
from benchmarks.peers import host as peers  # noqa: E402
from semiring._bench.references import levels_from_tree  # noqa: E402
from semiring.testing.validate import ValidationError  # noqa: E402


def _load(out, prefix):
    js = sorted(out.glob(f"{prefix}-*.json"))
    md = sorted(out.glob(f"{prefix}-*.md"))
    assert len(js) == 1 and len(md) == 1, list(out.iterdir())
    return json.loads(js[0].read_text()), md[0].read_text()


def _table_keys(size="tiny"):
    from benchmarks.suites import cpu_table
    from benchmarks.suites.cpu_table import graphs as cpu_graphs

    specs = cpu_graphs.specs(size)
    return [(r.algorithm, specs[r.graph].name) for r in cpu_table.rows(size)]


def test_cpu_suite_tiny_without_graphblas(tmp_path, monkeypatch):
    from semiring.backends import suitesparse

    monkeypatch.setitem(sys.modules, "graphblas", None)  # import graphblas raises ImportError
    monkeypatch.setitem(sys.modules, "graphblas_algorithms", None)
    monkeypatch.setattr(suitesparse, "_loaded", "python-graphblas cannot be imported (test)")
    with sr.backends.use_cpu_backend("numpy"):  # where python-graphblas is missing, NumPy is the CPU backend
        assert main(["run", "--suite", "cpu", "--size", "tiny", "--out", str(tmp_path)]) == 0
    doc, md = _load(tmp_path, "cpu-tiny")
    rows = doc["rows"]
    # the algorithm table: every row, semiring's NumPy backend validated in each, the systems that
    # need python-graphblas reported as not installed (skipped with a note, not failed)
    table = doc["algorithms"]["rows"]
    assert [(r["algorithm"], r["graph"]) for r in table] == _table_keys()
    for r in table:
        assert r["systems"]["semiring numpy"]["validated"] and r["systems"]["semiring numpy"]["median"] > 0
        for name in ("semiring suitesparse", "python-graphblas", "graphblas-algorithms"):
            if name in r["systems"]:
                assert r["systems"][name]["status"] == "not installed", (r["algorithm"], name)
                assert "pip install" in r["systems"][name]["error"]
    assert "semiring suitesparse" in table[0]["systems"] and "graphblas-algorithms" in table[0]["systems"]
    assert "| bfs | grid16x16 |" in md and "not installed" in md
    assert {r["kernel"] for r in rows} == {"bfs", "sssp", "coloring"}
    assert all(r["validated"] for r in rows if r["status"] == "ok")
    assert not [r for r in rows if r["status"] in ("error", "validation failed")]
    assert not [r for r in rows if "graphblas" in r["system"]]
    assert any("python-graphblas is not installed" in n for n in doc["notes"])
    bfs = [r for r in rows if r["kernel"] == "bfs" and r["system"] == "semiring cpu"]
    assert {r["direction"] for r in bfs} == {"auto", "push", "pull", "edge"}
    assert all(r["teps_hmean"] > 0 and r["levels"] >= 1 and r["edges_inspected"] > 0 for r in bfs)
    assert all(len(r["runs"]) == r["roots"] >= 1 for r in rows if r["status"] == "ok")
    greedy = [r for r in rows if r["kernel"] == "coloring" and r["engine"] == "sequential"]
    assert greedy and all(r["colors_ratio"] == 1 for r in greedy)
    assert doc["meta"]["command"] == f"python -m benchmarks run --suite cpu --size tiny --out {tmp_path}"
    assert doc["meta"]["env"]["packages"]["numpy"] == np.__version__
    assert "hostname" not in json.dumps(doc["meta"]).lower()
    assert "## BFS" in md and "## SSSP" in md and "## Coloring" in md and "## Targets" in md
    assert md.startswith("# semiring benchmarks: cpu suite (tiny)")
    assert "Command: `python -m benchmarks run --suite cpu --size tiny" in md


def test_strategies_tiny_command_line(tmp_path):
    cmd = [sys.executable, "-m", "benchmarks", "run", "--suite", "strategies", "--size", "tiny",
           "--out", str(tmp_path)]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    doc, md = _load(tmp_path, "strategies-tiny")
    assert doc["meta"]["suite"] == "strategies" and "Reference numbers (ms" in md
    rows = doc["rows"]
    assert [g["n"] for g in doc["graphs"]] == [100, 1000, 10000]
    cpu = [r for r in rows if r["system"] == "semiring cpu" and r["engine"] == "algebra"]
    assert len(cpu) == 12 and all(r["validated"] for r in cpu)
    assert "Vertex-centric (push, pull) vs edge-centric (edge)" in md and "| uniform 10^4 | 10,000 |" in md
    # the named BFS strategies: one validated CPU row per strategy and size, and their table
    strategies = [r for r in rows if r["system"] == "semiring cpu" and (r["engine"] or "").startswith("strategy:")]
    from semiring.algorithms.bfs import STRATEGIES

    assert len(strategies) == 3 * len(STRATEGIES)
    assert all(r["validated"] and r["launches"] >= 3 for r in strategies)
    assert "## Named BFS strategies" in md and "CPU single_block" in md


def test_gpu_suite_without_gpu_exits_cleanly(tmp_path):
    from semiring._bench.env import gpu_status

    if gpu_status()[0] is not None:
        pytest.skip("a GPU is present: the gpu suite would run")
    assert main(["run", "--suite", "gpu", "--size", "tiny", "--out", str(tmp_path)]) == 0
    assert not list(tmp_path.iterdir())


def test_levels_from_tree_matches_shortest_path():
    A = sr.generators.kronecker(8).to_scipy()
    for s in (0, 3, 17):
        want = csgraph.shortest_path(A, unweighted=True, indices=s)
        got = peers.scipy_levels(A, s)
        assert np.array_equal(got, np.where(np.isinf(want), -1, want))
    order, pred = csgraph.breadth_first_order(A, 0, return_predecessors=True)
    assert levels_from_tree(order, pred, 0)[0] == 0


def test_device_validators_with_numpy_standing_in():
    W = sr.generators.kronecker(9, weights=(1, 255))
    A = sr.apply(W, sr.unary.one).dup("bool")
    level = gpu_peers.cupyx_bfs(np, A.to_scipy().astype(np.float32), 3)
    assert np.array_equal(level, peers.scipy_levels(A.to_scipy(), 3))
    gpu_peers.check_levels_device(np, A, 3, level)
    bad = level.copy()
    bad[np.flatnonzero(level == 2)[0]] = 3
    with pytest.raises(ValidationError):
        gpu_peers.check_levels_device(np, A, 3, bad)
    d = peers.scipy_dijkstra(W.to_scipy(), 3)
    gpu_peers.check_distances_device(np, W, 3, d)
    d[np.flatnonzero(np.isfinite(d))[5]] += 1
    with pytest.raises(ValidationError):
        gpu_peers.check_distances_device(np, W, 3, d)
    with pytest.raises(ValidationError):
        gpu_peers.check_coloring_device(np, A, sr.Vector.from_dense(np.zeros(A.nrows, np.int64)))
    col = sr.algorithms.coloring(A, method="greedy")
    assert gpu_peers.check_coloring_device(np, A, col) == int(col.to_dense().max()) + 1


def test_deep_suite_validates_and_reports_targets(tmp_path, monkeypatch):
    from benchmarks.suites import deep

    small = [("path-300", deep.path(300), [0], "path"), ("path-1000000", deep.path(2000), [0, 5], "stand-in")]
    monkeypatch.setattr(deep, "graphs", lambda size, data_dir: small)
    # no suite deadline: on a busy machine the algebra engine's rows take seconds each
    assert main(["run", "--suite", "deep", "--size", "tiny", "--budget-s", "1e9", "--out", str(tmp_path)]) == 0
    doc, md = _load(tmp_path, "deep-tiny")
    rows = doc["rows"]
    assert {(r["graph"], r["kernel"], r["system"], r["input"]) for r in rows} == {
        (g, k, s, i) for g in ("path-300", "path-1000000") for k in ("bfs", "sssp")
        for s, i in (("semiring default", "Matrix"), ("semiring default", "Graph"), ("semiring algebra", "Matrix"),
                     ("semiring algebra", "Graph"), ("scipy", "scipy CSR"))}
    assert all(r["validated"] for r in rows)
    assert {r["engine"] for r in rows if r["system"] == "semiring default"} == {"fused"}
    goals = {t["target"]: t for t in doc["targets"]}
    assert {t["status"] for t in doc["targets"]} <= {"met", "not met"} and len(goals) == 4
    assert goals["bfs path-1000000 (Matrix) <= 2 s"]["system"] == "semiring default"
    assert "| bfs path-1000000 (Matrix) <= 2 s |" in md and "| sssp path-1000000 (Graph) <= 5 s |" in md
    # a wrong answer is caught: the reference levels of scipy disagree with a corrupted result
    bad = deep._check_bfs(deep._levels_reference(deep.path(5).to_scipy().astype(float), 0),
                          sr.algorithms.bfs(sr.Matrix.from_coo([0], [1], nrows=5, ncols=5), 0))
    assert bad is not None and "level of vertex 2" in bad


def test_cpu_algorithm_table_tiny_checks_every_system(tmp_path):
    pytest.importorskip("graphblas", reason="python-graphblas is the peer of the table (the test extra has it)")
    from benchmarks.suites import cpu_table
    from benchmarks.suites.cpu_table import report as cpu_table_report
    from benchmarks.suites.cpu_table.systems import SYSTEMS

    assert main(["run", "--suite", "cpu", "--size", "tiny", "--algorithms", ",".join(cpu_table.ALGORITHMS),
                 "--out", str(tmp_path)]) == 0
    doc, md = _load(tmp_path, "cpu-tiny")
    assert doc["rows"] == [] and "## BFS" not in md  # --algorithms: the per-root tables are not run
    table = doc["algorithms"]["rows"]
    assert [(r["algorithm"], r["graph"]) for r in table] == _table_keys()
    for r in table:
        statuses = {n: s["status"] for n, s in r["systems"].items()}
        assert set(statuses) <= set(SYSTEMS) and {"semiring numpy", "semiring suitesparse"} <= set(statuses)
        # every system ran and validated (graphblas-algorithms is optional: not installed is a note)
        assert all(st == "ok" or (n, st) == ("graphblas-algorithms", "not installed") for n, st in statuses.items()), r
        for n, s in r["systems"].items():
            if s["status"] == "ok":
                assert s["validated"] and len(s["times"]) == r["rounds"] >= 1 and s["median"] > 0
        assert r["best_peer"] in SYSTEMS[2:] and r["best_peer_median"] > 0
        assert set(r["ratio"]) == {"semiring numpy", "semiring suitesparse"}
    by = {(r["algorithm"], r["graph"]): r for r in table}
    assert by[("betweenness_centrality", "kron8")]["systems"]["python-graphblas"]["validated"]
    assert by[("coloring", "kron8")]["systems"]["networkx"]["colors"] >= 2
    vxm = by[("masked_vxm", "kron10")]
    assert vxm["unit"] == "us" and vxm["rounds"] >= 50 and vxm["best_peer"] == "python-graphblas"
    goals = {t["target"]: t for t in doc["targets"]}
    assert {t["status"] for t in doc["targets"]} <= {"met", "not met"}
    for name, bound in (("semiring suitesparse", 2), ("semiring numpy", 4)):
        assert f"every algorithm row: {name} within {bound}x of the best peer" in goals
    assert "bfs kron9: semiring suitesparse within 1.2x of python-graphblas" in goals
    assert "pagerank kron8-directed: semiring suitesparse within 1.2x of python-graphblas" in goals
    assert "betweenness_centrality kron8: semiring numpy within 3x of python-graphblas" in goals
    assert "masked_vxm kron10: semiring numpy within 1.5x of python-graphblas" in goals
    assert "## Algorithms: every system in the same run" in md and "| masked_vxm (us) | kron10 |" in md
    assert cpu_table_report.failures(table) == [] and doc["failed"] == []


def test_cpu_algorithm_table_reports_wrong_answers_and_errors(tmp_path, monkeypatch):
    pytest.importorskip("graphblas", reason="python-graphblas is the peer of the table (the test extra has it)")
    from benchmarks.peers import gb_direct
    from benchmarks.suites.cpu_table import systems as cpu_systems

    real = gb_direct.triangle_count
    monkeypatch.setattr(gb_direct, "triangle_count", lambda gb, A: real(gb, A) + 1)
    monkeypatch.setattr(sr.algorithms, "connected_components",
                        lambda G: sr.Vector.from_dense(np.zeros(G.A.nrows, np.int64)))

    def broken(*args, **kwargs):
        raise RuntimeError("networkx broke")

    monkeypatch.setattr(cpu_systems, "_nx_call", broken)
    assert main(["run", "--suite", "cpu", "--size", "tiny", "--algorithms", "triangle_count,connected_components",
                 "--out", str(tmp_path)]) == 1
    doc, md = _load(tmp_path, "cpu-tiny")
    table = doc["algorithms"]["rows"]
    assert {r["algorithm"] for r in table} == {"triangle_count", "connected_components"}
    for r in table:
        s = r["systems"]
        assert s["networkx"]["status"] == "error" and "networkx broke" in s["networkx"]["error"]
        assert s["scipy"]["validated"] and s["scipy"]["status"] == "ok"
        if r["algorithm"] == "triangle_count":
            assert s["python-graphblas"]["status"] == "validation failed"
            assert s["semiring numpy"]["validated"] and s["semiring suitesparse"]["validated"]
        else:
            grid = r["graph"] == "grid16x16"  # one component: all-zero labels are right there
            for name in ("semiring numpy", "semiring suitesparse"):
                assert s[name]["status"] == ("ok" if grid else "validation failed"), (r["graph"], name)
    failed = "\n".join(doc["failed"])
    assert "kron8-directed-sym triangle_count python-graphblas: validation failed" in failed
    assert "kron9 connected_components semiring numpy: validation failed" in failed
    assert "networkx: error: RuntimeError: networkx broke" in failed
    assert "**wrong**" in md and "**error**" in md
    # a wrong or failed system is never the best peer
    assert all(r["best_peer"] == "scipy" or r["algorithm"] == "triangle_count" for r in table)


def test_cpu_algorithm_table_cuts_a_slow_system_at_its_budget(monkeypatch):
    import time

    from benchmarks.suites import cpu_table
    from benchmarks.suites.cpu_table import graphs as cpu_graphs
    from benchmarks.suites.cpu_table import systems as cpu_systems

    def slow(H):
        return cpu_systems.System("networkx", "sleeps", lambda _: time.sleep(0.5), lambda r, _: None)

    monkeypatch.setitem(cpu_systems.FACTORIES, "coloring", lambda: {"networkx": slow})
    spec = cpu_table.RowSpec("coloring", "kron16", rounds=3, row_s=1.0, budget_s=0.1)
    H = cpu_graphs.load(cpu_graphs.specs("tiny")["kron16"], None)
    row = cpu_table.run_row(spec, H, "tiny", None)
    s = row["systems"]["networkx"]
    assert s["status"] == "> budget" and s["median"] is None and "0.1 s" in s["error"]
    assert row["failed"] == [] and row["best_peer"] is None
