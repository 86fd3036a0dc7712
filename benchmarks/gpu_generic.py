"""GPU timings of the generic path (the CPU's array code on CuPy) for BFS and SSSP on a
Graph500 Kronecker graph: median of CUDA-event-timed runs after a warm-up, results validated.

Usage: python benchmarks/gpu_generic.py [--scale 20] [--roots 4]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import semiring as sr
from semiring.testing.validate import check_bfs, check_sssp


def timed(fn, repeat):
    import cupy as cp

    fn()  # warm-up: kernel compilation, caches
    times = []
    for _ in range(repeat):
        start, stop = cp.cuda.Event(), cp.cuda.Event()
        start.record()
        out = fn()
        stop.record()
        stop.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, stop))
    return float(np.median(times)), out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--scale", type=int, default=20)
    p.add_argument("--roots", type=int, default=3)
    args = p.parse_args()
    t = time.perf_counter()
    W = sr.generators.kronecker(args.scale, weights=(1, 255))
    A = sr.generators.kronecker(args.scale)
    print(f"kron{args.scale}: {A.nrows} vertices, {A.nvals} entries, generated in {time.perf_counter() - t:.1f} s")
    Ag, Wg = A.to("gpu"), W.to("gpu")
    G, GW = sr.algorithms.Graph(Ag, "undirected"), sr.algorithms.Graph(Wg, "undirected")
    deg = np.diff(A.to_scipy().indptr)
    roots = np.random.default_rng(0).choice(np.flatnonzero(deg > 0), args.roots, replace=False)
    for s in roots:
        s = int(s)
        for direction in ("auto", "push"):
            ms, r = timed(lambda: sr.algorithms.bfs(G, s, direction=direction), 3)
            check_bfs(A, s, r.level)
            edges = deg[np.asarray(r.level.to_coo()[0].get())].sum() / 2
            print(f"bfs {direction:5s} root {s}: {ms:8.1f} ms  {r.depth} levels  {edges / ms / 1e6:.3f} GTEPS")
        ms, r = timed(lambda: sr.algorithms.sssp(GW, s), 1)
        check_sssp(W, s, r.distance)
        print(f"sssp delta-stepping root {s}: {ms:8.1f} ms  {r.rounds} rounds, delta {r.delta:g}")


if __name__ == "__main__":
    main()
