"""The suites: each module declares one (its ``SUITE``, a :class:`semiring._bench.runner.Suite`:
graphs, systems, table layout, targets, options), and the harness's runner executes it.

=================  ==========================================================================
suite              what it times
=================  ==========================================================================
gpu                BFS, SSSP and coloring on the GPU engine, cupyx, host peers (:mod:`.gpu`)
cpu                the same kernels on the CPU beside SciPy, python-graphblas and networkx, then
                   every algorithm on both CPU backends beside their peers (:mod:`.cpu`,
                   :mod:`.cpu_table`)
strategies         vertex-centric versus edge-centric BFS and the named BFS strategies by graph
                   size (:mod:`.strategies`)
sssp-strategies    the named SSSP strategies by graph size (:mod:`.sssp_strategies`)
deep               BFS and SSSP on long paths and the New York roads (:mod:`.deep`)
algebra            single operations, a replayed recording, loops in the algebra (:mod:`.algebra`)
networkx           the networkx backend against networkx, and conversions (:mod:`.nx_backend`)
algorithms         every graph algorithm beside its CPU peer and its GPU target (:mod:`.algorithms`)
louvain-gpu        Louvain on the GPU against networkx and the CPU path (:mod:`.louvain_gpu`)
partition-gpu      partition and Kernighan-Lin on the GPU against their peers (:mod:`.partition_gpu`)
=================  ==========================================================================

The per-root kernels the gpu and cpu suites share are in :mod:`.kernels`.
"""

from __future__ import annotations

import importlib

#: ``--suite`` name -> module of this package.
SUITES = {"gpu": "gpu", "cpu": "cpu", "strategies": "strategies", "sssp-strategies": "sssp_strategies",
          "deep": "deep", "algebra": "algebra", "networkx": "nx_backend", "algorithms": "algorithms",
          "louvain-gpu": "louvain_gpu", "partition-gpu": "partition_gpu"}


def load(name):
    """The :class:`~semiring._bench.runner.Suite` named ``name`` (a key of :data:`SUITES`)."""
    return importlib.import_module(f"{__name__}.{SUITES[name]}").SUITE
