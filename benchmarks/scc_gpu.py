"""Strongly connected components of cnr-2000 on the GPU against SciPy on the host.

::

    python -m benchmarks.scc_gpu [--runs 10] [--sweeps 1,4] [--data DIR]

For each value of ``semiring.backends.gpu.scc.LOCAL_SWEEPS`` (sweeps of a block over its arcs
per pass): one warm-up call through the public ``strongly_connected_components`` on a kept
Graph (kernel compiled, the matrix's row ids built), its labels checked against LAW's
published components, then ``--runs`` calls timed on the wall clock (device synchronized
before and after) and their median, the device-to-host reads of one call (``sr.host_reads``)
and the kernel's rounds and passes. Then the median of SciPy's
``connected_components(connection="strong")`` on the host over the same number of runs.
Exit status 1 when a result differs from the published labels.
"""

from __future__ import annotations

import argparse
import gzip
import os
import sys
import time

import numpy as np
import scipy.sparse.csgraph as csgraph

import semiring as sr

from .graphs import DATA_DIR


def _min_labels(labels):
    _, first, inverse = np.unique(labels, return_index=True, return_inverse=True)
    return first[inverse].astype(np.int64)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m benchmarks.scc_gpu", description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--sweeps", default="1,4", help="LOCAL_SWEEPS values to time, comma-separated")
    ap.add_argument("--data", default=DATA_DIR, help="the shared data folder (default ../shared/data)")
    args = ap.parse_args(argv)
    import cupy as cp

    from semiring.backends.gpu import scc as backend

    A = sr.io.read(os.path.join(args.data, "web/cnr-2000.mtx.gz"))
    with gzip.open(os.path.join(args.data, "web/cnr-2000.scc.txt.gz"), "rt") as f:
        f.readline()
        want = _min_labels(np.loadtxt(f, dtype=np.int64))
    G = sr.algorithms.Graph(A.to("gpu"))
    print(f"cnr-2000: {A.nrows} vertices, {A.nvals} arcs, {int((want == np.arange(A.nrows)).sum())} components; "
          f"{cp.cuda.runtime.getDeviceProperties(cp.cuda.runtime.getDevice())['name'].decode()}")
    ok = True
    stats = []
    real = backend.strongly_connected

    def spy(M, seed=0):  # keeps each call's rounds and passes
        out = real(M, seed)
        stats.append(out[1])
        return out

    backend.strongly_connected = spy
    try:
        for sweeps in (int(s) for s in args.sweeps.split(",")):
            backend.LOCAL_SWEEPS = sweeps
            stats.clear()
            t = time.perf_counter()
            first = sr.algorithms.strongly_connected_components(G)
            cp.cuda.Device().synchronize()
            cold = time.perf_counter() - t
            good = bool(np.array_equal(first.to_dense().get(), want))
            ok &= good
            with sr.host_reads() as hr:
                sr.algorithms.strongly_connected_components(G)
            times = []
            for _ in range(args.runs):
                cp.cuda.Device().synchronize()
                t = time.perf_counter()
                sr.algorithms.strongly_connected_components(G)
                cp.cuda.Device().synchronize()
                times.append(time.perf_counter() - t)
            s = stats[-1]
            print(f"GPU LOCAL_SWEEPS={sweeps}: median {1e3 * np.median(times):.2f} ms (min {1e3 * min(times):.2f}, "
                  f"first call {1e3 * cold:.0f} ms), host reads per call {hr.count}, rounds {s['rounds']}, "
                  f"passes {s['passes']}, labels equal LAW's: {good}")
    finally:
        backend.strongly_connected = real
    S = A.to_scipy().astype(np.float64).tocsr()
    S.data[:] = 1.0
    times = []
    for _ in range(args.runs):
        t = time.perf_counter()
        k, labels = csgraph.connected_components(S, directed=True, connection="strong")
        times.append(time.perf_counter() - t)
    good = bool(np.array_equal(_min_labels(labels), want))
    ok &= good
    print(f"SciPy host: median {1e3 * np.median(times):.2f} ms (min {1e3 * min(times):.2f}), {k} components, "
          f"labels equal LAW's: {good}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
