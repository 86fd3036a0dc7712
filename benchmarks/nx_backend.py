"""The networkx backend against networkx itself (``python -m benchmarks run --suite networkx``).

Graphs (full size): ``gnm-1M``, ``nx.gnm_random_graph(200_000, 1_000_000, seed=0)`` with an integer
``weight`` 1..255 on every edge (a hash of the node pair); ``NY roads``, the DIMACS file
``roads/USA-road-t.NY.gr.gz`` read as a networkx Graph (travel times as ``weight``); for the
functions of directed graphs, the same two as DiGraphs (``gnm_random_graph(..., directed=True)``
and the file's arcs). ``--size tiny``: a 20,000-node, 100,000-edge gnm graph and a 100 x 100 grid.

Two tables:

- **conversion**: seconds per million edges (networkx's count: an undirected edge once) of
  ``semiring.nx.from_networkx`` pattern-only (no attribute asked for) and weighted (``weight``),
  next to networkx's own ``to_scipy_sparse_array`` (pattern and weighted) as a yardstick; median of
  :data:`CONVERSION_REPEAT` runs;
- **functions**: for every function the backend dispatches (``semiring.nx.backend.FUNCTIONS``), the
  median seconds of networkx (``backend="networkx"``), of the backend's first call on a graph
  whose cache was cleared (the conversion included) and of its warm calls (the converted graph
  taken from networkx's cache), with the speedups. Each backend result is checked against
  networkx's (:data:`SPECS` says how: equal, close, the same partition, or valid where the
  answer depends on a random stream). A networkx call runs within :data:`NX_BUDGET_S` seconds (a
  timer interrupts it): past that, the cell reads "> budget" and the backend's result is checked
  by its own validity check where the spec has one. A function without a call spec (one added
  after this table) is listed as "not timed", with why.
"""

from __future__ import annotations

import itertools
import os
import signal
import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from .timing import median

#: Runs of each conversion (median).
CONVERSION_REPEAT = 3
#: Warm backend calls timed per function and graph (median), and networkx calls at most.
REPEAT = 3
#: Seconds one networkx call may take before it is interrupted (per function: ``Spec.budget_s``).
NX_BUDGET_S = 120.0
#: networkx calls are repeated only while one takes less than this many seconds.
REPEAT_BELOW_S = 20.0


class OverBudget(Exception):
    """A networkx call passed its time budget."""


class Invalid(Exception):
    """A backend result differs from networkx's (or is not valid)."""


# -- graphs --------------------------------------------------------------------------------------------
def _pair_weights(u, v, n):
    """Integer weights 1..255 of the node pairs (u, v): a splitmix64 hash of the unordered pair."""
    lo, hi = np.minimum(u, v).astype(np.uint64), np.maximum(u, v).astype(np.uint64)
    x = lo * np.uint64(n) + hi + np.uint64(0x9E3779B97F4A7C15)
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    x = x ^ (x >> np.uint64(31))
    return ((x % np.uint64(255)).astype(np.int64) + 1).tolist()


def gnm(n, m, *, directed=False):
    """``nx.gnm_random_graph(n, m, seed=0)`` with an integer ``weight`` 1..255 per edge."""
    import networkx as nx

    G = nx.gnm_random_graph(n, m, seed=0, directed=directed)
    edges = list(G.edges())
    u = np.fromiter((a for a, _ in edges), np.int64, len(edges))
    v = np.fromiter((b for _, b in edges), np.int64, len(edges))
    for (a, b), w in zip(edges, _pair_weights(u, v, n)):
        G._adj[a][b]["weight"] = w
    return G


def roads(data_dir, *, directed=False):
    """The DIMACS NY road network as a networkx (Di)Graph with travel times as ``weight``."""
    import networkx as nx

    import semiring as sr

    A = sr.io.read(os.path.join(data_dir, "roads", "USA-road-t.NY.gr.gz"))
    return nx.from_scipy_sparse_array(A.to_scipy(), create_using=nx.DiGraph if directed else nx.Graph,
                                      edge_attribute="weight")


def grid(k):
    import networkx as nx

    G = nx.convert_node_labels_to_integers(nx.grid_2d_graph(k, k))
    for u, v, d in G.edges(data=True):
        d["weight"] = 1 + (u * 31 + v * 17) % 9
    return G


