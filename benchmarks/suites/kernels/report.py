"""The per-root kernels' Markdown: one table per kernel (BFS, SSSP, coloring) and the method."""

from __future__ import annotations

from semiring._bench.report import cell, ms, num, table


def _valid(r):
    if r.get("validated"):
        return "yes"
    return {"not available": "n/a", "skipped": "—"}.get(r["status"], "**NO**")


def _note(r):
    status = "" if r["status"] == "ok" else r["status"]
    return cell("; ".join(x for x in (status, r.get("note") or "") if x))


def _roots(r):
    req = r.get("roots_requested")
    return f"{r['roots']}" if req in (None, r["roots"]) else f"{r['roots']} of {req}"


def _bw(r, copy_bw):
    b = r.get("bytes_per_s")
    if not isinstance(b, (int, float)):
        return "—"
    return f"{b / 1e9:.1f}" + (f" ({100 * b / copy_bw:.0f}%)" if copy_bw else "")


def kernel_tables(rows, copy_bw=None):
    """Markdown lines of the BFS, SSSP and coloring tables (absent kernels omitted)."""
    out = []
    bfs = [r for r in rows if r["kernel"] == "bfs"]
    if bfs:
        out += ["", "## BFS", ""]
        out += table(["graph", "system", "engine", "direction", "roots", "median ms", "GTEPS (hmean)",
                      "edges inspected", "levels", "launches", "host syncs", "GB/s (% of copy)", "valid", "note"],
                     [[r["graph"], r["system"], r.get("engine") or "", r.get("direction") or "", _roots(r),
                       ms(r.get("ms_median")), num(r["teps_hmean"] / 1e9 if r.get("teps_hmean") else None),
                       num(r.get("edges_inspected")), num(r.get("levels")), num(r.get("launches")),
                       num(r.get("host_syncs")), _bw(r, copy_bw), _valid(r), _note(r)] for r in bfs])
    sssp = [r for r in rows if r["kernel"] == "sssp"]
    if sssp:
        out += ["", "## SSSP", ""]
        out += table(["graph", "system", "engine", "method", "roots", "median ms", "rounds", "launches",
                      "host syncs", "valid", "note"],
                     [[r["graph"], r["system"], r.get("engine") or "", r.get("direction") or "", _roots(r),
                       ms(r.get("ms_median")), num(r.get("rounds")), num(r.get("launches")),
                       num(r.get("host_syncs")), _valid(r), _note(r)] for r in sssp])
    col = [r for r in rows if r["kernel"] == "coloring"]
    if col:
        out += ["", "## Coloring", ""]
        out += table(["graph", "system", "engine", "method", "runs", "median ms", "colors", "ratio to greedy",
                      "valid", "note"],
                     [[r["graph"], r["system"], r.get("engine") or "", r.get("direction") or "", _roots(r),
                       ms(r.get("ms_median")), num(r.get("colors")),
                       f"{r['colors_ratio']:.2f}" if r.get("colors_ratio") is not None else "—",
                       _valid(r), _note(r)] for r in col])
    return out


def method(meta):
    """The method paragraph of the per-root suites (cpu, gpu, strategies, sssp-strategies)."""
    s = meta["settings"]
    warm = "every system" if s.get("cpu_warmup", True) else "GPU systems (not the CPU ones in this suite)"
    return ("Method: GPU runs timed with CUDA events, CPU runs with time.perf_counter; one untimed warm-up run per "
            f"system and graph for {warm}; median over roots. Roots: Graph500 search keys (random vertices of "
            "degree >= 1, seed 0); the main system (semiring's fused GPU engine, or semiring cpu on the CPU suite) "
            f"runs {s['roots_main']} roots, the others up to {s['roots_peers']} (fewer on the largest graphs or "
            f"when a system exceeds its time budget of {s.get('system_budget_s', 0):.0f} s per graph: see each "
            "row). TEPS: input edges in the traversed component (sum of degrees of reached vertices / 2; "
            "out-degrees for directed graphs) per second, harmonic mean over roots. GB/s: estimated bytes of "
            "indptr + indices read for the edges inspected plus 4 bytes per vertex per level, per second. Every "
            "result is validated (valid column; n/a = the system is not available in this build).")
