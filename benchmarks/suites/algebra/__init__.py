"""The algebra suite: what a user's algebra costs, one operation and one loop at a time.

Rows (each validated against an oracle computed without semiring's algebra, and never timed
on empty data):

1. masked ``vxm`` any_pair on Kronecker scale 10: a frontier of a few vertices, mask
   ``~visited.S`` with about half the vertices visited (oracle: SciPy rows of the frontier);
2. ``ewise_add`` with min of two vectors of size 1024, about 100 entries each (oracle: NumPy);
3. masked scalar ``assign`` ``level<q.S> = 3`` (oracle: NumPy);
4. the cost per operation inside a replayed recording (``sr.record``) of ten masked vxm /
   assign operations with ``out=`` given, beside the same body run eagerly;
5. the README's BFS loop, user code unchanged, eager (oracle: SciPy's BFS levels);
6. the same loop as a device loop, ``sr.while_nonempty(q, step)``;
7. ``bfs(G, s, engine="algebra")``, the fused engine, and a cupyx SpMV level-synchronous BFS;
8. algebra delta-stepping SSSP (oracle: SciPy's Dijkstra);
9. PageRank against a power iteration in cupyx (SciPy on the CPU), both checked against each
   other and against SciPy on the CPU (and networkx on small graphs);
10. ``bfs`` on a Matrix (second call) against ``bfs`` on a Graph;
11. masked ``mxm`` plus_times ``C<A.S> = A plus.times A`` on Kronecker scale 10 with float64
    weights (the masked dot-product method's case: every allowed entry computed, no other;
    oracle: SciPy's product restricted to A's pattern).

Times are the user's wall clock around the public call (``WallTimer``: the device is
synchronized before the start and before the stop), after a warm-up call, median over many
repeats; the arguments of a call that changes its inputs are rebuilt outside the timed region.
Each row also reports the device-to-host reads per operation (``sr.host_reads``) and, where the
GPU backend reports it, the graph nodes per operation. A row that needs an API this build does
not have is reported as skipped, with the reason.

Modules: :mod:`.rows` (the graphs in each role, :class:`.rows.Rows`, the shared checks),
:mod:`.operations` (rows 1-4 and 11), :mod:`.loops` (rows 5-10), :mod:`.report` (targets,
table, the closing summary).
"""

from __future__ import annotations

import traceback

import semiring as sr
from semiring._bench.runner import Limits, Suite
from semiring._bench.timing import graph500_roots

from . import loops, operations, report
from .rows import Rows

#: Seconds of the suite a graph needs left to be loaded (past it, its rows are skipped).
RESERVE_S = {"kron24": 90.0, "roads": 60.0}

#: The report's method paragraph.
METHOD = ("Method: the user's wall clock (time.perf_counter) around the public call, with the device synchronized "
          "before the start and before the stop; one untimed warm-up call per row; the median over the repeats "
          "(the repeats column; a row stops adding repeats after its time budget). Arguments of a call that changes "
          "its inputs (the BFS loops' level and q) are built outside the timed region. Per operation: the median "
          "divided by the operations in one call. Host reads / op: device-to-host reads counted by sr.host_reads "
          "over one more call, per operation; nodes / op: CUDA graph nodes per operation where the GPU backend "
          "reports them. Every row is validated against an oracle (SciPy, NumPy, networkx) on its first and last "
          "timed call; targets are GPU targets on the named graphs.")

LOOP_LIMITS = {"kron21": (2, 1), "roads": (120, 25)}


def run(ctx):
    """Run the algebra suite on ``ctx``'s device; returns its graphs, rows and notes."""
    r, size, device = Rows(ctx), ctx.size, ctx.device
    for slot in ["kron10", "kron21", "ny", "web", "roads", "kron24"]:
        if slot in RESERVE_S and size == "full" and ctx.deadline.left() < RESERVE_S[slot]:
            r.skip_all(slot, ["all rows"], f"suite time budget: less than {RESERVE_S[slot]:.0f} s left")
            continue
        try:
            g = r.load(slot)
        except Exception as exc:  # noqa: BLE001 - a graph that cannot be built is reported
            r.skip_all(slot, ["(build)"], f"{type(exc).__name__}: {exc}")
            r.rows[-1]["status"] = "error"
            continue
        if g is None:
            continue
        s = graph500_roots(g.degree, 1, seed=0)[0]
        try:
            if slot == "kron10":
                operations.single_operations(r, g)
            elif slot in ("kron21", "roads"):
                loops.readme_loops(r, g, slot, s, LOOP_LIMITS[slot])
                if slot == "kron21":
                    loops.whole_bfs(r, g, slot, s)
                    loops.matrix_vs_graph(r, g, slot, s)
            elif slot == "kron24":
                loops.whole_bfs(r, g, slot, s, big=device == "gpu" and size == "full")
            elif slot == "ny":
                loops.delta_stepping(r, g, slot, s)
            elif slot == "web":
                loops.pagerank(r, g, slot)
        except Exception as exc:  # noqa: BLE001 - a harness failure on one graph is reported
            r.rows.append({"kernel": "(setup)", "graph": g.case.name, "system": "(harness)", "row": "(setup)",
                           "device": device, "status": "error", "validated": False, "runs": [], "roots": 0,
                           "note": f"{type(exc).__name__}: {exc}", "traceback": traceback.format_exc(),
                           "slot": slot, "target": None, "us_per_op": None})
            ctx.progress.log(f"{g.case.name}: setup failed: {exc}")
        del g
        r.free()
    r.notes.append("times: the user's wall clock around the public call (device synchronized before the start "
                   "and the stop), after one warm-up call, median over the repeats (a row stops adding repeats "
                   f"after {r.budget:.0f} s)")
    if not hasattr(sr, "host_reads"):
        r.notes.append("sr.host_reads is not in this build: no host-read counts")
    if device != "gpu":
        r.notes.append("targets are for the GPU; on the CPU the rows give the per-operation costs (against "
                       "python-graphblas where installed)")
    return {"graphs": r.info, "rows": r.rows, "notes": r.notes}


SUITE = Suite("algebra", "the algebra itself: single operations, a replayed recording, loops written in the "
              "algebra, on the GPU where there is one", run, tables=lambda doc: report.table(doc["rows"]),
              targets=lambda doc: report.targets(doc["rows"]), method=METHOD,
              limits={"full": Limits(1, 1, 20.0, 480.0)}, device="auto", device_option=("auto", "gpu", "cpu"),
              timer="wall", epilogue=lambda doc: report.summary_lines(doc["rows"]))