def graph_specs(size, data_dir):
    """name -> (maker of the undirected graph, maker of the directed one, about)."""
    if size == "tiny":
        return {"gnm-100k": (lambda: gnm(20_000, 100_000), lambda: gnm(20_000, 100_000, directed=True),
                             "nx.gnm_random_graph(20_000, 100_000, seed=0), weight 1..255"),
                "grid-100": (lambda: grid(100), lambda: grid(100).to_directed(), "100 x 100 grid, weight 1..9")}
    return {"gnm-1M": (lambda: gnm(200_000, 1_000_000), lambda: gnm(200_000, 1_000_000, directed=True),
                       "nx.gnm_random_graph(200_000, 1_000_000, seed=0), weight 1..255 (hash of the pair)"),
            "NY roads": (lambda: roads(data_dir), lambda: roads(data_dir, directed=True),
                         "../shared/data/roads/USA-road-t.NY.gr.gz as a networkx Graph, travel times as weight")}


# -- checks -----------------------------------------------------------------------------------------------
def equal(got, want, G=None):
    if got != want:
        raise Invalid(_first_difference(got, want))


def _first_difference(got, want):
    if isinstance(got, dict) and isinstance(want, dict):
        if got.keys() != want.keys():
            return f"keys differ ({len(got)} against {len(want)})"
        k = next(k for k in want if got[k] != want[k])
        return f"at {k!r}: {got[k]!r}, networkx {want[k]!r}"
    if isinstance(got, list) and isinstance(want, list) and len(got) == len(want):
        i = next(i for i, (a, b) in enumerate(zip(got, want)) if a != b)
        return f"item {i}: {got[i]!r}, networkx {want[i]!r}"
    return f"{str(got)[:80]}, networkx {str(want)[:80]}"


def close(tol=1e-6):
    def check(got, want, G=None):
        if got.keys() != want.keys():
            raise Invalid(f"keys differ ({len(got)} against {len(want)})")
        worst = max((abs(got[k] - want[k]) for k in want), default=0.0)
        if not worst <= tol:
            raise Invalid(f"largest difference {worst:.3g} > {tol}")
    return check


def same_parts(got, want, G=None):
    a, b = {frozenset(p) for p in got}, {frozenset(p) for p in want}
    if a != b:
        raise Invalid(f"{len(a)} parts, networkx {len(b)}; {len(a ^ b)} differ")


def same_edges(got, want, G=None):
    def edges(H):
        return {(frozenset((u, v)) if not H.is_directed() else (u, v)): d for u, v, d in H.edges(data=True)}
    if set(got) != set(want) or edges(got) != edges(want):
        raise Invalid(f"{got.number_of_edges()} edges, networkx {want.number_of_edges()}; edge sets differ")


def independent_and_maximal(got, want, G):
    s = set(got)
    if any(v in s for u in s for v in G[u] if v != u):
        raise Invalid("two nodes of the set are adjacent")
    if any(not any(v in s for v in G[u]) for u in G if u not in s):
        raise Invalid("a node outside the set has no neighbour in it: not maximal")


def partition_modularity(slack=0.02):
    """A partition of the nodes whose modularity is within ``slack`` of networkx's."""
    def check(got, want, G):
        import networkx as nx

        nodes = [v for p in got for v in p]
        if len(nodes) != len(set(nodes)) or set(nodes) != set(G):
            raise Invalid("not a partition of the nodes")
        q, qn = (nx.community.modularity(G, p, backend="networkx") for p in (got, want))
        if q < qn - slack:
            raise Invalid(f"modularity {q:.4f}, networkx {qn:.4f}")
    return check


def bisection(got, want, G):
    a, b = got
    if a & b or (a | b) != set(G) or abs(len(a) - len(b)) > 1:
        raise Invalid("not a balanced bisection of the nodes")


# -- the call specs ---------------------------------------------------------------------------------------
@dataclass
class Picks:
    """Nodes a call needs: a source with edges, a target reached from it, a few pairs."""
    source: object
    target: object
    pairs: list = field(default_factory=list)
    nodes: list = field(default_factory=list)
    widest: int = 0


