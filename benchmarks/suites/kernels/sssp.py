"""SSSP systems on one weighted graph and their reference distances.

Reference: scipy's Dijkstra on CPU graphs and on GPU graphs of at most
:data:`DIJKSTRA_REF_MAX` entries; beyond, semiring's algebra delta-stepping on the device,
itself checked on the device as ``check_sssp`` does (every edge relaxed, every distance
attained by an in-edge) for every root.
"""

from __future__ import annotations

import numpy as np

import semiring as sr
from semiring._bench.measure import System, engine_kw
from semiring._bench.references import RefStore
from semiring.testing.validate import ValidationError, check_sssp

from ...peers import host as peers
from ...peers.device import check_distances_device
from .bfs import BIG_ROOTS

#: Largest GPU-suite graph (stored entries) whose reference distances come from scipy's Dijkstra.
DIJKSTRA_REF_MAX = 5_000_000


def _metrics(r):
    return {"rounds": getattr(r, "rounds", None), "launches": getattr(r, "launches", None),
            "host_syncs": getattr(r, "host_syncs", None), "engine_used": getattr(r, "engine", None)}


def build(g, ctx):
    """The SSSP systems of loaded graph ``g`` (which has weights ``g.W``).

    Returns
    -------
    systems : list of System
    notes : list of str
    """
    cp, notes = ctx.cp, []
    on_gpu = g.W.device == "gpu"
    host_ok = g.host_ok
    peers_roots = min(BIG_ROOTS, ctx.roots_peers) if g.case.big else ctx.roots_peers
    xp = cp if on_gpu else np

    algebra = engine_kw(sr.algorithms.sssp, "algebra")

    def algebra_reference(root):
        r = sr.algorithms.sssp(g.GW, root, method="delta_stepping", **algebra)
        d = r.distance.to_dense(np.inf).astype(np.float64)
        if on_gpu:  # the reference itself passes the checks of check_sssp, on the device
            check_distances_device(cp, g.W, root, d)
        else:
            idx = np.flatnonzero(np.isfinite(d))
            check_sssp(g.W, root, sr.Vector.from_coo(idx, d[idx], size=g.n))
        return d

    use_dijkstra = host_ok and (not on_gpu or g.W.nvals <= DIJKSTRA_REF_MAX)
    if use_dijkstra:
        ref = RefStore(lambda r: xp.asarray(peers.scipy_dijkstra(g.scipy(True), r)))
    else:
        ref = RefStore(algebra_reference)
        notes.append(f"{g.case.name}: SSSP reference = semiring algebra delta-stepping on the {g.W.device} "
                     f"(checked like check_sssp on every root), not scipy's Dijkstra ({g.W.nvals:,} entries)")

    def compare(root, got):
        want = ref.get(root)
        got = cp.asarray(got) if xp is not np else (got.get() if hasattr(got, "get") else np.asarray(got))
        got = got.astype(np.float64)
        if xp.allclose(got, want, rtol=1e-9, atol=0):
            return {}
        v = int(xp.flatnonzero(~xp.isclose(got, want, rtol=1e-9, atol=0))[0])
        raise ValidationError(f"distance of vertex {v}: {float(got[v])}, reference {float(want[v])}")

    def check_semiring(root, r):
        return compare(root, r.distance.to_dense(np.inf))

    systems = []
    if use_dijkstra and host_ok:
        S = g.scipy(True)

        def check_dijkstra(root, dist):
            ref.offer(root, xp.asarray(dist))
            return compare(root, dist)

        systems.append(System("sssp", "scipy.sparse.csgraph.dijkstra", "cpu", lambda r: peers.scipy_dijkstra(S, r),
                              check_dijkstra, None, peers_roots))
    if on_gpu:
        systems.append(System("sssp", "semiring gpu", "gpu",
                              lambda r: sr.algorithms.sssp(g.GW, r, method="delta_stepping", engine="fused"),
                              check_semiring, _metrics, ctx.roots_main, "fused", "delta_stepping", optional=True))
        for method in ("delta_stepping", "bellman_ford"):
            systems.append(System("sssp", "semiring gpu", "gpu",
                                  lambda r, m=method: sr.algorithms.sssp(g.GW, r, method=m, **algebra),
                                  check_semiring, _metrics, peers_roots, "algebra", method))
    if not host_ok:
        notes.append(f"{g.case.name}: host SSSP systems skipped (graph too big to copy to the host)")
        return systems, notes
    Wh = g.host(True)
    Gh = sr.algorithms.Graph(Wh, g.GW.kind)
    for method in ("delta_stepping", "bellman_ford"):
        main = method == "delta_stepping" and not on_gpu
        systems.append(System("sssp", "semiring cpu", "cpu",
                              lambda r, m=method: sr.algorithms.sssp(Gh, r, method=m, **algebra),
                              check_semiring, _metrics, ctx.roots_main if main else peers_roots, "algebra", method))
    if not use_dijkstra:
        S = g.scipy(True)
        systems.append(System("sssp", "scipy.sparse.csgraph.dijkstra", "cpu", lambda r: peers.scipy_dijkstra(S, r),
                              compare, None, peers_roots))
    gb = peers.graphblas()
    if gb is None:
        notes.append("python-graphblas is not installed: its rows are absent (pip install python-graphblas)")
    else:
        GB = peers.gb_matrix(gb, Wh)
        systems.append(System("sssp", "python-graphblas Bellman-Ford (min_plus)", "cpu",
                              lambda r: peers.gb_bellman_ford(gb, GB, r),
                              lambda root, v: compare(root, peers.gb_dense(v, np.inf)), None, peers_roots))
    return systems, notes
