"""The strategies suite: vertex-centric versus edge-centric BFS, and the named BFS strategies,
by graph size.

A reference measurement (:data:`REFERENCE_MS`) timed a vertex-centric (CSR) and an edge-centric
(COO) BFS on graphs of 100 to 100,000 vertices. Here: uniform random
graphs (Erdos-Renyi-like: 4n random vertex pairs made symmetric, so average degree about 8,
self-loops and repeats dropped, seed 0) of 10^2 .. 10^7 vertices on the GPU and 10^2 .. 10^6 on
the CPU (10^2 .. 10^4 with ``--size tiny``); per size the median time of semiring's push
(vertex-centric, top-down), pull (vertex-centric, bottom-up), edge (edge-centric) and auto
(direction-optimizing) BFS on each device, the fused GPU engine, scipy and cupyx as plain
baselines, and which of push / pull / edge wins.

A second table compares the named BFS strategies (``bfs(..., strategy=name)``: vertex-
centric push without a frontier, pull, edge-centric, atomic and privatized frontier queues,
the single-block multi-level kernel, degree buckets, node splitting) on each device, over the
same graphs and roots, each validated like the rows above, with the winner per size and the
kernel launches each needs.
"""

from __future__ import annotations

import semiring as sr
from semiring._bench.measure import System, label, run_system
from semiring._bench.runner import Limits, Suite
from semiring._bench.timing import graph500_roots
from semiring.algorithms.bfs import STRATEGIES

from ..harness import graphs
from .kernels import bfs, report

#: The reference numbers (ms): vertices -> (vertex-centric CPU, GPU, optimized GPU,
#: edge-centric CPU, GPU, optimized GPU). Their graphs and hardware are not known.
REFERENCE_MS = {100: (0.08, 0.51, 0.99, 0.085, 5.27, 7.28),
              1000: (0.35, 0.56, 2.1, 5.035, 39.13, 12.54),
              10000: (2.89, 1.93, 1.07, 417.35, 415.42, 52.6),
              50000: (6.88, 3.38, 2.88, 12551.444, 5524.69, 775.56),
              100000: (30.24, 12.49, 10.53, 24682.96, 6964.81, 1551.61)}

#: Columns of the table: (label, device, system, engine, direction).
COLUMNS = [(f"{dev.upper()} {d}", dev, f"semiring {dev}", "algebra", d)
           for dev in ("cpu", "gpu") for d in ("push", "pull", "edge", "auto")]
COLUMNS.insert(4, ("scipy", "cpu", "scipy.sparse.csgraph.breadth_first_order", None, None))
COLUMNS += [("GPU fused", "gpu", "semiring gpu", "fused", "auto"),
            ("cupyx", "gpu", "cupyx SpMV (float32, level-synchronous)", None, None)]


#: Columns of the strategy table: (label, device, system, engine, direction).
STRATEGY_COLUMNS = [(f"{dev.upper()} {s}", dev, f"semiring {dev}", f"strategy:{s}", None)
                    for dev in ("cpu", "gpu") for s in STRATEGIES]


def strategy_systems(g, systems):
    """The strategy rows of graph ``g``: on each device where semiring's algebra rows run, one
    System per strategy with the same check (levels against the reference), metrics and roots."""
    out = []
    for dev in ("gpu", "cpu"):
        base = next((s for s in systems if s.device == dev and s.name == f"semiring {dev}" and s.engine == "algebra"),
                    None)
        if base is None:
            continue
        G = g.G if g.A.device == dev else sr.algorithms.Graph(g.host(), "undirected" if g.undirected else "directed")
        for name in STRATEGIES:
            out.append(System("bfs", base.name, dev, lambda r, G=G, name=name: sr.algorithms.bfs(G, r, strategy=name),
                              base.check, base.metrics, base.roots, f"strategy:{name}", None))
    return out


def sizes(size, gpu):
    """(log10 sizes of the table, largest log10 size the CPU runs)."""
    if size == "tiny":
        return list(range(2, 5)), 4
    return list(range(2, 8 if gpu else 7)), 6


def run(ctx):
    """Run the suite; returns its graphs, rows and notes."""
    gpu, deadline, progress = ctx.cp is not None, ctx.deadline, ctx.progress
    logs, cpu_max = sizes(ctx.size, gpu)
    rows, notes, info = [], [], []
    for k in logs:
        g = graphs.load(graphs.uniform(k), "gpu" if gpu else "cpu", ctx.data_dir)
        info.append(g.describe())
        roots = graph500_roots(g.degree, max(ctx.roots_main, ctx.roots_peers), seed=0)
        systems, edges_of, more = bfs.build(g, ctx, cpu_dirs=("push", "pull", "edge", "auto"), peers_on=False,
                                            host=k <= cpu_max)
        notes.extend(n for n in more if n not in notes)
        systems = [s for s in systems if not (s.engine == "fused" and s.direction != "auto")]
        systems += strategy_systems(g, systems)
        for s in systems:
            if deadline.left() <= 0 and s.engine != "fused":
                continue
            row = run_system(s, g.case.name, roots, ctx.timers[s.device], edges_of=edges_of,
                             budget_s=min(ctx.budget_s, max(deadline.left(), 1.0)),
                             warmup=ctx.cpu_warmup, same_roots=ctx.roots_peers)
            row["n"] = g.n
            rows.append(row)
            progress.step(f"{g.case.name} {label(s)}: {row['status']}")
        del g
    if not gpu:
        notes.append("no GPU here: the GPU columns are empty")
    return {"graphs": info, "rows": rows, "notes": notes}


