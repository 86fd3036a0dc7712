"""The timing loop: one system on one graph over a list of roots (warm-up, timed runs,
validation, one result row).

A system is a timed call ``root -> result``, a check ``(root, result) -> dict`` that raises
(ValidationError or AssertionError) when the result is wrong and otherwise returns per-run
facts that need the reference (e.g. the number of colors), and a ``metrics(result) -> dict``
of facts read off the result outside the timed region (edges inspected, levels, launches,
host syncs, bytes moved). Timing excludes validation.
"""

from __future__ import annotations

import inspect
import time
import traceback
from dataclasses import dataclass, field
from typing import Any, Callable

from .timing import harmonic_mean, median


@dataclass
class System:
    """One implementation to time.

    Attributes
    ----------
    kernel : {"bfs", "sssp", "coloring"}
    name : str
        Row label, e.g. ``"semiring gpu fused"``.
    device : {"cpu", "gpu"}
    call : callable ``root -> result``
    check : callable ``(root, result) -> dict``
    metrics : callable ``result -> dict`` or None
    roots : int
        Roots to run (the first ones of the graph's root list).
    engine, direction : str or None
        Recorded in the row.
    optional : bool
        A TypeError or an InvalidValue naming the engine on the first call means "not
        available" (a keyword the engine does not accept yet, or cannot use here), not an error.
    budget_s : float
        Stop adding roots after this much wall time (at least one root runs).
    note : str
    prepare : callable ``root -> tuple`` or None
        Builds the arguments of one timed call outside the timed region (fresh state for a
        call that changes its inputs); None calls ``call(root)``.
    """

    kernel: str
    name: str
    device: str
    call: Callable[[int], Any]
    check: Callable[[int, Any], dict]
    metrics: Callable[[Any], dict] | None = None
    roots: int = 8
    engine: str | None = None
    direction: str | None = None
    optional: bool = False
    budget_s: float = 60.0
    note: str = ""
    extra: dict = field(default_factory=dict)
    prepare: Callable[[int], tuple] | None = None


def not_available(exc):
    """Whether ``exc`` says an optional engine does not exist or cannot run here: a TypeError
    (the ``engine`` keyword is not accepted) or an InvalidValue that names the engine."""
    return isinstance(exc, TypeError) or (type(exc).__name__ == "InvalidValue" and "engine" in str(exc))


def engine_kw(fn, engine):
    """``{"engine": engine}`` if ``fn`` takes an ``engine`` keyword, else ``{}`` (older builds run
    the algebra engine without it)."""
    return {"engine": engine} if "engine" in inspect.signature(fn).parameters else {}


def label(system):
    """``"name engine direction"`` without empty parts."""
    return " ".join(x for x in (system.name, system.engine, system.direction) if x)


def _row(system, graph):
    return {"kernel": system.kernel, "graph": graph, "system": system.name, "device": system.device,
            "engine": system.engine, "direction": system.direction, "roots_requested": system.roots,
            "roots": 0, "status": "ok", "validated": False, "note": system.note, "runs": [], **system.extra}


def skipped(system, graph, reason):
    """A row for a system that was not run, with the reason."""
    row = _row(system, graph)
    row.update(status="skipped", note="; ".join(x for x in (system.note, reason) if x), validated=None)
    return row


def _summarize(row, edges_of):
    runs = row["runs"]
    row["roots"] = len(runs)
    if not runs:
        return row
    ms = [r["ms"] for r in runs]
    row.update(ms_median=median(ms), ms_min=min(ms), ms_max=max(ms))
    if edges_of is not None:
        row["teps_hmean"] = harmonic_mean([r.get("teps") for r in runs])
    for key in ("edges_inspected", "levels", "launches", "host_syncs", "rounds", "colors", "bytes_per_s"):
        vals = [r.get(key) for r in runs]
        if any(v is not None for v in vals):
            row[key] = median(vals)
        elif any(key in r for r in runs):
            row[key] = "n/a"  # the result object does not report it
    return row


