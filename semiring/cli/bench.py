"""``semiring bench``: BFS, SSSP and coloring on a Graph500 Kronecker graph, every result
validated, timed against SciPy's csgraph on the same machine, summarized in a table.

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
from ..testing import validate


def _roots(A, count, seed):
    deg = np.diff(A.to_scipy().indptr)
    candidates = np.flatnonzero(deg > 0)
    rng = np.random.default_rng(seed)
    return rng.choice(candidates, size=min(count, candidates.size), replace=False)


def _row(name, times, extra, ref=None):
    med = float(np.median(times))
    ref_s = f"{1e3 * float(np.median(ref)):10.1f}" if ref is not None else f"{'':>10}"
    return f"{name:<28}{len(times):>6}{1e3 * med:12.1f}{ref_s}  {extra}"


def bench(scale=16, roots=16, sssp_roots=4, seed=0, device="cpu", out=None):
    """Run the benchmark; returns 0 when every result validated."""
    out = sys.stdout if out is None else out
    from tqdm import tqdm

    t0 = time.perf_counter()
    A = generators.kronecker(scale, seed=seed, device=device)
    W = generators.kronecker(scale, seed=seed, weights=(1, 255), device=device)
    gen = time.perf_counter() - t0
    G, GW = algorithms.Graph(A, "undirected"), algorithms.Graph(W, "undirected")
    S, SW = A.to_scipy(), W.to_scipy()
    print(f"semiring bench: Graph500 Kronecker scale {scale}, edge factor 16: {A.nrows:,} vertices, "
          f"{A.nvals // 2:,} undirected edges (generated in {gen:.1f} s), device {device}", file=out)
    rows = []
    src = _roots(A, roots, seed)
    bfs_t, teps, ref = [], [], []
    quiet = not sys.stderr.isatty()  # a progress bar on a terminal only, never in logs or pipes
    for s in tqdm(src, desc="bfs", file=sys.stderr, leave=False, disable=quiet):
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
    hmean = len(teps) / np.sum(1.0 / np.asarray(teps))
    rows.append(_row("bfs (parents, auto)", bfs_t, f"{hmean / 1e6:.1f} MTEPS (harmonic mean, Graph500)", ref))
    sssp_t, ref = [], []
    for s in tqdm(src[:sssp_roots], desc="sssp", file=sys.stderr, leave=False, disable=quiet):
        t = time.perf_counter()
        r = algorithms.sssp(GW, int(s))
        sssp_t.append(time.perf_counter() - t)
        validate.check_sssp(W, int(s), r.distance)
        t = time.perf_counter()
        csgraph.dijkstra(SW, indices=int(s))
        ref.append(time.perf_counter() - t)
    rows.append(_row(f"sssp ({r.method})", sssp_t, f"delta {r.delta:g}, weights 1..255", ref))
    t = time.perf_counter()
    c = algorithms.coloring(G, seed=seed)
    col_t = time.perf_counter() - t
    k = validate.check_coloring(A, c)
    greedy = validate.check_coloring(A, algorithms.coloring(G, method="greedy"))
    rows.append(_row("coloring (jones_plassmann)", [col_t], f"{k} colors (greedy largest-first: {greedy})"))
    print(f"{'kernel':<28}{'runs':>6}{'median ms':>12}{'scipy ms':>10}  notes", file=out)
    for line in rows:
        print(line, file=out)
    print("all results validated", file=out)
    return 0
