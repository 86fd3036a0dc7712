"""The cpu suite's algorithm table: every algorithm of the CPU targets on its graphs, semiring on
both CPU backends beside SciPy, python-graphblas written directly, graphblas-algorithms and
networkx, in the same process, interleaved.

One row = one algorithm on one graph. Its systems (:mod:`.systems`) are built
outside the clock; each runs once untimed (the warm-up: it builds what the algorithm caches on
its graph, compiles JIT kernels), then the timed rounds run the systems round-robin (each round
starts one system later, so no system always runs first), and the median of each system's
rounds is reported. BFS and SSSP use a different root each round, the same for every system
(:func:`search_roots`), betweenness the same 16 sources every round. Every result, warm-up and timed, is
checked (:mod:`.checks`); a wrong result or an exception drops the system from the
row and fails the run. A call that runs past the row's per-call budget (the warm-up, or any
round) stops the system there: it is reported as "> budget".

Rounds: as many as fit in the row's time (``row_s``, estimated from the warm-ups), between 1 and
the row's ``rounds``. The per-operation row (masked vxm) times every call alone, without a
per-call budget.
"""

from __future__ import annotations

import gc
import math
import time
import traceback
from dataclasses import dataclass

import numpy as np
import scipy.sparse.csgraph as csgraph

from semiring._bench.timing import OverBudget, graph500_roots, time_limit

from . import checks as cpu_checks
from . import graphs as cpu_graphs
from . import systems as cpu_systems


@dataclass(frozen=True)
class RowSpec:
    """One row of the table.

    Attributes
    ----------
    algorithm : str  a key of :data:`benchmarks.suites.cpu_table.systems.FACTORIES`
    graph : str      a key of :func:`benchmarks.suites.cpu_table.graphs.specs`
    rounds : int     most timed rounds
    row_s : float    time of the timed rounds (rounds are dropped to fit; at least one runs)
    budget_s : float or None
        Per call: a system whose call runs longer is "> budget" (None: no limit).
    op : bool        a single operation (microseconds; no per-call limit)
    """

    algorithm: str
    graph: str
    rounds: int = 7
    row_s: float = 15.0
    budget_s: float | None = 30.0
    op: bool = False


#: The table, in the order it is reported (the order of the CPU targets).
ALGORITHMS = ("bfs", "sssp", "connected_components", "strongly_connected_components", "pagerank", "triangle_count",
              "minimum_spanning_forest", "betweenness_centrality", "louvain", "coloring", "masked_vxm")

#: Betweenness sources per row.
BC_SOURCES = {"full": 16, "tiny": 4}


def rows(size):
    """The rows at ``size``: full rows carry the limits that keep the table near 10 minutes on 2
    cores (networkx, Bellman-Ford in python-graphblas and graphblas-algorithms past a few seconds
    on the largest rows are cut at the per-call budget); tiny rows run 2 rounds each."""
    R = RowSpec
    full = [R("bfs", "roads", 9), R("bfs", "web", 9), R("bfs", "kron18", 9), R("sssp", "roads", 7, 15.0, 10.0),
            R("connected_components", "roads"), R("connected_components", "web"),
            R("connected_components", "kron18", 5),
            R("strongly_connected_components", "web"),
            R("pagerank", "roads"), R("pagerank", "web"), R("pagerank", "kron16"),
            R("triangle_count", "roads"), R("triangle_count", "web-sym", 5, 20.0),
            R("minimum_spanning_forest", "roads", 5), R("minimum_spanning_forest", "kron18", 3, 20.0, 15.0),
            R("betweenness_centrality", "kron16", 3, 15.0, 10.0),
            R("betweenness_centrality", "kron18", 3, 20.0, 15.0),
            R("louvain", "kron16", 2, 60.0, 120.0), R("coloring", "kron16", 5),
            R("masked_vxm", "kron10", 2000, 10.0, None, True)]
    if size == "full":
        return full
    return [R(r.algorithm, r.graph, 200 if r.op else 2, 5.0 if r.op else 2.0, None if r.op else 20.0, r.op)
            for r in full]


