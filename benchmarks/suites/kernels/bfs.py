"""BFS systems on one graph, their reference levels and their Graph500 edge counts.

GPU graphs: the cupyx SpMV BFS runs first and its (device-validated) levels are the reference;
then semiring's fused engine (``engine="fused"``, directions auto / push / pull, the main
system, ``--roots`` roots) and algebra engine (auto / push / pull / edge), then the host
systems where a host copy is cheap. CPU graphs: scipy's BFS is the reference.
"""

from __future__ import annotations

import numpy as np

import semiring as sr
from semiring._bench.measure import System, engine_kw
from semiring._bench.references import RefStore, levels_from_tree, traversed_edges
from semiring.testing.validate import ValidationError, check_bfs

from ...harness.graphs import HOST_MAX_ENTRIES, csr_arrays
from ...peers import host as peers
from ...peers.device import check_levels_device, cupyx_bfs, cupyx_operator

#: Roots of the slow (generic) systems on the big graphs of the GPU suite.
BIG_ROOTS = 4


def semiring_metrics(A, bytes_model):
    """Per-run facts read off a BFSResult: edges inspected, levels, launches, host syncs and
    (with ``bytes_model``) the estimated bytes read.

    Bytes model per level: push reads 2 indptr entries per frontier vertex, pull 2 per
    unvisited vertex, edge-centric a row and a column index per edge; plus one index per
    edge inspected and 4 bytes per vertex (the level / visited state).
    """
    ip, ix = csr_arrays(A)
    ptr, idx, n = ip.dtype.itemsize, ix.dtype.itemsize, A.nrows

    def metrics(r):
        trace = getattr(r, "trace", None) or []
        out = {"levels": getattr(r, "depth", None),
               "edges_inspected": sum(t.edges_examined for t in trace) if trace else None,
               "launches": getattr(r, "launches", None), "host_syncs": getattr(r, "host_syncs", None),
               "engine_used": getattr(r, "engine", None)}
        if bytes_model:
            total, visited = 0, 1
            for t in trace:
                rows = {"push": t.frontier, "pull": n - visited}.get(t.direction, 0)
                per_edge = 2 * idx if t.direction == "edge" else idx
                total += 2 * ptr * rows + per_edge * t.edges_examined + 4 * n
                visited += t.discovered
            out["bytes"] = total if trace else None
        return out

    return metrics


