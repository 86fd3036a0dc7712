"""Run networkx's own tests against the ``semiring`` backend, with a coverage gate.

    python -m semiring.nx._suite                 # with fallback to networkx (NETWORKX_FALLBACK_TO_NX=True)
    python -m semiring.nx._suite --no-fallback   # NETWORKX_FALLBACK_TO_NX unset: anything the backend
                                                 # lacks or declines is an xfail
    python -m semiring.nx._suite --json out.json -- -x   # a report file; pytest arguments after --

networkx's test mode (``NETWORKX_TEST_BACKEND=semiring``) converts every graph argument of every
dispatched call to a backend graph, calls the backend, and converts the result back. With
fallback, calls the backend declines run on networkx, so a backend whose adapters all declined
would pass: the gate therefore fails the run when an implemented adapter never ran
(``SEMIRING_NX_RECORD`` counts calls, see ``semiring.nx._record``). Expected failures for a
genuine reason are listed in ``semiring.nx.backend.XFAIL_TESTS`` and run strict.

Note: networkx reads ``NETWORKX_FALLBACK_TO_NX`` as a bool of the string, so "False" turns
fallback *on*; the no-fallback run removes the variable.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
import time

#: networkx test modules covering the implemented functions.
MODULES = (
    "networkx.algorithms.traversal",
    "networkx.algorithms.shortest_paths",
    "networkx.algorithms.coloring",
    "networkx.algorithms.components",
    "networkx.algorithms.tests.test_mis",
    "networkx.algorithms.link_analysis",
    "networkx.algorithms.tests.test_cluster",
    "networkx.algorithms.tree.tests.test_mst",
    "networkx.algorithms.centrality.tests.test_betweenness_centrality",
    "networkx.algorithms.community.tests.test_louvain",
    "networkx.algorithms.community.tests.test_quality",
    # kernighan_lin_bisection: networkx 3.6 moved its tests from test_kernighan_lin to test_bipartitions
    "networkx.algorithms.community.tests."
    + ("test_bipartitions" if importlib.util.find_spec("networkx.algorithms.community.bipartitions")
       else "test_kernighan_lin"),
    # structure
    "networkx.algorithms.tests.test_core",
    "networkx.algorithms.tests.test_dag",
    "networkx.algorithms.tests.test_isolate",
    "networkx.algorithms.bipartite.tests.test_basic",
    "networkx.algorithms.tests.test_bridges",
    "networkx.algorithms.tree.tests.test_recognition",
    "networkx.algorithms.community.tests.test_label_propagation",
    "networkx.generators.tests.test_ego",
    "networkx.algorithms.operators.tests.test_unary",
    # generators
    "networkx.generators.tests.test_classic",
    "networkx.generators.tests.test_small",
    "networkx.generators.tests.test_community",
    "networkx.algorithms.bipartite.tests.test_generators",
    # centrality, clustering, link analysis, link prediction
    "networkx.algorithms.centrality.tests.test_degree_centrality",
    "networkx.algorithms.centrality.tests.test_eigenvector_centrality",
    "networkx.algorithms.centrality.tests.test_katz_centrality",
    "networkx.algorithms.centrality.tests.test_closeness_centrality",
    "networkx.algorithms.centrality.tests.test_harmonic_centrality",
    "networkx.algorithms.centrality.tests.test_betweenness_centrality_subset",
    "networkx.algorithms.tests.test_link_prediction",
    "networkx.algorithms.tests.test_reciprocity",
    "networkx.algorithms.assortativity.tests.test_neighbor_degree",
    "networkx.algorithms.assortativity.tests.test_connectivity",
    "networkx.algorithms.centrality.tests.test_group",
    "networkx.algorithms.centrality.tests.test_trophic",
    "networkx.algorithms.centrality.tests.test_load_centrality",
    "networkx.algorithms.centrality.tests.test_reaching",
)
_OUTCOMES = ("passed", "failed", "xfailed", "xpassed", "skipped", "errors", "error", "deselected", "warnings")


def counts(summary):
    """``{"passed": 285, "xfailed": 1, ...}`` from pytest's final summary line."""
    found = {k: int(n) for n, k in re.findall(r"(\d+) (" + "|".join(_OUTCOMES) + r")\b", summary)}
    if "error" in found:
        found["errors"] = found.pop("error") + found.get("errors", 0)
    return found


def gate(record, names):
    """The implemented adapters that never ran (sorted): the run fails unless this is empty."""
    ran = record.get("ran", {})
    return sorted(n for n in names if not ran.get(n))


def run(*, fallback=True, modules=MODULES, pytest_args=(), environ=None):
    """Run the suite in a subprocess; returns a report dict (see ``main``)."""
    from .backend import FUNCTIONS

    env = dict(os.environ if environ is None else environ)
    env["NETWORKX_TEST_BACKEND"] = "semiring"
    if fallback:
        env["NETWORKX_FALLBACK_TO_NX"] = "True"
    else:
        env.pop("NETWORKX_FALLBACK_TO_NX", None)
    with tempfile.TemporaryDirectory(prefix="semiring-nx-suite-") as tmp:
        record_path = os.path.join(tmp, "record.json")
        env["SEMIRING_NX_RECORD"] = record_path
        # --tb=line: pytest formats a traceback for every xfail, and the long form re-parses
        # networkx's dispatch module for each (minutes without fallback)
        cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "xfail_strict=true",
               "--tb=line" if not fallback else "--tb=short", *pytest_args, "--pyargs", *modules]
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, cwd=tmp, env=env, capture_output=True, text=True)  # cwd: no project ini
        seconds = time.perf_counter() - t0
        try:
            with open(record_path) as f:
                record = json.load(f)
        except FileNotFoundError:
            record = {"ran": {}, "declined": {}, "cannot_run": {}}
    lines = [ln for ln in proc.stdout.splitlines() if ln.strip()]
    summary = lines[-1] if lines else ""
    missing = gate(record, FUNCTIONS) if fallback else []
    return {
        "fallback": fallback,
        "command": " ".join(cmd),
        "returncode": proc.returncode,
        "summary": summary,
        "counts": counts(summary),
        "seconds": round(seconds, 1),
        "never_ran": missing,
        "record": record,
        "ok": proc.returncode == 0 and not missing,
        "output_tail": "\n".join(lines[-60:]) + ("\n" + proc.stderr[-4000:] if proc.stderr.strip() else ""),
    }


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m semiring.nx._suite", description=__doc__.split("\n\n")[0])
    parser.add_argument("--no-fallback", action="store_true", help="leave NETWORKX_FALLBACK_TO_NX unset")
    parser.add_argument("--json", help="write the report here")
    parser.add_argument("pytest_args", nargs="*", help="extra pytest arguments (after --)")
    args = parser.parse_args(argv)
    report = run(fallback=not args.no_fallback, pytest_args=args.pytest_args)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)
    print(report["output_tail"])
    print(f"semiring networkx suite ({'with' if report['fallback'] else 'without'} fallback): "
          f"{report['summary']} [{report['seconds']} s]")
    ran = report["record"].get("ran", {})
    print("adapter calls that ran: " + ", ".join(f"{k}={v}" for k, v in sorted(ran.items())))
    if report["never_ran"]:
        print("GATE FAILED: implemented adapters that never ran: " + ", ".join(report["never_ran"]))
    return 0 if report["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
