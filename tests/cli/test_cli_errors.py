"""The ``semiring`` command on bad input: every error is one line on stderr, never a traceback.

The contract (``semiring --help``): exit status 2 for a usage error, found while the command
line is parsed (a bad option value, an unknown or malformed graph spec, a missing, unreadable or
directory graph file, an --output that cannot be created); 1 when a well-formed command fails
(a malformed file, a graph too large for the memory free, a --source outside the graph, no GPU);
3 when a result fails its validation. The line starts with ``semiring: error:`` and says what was
expected and what was given. Most cases run in-process through ``main``; a few run the installed
``semiring`` console script in a subprocess.
"""

from __future__ import annotations

import gzip
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import semiring as sr
import semiring._memory as memory
from semiring.cli import graphs, main

REPO = Path(__file__).resolve().parents[2]
USAGE, FAILURE, INVALID_RESULT = 2, 1, 3  # the exit statuses documented in --help

MTX = "%%MatrixMarket matrix coordinate integer general\n4 4 3\n1 2 1\n2 3 1\n3 4 1\n"


# ---------------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------------
def error_line(rc, err, status, *needles):
    """Assert exit ``status`` and one ``semiring: error:`` line holding every needle; return it."""
    assert "Traceback" not in err, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, f"expected one line on stderr; given {err!r}"
    line = lines[0]
    assert line.startswith("semiring: error: "), line
    for needle in needles:
        assert needle in line, f"{needle!r} not in {line!r}"
    assert rc == status, f"exit status {rc}, expected {status}: {line}"
    return line


def run_full(capsys, argv):
    """``main(argv)`` in-process: (exit status, stdout, stderr)."""
    rc = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return rc, captured.out, captured.err


def run_main(capsys, argv):
    """``main(argv)`` in-process: (exit status, stderr), the arguments of :func:`error_line`."""
    rc, _, err = run_full(capsys, argv)
    return rc, err


def console_script():
    """The installed ``semiring`` entry point of this interpreter's environment."""
    here = Path(sys.executable).parent / "semiring"
    path = str(here) if here.exists() else shutil.which("semiring")
    assert path, "the semiring console script is not installed (pip install -e .)"
    return path


def run_script(*argv, cwd):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return subprocess.run([console_script(), *map(str, argv)], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=120)


