"""Timings of the graph algorithms, one row per (algorithm, graph), on the CPU or the GPU.

::

    python -m benchmarks.algorithms --device cpu|gpu [--quick] [--out DIR] [--budget-s S]
                                    [--total-budget-s T] [--row-timeout-s R] [--runs K]
                                    [--only NAME,...] [--graphs shared|generated]

Every algorithm runs on one shared graph (``../shared/data``) and one generated graph
(``semiring.generators``) of the kind it needs:

- undirected: USA-road-t.NY (DIMACS, 264,346 vertices) and Graph500 Kronecker scale 14 for
  components, triangles, the spanning forest (Borůvka), betweenness, Louvain, partitioning and
  coloring (their pattern; the spanning forest uses the weights: travel times, 1..255);
- directed: cnr-2000 (LAW web crawl, 325,557 vertices, with published strong components) and
  the Kronecker scale-14 graph with a quarter of its arcs dropped (by a hash of (i, j)) for
  strong components and PageRank;
- small: the first 300 vertices of LAGraph's ``test_FW_2003`` and a weighted Kronecker scale-8
  graph for Floyd-Warshall, all-pairs shortest paths and Prim (their work grows as n**3, or n
  steps).

``--quick`` swaps in tiny graphs (karate, west0067, Kronecker scales 8 and 6) to check the code
path in seconds. Each row: a fresh :class:`semiring.algorithms.Graph` (so matrices the algorithm
caches on it, such as transposes, patterns and degree orders, are built by the warm-up run and
reused by the timed runs, as an application that keeps its Graph would), one warm-up run, then
timed runs until ``--runs`` runs or ``--budget-s`` seconds (none when the warm-up alone took
more than half the budget: the row then reports the warm-up time); GPU runs are timed with CUDA
events (:class:`benchmarks.timing.GpuTimer`). The warm-up's result is checked against an oracle
(:mod:`benchmarks.algorithm_oracles`: SciPy, NumPy, networkx, published answers), whose own time
is reported. A row that raises, fails its check or runs past ``--row-timeout-s`` is reported as
such and the others still run; past ``--total-budget-s`` the remaining rows are skipped. The
Markdown and JSON results are rewritten after every row, so an interrupted run leaves what it
measured.

Writes ``<out>/algorithms[-quick]-<device-slug>-<YYYYMMDD>.{md,json}``. Exit status: 0 when every
row that ran was validated (or had no oracle), 1 otherwise, 2 for bad arguments.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shlex
import signal
import sys
import threading
import time
import traceback
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

import semiring as sr
from semiring.algorithms import Graph

from . import algorithm_oracles as oracle
from . import env, report
from .graphs import DATA_DIR
from .timing import CpuTimer, GpuTimer


@dataclass(frozen=True)
class Budget:
    """Time limits of a run (seconds) and the most timed runs per row."""

    budget_s: float
    total_s: float
    row_timeout_s: float
    runs: int


#: Defaults per device (and for --quick). The GPU run must fit in about 4 minutes.
DEFAULTS = {"cpu": Budget(20.0, 570.0, 150.0, 5), "gpu": Budget(5.0, 215.0, 60.0, 5)}
QUICK = Budget(1.0, 120.0, 30.0, 2)


# --------------------------------------------------------------------------------------------
# graphs
# --------------------------------------------------------------------------------------------

@dataclass
class Spec:
    """A graph of the run.

    Attributes
    ----------
    name, about : str
    source : {"shared", "generated"}
    role : {"undirected", "directed", "small"}
        "undirected" and "small" graphs are symmetric and weighted; "directed" ones are patterns.
    build : callable ``data_dir -> Matrix`` (on the CPU)
    path : str or None
        Data file relative to the data folder (a missing file skips the graph's rows).
    scc : str or None
        Published strong-component labels, relative to the data folder.
    """

    name: str
    source: str
    role: str
    about: str
    build: Callable
    path: str | None = None
    scc: str | None = None


def _read(path, first=None):
    def build(data):
        A = sr.io.read(os.path.join(data, path))
        if first is not None:
            idx = np.arange(first, dtype=np.int64)
            A = sr.extract(A, idx, idx)
        return A
    return build


def _kron(scale, weighted=True):
    def build(data):
        return sr.generators.kronecker(scale, weights=(1, 255) if weighted else None)
    return build


def _kron_directed(scale):
    """The Kronecker graph's arcs without those whose hash of (i, j) is 0 mod 4: a directed
    graph whose undirected edges keep both, one or (rarely) neither of their arcs."""
    def build(data):
        K = sr.generators.kronecker(scale)
        r, c, _ = K.to_coo()
        h = (r.astype(np.uint64) * np.uint64(0x9E3779B1) + c.astype(np.uint64) * np.uint64(0x85EBCA77)) >> np.uint64(7)
        keep = h % np.uint64(4) != 0
        return sr.Matrix.from_coo(r[keep], c[keep], None, nrows=K.nrows, ncols=K.ncols, dtype="bool")
    return build


def specs(quick):
    """The six graphs: {(source, role): Spec}."""
    if quick:
        return {
            ("shared", "undirected"): Spec("karate", "shared", "undirected", "Zachary karate club (LAGraph)",
                                           _read("small/lagraph/karate.mtx"), "small/lagraph/karate.mtx"),
            ("generated", "undirected"): Spec("kron8", "generated", "undirected",
                                              "Graph500 Kronecker scale 8, weights 1..255", _kron(8)),
            ("shared", "directed"): Spec("west0067", "shared", "directed", "west0067 (LAGraph), pattern",
                                         _read("small/lagraph/west0067.mtx"), "small/lagraph/west0067.mtx"),
            ("generated", "directed"): Spec("kron8-directed", "generated", "directed",
                                            "Kronecker scale 8 arcs, those with hash(i, j) = 0 mod 4 dropped",
                                            _kron_directed(8)),
            ("shared", "small"): Spec("karate", "shared", "small", "Zachary karate club (LAGraph), unit weights",
                                      _read("small/lagraph/karate.mtx"), "small/lagraph/karate.mtx"),
            ("generated", "small"): Spec("kron6", "generated", "small", "Graph500 Kronecker scale 6, weights 1..255",
                                         _kron(6)),
        }
    return {
        ("shared", "undirected"): Spec("USA-road-t.NY", "shared", "undirected",
                                       "DIMACS New York roads, travel times (parallel arcs: minimum)",
                                       _read("roads/USA-road-t.NY.gr.gz"), "roads/USA-road-t.NY.gr.gz"),
        ("generated", "undirected"): Spec("kron14", "generated", "undirected",
                                          "Graph500 Kronecker scale 14, edge factor 16, seed 0, weights 1..255",
                                          _kron(14)),
        ("shared", "directed"): Spec("cnr-2000", "shared", "directed", "LAW cnr-2000 web crawl, pattern",
                                     _read("web/cnr-2000.mtx.gz"), "web/cnr-2000.mtx.gz", scc="web/cnr-2000.scc.txt.gz"),
        ("generated", "directed"): Spec("kron14-directed", "generated", "directed",
                                        "Kronecker scale 14 arcs, those with hash(i, j) = 0 mod 4 dropped",
                                        _kron_directed(14)),
        ("shared", "small"): Spec("FW_2003[:300]", "shared", "small",
                                  "LAGraph test_FW_2003 (bcsstk13 pattern), vertices 0..299",
                                  _read("small/lagraph/test_FW_2003.mtx", 300), "small/lagraph/test_FW_2003.mtx"),
        ("generated", "small"): Spec("kron8", "generated", "small", "Graph500 Kronecker scale 8, weights 1..255",
                                     _kron(8)),
    }


class Loaded:
    """A graph on the device with its host copies (scipy) for the oracles.

    Attributes
    ----------
    W, P : Matrix on the device: the weights (directed graphs: the pattern) and the bool pattern
    S, Ws : scipy CSR on the host: the pattern and the float64 weights
    kind : "undirected" or "directed"
    cache : dict  oracle answers and inputs shared by the graph's rows
    """

    def __init__(self, spec, data, device):
        t = time.perf_counter()
        H = spec.build(data)
        P = H if H.dtype == np.bool_ else sr.apply(H, sr.unary.one).dup("bool")
        self.kind = "directed" if spec.role == "directed" else "undirected"
        if self.kind == "undirected" and not Graph(H).is_symmetric():
            raise sr.InvalidValue(f"{spec.name}: expected a symmetric matrix for the {spec.role} graphs")
        self.spec, self.n, self.nvals = spec, H.nrows, H.nvals
        self.S = P.to_scipy().tocsr()
        self.Ws = (H.dup("float64") if H.dtype != np.float64 else H).to_scipy().tocsr()
        H = P if spec.role == "directed" else H
        self.W = H.to(device) if device != "cpu" else H
        self.P = P.to(device) if device != "cpu" else P
        self.cache = {}
        self.load_s = time.perf_counter() - t

    def graph(self, weighted):
        """A fresh Graph of the weights or the pattern (nothing cached on it yet)."""
        return Graph(self.W if weighted else self.P, self.kind)

    def describe(self):
        s = self.spec
        return {"name": s.name, "source": s.source, "role": s.role, "about": s.about, "n": int(self.n),
                "nvals": int(self.nvals), "kind": self.kind, "dtype": str(self.W.dtype), "load_s": round(self.load_s, 3)}


# --------------------------------------------------------------------------------------------
# the rows
# --------------------------------------------------------------------------------------------

@dataclass
class Bench:
    """One algorithm call: ``run(G, L)`` is timed, ``check(result, L, data)`` gives a Verdict."""

    algorithm: str
    variant: str
    role: str
    weighted: bool
    run: Callable
    check: Callable
    sources: str | None = field(default=None)


def _spread(L, k):
    """k vertices of degree >= 1, evenly spaced by index (fixed: no random draw)."""
    key = ("spread", k)
    if key not in L.cache:
        cand = np.flatnonzero(np.diff(L.S.indptr))
        k = min(k, cand.size)
        L.cache[key] = np.unique(cand[np.linspace(0, cand.size - 1, k).astype(np.int64)]) if k else cand
    return L.cache[key]


def _kl_start(L):
    """A random bisection (n // 2 vertices on side 1, seed 0), made here so the check knows it."""
    if "kl_start" not in L.cache:
        side = np.zeros(L.n, dtype=np.int64)
        side[np.random.default_rng(0).permutation(L.n)[: L.n // 2]] = 1
        L.cache["kl_start"] = side
    return L.cache["kl_start"]


def _blocks(L):
    return np.arange(L.n, dtype=np.int64) * 16 // max(L.n, 1)


def _louvain_check(res, L, data):
    verdict, q = oracle.check_louvain(L.S, res)
    L.cache["louvain"] = res
    return verdict


def _modularity_run(G, L):
    labels = L.cache.get("louvain")
    if labels is None:
        labels = sr.Vector.from_dense(_blocks(L), device=G.A.device)
    return labels, alg().modularity(G, labels)


def _modularity_check(res, L, data):
    labels, q = res
    v = oracle.check_modularity(L.S, labels, q)
    if "louvain" not in L.cache:
        v.detail += " (of 16 blocks of consecutive vertices: louvain gave no partition)"
    return v


def _partition_check(k):
    def check(res, L, data):
        return oracle.check_partition(L.S, res, k, 0.03, alg().edge_cut(L.graph(False), res))
    return check


def _scc_check(res, L, data):
    pub = os.path.join(data, L.spec.scc) if L.spec.scc else None
    return oracle.check_scc(L.S, res, pub)


def alg():
    return sr.algorithms


def benches(quick):
    """Every row's call and check, in the order they run (both graphs of an algorithm together)."""
    k_bc = 4 if quick else 16
    k_apsp = 8 if quick else 32
    out = [
        Bench("connected_components", "", "undirected", False,
              lambda G, L: alg().connected_components(G), lambda r, L, d: oracle.check_components(L.S, r)),
        Bench("strongly_connected_components", "", "directed", False,
              lambda G, L: alg().strongly_connected_components(G), _scc_check),
        Bench("pagerank", "alpha=0.85, tol=1e-6", "directed", False,
              lambda G, L: alg().pagerank(G), lambda r, L, d: oracle.check_pagerank(L.S, r)),
    ]
    for m in ("sandia", "sandia2", "cohen", "burkhardt"):
        out.append(Bench("triangle_count", f"method={m}", "undirected", False,
                         lambda G, L, m=m: alg().triangle_count(G, method=m),
                         lambda r, L, d: oracle.check_triangles(L.S, r, L.cache)))
    out += [
        Bench("minimum_spanning_forest", "method=boruvka", "undirected", True,
              lambda G, L: alg().minimum_spanning_forest(G, method="boruvka"),
              lambda r, L, d: oracle.check_forest(L.Ws, r)),
        Bench("minimum_spanning_forest", "method=prim", "small", True,
              lambda G, L: alg().minimum_spanning_forest(G, method="prim"),
              lambda r, L, d: oracle.check_forest(L.Ws, r)),
        Bench("floyd_warshall", "", "small", True,
              lambda G, L: alg().floyd_warshall(G), lambda r, L, d: oracle.check_distances(L.Ws, r)),
        Bench("all_pairs_shortest_paths", f"method=repeated, {k_apsp} sources", "small", True,
              lambda G, L: alg().all_pairs_shortest_paths(G, method="repeated", sources=_spread(L, k_apsp)),
              lambda r, L, d: oracle.check_distances(L.Ws, r, sources=_spread(L, k_apsp))),
        Bench("all_pairs_shortest_paths", "method=batched_bfs, all sources", "small", False,
              lambda G, L: alg().all_pairs_shortest_paths(G, method="batched_bfs"),
              lambda r, L, d: oracle.check_distances(L.S, r, unweighted=True)),
        Bench("betweenness_centrality", f"{k_bc} sources", "undirected", False,
              lambda G, L: alg().betweenness_centrality(G, sources=_spread(L, k_bc)),
              lambda r, L, d: oracle.check_betweenness(L.S, _spread(L, k_bc), r, L.kind == "directed")),
        Bench("coloring", "method=gebremedhin_manne", "undirected", False,
              lambda G, L: alg().coloring(G, method="gebremedhin_manne"),
              lambda r, L, d: oracle.check_coloring(L.S, r)[0]),
        Bench("coloring", "method=jones_plassmann", "undirected", False,
              lambda G, L: alg().coloring(G, method="jones_plassmann"),
              lambda r, L, d: oracle.check_coloring(L.S, r)[0]),
    ]
    # the methods whose host steps (Python loops over vertices, by design) dominate come last, so
    # that a run cut short by the total budget loses them first
    for k in (2, 8):
        out.append(Bench("partition", f"k={k}", "undirected", False,
                         lambda G, L, k=k: alg().partition(G, k), _partition_check(k)))
    out += [
        Bench("louvain", "", "undirected", False, lambda G, L: alg().louvain(G), _louvain_check),
        Bench("modularity", "of louvain's partition", "undirected", False, _modularity_run, _modularity_check),
        Bench("kernighan_lin_bisection", "random start (seed 0)", "undirected", False,
              lambda G, L: alg().kernighan_lin_bisection(G, partition=_kl_start(L)),
              lambda r, L, d: oracle.check_bisection(L.S, r, _kl_start(L))),
    ]
    return out


# --------------------------------------------------------------------------------------------
# running a row
# --------------------------------------------------------------------------------------------

class RowTimeout(Exception):
    """A row ran past its time limit."""


@contextlib.contextmanager
def time_limit(seconds):
    """Raise RowTimeout in the main thread after ``seconds`` (SIGALRM; Python code is interrupted
    between bytecodes, a long C call when it returns). No limit off the main thread."""
    usable = seconds is not None and hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if not usable:
        yield
        return

    def expire(signum, frame):
        raise RowTimeout(f"ran past the row limit of {seconds:.0f} s")

    old = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, max(seconds, 0.01))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def _error(exc):
    return f"{type(exc).__name__}: {exc}".replace("\n", " ")[:300]


def run_row(b, L, timer, budget, limit, data):
    """Warm-up, timed runs, oracle check: one result row (never raises, except KeyboardInterrupt)."""
    row = {"algorithm": b.algorithm, "variant": b.variant, "graph": L.spec.name, "source": L.spec.source,
           "n": int(L.n), "nvals": int(L.nvals), "status": "ok", "validated": None, "median_ms": None,
           "warmup_ms": None, "runs": 0, "times_ms": [], "warmup_only": False, "check": "", "oracle": None,
           "oracle_ms": None, "error": None}
    G = L.graph(b.weighted)
    result = None
    try:
        with time_limit(limit):
            warm, result = timer.time(b.run, G, L)
            row["warmup_ms"] = warm * 1e3
            times = []
            if warm <= budget.budget_s / 2:
                while len(times) < budget.runs and sum(times) < budget.budget_s:
                    times.append(timer.time(b.run, G, L)[0])
            row["times_ms"] = [t * 1e3 for t in times]
            row["runs"] = len(times)
            row["warmup_only"] = not times
            row["median_ms"] = float(np.median(row["times_ms"])) if times else row["warmup_ms"]
    except RowTimeout as exc:
        row["status"], row["error"] = "timeout", str(exc)
    except Exception as exc:  # one algorithm's failure is this row's, not the run's
        row["status"], row["error"] = "error", _error(exc)
        row["traceback"] = traceback.format_exc(limit=8)
    if result is None or row["status"] != "ok" and row["warmup_ms"] is None:
        return row
    try:
        with time_limit(limit):
            v = b.check(result, L, data)
        row.update(validated=v.ok, check=v.detail, oracle=v.oracle,
                   oracle_ms=None if v.oracle_s is None else v.oracle_s * 1e3)
    except RowTimeout as exc:
        row["check"] = f"the check {exc}"
    except Exception as exc:
        row["check"] = f"the check raised {_error(exc)}"
        row["check_traceback"] = traceback.format_exc(limit=8)
    return row


def failed(row):
    return row["status"] in ("error", "timeout") or row["validated"] is False


# --------------------------------------------------------------------------------------------
# report
# --------------------------------------------------------------------------------------------

def _ms(x):
    if x is None:
        return "—"
    return f"{x:.3f}" if x < 1 else f"{x:.2f}" if x < 100 else f"{x:,.0f}"


def _valid(r):
    if r["status"] == "skipped":
        return "—"
    return {True: "yes", False: "**NO**", None: "n/a"}[r["validated"]]


def _cell(text):
    return str(text).replace("|", "/").replace("\n", " ")


def markdown(doc):
    """The result as Markdown lines."""
    m, e = doc["meta"], doc["meta"]["env"]
    gpu, mach = e["gpu"], e["machine"]
    b = m["budget"]
    lines = [f"# semiring: graph algorithm timings ({m['device']}{', quick' if m['quick'] else ''})", "",
             f"Command: `{m['command']}`", "",
             f"- date (UTC): {e['date']}; git {e['git']['commit'] or '?'}"
             + (" (uncommitted changes)" if e["git"]["dirty"] else ""),
             f"- machine: {mach['os']} {mach['arch']}, CPU {mach['cpu']}, {mach['logical_cpus']} logical CPUs, "
             f"{mach['memory_gib']} GiB",
             "- python " + e["python"] + "; " + ", ".join(f"{k} {v or 'not installed'}" for k, v in e["packages"].items()),
             f"- GPU: {gpu['name']} ({gpu['memory_gib']} GiB), CuPy {gpu['cupy']}, CUDA runtime {gpu['cuda_runtime']}"
             if gpu else "- GPU: none used",
             f"- limits: {b['budget_s']:g} s of timed runs per row (at most {b['runs']} runs), "
             f"{b['row_timeout_s']:g} s per row, {b['total_s']:g} s in all", "",
             "Method: one fresh `Graph` per row; one warm-up run (its time is the \"warm-up\" column: it also builds "
             "what the algorithm caches on the Graph), then timed runs (median); "
             + ("CUDA events" if m["device"] == "gpu" else "time.perf_counter")
             + ". `1*`: the warm-up alone took over half the budget, and its time is the one reported. The warm-up's "
             "result is checked against the oracle (its own time in \"oracle ms\").", "",
             "## Graphs", "", "| graph | source | role | n | entries | about | load s |", "|---|---|---|---|---|---|---|"]
    for g in doc["graphs"]:
        lines.append(f"| {g['name']} | {g['source']} | {g['role']} | {g['n']:,} | {g['nvals']:,} | {_cell(g['about'])} "
                     f"| {g['load_s']:.1f} |")
    lines += ["", "## Timings", "",
              "| algorithm | variant | graph | n | entries | median ms | runs | warm-up ms | validated | oracle ms | "
              "result / check |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in doc["rows"]:
        runs = "1*" if r["warmup_only"] else str(r["runs"])
        note = r["check"] if r["status"] == "ok" else f"{r['status']}: {r['error'] or ''} {r['check']}".strip()
        lines.append(f"| {r['algorithm']} | {_cell(r['variant'])} | {r['graph']} | {r['n']:,} | {r['nvals']:,} "
                     f"| {_ms(r['median_ms'])} | {runs if r['status'] == 'ok' else '—'} | {_ms(r['warmup_ms'])} "
                     f"| {_valid(r)} | {_ms(r['oracle_ms'])} | {_cell(note)} |")
    oracles = sorted({(r["algorithm"], r["oracle"]) for r in doc["rows"] if r.get("oracle")})
    if oracles:
        lines += ["", "Oracles: " + "; ".join(f"{a}: {o}" for a, o in oracles) + "."]
    lines += ["", f"Summary: {doc['summary']}"]
    for note in doc["notes"]:
        lines.append(f"- {note}")
    return lines


def save(out_dir, stem, doc):
    os.makedirs(out_dir, exist_ok=True)
    pj, pm = os.path.join(out_dir, stem + ".json"), os.path.join(out_dir, stem + ".md")
    report.write_json(pj, doc)
    with open(pm, "w") as f:
        f.write("\n".join(markdown(doc)) + "\n")
    return pj, pm


# --------------------------------------------------------------------------------------------
# command line
# --------------------------------------------------------------------------------------------

def parser():
    p = argparse.ArgumentParser(prog="python -m benchmarks.algorithms", description=__doc__.split("\n\n")[0])
    p.add_argument("--device", default="cpu", choices=("cpu", "gpu"))
    p.add_argument("--quick", action="store_true", help="tiny graphs: checks the code path in seconds")
    p.add_argument("--out", default=os.path.join("benchmarks", "results"), help="output folder")
    p.add_argument("--data", default=DATA_DIR, help="real-graph folder (default ../shared/data)")
    p.add_argument("--budget-s", type=float, default=None,
                   help="seconds of timed runs per algorithm and graph (after the warm-up); default cpu 20, gpu 5")
    p.add_argument("--total-budget-s", type=float, default=None,
                   help="rows not started by then are skipped; default cpu 570, gpu 215")
    p.add_argument("--row-timeout-s", type=float, default=None,
                   help="a row (warm-up, runs, check) is stopped after this; default cpu 150, gpu 60")
    p.add_argument("--runs", type=int, default=None, help="most timed runs per row (default 5, quick 2)")
    p.add_argument("--only", default=None, help="comma-separated algorithm names to run (default all)")
    p.add_argument("--graphs", default=None, choices=("shared", "generated"), help="only these graphs")
    return p


def _budget(args):
    base = QUICK if args.quick else DEFAULTS[args.device]
    return Budget(args.budget_s if args.budget_s is not None else base.budget_s,
                  args.total_budget_s if args.total_budget_s is not None else base.total_s,
                  args.row_timeout_s if args.row_timeout_s is not None else base.row_timeout_s,
                  args.runs if args.runs is not None else base.runs)


def _say(t0, msg):
    print(f"[{time.perf_counter() - t0:7.1f} s] {msg}", flush=True)


def _line(i, total, r):
    head = f"{i}/{total} {r['algorithm']}{' (' + r['variant'] + ')' if r['variant'] else ''} on {r['graph']}"
    if r["status"] == "skipped":
        return f"{head}: skipped ({r['error']})"
    if r["status"] != "ok":
        return f"{head}: {r['status'].upper()} {r['error']}"
    runs = "warm-up only" if r["warmup_only"] else f"median of {r['runs']}"
    valid = {True: "validated", False: "VALIDATION FAILED", None: "not validated"}[r["validated"]]
    return (f"{head}: {_ms(r['median_ms'])} ms ({runs}; warm-up {_ms(r['warmup_ms'])} ms); {valid}: {r['check']}"
            + (f" [oracle {_ms(r['oracle_ms'])} ms]" if r["oracle_ms"] is not None else ""))


def run(args, argv):
    t0 = time.perf_counter()
    cp = None
    if args.device == "gpu":
        cp, reason = env.gpu_status()
        if cp is None:
            print(f"benchmarks.algorithms: --device gpu needs a GPU, and there is none here: {reason}. Nothing was run.")
            return 0
    budget = _budget(args)
    timer = GpuTimer(cp) if cp is not None else CpuTimer()
    only = set(args.only.split(",")) if args.only else None
    todo = [b for b in benches(args.quick) if only is None or b.algorithm in only]
    sources = [args.graphs] if args.graphs else ["shared", "generated"]
    graph_specs = specs(args.quick)
    plan = [(b, graph_specs[(s, b.role)]) for b in todo for s in sources]
    meta = {"device": args.device, "quick": args.quick,
            "command": "python -m benchmarks.algorithms " + shlex.join(argv),
            "budget": budget.__dict__, "env": env.describe(cp)}
    gpu = meta["env"]["gpu"]
    stem = (f"algorithms{'-quick' if args.quick else ''}-"
            f"{env.slug(gpu['name'] if gpu else meta['env']['machine']['cpu'])}-{env.today()}")
    loaded, graph_errors, rows, notes = {}, {}, [], []
    doc = {"meta": meta, "graphs": [], "rows": rows, "notes": notes, "summary": ""}
    _say(t0, f"{len(plan)} rows on {args.device}; limits {budget}")
    for i, (b, spec) in enumerate(plan, 1):
        skip = None
        left = budget.total_s - (time.perf_counter() - t0)
        if left <= 0:
            skip = f"the total budget of {budget.total_s:g} s was spent"
        elif spec.path and not os.path.exists(os.path.join(args.data, spec.path)):
            skip = f"data file missing: {os.path.join(args.data, spec.path)}"
        key = (spec.name, spec.role)
        if skip is None and key not in loaded and key not in graph_errors:
            try:
                with time_limit(max(budget.row_timeout_s, 10.0)):
                    loaded[key] = Loaded(spec, args.data, args.device)
                doc["graphs"].append(loaded[key].describe())
                _say(t0, f"loaded {spec.name} ({spec.role}): n {loaded[key].n:,}, {loaded[key].nvals:,} entries, "
                     f"{loaded[key].load_s:.1f} s")
            except (Exception, RowTimeout) as exc:
                graph_errors[key] = _error(exc)
                notes.append(f"graph {spec.name} ({spec.role}) could not be loaded: {graph_errors[key]}")
        if skip is None and key in graph_errors:
            skip = f"graph not loaded: {graph_errors[key]}"
        if skip is not None:
            r = {"algorithm": b.algorithm, "variant": b.variant, "graph": spec.name, "source": spec.source,
                 "n": 0, "nvals": 0, "status": "skipped", "validated": None, "median_ms": None, "warmup_ms": None,
                 "runs": 0, "times_ms": [], "warmup_only": False, "check": "", "oracle": None, "oracle_ms": None,
                 "error": skip}
        else:
            limit = min(budget.row_timeout_s, max(left, 10.0))
            r = run_row(b, loaded[key], timer, budget, limit, args.data)
            if cp is not None:
                cp.get_default_memory_pool().free_all_blocks()
        rows.append(r)
        _say(t0, _line(i, len(plan), r))
        doc["summary"] = _summary(rows, time.perf_counter() - t0)
        save(args.out, stem, doc)
    pj, pm = save(args.out, stem, doc)
    with open(pm) as f:
        print(f.read(), flush=True)
    print(f"wrote {pj} and {pm}", flush=True)
    return 1 if any(failed(r) for r in rows) else 0


def _summary(rows, seconds):
    n = len(rows)
    ok = sum(1 for r in rows if r["validated"])
    bad = sum(1 for r in rows if failed(r))
    skipped = sum(1 for r in rows if r["status"] == "skipped")
    return (f"{ok} of {n} rows validated, {bad} failed (error, timeout or wrong answer), {skipped} skipped, "
            f"{n - ok - bad - skipped} without an oracle; {seconds:.0f} s")


def main(argv=None):
    """Entry point; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parser().parse_args(argv)
    if args.runs is not None and args.runs < 1:
        parser().error("--runs must be >= 1")
    known = {b.algorithm for b in benches(False)}
    if args.only and set(args.only.split(",")) - known:
        parser().error(f"--only: unknown {sorted(set(args.only.split(',')) - known)}; known: {sorted(known)}")
    return run(args, argv)


if __name__ == "__main__":
    sys.exit(main())
