"""The cpu and gpu suites: for every graph of the suite, build it once, then run every system
of every kernel on it, in the same process, and collect the rows.

Time: each system has a per-graph budget (it stops adding roots past it), and the suite has a
soft deadline: past it, graphs are still built but only semiring's main systems run on them
(one root), the others are recorded as skipped. The budgets are chosen so that ``--suite gpu --size full`` fits in one
10-minute command on an H100 (graph generation and reading included).
"""

from __future__ import annotations

import gc

from . import bfs, coloring, graphs, sssp
from .runner import label, run_system, skipped
from .timing import graph500_roots


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


def run_graph(g, ctx, deadline, progress, rows, notes):
    """Run every kernel's systems on loaded graph ``g``; append rows and notes."""
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


def run_suite(suite, size, ctx, deadline, progress, only=None):
    """Run the cpu or gpu suite (only the graphs named in ``only``, when given).

    Returns
    -------
    graphs_info : list of dict
    rows : list of dict
    notes : list of str
    """
    device = "gpu" if suite == "gpu" else "cpu"
    rows, notes, info = [], [], []
    for case in graphs.cases(suite, size):
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
        run_graph(g, ctx, deadline, progress, rows, notes)
        del g
        _free(ctx.cp)
    return info, rows, notes