def picks(G):
    """A deterministic source of largest degree, the node farthest from it by BFS (a reachable
    target), that BFS's widest level, 100 node pairs and 100 nodes (every 1000th node or so)."""
    import networkx as nx

    source = max(G, key=G.degree)  # the first node of largest degree
    layers = list(nx.bfs_layers(G, source, backend="networkx"))
    target = layers[-1][0]
    nodes = list(G)
    step = max(1, len(nodes) // 100)
    some = nodes[::step][:100]
    pairs = list(zip(some, reversed(some)))
    widest = max(range(len(layers)), key=lambda i: len(layers[i]))
    return Picks(source, target, pairs, some, widest)


@dataclass
class Spec:
    """How to call one function and check it.

    call : (G, picks) -> (args, kwargs)  (G excluded from args: it is passed first)
    consume : result -> a value to compare (generators and iterators are consumed here, inside the timing)
    check : (got, want, G) -> None, raising Invalid
    directed : the function needs a directed graph
    budget_s : seconds a networkx call may take
    valid_alone : the check needs no networkx result (it is run even when networkx ran past its budget)
    """
    call: Callable = lambda G, p: ((), {})
    consume: Callable = lambda r: r
    check: Callable = equal
    directed: bool = False
    budget_s: float = NX_BUDGET_S
    valid_alone: bool = False
    note: str = ""


def _source(G, p):
    return (p.source,), {}


def _source_target(G, p):
    return (p.source, p.target), {}


def _first(k):
    return lambda it: list(itertools.islice(it, k))


#: dispatch name -> Spec; a function without one is listed as "not timed" with this table's reason.
SPECS = {
    # traversal
    "bfs_edges": Spec(_source, list),
    "bfs_tree": Spec(_source, check=same_edges),
    "bfs_layers": Spec(_source, list),
    "bfs_predecessors": Spec(_source, list),
    "bfs_successors": Spec(_source, list),
    "descendants_at_distance": Spec(lambda G, p: ((p.source, p.widest), {}), note="the BFS's widest level"),
    "descendants": Spec(_source),
    "ancestors": Spec(_source),
    "has_path": Spec(_source_target),
    "node_connected_component": Spec(_source),
    # unweighted shortest paths
    "single_source_shortest_path_length": Spec(_source),
    "single_source_shortest_path": Spec(_source),
    "shortest_path_length": Spec(lambda G, p: ((), {"source": p.source})),
    "shortest_path": Spec(lambda G, p: ((), {"source": p.source, "target": p.target})),
    "bidirectional_shortest_path": Spec(_source_target),
    "all_pairs_shortest_path_length": Spec(consume=_first(3), note="the first 3 sources"),
    # weighted shortest paths
    "single_source_dijkstra_path_length": Spec(_source),
    "single_source_dijkstra_path": Spec(_source),
    "single_source_dijkstra": Spec(_source),
    "dijkstra_path_length": Spec(_source_target),
    "dijkstra_path": Spec(_source_target),
    "multi_source_dijkstra_path_length": Spec(lambda G, p: ((set(p.nodes[:10]),), {})),
    "bellman_ford_path_length": Spec(_source_target),
    "all_pairs_dijkstra_path_length": Spec(consume=_first(3), note="the first 3 sources"),
    # components
    "connected_components": Spec(consume=list, check=same_parts),
    "number_connected_components": Spec(),
    "is_connected": Spec(),
    "weakly_connected_components": Spec(consume=list, check=same_parts, directed=True),
    "number_weakly_connected_components": Spec(directed=True),
    "is_weakly_connected": Spec(directed=True),
    "strongly_connected_components": Spec(consume=list, check=same_parts, directed=True),
    "number_strongly_connected_components": Spec(directed=True),
    "is_strongly_connected": Spec(directed=True),
    "articulation_points": Spec(consume=set),
    "bridges": Spec(consume=lambda it: {frozenset(e) for e in it}),
    "biconnected_components": Spec(consume=list, check=same_parts),
    "isolates": Spec(consume=list),
    # link analysis and centrality
    "pagerank": Spec(check=close(1e-6)),
    "hits": Spec(consume=lambda r: {**{("h", k): v for k, v in r[0].items()}, **{("a", k): v for k, v in r[1].items()}},
                 check=close(1e-6)),
    "eigenvector_centrality": Spec(lambda G, p: ((), {"max_iter": 1000}), check=close(1e-6)),
    "katz_centrality": Spec(lambda G, p: ((), {"alpha": 0.01}), check=close(1e-6)),
    "degree_centrality": Spec(check=close(1e-12)),
    "betweenness_centrality": Spec(lambda G, p: ((), {"k": 8, "seed": 0}), check=close(1e-9),
                                   note="k=8 sampled sources, seed 0"),
    "edge_betweenness_centrality": Spec(lambda G, p: ((), {"k": 8, "seed": 0}), check=close(1e-9),
                                        note="k=8 sampled sources, seed 0"),
    "closeness_centrality": Spec(lambda G, p: ((), {"u": p.source}), note="one node (u=source)"),
    "harmonic_centrality": Spec(lambda G, p: ((), {"nbunch": p.nodes[:4]}), check=close(1e-9),
                                note="4 nodes (nbunch)"),
    # clustering, cores, link prediction
    "triangles": Spec(),
    "clustering": Spec(check=close(1e-12)),
    "average_clustering": Spec(check=lambda a, b, G: close(1e-12)({0: a}, {0: b})),
    "transitivity": Spec(check=lambda a, b, G: close(1e-12)({0: a}, {0: b})),
    "square_clustering": Spec(lambda G, p: ((), {"nodes": p.nodes[:20]}), check=close(1e-12), note="20 nodes"),
    "core_number": Spec(),
    "k_core": Spec(check=same_edges),
    "jaccard_coefficient": Spec(lambda G, p: ((), {"ebunch": p.pairs}), consume=list),
    "adamic_adar_index": Spec(lambda G, p: ((), {"ebunch": p.pairs}), consume=list),
    "resource_allocation_index": Spec(lambda G, p: ((), {"ebunch": p.pairs}), consume=list),
    "common_neighbors": Spec(lambda G, p: ((p.pairs[0][0], p.pairs[0][1]), {}), consume=sorted),
    # others
    "greedy_color": Spec(),
    "maximal_independent_set": Spec(lambda G, p: ((), {"seed": 0}), check=independent_and_maximal, valid_alone=True,
                                    note="valid and maximal (another random stream than networkx's)"),
    "minimum_spanning_tree": Spec(check=same_edges),
    "louvain_communities": Spec(lambda G, p: ((), {"seed": 0}), check=partition_modularity(), budget_s=300.0,
                                note="a partition whose modularity is within 0.02 of networkx's"),
    "label_propagation_communities": Spec(consume=list, check=same_parts),
    "modularity": Spec(lambda G, p: (([set(G)],), {}), check=lambda a, b, G: close(1e-9)({0: a}, {0: b}),
                       note="one community of every node"),
    "kernighan_lin_bisection": Spec(lambda G, p: ((), {"seed": 0}), check=bisection, valid_alone=True,
                                    note="a balanced bisection (another random stream than networkx's)"),
    "is_bipartite": Spec(),
    "reciprocity": Spec(lambda G, p: ((), {"nodes": None}), directed=True,
                        check=lambda a, b, G: close(1e-12)({0: a}, {0: b})),
}

#: functions with no input graph (generators) or an O(n^2) answer: not timed, with why
NOT_TIMED = {
    "floyd_warshall": "its answer holds n^2 distances (7 * 10^10 on NY roads)",
    "all_pairs_shortest_path": "its answer holds n^2 paths",
}


def public(name):
    """networkx's public function of a dispatch name (with its decorators: random states, checks),
    not the bare dispatcher."""
    import importlib

    import networkx as nx

    f = getattr(nx, name, None)
    if f is None:
        dispatcher = nx.utils.backends._registered_algorithms[name]
        f = getattr(importlib.import_module(dispatcher.orig_func.__module__), name)
    return f


def _why_untimed(name, dispatcher):
    if name in NOT_TIMED:
        return NOT_TIMED[name]
    if not dispatcher.graphs:
        return "a generator (no input graph)"
    return "no call spec in benchmarks.nx_backend.SPECS"


# -- timing ----------------------------------------------------------------------------------------------
def _alarm(seconds):
    def raise_over(signum, frame):
        raise OverBudget

    old = signal.signal(signal.SIGALRM, raise_over)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    return old


def _disarm(old):
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, old)


