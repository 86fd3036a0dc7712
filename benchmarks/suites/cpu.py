"""The cpu suite: the per-root BFS, SSSP and coloring tables (semiring on the CPU beside
scipy.sparse.csgraph, python-graphblas and networkx), then the algorithm table
(:mod:`.cpu_table`: every graph algorithm of the CPU targets, semiring on both CPU backends
beside SciPy, python-graphblas written directly, graphblas-algorithms and networkx, interleaved).

``--algorithms NAME,...`` runs only those rows of the algorithm table, without the per-root
tables; ``--algorithms none`` runs the per-root tables alone.

Graphs (full): Graph500 Kronecker scale 16, 18 and 20, USA-road-t.NY, cnr-2000, a random
geometric graph of 2^17 vertices; the table's graphs are in :mod:`.cpu_table.graphs`.
"""

from __future__ import annotations

from semiring._bench.runner import Limits, Suite, option
from semiring._bench.timing import Deadline

from ..harness import graphs
from . import cpu_table, kernels
from .cpu_table import graphs as table_graphs
from .cpu_table import report as table_report
from .kernels import report, targets

#: Soft deadline (seconds) of the algorithm table: rows of graphs not started by then are skipped
#: with a note (a safety net: the full table takes about 15 minutes on 2 cores).
ALGORITHM_TABLE_S = {"full": 1800.0, "tiny": 60.0}


def cases(size):
    """The per-root graph cases at ``size``."""
    if size == "tiny":
        return kernels.tiny_cases()
    return [graphs.kron(16), graphs.kron(18), graphs.kron(20),
            graphs.data("USA-road-t.NY", "roads/USA-road-t.NY.gr.gz", ("bfs", "sssp"), None, weighted=True),
            graphs.data("cnr-2000", "web/cnr-2000.mtx.gz", ("bfs",), "directed"),
            graphs.rgg(17, ("coloring",))]


def run(ctx):
    """The per-root tables (unless ``--algorithms`` names rows), then the algorithm table (unless
    ``--algorithms none``)."""
    pick = ctx.options.algorithms
    out = {"graphs": [], "rows": [], "notes": []} if pick not in (None, "none") else kernels.run_suite(
        cases(ctx.size), ctx)
    if pick != "none":
        info, rows, notes = cpu_table.run(ctx.size, ctx.data_dir, Deadline(ALGORITHM_TABLE_S[ctx.size]), ctx.progress,
                                          None if pick is None else set(pick.split(",")), ctx.options.graphs)
        out["algorithms"] = {"graphs": info, "rows": rows, "notes": notes}
    return out


def tables(doc):
    out = report.kernel_tables(doc["rows"])
    t = doc.get("algorithms")
    return out + (table_report.tables(t["rows"], t["graphs"], t["notes"]) if t else [])


def _targets(doc):
    t = doc.get("algorithms")
    return (targets.cpu_targets(doc["rows"]) if doc["rows"] else []) + (table_report.targets(t["rows"]) if t else [])


def check(args, error):
    if args.algorithms is not None:
        unknown = set(args.algorithms.split(",")) - set(cpu_table.ALGORITHMS) - {"none"}
        if unknown:
            error(f"--algorithms: unknown {sorted(unknown)}; known: {', '.join(cpu_table.ALGORITHMS)}")


def graph_names(size):
    names = [c.name for c in cases(size)]
    return names + [s.name for s in table_graphs.specs(size).values() if s.name not in names]


SUITE = Suite(
    "cpu", "both CPU backends beside SciPy, python-graphblas, graphblas-algorithms and networkx", run,
    tables=tables, targets=_targets, method=report.method, limits={"full": Limits(64, 8, 60.0, 1800.0)},
    options=(option("--algorithms", default=None,
                    help="only these rows of the algorithm table (comma-separated: " + ",".join(cpu_table.ALGORITHMS)
                         + "), without the per-root BFS/SSSP/coloring tables; 'none': without the algorithm table"),),
    check=check, graph_names=graph_names,
    summary=lambda doc: table_report.summary(doc["algorithms"]["rows"]) if doc.get("algorithms") else "",
    failures=lambda doc: table_report.failures(doc["algorithms"]["rows"]) if doc.get("algorithms") else [])
