"""Partitioning on the GPU against its peers, on USA-road-t.NY (264,346 vertices).

::

    python -m benchmarks.partition_gpu [--runs 5] [--quality] [--networkx] [--host-loops] [--vcycles N]
                                       [--device gpu|cpu]

Timing (default): ``partition(G, 8)`` and ``kernighan_lin_bisection(G, partition=start)`` (the
random start of ``benchmarks.algorithms``: n // 2 vertices on side 1, seed 0) through the public
calls on one device Graph, one warm-up run, then ``--runs`` runs, each synchronized (the device
finishes before the clock stops); the median is reported with the host reads the library counted
in one run (``semiring.host_reads``), and how the refinement loops ran (device graphs or host
loops). Peers in the same run: the CPU path of the same calls (the
same Graph on the host), and with ``--networkx`` networkx's ``kernighan_lin_bisection`` from the
same start (minutes). ``--host-loops``: refinement loops on the host even where CUDA graphs
could run them on the device; ``--vcycles N``: N V-cycles after the multilevel pass of
``partition`` instead of ``semiring.backends.gpu.partition.VCYCLES`` (both for comparison).

Quality (``--quality``): the cut of ``partition`` for k = 2, 8, 64 at imbalance 0.03 against
METIS (``pymetis.part_graph`` with ufactor 30, the same 3 percent; pymetis is a benchmark extra,
never a dependency of the library) and against the CPU path; the exit status is 1 when the device
cut is above METIS's for some k.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np
import scipy.sparse as sp

import semiring as sr
from semiring.algorithms import Graph
from semiring.backends._xp import asnumpy

from .graphs import DATA_DIR


def ny_pattern():
    """USA-road-t.NY as an undirected pattern: both directions of every arc, no self-loops."""
    A = sr.io.read(f"{DATA_DIR}/roads/USA-road-t.NY.gr.gz").to_scipy()
    S = ((A + A.T) != 0).astype(bool).tocsr()
    S.setdiag(False)
    S.eliminate_zeros()
    S.sort_indices()
    return S


def cut_of(S, parts):
    C = S.tocoo()
    return int(np.count_nonzero(parts[C.row] != parts[C.col])) // 2


def _sync(device):
    if device == "gpu":
        import cupy

        cupy.cuda.get_current_stream().synchronize()


def timed(fn, device, runs):
    """(median seconds, host reads of one run, result) over ``runs`` synchronized runs after one warm-up."""
    fn()
    _sync(device)
    times = []
    reads = None
    out = None
    for _ in range(runs):
        _sync(device)
        with sr.host_reads() as hr:
            t = time.perf_counter()
            out = fn()
            _sync(device)
            times.append(time.perf_counter() - t)
        reads = hr.count if reads is None else reads
    return float(np.median(times)), reads, out


def kl_start(n):
    side = np.zeros(n, dtype=np.int64)
    side[np.random.default_rng(0).permutation(n)[: n // 2]] = 1
    return side


def host(v):
    return asnumpy(v.to_dense()).astype(np.int64)


def timing(S, device, runs, with_networkx):
    n = S.shape[0]
    M = sr.Matrix.from_scipy(S)
    G = Graph(M.to(device) if device == "gpu" else M)
    Gc = Graph(M)
    start = kl_start(n)
    rows = []
    for name, call in (("partition k=8", lambda g: sr.algorithms.partition(g, 8)),
                       ("kernighan_lin_bisection", lambda g: sr.algorithms.kernighan_lin_bisection(g, partition=start))):
        t, reads, out = timed(lambda: call(G), device, runs)
        tc, _, outc = timed(lambda: call(Gc), "cpu", 1 if name.startswith("kernighan") else runs)
        rows.append((name, device, t, reads, cut_of(S, host(out)), "cpu path", tc, cut_of(S, host(outc))))
    if with_networkx:
        import networkx as nx

        NX = nx.from_scipy_sparse_array(S)
        halves = (set(np.flatnonzero(start == 1).tolist()), set(np.flatnonzero(start == 0).tolist()))
        t0 = time.perf_counter()
        a, b = nx.community.kernighan_lin_bisection(NX, partition=halves)
        tn = time.perf_counter() - t0
        p = np.zeros(n, dtype=np.int64)
        p[list(b)] = 1
        rows.append(("kernighan_lin_bisection", "networkx", tn, 0, cut_of(S, p), "", float("nan"), -1))
    print(f"start cut of the KL bisection: {cut_of(S, start):,}")
    if device == "gpu":
        from semiring.backends.gpu import partition as gp
        from semiring.backends.gpu import recording

        if not gp.DEVICE_LOOPS:
            loops = "host loops (--host-loops)"
        elif recording.available() and gp.graph_failure is None:
            loops = "one CUDA graph per level (conditional WHILE node)"
        else:
            loops = f"host loops (CUDA graphs: {gp.graph_failure or 'conditional nodes not available'})"
        print(f"refinement loops: {loops}")
    print("| call | engine | median ms | host reads | cut | peer | peer ms | peer cut |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r[0]} | {r[1]} | {r[2] * 1e3:.1f} | {r[3]} | {r[4]:,} | {r[5]} | {r[6] * 1e3:.1f} | {r[7]:,} |")


def quality(S, device):
    n = S.shape[0]
    M = sr.Matrix.from_scipy(S)
    G = Graph(M.to(device) if device == "gpu" else M)
    try:
        import pymetis
    except ImportError:
        pymetis = None
        print("pymetis is not installed (pip install pymetis): METIS column left empty")
    worse = False
    print("| k | ours cut | balance | METIS cut | METIS balance | CPU path cut |")
    print("|---|---|---|---|---|---|")
    for k in (2, 8, 64):
        p = host(sr.algorithms.partition(G, k))
        sizes = np.bincount(p, minlength=k)
        mc = mb = "-"
        if pymetis is not None:
            _, mp = pymetis.part_graph(k, adjacency=pymetis.CSRAdjacency(S.indptr, S.indices),
                                       options=pymetis.Options(ufactor=30))
            mp = np.asarray(mp)
            mc, mb = cut_of(S, mp), f"{np.bincount(mp, minlength=k).max() * k / n:.4f}"
            worse |= cut_of(S, p) > mc
        cpu = cut_of(S, host(sr.algorithms.partition(Graph(M), k)))
        print(f"| {k} | {cut_of(S, p):,} | {sizes.max() * k / n:.4f} | {mc} | {mb} | {cpu:,} |")
    return worse


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--device", default="gpu", choices=("gpu", "cpu"))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--quality", action="store_true")
    ap.add_argument("--networkx", action="store_true")
    ap.add_argument("--host-loops", action="store_true")
    ap.add_argument("--vcycles", type=int, default=None)
    a = ap.parse_args(argv)
    if a.host_loops or a.vcycles is not None:
        from semiring.backends.gpu import partition as gp

        gp.DEVICE_LOOPS = not a.host_loops
        if a.vcycles is not None:
            gp.VCYCLES = a.vcycles
    S = ny_pattern()
    if a.quality:
        return 1 if quality(S, a.device) else 0
    timing(S, a.device, a.runs, a.networkx)
    return 0


if __name__ == "__main__":
    sys.exit(main())
