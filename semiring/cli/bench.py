"""``semiring bench``: BFS, SSSP and coloring on a Graph500 Kronecker graph, every result
validated, timed against SciPy's csgraph on the same machine, summarized in a table.

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

from .. import algorithms, generators
from ..backends._xp import asnumpy
from ..exceptions import OutOfMemory
from ..testing import validate
from . import progress

#: the SciPy routine timed for each kernel (the ``scipy ms`` column)
SCIPY_ROUTINES = {
    "bfs": "scipy.sparse.csgraph.breadth_first_order(A, root, return_predecessors=True)",
    "sssp": "scipy.sparse.csgraph.dijkstra(A, indices=root)",
    "coloring": None,
}


def _roots(A, count, seed):
    """``count`` distinct random vertices with an edge (fewer when fewer have one)."""
    deg = np.diff(A.to_scipy().indptr)
    candidates = np.flatnonzero(deg > 0)
    rng = np.random.default_rng(seed)
    return rng.choice(candidates, size=min(count, candidates.size), replace=False)


def _row(name, times, extra, ref=None):
    med = float(np.median(times))
    ref_s = f"{1e3 * float(np.median(ref)):10.1f}" if ref is not None else f"{'':>10}"
    return f"{name:<28}{len(times):>6}{1e3 * med:12.1f}{ref_s}  {extra}"


def _skipped(name, why):
    return f"{name:<28}{0:>6}{'':>12}{'':>10}  skipped ({why})"


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
    ValidationError
        A result failed its check.
    """
    out = sys.stdout if out is None else out
    t0 = time.perf_counter()
    try:
        with progress.phase(f"generating kron:{scale}"):
            A = generators.kronecker(scale, seed=seed, device=device)
            W = generators.kronecker(scale, seed=seed, weights=(1, 255), device=device) if sssp_roots else None
    except OutOfMemory as exc:
        raise OutOfMemory(f"bench --scale {scale}: {exc}") from None
    gen = time.perf_counter() - t0
    G = algorithms.Graph(A, "undirected")
    S = A.to_scipy()
    print(f"semiring bench: Graph500 Kronecker scale {scale}, edge factor 16: {A.nrows:,} vertices, "
          f"{A.nvals // 2:,} undirected edges (generated in {gen:.1f} s), device {device}", file=out)
    src = _roots(A, max(roots, sssp_roots), seed)
    if src.size < max(roots, sssp_roots):
        print(f"only {src.size:,} vertices have an edge: {min(roots, src.size)} BFS and "
              f"{min(sssp_roots, src.size)} SSSP roots", file=out)
    rows = []
    bfs_t, teps, ref = [], [], []
    for s in progress.bar(src[:roots], "bfs"):
        t = time.perf_counter()
        r = algorithms.bfs(G, int(s), parents=True)
        bfs_t.append(time.perf_counter() - t)
        validate.check_bfs(A, int(s), r.level, r.parent)
        reached = asnumpy(r.level.to_coo()[0])
        deg = np.diff(S.indptr)[reached]
        teps.append(deg.sum() / 2 / bfs_t[-1])
        t = time.perf_counter()
        csgraph.breadth_first_order(S, int(s), return_predecessors=True)
        ref.append(time.perf_counter() - t)
    if bfs_t:
        hmean = len(teps) / np.sum(1.0 / np.asarray(teps))
        rows.append(_row("bfs (parents, auto)", bfs_t, f"{hmean / 1e6:.1f} MTEPS (harmonic mean, Graph500)", ref))
    else:
        rows.append(_skipped("bfs (parents, auto)", f"--roots {roots}" if roots == 0 else "no vertex has an edge"))
    sssp_t, ref = [], []
    if W is not None:
        GW, SW = algorithms.Graph(W, "undirected"), W.to_scipy()
    for s in progress.bar(src[:sssp_roots], "sssp"):
        t = time.perf_counter()
        r = algorithms.sssp(GW, int(s))
        sssp_t.append(time.perf_counter() - t)
        validate.check_sssp(W, int(s), r.distance)
        t = time.perf_counter()
        csgraph.dijkstra(SW, indices=int(s))
        ref.append(time.perf_counter() - t)
    if sssp_t:
        delta = f"delta {r.delta:g}, " if r.delta else ""
        rows.append(_row(f"sssp ({r.method})", sssp_t, f"{delta}weights 1..255", ref))
    else:
        rows.append(_skipped("sssp", f"--sssp-roots {sssp_roots}" if sssp_roots == 0 else "no vertex has an edge"))
    with progress.phase("coloring"):
        t = time.perf_counter()
        c = algorithms.coloring(G, seed=seed)
        col_t = time.perf_counter() - t
        k = validate.check_coloring(A, c)
        greedy = validate.check_coloring(A, algorithms.coloring(G, method="greedy"))
    rows.append(_row("coloring (jones_plassmann)", [col_t], f"{k} colors (greedy largest-first: {greedy})"))
    print("scipy ms: the median time of SciPy on the same graph and roots:", file=out)
    for kernel, routine in SCIPY_ROUTINES.items():
        print(f"  {kernel:<9} {routine or 'none (SciPy has no coloring)'}", file=out)
    print(f"{'kernel':<28}{'runs':>6}{'median ms':>12}{'scipy ms':>10}  notes", file=out)
    for line in rows:
        print(line, file=out)
    print("all results validated", file=out)
    return 0
