"""What the repository's suites share beyond the harness core.

The core (timers, the timing loop, the results format, the report writer, the runner) ships
with the package as :mod:`semiring._bench`, so that ``semiring bench`` runs on it without this
folder; here are the graphs the suites build (:mod:`benchmarks.harness.graphs`). The command
line is :mod:`benchmarks.__main__`.
"""
