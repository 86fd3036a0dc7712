"""Coloring systems on one graph: semiring Jones-Plassmann (fused and algebra engines on the
GPU, CPU), semiring's sequential largest-first greedy (the baseline of the color ratio) and
networkx's ``greedy_color(strategy="largest_first")`` on small graphs.

A coloring run has no root: the "roots" of a row are repeated runs of the same deterministic
call (seed 0); every run's colors are checked (``check_coloring``: every vertex colored,
colors exactly 0..k-1, no edge between equal colors).
"""

from __future__ import annotations

import semiring as sr
from semiring._bench.measure import System, engine_kw
from semiring.testing.validate import check_coloring

from ...peers import host as peers
from ...peers.device import check_coloring_device

#: Repeated runs of the main coloring system (at most) and of the others.
MAIN_REPEATS, PEER_REPEATS = 10, 3


def build(g, ctx):
    """The coloring systems of loaded graph ``g``.

    Returns
    -------
    systems : list of System
    notes : list of str
    """
    cp, notes = ctx.cp, []
    on_gpu = g.A.device == "gpu"
    host_ok = g.host_ok
    main_reps = max(1, min(ctx.roots_main, MAIN_REPEATS))
    peer_reps = max(1, min(ctx.roots_peers, PEER_REPEATS))

    def check_host(_, color):
        return {"colors": check_coloring(g.host(), color)}

    def check_device(_, color):
        return {"colors": check_coloring_device(cp, g.A, color)}

    algebra = engine_kw(sr.algorithms.coloring, "algebra")
    systems = []
    if host_ok:
        Ah = g.host()
        systems.append(System("coloring", "semiring cpu", "cpu",
                              lambda _: sr.algorithms.coloring(Ah, method="greedy"),
                              check_host, None, 1, "sequential", "greedy (largest-first)",
                              note="baseline of the color ratio"))
    if on_gpu:
        systems.append(System("coloring", "semiring gpu", "gpu",
                              lambda _: sr.algorithms.coloring(g.G, method="jones_plassmann", engine="fused"),
                              check_device, None, main_reps, "fused", "jones_plassmann", optional=True))
        systems.append(System("coloring", "semiring gpu", "gpu",
                              lambda _: sr.algorithms.coloring(g.G, method="jones_plassmann", **algebra),
                              check_device, None, peer_reps, "algebra", "jones_plassmann"))
    if not host_ok:
        return systems, notes
    Gh = sr.algorithms.Graph(g.host(), "undirected" if g.undirected else "directed")
    systems.append(System("coloring", "semiring cpu", "cpu",
                          lambda _: sr.algorithms.coloring(Gh, method="jones_plassmann", **algebra),
                          check_host, None, peer_reps if on_gpu else main_reps, "algebra", "jones_plassmann"))
    nx = peers.networkx()
    if nx is not None and g.A.nvals < peers.NETWORKX_MAX_EDGES:
        gx = peers.nx_graph(nx, g.scipy(), True)

        def check_nx(_, col):
            return {"colors": check_coloring(g.host(), sr.Vector.from_dense(col))}

        systems.append(System("coloring", "networkx greedy_color", "cpu",
                              lambda _: peers.nx_greedy(nx, gx, g.n), check_nx, None, peer_reps, None, "largest_first"))
    return systems, notes


def add_ratios(rows):
    """Give every coloring row ``colors_ratio`` = its colors / the greedy baseline's colors
    on the same graph (in place)."""
    def colored(r):
        return r["kernel"] == "coloring" and isinstance(r.get("colors"), (int, float))

    base = {r["graph"]: r["colors"] for r in rows if colored(r) and r.get("engine") == "sequential"}
    for r in rows:
        if colored(r) and r["graph"] in base:
            r["colors_ratio"] = r["colors"] / base[r["graph"]]
    return rows


def roots(n):
    """Coloring rows have no roots: run indices 0..n-1."""
    return list(range(n))

