"""The benchmark harness's core, shipped with the package: ``semiring bench`` runs on it after a
plain ``pip install .``, and the repository's suites (``python -m benchmarks run --suite NAME``)
run on the same code.

Modules
-------
timing      CPU, CUDA-event and wall-clock timers, time limits, Graph500 roots, medians, progress, deadlines
env         the machine, library and device description at the top of every result
references  per-root reference answers; BFS levels from a BFS tree; Graph500 edge counts
measure     the timing loop: one system over a graph's roots (warm-up, timed runs, validation, one row)
results     the one results format (meta, graphs, rows, targets, notes, summary, failed)
report      the writer: JSON and Markdown
runner      a suite's declaration (:class:`~semiring._bench.runner.Suite`) and the run that executes it

Only NumPy (and tqdm, for progress bars on a terminal) is needed; CuPy where a GPU is used.
"""
