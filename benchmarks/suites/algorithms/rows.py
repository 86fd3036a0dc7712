"""The algorithms suite's rows: for every graph algorithm, the call that is timed, the oracle
check of its result (:mod:`benchmarks.peers.oracles`) and its CPU peer
(:mod:`benchmarks.peers.algorithms`), on the graphs of its role."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

import semiring as sr

from ...peers import algorithms as peers
from ...peers import oracles as oracle


@dataclass
class Bench:
    """One algorithm call: ``run(G, L)`` is timed, ``check(result, L, data)`` gives a Verdict.

    ``graphs`` names its shared and its generated graph (keys of :func:`specs`); ``peer`` is its
    CPU peer (:class:`benchmarks.peers.algorithms.Peer`) or None.
    """

    algorithm: str
    variant: str
    graphs: tuple
    weighted: bool
    run: Callable
    check: Callable
    peer: peers.Peer | None = field(default=None)


def _spread(L, k):
    """k vertices of degree >= 1, evenly spaced by index (fixed: no random draw)."""
    key = ("spread", k)
    if key not in L.cache:
        cand = np.flatnonzero(np.diff(L.S.indptr))
        k = min(k, cand.size)
        L.cache[key] = np.unique(cand[np.linspace(0, cand.size - 1, k).astype(np.int64)]) if k else cand
    return L.cache[key]


def _kl_start(L):
    """A random bisection (n // 2 vertices on side 1, seed 0), made here so the check knows it."""
    if "kl_start" not in L.cache:
        side = np.zeros(L.n, dtype=np.int64)
        side[np.random.default_rng(0).permutation(L.n)[: L.n // 2]] = 1
        L.cache["kl_start"] = side
    return L.cache["kl_start"]


def _blocks(L):
    return np.arange(L.n, dtype=np.int64) * 16 // max(L.n, 1)


def _louvain_check(res, L, data):
    verdict, q = oracle.check_louvain(L.S, res)
    L.cache["louvain"] = res
    return verdict


def _modularity_run(G, L):
    labels = L.cache.get("louvain")
    if labels is None:
        labels = sr.Vector.from_dense(_blocks(L), device=G.A.device)
    return labels, alg().modularity(G, labels)


def _modularity_check(res, L, data):
    labels, q = res
    v = oracle.check_modularity(L.S, labels, q)
    if "louvain" not in L.cache:
        v.detail += " (of 16 blocks of consecutive vertices: louvain gave no partition)"
    return v


def _partition_check(k):
    def check(res, L, data):
        return oracle.check_partition(L.S, res, k, 0.03, alg().edge_cut(L.graph(False), res))
    return check


def _scc_check(res, L, data):
    pub = os.path.join(data, L.spec.scc) if L.spec.scc else None
    return oracle.check_scc(L.S, res, pub)


def alg():
    return sr.algorithms


ROADS_K14 = ("roads", "kron14")
ROADS_K16 = ("roads", "kron16")
DIRECTED = ("web", "kron14-directed")
SMALL = ("fw", "kron8")


def benches(size):
    """Every row's call, check and peer, in the order the table lists them (both graphs of an
    algorithm together)."""
    k_bc = 4 if size == "tiny" else 16
    k_apsp = 8 if size == "tiny" else 32
    mst = peers.of_oracle("scipy minimum_spanning_tree")
    greedy = peers.NX_GREEDY_COLOR
    out = [
        Bench("connected_components", "", ROADS_K14, False,
              lambda G, L: alg().connected_components(G), lambda r, L, d: oracle.check_components(L.S, r),
              peers.of_oracle("scipy connected_components")),
        Bench("strongly_connected_components", "", DIRECTED, False,
              lambda G, L: alg().strongly_connected_components(G), _scc_check, peers.SCIPY_STRONG),
        Bench("pagerank", "alpha=0.85, tol=1e-6", DIRECTED, False,
              lambda G, L: alg().pagerank(G), lambda r, L, d: oracle.check_pagerank(L.S, r),
              peers.of_oracle("scipy power iteration (networkx _pagerank_scipy)")),
    ]
    for m in ("sandia", "sandia2", "cohen", "burkhardt"):
        out.append(Bench("triangle_count", f"method={m}", ROADS_K14, False,
                         lambda G, L, m=m: alg().triangle_count(G, method=m),
                         lambda r, L, d: oracle.check_triangles(L.S, r, L.cache),
                         peers.of_oracle("scipy sum(L .* (L @ L))")))
    out += [
        Bench("minimum_spanning_forest", "method=boruvka", ROADS_K14, True,
              lambda G, L: alg().minimum_spanning_forest(G, method="boruvka"),
              lambda r, L, d: oracle.check_forest(L.Ws, r), mst),
        Bench("minimum_spanning_forest", "method=prim", SMALL, True,
              lambda G, L: alg().minimum_spanning_forest(G, method="prim"),
              lambda r, L, d: oracle.check_forest(L.Ws, r), mst),
        Bench("floyd_warshall", "", SMALL, True,
              lambda G, L: alg().floyd_warshall(G), lambda r, L, d: oracle.check_distances(L.Ws, r),
              peers.of_oracle("scipy shortest_path (Dijkstra, every source)")),
        Bench("all_pairs_shortest_paths", f"method=repeated, {k_apsp} sources", SMALL, True,
              lambda G, L: alg().all_pairs_shortest_paths(G, method="repeated", sources=_spread(L, k_apsp)),
              lambda r, L, d: oracle.check_distances(L.Ws, r, sources=_spread(L, k_apsp)),
              peers.of_oracle("scipy shortest_path (Dijkstra)")),
        Bench("all_pairs_shortest_paths", "method=batched_bfs, all sources", SMALL, False,
              lambda G, L: alg().all_pairs_shortest_paths(G, method="batched_bfs"),
              lambda r, L, d: oracle.check_distances(L.S, r, unweighted=True),
              peers.of_oracle("scipy shortest_path (unweighted, every source)")),
        Bench("betweenness_centrality", f"{k_bc} sources", ROADS_K16, False,
              lambda G, L: alg().betweenness_centrality(G, sources=_spread(L, k_bc)),
              lambda r, L, d: oracle.check_betweenness(L.S, _spread(L, k_bc), r, L.kind == "directed"),
              peers.of_oracle("scipy BFS + NumPy Brandes")),
        Bench("coloring", "method=gebremedhin_manne", ROADS_K14, False,
              lambda G, L: alg().coloring(G, method="gebremedhin_manne"),
              lambda r, L, d: oracle.check_coloring(L.S, r)[0], greedy),
        Bench("coloring", "method=jones_plassmann", ROADS_K14, False,
              lambda G, L: alg().coloring(G, method="jones_plassmann"),
              lambda r, L, d: oracle.check_coloring(L.S, r)[0], greedy),
    ]
    for k in (2, 8):
        out.append(Bench("partition", f"k={k}", ROADS_K14, False,
                         lambda G, L, k=k: alg().partition(G, k), _partition_check(k), peers.metis(k)))
    out += [
        Bench("louvain", "", ROADS_K16, False, lambda G, L: alg().louvain(G), _louvain_check, peers.NX_LOUVAIN),
        Bench("modularity", "of louvain's partition", ROADS_K16, False, _modularity_run, _modularity_check,
              peers.of_oracle("NumPy modularity by definition")),
        Bench("kernighan_lin_bisection", "random start (seed 0)", ROADS_K14, False,
              lambda G, L: alg().kernighan_lin_bisection(G, partition=_kl_start(L)),
              lambda r, L, d: oracle.check_bisection(L.S, r, _kl_start(L)), peers.nx_kernighan_lin(_kl_start)),
    ]
    return out
