"""Timings of the graph algorithms, one row per (algorithm, graph), on the CPU or the GPU, each
beside its CPU peer on the host and, on the GPU, its target.

::

    python -m benchmarks.algorithms --device cpu|gpu [--quick] [--out DIR] [--budget-s S]
                                    [--total-budget-s T] [--row-timeout-s R] [--peer-timeout-s P]
                                    [--runs K] [--only NAME,...] [--graphs shared|generated]
                                    [--targets-only] [--previous FILE|none]

Every algorithm runs on one shared graph (``../shared/data``) and one generated graph
(``semiring.generators``) of the kind it needs:

- undirected: USA-road-t.NY (DIMACS, 264,346 vertices) for components, triangles, the spanning
  forest (Borůvka), betweenness, coloring, Louvain and partitioning; Graph500 Kronecker scale 14
  for components, triangles, the spanning forest, coloring and partitioning, and scale 16 for
  betweenness and Louvain (their targets name it). The spanning forest uses the weights (travel
  times 1..255, Kronecker weights 1..255), the others the pattern;
- directed: cnr-2000 (LAW web crawl, 325,557 vertices, with published strong components) and
  the Kronecker scale-14 graph with a quarter of its arcs dropped (by a hash of (i, j)) for
  strong components and PageRank;
- small: the whole of LAGraph's ``test_FW_2003`` (2,003 vertices) and a weighted Kronecker
  scale-8 graph for Floyd-Warshall, all-pairs shortest paths and Prim (their work grows as
  n**3, or n steps).

Rows dropped from earlier runs: Louvain on Kronecker 14 (Kronecker 16 replaces it) and the
small rows on the first 300 vertices of ``test_FW_2003`` (the whole graph replaces them).

``--quick`` swaps in tiny graphs (karate, west0067, Kronecker scales 8 and 6) to check the code
path in seconds. Each row: a fresh :class:`semiring.algorithms.Graph` (so matrices the algorithm
caches on it, such as transposes, patterns and degree orders, are built by the warm-up run and
reused by the timed runs, as an application that keeps its Graph would), one warm-up run, then
timed runs until ``--runs`` runs or ``--budget-s`` seconds (at least one: the warm-up may
include compiling the row's kernels; none only when the warm-up alone took more than half the
budget and more than a third of ``--row-timeout-s``: the row then reports the warm-up time). Times are wall clock
(``time.perf_counter``; on the GPU with the device synchronized before the start and before the
stop, :class:`benchmarks.timing.WallTimer`). The warm-up's result is checked against an oracle
(:mod:`benchmarks.algorithm_oracles`: SciPy, NumPy, networkx, published answers), whose own time
is reported.

Each row also times its CPU peer on the host (:mod:`benchmarks.algorithm_peers`: SciPy, or
networkx where SciPy has none, METIS for k-way partitions), at most ``--peer-timeout-s`` seconds
(a slower peer is reported as "> P s"), and says whether the row beats it. On the GPU, rows
with a target (:data:`benchmarks.targets.ALGORITHM_TARGETS_MS`; PageRank and triangle counting:
no slower than the previous committed run, ``--previous``) run first, so that a run cut short by
the total budget loses only rows without one, and say whether they meet it; the previous run's
median is shown beside every row it has.

A row that raises, fails its check or runs past ``--row-timeout-s`` is reported as such and the
others still run; past ``--total-budget-s`` the remaining rows are skipped. The Markdown and JSON
results are rewritten after every row, so an interrupted run leaves what it measured.

Writes ``<out>/algorithms[-quick]-<device-slug>-<YYYYMMDD>.{md,json}``. Exit status: 0 when every
row that ran was validated (or had no oracle), 1 otherwise, 2 for bad arguments.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shlex
import signal
import sys
import threading
import time
import traceback
from dataclasses import dataclass, field
from importlib import metadata
from typing import Callable

import numpy as np

import semiring as sr
from semiring.algorithms import Graph

from . import algorithm_oracles as oracle
from . import algorithm_peers as peers
from . import algorithm_report, env, report, targets
from .graphs import DATA_DIR
from .timing import CpuTimer, WallTimer


@dataclass(frozen=True)
class Budget:
    """Time limits of a run (seconds), the most timed runs per row and the peers' limit."""

    budget_s: float
    total_s: float
    row_timeout_s: float
    runs: int
    peer_s: float = 20.0


