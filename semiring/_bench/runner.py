"""The runner: one suite, from its declaration to the saved report and the exit status.

A suite is data (:class:`Suite`): its name, the device it needs, its default limits, its own
command-line options, ``run(ctx)`` (which builds its graphs and systems and times them, most
through :func:`semiring._bench.measure.run_system`), how its rows become Markdown tables, its
targets and its method paragraph. The runner picks the device and the timers, builds the
:class:`Ctx` (roots, time budgets, the suite's deadline, progress output, a checkpoint that
saves what has been measured so far), runs the suite, collects the failures and the summary
into the one results format (:mod:`semiring._bench.results`), writes it
(:mod:`semiring._bench.report`), prints it, and returns the exit status: 0 when every result
validated (and when a suite that needs a GPU finds none: it says why and runs nothing), 1 when
a result failed validation or a system raised.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from typing import Any, Callable

from . import env, report, results
from .timing import CpuTimer, Deadline, GpuTimer, Progress, WallTimer


@dataclass(frozen=True)
class Limits:
    """A suite's defaults at one size: roots of the main system and of the others, seconds per
    system and graph, seconds for the whole suite (a soft deadline)."""

    roots: int = 8
    roots_peers: int = 4
    system_budget_s: float = 5.0
    budget_s: float = 50.0


#: The limits of a size a suite does not name.
DEFAULT_LIMITS = Limits()


@dataclass(frozen=True)
class Option:
    """One command-line option of a suite: ``argparse`` flags and keywords."""

    flags: tuple
    kwargs: dict


def option(*flags, **kwargs):
    """An :class:`Option` (``option("--runs", type=int, default=5, help=...)``)."""
    return Option(flags, kwargs)


def _nothing(doc):
    return []


@dataclass
class Suite:
    """A suite's declaration.

    Attributes
    ----------
    name, about : str
        The ``--suite`` name and one line for the help.
    run : callable ``Ctx -> dict``
        Builds the graphs and systems and times them; returns ``graphs``, ``rows``, ``notes``,
        optionally ``meta`` (merged into the result's meta: ``about`` lines for the report's
        header) and sections of its own.
    tables : callable ``doc -> list of str``
        The suite's Markdown tables.
    targets : callable ``doc -> list of dict``
    method : str or callable ``meta -> str``
        The report's method paragraph.
    limits : dict
        ``{"full": Limits, "tiny": Limits}``.
    device : {"cpu", "gpu", "auto"}
        What the suite runs on: the CPU only, a GPU (without one it runs nothing), or a GPU where
        there is one.
    device_option : tuple of str
        The choices of ``--device`` for this suite (empty: no ``--device``).
    timer : {"device", "wall"}
        CUDA events on the GPU and ``perf_counter`` on the CPU, or the user's wall clock around
        the call (the device synchronized before the start and the stop).
    cpu_warmup : bool
        Warm up CPU systems too (GPU systems always are).
    options : tuple of Option
        The suite's own command-line options (``ctx.options`` holds their values).
    check : callable ``(args, error)`` or None
        Checks the suite's options; ``error(message)`` exits with status 2.
    graph_names : callable ``size -> list of str`` or None
        The names ``--graphs`` may pick from (None: the suite has no ``--graphs``).
    summary : callable ``doc -> str`` or None
        The suite's part of the summary line.
    failures : callable ``doc -> list of str`` or None
        Failure lines beyond the failed rows' (a section of the suite's own).
    epilogue : callable ``doc -> list of str`` or None
        Lines printed after the report.
    packages : tuple of str
        More distributions whose versions the report gives.
    """

    name: str
    about: str
    run: Callable[[Any], dict]
    tables: Callable[[dict], list] = _nothing
    targets: Callable[[dict], list] = _nothing
    method: Any = None
    limits: dict = field(default_factory=dict)
    device: str = "cpu"
    device_option: tuple = ()
    timer: str = "device"
    cpu_warmup: bool = True
    options: tuple = ()
    check: Callable | None = None
    graph_names: Callable | None = None
    summary: Callable | None = None
    failures: Callable | None = None
    epilogue: Callable | None = None
    packages: tuple = ()


@dataclass
class Ctx:
    """What a suite's ``run`` gets.

    Attributes
    ----------
    cp : module or None
        CuPy when the suite runs on a GPU.
    timers : dict
        ``{"cpu": timer, "gpu": timer}`` (no "gpu" without a GPU).
    roots_main, roots_peers : int
        Roots of the main system (semiring's fastest engine) and of every other system.
    budget_s : float
        Wall-time budget of one system on one graph.
    data_dir : str
        The real-graph folder.
    cpu_warmup : bool
        Warm up the CPU systems.
    size : {"tiny", "full"}
    options : argparse.Namespace
        The suite's own options, and ``graphs`` (the names ``--graphs`` picked, or None).
    progress : Progress
    deadline : Deadline
        The suite's soft deadline: past it only the main systems run.
    checkpoint : callable ``dict -> None``
        Saves what the suite has measured so far (``graphs``, ``rows``, ``notes``), so that an
        interrupted run leaves it; a no-op where nothing is saved.
    """

    cp: Any
    timers: dict
    roots_main: int
    roots_peers: int
    budget_s: float
    data_dir: str
    cpu_warmup: bool = True
    size: str = "full"
    options: Any = field(default_factory=argparse.Namespace)
    progress: Any = field(default_factory=lambda: Progress(None, "", quiet=True))
    deadline: Any = field(default_factory=lambda: Deadline(None))
    checkpoint: Callable = lambda result: None

    @property
    def device(self):
        """"gpu" when the suite runs on a GPU, else "cpu"."""
        return "cpu" if self.cp is None else "gpu"


def timers(kind, cp):
    """The timers of a run: ``{"cpu": ..., "gpu": ...}`` ("gpu" only with ``cp``)."""
    if kind == "wall":
        return {"cpu": WallTimer(None)} | ({"gpu": WallTimer(cp)} if cp is not None else {})
    return {"cpu": CpuTimer()} | ({"gpu": GpuTimer(cp)} if cp is not None else {})


def gpu_for(device, asked):
    """``(cupy or None, why no GPU)`` for a suite that runs on ``device`` ("cpu", "gpu", "auto");
    ``asked``: whether ``--device`` chose it."""
    if device == "cpu":
        return None, "--device cpu" if asked else "not used by this suite"
    return env.gpu_status()


def settings(ctx, deadline_s, options):
    """The ``settings`` of the meta: the run's limits and the suite's own options."""
    return {"roots_main": ctx.roots_main, "roots_peers": ctx.roots_peers, "system_budget_s": ctx.budget_s,
            "suite_budget_s": deadline_s, "cpu_warmup": ctx.cpu_warmup} | vars(options)


def execute(suite, ctx, meta):
    """Run ``suite`` and return its result dict (:mod:`semiring._bench.results`): the suite's
    graphs, rows, notes and sections, its targets, the failure lines and the summary."""
    out = suite.run(ctx)
    meta.update(out.pop("meta", {}))
    if suite.method is not None:
        meta["method"] = suite.method(meta) if callable(suite.method) else suite.method
    doc = results.document(meta, out, [], "", [])
    doc["targets"] = suite.targets(doc)
    doc["failed"] = [results.failure_line(r) for r in results.failed(doc["rows"])]
    doc["failed"] += suite.failures(doc) if suite.failures else []
    own = suite.summary(doc) if suite.summary else ""
    doc["summary"] = "; ".join(x for x in (results.counts(doc["rows"]), own, f"{ctx.deadline.elapsed():.0f} s") if x)
    return doc


def _given(value, default):
    return default if value is None else value


def run(suite, args, command):
    """The whole run of ``suite`` for a command line: ``args`` has ``size``, ``roots``,
    ``roots_peers``, ``system_budget_s``, ``budget_s``, ``data``, ``out``, ``device``,
    ``graphs`` and the suite's options; ``command`` is the command line as typed. Returns the
    exit status."""
    device = args.device or suite.device
    cp, reason = gpu_for(device, args.device is not None)
    if device == "gpu" and cp is None:
        print(f"benchmarks: --suite {suite.name} {'--device gpu ' if args.device else ''}needs a GPU, and there is "
              f"none here: {reason}. Nothing was run.")
        return 0
    limits = suite.limits.get(args.size, DEFAULT_LIMITS)
    own = argparse.Namespace(**{k: v for k, v in vars(args).items() if k in suite_dests(suite) or k == "graphs"})
    deadline_s = _given(args.budget_s, limits.budget_s)
    progress = Progress(None, f"{suite.name} ({args.size})")
    ctx = Ctx(cp, timers(suite.timer, cp), _given(args.roots, limits.roots),
              _given(args.roots_peers, limits.roots_peers),
              _given(args.system_budget_s, limits.system_budget_s), args.data, suite.cpu_warmup, args.size, own,
              progress, Deadline(deadline_s))
    described = env.describe(cp, suite.packages)
    meta = {"suite": suite.name, "size": args.size, "device": ctx.device, "command": command,
            "settings": settings(ctx, deadline_s, own), "gpu_reason": reason, "env": described}
    if cp is not None:
        meta["copy_bandwidth"] = env.copy_bandwidth(cp)
    stem = results.stem(suite.name, args.size, described)

    def checkpoint(partial):
        doc = results.document(dict(meta), partial, [], f"partial: {results.counts(partial.get('rows', []))}", [])
        report.save(args.out, stem, doc, suite.tables(doc))

    ctx.checkpoint = checkpoint
    doc = execute(suite, ctx, meta)
    progress.close()
    pj, pm = report.save(args.out, stem, doc, suite.tables(doc))
    with open(pm) as f:
        print(f.read())
    print(f"wrote {pj} and {pm}")
    for line in suite.epilogue(doc) if suite.epilogue else []:
        print(line)
    for line in doc["failed"]:
        print(f"FAILED: {line}", file=sys.stderr)
    return 1 if doc["failed"] else 0


def suite_dests(suite):
    """The attribute names of the suite's own options (``--row-timeout-s`` -> ``row_timeout_s``)."""
    out = []
    for o in suite.options:
        dest = o.kwargs.get("dest") or next((f for f in o.flags if f.startswith("--")), o.flags[0])
        out.append(dest.lstrip("-").replace("-", "_"))
    return out
