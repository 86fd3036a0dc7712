"""The harness's core (``semiring._bench``): the runner writes the one results format, fails the
run on a wrong answer and says which, runs nothing where a GPU suite finds no GPU; ``semiring
bench`` runs on it without the repository's ``benchmarks`` folder and the optional libraries."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]

from semiring._bench import env, results, runner  # noqa: E402
from semiring._bench.measure import System, run_system  # noqa: E402
from semiring._bench.timing import CpuTimer  # noqa: E402


def _squares(wrong_at=None, device="cpu"):
    """A suite of one system that squares its root, checked against NumPy; wrong at ``wrong_at``."""

    def check(root, out):
        if out != np.square(root):
            raise AssertionError(f"{out} is not {root} squared")
        return {}

    def run(ctx):
        s = System("square", "toy", "cpu", lambda r: r * r + (r == wrong_at), check, roots=ctx.roots_main)
        rows = [run_system(s, "numbers", [3, 5, 7], ctx.timers["cpu"])]
        return {"graphs": [{"name": "numbers", "about": "3, 5, 7", "n": 3, "nvals": 0, "kind": "directed",
                            "load_s": 0.0}], "rows": rows, "notes": ["a note"]}

    return runner.Suite("toy", "squares", run, tables=lambda doc: ["", "## Toy", ""],
                        targets=lambda doc: [{"target": "fast", "measured": None, "system": None,
                                              "status": "not measured"}],
                        limits={"tiny": runner.Limits(3, 3, 5.0, 50.0)}, device=device)


def _args(tmp_path, **kw):
    base = {"size": "tiny", "roots": None, "roots_peers": None, "system_budget_s": None, "budget_s": None,
            "data": str(tmp_path), "out": str(tmp_path), "device": None, "graphs": None}
    return argparse.Namespace(**(base | kw))


def _doc(tmp_path):
    (js,), (md,) = tmp_path.glob("toy-tiny-*.json"), tmp_path.glob("toy-tiny-*.md")
    return json.loads(js.read_text()), md.read_text()


def test_runner_writes_the_results_format(tmp_path, capsys):
    assert runner.run(_squares(), _args(tmp_path), "toy command") == 0
    doc, md = _doc(tmp_path)
    assert list(doc)[:7] == ["meta", "graphs", "rows", "targets", "notes", "summary", "failed"]
    assert doc["meta"]["suite"] == "toy" and doc["meta"]["command"] == "toy command"
    assert doc["meta"]["settings"]["roots_main"] == 3 and doc["meta"]["env"]["packages"]["numpy"] == np.__version__
    (row,) = doc["rows"]
    assert row["validated"] and row["roots"] == 3 and [r["root"] for r in row["runs"]] == [3, 5, 7]
    assert doc["failed"] == [] and doc["summary"].startswith("1 rows validated, 0 failed, 0 skipped")
    assert md.startswith("# semiring benchmarks: toy suite (tiny)") and "Command: `toy command`" in md
    assert "## Graphs" in md and "## Toy" in md and "| fast | — | — | not measured |" in md and "- a note" in md
    assert f"wrote {tmp_path}" in capsys.readouterr().out


def test_a_wrong_answer_fails_the_run_and_is_named(tmp_path, capsys):
    assert runner.run(_squares(wrong_at=5), _args(tmp_path), "toy command") == 1
    doc, md = _doc(tmp_path)
    (row,) = doc["rows"]
    assert row["status"] == "validation failed" and row["validated"] is False and len(row["runs"]) == 2
    assert doc["failed"] == ["numbers square toy: validation failed: root 5: 26 is not 5 squared"]
    assert "FAILED: numbers square toy" in capsys.readouterr().err
    assert "0 rows validated, 1 failed" in doc["summary"]


def test_a_gpu_suite_without_a_gpu_runs_nothing(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(env, "gpu_status", lambda: (None, "no GPU in this test"))
    assert runner.run(_squares(device="gpu"), _args(tmp_path), "toy command") == 0
    assert not list(tmp_path.iterdir()) and "no GPU in this test. Nothing was run." in capsys.readouterr().out


def test_failure_lines_name_the_row():
    row = {"graph": "g", "kernel": "bfs", "system": "semiring cpu", "engine": "algebra", "direction": "push",
           "status": "error", "note": "RuntimeError: x"}
    assert results.failure_line(row) == "g bfs semiring cpu algebra push: error: RuntimeError: x"
    assert results.failed([row, {"status": "ok"}, {"status": "skipped"}]) == [row]


def test_a_system_that_raises_is_an_error_row():
    def boom(root):
        raise RuntimeError("boom")

    row = run_system(System("k", "s", "cpu", boom, lambda r, o: {}), "g", [1], CpuTimer())
    assert row["status"] == "error" and "RuntimeError: boom" in row["note"] and row["validated"] is False


def test_semiring_bench_runs_without_the_benchmarks_folder_and_the_optional_libraries(tmp_path):
    """What a plain ``pip install .`` has: NumPy, SciPy, tqdm; ``benchmarks`` not importable."""
    blocked = ("benchmarks", "graphblas", "networkx", "numba", "cupy")
    code = ("import sys\n"
            f"for name in {blocked!r}:\n    sys.modules[name] = None\n"
            "from semiring.cli import main\n"
            "sys.exit(main(['bench', '--scale', '7', '--roots', '2', '--sssp-roots', '1']))\n")
    p = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=300,
                       env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert p.returncode == 0, p.stdout + p.stderr
    assert "all results validated" in p.stdout and "128 vertices" in p.stdout


def test_semiring_bench_reports_a_wrong_search(monkeypatch, capsys):
    from semiring.cli import EXIT_INVALID_RESULT, main
    from semiring.testing import validate

    def reject(A, s, level, parent=None):
        raise validate.ValidationError(f"level of the source {s} is wrong (test)")

    monkeypatch.setattr(validate, "check_bfs", reject)
    assert main(["bench", "--scale", "6", "--roots", "1", "--sssp-roots", "0"]) == EXIT_INVALID_RESULT
    err = capsys.readouterr().err
    assert "bench: a result failed validation: bfs (parents, auto): root " in err and "(test)" in err
