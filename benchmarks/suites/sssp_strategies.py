"""The sssp-strategies suite: the named SSSP strategies compared on semiring: topology-driven
versus data-driven Bellman-Ford, worklists with duplicates kept, filtered or hash-culled, or
built by prefix-sum compaction, and near-far (``sssp(..., strategy=name)``).

Graphs: the uniform random graphs of the strategies suite
(:func:`benchmarks.harness.graphs.uniform`, 10^2 .. 10^7 vertices on the GPU, 10^2 .. 10^6 on the
CPU (10^5 on a machine with a GPU, see :data:`GPU_HOST_MAX_LOG`), 10^2 .. 10^4 with ``--size
tiny``) with integer weights 1..255, one per undirected edge (both directions the same), drawn by
a seeded hash of the vertex pair (:func:`benchmarks.harness.graphs.pair_weights`). Per size: the
median time over the same roots of every strategy on each device, semiring's default SSSP
(delta-stepping; the fused kernel on the GPU) and scipy's Dijkstra as baselines, the winner per
device, and the work of a search per strategy (rounds, edges examined per stored entry, worklist
entries per vertex), so the gap between topology-driven and data-driven work shows. Every result
is checked against scipy's Dijkstra (graphs of up to :data:`DIJKSTRA_MAX` entries; beyond,
semiring's fused delta-stepping, itself checked on the device like ``check_sssp``).
"""

from __future__ import annotations

import numpy as np

import semiring as sr
from semiring._bench.measure import System, label, run_system, skipped
from semiring._bench.references import RefStore
from semiring._bench.runner import Limits, Suite
from semiring._bench.timing import graph500_roots, median
from semiring.algorithms.sssp import STRATEGIES
from semiring.testing.validate import ValidationError

from ..harness import graphs
from ..peers import host as peers
from ..peers.device import check_distances_device
from .kernels import report
from .strategies import sizes

#: Largest graph (stored entries) whose reference distances come from scipy's Dijkstra.
DIJKSTRA_MAX = 20_000_000
#: On a machine with a GPU the CPU rows stop at 10^GPU_HOST_MAX_LOG vertices, so that the full
#: suite fits in one 10-minute device command (a CPU-only run goes to 10^6).
GPU_HOST_MAX_LOG = 5

#: Columns of the time table: (label, device, engine); strategies, then the baselines.
COLUMNS = ([(f"CPU {s}", "cpu", f"strategy:{s}") for s in STRATEGIES] + [("CPU default", "cpu", "algebra"),
                                                                         ("scipy", "cpu", None)]
           + [(f"GPU {s}", "gpu", f"strategy:{s}") for s in STRATEGIES] + [("GPU default", "gpu", "fused")])


def _metrics(r):
    return {"rounds": r.rounds, "edges_inspected": getattr(r, "edges_examined", None),
            "worklist_entries": getattr(r, "worklist_entries", None), "launches": r.launches,
            "host_syncs": r.host_syncs, "engine_used": r.engine}


def build(g, ctx):
    """The systems of loaded graph ``g`` (weights ``g.W``) on its device: every strategy and
    semiring's default SSSP, and on the CPU scipy's Dijkstra. Returns (systems, notes)."""
    cp, notes = ctx.cp, []
    dev = g.W.device
    xp = cp if dev == "gpu" else np
    roots = ctx.roots_peers
    if g.W.nvals <= DIJKSTRA_MAX:
        ref = RefStore(lambda r: xp.asarray(peers.scipy_dijkstra(g.scipy(True), r)))
    else:
        def fused_reference(root):
            d = sr.algorithms.sssp(g.GW, root).distance.to_dense(np.inf).astype(np.float64)
            check_distances_device(cp, g.W, root, d)
            return d

        ref = RefStore(fused_reference)
        notes.append(f"{g.case.name}: GPU reference = semiring's default SSSP on the device, checked there like "
                     f"check_sssp (every edge relaxed, every distance attained), not scipy ({g.W.nvals:,} entries)")

    def compare(root, got):
        want = ref.get(root)
        got = cp.asarray(got) if dev == "gpu" else (got.get() if hasattr(got, "get") else np.asarray(got))
        got = got.astype(np.float64)
        if bool(xp.array_equal(got, want)):  # integer weights: distances are exact
            return {}
        v = int(xp.flatnonzero(got != want)[0])
        raise ValidationError(f"distance of vertex {v}: {float(got[v])}, reference {float(want[v])}")

    def check(root, r):
        return compare(root, r.distance.to_dense(np.inf))

    G = g.GW
    systems = []
    if dev == "cpu":
        S = g.scipy(True)

        def check_dijkstra(root, dist):
            ref.offer(root, dist)
            return compare(root, dist)

        systems.append(System("sssp", "scipy.sparse.csgraph.dijkstra", "cpu", lambda r: peers.scipy_dijkstra(S, r),
                              check_dijkstra, None, roots))
        systems.append(System("sssp", "semiring cpu", "cpu", lambda r: sr.algorithms.sssp(G, r, engine="algebra"),
                              check, _metrics, roots, "algebra", "delta_stepping"))
    else:
        systems.append(System("sssp", "semiring gpu", "gpu", lambda r: sr.algorithms.sssp(G, r, engine="fused"),
                              check, _metrics, roots, "fused", "delta_stepping", optional=True))
    for name in STRATEGIES:
        systems.append(System("sssp", f"semiring {dev}", dev,
                              lambda r, name=name: sr.algorithms.sssp(G, r, strategy=name),
                              check, _metrics, roots, f"strategy:{name}", None))
    return systems, notes


