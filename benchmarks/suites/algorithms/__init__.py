"""The algorithms suite: every graph algorithm, one row per (algorithm, graph), on the CPU or the
GPU, each beside its CPU peer on the host and, on the GPU, its target.

::

    python -m benchmarks run --suite algorithms [--device cpu|gpu] [--size tiny|full] [--out DIR]
        [--system-budget-s S] [--budget-s T] [--row-timeout-s R] [--peer-timeout-s P] [--runs K]
        [--algorithms NAME,...] [--graph-source shared|generated] [--targets-only] [--previous FILE|none]

Every algorithm runs on one shared graph (``../shared/data``) and one generated graph
(``semiring.generators``) of the kind it needs (:mod:`.graphs`): components, triangles, the
spanning forest (Borůvka), coloring, partitioning and Kernighan-Lin on USA-road-t.NY and
Kronecker scale 14; betweenness and Louvain on USA-road-t.NY and Kronecker scale 16; strong
components and PageRank on cnr-2000 and a directed Kronecker scale-14 graph; Floyd-Warshall,
all-pairs shortest paths and Prim on LAGraph's test_FW_2003 and a weighted Kronecker scale-8
graph. ``--size tiny`` swaps in tiny graphs (karate, west0067, Kronecker scales 8 and 6) to check
the code path in seconds.

Each row (:mod:`.measure`): a fresh :class:`semiring.algorithms.Graph` (so what the algorithm
caches on it is built by the warm-up run and reused by the timed runs, as an application that
keeps its Graph would), one warm-up run, then timed runs until ``--runs`` runs or
``--system-budget-s`` seconds (at least one: the warm-up may include compiling the row's
kernels; none only when the warm-up alone took more than half the budget and more than a third
of ``--row-timeout-s``: the row then reports the warm-up time). Times are the wall clock (on the
GPU with the device synchronized before the start and before the stop). The warm-up's result is
checked against an oracle (:mod:`benchmarks.peers.oracles`: SciPy, NumPy, networkx, published
answers), whose own time is reported.

Each row also times its CPU peer on the host (:mod:`benchmarks.peers.algorithms`: SciPy, or
networkx where SciPy has none, METIS for k-way partitions), at most ``--peer-timeout-s`` seconds
(a slower peer is reported as "> P s"), and says whether the row beats it. On the GPU, rows with
a target (:data:`.targets.ALGORITHM_TARGETS_MS`; PageRank and triangle counting: no slower than
the previous committed run, ``--previous``) run first, so that a run cut short by the total
budget (``--budget-s``) loses only rows without one, and say whether they meet it; the previous
run's median is shown beside every row it has.

A row that raises, fails its check or runs past ``--row-timeout-s`` is reported as such and the
others still run; past ``--budget-s`` the remaining rows are skipped. The results are rewritten
after every row, so an interrupted run leaves what it measured.
"""

from __future__ import annotations

import os
import time

from semiring._bench.runner import Limits, Suite, option
from semiring._bench.timing import OverBudget, time_limit

from . import report, targets
from .graphs import Loaded, specs
from .measure import DEFAULTS, TINY, Budget, _error, add_peer, blank_row, judge, run_row
from .rows import benches


def plan(size, options):
    """Every (order, Bench, Spec) that the options select, in table order."""
    only = set(options.algorithms.split(",")) if options.algorithms else None
    graph_specs = specs(size)
    sources = [options.graph_source] if options.graph_source else ["shared", "generated"]
    out = []
    for b in benches(size):
        if only is not None and b.algorithm not in only:
            continue
        for key in b.graphs:
            spec = graph_specs[key]
            if spec.source in sources:
                out.append([len(out), b, spec])
    return out


def schedule(device, size, options, previous):
    """The rows in the order they run: ``[(order, Bench, Spec, target ms, target source, previous
    ms)]``. The targets are GPU targets: on the GPU the rows with one run first; on the CPU they
    have none, and ``--targets-only`` still selects the rows that have one on the GPU.
    ``previous``: {(algorithm, variant, graph): ms} of the previous run."""
    out = []
    for order, b, spec in plan(size, options):
        before = previous.get((b.algorithm, b.variant, spec.name))
        target, source = targets.algorithm_target(b.algorithm, b.variant, spec.name, before)
        if options.targets_only and target is None:
            continue
        if device != "gpu":
            target, source = None, None
        out.append((order, b, spec, target, source, before))
    out.sort(key=lambda p: (p[3] is None, p[0]))
    return out


def budget_of(ctx):
    """The run's :class:`.measure.Budget`: the device's defaults (``--size tiny``: :data:`.measure.TINY`),
    overridden by the options given."""
    base = TINY if ctx.size == "tiny" else DEFAULTS[ctx.device]
    o = ctx.options

    def pick(value, default):
        return value if value is not None else default

    return Budget(pick(ctx.budget_s, base.budget_s), pick(ctx.deadline.seconds, base.total_s),
                  pick(o.row_timeout_s, base.row_timeout_s), pick(o.runs, base.runs),
                  pick(o.peer_timeout_s, base.peer_s))


