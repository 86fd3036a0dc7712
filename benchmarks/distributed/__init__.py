"""Distributed BFS and SSSP on P ranks (``mpiexec -n P python -m benchmarks.distributed ...``) and
the communication model checked against the runs (``python -m benchmarks.distributed.model
FOLDER``).

Every rank runs the same command; rank 0 writes one JSON and one Markdown per run
(``distributed-<graph>-<algos>-p<P>-<device>``), the per-rank-count records that the model reads
(the committed runs in ``benchmarks/results/distributed-*`` are in this form), with the harness's
environment description (:func:`semiring._bench.env.describe`) and its Graph500 roots and means.

bench      the benchmark itself (:func:`main`)
model      the model against measured runs, its fitted constants, its extrapolation
check.sh   first command on a lent multi-GPU machine: MPI, an NCCL exchange, the GPU tests, one BFS per GPU count
env.sh     sourced by the two scripts: MPI from the carried wheels, NVLink multicast off
runs.sh    the GPU measurements of one scale: P = 1, then P = 2 compared with it
"""

from .bench import main

__all__ = ["main"]
