"""The CPU algorithm table in the cpu suite's report: the Markdown tables, the CPU targets
(met / not met) and the failure lines.

Targets (medians of interleaved runs on the machine of the run):

- with the SuiteSparse backend: every algorithm row within 2x of the best peer; BFS on
  Kronecker 18 and PageRank on cnr-2000 within 1.2x of python-graphblas written directly;
- with the NumPy backend: every algorithm row within 4x of the best peer; betweenness within 3x
  of python-graphblas;
- per operation: masked ``vxm`` within 1.5x of python-graphblas (both backends).
"""

from __future__ import annotations

from .systems import SYSTEMS

NUMPY, SS = "semiring numpy", "semiring suitesparse"

METHOD = ("Method: each row builds every system's input outside the clock, runs each system once untimed "
          "(warm-up: caches on its graph, JIT compilation), then times the systems round-robin (each round starts "
          "one system later) with time.perf_counter, and reports each system's median over the rounds. BFS and "
          "SSSP take a different root each round, the same for every system (Graph500 search keys whose search "
          "reaches a tenth of the graph); betweenness the same sources. Every result, warm-up and "
          "timed, is checked against the row's reference (equal BFS levels; SSSP distances; component labels up to "
          "renaming; PageRank within 10 n tol in L1 of the converged ranks; triangle counts; spanning forest "
          "weight and shape; raw betweenness sums of Brandes over SciPy BFS; Louvain modularity above a floor; "
          "proper colorings). SciPy's SSSP, weak components, PageRank, triangle and spanning-forest rows run what "
          "the reference runs (the same SciPy code), so they are checked against themselves; the other systems "
          "against it. A call past the row's per-call budget is reported as \"> budget\" and the system "
          "stops there. semiring runs on a Graph of a Matrix stored by the named CPU backend, inside "
          "use_cpu_backend(backend). Ratios: the semiring backend's median over the best peer's (the fastest "
          "validated peer: SciPy, python-graphblas, graphblas-algorithms, networkx). The masked vxm row is in "
          "microseconds per call.")


def _cell(row, name):
    s = row["systems"].get(name)
    if s is None:
        return "—"
    st = s["status"]
    if st == "ok" and s.get("median") is not None:
        v = s["median"]
        text = f"{v:.3g}" if v < 100 else f"{v:,.0f}"
        if "colors" in s:
            text += f" ({s['colors']} colors)"
        if "modularity" in s:
            text += f" (Q {s['modularity']:.3f})"
        return text
    if st == "> budget":
        return f"> {row['budget_s']:g} s"
    return {"not installed": "not installed", "error": "**error**", "validation failed": "**wrong**"}.get(st, st)


def _ratio(row, name):
    x = row.get("ratio", {}).get(name)
    return "—" if x is None else f"{x:.2f}"


def tables(rows, graphs, notes):
    """Markdown lines: graphs, the table, the checks, the calls and the notes."""
    out = ["", "## Algorithms: every system in the same run", "", METHOD, ""]
    if graphs:
        out += ["| graph | about | n | entries | kind | build s |", "|---|---|---|---|---|---|"]
        out += [f"| {g['name']} | {g['about']} | {g['n']:,} | {g['nvals']:,} | {g['kind']} | {g['load_s']:.1f} |"
                for g in graphs]
        out.append("")
    head = ["algorithm", "graph", "rounds", *SYSTEMS, "best peer", "numpy / best", "suitesparse / best"]
    out += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        unit = " (us)" if r.get("unit") == "us" else ""
        out.append("| " + " | ".join([r["algorithm"] + unit, r["graph"], str(r.get("rounds", 0)),
                                      *(_cell(r, n) for n in SYSTEMS), r.get("best_peer") or "—",
                                      _ratio(r, NUMPY), _ratio(r, SS)]) + " |")
    out += ["", "Times in ms (the masked vxm row: us per call). \"—\": the library has no such algorithm.", "",
            "### Checks", ""]
    for r in rows:
        done = {s["check"] for s in r["systems"].values() if s.get("validated")}
        line = f"- {r['algorithm']} on {r['graph']}: " + (" / ".join(sorted(done)) if done else "nothing validated")
        bad = [f"{n}: {s['status']}: {s.get('error') or s.get('check')}" for n, s in r["systems"].items()
               if s["status"] not in ("ok",)]
        out.append((line + ("; " + "; ".join(bad) if bad else "")).replace("|", "/"))
    calls = {}
    for r in rows:
        for n, s in r["systems"].items():
            if s.get("what"):
                calls.setdefault(r["algorithm"], {}).setdefault(n, s["what"])
    out += ["", "### Calls", ""]
    for alg, d in calls.items():
        out.append(f"- {alg}: " + "; ".join(f"{n}: `{w}`" for n, w in d.items()))
    if notes:
        out += [""] + [f"- {n}" for n in notes]
    return out