def run(ctx):
    """Run the rows the options select; returns the graphs, rows, notes and the header's lines."""
    t0 = time.perf_counter()
    budget, timer, o, data = budget_of(ctx), ctx.timers[ctx.device], ctx.options, ctx.data_dir
    previous, previous_about = ({}, None) if ctx.size == "tiny" else targets.load_previous(
        targets.PREVIOUS[ctx.device] if o.previous is None else o.previous)
    rows_planned = schedule(ctx.device, ctx.size, o, previous)
    about = [f"limits: {budget.budget_s:g} s of timed runs per row (at most {budget.runs} runs), "
             f"{budget.row_timeout_s:g} s per row, {budget.peer_s:g} s per CPU peer, {budget.total_s:g} s in all",
             f"previous run (\"before ms\"): {previous_about or 'none'}"]
    loaded, graph_errors, info, rows, notes = {}, {}, [], [], []
    ctx.progress.log(f"{len(rows_planned)} rows on {ctx.device}; limits {budget}")
    for i, (order, b, spec, target, source, before) in enumerate(rows_planned, 1):
        r = blank_row(b, spec, order)
        r.update(target_ms=target, target_source=source, before_ms=before)
        skip = None
        left = budget.total_s - (time.perf_counter() - t0)
        if left <= 0:
            skip = f"the total budget of {budget.total_s:g} s was spent"
        elif spec.path and not os.path.exists(os.path.join(data, spec.path)):
            skip = f"data file missing: {os.path.join(data, spec.path)}"
        key = (spec.name, spec.role)
        if skip is None and key not in loaded and key not in graph_errors:
            try:
                with time_limit(max(budget.row_timeout_s, 10.0), "the row limit"):
                    loaded[key] = Loaded(spec, data, ctx.device)
                info.append(loaded[key].describe())
                ctx.progress.log(f"loaded {spec.name} ({spec.role}): n {loaded[key].n:,}, {loaded[key].nvals:,} "
                                 f"entries, {loaded[key].load_s:.1f} s")
            except (Exception, OverBudget) as exc:
                graph_errors[key] = _error(exc)
                notes.append(f"graph {spec.name} ({spec.role}) could not be loaded: {graph_errors[key]}")
        if skip is None and key in graph_errors:
            skip = f"graph not loaded: {graph_errors[key]}"
        if skip is not None:
            r.update(status="skipped", error=skip)
        else:
            limit = min(budget.row_timeout_s, max(left, 10.0))
            r = run_row(b, loaded[key], timer, budget, limit, data, r)
            if ctx.cp is not None:
                ctx.cp.get_default_memory_pool().free_all_blocks()
            left = budget.total_s - (time.perf_counter() - t0)
            add_peer(r, b, loaded[key], min(budget.peer_s, max(left, 5.0)), max(budget.row_timeout_s, 10.0))
            judge(r)
        rows.append(r)
        ctx.progress.step(report.line(i, len(rows_planned), r))
        ctx.checkpoint({"graphs": info, "rows": rows, "notes": notes})
    return {"graphs": info, "rows": rows, "notes": notes,
            "meta": {"about": about, "budget": vars(budget), "previous": previous_about}}


def check(args, error):
    known = {b.algorithm for b in benches("full")}
    if args.algorithms and set(args.algorithms.split(",")) - known:
        error(f"--algorithms: unknown {sorted(set(args.algorithms.split(',')) - known)}; known: {sorted(known)}")
    if args.runs is not None and args.runs < 1:
        error("--runs must be >= 1")
    if args.previous not in (None, "none") and not os.path.exists(args.previous):
        error(f"--previous: no such file: {args.previous}")


SUITE = Suite(
    "algorithms", "every graph algorithm beside its CPU peer (SciPy, networkx, METIS) and, on the GPU, its target",
    run, tables=report.tables, targets=lambda doc: targets.targets(doc["rows"]), method=report.method,
    limits={"full": Limits(1, 1, None, None), "tiny": Limits(1, 1, None, None)}, device="cpu",
    device_option=("cpu", "gpu"), timer="wall", summary=report.summary, check=check, packages=("pymetis",),
    options=(option("--row-timeout-s", type=float, default=None,
                    help="a row (warm-up, runs, check) is stopped after this; default cpu 150, gpu 45, tiny 30"),
             option("--peer-timeout-s", type=float, default=None,
                    help="a CPU peer slower than this is reported as '> this'; default cpu 60, gpu 20, tiny 10"),
             option("--runs", type=int, default=None, help="most timed runs per row (default 5, tiny 2)"),
             option("--algorithms", default=None, help="comma-separated algorithm names to run (default all)"),
             option("--graph-source", default=None, choices=("shared", "generated"), help="only these graphs"),
             option("--targets-only", action="store_true",
                    help="only the rows with a target on the GPU (on the CPU: the same rows, without targets)"),
             option("--previous", default=None,
                    help="an earlier result JSON whose medians are shown beside the rows (and are PageRank's and "
                         "triangle counting's targets), or 'none'; default the committed run of the device")))
