"""The partition-gpu suite: partitioning on the GPU against its peers, on USA-road-t.NY (264,346
vertices; ``--size tiny``: a 40 x 40 grid).

::

    python -m benchmarks run --suite partition-gpu [--device gpu|cpu] [--runs 5] [--quality] [--networkx]
                                                   [--host-loops] [--vcycles N]

Timing (default): ``partition(G, 8)`` and ``kernighan_lin_bisection(G, partition=start)`` (the
random start of the algorithms suite: n // 2 vertices on side 1, seed 0) through the public calls
on one device Graph, run by the harness's timing loop (one warm-up call, then ``--runs`` calls,
each synchronized: the device finishes before the clock stops), every result checked (a
partition of every vertex into the k parts, within 3 percent of balance; a bisection of equal
halves) with its cut; the host reads of one more call (``semiring.host_reads``), and how the
refinement loops ran (device graphs or host loops). Peers in the same run: the CPU path of the
same calls (the same Graph on the host), and with ``--networkx`` networkx's
``kernighan_lin_bisection`` from the same start (minutes on NY). ``--host-loops``: refinement
loops on the host even where CUDA graphs could run them on the device; ``--vcycles N``: N
V-cycles after the multilevel pass of ``partition`` instead of
``semiring.backends.gpu.partition.VCYCLES`` (both for comparison).

Quality (``--quality``): the cut of ``partition`` for k = 2, 8, 64 at imbalance 0.03 against
METIS (``pymetis.part_graph`` with ufactor 30, the same 3 percent; pymetis is a benchmark extra,
never a dependency of the library) and against the CPU path; the targets say whether the
device's cut is at most METIS's for each k.
"""

from __future__ import annotations

import os
import time

import numpy as np

import semiring as sr
from semiring._bench.measure import System, run_system
from semiring._bench.report import cell, ms, table
from semiring._bench.runner import Limits, Suite, option
from semiring.algorithms import Graph

from ..peers import oracles as oracle

#: The balance a partition must keep (the largest part at most (1 + IMBALANCE) n / k).
IMBALANCE = 0.03


def pattern(size, data):
    """The suite's graph as an undirected scipy pattern (both directions of every edge, no
    self-loops) and its description."""
    if size == "tiny":
        S, about = sr.generators.grid(40, 40).to_scipy(), "40 x 40 grid"
    else:
        S, about = sr.io.read(os.path.join(data, "roads/USA-road-t.NY.gr.gz")).to_scipy(), "USA-road-t.NY, pattern"
    S = ((S + S.T) != 0).astype(bool).tocsr()
    S.setdiag(False)
    S.eliminate_zeros()
    S.sort_indices()
    return S, about


