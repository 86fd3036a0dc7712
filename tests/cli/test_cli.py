"""The ``semiring`` command, in-process (``semiring.cli.main``) and as ``python -m semiring``.

Results written with ``--output`` are checked against scipy.sparse.csgraph (BFS levels,
Dijkstra distances) and networkx (coloring validity) on the same generated or written graph.
Bad input must end with a one-line message on stderr, never a traceback: exit status 2 for a
usage error (found while parsing), 1 for a failure (tests/cli/test_cli_errors.py has every path).
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
import scipy.io
import scipy.sparse.csgraph as csgraph

import semiring as sr
from semiring.cli import main

REPO = Path(__file__).resolve().parents[2]


# ---------------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------------
def run_module(*args, cwd):
    """``python -m semiring ARGS`` with this checkout importable; returns CompletedProcess."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return subprocess.run([sys.executable, "-m", "semiring", *map(str, args)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


def read_csv(path, header):
    """``vertex,<header>`` CSV -> (vertex int64 array, value array); ``header`` may name several
    columns (``level,parent``): then one value array per column."""
    lines = Path(path).read_text().splitlines()
    assert lines[0] == f"vertex,{header}", lines[0]
    data = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2)
    columns = [data[:, j] for j in range(1, data.shape[1])]
    return (data[:, 0].astype(np.int64), *columns)


def csgraph_levels(S, source):
    """Unweighted hop counts from ``source``; -1 where unreachable."""
    d = csgraph.shortest_path(S, method="D", unweighted=True, indices=source)
    return np.where(np.isinf(d), -1, d).astype(np.int64)


def dense_from(idx, vals, n, fill):
    out = np.full(n, fill, dtype=np.float64)
    out[idx] = vals
    return out


def assert_clean_failure(rc, err, status, *needles):
    assert rc == status, (rc, err)
    assert "Traceback" not in err, err
    assert len(err.strip().splitlines()) == 1, f"expected one line on stderr; given {err!r}"
    assert err.startswith("semiring: error: "), err
    for s in needles:
        assert s in err, f"{s!r} not in stderr {err!r}"


PETERSEN_COL = (
    "c Petersen graph: 10 vertices, 15 edges, chromatic number 3\n"
    "p edge 10 15\n"
    "e 1 2\ne 2 3\ne 3 4\ne 4 5\ne 5 1\n"      # outer 5-cycle
    "e 1 6\ne 2 7\ne 3 8\ne 4 9\ne 5 10\n"     # spokes
    "e 6 8\ne 8 10\ne 10 7\ne 7 9\ne 9 6\n"    # inner pentagram
)


# ---------------------------------------------------------------------------------------------
# demo and bench
# ---------------------------------------------------------------------------------------------
def test_demo_in_process(capsys):
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    assert out.strip().splitlines()[-1] == "OK", out
    assert "MISMATCH" not in out
    assert out.count("matches scipy: True") == 4


def test_bench_in_process(capsys):
    assert main(["bench", "--scale", "8", "--roots", "2", "--sssp-roots", "1"]) == 0
    captured = capsys.readouterr()
    out = captured.out
    assert "Traceback" not in captured.err
    assert "all results validated" in out
    assert "256 vertices" in out
    lines = out.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("kernel"))
    assert lines[header].split()[:3] == ["kernel", "runs", "median"]
    table = lines[header + 1:]
    runs = [re.search(r"\)\s+(\d+)\s", line) for line in table[:3]]
    assert table[0].startswith("bfs") and runs[0] and runs[0].group(1) == "2"     # 2 BFS roots
    assert table[1].startswith("sssp") and runs[1] and runs[1].group(1) == "1"    # 1 SSSP root
    assert table[2].startswith("coloring") and runs[2] and runs[2].group(1) == "1"
    assert table[-1] == "all results validated"