def timed(fn, budget_s=None):
    """(seconds, value) of ``fn()``; OverBudget when it runs past ``budget_s`` (a SIGALRM timer,
    which interrupts Python code between bytecodes)."""
    old = _alarm(budget_s) if budget_s else None
    try:
        t = time.perf_counter()
        out = fn()
        return time.perf_counter() - t, out
    finally:
        if old is not None:
            _disarm(old)


def conversion_rows(name, G):
    """Seconds per million edges of each conversion of G (median of CONVERSION_REPEAT)."""
    import networkx as nx

    from semiring.nx import from_networkx

    m = G.number_of_edges()
    ways = {
        "semiring pattern": lambda: from_networkx(G, device="cpu"),
        "semiring weighted": lambda: from_networkx(G, weights=["weight"], device="cpu"),
        "networkx to_scipy_sparse_array pattern": lambda: nx.to_scipy_sparse_array(G, weight=None,
                                                                                    backend="networkx"),
        "networkx to_scipy_sparse_array weighted": lambda: nx.to_scipy_sparse_array(G, weight="weight",
                                                                                     backend="networkx"),
    }
    rows = []
    for way, fn in ways.items():
        secs = [timed(fn)[0] for _ in range(CONVERSION_REPEAT)]
        rows.append({"table": "conversion", "kernel": "conversion", "graph": name, "system": way, "edges": m,
                     "seconds": median(secs), "runs_s": secs, "s_per_million_edges": median(secs) / (m / 1e6),
                     "status": "ok", "validated": True})
    return rows


