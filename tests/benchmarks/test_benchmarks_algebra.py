"""The algebra benchmark suite (``python -m benchmarks run --suite algebra``) on the CPU: every
row validates against its oracle, rows that need an API this build lacks are skipped with the
reason (never an error), and with stand-ins for those APIs the rows run, count host reads, and
reject a wrong answer.
"""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # `pytest` (not `python -m pytest`) does not put the repository root there
    sys.path.insert(0, str(ROOT))

import semiring as sr  # noqa: E402
from benchmarks.__main__ import main  # noqa: E402
from benchmarks.harness.graphs import DATA_DIR  # noqa: E402
from benchmarks.peers import device as gpu_peers  # noqa: E402
from benchmarks.peers import host as peers  # noqa: E402
from benchmarks.suites import algebra  # noqa: E402
from benchmarks.suites.algebra import loops, operations  # noqa: E402
from semiring._bench.runner import Ctx  # noqa: E402
from semiring._bench.timing import Deadline, WallTimer  # noqa: E402

NEW_APIS = {"record": "recorded body, replayed", "while_nonempty": "README BFS loop, device loop"}
ROWS = {"vxm masked any_pair", "ewise_add min", "assign masked scalar", "body of 10 operations, eager",
        "recorded body, replayed", "README BFS loop, eager", "README BFS loop, device loop", "bfs engine=algebra",
        "bfs engine=fused", "bfs(Graph)", "bfs(Matrix), second call", "sssp delta_stepping engine=algebra",
        "pagerank", "pagerank power iteration", "mxm masked plus_times"}


def _ctx(deadline_s):
    return Ctx(None, {"cpu": WallTimer()}, 1, 1, 5.0, DATA_DIR, size="tiny", deadline=Deadline(deadline_s))


def _run_rows():
    out = algebra.run(_ctx(50.0))
    return out["graphs"], out["rows"], out["notes"]


def _by_row(rows):
    out = {}
    for r in rows:
        out.setdefault(r["row"], []).append(r)
    return out


def test_tiny_suite_on_the_cpu_validates_every_row(tmp_path):
    assert main(["run", "--suite", "algebra", "--size", "tiny", "--device", "cpu", "--out", str(tmp_path)]) == 0
    import json

    doc = json.loads(next(tmp_path.glob("algebra-tiny-*.json")).read_text())
    md = next(tmp_path.glob("algebra-tiny-*.md")).read_text()
    rows = doc["rows"]
    assert {r["row"] for r in rows} == ROWS
    assert not [r for r in rows if r["status"] not in ("ok", "skipped")], [r["note"] for r in rows]
    for r in rows:
        if r["status"] == "ok":
            assert r["validated"] and r["ms_median"] > 0 and r["roots"] >= 1, r
        else:  # only a row whose API is missing is skipped, and it says which
            api = next(k for k, v in NEW_APIS.items() if v == r["row"])
            assert not hasattr(sr, api) and f"sr.{api}" in r["note"], r
    by = _by_row(rows)
    # the README loop runs on a Kronecker stand-in and a grid stand-in of the road network
    assert {r["graph"] for r in by["README BFS loop, eager"]} == {"kron12", "grid60x60"}
    assert {r["system"] for r in by["pagerank power iteration"]} == {"scipy.sparse"}
    if peers.graphblas() is not None:  # the per-operation comparison on the CPU
        assert {r["system"] for r in by["vxm masked any_pair"]} == {"semiring", "python-graphblas"}
        assert {r["system"] for r in by["mxm masked plus_times"]} == {"semiring", "python-graphblas"}
    # the recorded body's rows count their operations
    assert by["body of 10 operations, eager"][0]["ops"] == 10
    # targets are listed, but do not apply to a CPU run
    assert doc["targets"] and {t["status"] for t in doc["targets"]} == {"n/a"}
    assert "## The algebra, per operation and per loop" in md and "## Targets" in md and "host reads/op" in md
    assert doc["meta"]["method"] == algebra.METHOD and "wall clock" in md


class _Reads:
    """A stand-in for ``sr.host_reads``: counts the reads of ``Vector.nvals`` that the user's code
    (here, the benchmark's) makes while active: the host reads a loop makes on a GPU."""

    count = 0
    active = False