def _vxm_case(H, size=50, seed=0):
    """A 50-vertex frontier, about half the vertices visited, and the expected result (SciPy)."""
    rng = np.random.default_rng(seed)
    front = np.sort(rng.choice(np.flatnonzero(H.degree), min(size, int(np.count_nonzero(H.degree))), replace=False))
    visited = rng.random(H.n) < 0.5
    visited[front] = True
    reach = np.zeros(H.n, bool)
    reach[H.S[front].indices] = True
    return {"f_idx": front, "v_idx": np.flatnonzero(visited), "expect": np.flatnonzero(reach & ~visited),
            "frontier": int(front.size), "visited": int(visited.sum())}


def search_roots(H, count):
    """``count`` Graph500 search keys (random vertices of degree >= 1, seed 0) whose search reaches
    at least a tenth of the vertices (on a directed graph many reach only a few); the widest
    reaching candidates when fewer do."""
    cand = graph500_roots(H.degree, 8 * count, seed=0)
    reach = {}
    for r in cand:
        reach[r] = csgraph.breadth_first_order(H.S, r, directed=True, return_predecessors=False).shape[0]
        wide = [c for c in reach if reach[c] >= H.n / 10]
        if len(wide) == count:
            return wide
    return wide + sorted((c for c in reach if c not in wide), key=lambda c: -reach[c])[:count - len(wide)]


def _args(spec, H, size, count):
    """Argument of the warm-up (index 0) and of each round (1..count)."""
    if spec.algorithm in ("bfs", "sssp"):
        roots = search_roots(H, count + 1)
        return [roots[i % len(roots)] for i in range(count + 1)]
    if spec.algorithm == "betweenness_centrality":
        return [H.spread(BC_SOURCES[size])] * (count + 1)
    if spec.algorithm == "masked_vxm":
        return [H.cache["vxm case"]] * (count + 1)
    return [None] * (count + 1)


def _error(exc):
    return f"{type(exc).__name__}: {exc}".replace("\n", " ")[:300]


class _Run:
    """One system's state in a row."""

    def __init__(self, system, spec, check):
        self.s, self.spec, self.check = system, spec, check
        self.out = {"what": system.what, "status": "ok", "warmup": None, "times": [], "median": None,
                    "validated": None, "check": "", "error": None}

    def call(self, arg):
        """One call, timed, then checked: its time in the row's unit, or False when the system
        is dropped (past the budget, raised, or wrong)."""
        try:
            with self.s.context(), time_limit(self.spec.budget_s, "the row's budget"):
                t = time.perf_counter()
                res = self.s.call(arg)
                secs = time.perf_counter() - t
        except OverBudget:
            self.out["status"] = "> budget"
            self.out["error"] = f"a call ran past the row's budget of {self.spec.budget_s:g} s"
            return False
        except Exception as exc:  # noqa: BLE001 - a system's failure is its cell's, not the run's
            self.out.update(status="error", error=_error(exc), traceback=traceback.format_exc(limit=8))
            return False
        try:
            ok, detail, facts = self.check(self.s.answer(res, arg), arg)
        except Exception as exc:  # noqa: BLE001
            ok, detail, facts = False, f"the check raised {_error(exc)}", {}
        self.out.update(check=detail, **facts)
        if not ok:
            self.out.update(status="validation failed", validated=False)
            return False
        self.out["validated"] = True
        return secs * (1e6 if self.spec.op else 1e3)


def run_row(spec, H, size, data, order=0):
    """Build, warm up, time round-robin and check every system of one row; the row dict."""
    row = {"order": order, "algorithm": spec.algorithm, "graph": H.spec.name, "key": spec.graph, "n": int(H.n),
           "nvals": int(H.nvals), "unit": "us" if spec.op else "ms", "budget_s": spec.budget_s, "rounds": 0,
           "systems": {}, "notes": []}
    if spec.algorithm == "masked_vxm" and "vxm case" not in H.cache:
        H.cache["vxm case"] = _vxm_case(H)
    chk = cpu_checks.CHECKS[spec.algorithm]
    check = (lambda ans, arg: chk(H, ans, data)) if spec.algorithm == "strongly_connected_components" else \
        (lambda ans, arg: chk(H, ans, arg))
    runs = []
    for name, s in cpu_systems.build(spec.algorithm, H):
        if isinstance(s, str):
            row["systems"][name] = {"status": "not installed", "what": "", "error": s, "validated": None}
            continue
        runs.append(_Run(s, spec, check))
        row["systems"][name] = runs[-1].out
    args = _args(spec, H, size, spec.rounds)
    for r in runs:
        t = r.call(args[0])
        if t is not False:
            r.out["warmup"] = t
    active = [r for r in runs if r.out["status"] == "ok"]
    per_round = sum(r.out["warmup"] for r in active) / (1e6 if spec.op else 1e3)
    rounds = spec.rounds if per_round <= 0 else max(1, min(spec.rounds, math.floor(spec.row_s / per_round)))
    t0 = time.perf_counter()
    for i in range(rounds):
        if not active or (i and time.perf_counter() - t0 > 1.5 * spec.row_s):
            break
        k = i % len(active)
        for r in active[k:] + active[:k]:
            t = r.call(args[1 + i])
            if t is not False:
                r.out["times"].append(t)
        active = [r for r in active if r.out["status"] == "ok"]
        row["rounds"] = i + 1
    for r in runs:
        if r.out["times"]:
            r.out["median"] = float(np.median(r.out["times"]))
    return summarize(row)


