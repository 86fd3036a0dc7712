"""``semiring bench``: BFS, SSSP and coloring on a Graph500 Kronecker graph, every result
validated, timed against SciPy's csgraph on the same machine, summarized in a table.

A front end to the benchmark harness shipped with the package (:mod:`semiring._bench`): the
suite below declares the graph and the systems; the harness's timing loop runs each system over
the roots (one untimed warm-up call, then one timed call per root, each result checked) and its
runner collects the rows, the failures and the summary in the harness's results format, printed
here as a plain-text table.

The ``scipy ms`` column is :data:`SCIPY_ROUTINES`' routine of each kernel on the same graph and
roots: ``scipy.sparse.csgraph.breadth_first_order`` (with predecessors) for BFS,
``scipy.sparse.csgraph.dijkstra`` for SSSP; SciPy has no coloring.

Graph500 conventions (specification 3.0): roots are random vertices with at least one edge;
TEPS = (undirected edges in the component searched) / time; the reported time is the median.
"""

from __future__ import annotations

import sys
import time

import numpy as np
import scipy.sparse.csgraph as csgraph

from .. import Vector, algorithms, generators
from .._bench import env, runner
from .._bench.measure import System, run_system, skipped
from .._bench.references import levels_from_tree, traversed_edges
from .._bench.timing import graph500_roots
from ..backends._xp import asnumpy
from ..exceptions import OutOfMemory, SemiringError
from ..testing import validate
from ..testing.validate import ValidationError
from . import progress

#: the SciPy routine timed for each kernel (the ``scipy ms`` column)
SCIPY_ROUTINES = {
    "bfs": "scipy.sparse.csgraph.breadth_first_order(A, root, return_predecessors=True)",
    "sssp": "scipy.sparse.csgraph.dijkstra(A, indices=root)",
    "coloring": None,
}


def _graphs(scale, seed, device, weighted):
    """The pattern and (``weighted``) the weights 1..255 of the Kronecker graph; the seconds."""
    t0 = time.perf_counter()
    try:
        with progress.phase(f"generating kron:{scale}"):
            A = generators.kronecker(scale, seed=seed, device=device)
            W = generators.kronecker(scale, seed=seed, weights=(1, 255), device=device) if weighted else None
    except OutOfMemory as exc:
        raise OutOfMemory(f"bench --scale {scale}: {exc}") from None
    return A, W, time.perf_counter() - t0


def _bfs_systems(A, ctx, seed):
    """semiring's BFS (validated by the Graph500 checks) and SciPy's (its levels compared with
    semiring's validated ones); the edge count of each search for its TEPS."""
    G = algorithms.Graph(A, "undirected")
    S = A.to_scipy()
    degree = np.diff(S.indptr)
    levels = {}

    def check(root, r):
        validate.check_bfs(A, root, r.level, r.parent)
        levels[root] = asnumpy(r.level.to_dense(-1))
        return {}

    def check_scipy(root, out):
        got = levels_from_tree(out[0], out[1], root)
        if root not in levels:  # semiring's search failed: SciPy's tree passes the Graph500 checks itself
            idx = np.flatnonzero(got >= 0)
            validate.check_bfs(A, root, Vector.from_coo(idx, got[idx], size=A.nrows, dtype="int64"))
        elif not np.array_equal(got, levels[root]):
            raise ValidationError(f"SciPy's BFS levels from {root} differ from semiring's validated levels")
        return {}

    def edges_of(root):  # called after the root's result validated
        return traversed_edges(degree, levels[root] >= 0, True)

    return [System("bfs", "bfs (parents, auto)", ctx.device, lambda r: algorithms.bfs(G, r, parents=True), check,
                   roots=ctx.roots_main),
            System("bfs", "scipy", "cpu", lambda r: csgraph.breadth_first_order(S, r, return_predecessors=True),
                   check_scipy, roots=ctx.roots_main)], edges_of


def _sssp_systems(W, ctx):
    """semiring's SSSP (validated like the Graph500 SSSP kernel) and SciPy's Dijkstra (compared
    with semiring's validated distances)."""
    G = algorithms.Graph(W, "undirected")
    S = W.to_scipy()
    dist = {}

    def check(root, r):
        validate.check_sssp(W, root, r.distance)
        dist[root] = asnumpy(r.distance.to_dense(np.inf)).astype(np.float64)
        return {}

    def check_scipy(root, d):
        want = dist.get(root)
        if want is not None and not np.allclose(d, want, rtol=1e-9, atol=0):
            raise ValidationError(f"SciPy's distances from {root} differ from semiring's validated distances")
        return {}

    return [System("sssp", "sssp", ctx.device, lambda r: algorithms.sssp(G, r), check,
                   lambda r: {"method": r.method, "delta": r.delta}, ctx.roots_peers),
            System("sssp", "scipy", "cpu", lambda r: csgraph.dijkstra(S, indices=r), check_scipy,
                   roots=ctx.roots_peers)]


def _coloring_system(A, ctx, seed):
    """semiring's Jones-Plassmann coloring, once, with the colors of the greedy largest-first one."""
    G = algorithms.Graph(A, "undirected")

    def check(_, c):
        return {"colors": validate.check_coloring(A, c),
                "greedy": validate.check_coloring(A, algorithms.coloring(G, method="greedy"))}

    return System("coloring", "coloring (jones_plassmann)", ctx.device,
                  lambda _: algorithms.coloring(G, seed=seed), check, roots=1)