def _args(system, root):
    return (root,) if system.prepare is None else tuple(system.prepare(root))


def run_system(system, graph, roots, timer, *, edges_of=None, budget_s=None, warmup=True, same_roots=None):
    """Time ``system`` on ``roots[:system.roots]``; return its result row (a dict).

    Parameters
    ----------
    system : System
    graph : str
        Graph name for the row.
    roots : list of int
    timer : CpuTimer or GpuTimer
    edges_of : callable ``root -> float``, optional
        Traversed input edges of a search from ``root`` (gives TEPS).
    budget_s : float, optional
        Overrides ``system.budget_s`` when smaller (the suite's remaining time).
    warmup : bool
        Warm up CPU systems too (GPU systems always are).
    same_roots : int, optional
        The other systems' root count: a row with more runs also gets ``ms_median_same_roots``,
        the median over its first ``same_roots`` runs (the roots the others ran).

    Returns
    -------
    dict
        ``status`` is "ok", "not available", "validation failed", "error" or "skipped".
    """
    row = _row(system, graph)
    todo = list(roots[:system.roots])
    budget = system.budget_s if budget_s is None else min(system.budget_s, budget_s)
    if not todo:
        return skipped(system, graph, "no roots")
    try:
        if warmup or system.device == "gpu":
            system.call(*_args(system, todo[0]))  # warm-up: kernel compilation, cached transposes and degrees
    except Exception as exc:  # noqa: BLE001 - any engine failure is reported, not raised
        if system.optional and not_available(exc):
            row.update(status="not available", validated=None, note=f"{type(exc).__name__}: {exc}")
        else:
            row.update(status="error", note=f"{type(exc).__name__}: {exc}", traceback=traceback.format_exc())
        return row
    t0 = time.perf_counter()
    for root in todo:
        try:
            secs, out = timer.time(system.call, *_args(system, root))
        except Exception as exc:  # noqa: BLE001
            row.update(status="error", note=f"root {root}: {type(exc).__name__}: {exc}",
                       traceback=traceback.format_exc())
            break
        run = {"root": root, "ms": secs * 1e3}
        if system.metrics is not None:
            run.update(system.metrics(out))
        if "bytes" in run:
            run["bytes_per_s"] = run.pop("bytes") / secs if secs > 0 else None
        try:
            run.update(system.check(root, out) or {})
        except AssertionError as exc:  # ValidationError is an AssertionError
            row.update(status="validation failed", note=f"root {root}: {exc}")
            row["runs"].append(run)
            break
        if run.get("note") and run["note"] not in row["note"]:
            row["note"] = "; ".join(x for x in (row["note"], run["note"]) if x)
        if edges_of is not None:
            run["edges"] = edges_of(root)
            run["teps"] = run["edges"] / secs if secs > 0 else None
        row["runs"].append(run)
        if time.perf_counter() - t0 > budget and len(row["runs"]) < len(todo):
            row["note"] = "; ".join(x for x in (row["note"], f"stopped after {len(row['runs'])} of {len(todo)} "
                                                f"roots (time budget {budget:.0f} s)") if x)
            break
    used = {r.get("engine_used") for r in row["runs"]} - {None}
    if used and used != {system.engine}:
        row["note"] = "; ".join(x for x in (row["note"], f"result.engine = {', '.join(sorted(used))}") if x)
    row["validated"] = row["status"] == "ok" and bool(row["runs"])
    _summarize(row, edges_of)
    if same_roots and len(row["runs"]) > same_roots:
        row["ms_median_same_roots"] = median([r["ms"] for r in row["runs"][:same_roots]])
        row["note"] = "; ".join(x for x in (row["note"], f"median over the first {same_roots} roots (those of "
                                            f"the other rows): {row['ms_median_same_roots']:.3f} ms") if x)
    return row
