"""Benchmark harness of semiring: one command, every suite, every system on the same graph.

Usage
-----
::

    python -m benchmarks run --suite NAME [--size tiny|full] [--roots N] [--roots-peers N] [--out DIR]
                             [--data DIR] [--graphs NAME,...] [--system-budget-s S] [--budget-s S]
                             [--device auto|gpu|cpu] [the suite's own options]

Suites (:mod:`benchmarks.suites`): gpu, cpu, strategies, sssp-strategies, deep, algebra,
networkx, algorithms, louvain-gpu, partition-gpu. Each generates (Graph500 Kronecker, grids,
random geometric and uniform random graphs) or reads (``../shared/data``) its graphs, runs every
system in the same process on the same graph, validates every result, and writes
``<suite>[-tiny]-<device-slug>-<YYYYMMDD>.json`` and ``.md`` into the output folder (default
``benchmarks/results``). A failed validation makes the command exit with status 1.

Layout
------
The harness's core ships with the package as :mod:`semiring._bench` (``semiring bench`` runs on
it): the timers and deadlines, the timing loop, the results format, the report writer and the
runner that executes a suite's declaration. Here:

harness      what the suites share beyond the core: the graphs (:mod:`benchmarks.harness.graphs`)
suites       one module or package per suite, each declaring its ``SUITE``; ``kernels`` holds the
             per-root BFS / SSSP / coloring systems of the gpu and cpu suites
peers        the peers semiring is timed against (SciPy, python-graphblas, networkx, cupyx, METIS)
             and the oracles that check its answers
distributed  distributed BFS and SSSP under ``mpiexec`` (``python -m benchmarks.distributed``) and
             its communication model (``python -m benchmarks.distributed.model``)
results      the committed results and their README
"""