def summarize(row):
    """Add the best peer and each semiring backend's ratio to it (in place); return the row."""
    sys = row["systems"]
    peers = {n: s["median"] for n, s in sys.items() if n in cpu_systems.PEERS and s.get("status") == "ok"
             and s.get("median") is not None}
    best = min(peers, key=peers.get) if peers else None
    row["best_peer"] = best
    row["best_peer_median"] = peers.get(best)
    row["ratio"] = {}
    for n in ("semiring numpy", "semiring suitesparse"):
        s = sys.get(n)
        if best and s and s.get("status") == "ok" and s.get("median") is not None:
            row["ratio"][n] = s["median"] / peers[best]
    row["failed"] = [n for n, s in sys.items() if s.get("status") in ("error", "validation failed")]
    return row


def run(size, data, deadline, progress, algorithms=None, graphs=None):
    """Run the table (only ``algorithms`` / graph names in ``graphs`` when given).

    Returns
    -------
    graphs_info : list of dict
    rows : list of dict
    notes : list of str
    """
    specs = cpu_graphs.specs(size)
    todo = [(i, r) for i, r in enumerate(rows(size))
            if (algorithms is None or r.algorithm in algorithms) and (graphs is None or specs[r.graph].name in graphs)]
    info, out, notes = [], [], []
    for key in dict.fromkeys(r.graph for _, r in todo):
        spec = specs[key]
        mine = [(i, r) for i, r in todo if r.graph == key]
        if deadline.left() <= 0:
            notes.append(f"{spec.name}: not run (the suite's time budget was used up): "
                         + ", ".join(r.algorithm for _, r in mine))
            continue
        progress.log(f"algorithms: building {spec.name} ...")
        try:
            H = cpu_graphs.load(spec, data)
        except Exception as exc:  # noqa: BLE001
            notes.append(f"{spec.name} could not be built: {_error(exc)}")
            for i, r in mine:
                out.append({"order": i, "algorithm": r.algorithm, "graph": spec.name, "key": key, "systems": {},
                            "rounds": 0,
                            "failed": ["(graph)"], "notes": [f"graph not built: {_error(exc)}"],
                            "best_peer": None, "best_peer_median": None, "ratio": {}, "unit": "ms"})
            continue
        if H is None:
            notes.append(f"{spec.name}: {spec.path} is not in {data}: rows skipped ("
                         + ", ".join(r.algorithm for _, r in mine) + ")")
            continue
        info.append(H.describe())
        for i, r in mine:
            t = time.perf_counter()
            row = run_row(r, H, size, data, i)
            row["seconds"] = round(time.perf_counter() - t, 1)
            out.append(row)
            progress.step(f"{r.algorithm} on {spec.name}: {line(row)} ({row['seconds']:.0f} s)")
        del H
        gc.collect()
        gc.unfreeze()
    out.sort(key=lambda r: r["order"])
    return info, out, notes


def line(row):
    """One line: each system's median in the row's unit (or its status), the best peer, the ratios."""
    def cell(n, s):
        if s.get("median") is not None and s["status"] == "ok":
            return f"{n} {s['median']:.3g}"
        return f"{n} {s['status']}"
    parts = [cell(n, s) for n, s in row["systems"].items()]
    ratios = ", ".join(f"{n.split()[1]} {x:.2f}x" for n, x in row["ratio"].items())
    return "; ".join(parts) + (f" [{row['unit']}]; best peer {row['best_peer']}: {ratios}" if row["best_peer"] else "")