def run(ctx):
    """Run the suite: the GPU rows of every size first (where there is a GPU), then the CPU
    rows, so that slow host rows cannot eat the device rows' time. Returns its graphs, rows and
    notes."""
    gpu, deadline, progress = ctx.cp is not None, ctx.deadline, ctx.progress
    logs, cpu_max = sizes(ctx.size, gpu)
    if gpu:
        cpu_max = min(cpu_max, GPU_HOST_MAX_LOG)
    rows, notes, info, described = [], [], [], set()
    for dev in (("gpu", "cpu") if gpu else ("cpu",)):
        for k in logs:
            if dev == "cpu" and k > cpu_max:
                continue
            g = graphs.load(graphs.weighted_uniform(k), dev, ctx.data_dir)
            if k not in described:
                info.append(g.describe())
                described.add(k)
            roots = graph500_roots(g.degree, ctx.roots_peers, seed=0)
            systems, more = build(g, ctx)
            notes.extend(n for n in more if n not in notes)
            for s in systems:
                if deadline.left() <= 0 and s.engine != "fused":
                    row = skipped(s, g.case.name, "suite time budget spent")
                else:
                    row = run_system(s, g.case.name, roots, ctx.timers[s.device],
                                     budget_s=min(ctx.budget_s, max(deadline.left(), 1.0)), warmup=ctx.cpu_warmup)
                    we = [x.get("worklist_entries") for x in row["runs"]]
                    row["worklist_entries"] = median(we) if any(v is not None for v in we) else None
                row.update(n=g.n, nvals=int(g.W.nvals))
                rows.append(row)
                progress.step(f"{g.case.name} {label(s)}: {row['status']}")
            del g
            if ctx.cp is not None:
                ctx.cp.get_default_memory_pool().free_all_blocks()
    if not gpu:
        notes.append("no GPU here: the GPU columns are empty")
    notes.append("CPU strategies are NumPy formulations of the kernels' work organization (a round reads the "
                 "distances as they were when it began); GPU threads see each other's updates within a round, "
                 "so rounds and work differ a little between the devices")
    return {"graphs": info, "rows": rows, "notes": notes}


def _cell(r):
    if r is None:
        return "—"
    if r.get("validated") and r.get("ms_median") is not None:
        ms = r["ms_median"]
        return f"{ms:.3f}" if ms < 10 else f"{ms:.1f}"
    return "n/a" if r["status"] == "not available" else f"**{r['status']}**"


def _winner(cells, labels):
    timed = [(r["ms_median"], lab) for r, lab in zip(cells, labels)
             if r and r.get("validated") and r.get("ms_median") is not None]
    return min(timed)[1].split(" ", 1)[1] if timed else "—"


def _work(r):
    """"rounds / edges examined per entry / worklist entries per vertex" of a strategy row."""
    if not r or not r.get("validated") or not isinstance(r.get("rounds"), (int, float)):
        return "—"
    e = r.get("edges_inspected")
    w = r.get("worklist_entries")
    per_e = f"{e / r['nvals']:.2f}" if isinstance(e, (int, float)) and r.get("nvals") else "—"
    per_v = f"{w / r['n']:.2f}" if isinstance(w, (int, float)) and r.get("n") else "—"
    return f"{r['rounds']:.0f} / {per_e} / {per_v}"


def table(rows):
    """Markdown lines: median ms per size and column with the winners, then the work per search."""
    by = {}
    for r in rows:
        by.setdefault(r["graph"], {})[(r["device"], r.get("engine"))] = r
    head = ["graph", "n", "entries"] + [c[0] for c in COLUMNS] + ["CPU winner", "GPU winner"]
    out = ["", "## Named SSSP strategies (`sssp(strategy=...)`), median ms over the same roots", "",
           "Integer weights 1..255. CPU/GPU default: semiring's delta-stepping (algebra engine on the CPU, the fused "
           "kernel on the GPU). The winners are among the strategies of each device.", "",
           "| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    k = len(STRATEGIES)
    work = []
    for graph, cells in by.items():
        got = [cells.get((c[1], c[2])) for c in COLUMNS]
        any_row = next(r for r in got if r is not None)
        line = [graph, f"{any_row.get('n', 0):,}", f"{any_row.get('nvals', 0):,}"] + [_cell(r) for r in got]
        cpu_s, gpu_s = got[:k], got[k + 2:2 * k + 2]
        line += [_winner(cpu_s, [c[0] for c in COLUMNS[:k]]), _winner(gpu_s, [c[0] for c in COLUMNS[k + 2:2 * k + 2]])]
        out.append("| " + " | ".join(line) + " |")
        for dev, strat in (("CPU", cpu_s), ("GPU", gpu_s)):
            if any(strat):
                work.append("| " + " | ".join([graph, dev] + [_work(r) for r in strat]) + " |")
    out += ["", "Work per search (medians over roots): rounds / edges examined per stored entry / worklist "
            "entries per vertex (duplicates included; topology: every edge and vertex every round):", "",
            "| graph | device | " + " | ".join(STRATEGIES) + " |", "|" + "|".join("---" for _ in range(k + 2)) + "|"]
    return out + work


SUITE = Suite("sssp-strategies", "the named SSSP strategies (topology- and data-driven Bellman-Ford, worklists, "
              "near-far) by graph size, on the CPU and the GPU", run, tables=lambda doc: table(doc["rows"]),
              method=report.method, limits={"full": Limits(8, 8, 20.0, 540.0)}, device="auto")
