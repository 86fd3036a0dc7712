"""The deep suite: BFS and SSSP where the depth, not the width, costs (targets:
on the 2-core machine, BFS on a 10^6-vertex path <= 2 s and SSSP <= 5 s, from a Matrix and from
a Graph; the New York road graph no slower than before).

Graphs: directed paths 0 -> 1 -> ... -> n-1 of 10^5 and 10^6 vertices (unit float64 weights;
``--size tiny``: 10^4 and 10^5) searched from vertex 0, and the DIMACS New York road network
(``roads/USA-road-d.NY.gr.gz``: 264,346 vertices, 733,846 arcs, integer distances) from three
vertices. Systems: semiring's default (``engine="auto"``: the CPU whole-search engine, or
whatever the installed version picks), semiring's algebra engine (one masked product per level)
and scipy.sparse.csgraph (``breadth_first_order``, ``dijkstra``). Inputs: a Matrix (``bfs(A, s)``
builds the Graph inside every call, and that is timed) and a Graph built once.

Every result is validated against scipy.sparse.csgraph: BFS levels against the hop counts of
``shortest_path(unweighted=True)`` and the BFS tree of ``breadth_first_order`` (same reached set),
SSSP distances against ``dijkstra`` (exact: the weights are integers), and New York's distances
from vertex 0 against the maximum and sum the data README gives. Times: median of the repeats
(``time.perf_counter``); a run past the per-run budget is stopped (SIGALRM) and reported as such.
"""

from __future__ import annotations

import os

import numpy as np
from scipy.sparse import csgraph

import semiring as sr
from semiring._bench import report
from semiring._bench.runner import Limits, Suite
from semiring._bench.timing import OverBudget, median, timed

#: Seconds one run may take before it is stopped (the algebra engine on a 10^6 path takes minutes).
RUN_BUDGET_S = 60.0
#: Repeats per system and input from the first root (the median is reported); one run of more
#: than LONG_RUN_S seconds is not repeated.
REPEATS = 3
LONG_RUN_S = 10.0
#: Dijkstra from vertex 0 of USA-road-d.NY (the data README): maximum and sum of the distances.
NY_DIJKSTRA = (1_440_081, 186_686_642_878)
#: Targets, in seconds: (kernel, graph) -> limit for the default system.
TARGETS = {("bfs", "path-1000000"): 2.0, ("sssp", "path-1000000"): 5.0}


def _timed(fn, budget_s):
    """(seconds, result) of ``fn()``, or (None, None) when it ran past ``budget_s``."""
    try:
        return timed(fn, budget_s)
    except OverBudget:
        return None, None


def path(n):
    """The directed path 0 -> 1 -> ... -> n-1 with unit float64 weights."""
    a = np.arange(n - 1, dtype=np.int64)
    return sr.Matrix.from_coo(a, a + 1, np.ones(n - 1), nrows=n, ncols=n)


def graphs(size, data_dir):
    """[(name, Matrix, roots, note)] of the suite."""
    out = [(f"path-{n}", path(n), [0], f"directed path of {n:,} vertices, unit weights")
           for n in ((10**4, 10**5) if size == "tiny" else (10**5, 10**6))]
    ny = os.path.join(data_dir, "roads", "USA-road-d.NY.gr.gz")
    if os.path.exists(ny):
        A = sr.io.read(ny)
        out.append(("USA-road-d.NY", A, [0, 1000, 200_000], "DIMACS New York roads, integer distances"))
    return out


def _levels_reference(S, s):
    hops = csgraph.shortest_path(S, method="D", unweighted=True, indices=s)
    order = csgraph.breadth_first_order(S, s, directed=True, return_predecessors=False)
    return np.where(np.isfinite(hops), hops, -1).astype(np.int64), np.sort(order)


def _check_bfs(ref, r):
    levels, order = ref
    got = r.level.to_dense(-1)
    if not np.array_equal(got, levels):
        v = int(np.flatnonzero(got != levels)[0])
        return f"level of vertex {v}: {int(got[v])}, scipy {int(levels[v])}"
    if not np.array_equal(np.flatnonzero(got >= 0), order):
        return "reached set differs from scipy's breadth_first_order"
    return None