def function_row(name, graph, G, P, spec, function):
    """Time ``name`` on G with networkx and the backend (first call and warm); check the results."""
    args, kwargs = spec.call(G, P)
    row = {"table": "functions", "function": name, "kernel": name, "system": "semiring", "graph": graph,
           "status": "ok", "note": spec.note}

    def call(backend):
        return spec.consume(function(G, *args, backend=backend, **kwargs))

    # networkx: up to REPEAT calls while one takes less than REPEAT_BELOW_S
    nx_s, want = [], None
    try:
        for _ in range(REPEAT):
            s, want = timed(lambda: call("networkx"), spec.budget_s)
            nx_s.append(s)
            if s > REPEAT_BELOW_S:
                break
    except OverBudget:
        nx_s, want = None, None
        row["note"] = "; ".join(x for x in (row["note"], f"networkx past its {spec.budget_s:.0f} s budget") if x)
    # the backend's first call: the graph's cache cleared, so the conversion is in the time
    try:
        G.__networkx_cache__.clear()
        first_s, got = timed(lambda: call("semiring"))
        warm = []
        for _ in range(REPEAT):
            s, got = timed(lambda: call("semiring"))
            warm.append(s)
            if s > REPEAT_BELOW_S:
                break
    except NotImplementedError as exc:
        row.update(status="declined", note=str(exc)[:300], nx_s=median(nx_s) if nx_s else None)
        return row
    except Exception as exc:  # noqa: BLE001 - a benchmark reports what went wrong
        row.update(status="error", note=f"{type(exc).__name__}: {exc}"[:300])
        return row
    row.update(nx_s=median(nx_s) if nx_s else None, nx_runs_s=nx_s, first_s=first_s, warm_s=median(warm),
               warm_runs_s=warm)
    try:
        if want is not None:
            spec.check(got, want, G)
            row["validated"] = True
        elif spec.valid_alone:
            spec.check(got, None, G)
            row["validated"] = True
        else:
            row.update(validated=False, status="not checked")
    except Invalid as exc:
        row.update(validated=False, status="validation failed", note=str(exc)[:300])
    if row.get("nx_s"):
        row["speedup_first"] = row["nx_s"] / first_s
        row["speedup_warm"] = row["nx_s"] / row["warm_s"]
    return row


