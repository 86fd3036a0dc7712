"""The gpu suite: BFS, SSSP and coloring on the GPU, semiring's fused and algebra engines beside
a plain cupyx SpMV BFS and the host peers where a host copy is cheap, every result validated (on
the device for the largest graphs). ``--size full`` fits in one 10-minute command on an H100 or
H200 (graph generation and reading included); without a GPU it says why and runs nothing.

Graphs (full): Graph500 Kronecker scale 21 (weights 1..255) and 24, USA-road-NE, USA-road-t.NY,
a random geometric graph of 2^20 vertices; ``--size tiny``: :func:`.kernels.tiny_cases`.
"""

from __future__ import annotations

from semiring._bench.runner import Limits, Suite

from ..harness import graphs
from . import kernels
from .kernels import report, targets


def cases(size):
    """The graph cases at ``size``."""
    if size == "tiny":
        return kernels.tiny_cases()
    return [graphs.kron(21), graphs.kron(24, ("bfs",), big=True),
            graphs.data("USA-road-NE", "roads/USA-road-NE.mtx.gz", ("bfs",), "undirected"),
            graphs.data("USA-road-t.NY", "roads/USA-road-t.NY.gr.gz", ("sssp", "bfs"), None, weighted=True),
            graphs.rgg(20, ("coloring",))]


SUITE = Suite(
    "gpu", "BFS, SSSP and coloring on the GPU engine beside cupyx and the host peers (10 minutes on an H100/H200)",
    lambda ctx: kernels.run_suite(cases(ctx.size), ctx),
    tables=lambda doc: report.kernel_tables(doc["rows"], doc["meta"].get("copy_bandwidth")),
    targets=lambda doc: targets.gpu_targets(doc["rows"]), method=report.method,
    limits={"full": Limits(64, 8, 10.0, 480.0)}, device="gpu", cpu_warmup=False,
    graph_names=lambda size: [c.name for c in cases(size)])
