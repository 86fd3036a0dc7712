"""Command line: ``python -m benchmarks run --suite gpu|cpu|seed-table|seed-sssp|deep|algebra|networkx [options]``.

Exit status: 0 when every result validated (and for ``--suite gpu`` on a machine without a
GPU, which prints why and does nothing), 1 when a result failed validation or a system
raised, 2 for bad arguments.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys

from . import (algebra, cpu_table, cpu_table_report, deep, env, nx_backend, report, seed_sssp, seed_table, suites,
               targets)
from .graphs import DATA_DIR, cases
from .runner import Ctx, failed
from .timing import CpuTimer, Deadline, GpuTimer, Progress, WallTimer

#: Defaults by size: (roots of the main system, roots of the others, seconds per system and
#: graph, seconds for the whole suite).
DEFAULTS = {("gpu", "full"): (64, 8, 10.0, 480.0), ("cpu", "full"): (64, 8, 60.0, 1800.0),
            ("seed-table", "full"): (16, 8, 20.0, 540.0), ("seed-sssp", "full"): (8, 8, 20.0, 540.0),
            ("deep", "full"): (3, 3, 60.0, 1800.0), ("algebra", "full"): (1, 1, 20.0, 480.0),
            ("networkx", "full"): (1, 1, nx_backend.NX_BUDGET_S, 5400.0), ("networkx", "tiny"): (1, 1, 30.0, 900.0)}
TINY = (8, 4, 5.0, 50.0)
#: Soft deadline (seconds) of the cpu suite's algorithm table: rows of graphs not started by then
#: are skipped with a note (a safety net: the full table takes about 15 minutes on 2 cores).
ALGORITHM_TABLE_S = {"full": 1800.0, "tiny": 60.0}
SUITES = ("gpu", "cpu", "seed-table", "seed-sssp", "deep", "algebra", "networkx")


def parser():
    p = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="run a suite and write <out>/<suite>-<device>-<date>.json and .md")
    r.add_argument("--suite", required=True, choices=SUITES)
    r.add_argument("--size", default="full", choices=("tiny", "full"))
    r.add_argument("--roots", type=int, default=None,
                   help="roots of the main system (semiring fused on GPU, semiring cpu on CPU); default 64 (tiny 8)")
    r.add_argument("--roots-peers", type=int, default=None, help="roots of every other system; default 8 (tiny 4)")
    r.add_argument("--out", default=os.path.join("benchmarks", "results"), help="output folder")
    r.add_argument("--data", default=DATA_DIR, help="real-graph folder (default ../shared/data)")
    r.add_argument("--graphs", default=None,
                   help="comma-separated graph names to run (e.g. kron21,USA-road-NE); default all of the suite")
    r.add_argument("--system-budget-s", type=float, default=None,
                   help="stop a system on a graph after this many seconds (at least one root runs)")
    r.add_argument("--budget-s", type=float, default=None,
                   help="soft deadline of the whole suite: past it only the main systems run")
    r.add_argument("--algorithms", default=None,
                   help="cpu suite: only these rows of the algorithm table (comma-separated: "
                        + ",".join(cpu_table.ALGORITHMS) + "), without the per-root BFS/SSSP/coloring tables; "
                        "'none': without the algorithm table")
    r.add_argument("--device", default=None, choices=("auto", "gpu", "cpu"),
                   help="the algebra suite's device (default auto: the GPU when there is one)")
    return p


def _ctx(args, cp):
    roots, peers, sys_budget, budget = DEFAULTS.get((args.suite, args.size), TINY)
    timers = {"cpu": CpuTimer()}
    if cp is not None:
        timers["gpu"] = GpuTimer(cp)
    ctx = Ctx(cp, timers, args.roots or roots, args.roots_peers or peers, args.system_budget_s or sys_budget,
              args.data, cpu_warmup=args.suite != "gpu")
    return ctx, Deadline(args.budget_s or budget)


def run(args, argv):
    """Run the suite named by ``args``; return the exit status."""
    device = args.device or "auto"
    if args.suite in ("cpu", "deep", "networkx") or (args.suite == "algebra" and device == "cpu"):
        cp, reason = None, "not used by this suite" if args.suite != "algebra" else "--device cpu"
    else:
        cp, reason = env.gpu_status()
    if (args.suite == "gpu" or device == "gpu") and cp is None:
        print(f"benchmarks: --suite {args.suite} {'--device gpu ' if device == 'gpu' else ''}needs a GPU, and there "
              f"is none here: {reason}. Nothing was run.")
        return 0
    ctx, deadline = _ctx(args, cp)
    if args.suite == "algebra":  # the user's wall clock (the device synchronized around the call)
        ctx.timers = {"cpu": WallTimer(None)} | ({"gpu": WallTimer(cp)} if cp is not None else {})
    progress = Progress(None, f"{args.suite} ({args.size})")
    meta = {"suite": args.suite, "size": args.size, "command": "python -m benchmarks " + shlex.join(argv),
            "roots_main": ctx.roots_main, "roots_peers": ctx.roots_peers, "system_budget_s": ctx.budget_s,
            "suite_budget_s": deadline.seconds, "cpu_warmup": ctx.cpu_warmup, "gpu_reason": reason,
            "env": env.describe(cp)}
    if cp is not None:
        meta["copy_bandwidth"] = env.copy_bandwidth(cp)
    tables = None
    if args.suite == "seed-table":
        info, rows, notes = seed_table.run(args.size, ctx, deadline, progress)
        tables = seed_table.table(rows)
        goals = []
    elif args.suite == "deep":
        info, rows, notes = deep.run(args.size, ctx, deadline, progress)
        tables = deep.table(rows)
        goals = []
    elif args.suite == "algebra":
        meta["method"] = algebra.METHOD
        info, rows, notes = algebra.run(args.size, "gpu" if cp is not None else "cpu", ctx, deadline, progress)
        tables = algebra.table(rows)
        goals = algebra.targets(rows)
    elif args.suite == "networkx":
        meta["method"] = nx_backend.METHOD
        info, rows, notes = nx_backend.run(args.size, ctx, deadline, progress)
        tables = nx_backend.table(rows)
        goals = []
        notes.append(nx_backend.summary(rows))
    elif args.suite == "seed-sssp":
        info, rows, notes = seed_sssp.run(args.size, ctx, deadline, progress)
        tables = seed_sssp.table(rows)
        goals = []
    else:
        only = set(args.graphs.split(",")) if args.graphs else None
        if args.suite == "cpu" and args.algorithms not in (None, "none"):
            info, rows, notes = [], [], []
        else:
            info, rows, notes = suites.run_suite(args.suite, args.size, ctx, deadline, progress, only)
        goals = targets.gpu_targets(rows) if args.suite == "gpu" else (targets.cpu_targets(rows) if rows else [])
    table = None
    if args.suite == "cpu" and args.algorithms != "none":
        table = dict(zip(("graphs", "rows", "notes"), cpu_table.run(
            args.size, args.data, Deadline(ALGORITHM_TABLE_S[args.size]), progress,
            None if args.algorithms is None else set(args.algorithms.split(",")), only)))
        tables = report.kernel_tables(rows, None) + cpu_table_report.tables(table["rows"], table["graphs"],
                                                                             table["notes"])
        goals = goals + cpu_table_report.targets(table["rows"])
    progress.close()
    bad = failed(rows)
    ok = sum(1 for r in rows if r.get("validated"))
    summary = (f"{ok} rows validated, {len(bad)} failed, "
               f"{sum(1 for r in rows if r['status'] in ('skipped', 'not available'))} skipped or not available; "
               + (cpu_table_report.summary(table["rows"]) + "; " if table else "") + f"{deadline.elapsed():.0f} s")
    doc = {"meta": meta, "graphs": info, "rows": rows, "targets": goals, "notes": notes, "summary": summary,
           "failed": [f"{r['graph']} {r['kernel']} {r['system']} {r.get('engine') or ''} {r.get('direction') or ''}: "
                      f"{r['status']}: {r.get('note')}" for r in bad]}
    if table is not None:
        doc["algorithms"] = table
        doc["failed"] += cpu_table_report.failures(table["rows"])
    gpu = meta["env"]["gpu"]
    slug = env.slug(gpu["name"] if gpu else meta["env"]["machine"]["cpu"])
    stem = f"{args.suite}{'-tiny' if args.size == 'tiny' else ''}-{slug}-{env.today()}"
    pj, pm = report.save(args.out, stem, doc, tables)
    with open(pm) as f:
        print(f.read())
    print(f"wrote {pj} and {pm}")
    if args.suite == "algebra":
        print("\n".join(algebra.summary_lines(rows)))
    for line in doc["failed"]:
        print(f"FAILED: {line}", file=sys.stderr)
    return 1 if doc["failed"] else 0


def main(argv=None):
    """Entry point; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parser().parse_args(argv)
    if any(v is not None and v < 1 for v in (args.roots, args.roots_peers)):
        parser().error("--roots and --roots-peers must be >= 1")
    if args.device is not None and args.suite != "algebra":
        parser().error("--device applies to the algebra suite (the gpu and cpu suites name their device)")
    if args.algorithms is not None:
        if args.suite != "cpu":
            parser().error("--algorithms applies to the cpu suite")
        unknown = set(args.algorithms.split(",")) - set(cpu_table.ALGORITHMS) - {"none"}
        if unknown:
            parser().error(f"--algorithms: unknown {sorted(unknown)}; known: {', '.join(cpu_table.ALGORITHMS)}")
    if args.graphs:
        if args.suite in ("seed-table", "seed-sssp", "deep", "algebra", "networkx"):
            parser().error("--graphs applies to the cpu and gpu suites")
        names = [c.name for c in cases(args.suite, args.size)]
        if args.suite == "cpu":
            names += [s.name for s in cpu_table.cpu_graphs.specs(args.size).values() if s.name not in names]
        unknown = set(args.graphs.split(",")) - set(names)
        if unknown:
            parser().error(f"--graphs: unknown {sorted(unknown)}; the {args.suite} suite ({args.size}) has {names}")
    return run(args, argv)


if __name__ == "__main__":
    sys.exit(main())