def _ms(r):
    """Median over the roots every column ran (``ms_median_same_roots`` where a row ran more)."""
    return r.get("ms_median_same_roots", r.get("ms_median"))


def _cell(r):
    if r is None:
        return "—"
    if r.get("validated") and _ms(r) is not None:
        return f"{_ms(r):.3f}" if _ms(r) < 10 else f"{_ms(r):.1f}"
    return "n/a" if r["status"] == "not available" else f"**{r['status']}**"


def _winner(cells, labels):
    timed = [(_ms(r), lab) for r, lab in zip(cells, labels) if r and r.get("validated") and _ms(r) is not None]
    return min(timed)[1].split()[-1] if timed else "—"


def _launches(cells):
    """Median launches per search of a strategy (the same count on CPU and GPU: the CPU
    formulation counts the launches its GPU version makes)."""
    for r in cells:
        if r and isinstance(r.get("launches"), (int, float)):
            return f"{r['launches']:.0f}"
    return "—"


def strategy_table(rows):
    """Markdown lines: the strategies' median ms per size and device, the winners, the launches."""
    by = {}
    for r in rows:
        by.setdefault(r["graph"], {})[(r["device"], r["system"], r.get("engine"), r.get("direction"))] = r
    k = len(STRATEGIES)
    head = ["graph", "n", "levels"] + [c[0] for c in STRATEGY_COLUMNS] + ["CPU winner", "GPU winner"]
    out = ["", "## Named BFS strategies (`bfs(strategy=...)`), median ms over the same roots", "",
           "| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    launch_lines = []
    for graph, cells in by.items():
        got = [cells.get(c[1:]) for c in STRATEGY_COLUMNS]
        if not any(got):
            continue
        levels = next((r.get("levels") for r in got if r and isinstance(r.get("levels"), (int, float))), None)
        n = next(r.get("n", 0) for r in got if r is not None)
        line = [graph, f"{n:,}", "—" if levels is None else f"{levels:.0f}"] + [_cell(r) for r in got]
        line += [_winner(got[:k], [c[0] for c in STRATEGY_COLUMNS[:k]]),
                 _winner(got[k:], [c[0] for c in STRATEGY_COLUMNS[k:]])]
        out.append("| " + " | ".join(line) + " |")
        launch_lines.append("| " + " | ".join([graph, "—" if levels is None else f"{levels:.0f}"]
                                              + [_launches((got[i], got[k + i])) for i in range(k)]) + " |")
    if len(out) == 5:
        return []
    out += ["", "Kernel launches per search (median over roots; a CPU row counts the launches its GPU version "
            "makes: one per level, three per level for node_split, fewer for single_block):", "",
            "| graph | levels | " + " | ".join(STRATEGIES) + " |", "|" + "|".join("---" for _ in range(k + 2)) + "|"]
    return out + launch_lines


def table(rows):
    """Markdown lines: the comparison table (one line per size) and the reference numbers."""
    by = {}
    for r in rows:
        by.setdefault(r["graph"], {})[(r["device"], r["system"], r.get("engine"), r.get("direction"))] = r
    head = ["graph", "n", "levels"] + [c[0] for c in COLUMNS] + ["CPU winner", "GPU winner"]
    out = ["", "## Vertex-centric (push, pull) vs edge-centric (edge) BFS, median ms over the same roots", "",
           "| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    for graph, cells in by.items():
        got = [cells.get(c[1:]) for c in COLUMNS]
        any_row = next(r for r in got if r is not None)
        levels = next((r.get("levels") for r in got if r and isinstance(r.get("levels"), (int, float))), None)
        line = [graph, f"{any_row.get('n', 0):,}", "—" if levels is None else f"{levels:.0f}"]
        line += [_cell(r) for r in got]
        line += [_winner(got[0:3], [c[0] for c in COLUMNS[0:3]]), _winner(got[5:8], [c[0] for c in COLUMNS[5:8]])]
        out.append("| " + " | ".join(line) + " |")
    out += ["", "Reference numbers (ms; their graphs, edge counts and hardware are not known, so compare "
            "trends, not values):", "",
            "| vertices | vertex-centric CPU | GPU | optimized GPU | edge-centric CPU | GPU | optimized GPU |",
            "|---|---|---|---|---|---|---|"]
    out += [f"| {n:,} | " + " | ".join(str(x) for x in v) + " |" for n, v in REFERENCE_MS.items()]
    return out + strategy_table(rows)


SUITE = Suite("strategies", "vertex-centric (push, pull) versus edge-centric BFS and the named BFS strategies, "
              "by graph size, on the CPU and the GPU", run, tables=lambda doc: table(doc["rows"]),
              method=report.method, limits={"full": Limits(16, 8, 20.0, 540.0)}, device="auto")
