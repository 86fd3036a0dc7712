"""CPU timings of semiring against SciPy's csgraph and python-graphblas (SuiteSparse:GraphBLAS).

python-graphblas is not a dependency of semiring: install it for this script only
(``pip install python-graphblas``). Every result is checked against SciPy before it is timed.

Usage: python benchmarks/cpu_peers.py [--kron 16 18] [--repeat 3] [--data ../shared/data]
Prints one table row per (graph, kernel): median wall time in ms of each implementation.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np
import scipy.sparse.csgraph as csgraph

import semiring as sr


def _median_ms(fn, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return 1e3 * float(np.median(times)), out


def gb_matrix(A):
    import graphblas as gb

    r, c, v = A.to_coo()
    return gb.Matrix.from_coo(r, c, v, nrows=A.nrows, ncols=A.ncols)


def gb_bfs_levels(G, s):
    """Level-synchronous BFS in python-graphblas, as its docs write it (push, any_pair)."""
    import graphblas as gb

    n = G.nrows
    v = gb.Vector(int, n)
    q = gb.Vector(bool, n)
    q[s] << True
    v[s] << 0
    d = 0
    while q.nvals:
        d += 1
        q(~v.S, replace=True) << q.vxm(G, gb.semiring.any_pair)
        v(q.S) << d
    return v


def gb_bellman_ford(G, s):
    """Bellman-Ford in python-graphblas: d = min(d, d min.plus A) until nothing changes."""
    import graphblas as gb

    d = gb.Vector(G.dtype, G.nrows)
    d[s] << 0
    while True:
        dnew = d.dup()
        dnew(gb.binary.min) << d.vxm(G, gb.semiring.min_plus)
        if dnew.isequal(d):
            return d
        d = dnew


def run(name, A, source, repeat, weighted):
    S = A.to_scipy()
    rows = []
    try:
        import graphblas  # noqa: F401

        GB = gb_matrix(A)
    except ImportError:
        GB = None
    want = csgraph.shortest_path(S, unweighted=True, indices=source)
    G = sr.algorithms.Graph(A)
    t_sr, r = _median_ms(lambda: sr.algorithms.bfs(G, source), repeat)
    assert np.array_equal(r.level.to_dense(-1), np.where(np.isinf(want), -1, want).astype(np.int64))
    t_sp, _ = _median_ms(lambda: csgraph.breadth_first_order(S, source, return_predecessors=True), repeat)
    t_gb = "-"
    if GB is not None:
        t, v = _median_ms(lambda: gb_bfs_levels(GB, source), repeat)
        idx, vals = v.to_coo()
        assert np.array_equal(vals, want[idx].astype(np.int64))
        t_gb = f"{t:.1f}"
    rows.append((name, "bfs levels", t_sr, t_sp, t_gb))
    if weighted:
        want = csgraph.dijkstra(S, indices=source)
        t_sr, r = _median_ms(lambda: sr.algorithms.sssp(G, source), repeat)
        assert np.array_equal(r.distance.to_dense(np.inf), want)
        t_bf, r = _median_ms(lambda: sr.algorithms.sssp(G, source, method="bellman_ford"), 1)
        assert np.array_equal(r.distance.to_dense(np.inf), want)
        t_sp, _ = _median_ms(lambda: csgraph.dijkstra(S, indices=source), repeat)
        t_gb = "-"
        if GB is not None:
            t, v = _median_ms(lambda: gb_bellman_ford(GB, source), 1)
            idx, vals = v.to_coo()
            assert np.array_equal(vals, want[idx])
            t_gb = f"{t:.1f}"
        rows.append((name, "sssp delta-stepping", t_sr, t_sp, t_gb))
        rows.append((name, "sssp bellman-ford", t_bf, t_sp, t_gb))
    return rows


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--kron", type=int, nargs="*", default=[16, 18])
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--data", default=os.path.join(os.path.dirname(__file__), "..", "..", "shared", "data"))
    args = p.parse_args()
    rows = []
    for scale in args.kron:
        A = sr.generators.kronecker(scale, weights=(1, 255))
        src = int(np.argmax(np.diff(A.to_scipy().indptr)))
        rows += run(f"kron{scale} (w 1..255)", A, src, args.repeat, weighted=True)
    ny = os.path.join(args.data, "roads", "USA-road-d.NY.gr.gz")
    if os.path.exists(ny):
        rows += run("USA-road-d.NY", sr.io.read(ny), 0, args.repeat, weighted=True)
    cnr = os.path.join(args.data, "web", "cnr-2000.mtx.gz")
    if os.path.exists(cnr):
        rows += run("cnr-2000", sr.io.read(cnr), 0, args.repeat, weighted=False)
    print(f"{'graph':<22}{'kernel':<22}{'semiring ms':>12}{'scipy ms':>10}{'graphblas ms':>14}")
    for name, k, a, b, c in rows:
        print(f"{name:<22}{k:<22}{a:12.1f}{b:10.1f}{c:>14}")


if __name__ == "__main__":
    main()