@pytest.fixture
def stand_ins(monkeypatch):
    """Plain-Python stand-ins for sr.record, sr.while_nonempty, sr.Scalar and sr.host_reads."""
    from semiring.core.vector import Vector

    nvals = Vector.nvals

    def counted(self):
        if _Reads.active and sys._getframe(1).f_code.co_filename == loops.__file__:
            _Reads.count += 1
        return nvals.fget(self)

    monkeypatch.setattr(Vector, "nvals", property(counted))

    @contextlib.contextmanager
    def host_reads():
        reads = _Reads()
        _Reads.count, _Reads.active = 0, True
        try:
            yield reads
        finally:
            _Reads.active = False
            reads.count = _Reads.count

    def while_nonempty(q, step):
        depth = 0
        while q.nvals:
            depth += 1
            step(depth)

    monkeypatch.setattr(sr, "record", lambda body: body, raising=False)
    monkeypatch.setattr(sr, "while_nonempty", while_nonempty, raising=False)
    monkeypatch.setattr(sr, "Scalar", int, raising=False)
    monkeypatch.setattr(sr, "host_reads", host_reads, raising=False)
    return monkeypatch


def test_rows_of_the_new_apis_run_and_count_host_reads(stand_ins):
    info, rows, notes = _run_rows()
    assert all(r["status"] == "ok" and r["validated"] for r in rows), [(r["row"], r["note"]) for r in rows
                                                                          if r["status"] != "ok"]
    by = _by_row(rows)
    assert by["recorded body, replayed"][0]["us_per_op"] > 0
    assert {r["graph"] for r in by["README BFS loop, device loop"]} == {"kron12", "grid60x60"}
    # a single operation's user code reads nothing back; the README loop reads nvals once per
    # level and once more to stop: depth + 1 reads, the depth from SciPy's levels
    assert by["vxm masked any_pair"][0]["host_reads_per_op"] == 0
    g = {x["name"]: x for x in info}
    assert g["grid60x60"]["n"] == 3600
    for r in by["README BFS loop, eager"]:
        depth = int(r["note"].split(" levels")[0].split(", ")[-1])
        assert r["host_reads_per_op"] == depth + 1


def test_a_wrong_device_loop_fails_validation(stand_ins):
    def one_step(q, step):  # stops after the first level
        if q.nvals:
            step(1)

    stand_ins.setattr(sr, "while_nonempty", one_step)
    _, rows, _ = _run_rows()
    bad = [r for r in rows if r["status"] == "validation failed"]
    assert {r["row"] for r in bad} == {"README BFS loop, device loop"}
    assert all("BFS levels" in r["note"] for r in bad)


def test_the_readme_loop_is_the_readme_s():
    # the suite's loop is the README's code: the same lines, and the README's answer
    readme = (ROOT / "README.md").read_text()
    for line in ("while q.nvals:", "depth += 1", "q = sr.vxm(q, A, sr.semirings.any_pair, mask=~level.S)",
                 "sr.assign(level, depth, None, mask=q.S)"):
        assert line in readme
        import inspect

        assert line in inspect.getsource(loops.readme_loop)
    A = sr.Matrix.from_coo([0, 0, 1, 2], [1, 2, 3, 3], nrows=4, ncols=4)
    level = loops.readme_loop(A, sr.Vector.from_coo([0], [0], size=4, dtype="int64"),
                                sr.Vector.from_coo([0], [True], size=4))
    assert level.to_dense(-1).tolist() == [0, 1, 1, 2]


def test_power_iteration_peer_matches_networkx():
    nx = pytest.importorskip("networkx")
    g = nx.gnp_random_graph(200, 0.03, seed=4, directed=True)
    S = nx.to_scipy_sparse_array(g, nodelist=range(200), format="csr").astype(bool)
    x, iters = gpu_peers.pagerank_power_iteration(np, S.T.astype(np.float64).tocsr(), np.diff(S.indptr))
    ref = nx.pagerank(g, alpha=0.85, tol=1e-6)
    assert iters > 1
    assert np.abs(x - np.array([ref[v] for v in range(200)])).sum() < 200 * 1e-6 * 10


def test_masked_product_row_rejects_a_wrong_product(monkeypatch):
    """Row 11 validates against SciPy's product on A's pattern: the library's answer passes, a
    product by another semiring (max.times) fails; python-graphblas's passes either way."""
    run = algebra.Rows(_ctx(20.0))
    g = run.load("kron10")
    operations.masked_product(run, g)
    mxm = sr.mxm
    monkeypatch.setattr(sr, "mxm", lambda A, B, s, **kw: mxm(A, B, sr.semirings.max_times, **kw))
    operations.masked_product(run, g)
    got = [(r["system"], r["status"]) for r in run.rows]
    assert got[0] == ("semiring", "ok") and ("semiring", "validation failed") in got[1:]
    assert all(status == "ok" for system, status in got if system == "python-graphblas")