#: Defaults per device (and for --quick). The GPU run must fit in about 4 to 5 minutes.
DEFAULTS = {"cpu": Budget(20.0, 570.0, 150.0, 5, 60.0), "gpu": Budget(4.0, 230.0, 45.0, 5, 20.0)}
QUICK = Budget(1.0, 120.0, 30.0, 2, 10.0)

#: A peer faster than this is run again (at most PEER_RUNS times) and its median reported.
PEER_BUDGET_S = 1.0
PEER_RUNS = 3

_RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")
#: The previous committed run of each device (its medians are shown beside the rows).
PREVIOUS = {"gpu": os.path.join(_RESULTS, "algorithms-nvidia-h200-20261122.json"),
            "cpu": os.path.join(_RESULTS, "algorithms-intel-xeon-processor-20261122.json")}


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


def _karate(role, about):
    return Spec("karate", "shared", role, about, _read("small/lagraph/karate.mtx"), "small/lagraph/karate.mtx")


def specs(quick):
    """The graphs by key: {key: Spec}. The keys are the same in both sizes; ``quick`` maps them
    to tiny graphs (several keys may then name the same graph)."""
    if quick:
        kron8 = Spec("kron8", "generated", "undirected", "Graph500 Kronecker scale 8, weights 1..255", _kron(8))
        return {
            "roads": _karate("undirected", "Zachary karate club (LAGraph)"),
            "kron14": kron8,
            "kron16": kron8,
            "web": Spec("west0067", "shared", "directed", "west0067 (LAGraph), pattern",
                        _read("small/lagraph/west0067.mtx"), "small/lagraph/west0067.mtx"),
            "kron14-directed": Spec("kron8-directed", "generated", "directed",
                                    "Kronecker scale 8 arcs, those with hash(i, j) = 0 mod 4 dropped",
                                    _kron_directed(8)),
            "fw": _karate("small", "Zachary karate club (LAGraph), unit weights"),
            "kron8": Spec("kron6", "generated", "small", "Graph500 Kronecker scale 6, weights 1..255", _kron(6)),
        }
    return {
        "roads": Spec("USA-road-t.NY", "shared", "undirected",
                      "DIMACS New York roads, travel times (parallel arcs: minimum)",
                      _read("roads/USA-road-t.NY.gr.gz"), "roads/USA-road-t.NY.gr.gz"),
        "kron14": Spec("kron14", "generated", "undirected",
                       "Graph500 Kronecker scale 14, edge factor 16, seed 0, weights 1..255", _kron(14)),
        "kron16": Spec("kron16", "generated", "undirected",
                       "Graph500 Kronecker scale 16, edge factor 16, seed 0, weights 1..255", _kron(16)),
        "web": Spec("cnr-2000", "shared", "directed", "LAW cnr-2000 web crawl, pattern",
                    _read("web/cnr-2000.mtx.gz"), "web/cnr-2000.mtx.gz", scc="web/cnr-2000.scc.txt.gz"),
        "kron14-directed": Spec("kron14-directed", "generated", "directed",
                                "Kronecker scale 14 arcs, those with hash(i, j) = 0 mod 4 dropped",
                                _kron_directed(14)),
        "fw": Spec("FW_2003", "shared", "small", "LAGraph test_FW_2003 (bcsstk13 pattern), all 2,003 vertices",
                   _read("small/lagraph/test_FW_2003.mtx"), "small/lagraph/test_FW_2003.mtx"),
        "kron8": Spec("kron8", "generated", "small", "Graph500 Kronecker scale 8, weights 1..255", _kron(8)),
    }