def _suite(scale, roots, sssp_roots, seed, device, out):
    """The bench suite: its run builds the graph, prints what it is, and times the systems."""

    def run(ctx):
        A, W, gen = _graphs(scale, seed, device, sssp_roots > 0)
        print(f"semiring bench: Graph500 Kronecker scale {scale}, edge factor 16: {A.nrows:,} vertices, "
              f"{A.nvals // 2:,} undirected edges (generated in {gen:.1f} s), device {device}", file=out)
        src = graph500_roots(np.diff(A.to_scipy().indptr), max(roots, sssp_roots), seed)
        if len(src) < max(roots, sssp_roots):
            print(f"only {len(src):,} vertices have an edge: {min(roots, len(src))} BFS and "
                  f"{min(sssp_roots, len(src))} SSSP roots", file=out)
        graph = f"kron{scale}"
        bfs, edges_of = _bfs_systems(A, ctx, seed)
        kernels = [("bfs", bfs, edges_of, roots, "--roots")]
        if W is not None:
            kernels.append(("sssp", _sssp_systems(W, ctx), None, sssp_roots, "--sssp-roots"))
        else:
            kernels.append(("sssp", [System("sssp", "sssp", ctx.device, None, None)], None, 0, "--sssp-roots"))
        kernels.append(("coloring", [_coloring_system(A, ctx, seed)], None, 1, None))
        rows = []
        for kernel, systems, edges, count, flag in kernels:
            for s in systems:
                if count == 0 or (flag is not None and not src):
                    why = f"{flag} {count}" if count == 0 else "no vertex has an edge"
                    rows.append(skipped(s, graph, why))
                    continue
                with progress.phase(f"{kernel}: {s.name}"):
                    rows.append(run_system(s, graph, src[:count] if kernel != "coloring" else [0],
                                           ctx.timers[s.device], edges_of=edges))
        return {"graphs": [{"name": graph, "about": f"Graph500 Kronecker scale {scale}, edge factor 16, seed {seed}",
                            "n": int(A.nrows), "nvals": int(A.nvals), "kind": "undirected", "load_s": gen}],
                "rows": rows, "notes": []}

    return runner.Suite("bench", "BFS, SSSP and coloring on a Graph500 Kronecker graph against SciPy", run,
                        device=device)


def _line(name, row, ref, extra):
    if row["status"] == "skipped":
        return f"{name:<28}{0:>6}{'':>12}{'':>10}  skipped ({row['note']})"
    ref_s = f"{ref['ms_median']:10.1f}" if ref is not None and ref.get("ms_median") is not None else f"{'':>10}"
    return f"{name:<28}{row['roots']:>6}{row['ms_median']:12.1f}{ref_s}  {extra}"


def _table(doc):
    """The plain-text table of a run: one line per kernel, SciPy's median beside semiring's."""
    rows = {(r["kernel"], r["system"] == "scipy"): r for r in doc["rows"]}
    bfs, sssp, col = rows[("bfs", False)], rows[("sssp", False)], rows[("coloring", False)]
    teps = bfs.get("teps_hmean")
    lines = [_line("bfs (parents, auto)", bfs, rows.get(("bfs", True)),
                   f"{(teps or 0) / 1e6:.1f} MTEPS (harmonic mean, Graph500)")]
    last = sssp["runs"][-1] if sssp.get("runs") else {}
    delta = f"delta {last['delta']:g}, " if last.get("delta") else ""
    lines.append(_line(f"sssp ({last.get('method', '')})" if last else "sssp", sssp, rows.get(("sssp", True)),
                       f"{delta}weights 1..255"))
    run = col["runs"][0]
    lines.append(_line("coloring (jones_plassmann)", col, None,
                       f"{run['colors']} colors (greedy largest-first: {run['greedy']})"))
    return lines


def bench(scale=16, roots=16, sssp_roots=4, seed=0, device="cpu", out=None):
    """Run the benchmark; returns 0 when every result validated.

    Parameters
    ----------
    scale : int
        log2 of the vertex count of the Kronecker graphs.
    roots, sssp_roots : int
        BFS and SSSP searches (0 runs none of that kernel); SSSP uses the first BFS roots.
    seed : int
    device : {"cpu", "gpu"}
    out : file, optional
        Where the table goes (default ``sys.stdout``).

    Raises
    ------
    OutOfMemory
        A graph would not fit (checked by the generator before generating it).
    BackendUnavailable
        ``device="gpu"`` where no GPU can be used.
    ValidationError
        A result failed its check.
    SemiringError
        A search raised (its message names the row and the exception).
    """
    out = sys.stdout if out is None else out
    cp = None
    if device == "gpu":
        from ..backends import gpu

        cp = gpu.load()
    suite = _suite(scale, roots, sssp_roots, seed, device, out)
    ctx = runner.Ctx(cp, runner.timers("wall", cp), roots, sssp_roots, float("inf"), None)
    meta = {"suite": suite.name, "size": f"scale {scale}", "device": device, "env": env.describe(cp)}
    doc = runner.execute(suite, ctx, meta)
    for r in doc["rows"]:
        if r["status"] == "validation failed":
            raise ValidationError(f"{r['system']}: {r['note']}")
        if r["status"] == "error":
            raise SemiringError(f"bench: {r['system']}: {r['note']}")
    print("scipy ms: the median time of SciPy on the same graph and roots:", file=out)
    for kernel, routine in SCIPY_ROUTINES.items():
        print(f"  {kernel:<9} {routine or 'none (SciPy has no coloring)'}", file=out)
    print(f"{'kernel':<28}{'runs':>6}{'median ms':>12}{'scipy ms':>10}  notes", file=out)
    for line in _table(doc):
        print(line, file=out)
    print("all results validated", file=out)
    return 0