def _check_sssp(ref, r, name, s):
    got = r.distance.to_dense(np.inf).astype(np.float64)
    if not np.array_equal(got, ref):
        v = int(np.flatnonzero(got != ref)[0])
        return f"distance of vertex {v}: {got[v]}, scipy {ref[v]}"
    if name == "USA-road-d.NY" and s == 0:
        fin = got[np.isfinite(got)]
        if (int(fin.max()), int(fin.sum())) != NY_DIJKSTRA:
            return f"max/sum {int(fin.max())}/{int(fin.sum())}, README {NY_DIJKSTRA}"
    return None


#: (system, keywords of bfs / sssp; None for scipy).
SYSTEMS = [("semiring default", {}), ("semiring algebra", {"engine": "algebra"}), ("scipy", None)]


def _run_one(kernel, A, G, inp, kw, s):
    if inp == "Matrix":
        A._graph = None  # a cold Matrix: drop the Graph it remembers, so this call builds it again
    X = G if inp == "Graph" else A
    if kernel == "bfs":
        return sr.algorithms.bfs(X, s, **kw)
    return sr.algorithms.sssp(X, s, **kw)


def _scipy(kernel, S, s):
    if kernel == "bfs":
        return csgraph.breadth_first_order(S, s, directed=True, return_predecessors=True)
    return csgraph.dijkstra(S, indices=s)


def run(ctx, repeats=REPEATS):
    """Run the suite; returns its graphs, rows and notes. A run is stopped past ``ctx.budget_s``
    seconds (``--system-budget-s``, default :data:`RUN_BUDGET_S`)."""
    budget_s, deadline, progress = ctx.budget_s or RUN_BUDGET_S, ctx.deadline, ctx.progress
    rows, info, notes = [], [], []
    found = graphs(ctx.size, ctx.data_dir)
    if not any(name == "USA-road-d.NY" for name, *_ in found):
        notes.append(f"USA-road-d.NY: roads/USA-road-d.NY.gr.gz is not in {ctx.data_dir}: skipped")
    for name, A, roots, about in found:
        info.append({"name": name, "about": about, "n": A.nrows, "nvals": A.nvals, "kind": "directed",
                     "load_s": 0.0})
        S = A.to_scipy().astype(np.float64)
        refs = {("bfs", s): _levels_reference(S, s) for s in roots}
        refs.update({("sssp", s): csgraph.dijkstra(S, indices=s) for s in roots})
        stopped = set()  # (kernel, system): past the budget once, not run again on this graph
        for kernel in ("bfs", "sssp"):
            for system, kw in SYSTEMS:
                G = sr.algorithms.Graph(A)  # per system: its first run fills the cache (the median is warm)
                for inp in (("Matrix", "Graph") if kw is not None else ("scipy CSR",)):
                    row = {"graph": name, "kernel": kernel, "system": system, "input": inp, "n": A.nrows,
                           "nvals": A.nvals, "roots": len(roots), "runs": [], "status": "ok", "validated": True,
                           "note": None, "engine": None, "direction": None}
                    if (kernel, system) in stopped or (deadline.left() <= 0 and system != "semiring default"):
                        row.update(status="skipped", validated=None,
                                   note="stopped on an earlier input" if (kernel, system) in stopped
                                   else "suite time budget used up")
                        rows.append(row)
                        continue
                    for s in roots:
                        for k in range(repeats if s == roots[0] else 1):
                            if k and row["runs"][-1]["seconds"] > LONG_RUN_S:
                                break  # a long run is stable: one is enough
                            if kw is None:
                                sec, out = _timed(lambda: _scipy(kernel, S, s), budget_s)
                            else:
                                sec, out = _timed(lambda: _run_one(kernel, A, G, inp, kw, s), budget_s)
                            if sec is None:
                                row.update(status="stopped", validated=None,
                                           note=f"a run took more than {budget_s:.0f} s (stopped)")
                                stopped.add((kernel, system))
                                break
                            run = {"root": s, "seconds": sec}
                            if kw is not None:
                                bad = (_check_bfs(refs[(kernel, s)], out) if kernel == "bfs"
                                       else _check_sssp(refs[(kernel, s)], out, name, s))
                                run.update(engine=out.engine,
                                           depth=out.depth if kernel == "bfs" else out.rounds)
                                row["engine"] = out.engine
                                if bad:
                                    row.update(status="validation failed", validated=False, note=bad)
                            row["runs"].append(run)
                        if row["status"] != "ok":
                            break
                    secs = [x["seconds"] for x in row["runs"] if x["root"] == roots[0]]
                    row["s_median"] = median(secs) if secs and row["status"] == "ok" else None
                    row["s_all_roots"] = (median([x["seconds"] for x in row["runs"]])
                                          if row["runs"] and row["status"] == "ok" else None)
                    row["depth"] = row["runs"][0].get("depth") if row["runs"] else None
                    rows.append(row)
                    progress.step(f"{name} {kernel} {system} {inp}: {row['status']}"
                                  + (f", {row['s_median']:.3f} s" if row.get("s_median") is not None else ""))
    notes.append(f"one run past {budget_s:.0f} s is stopped; the system is then skipped for the rest of that graph "
                 "and kernel")
    notes.append("Matrix input: bfs/sssp build the Graph (and its weights, transpose, degrees) inside every timed "
                 "call (the Graph a Matrix remembers is dropped before each); Graph input: built once per system, its "
                 "cache filled by the first of the repeats (so the "
                 "median of three is a warm run; a system stopped after one run shows no median)")
    return {"graphs": info, "rows": rows, "notes": notes}