class Loaded:
    """A graph on the device with its host copies (scipy) for the oracles and the peers.

    Attributes
    ----------
    W, P : Matrix on the device: the weights (directed graphs: the pattern) and the bool pattern
    S, Ws : scipy CSR on the host: the pattern and the float64 weights
    kind : "undirected" or "directed"
    cache : dict  oracle answers, peer timings and inputs shared by the graph's rows
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
    """One algorithm call: ``run(G, L)`` is timed, ``check(result, L, data)`` gives a Verdict.

    ``graphs`` names its shared and its generated graph (keys of :func:`specs`); ``peer`` is its
    CPU peer (:class:`benchmarks.algorithm_peers.Peer`) or None.
    """

    algorithm: str
    variant: str
    graphs: tuple
    weighted: bool
    run: Callable
    check: Callable
    peer: peers.Peer | None = field(default=None)


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


ROADS_K14 = ("roads", "kron14")
ROADS_K16 = ("roads", "kron16")
DIRECTED = ("web", "kron14-directed")
SMALL = ("fw", "kron8")


def benches(quick):
    """Every row's call, check and peer, in the order the table lists them (both graphs of an
    algorithm together)."""
    k_bc = 4 if quick else 16
    k_apsp = 8 if quick else 32
    mst = peers.of_oracle("scipy minimum_spanning_tree")
    greedy = peers.NX_GREEDY_COLOR
    out = [
        Bench("connected_components", "", ROADS_K14, False,
              lambda G, L: alg().connected_components(G), lambda r, L, d: oracle.check_components(L.S, r),
              peers.of_oracle("scipy connected_components")),
        Bench("strongly_connected_components", "", DIRECTED, False,
              lambda G, L: alg().strongly_connected_components(G), _scc_check, peers.SCIPY_STRONG),
        Bench("pagerank", "alpha=0.85, tol=1e-6", DIRECTED, False,
              lambda G, L: alg().pagerank(G), lambda r, L, d: oracle.check_pagerank(L.S, r),
              peers.of_oracle("scipy power iteration (networkx _pagerank_scipy)")),
    ]
    for m in ("sandia", "sandia2", "cohen", "burkhardt"):
        out.append(Bench("triangle_count", f"method={m}", ROADS_K14, False,
                         lambda G, L, m=m: alg().triangle_count(G, method=m),
                         lambda r, L, d: oracle.check_triangles(L.S, r, L.cache),
                         peers.of_oracle("scipy sum(L .* (L @ L))")))
    out += [
        Bench("minimum_spanning_forest", "method=boruvka", ROADS_K14, True,
              lambda G, L: alg().minimum_spanning_forest(G, method="boruvka"),
              lambda r, L, d: oracle.check_forest(L.Ws, r), mst),
        Bench("minimum_spanning_forest", "method=prim", SMALL, True,
              lambda G, L: alg().minimum_spanning_forest(G, method="prim"),
              lambda r, L, d: oracle.check_forest(L.Ws, r), mst),
        Bench("floyd_warshall", "", SMALL, True,
              lambda G, L: alg().floyd_warshall(G), lambda r, L, d: oracle.check_distances(L.Ws, r),
              peers.of_oracle("scipy shortest_path (Dijkstra, every source)")),
        Bench("all_pairs_shortest_paths", f"method=repeated, {k_apsp} sources", SMALL, True,
              lambda G, L: alg().all_pairs_shortest_paths(G, method="repeated", sources=_spread(L, k_apsp)),
              lambda r, L, d: oracle.check_distances(L.Ws, r, sources=_spread(L, k_apsp)),
              peers.of_oracle("scipy shortest_path (Dijkstra)")),
        Bench("all_pairs_shortest_paths", "method=batched_bfs, all sources", SMALL, False,
              lambda G, L: alg().all_pairs_shortest_paths(G, method="batched_bfs"),
              lambda r, L, d: oracle.check_distances(L.S, r, unweighted=True),
              peers.of_oracle("scipy shortest_path (unweighted, every source)")),
        Bench("betweenness_centrality", f"{k_bc} sources", ROADS_K16, False,
              lambda G, L: alg().betweenness_centrality(G, sources=_spread(L, k_bc)),
              lambda r, L, d: oracle.check_betweenness(L.S, _spread(L, k_bc), r, L.kind == "directed"),
              peers.of_oracle("scipy BFS + NumPy Brandes")),
        Bench("coloring", "method=gebremedhin_manne", ROADS_K14, False,
              lambda G, L: alg().coloring(G, method="gebremedhin_manne"),
              lambda r, L, d: oracle.check_coloring(L.S, r)[0], greedy),
        Bench("coloring", "method=jones_plassmann", ROADS_K14, False,
              lambda G, L: alg().coloring(G, method="jones_plassmann"),
              lambda r, L, d: oracle.check_coloring(L.S, r)[0], greedy),
    ]
    for k in (2, 8):
        out.append(Bench("partition", f"k={k}", ROADS_K14, False,
                         lambda G, L, k=k: alg().partition(G, k), _partition_check(k), peers.metis(k)))
    out += [
        Bench("louvain", "", ROADS_K16, False, lambda G, L: alg().louvain(G), _louvain_check, peers.NX_LOUVAIN),
        Bench("modularity", "of louvain's partition", ROADS_K16, False, _modularity_run, _modularity_check,
              peers.of_oracle("NumPy modularity by definition")),
        Bench("kernighan_lin_bisection", "random start (seed 0)", ROADS_K14, False,
              lambda G, L: alg().kernighan_lin_bisection(G, partition=_kl_start(L)),
              lambda r, L, d: oracle.check_bisection(L.S, r, _kl_start(L)), peers.nx_kernighan_lin(_kl_start)),
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


def blank_row(b, spec, order=0):
    """A result row before anything ran."""
    return {"order": order, "algorithm": b.algorithm, "variant": b.variant, "graph": spec.name,
            "source": spec.source, "n": 0, "nvals": 0, "status": "ok", "validated": None, "median_ms": None,
            "warmup_ms": None, "runs": 0, "times_ms": [], "warmup_only": False, "check": "", "oracle": None,
            "oracle_ms": None, "error": None, "target_ms": None, "target_source": None, "meets_target": None,
            "before_ms": None, "peer": None, "peer_status": None, "peer_ms": None, "peer_runs": 0,
            "peer_limit_s": None, "peer_detail": None, "beats_peer": None}


def run_row(b, L, timer, budget, limit, data, row=None):
    """Warm-up, timed runs, oracle check: one result row (never raises, except KeyboardInterrupt)."""
    row = blank_row(b, L.spec) if row is None else row
    row.update(n=int(L.n), nvals=int(L.nvals))
    G = L.graph(b.weighted)
    result = None
    try:
        with time_limit(limit):
            warm, result = timer.time(b.run, G, L)
            row["warmup_ms"] = warm * 1e3
            times = []
            # the warm-up may include compiling the row's kernels (once per machine): one timed
            # run follows it unless it alone took a third of the row's time limit
            if warm <= budget.budget_s / 2 or warm <= budget.row_timeout_s / 3:
                while not times or (len(times) < budget.runs and sum(times) < budget.budget_s):
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


def measure_peer(peer, L, limit, prepare_limit):
    """Time a peer on the host: its first run within ``limit`` seconds (else "timeout"), then
    again while it has taken under PEER_BUDGET_S (at most PEER_RUNS runs); the median.

    Returns a dict: peer, peer_status ("ok", "timeout", "unavailable", "error"), peer_ms,
    peer_runs, peer_limit_s, peer_detail. Memoized per graph (rows sharing a peer time it once).
    """
    key = ("peer", peer.name)
    if key in L.cache:
        return L.cache[key]
    out = {"peer": peer.name, "peer_status": "ok", "peer_ms": None, "peer_runs": 0, "peer_limit_s": limit,
           "peer_detail": None}
    try:
        with time_limit(prepare_limit):
            thunk, describe = peer.prepare(L)
        times, res = [], None
        while len(times) < PEER_RUNS and sum(times) < PEER_BUDGET_S:
            try:
                with time_limit(limit):
                    t = time.perf_counter()
                    res = thunk()
                    times.append(time.perf_counter() - t)
            except RowTimeout:
                if not times:
                    out["peer_status"] = "timeout"
                break
        if times:
            out.update(peer_ms=float(np.median(times)) * 1e3, peer_runs=len(times))
            with time_limit(prepare_limit):
                out["peer_detail"] = describe(res)
    except peers.PeerUnavailable as exc:
        out.update(peer_status="unavailable", peer_detail=str(exc))
    except RowTimeout as exc:
        out.update(peer_status="error", peer_detail=f"its preparation {exc}")
    except Exception as exc:
        out.update(peer_status="error", peer_detail=_error(exc))
    L.cache[key] = out
    return out


def add_peer(row, b, L, limit, prepare_limit):
    """The row's peer columns (the oracle's time where the oracle is the peer)."""
    if b.peer is None:
        return row
    if b.peer.from_oracle:
        ok = row["oracle_ms"] is not None
        row.update(peer=b.peer.name, peer_status="ok" if ok else "not run", peer_ms=row["oracle_ms"],
                   peer_runs=1 if ok else 0, peer_detail=None if ok else "the oracle (the peer) did not run")
    else:
        row.update(measure_peer(b.peer, L, limit, prepare_limit))
    return row


def judge(row):
    """Fill meets_target and beats_peer: None where there is nothing to compare with, False for a
    row that failed (error, timeout, wrong answer)."""
    good = row["status"] == "ok" and row["validated"] is not False and row["median_ms"] is not None
    if row["target_ms"] is not None:
        row["meets_target"] = bool(good and row["median_ms"] <= row["target_ms"])
    if row["peer_status"] == "ok" and row["peer_ms"] is not None:
        row["beats_peer"] = bool(good and row["median_ms"] < row["peer_ms"])
    elif row["peer_status"] == "timeout":
        row["beats_peer"] = bool(good and row["median_ms"] < row["peer_limit_s"] * 1e3)
    return row


def failed(row):
    return row["status"] in ("error", "timeout") or row["validated"] is False


# --------------------------------------------------------------------------------------------
# the previous run
# --------------------------------------------------------------------------------------------

def load_previous(path):
    """The validated medians of a previous result file: ``({(algorithm, variant, graph): ms},
    description)``; ``({}, None)`` when there is none."""
    if not path or path == "none" or not os.path.exists(path):
        return {}, None
    with open(path) as f:
        doc = json.load(f)
    out = {(r["algorithm"], r["variant"], r["graph"]): r["median_ms"] for r in doc.get("rows", [])
           if r.get("validated") and r.get("median_ms") is not None}
    e = doc.get("meta", {}).get("env", {})
    gpu, git = e.get("gpu") or {}, e.get("git") or {}
    where = gpu.get("name") or (e.get("machine") or {}).get("cpu") or "?"
    about = (f"{os.path.basename(path)} ({where}, {str(e.get('date', '?'))[:10]}, "
             f"git {str(git.get('commit') or '?')[:7]})")
    return out, about


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
                   help="seconds of timed runs per algorithm and graph (after the warm-up); default cpu 20, gpu 4")
    p.add_argument("--total-budget-s", type=float, default=None,
                   help="rows not started by then are skipped; default cpu 570, gpu 230")
    p.add_argument("--row-timeout-s", type=float, default=None,
                   help="a row (warm-up, runs, check) is stopped after this; default cpu 150, gpu 45")
    p.add_argument("--peer-timeout-s", type=float, default=None,
                   help="a CPU peer slower than this is reported as '> this'; default cpu 60, gpu 20, quick 10")
    p.add_argument("--runs", type=int, default=None, help="most timed runs per row (default 5, quick 2)")
    p.add_argument("--only", default=None, help="comma-separated algorithm names to run (default all)")
    p.add_argument("--graphs", default=None, choices=("shared", "generated"), help="only these graphs")
    p.add_argument("--targets-only", action="store_true",
                   help="only the rows with a target on the GPU (on the CPU: the same rows, without targets)")
    p.add_argument("--previous", default=None,
                   help="an earlier result JSON whose medians are shown beside the rows (and are PageRank's and "
                        "triangle counting's targets), or 'none'; default the committed run of the device")
    return p


def _budget(args):
    base = QUICK if args.quick else DEFAULTS[args.device]
    pick = lambda value, default: value if value is not None else default  # noqa: E731
    return Budget(pick(args.budget_s, base.budget_s), pick(args.total_budget_s, base.total_s),
                  pick(args.row_timeout_s, base.row_timeout_s), pick(args.runs, base.runs),
                  pick(args.peer_timeout_s, base.peer_s))


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
    ms, yes_no = algorithm_report.ms, algorithm_report.yes_no
    out = (f"{head}: {ms(r['median_ms'])} ms ({runs}; warm-up {ms(r['warmup_ms'])} ms); {valid}: {r['check']}"
           + (f" [oracle {ms(r['oracle_ms'])} ms]" if r["oracle_ms"] is not None else ""))
    if r["peer"]:
        out += f"; peer {algorithm_report.peer_ms(r)} ms{yes_no(r['beats_peer'], ' (beaten)', ' (NOT beaten)')}"
    if r["target_ms"] is not None:
        out += f"; target {ms(r['target_ms'])} ms{yes_no(r['meets_target'], ' met', ' NOT met')}"
    return out


def _plan(args):
    """Every (order, Bench, Spec) that the arguments select, in table order."""
    only = set(args.only.split(",")) if args.only else None
    graph_specs = specs(args.quick)
    sources = [args.graphs] if args.graphs else ["shared", "generated"]
    plan = []
    for b in benches(args.quick):
        if only is not None and b.algorithm not in only:
            continue
        for key in b.graphs:
            spec = graph_specs[key]
            if spec.source in sources:
                plan.append([len(plan), b, spec])
    return plan


def schedule(args, previous):
    """The rows in the order they run: ``[(order, Bench, Spec, target ms, target source, previous
    ms)]``. The targets are GPU targets: on the GPU the rows with one run first; on the CPU they
    have none, and ``--targets-only`` still selects the rows that have one on the GPU.
    ``previous``: {(algorithm, variant, graph): ms} of the previous run."""
    plan = []
    for order, b, spec in _plan(args):
        before = previous.get((b.algorithm, b.variant, spec.name))
        target, source = targets.algorithm_target(b.algorithm, b.variant, spec.name, before)
        if args.targets_only and target is None:
            continue
        if args.device != "gpu":
            target, source = None, None
        plan.append((order, b, spec, target, source, before))
    plan.sort(key=lambda p: (p[3] is None, p[0]))
    return plan


def run(args, argv):
    t0 = time.perf_counter()
    cp = None
    if args.device == "gpu":
        cp, reason = env.gpu_status()
        if cp is None:
            print(f"benchmarks.algorithms: --device gpu needs a GPU, and there is none here: {reason}. "
                  "Nothing was run.")
            return 0
    budget = _budget(args)
    timer = WallTimer(cp) if cp is not None else CpuTimer()
    previous, previous_about = ({}, None) if args.quick else load_previous(
        PREVIOUS[args.device] if args.previous is None else args.previous)
    plan = schedule(args, previous)
    meta = {"device": args.device, "quick": args.quick,
            "command": "python -m benchmarks.algorithms " + shlex.join(argv),
            "budget": budget.__dict__, "env": env.describe(cp), "previous": previous_about,
            "peer_packages": {d: _version(d) for d in ("networkx", "pymetis")}}
    gpu = meta["env"]["gpu"]
    stem = (f"algorithms{'-quick' if args.quick else ''}-"
            f"{env.slug(gpu['name'] if gpu else meta['env']['machine']['cpu'])}-{env.today()}")
    loaded, graph_errors, rows, notes = {}, {}, [], []
    doc = {"meta": meta, "graphs": [], "rows": rows, "notes": notes, "summary": ""}
    _say(t0, f"{len(plan)} rows on {args.device}; limits {budget}")
    for i, (order, b, spec, target, source, before) in enumerate(plan, 1):
        r = blank_row(b, spec, order)
        r.update(target_ms=target, target_source=source, before_ms=before)
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
            r.update(status="skipped", error=skip)
        else:
            limit = min(budget.row_timeout_s, max(left, 10.0))
            r = run_row(b, loaded[key], timer, budget, limit, args.data, r)
            if cp is not None:
                cp.get_default_memory_pool().free_all_blocks()
            left = budget.total_s - (time.perf_counter() - t0)
            add_peer(r, b, loaded[key], min(budget.peer_s, max(left, 5.0)), max(budget.row_timeout_s, 10.0))
            judge(r)
        rows.append(r)
        _say(t0, _line(i, len(plan), r))
        doc["summary"] = summary(rows, time.perf_counter() - t0)
        save(args.out, stem, doc)
    pj, pm = save(args.out, stem, doc)
    with open(pm) as f:
        print(f.read(), flush=True)
    print(f"wrote {pj} and {pm}", flush=True)
    return 1 if any(failed(r) for r in rows) else 0


def _version(dist):
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def summary(rows, seconds):
    """One line: validated rows, targets met, peers beaten."""
    n = len(rows)
    ok = sum(1 for r in rows if r["validated"])
    bad = sum(1 for r in rows if failed(r))
    skipped = sum(1 for r in rows if r["status"] == "skipped")
    with_target = [r for r in rows if r["target_ms"] is not None]
    met = sum(1 for r in with_target if r["meets_target"])
    with_peer = [r for r in rows if r["beats_peer"] is not None]
    beat = sum(1 for r in with_peer if r["beats_peer"])
    no_peer = sum(1 for r in rows if r["status"] != "skipped" and r["peer"] and r["beats_peer"] is None)
    out = (f"{ok} of {n} rows validated, {bad} failed (error, timeout or wrong answer), {skipped} skipped, "
           f"{n - ok - bad - skipped} without an oracle")
    if with_target:
        out += f"; {met} of {len(with_target)} rows with a target meet it"
    out += f"; {beat} of {len(with_peer)} rows with a measured CPU peer beat it"
    if no_peer:
        out += f" ({no_peer} rows without a peer time: unavailable or failed)"
    return out + f"; {seconds:.0f} s"


def save(out_dir, stem, doc):
    os.makedirs(out_dir, exist_ok=True)
    pj, pm = os.path.join(out_dir, stem + ".json"), os.path.join(out_dir, stem + ".md")
    report.write_json(pj, doc)
    with open(pm, "w") as f:
        f.write("\n".join(algorithm_report.markdown(doc)) + "\n")
    return pj, pm


def main(argv=None):
    """Entry point; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parser().parse_args(argv)
    if args.runs is not None and args.runs < 1:
        parser().error("--runs must be >= 1")
    known = {b.algorithm for b in benches(False)}
    if args.only and set(args.only.split(",")) - known:
        parser().error(f"--only: unknown {sorted(set(args.only.split(',')) - known)}; known: {sorted(known)}")
    if args.previous not in (None, "none") and not os.path.exists(args.previous):
        parser().error(f"--previous: no such file: {args.previous}")
    return run(args, argv)


if __name__ == "__main__":
    sys.exit(main())
