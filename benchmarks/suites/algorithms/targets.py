"""The algorithms suite's targets: GPU targets in milliseconds for named rows, and "no slower than
the previous committed run" for PageRank and triangle counting on every graph they ran on; the
previous run's medians (shown beside every row it has)."""

from __future__ import annotations

import json
import os

from .report import ms

_RESULTS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "results")
#: The previous committed run of each device (its medians are shown beside the rows).
PREVIOUS = {"gpu": os.path.join(_RESULTS, "algorithms-nvidia-h200-20261122.json"),
            "cpu": os.path.join(_RESULTS, "algorithms-intel-xeon-processor-20261122.json")}

#: GPU targets of the graph algorithm timings: (algorithm, variant, graph) -> milliseconds
#: (wall clock, warm), in the order the targets table lists them.
ALGORITHM_TARGETS_MS = {
    ("connected_components", "", "USA-road-t.NY"): 2.0,
    ("strongly_connected_components", "", "cnr-2000"): 15.0,
    ("minimum_spanning_forest", "method=boruvka", "USA-road-t.NY"): 10.0,
    ("coloring", "method=gebremedhin_manne", "USA-road-t.NY"): 5.0,
    ("betweenness_centrality", "16 sources", "kron16"): 20.0,
    ("louvain", "", "USA-road-t.NY"): 100.0,
    ("louvain", "", "kron16"): 300.0,
    ("floyd_warshall", "", "FW_2003"): 50.0,
    ("minimum_spanning_forest", "method=prim", "FW_2003"): 50.0,
    ("partition", "k=8", "USA-road-t.NY"): 200.0,
    ("kernighan_lin_bisection", "random start (seed 0)", "USA-road-t.NY"): 500.0,
}

#: Algorithms held to "no slower than the previous committed run" on every graph they ran on.
ALGORITHMS_NO_SLOWER = ("pagerank", "triangle_count")


def algorithm_target(algorithm, variant, graph, previous_ms=None):
    """A GPU row's target: ``(milliseconds, where it comes from)``, or ``(None, None)``.

    Parameters
    ----------
    algorithm, variant, graph : str
        The row's key, as the suite names it.
    previous_ms : float or None
        The row's median in the previous committed run (the target of the algorithms in
        :data:`ALGORITHMS_NO_SLOWER`).
    """
    ms = ALGORITHM_TARGETS_MS.get((algorithm, variant, graph))
    if ms is not None:
        return ms, "target"
    if algorithm in ALGORITHMS_NO_SLOWER and previous_ms is not None:
        return float(previous_ms), "no slower than the previous run"
    return None, None


def algorithm_target_order(algorithm, variant, graph):
    """Sort key of a row in the targets table: the named targets in their order, then the
    no-slower rows by algorithm (ties: keep the rows' own order)."""
    keys = list(ALGORITHM_TARGETS_MS)
    key = (algorithm, variant, graph)
    if key in ALGORITHM_TARGETS_MS:
        return (0, keys.index(key))
    return (1, ALGORITHMS_NO_SLOWER.index(algorithm) if algorithm in ALGORITHMS_NO_SLOWER else len(keys))


def load_previous(path):
    """The validated medians of a previous result file: ``({(algorithm, variant, graph): ms},
    description)``; ``({}, None)`` when there is none."""
    if not path or path == "none" or not os.path.exists(path):
        return {}, None
    with open(path) as f:
        doc = json.load(f)
    out = {(r["algorithm"], r["variant"], r["graph"]): r["median_ms"] for r in doc.get("rows", [])
           if r.get("validated") and r.get("median_ms") is not None}
    e = doc.get("meta", {}).get("env", {})
    gpu, git = e.get("gpu") or {}, e.get("git") or {}
    where = gpu.get("name") or (e.get("machine") or {}).get("cpu") or "?"
    about = (f"{os.path.basename(path)} ({where}, {str(e.get('date', '?'))[:10]}, "
             f"git {str(git.get('commit') or '?')[:7]})")
    return out, about


def targets(rows):
    """The rows with a target as the results' target dicts (target, measured, system, status), in
    the order of :data:`ALGORITHM_TARGETS_MS`, then the no-slower rows."""
    out = []
    for r in sorted((r for r in rows if r.get("target_ms") is not None),
                    key=lambda r: (algorithm_target_order(r["algorithm"], r["variant"], r["graph"]), r["order"])):
        what = f"{r['algorithm']}{' (' + r['variant'] + ')' if r['variant'] else ''} on {r['graph']}"
        bound = f"<= {ms(r['target_ms'])} ms" + ("" if r["target_source"] == "target" else " (the previous run)")
        good = r["median_ms"] is not None and r["status"] == "ok"
        out.append({"target": f"{what} {bound}", "measured": f"{ms(r['median_ms'])} ms" if good else r["status"],
                    "system": "semiring", "status": {True: "met", False: "not met"}[bool(r["meets_target"])]
                    if r["status"] != "skipped" else "not measured"})
    return out
