"""GPU timings of BFS and SSSP on a Graph500 Kronecker graph through the generic path (the
CPU's array code on CuPy) and through the fast kernels (pull with early exit, push by edge
with atomics): median of CUDA-event-timed runs after a warm-up, every result validated.

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
    p.add_argument("--directions", default="auto,push,pull")
    args = p.parse_args()
    t = time.perf_counter()
    W = sr.generators.kronecker(args.scale, weights=(1, 255))
    A = sr.apply(W, sr.unary.one).dup("bool")  # the same graph's pattern
    print(f"kron{args.scale}: {A.nrows} vertices, {A.nvals} entries, generated in {time.perf_counter() - t:.1f} s")
    Ag, Wg = A.to("gpu"), W.to("gpu")
    G, GW = sr.algorithms.Graph(Ag, "undirected"), sr.algorithms.Graph(Wg, "undirected")
    deg = np.diff(A.to_scipy().indptr)
    roots = np.random.default_rng(0).choice(np.flatnonzero(deg > 0), args.roots, replace=False)
    from semiring.backends.gpu import products as fast

    for s in roots:
        s = int(s)
        for path in ("generic", "fast"):
            fast.ENABLED = path == "fast"
            for direction in args.directions.split(","):
                ms, r = timed(lambda: sr.algorithms.bfs(G, s, direction=direction), 3)
                check_bfs(A, s, r.level)
                edges = deg[np.asarray(r.level.to_coo()[0].get())].sum() / 2
                print(f"{path:7s} bfs {direction:5s} root {s}: {ms:8.1f} ms  {r.depth} levels  "
                      f"{edges / ms / 1e6:.3f} GTEPS")
            for method in ("delta_stepping", "bellman_ford"):
                ms, r = timed(lambda: sr.algorithms.sssp(GW, s, method=method), 1)
                check_sssp(W, s, r.distance)
                print(f"{path:7s} sssp {method} root {s}: {ms:8.1f} ms  {r.rounds} rounds")
        fast.ENABLED = True


if __name__ == "__main__":
    main()
