"""The per-root kernels of the cpu and gpu suites: for every graph of the suite, build it once,
then run every system of every kernel (BFS, SSSP, coloring) on it, in the same process, and
collect the rows.

Time: each system has a per-graph budget (it stops adding roots past it), and the suite has a
soft deadline: past it, graphs are still built but only semiring's main systems run on them
(one root), the others are recorded as skipped. The budgets are chosen so that ``--suite gpu
--size full`` fits in one 10-minute command on an H100 (graph generation and reading included).

Modules: :mod:`.bfs`, :mod:`.sssp`, :mod:`.coloring` (each kernel's systems and references),
:mod:`.report` (the tables and the method), :mod:`.targets` (the targets of both suites).
"""

from __future__ import annotations

import gc

from semiring._bench.measure import label, run_system, skipped
from semiring._bench.timing import graph500_roots

from ...harness import graphs
from . import bfs, coloring, sssp


def tiny_cases():
    """The graphs of both suites at ``--size tiny``."""
    return [graphs.kron(10), graphs.kron(12), graphs.grid(20), graphs.rgg(10),
            graphs.data("karate", "small/lagraph/karate.mtx", ("bfs", "coloring"), "undirected"),
            graphs.data("myciel5", "coloring/myciel5.col", ("coloring",), "undirected")]


def _is_main(system, ctx):
    return system.engine == "fused" or (system.roots == ctx.roots_main and system.device == "cpu"
                                        and system.name == "semiring cpu" and ctx.cp is None)


def _free(cp):
    gc.collect()
    if cp is not None:
        cp.get_default_memory_pool().free_all_blocks()


def _kernel_systems(kernel, g, ctx):
    if kernel == "bfs":
        return bfs.build(g, ctx)
    if kernel == "sssp":
        systems, notes = sssp.build(g, ctx)
    else:
        systems, notes = coloring.build(g, ctx)
    return systems, None, notes


def run_graph(g, ctx, rows, notes):
    """Run every kernel's systems on loaded graph ``g``; append rows and notes."""
    deadline, progress = ctx.deadline, ctx.progress
    roots = graph500_roots(g.degree, max(ctx.roots_main, ctx.roots_peers), seed=0)
    for kernel in g.case.kernels:
        try:
            systems, edges_of, more = _kernel_systems(kernel, g, ctx)
        except Exception as exc:  # noqa: BLE001 - a harness failure on one graph is reported
            rows.append({"kernel": kernel, "graph": g.case.name, "system": "(setup)", "status": "error",
                         "note": f"{type(exc).__name__}: {exc}", "roots": 0, "validated": False, "runs": []})
            progress.log(f"{g.case.name} {kernel}: setup failed: {exc}")
            continue
        notes.extend(n for n in more if n not in notes)
        kroots = coloring.roots(coloring.MAIN_REPEATS) if kernel == "coloring" else roots
        for s in systems:
            main = _is_main(s, ctx)
            left = deadline.left()
            if left <= 0 and not main:
                rows.append(skipped(s, g.case.name, "suite time budget used up"))
                progress.step(f"{g.case.name} {kernel} {label(s)}: skipped")
                continue
            if left <= 0:
                s.roots = 1
            row = run_system(s, g.case.name, kroots, ctx.timers[s.device], edges_of=edges_of,
                             budget_s=min(ctx.budget_s, max(left, 1.0)), warmup=ctx.cpu_warmup,
                             same_roots=ctx.roots_peers if kernel != "coloring" else None)
            rows.append(row)
            ms = row.get("ms_median")
            progress.step(f"{g.case.name} {kernel} {label(s)}: {row['status']}"
                          + (f", {ms:.3f} ms" if ms is not None else ""))
    if any(k == "coloring" for k in g.case.kernels):
        coloring.add_ratios(rows)


def run_suite(cases, ctx):
    """Run the kernels on ``cases`` (only the graphs ``--graphs`` names, when it does), on the GPU
    when ``ctx`` has one.

    Returns
    -------
    dict
        ``graphs``, ``rows``, ``notes``.
    """
    device, only, progress = ctx.device, getattr(ctx.options, "graphs", None), ctx.progress
    rows, notes, info = [], [], []
    for case in cases:
        if only is not None and case.name not in only:
            continue
        progress.log(f"building {case.name} on the {device} ...")
        try:
            g = graphs.load(case, device, ctx.data_dir)
        except Exception as exc:  # noqa: BLE001
            rows.append({"kernel": ",".join(case.kernels), "graph": case.name, "system": "(build)", "status": "error",
                         "note": f"{type(exc).__name__}: {exc}", "roots": 0, "validated": False, "runs": []})
            continue
        if g is None:
            notes.append(f"{case.name}: {case.path} is not in {ctx.data_dir}: skipped")
            continue
        info.append(g.describe())
        progress.log(f"{case.name}: {g.n:,} vertices, {g.A.nvals:,} entries, built in {g.load_s:.1f} s")
        run_graph(g, ctx, rows, notes)
        del g
        _free(ctx.cp)
        ctx.checkpoint({"graphs": info, "rows": rows, "notes": notes})
    return {"graphs": info, "rows": rows, "notes": notes}
