"""The ``semiring`` networkx backend's recorder, the gate and networkx's own test suite.

networkx's own test suite runs against the backend in a subprocess (``semiring.nx._suite``),
with and without fallback, behind a gate that fails when an implemented adapter never ran; the
recorder counts each adapter's runs and declines."""

from __future__ import annotations

import json

import networkx as nx
import pytest

from semiring.nx import _suite
from semiring.nx._record import Recorder
from semiring.nx.backend import XFAIL_TESTS


# ---------------------------------------------------------------------------------------------
# the recorder, the gate and networkx's own suite
# ---------------------------------------------------------------------------------------------
def test_recorder_counts_runs_declines_and_lazy_generators(tmp_path):
    rec = Recorder(str(tmp_path / "r.json"))

    def gen(n):
        yield from range(n)

    def declines():
        raise NotImplementedError("no")

    def fails():
        raise nx.NodeNotFound("x")

    g = rec.wrap("gen", gen)(2)
    assert rec.ran["gen"] == 0  # a generator counts once consumed
    assert list(g) == [0, 1] and rec.ran["gen"] == 1
    with pytest.raises(NotImplementedError):
        rec.wrap("d", declines)()
    with pytest.raises(nx.NodeNotFound):
        rec.wrap("f", fails)()
    rec.refused("x", "why")
    rec.dump()
    data = json.loads((tmp_path / "r.json").read_text())
    assert data == {"ran": {"gen": 1, "f": 1}, "declined": {"d": 1}, "cannot_run": {"x": {"why": 1}}}


def test_gate_and_summary_parsing():
    assert _suite.gate({"ran": {"a": 2, "b": 0}}, ["a", "b", "c"]) == ["b", "c"]
    assert _suite.gate({"ran": {"a": 1}}, ["a"]) == []
    assert _suite.counts("1 failed, 284 passed, 1 xfailed, 2 warnings in 9.76s") == {
        "failed": 1, "passed": 284, "xfailed": 1, "warnings": 2}
    assert _suite.counts("29 passed, 257 xfailed, 1 error in 50s")["errors"] == 1


def test_xfail_list_names_real_networkx_tests():
    import pathlib

    root = pathlib.Path(nx.__file__).parent
    for key in XFAIL_TESTS:
        path, name = key.split("::", 1)
        assert f"def {name.split('::')[-1].split('[')[0]}(" in (root / path).read_text(), key


def test_networkx_suite_with_fallback():
    """networkx's tests of the implemented functions, with fallback: no failure, every adapter ran."""
    report = _suite.run(fallback=True)
    assert report["ok"], report["output_tail"] + f"\nnever ran: {report['never_ran']}"
    c = report["counts"]
    # every collected test passes but the listed expected failures (strict), so ``passed`` is the
    # number of tests networkx's modules hold less those: 1192 with networkx 3.6.1. It can only
    # grow while MODULES stays (networkx adds tests); a drop means tests no longer run.
    assert c.get("failed", 0) == 0 and c.get("errors", 0) == 0 and c["passed"] >= 1192
    assert c.get("xfailed", 0) == len(XFAIL_TESTS)


def test_networkx_suite_without_fallback():
    """The same tests with NETWORKX_FALLBACK_TO_NX unset: whatever the backend lacks is an xfail, and
    nothing fails."""
    report = _suite.run(fallback=False)
    assert report["returncode"] == 0, report["output_tail"]
    c = report["counts"]
    # a test passes here only when the backend serves every networkx call it makes (anything
    # declined or missing is an xfail): 831 of networkx 3.6.1's tests. Adapters only add to that
    # number; a drop means an adapter was lost or now declines what it served.
    assert c.get("failed", 0) == 0 and c.get("errors", 0) == 0 and c["passed"] >= 831