def run(size, ctx, deadline, progress):
    """The conversion table and the function table. Returns (graphs_info, rows, notes)."""
    import networkx as nx

    from semiring.nx.backend import FUNCTIONS

    registered = nx.utils.backends._registered_algorithms
    info, rows, notes = [], [], []
    specs = graph_specs(size, ctx.data_dir)
    names = sorted(FUNCTIONS)
    for name in names:
        if name not in SPECS:
            rows.append({"table": "functions", "function": name, "kernel": name, "system": "semiring", "graph": "—",
                         "status": "not timed", "note": _why_untimed(name, registered[name])})
    directed_needed = any(SPECS[n].directed for n in names if n in SPECS)
    for graph, (make, make_directed, about) in specs.items():
        for directed in (False, True):
            if directed and not directed_needed:
                continue
            label = graph + (" (directed)" if directed else "")
            try:
                t = time.perf_counter()
                G = (make_directed if directed else make)()
                build_s = time.perf_counter() - t
            except FileNotFoundError as exc:
                notes.append(f"{label}: skipped, {exc}")
                continue
            info.append({"name": label, "about": about + (" (directed)" if directed else ""),
                         "n": G.number_of_nodes(), "nvals": G.number_of_edges(), "kind": "directed" if directed
                         else "undirected", "load_s": build_s})
            if not directed:
                rows += conversion_rows(label, G)
                progress.step(f"{label}: conversion")
            P = picks(G)
            for name in names:
                spec = SPECS.get(name)
                if spec is None or spec.directed != directed:
                    continue
                if deadline.left() <= 0:
                    rows.append({"table": "functions", "function": name, "graph": label, "status": "skipped",
                                 "note": "suite time budget spent"})
                    continue
                rows.append(function_row(name, label, G, P, spec, public(name)))
                progress.step(f"{label} {name}: {rows[-1]['status']}")
            del G
    notes.append("first call: networkx's cache on the graph cleared before the call, so the conversion is "
                 "timed with it; warm: the same call again, the converted graph taken from networkx's cache")
    notes.append(f"networkx runs at most {REPEAT} times, the backend once cold and at most {REPEAT} times warm "
                 f"(each once a call takes over {REPEAT_BELOW_S:.0f} s); medians")
    return info, rows, notes


#: the method paragraph of the report
METHOD = ("Method: wall-clock seconds (time.perf_counter) of the whole call as a user makes it, through "
          "networkx's dispatcher (backend=\"networkx\" or backend=\"semiring\"), results consumed inside the "
          "timing (generators listed); medians. Conversions: semiring.nx.from_networkx (what the dispatcher's "
          "convert_from_nx runs) pattern-only and with the weight attribute, and networkx's own "
          "to_scipy_sparse_array as a yardstick; seconds per million edges as networkx counts them. Every "
          "backend result is checked against networkx's answer (see the valid column).")


# -- tables ----------------------------------------------------------------------------------------------
def _s(x):
    if x is None:
        return "—"
    return f"{x:.3f}" if x < 10 else f"{x:.1f}"


def _x(x):
    return "—" if x is None else f"{x:.2f}x"


def table(rows):
    """Markdown lines: the conversion table, then the function table."""
    conv = [r for r in rows if r["table"] == "conversion"]
    out = ["", "## Conversion: networkx graph to the engine, seconds per million edges (median)", "",
           "| graph | edges | way | seconds | s per million edges |", "|---|---|---|---|---|"]
    out += [f"| {r['graph']} | {r['edges']:,} | {r['system']} | {_s(r['seconds'])} | {r['s_per_million_edges']:.3f} |"
            for r in conv]
    fun = [r for r in rows if r["table"] == "functions"]
    out += ["", "## Functions: networkx against the backend (median seconds)", "",
            "first: the backend's call with the conversion; warm: the converted graph from networkx's cache. "
            "Speedups are networkx's time over the backend's.", "",
            "| function | graph | networkx s | first s | warm s | first speedup | warm speedup | valid | note |",
            "|---|---|---|---|---|---|---|---|---|"]
    for r in sorted(fun, key=lambda r: (r["status"] == "not timed", r["function"], r["graph"])):
        valid = "yes" if r.get("validated") else ("—" if r["status"] in ("not timed", "skipped", "declined")
                                                   else "**NO**")
        nx_cell = _s(r.get("nx_s")) if r.get("nx_s") is not None else ("> budget" if r.get("first_s") else "—")
        status = "" if r["status"] == "ok" else r["status"]
        note = "; ".join(x for x in (status, r.get("note") or "") if x).replace("|", "/").replace("\n", " ")
        out.append(f"| {r['function']} | {r['graph']} | {nx_cell} | {_s(r.get('first_s'))} | {_s(r.get('warm_s'))} | "
                   f"{_x(r.get('speedup_first'))} | {_x(r.get('speedup_warm'))} | {valid} | {note} |")
    return out


def summary(rows):
    fun = [r for r in rows if r["table"] == "functions" and r.get("speedup_warm")]
    slower = sorted(f"{r['function']} ({r['graph']})" for r in fun if r["speedup_warm"] < 1)
    return (f"{len(fun)} function rows timed, warm slower than networkx: {', '.join(slower) or 'none'}; "
            f"{sum(1 for r in rows if r['status'] == 'not timed')} functions not timed")


__all__ = ["run", "table", "summary", "SPECS", "METHOD", "conversion_rows", "function_row", "gnm", "roads"]