def build(g, ctx, *, cpu_dirs=None, peers_on=True, host=None):
    """The BFS systems of loaded graph ``g``.

    Parameters
    ----------
    g : benchmarks.harness.graphs.Loaded
    ctx : semiring._bench.runner.Ctx
    cpu_dirs : tuple of str, optional
        Directions of the semiring cpu rows (default: all four on a CPU graph, auto only on a
        GPU graph).
    peers_on : bool
        Include python-graphblas and networkx.
    host : bool, optional
        Run the host systems (default ``g.host_ok``).

    Returns
    -------
    systems : list of System
    edges_of : callable ``root -> float``   traversed input edges (Graph500)
    notes : list of str
    """
    cp, notes = ctx.cp, []
    on_gpu = g.A.device == "gpu"
    host_ok = g.host_ok if host is None else host
    peers_roots = min(BIG_ROOTS, ctx.roots_peers) if g.case.big else ctx.roots_peers
    algebra = engine_kw(sr.algorithms.bfs, "algebra")
    op = None
    if on_gpu:
        try:
            op = cupyx_operator(cp, g.A, g.undirected)
        except ValueError as exc:
            notes.append(f"{g.case.name}: cupyx BFS not run: {exc}")
        dtype = "int16" if g.case.big else "int32"

        def device_reference(r):
            if op is not None:
                return cupyx_bfs(cp, op, r, dtype)
            level = sr.algorithms.bfs(g.G, r, **algebra).level.to_dense(-1)
            check_levels_device(cp, g.A, r, level)
            return level

        ref = RefStore(device_reference)
        xp = cp
    else:
        ref = RefStore(lambda r: peers.scipy_levels(g.scipy(), r))
        xp = np
    edge_counts = {}

    def edges_of(root):
        if root not in edge_counts:
            edge_counts[root] = traversed_edges(g.degree, ref.get(root) >= 0, g.undirected)
        return edge_counts[root]

    def compare(root, got):
        want = ref.get(root)
        got = cp.asarray(got) if xp is not np else (got.get() if hasattr(got, "get") else np.asarray(got))
        if xp.array_equal(got, want):
            return {}
        if on_gpu:  # levels are unique: a result that passes the Graph500 checks is right
            check_levels_device(cp, g.A, root, got)
            return {"note": "reference levels differ but the result passes the Graph500 checks"}
        v = int(np.flatnonzero(got != want)[0])
        raise ValidationError(f"level of vertex {v}: {int(got[v])}, reference (scipy) {int(want[v])}")

    def check_semiring(root, r):
        return compare(root, r.level.to_dense(-1))

    systems = []
    if op is not None:
        def check_cupyx(root, level):
            check_levels_device(cp, g.A, root, level)
            ref.offer(root, level.astype(dtype))
            return compare(root, level)

        def cupyx_metrics(level):
            d = int(level.max())
            return {"levels": d, "edges_inspected": (d + 1) * int(g.A.nvals), "host_syncs": d + 1, "launches": None}

        systems.append(System("bfs", "cupyx SpMV (float32, level-synchronous)", "gpu",
                              lambda r: cupyx_bfs(cp, op, r), check_cupyx, cupyx_metrics, peers_roots))
    if on_gpu:
        for d in ("auto", "push", "pull"):
            systems.append(System("bfs", "semiring gpu", "gpu",
                                  lambda r, d=d: sr.algorithms.bfs(g.G, r, direction=d, engine="fused"),
                                  check_semiring, semiring_metrics(g.A, True), ctx.roots_main, "fused", d,
                                  optional=True))
        for d in ("auto", "push", "pull", "edge"):
            systems.append(System("bfs", "semiring gpu", "gpu",
                                  lambda r, d=d: sr.algorithms.bfs(g.G, r, direction=d, **algebra),
                                  check_semiring, semiring_metrics(g.A, True), peers_roots, "algebra", d))
    if not host_ok:
        notes.append(f"{g.case.name}: host systems (semiring cpu, scipy, python-graphblas) skipped: "
                     f"{g.A.nvals:,} entries (more than {HOST_MAX_ENTRIES:,}, or a graph marked big): one host run "
                     "would take tens of seconds")
        return systems, edges_of, notes
    S = g.scipy()
    checked = []

    def check_scipy(root, out):
        levels = levels_from_tree(out[0], out[1], root)
        if not on_gpu:
            if not checked:  # the reference itself passes the Graph500 checks (first root)
                idx = np.flatnonzero(levels >= 0)
                check_bfs(g.host(), root, sr.Vector.from_coo(idx, levels[idx], size=g.n, dtype="int64"))
                checked.append(root)
            ref.offer(root, levels)
        return compare(root, levels)

    systems.insert(len(systems) if on_gpu else 0, System(
        "bfs", "scipy.sparse.csgraph.breadth_first_order", "cpu", lambda r: peers.scipy_bfs(S, r), check_scipy,
        None, peers_roots))
    Gh = sr.algorithms.Graph(g.host(), "undirected" if g.undirected else "directed")
    if cpu_dirs is None:
        cpu_dirs = ("auto",) if on_gpu else ("auto", "push", "pull", "edge")
    for d in cpu_dirs:
        systems.append(System("bfs", "semiring cpu", "cpu",
                              lambda r, d=d: sr.algorithms.bfs(Gh, r, direction=d, **algebra),
                              check_semiring, semiring_metrics(g.host(), False),
                              ctx.roots_main if (d == "auto" and not on_gpu) else peers_roots, "algebra", d))
    if not peers_on:
        return systems, edges_of, notes
    gb = peers.graphblas()
    if gb is None:
        notes.append("python-graphblas is not installed: its rows are absent (pip install python-graphblas)")
    else:
        GB = peers.gb_matrix(gb, g.host())
        systems.append(System("bfs", "python-graphblas (any_pair, push)", "cpu",
                              lambda r: peers.gb_bfs_levels(gb, GB, r),
                              lambda root, v: compare(root, peers.gb_dense(v, -1)), None, peers_roots))
    nx = peers.networkx()
    if nx is not None and g.A.nvals < peers.NETWORKX_MAX_EDGES:
        gx = peers.nx_graph(nx, S, g.undirected)
        systems.append(System("bfs", "networkx single_source_shortest_path_length", "cpu",
                              lambda r: peers.nx_levels(nx, gx, r, g.n), compare, None, peers_roots))
    return systems, edges_of, notes