def kl_start(n):
    side = np.zeros(n, dtype=np.int64)
    side[np.random.default_rng(0).permutation(n)[: n // 2]] = 1
    return side


def _checker(S, Gh, k, start=None):
    """A check of a result by the oracles' definitions (:mod:`benchmarks.peers.oracles`): a
    partition into ``k`` parts within :data:`IMBALANCE` whose cut ``edge_cut`` (on the host Graph
    ``Gh``) agrees with, or (``start`` given) a bisection with the start's side sizes and no larger
    cut. Its facts: the cut and the balance."""
    def check(_, out):
        v = (sr.Vector.from_dense(out) if isinstance(out, np.ndarray) else out).to("cpu")
        verdict = (oracle.check_bisection(S, v, start) if start is not None
                   else oracle.check_partition(S, v, k, IMBALANCE, sr.algorithms.edge_cut(Gh, v)))
        if not verdict.ok:
            raise AssertionError(verdict.detail)
        p = oracle.host_vector(v, -1).astype(np.int64)
        return {"cut": oracle.cut_of(S, p), "balance": float(np.bincount(p, minlength=k).max() * k / p.size)}
    return check


def _time(ctx, S, Gh, name, system, device, call, k, runs, start=None):
    """One row: ``call`` timed ``runs`` times on ``device`` by the harness's loop, each result checked."""
    s = System("partition", system, device, call, _checker(S, Gh, k, start), roots=runs, budget_s=float("inf"))
    row = run_system(s, name, list(range(runs)), ctx.timers[device])
    first = row["runs"][0] if row["runs"] else {}
    row.update(cut=first.get("cut"), balance=first.get("balance"))
    return row


def timing(ctx, S, G, Gc):
    o, n = ctx.options, S.shape[0]
    start = kl_start(n)
    rows = []
    for name, k, call in (("partition k=8", 8, lambda g: sr.algorithms.partition(g, 8)),
                          ("kernighan_lin_bisection", 2,
                           lambda g: sr.algorithms.kernighan_lin_bisection(g, partition=start))):
        kl = start if k == 2 else None
        row = _time(ctx, S, Gc, name, f"semiring {ctx.device}", ctx.device, lambda _, c=call: c(G), k, o.runs, kl)
        if row["status"] == "ok":
            with sr.host_reads() as hr:
                call(G)
            row["host_reads"] = hr.count
        rows.append(row)
        cpu_runs = 1 if name.startswith("kernighan") else o.runs
        rows.append(_time(ctx, S, Gc, name, "semiring cpu path", "cpu", lambda _, c=call: c(Gc), k, cpu_runs, kl))
        ctx.progress.step(f"{name}: {row['status']}")
    if o.networkx:
        import networkx as nx

        NX = nx.from_scipy_sparse_array(S)
        halves = (set(np.flatnonzero(start == 1).tolist()), set(np.flatnonzero(start == 0).tolist()))

        def nx_kl(_):
            side1, _side0 = nx.community.kernighan_lin_bisection(NX, partition=halves)
            p = np.zeros(n, dtype=np.int64)
            p[list(side1)] = 1
            return p

        rows.append(_time(ctx, S, Gc, "kernighan_lin_bisection", "networkx", "cpu", nx_kl, 2, 1, start))
    return rows


def quality(ctx, S, G, Gc):
    n = S.shape[0]
    try:
        import pymetis
    except ImportError:
        pymetis = None
    rows = []
    for k in (2, 8, 64):
        row = _time(ctx, S, Gc, f"partition k={k}", f"semiring {ctx.device}", ctx.device,
                    lambda _, k=k: sr.algorithms.partition(G, k), k, 1)
        row["cpu_path_cut"] = oracle.cut_of(S, oracle.host_vector(sr.algorithms.partition(Gc, k), -1))
        if pymetis is not None:
            _, mp = pymetis.part_graph(k, adjacency=pymetis.CSRAdjacency(S.indptr, S.indices),
                                       options=pymetis.Options(ufactor=30))
            mp = np.asarray(mp)
            row.update(metis_cut=oracle.cut_of(S, mp), metis_balance=float(np.bincount(mp, minlength=k).max() * k / n))
        rows.append(row)
        ctx.progress.step(f"partition k={k}: {row['status']}")
    return rows


def _loops():
    from semiring.backends.gpu import partition as gp
    from semiring.backends.gpu import recording

    if not gp.DEVICE_LOOPS:
        return "host loops (--host-loops)"
    if recording.available() and gp.graph_failure is None:
        return "one CUDA graph per level (conditional WHILE node)"
    return f"host loops (CUDA graphs: {gp.graph_failure or 'conditional nodes not available'})"


def run(ctx):
    o = ctx.options
    if ctx.device == "gpu" and (o.host_loops or o.vcycles is not None):
        from semiring.backends.gpu import partition as gp

        gp.DEVICE_LOOPS = not o.host_loops
        if o.vcycles is not None:
            gp.VCYCLES = o.vcycles
    t = time.perf_counter()
    S, about = pattern(ctx.size, ctx.data_dir)
    M = sr.Matrix.from_scipy(S)
    G, Gc = Graph(M.to(ctx.device) if ctx.device == "gpu" else M), Graph(M)
    info = [{"name": about.split(",")[0], "about": about, "n": S.shape[0], "nvals": int(S.nnz), "kind": "undirected",
             "load_s": time.perf_counter() - t}]
    rows = quality(ctx, S, G, Gc) if o.quality else timing(ctx, S, G, Gc)
    notes = [f"start cut of the Kernighan-Lin bisection: {oracle.cut_of(S, kl_start(S.shape[0])):,}"]
    if ctx.device == "gpu":
        notes.append(f"refinement loops: {_loops()}")
    if o.quality and not any("metis_cut" in r for r in rows):
        notes.append("pymetis is not installed (pip install pymetis): no METIS column")
    return {"graphs": info, "rows": rows, "notes": notes}


def tables(doc):
    rows = doc["rows"]
    if doc["meta"]["settings"].get("quality"):
        return ["", "## Cut quality, imbalance 0.03", ""] + table(
            ["k", "system", "cut", "balance", "METIS cut", "METIS balance", "CPU path cut", "valid", "note"],
            [[r["graph"].split("=")[1], r["system"], r.get("cut", "—"), f"{r['balance']:.4f}" if r.get("balance")
              else "—", r.get("metis_cut", "—"), f"{r['metis_balance']:.4f}" if r.get("metis_balance") else "—",
              r.get("cpu_path_cut", "—"), "yes" if r.get("validated") else "**NO**", cell(r.get("note") or "")]
             for r in rows])
    return ["", "## Timings", ""] + table(
        ["call", "system", "median ms", "runs", "host reads", "cut", "valid", "note"],
        [[r["graph"], r["system"], ms(r.get("ms_median")), r["roots"], r.get("host_reads", "—"), r.get("cut", "—"),
          "yes" if r.get("validated") else "**NO**", cell(r.get("note") or "")] for r in rows])


def targets(doc):
    """With ``--quality``: the device's cut at most METIS's for each k."""
    return [{"target": f"{r['graph']}: cut at most METIS's", "measured": f"{r.get('cut')} vs {r['metis_cut']}",
             "system": r["system"], "status": "met" if r.get("cut") is not None and r["cut"] <= r["metis_cut"]
             else "not met"} for r in doc["rows"] if "metis_cut" in r]


SUITE = Suite("partition-gpu", "partition and Kernighan-Lin on the GPU against the CPU path, networkx and METIS", run,
              tables=tables, targets=targets, limits={"full": Limits(1, 1, float("inf"), None)}, device="gpu",
              device_option=("gpu", "cpu"), timer="wall", packages=("pymetis",),
              check=lambda args, error: args.runs >= 1 or error("--runs must be >= 1"),
              method=("Method: the harness's timing loop, the user's wall clock around each public call (the device "
                      "synchronized before the start and the stop), one warm-up call, the median of --runs calls; "
                      "every partition checked (every vertex in one of the k parts, the balance) and its cut counted "
                      "on the host."),
              options=(option("--runs", type=int, default=5, help="timed calls per system (default 5)"),
                       option("--quality", action="store_true", help="cuts for k = 2, 8, 64 against METIS"),
                       option("--networkx", action="store_true", help="networkx's Kernighan-Lin too (minutes)"),
                       option("--host-loops", action="store_true", help="refinement loops on the host"),
                       option("--vcycles", type=int, default=None, help="V-cycles after the multilevel pass")))