@pytest.fixture
def files(tmp_path):
    """Graph files, good and damaged, by name."""
    good = tmp_path / "g.mtx"
    good.write_text(MTX)
    packed = gzip.compress(MTX.encode())
    (tmp_path / "g.mtx.gz").write_bytes(packed)
    (tmp_path / "truncated.mtx.gz").write_bytes(packed[: len(packed) // 2])
    (tmp_path / "junk.mtx.gz").write_bytes(packed[:10] + b"\xff" * 40)  # gzip magic, then junk
    (tmp_path / "plain.mtx.gz").write_text(MTX)  # not gzipped
    (tmp_path / "bad.gr").write_text("p sp 3 1\na 1 4 2\n")
    (tmp_path / "bad.mtx").write_text("%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 x\n")
    (tmp_path / "adir.mtx").mkdir()
    (tmp_path / "dangling.mtx").symlink_to(tmp_path / "nowhere.mtx")
    return tmp_path


def unreadable(tmp_path):
    """A graph file this process cannot open: mode 000, or (as root, where modes do not stop
    reading) a link to a write-only kernel file."""
    path = tmp_path / "secret.mtx"
    path.write_text(MTX)
    path.chmod(0)
    try:
        open(path, "rb").close()
    except PermissionError:
        return path
    link = tmp_path / "wo.mtx"
    link.symlink_to("/proc/sys/vm/drop_caches")
    with pytest.raises(PermissionError):
        open(link, "rb").close()
    return link


# ---------------------------------------------------------------------------------------------
# the reported reproducers
# ---------------------------------------------------------------------------------------------
def test_bench_roots_zero_runs_no_bfs_and_says_so(capsys):
    rc, out, err = run_full(capsys, ["bench", "--scale", "6", "--roots", "0"])
    assert rc == 0 and "Traceback" not in err, err
    bfs = next(line for line in out.splitlines() if line.startswith("bfs"))
    sssp = next(line for line in out.splitlines() if line.startswith("sssp"))
    assert bfs.split()[3] == "0" and "skipped (--roots 0)" in bfs
    assert re.search(r"\)\s+4\s", sssp)  # SSSP still runs its 4 default roots
    assert "all results validated" in out


def test_bench_sssp_roots_zero_runs_no_sssp_and_says_so(capsys):
    rc, out, err = run_full(capsys, ["bench", "--scale", "6", "--roots", "2", "--sssp-roots", "0"])
    assert rc == 0 and "Traceback" not in err, err
    rows = {line.split()[0]: line for line in out.splitlines() if line.startswith(("bfs", "sssp", "coloring"))}
    assert re.search(r"\)\s+2\s", rows["bfs"])
    assert rows["sssp"].split()[1] == "0" and "skipped (--sssp-roots 0)" in rows["sssp"]
    assert "all results validated" in out


def test_bench_more_sssp_roots_than_bfs_roots(capsys):
    rc, out, _ = run_full(capsys, ["bench", "--scale", "6", "--roots", "1", "--sssp-roots", "3"])
    assert rc == 0
    rows = {line.split()[0]: line for line in out.splitlines() if line.startswith(("bfs", "sssp"))}
    assert re.search(r"\)\s+1\s", rows["bfs"]) and re.search(r"\)\s+3\s", rows["sssp"])


def test_bench_more_roots_than_vertices_with_an_edge(capsys):
    # scale 1: two vertices; at most one search per vertex with an edge, and it says so
    rc, out, _ = run_full(capsys, ["bench", "--scale", "1", "--roots", "5", "--sssp-roots", "5"])
    assert rc == 0
    assert "only 2 vertices have an edge: 2 BFS and 2 SSSP roots" in out
    rows = {line.split()[0]: line for line in out.splitlines() if line.startswith(("bfs", "sssp"))}
    assert re.search(r"\)\s+2\s", rows["bfs"]) and re.search(r"\)\s+2\s", rows["sssp"])


def test_bench_roots_negative(capsys):
    error_line(*run_main(capsys, ["bench", "--scale", "6", "--roots", "-1"]), USAGE,
               "--roots", "expected an integer in 0..", "given '-1'")


def test_bfs_kron_31_is_refused_before_allocating(capsys):
    # 2**31 vertices and 2**35 edges: terabytes, more than any test machine has
    line = error_line(*run_main(capsys, ["bfs", "kron:31"]), FAILURE, "kron:31", "needs", "TiB", "is free")
    assert "2,147,483,648 vertices" in line


def test_bfs_grid2d_too_large_to_represent(capsys):
    error_line(*run_main(capsys, ["bfs", "grid2d:3000000000"]), USAGE,
               "grid2d:SIDE", "SIDE in 1..55108", "given 'grid2d:3000000000'")


def test_bfs_truncated_gzip(capsys, files):
    # the reader raises InvalidValue naming the file; the command prints it as one line
    error_line(*run_main(capsys, ["bfs", files / "truncated.mtx.gz"]), FAILURE, "truncated.mtx.gz")


# ---------------------------------------------------------------------------------------------
# usage errors: every option of every subcommand
# ---------------------------------------------------------------------------------------------
INT_OPTIONS = [  # (argv before the option, option, lowest, highest)
    (["demo"], "--side", 1, 55108),
    (["demo"], "--seed", 0, 2**63 - 1),
    (["bench"], "--scale", 1, 31),
    (["bench"], "--roots", 0, 2**31),
    (["bench"], "--sssp-roots", 0, 2**31),
    (["bench"], "--seed", 0, 2**63 - 1),
    (["bfs", "grid2d:3"], "--source", 0, 2**63 - 1),
    (["bfs", "grid2d:3"], "--seed", 0, 2**63 - 1),
    (["sssp", "grid2d:3"], "--source", 0, 2**63 - 1),
    (["sssp", "grid2d:3"], "--seed", 0, 2**63 - 1),
    (["color", "grid2d:3"], "--seed", 0, 2**63 - 1),
]


def _bad_values(lo, hi):
    return [str(lo - 1), str(hi + 1), "1.5", "x", "", "0x10", "1e3", " 3", "9" * 5000]


@pytest.mark.parametrize("prefix,option,lo,hi", INT_OPTIONS,
                         ids=[f"{p[0]}{o}" for p, o, _, _ in INT_OPTIONS])
def test_integer_options_out_of_range_or_not_integers(capsys, prefix, option, lo, hi):
    for value in _bad_values(lo, hi):
        given = "given ''" if value == "" else "given " + repr(value[:20])[:-1]
        line = error_line(*run_main(capsys, [*prefix, option, value]), USAGE,
                          f"argument {option}", f"expected an integer in {lo}..{hi}", given)
        assert len(line) < 400  # a 5000-digit value is shortened
        assert f"see 'semiring {prefix[0]} --help'" in line


CHOICES = [
    (["bench"], "--device", "tpu"),
    (["bfs", "grid2d:3"], "--device", "tpu"),
    (["bfs", "grid2d:3"], "--direction", "sideways"),
    (["sssp", "grid2d:3"], "--device", "GPU"),
    (["sssp", "grid2d:3"], "--method", "dijkstra"),
    (["color", "grid2d:3"], "--method", "welsh_powell"),
    (["color", "grid2d:3"], "--device", ""),
]


@pytest.mark.parametrize("prefix,option,value", CHOICES, ids=[f"{p[0]}{o}={v}" for p, o, v in CHOICES])
def test_choice_options(capsys, prefix, option, value):
    error_line(*run_main(capsys, [*prefix, option, value]), USAGE, f"argument {option}", "invalid choice",
               repr(value), "choose from")


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf", "-inf", "x", "", "1e400"])
def test_sssp_delta_must_be_positive_and_finite(capsys, value):
    error_line(*run_main(capsys, ["sssp", "grid2d:3", f"--delta={value}"]), USAGE,
               "argument --delta", "expected a positive finite number", f"given {value!r}")


SPECS = [  # (spec, what the message must say was expected)
    ("torus:4", "'torus' is not a generator"),
    ("kron:x", "kron:SCALE[:EDGE_FACTOR] with decimal integers"),
    ("kron:", "kron:SCALE[:EDGE_FACTOR] with decimal integers"),
    ("kron:-1", "kron:SCALE[:EDGE_FACTOR] with decimal integers"),
    ("kron: 4", "kron:SCALE[:EDGE_FACTOR] with decimal integers"),
    ("kron:4:1:1", "kron:SCALE[:EDGE_FACTOR] with decimal integers"),
    ("kron:0", "SCALE in 1..31"),
    ("kron:32", "SCALE in 1..31"),
    ("kron:99", "SCALE in 1..31"),
    ("kron:4:0", "EDGE_FACTOR in 1..576460752303423487"),
    ("kron:4:576460752303423488", "EDGE_FACTOR in 1..576460752303423487"),
    ("grid2d:0", "SIDE in 1..55108"),
    ("grid2d:55109", "SIDE in 1..55108"),
    ("grid2d:3:3", "grid2d:SIDE with decimal integers"),
    ("grid3d:1449", "SIDE in 1..1448"),
    ("grid3d:1.5", "grid3d:SIDE with decimal integers"),
    ("rgg:0", "LOG2_N in 1..31"),
    ("rgg:32", "LOG2_N in 1..31"),
    ("rgg:" + "9" * 5000, "LOG2_N in 1..31"),
]


@pytest.mark.parametrize("command", ["bfs", "sssp", "color"])
@pytest.mark.parametrize("spec,expected", SPECS, ids=[s[0][:16] for s in SPECS])
def test_bad_graph_specs(capsys, command, spec, expected):
    line = error_line(*run_main(capsys, [command, spec]), USAGE, "argument graph", expected)
    assert repr(spec) in line or repr(spec[:40]) in line
    assert len(line) < 400


@pytest.mark.parametrize("name,why", [
    ("missing.mtx", "(no such file)"),
    ("adir.mtx", "a directory"),
    ("dangling.mtx", "No such file or directory"),
])
@pytest.mark.parametrize("command", ["bfs", "sssp", "color"])
def test_graph_files_that_cannot_be_read(capsys, files, command, name, why):
    error_line(*run_main(capsys, [command, files / name]), USAGE, "argument graph",
               "expected a readable graph file", name, why)


def test_unreadable_graph_file(capsys, tmp_path):
    path = unreadable(tmp_path)
    error_line(*run_main(capsys, ["bfs", path]), USAGE, "argument graph", path.name, "Permission denied")


@pytest.mark.parametrize("command", ["bfs", "sssp", "color"])
@pytest.mark.parametrize("name,expected", [
    ("x.txt", "expected a .csv or .mtx file name"),
    ("x", "expected a .csv or .mtx file name"),
    ("no_such_dir/x.csv", "expected a file in an existing directory"),
    ("adir.mtx", "a directory"),
])
def test_output_that_cannot_be_written(capsys, files, command, name, expected):
    error_line(*run_main(capsys, [command, "grid2d:3", "--output", files / name]), USAGE, "argument --output",
               expected, name)
    assert not (files / "x.txt").exists() and not (files / "x").exists()


@pytest.mark.parametrize("argv,needles", [
    ([], ["required", "{demo,bench,bfs,sssp,color,mis,components,scc,pagerank,triangles,louvain,mst,"]),
    (["frobnicate"], ["invalid choice", "'frobnicate'"]),
    (["bfs"], ["required", "graph"]),
    (["bfs", "grid2d:3", "--no-such-option"], ["unrecognized arguments", "--no-such-option"]),
    (["bench", "--scale"], ["--scale", "expected one argument"]),
    (["bfs", "grid2d:3", "--seed", "--source", "1"], ["--seed", "expected one argument"]),
], ids=["no_command", "unknown_command", "no_graph", "unknown_option", "missing_value", "option_as_value"])
def test_malformed_command_lines(capsys, argv, needles):
    error_line(*run_main(capsys, argv), USAGE, *needles)


@pytest.mark.parametrize("command", ["bfs", "sssp"])
def test_distributed_takes_kron_specs_only(capsys, command):
    error_line(*run_main(capsys, [command, "grid2d:3", "--distributed"]), USAGE, "argument --distributed",
               "expected the graph kron:SCALE[:EDGE_FACTOR] or a .mtx/.gr file", "given 'grid2d:3'")


@pytest.mark.parametrize("command", ["bfs", "sssp"])
@pytest.mark.parametrize("spec,n", [("kron:3", 8), ("grid2d:3", 9), ("grid3d:2", 8), ("rgg:3", 8)])
def test_source_of_a_generated_graph_is_checked_before_generating(capsys, command, spec, n):
    rc, out, err = run_full(capsys, [command, spec, "--source", n - 1])
    assert rc == 0 and err == "" and re.search(rf"{command} from {n - 1}[ :]", out), (rc, out, err)
    error_line(*run_main(capsys, [command, spec, "--source", n]), USAGE, "argument --source",
               f"expected a vertex in 0..{n - 1} of {spec}", f"given {n}")


def test_delta_with_bellman_ford(capsys):
    error_line(*run_main(capsys, ["sssp", "grid2d:3", "--method", "bellman_ford", "--delta", "2"]), USAGE,
               "argument --delta", "expected with --method delta_stepping or auto",
               "given --delta 2 with --method bellman_ford")


def test_distributed_sssp_runs_delta_stepping_only(capsys):
    error_line(*run_main(capsys, ["sssp", "kron:4", "--distributed", "--method", "bellman_ford"]), USAGE,
               "argument --method", "expected auto or delta_stepping with --distributed", "given bellman_ford")


def test_distributed_takes_mtx_or_gr_files_only(capsys, tmp_path):
    col = tmp_path / "g.col"
    col.write_text("p edge 2 1\ne 1 2\n")
    error_line(*run_main(capsys, ["bfs", col, "--distributed"]), USAGE, "--distributed", "g.col")


def test_help_documents_the_exit_statuses_and_ranges(capsys):
    for argv in (["--help"], ["bench", "--help"], ["bfs", "--help"]):
        with pytest.raises(SystemExit) as info:
            main(argv)
        assert info.value.code == 0
        out = capsys.readouterr().out
        assert "1  the command failed" in out and "2  usage error" in out and "3  a result failed" in out
    with pytest.raises(SystemExit):
        main(["bench", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "0 runs no BFS and says so" in out and "0 runs no SSSP and says so" in out and "1..31" in out


# ---------------------------------------------------------------------------------------------
# failures of well-formed commands: exit 1
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("argv,needles", [
    (["bfs", "{files}/g.mtx", "--source", "4"], ["--source", "expected a vertex in 0..3", "given 4"]),
    (["sssp", "{files}/bad.gr"], ["bad.gr", "line 2"]),
    (["bfs", "{files}/bad.mtx"], ["bad.mtx", "line 3"]),
    (["color", "{files}/bad.mtx"], ["bad.mtx", "line 3"]),
    (["bfs", "{files}/plain.mtx.gz"], ["plain.mtx.gz"]),
    (["bfs", "{files}/junk.mtx.gz"], ["junk.mtx.gz"]),
    (["sssp", "{files}/truncated.mtx.gz"], ["truncated.mtx.gz"]),
    (["color", "{files}/truncated.mtx.gz"], ["truncated.mtx.gz"]),
], ids=["source_past_end_file", "malformed_gr", "malformed_mtx",
        "malformed_mtx_color", "plain_file_named_gz", "gzip_magic_then_junk", "truncated_gz_sssp",
        "truncated_gz_color"])
def test_failures_are_one_line(capsys, files, argv, needles):
    error_line(*run_main(capsys, [a.format(files=files) for a in argv]), FAILURE, *needles)


@pytest.mark.parametrize("argv,spec", [
    (["bfs", "kron:24"], "kron:24"),
    (["sssp", "grid2d:20000"], "grid2d:20000"),
    (["color", "grid3d:1000"], "grid3d:1000"),
    (["bfs", "rgg:28"], "rgg:28"),
    (["bench", "--scale", "24"], "bench --scale 24"),
    (["demo", "--side", "20000"], "demo --side 20000: grid(20000, 20000)"),
])
def test_graphs_that_do_not_fit_are_refused_before_generating(capsys, monkeypatch, argv, spec):
    # 16 MiB free: every graph here needs far more; the estimate refuses before any array exists
    monkeypatch.setattr(memory, "available_bytes", lambda device="cpu": 16 * 2**20)
    error_line(*run_main(capsys, argv), FAILURE, spec, "needs", "of cpu memory", "16.00 MiB is free")


def test_gpu_unavailable(capsys):
    try:
        import cupy  # noqa: F401
    except ImportError:
        error_line(*run_main(capsys, ["bfs", "kron:4", "--device", "gpu"]), FAILURE, "gpu")
    else:  # a machine with CuPy: --device gpu must work (or fail as one line without a GPU)
        rc, _, err = run_full(capsys, ["bfs", "kron:4", "--device", "gpu"])
        if rc != 0:
            error_line(rc, err, FAILURE, "gpu")


@pytest.mark.parametrize("name", ["levels.csv", "levels.mtx"])
def test_output_write_failure_after_the_run(capsys, tmp_path, name):
    # a name that passes the up-front check but whose write fails: a link to /dev/full (ENOSPC)
    target = tmp_path / name
    target.symlink_to("/dev/full")
    error_line(*run_main(capsys, ["bfs", "grid2d:3", "--output", target]), FAILURE,
               f"{target}: No space left on device")


def test_a_result_failing_validation_exits_3(capsys, monkeypatch):
    from semiring.cli import run
    from semiring.testing.validate import ValidationError

    def reject(*args, **kwargs):
        raise ValidationError("check 3: edge 0 -> 1 leaves level 0 for level 2")

    monkeypatch.setattr(run.validate, "check_bfs", reject)
    error_line(*run_main(capsys, ["bfs", "grid2d:3"]), INVALID_RESULT, "bfs", "failed validation", "check 3")


def test_a_bug_keeps_its_traceback(monkeypatch):
    # an exception that is not the library's is a bug: main does not turn it into a message
    from semiring.cli import run

    def broken(*args, **kwargs):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(run.algorithms, "bfs", broken)
    with pytest.raises(ZeroDivisionError, match="a bug"):
        main(["bfs", "grid2d:3"])


def test_ctrl_c_is_one_line_and_status_130(monkeypatch, capsys):
    from semiring.cli import run

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(run.algorithms, "bfs", interrupted)
    assert main(["bfs", "grid2d:3"]) == 130
    err = capsys.readouterr().err.strip()
    assert err == "semiring: error: bfs: interrupted"


# ---------------------------------------------------------------------------------------------
# properties
# ---------------------------------------------------------------------------------------------
SEED_MAX = 2**63 - 1


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.one_of(st.integers(-(2**70), 2**70).map(str), st.text(max_size=12)))
def test_seed_values_are_accepted_exactly_when_in_range(capsys, text):
    rc, out, err = run_full(capsys, ["bfs", "grid2d:2", "--seed", text])
    if re.fullmatch(r"[+-]?[0-9]+", text) and 0 <= int(text) <= SEED_MAX:
        assert rc == 0 and err == "", err
        assert "validated" in out
    else:
        error_line(rc, err, USAGE, "--seed")


@settings(max_examples=150, deadline=None, derandomize=True)
@given(name=st.sampled_from(["kron", "grid2d", "grid3d", "rgg"]), n=st.integers(-5, 2**40), extra=st.booleans())
def test_spec_ranges(name, n, extra):
    limits = {"kron": 31, "grid2d": 55108, "grid3d": 1448, "rgg": 31}
    text = f"{name}:{n}" + (":16" if extra else "")
    ok = 1 <= n <= limits[name] and (not extra or name == "kron")
    if ok:
        spec = graphs.parse(text)
        assert spec.kind == name and spec.numbers[0] == n
    else:
        with pytest.raises(sr.InvalidValue, match=re.escape(name)):
            graphs.parse(text)


# ---------------------------------------------------------------------------------------------
# the console script, end to end
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("argv,status,needles", [
    (["bench", "--scale", "6", "--roots", "-1"], USAGE, ["--roots", "given '-1'"]),
    (["bfs", "kron:31"], FAILURE, ["kron:31", "TiB"]),
    (["bfs", "grid2d:3000000000"], USAGE, ["grid2d:3000000000", "SIDE in 1..55108"]),
    (["bfs", "{tmp}/truncated.mtx.gz"], FAILURE, ["truncated.mtx.gz"]),
    (["sssp", "{tmp}/missing.gr"], USAGE, ["missing.gr", "no such file"]),
], ids=["roots_negative", "kron_31", "grid2d_huge", "truncated_gz", "missing_file"])
def test_console_script_errors(files, argv, status, needles):
    p = run_script(*[a.format(tmp=files) for a in argv], cwd=files)
    error_line(p.returncode, p.stderr, status, *needles)
    assert "Traceback" not in p.stdout


def test_console_script_bench_with_zero_searches(tmp_path):
    p = run_script("bench", "--scale", "6", "--roots", "0", "--sssp-roots", "0", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert "skipped (--roots 0)" in p.stdout and "skipped (--sssp-roots 0)" in p.stdout
    assert "all results validated" in p.stdout and p.stderr == ""
