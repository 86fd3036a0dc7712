"""Median warm wall clock of ``all_pairs_shortest_paths(G, method="repeated", sources=...)`` on
the GPU (batched Bellman-Ford on the device) beside SciPy's Dijkstra from the same sources on
the host, on LAGraph's ``test_FW_2003`` and a Graph500 Kronecker scale-8 graph (the graphs of
the "fw" and "kron8" rows of ``benchmarks.algorithms``, whose Graph kind is "undirected": both
matrices are symmetric), with the host reads of one call and a check of every distance.

::

    python -m benchmarks.apsp_repeated [--data ../shared/data] [--runs 30] [--sources 32]
"""

from __future__ import annotations

import argparse
import os

import numpy as np
from scipy.sparse import csgraph

import semiring as sr

from .timing import WallTimer


def _median_s(timer, fn, runs):
    return float(np.median([timer.time(fn)[0] for _ in range(runs)]))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--data", default=os.path.join("..", "shared", "data"))
    p.add_argument("--runs", type=int, default=30)
    p.add_argument("--sources", type=int, default=32)
    a = p.parse_args(argv)
    import cupy as cp

    graphs = {
        "FW_2003": sr.io.read(os.path.join(a.data, "small", "lagraph", "test_FW_2003.mtx")),
        "kron8": sr.generators.kronecker(8, weights=(1, 255)),
    }
    gpu, cpu = WallTimer(cp), WallTimer()
    src = np.arange(a.sources)
    print(f"{'graph':8} {'n':>6} {'entries':>8} {'sources':>7} {'GPU ms':>8} {'reads':>5} {'rounds':>6} "
          f"{'SciPy ms':>9}  check")
    for name, A in graphs.items():
        G = sr.algorithms.Graph(A.to("gpu"), "undirected")
        S = (A if A.dtype == np.float64 else A.dup("float64")).to_scipy().tocsr()

        def run():
            return sr.algorithms.all_pairs_shortest_paths(G, method="repeated", sources=src)

        run()  # compiles the kernels, checks the weights and caches them on G
        with sr.host_reads() as hr:
            D = run()
        t_gpu = _median_s(gpu, run, a.runs)
        t_cpu = _median_s(cpu, lambda: csgraph.shortest_path(S, method="D", directed=True, indices=src), a.runs)
        want = csgraph.shortest_path(S, method="D", directed=True, indices=src)
        got = D.to_dense(np.inf).get().astype(np.float64)
        ok = bool(np.array_equal(got, want))
        rounds = _rounds(G, src)
        print(f"{name:8} {A.nrows:>6,} {A.nvals:>8,} {src.size:>7} {t_gpu * 1e3:>8.3f} {hr.count:>5} {rounds:>6} "
              f"{t_cpu * 1e3:>9.3f}  {'equal to SciPy' if ok else 'DIFFERS FROM SCIPY'}")


def _rounds(G, src):
    """Relaxation rounds of each batch of the device's searches (for the record)."""
    from semiring.algorithms.apsp import _weights
    from semiring.backends.gpu import multi_source

    run = G.cached("apsp_searches", lambda: multi_source.Searches(_weights(G, "rounds")))
    return "/".join(str(B.rounds) for B in run.batches(src, multi_source.BATCH, -2**62, "rounds"))


if __name__ == "__main__":
    main()