def _find(rows, algorithm, key):
    return next((r for r in rows if r["algorithm"] == algorithm and r.get("key") == key), None)


def _median(row, name):
    s = row["systems"].get(name) if row else None
    return s["median"] if s and s["status"] == "ok" else None


def _vs(row, name, peer, bound, label):
    """``name`` within ``bound`` x of ``peer`` (a system name, or None: the best peer)."""
    unit = row.get("unit", "ms") if row else "ms"
    target = f"{label}: {name} within {bound:g}x of {peer or 'the best peer'}"
    if row is None:
        return {"target": target, "measured": None, "system": None, "status": "not measured"}
    mine = _median(row, name)
    theirs = row.get("best_peer_median") if peer is None else _median(row, peer)
    who = row.get("best_peer") if peer is None else peer
    s = row["systems"].get(name)
    if s is not None and s["status"] in ("> budget", "error", "validation failed") and theirs is not None:
        return {"target": target, "measured": f"{s['status']} vs {theirs:.3g} {unit} ({who})", "system": name,
                "status": "not met"}
    if mine is None or theirs is None:
        why = "the semiring system did not run" if mine is None else f"no validated {who or 'peer'}"
        return {"target": target, "measured": why, "system": name, "status": "not measured"}
    ratio = mine / theirs
    return {"target": target, "measured": f"{mine:.3g} vs {theirs:.3g} {unit} ({who}): {ratio:.2f}x",
            "system": name, "status": "met" if ratio <= bound else "not met", "ratio": ratio}


def targets(rows):
    """The CPU targets as the suite's target dicts (target, measured, system, status)."""
    algo = [r for r in rows if r.get("unit") != "us"]
    out = []
    for name, bound in ((SS, 2.0), (NUMPY, 4.0)):
        each = [_vs(r, name, None, bound, f"{r['algorithm']} {r['graph']}") for r in algo]
        met = sum(1 for t in each if t["status"] == "met")
        measured = [t for t in each if t["status"] != "not measured"]
        out.append({"target": f"every algorithm row: {name} within {bound:g}x of the best peer",
                    "measured": f"met on {met} of {len(each)} rows" + (f" ({len(each) - len(measured)} not measured)"
                                                                if len(measured) < len(each) else ""),
                    "system": name, "status": "not measured" if not measured else
                    ("met" if met == len(each) else "not met")})
        out += each
    for alg, key, name, bound in (("bfs", "kron18", SS, 1.2), ("pagerank", "web", SS, 1.2),
                                  ("betweenness_centrality", "kron16", NUMPY, 3.0),
                                  ("betweenness_centrality", "kron18", NUMPY, 3.0),
                                  ("masked_vxm", "kron10", NUMPY, 1.5), ("masked_vxm", "kron10", SS, 1.5)):
        r = _find(rows, alg, key)
        out.append(_vs(r, name, "python-graphblas", bound, f"{alg} {r['graph'] if r else key}"))
    return out


def failures(rows):
    """One line per failed system: ``graph algorithm system: status: why``."""
    return [f"{r['graph']} {r['algorithm']} {n}: {s['status']}: {s.get('error') or s.get('check')}"
            for r in rows for n, s in r["systems"].items() if s["status"] in ("error", "validation failed")] + \
        [f"{r['graph']} {r['algorithm']}: {'; '.join(r['notes'])}" for r in rows if "(graph)" in r.get("failed", [])]


def summary(rows):
    """Counts of the table's cells by status."""
    cells = [s["status"] for r in rows for s in r["systems"].values()]
    ok = sum(1 for r in rows for s in r["systems"].values() if s.get("validated") and s["status"] == "ok")
    return (f"algorithm table: {len(rows)} rows, {ok} system results validated, "
            f"{sum(c in ('error', 'validation failed') for c in cells)} failed, "
            f"{cells.count('> budget')} past their budget, {cells.count('not installed')} not installed")