def test_demo_subprocess(tmp_path):
    p = run_module("demo", "--side", "16", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip().splitlines()[-1] == "OK"
    assert "Traceback" not in p.stderr


def test_bench_subprocess(tmp_path):
    p = run_module("bench", "--scale", "8", "--roots", "2", "--sssp-roots", "1", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert "all results validated" in p.stdout
    assert "it/s" not in p.stderr and "%|" not in p.stderr  # no progress bar when stderr is a pipe


# ---------------------------------------------------------------------------------------------
# bfs
# ---------------------------------------------------------------------------------------------
def _kron8_hub():
    deg = np.diff(sr.generators.kronecker(8).to_scipy().indptr)
    return int(np.argmax(deg))


@pytest.mark.parametrize("source", [None, "hub"])
def test_bfs_kron_csv_matches_csgraph(tmp_path, capsys, source):
    out = tmp_path / "x.csv"
    args = ["bfs", "kron:8", "--output", str(out)]
    s = 0  # kron:8 (seed 0): vertex 0 has an edge, so it is the default source
    if source == "hub":
        s = _kron8_hub()
        args += ["--source", str(s)]
    assert main(args) == 0
    printed = capsys.readouterr().out
    assert "validated" in printed and f"bfs from {s}:" in printed
    idx, lv = read_csv(out, "level")
    S = sr.generators.kronecker(8).to_scipy()
    want = csgraph_levels(S, s)
    got = np.full(S.shape[0], -1, np.int64)
    got[idx] = lv.astype(np.int64)
    assert np.array_equal(got, want)
    assert len(idx) == len(set(idx.tolist())) == int((want >= 0).sum())
    if source == "hub":
        assert (want >= 0).sum() > 100  # a real search, not just the source


@pytest.mark.parametrize("direction", ["push", "pull"])
def test_bfs_parents_csv(tmp_path, capsys, direction):
    s = _kron8_hub()
    out = tmp_path / "p.csv"
    assert main(["bfs", "kron:8", "--source", str(s), "--parents", "--direction", direction,
                 "--output", str(out)]) == 0
    capsys.readouterr()
    idx, lv, pa = read_csv(out, "level,parent")  # the levels come with the parents
    pa = pa.astype(np.int64)
    S = sr.generators.kronecker(8).to_scipy()
    want = csgraph_levels(S, s)
    assert set(idx.tolist()) == set(np.flatnonzero(want >= 0).tolist())
    assert np.array_equal(lv.astype(np.int64), want[idx])
    for v, p in zip(idx, pa):
        if v == s:
            assert p == s
        else:
            assert S[p, v] and want[p] == want[v] - 1


def test_bfs_mtx_output(tmp_path, capsys):
    out = tmp_path / "lv.mtx"
    assert main(["bfs", "grid2d:6", "--source", "7", "--output", str(out)]) == 0
    capsys.readouterr()
    M = scipy.io.mmread(out)
    assert M.shape == (36, 1)
    got = M.toarray().ravel()
    want = csgraph_levels(sr.generators.grid(6, 6).to_scipy(), 7)
    assert np.array_equal(got, want)  # every vertex reached; the source's explicit 0 is stored
    assert M.nnz == 36


def test_bfs_file_input(tmp_path, capsys):
    # a directed DIMACS .gr file: BFS follows out-edges
    g = tmp_path / "d.gr"
    g.write_text("p sp 5 4\na 1 2 1\na 2 3 1\na 4 1 1\na 3 5 1\n")
    out = tmp_path / "d.csv"
    assert main(["bfs", str(g), "--output", str(out)]) == 0
    capsys.readouterr()
    idx, lv = read_csv(out, "level")
    assert dict(zip(idx.tolist(), lv.astype(int).tolist())) == {0: 0, 1: 1, 2: 2, 4: 3}


# ---------------------------------------------------------------------------------------------
# sssp
# ---------------------------------------------------------------------------------------------
def test_sssp_grid_mtx_matches_dijkstra(tmp_path, capsys):
    out = tmp_path / "x.mtx"
    assert main(["sssp", "grid2d:10", "--output", str(out)]) == 0
    assert "validated" in capsys.readouterr().out
    M = scipy.io.mmread(out)
    assert M.shape == (100, 1)
    assert M.nnz == 100  # all reached; distance 0 at the source is an entry
    W = sr.generators.grid(10, 10, weights=(1, 255), seed=0).to_scipy()
    want = csgraph.dijkstra(W, indices=0)
    assert np.allclose(M.toarray().ravel(), want)


def test_sssp_kron_csv_matches_dijkstra(tmp_path, capsys):
    s = _kron8_hub()
    out = tmp_path / "d.csv"
    assert main(["sssp", "kron:8", "--source", str(s), "--output", str(out)]) == 0
    capsys.readouterr()
    idx, d = read_csv(out, "distance")
    W = sr.generators.kronecker(8, weights=(1, 255)).to_scipy()
    want = csgraph.dijkstra(W, indices=s)
    assert np.array_equal(dense_from(idx, d, W.shape[0], np.inf), want)


@pytest.mark.parametrize("method", ["bellman_ford", "delta_stepping"])
def test_sssp_gr_file(tmp_path, capsys, method):
    g = tmp_path / "w.gr"
    g.write_text("c\np sp 4 6\na 1 2 5\na 1 3 1\na 3 2 2\na 2 4 1\na 1 2 9\na 4 1 1\n")
    out = tmp_path / "w.csv"
    assert main(["sssp", str(g), "--method", method, "--output", str(out)]) == 0
    capsys.readouterr()
    idx, d = read_csv(out, "distance")
    assert dict(zip(idx.tolist(), d.tolist())) == {0: 0, 1: 3, 2: 1, 3: 4}


# ---------------------------------------------------------------------------------------------
# color
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("method", ["jones_plassmann", "luby", "greedy"])
def test_color_col_file(tmp_path, capsys, method):
    col = tmp_path / "petersen.col"
    col.write_text(PETERSEN_COL)
    out = tmp_path / "c.csv"
    assert main(["color", str(col), "--method", method, "--output", str(out)]) == 0
    printed = capsys.readouterr().out
    idx, c = read_csv(out, "color")
    c = c.astype(np.int64)
    assert sorted(idx.tolist()) == list(range(10))  # every vertex gets a color
    color = dict(zip(idx.tolist(), c.tolist()))
    G = nx.petersen_graph()
    # the file's numbering is not networkx's; check the file's own edges
    edges = [tuple(int(x) - 1 for x in line.split()[1:]) for line in PETERSEN_COL.splitlines() if line[0] == "e"]
    assert all(color[u] != color[v] for u, v in edges)
    k = len(set(c.tolist()))
    assert set(c.tolist()) == set(range(k))  # colors 0..k-1
    assert 3 <= k <= 4  # chromatic number 3; max degree 3 bounds the greedy ones by 4
    assert nx.is_isomorphic(G, nx.Graph(edges))
    assert f"{k} colors" in printed


def test_color_subprocess(tmp_path):
    col = tmp_path / "p.col"
    col.write_text(PETERSEN_COL)
    p = run_module("color", col, "--output", "c.mtx", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    M = scipy.io.mmread(tmp_path / "c.mtx")
    assert M.shape == (10, 1)


# ---------------------------------------------------------------------------------------------
# bad input: one line on stderr, exit 2 (usage) or 1 (failure), no traceback
# ---------------------------------------------------------------------------------------------
BAD = [
    ("missing_file", ["bfs", "{tmp}/missing.mtx"], 2, ["missing.mtx"]),
    ("missing_file_color", ["color", "{tmp}/missing.col"], 2, ["missing.col"]),
    ("bad_spec_kron_x", ["bfs", "kron:x"], 2, ["kron:x"]),
    ("bad_spec_empty", ["sssp", "kron:"], 2, ["kron:"]),
    ("bad_spec_unknown", ["bfs", "torus:4"], 2, ["torus:4"]),
    ("bad_spec_arity", ["bfs", "grid2d:3:3"], 2, ["grid2d:3:3"]),
    ("spec_scale_out_of_range", ["bfs", "kron:99"], 2, ["SCALE in 1..31"]),
    ("source_past_end", ["bfs", "kron:4", "--source", "16"], 2, ["--source", "16"]),
    ("source_negative", ["sssp", "grid2d:3", "--source", "-1"], 2, ["--source", "-1"]),
    ("bad_output_extension", ["bfs", "kron:4", "--output", "{tmp}/x.txt"], 2, ["--output", "x.txt"]),
    ("bad_output_extension_sssp", ["sssp", "grid2d:3", "--output", "{tmp}/x.json"], 2, ["--output", "x.json"]),
    ("bad_output_extension_color", ["color", "grid2d:3", "--output", "{tmp}/x"], 2, ["--output"]),
    ("malformed_gr", ["sssp", "{tmp}/bad.gr"], 1, ["bad.gr", "line 2"]),
    ("malformed_mtx", ["bfs", "{tmp}/bad.mtx"], 1, ["bad.mtx", "line 3"]),
    ("gpu_unavailable", ["bfs", "kron:4", "--device", "gpu"], 1, ["gpu"]),
]


def _bad_files(tmp_path):
    (tmp_path / "bad.gr").write_text("p sp 3 1\na 1 4 2\n")
    (tmp_path / "bad.mtx").write_text("%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 x\n")


@pytest.mark.parametrize("name,argv,status,needles", BAD, ids=[b[0] for b in BAD])
def test_bad_input_in_process(tmp_path, capsys, name, argv, status, needles):
    if name == "gpu_unavailable":
        try:
            import cupy  # noqa: F401
        except ImportError:
            pass
        else:
            pytest.skip("CuPy present")
    _bad_files(tmp_path)
    argv = [a.format(tmp=tmp_path) for a in argv]
    rc = main(argv)
    err = capsys.readouterr().err
    assert_clean_failure(rc, err, status, *needles)
    assert not (tmp_path / "x.txt").exists() and not (tmp_path / "x.json").exists()


@pytest.mark.parametrize("argv,status,needles", [
    (["bfs", "missing.mtx"], 2, ["missing.mtx"]),
    (["bfs", "kron:x"], 2, ["kron:x"]),
    (["sssp", "grid2d:4", "--source", "16"], 2, ["--source"]),
], ids=["missing_file", "bad_spec", "source_out_of_range"])
def test_bad_input_subprocess(tmp_path, argv, status, needles):
    p = run_module(*argv, cwd=tmp_path)
    assert_clean_failure(p.returncode, p.stderr, status, *needles)


def test_unwritable_output_is_a_clean_failure(tmp_path):
    # --output into a directory that does not exist: an error message, not a traceback
    p = run_module("bfs", "kron:4", "--output", tmp_path / "no_such_dir" / "x.csv", cwd=tmp_path)
    assert_clean_failure(p.returncode, p.stderr, 2, "no_such_dir")


# ---------------------------------------------------------------------------------------------
# main() called more than once in one process (kept last: it leaves demo/bench imported)
# ---------------------------------------------------------------------------------------------
def test_main_writes_to_the_current_stdout_on_every_call():
    # demo/bench print to sys.stdout as it is when main() runs, not as it was at first import
    for _ in range(2):
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            assert main(["demo", "--side", "4"]) == 0
        assert buf.getvalue().strip().endswith("OK"), buf.getvalue()
