"""Benchmark harness of semiring: one entry point, every system on the same graph.

Usage
-----
::

    python -m benchmarks run --suite gpu|cpu|seed-table|seed-sssp|deep|algebra [--size tiny|full]
                             [--roots N] [--roots-peers N] [--device auto|gpu|cpu] [--out benchmarks/results]
                             [--graphs NAME,...] [--algorithms NAME,...|none]

Each suite generates (Graph500 Kronecker, grids, random geometric graphs, uniform random
graphs) or reads (``../shared/data``) its graphs, runs every system in the same process on the
same graph, validates every result, and writes ``<suite>[-tiny]-<device-slug>-<YYYYMMDD>.json``
and ``.md`` into the output folder. A failed validation makes the command exit with status 1.

Modules
-------
env        machine, library and device description; device-to-device copy bandwidth
timing     CPU / GPU (CUDA event) / user wall-clock timers, Graph500 roots, progress output, time budgets
graphs     the graph cases of each suite and how to build them
references per-root reference answers (scipy on the host, cupyx on the device)
peers      scipy.sparse.csgraph, python-graphblas and networkx peers
gpu_peers  plain cupyx.scipy.sparse SpMV BFS and PageRank power iteration; device-side validators
runner     runs one system over roots: warm-up, timing, validation, one result row
bfs, sssp, coloring   the systems of each kernel
seed_table vertex-centric vs edge-centric comparison against reference measurements
targets    the performance targets (suites and graph algorithms), met / not met
report     JSON and Markdown output
suites     the cpu and gpu suites
cpu_table  the cpu suite's algorithm table: semiring's two CPU backends beside SciPy, python-graphblas,
           graphblas-algorithms and networkx, interleaved (cpu_graphs: its graphs; cpu_systems: each
           library's call; cpu_checks: the checks; cpu_table_report: its tables and the CPU targets)
gb_direct  graph algorithms written directly in python-graphblas, as LAGraph writes them
algebra    the algebra itself: single operations, replayed recordings, algebra loops (``--suite algebra``)
algorithms the graph algorithms, one row per (algorithm, graph), beside their CPU peers and GPU targets:
           ``python -m benchmarks.algorithms``
algorithm_oracles  the independent checks of their results (SciPy, NumPy, networkx, published answers)
algorithm_peers    their CPU peers on the host (SciPy, networkx, METIS)
algorithm_report   their Markdown page (targets table, timings table, summary)
"""
