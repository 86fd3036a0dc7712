"""The networkx suite: the networkx backend against networkx itself (``python -m benchmarks run --suite
networkx``).

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

Modules: :mod:`.graphs`, :mod:`.checks`, :mod:`.specs` (the call specs), :mod:`.measure` (the
timing of a conversion and of a function), :mod:`.report` (the tables).
"""

from __future__ import annotations

import time

from semiring._bench.runner import Limits, Suite

from . import report
from .graphs import _kind, dag, gnm, graph_specs, roads
from .measure import NX_BUDGET_S, REPEAT, REPEAT_BELOW_S, conversion_rows, function_row
from .specs import SPECS, _why_untimed, picks, public


def run(ctx):
    """The conversion table and the function table. Returns the graphs, rows and notes."""
    import networkx as nx

    from semiring.nx.backend import FUNCTIONS

    size, deadline, progress = ctx.size, ctx.deadline, ctx.progress
    registered = nx.utils.backends._registered_algorithms
    info, rows, notes = [], [], []
    specs = graph_specs(size, ctx.data_dir)
    picked = getattr(ctx.options, "graphs", None)
    if picked:
        specs = {g: spec for g, spec in specs.items() if g in picked}
    names = sorted(FUNCTIONS)
    for name in names:
        if name not in SPECS:
            rows.append({"table": "functions", "function": name, "kernel": name, "system": "semiring", "graph": "—",
                         "status": "not timed", "note": _why_untimed(name, registered[name])})
    kinds = [k for k in ("undirected", "directed", "dag") if any(_kind(SPECS[n]) == k for n in names if n in SPECS)]
    for graph, (make, make_directed, about) in specs.items():
        for kind in kinds:
            label = graph + ("" if kind == "undirected" else f" ({kind if kind == 'directed' else 'DAG'})")
            try:
                t = time.perf_counter()
                G = make() if kind == "undirected" else make_directed()
                if kind == "dag":
                    G = dag(G)
                build_s = time.perf_counter() - t
            except FileNotFoundError as exc:
                notes.append(f"{label}: skipped, {exc}")
                continue
            info.append({"name": label, "about": about + {"undirected": "", "directed": " (directed)",
                                                           "dag": " (directed, the edges u -> v with u < v)"}[kind],
                         "n": G.number_of_nodes(), "nvals": G.number_of_edges(),
                         "kind": "undirected" if kind == "undirected" else "directed", "load_s": build_s})
            if kind == "undirected":
                rows += conversion_rows(label, G)
                progress.step(f"{label}: conversion")
            P = picks(G)
            for name in names:
                spec = SPECS.get(name)
                if spec is None or _kind(spec) != kind:
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
    return {"graphs": info, "rows": rows, "notes": notes}


#: the method paragraph of the report


METHOD = ("Method: wall-clock seconds (time.perf_counter) of the whole call as a user makes it, through "
          "networkx's dispatcher (backend=\"networkx\" or backend=\"semiring\"), results consumed inside the "
          "timing (generators listed); medians. Conversions: semiring.nx.from_networkx (what the dispatcher's "
          "convert_from_nx runs) pattern-only and with the weight attribute, and networkx's own "
          "to_scipy_sparse_array as a yardstick; seconds per million edges as networkx counts them. Every "
          "backend result is checked against networkx's answer (see the valid column).")


SUITE = Suite("networkx", "the networkx backend against networkx itself, and the conversion of a networkx graph",
              run, tables=lambda doc: report.table(doc["rows"]), method=METHOD,
              limits={"full": Limits(1, 1, NX_BUDGET_S, 5400.0), "tiny": Limits(1, 1, 30.0, 900.0)},
              summary=lambda doc: report.summary(doc["rows"]),
              graph_names=lambda size: list(graph_specs(size, None)))

__all__ = ["SUITE", "METHOD", "SPECS", "run", "gnm", "roads", "picks", "public", "conversion_rows", "function_row"]