def _fmt(x):
    return "—" if x is None else (f"{x:.3f}" if x < 10 else f"{x:.1f}")


def _valid(r):
    if r.get("validated"):
        return "yes"
    return "—" if r["status"] in ("skipped", "stopped") else "**no**"


def table(rows):
    """Markdown lines: one row per graph, kernel, system and input."""
    head = ["graph", "kernel", "system", "input", "engine", "levels / rounds", f"median s (root 1, {REPEATS} runs)",
            "median s (all roots)", "valid", "note"]
    return ["", "## Deep graphs: BFS and SSSP, seconds", ""] + report.table(head, [
        [r["graph"], r["kernel"], r["system"], r["input"], r.get("engine") or "—",
         "—" if r.get("depth") is None else f"{r['depth']:,}", _fmt(r.get("s_median")), _fmt(r.get("s_all_roots")),
         _valid(r), report.cell(r.get("note") or "")] for r in rows])


def targets(rows):
    """:data:`TARGETS` for the default system from a Matrix and from a Graph: met, not met, or
    not measured."""
    out = []
    for (kernel, graph), limit in TARGETS.items():
        for inp in ("Matrix", "Graph"):
            hit = [r for r in rows if (r["kernel"], r["graph"], r["system"], r["input"])
                   == (kernel, graph, "semiring default", inp)]
            got = hit[0].get("s_median") if hit else None
            out.append({"target": f"{kernel} {graph} ({inp}) <= {limit:g} s",
                        "measured": None if got is None else f"{_fmt(got)} s", "system": "semiring default",
                        "status": "not measured" if got is None else ("met" if got <= limit else "not met")})
    return out


SUITE = Suite("deep", "BFS and SSSP where the depth costs: long paths and the New York roads, from a Matrix and a "
              "Graph, beside scipy", run, tables=lambda doc: table(doc["rows"]),
              targets=lambda doc: targets(doc["rows"]),
              method=("Method: wall-clock seconds (time.perf_counter) of each call, no warm-up call (a Graph's "
                      "cache is filled by the first of the repeats); median of the repeats from the first root, and "
                      "over all roots; every result checked against scipy.sparse.csgraph (see the notes)."),
              limits={"full": Limits(3, 3, 60.0, 1800.0), "tiny": Limits(3, 3, 10.0, 300.0)})
