"""Checks of the CPU algorithm table: every system's answer, in one host form per algorithm,
against a reference computed once per graph (and source) without the systems' code where one
exists (:mod:`benchmarks.peers.oracles`).

Answer forms and what is compared:

- bfs: int64 levels, -1 unreached; equal to ``csgraph.shortest_path(unweighted=True)``;
- sssp: float64 distances, inf unreached; within 1e-9 relative of SciPy's Dijkstra, same reach;
- connected_components, strongly_connected_components: int64 labels; the same partition as
  SciPy's (weak) or the published labels of cnr-2000 (strong), up to renaming;
- pagerank: float64 ranks; L1 distance to a power iteration run to tol 1e-10 below
  ``PAGERANK_SLACK * n * tol`` (each system stops when its own L1 change is below ``n tol``, so it
  may lie up to ``alpha / (1 - alpha) n tol`` from the fixed point);
- triangle_count: int; equal to SciPy's ``sum(L .* (L L))``;
- minimum_spanning_forest: edges (u < v, weight); ``n - c`` of them, each an edge of the graph with
  its weight, spanning its components, of total weight equal to SciPy's minimum spanning tree's;
- betweenness_centrality: float64 raw dependency sums over the sources (Brandes, unscaled);
  within 1e-9 relative of Brandes over SciPy BFS;
- louvain: int64 labels; a partition of every vertex with modularity at least the graph's
  :data:`MODULARITY_FLOOR` (communities and modularity reported);
- coloring: int64 colors; every vertex colored 0..k-1, no edge inside a color (k reported);
- masked vxm: the result's indices and values; the frontier's out-neighbours not visited, every
  value true (SciPy rows of the frontier).

Each check returns ``(ok, detail, facts)``; ``facts`` are numbers the report shows (colors,
communities, modularity).
"""

from __future__ import annotations

import math

import numpy as np
import scipy.sparse as sp
import scipy.sparse.csgraph as csgraph

from ...peers import oracles as oracle

#: PageRank: allowed L1 distance to the converged ranks, in units of ``n tol``.
PAGERANK_SLACK = 10.0
#: Louvain: the least modularity a partition must reach, by graph: about three quarters of what
#: networkx's Louvain (seed 0) reaches (Kronecker graphs have weak community structure, and many
#: isolated vertices: 0.093 on scale 16, 0.134 on scale 8). A broken move phase gives 0 (one
#: community) or less (singletons).
MODULARITY_FLOOR = {"kron16": 0.07, "kron8": 0.1}
#: The floor of graphs not named above.
MODULARITY_FLOOR_DEFAULT = 0.1


def _cached(H, key, make):
    if key not in H.cache:
        H.cache[key] = make()
    return H.cache[key]


def _labels_check(ours, ref, what):
    ok, detail = oracle._same_labels(oracle.smallest_member(np.asarray(ours, dtype=np.int64)), ref, what)
    return ok, detail, {}


def check_bfs(H, levels, root):
    ref = _cached(H, ("bfs", root), lambda: np.where(np.isinf(d := csgraph.shortest_path(
        H.S, directed=True, unweighted=True, indices=root)), -1, d).astype(np.int64))
    bad = np.flatnonzero(levels != ref)
    if bad.size:
        v = int(bad[0])
        return False, f"{bad.size} levels differ, e.g. vertex {v}: {int(levels[v])} vs {int(ref[v])} (scipy)", {}
    return True, f"{int(ref.max()) + 1} levels, {int((ref >= 0).sum()):,} reached, equal to scipy's", {}


def check_sssp(H, dist, root):
    ref = _cached(H, ("sssp", root), lambda: csgraph.dijkstra(H.Ws, directed=True, indices=root))
    fin = np.isfinite(ref)
    same = np.array_equal(fin, np.isfinite(dist))
    close = same and np.allclose(dist[fin], ref[fin], rtol=1e-9, atol=0)
    if not close:
        what = "reach differs" if not same else f"max difference {float(np.max(np.abs(dist[fin] - ref[fin]))):.3g}"
        return False, f"distances differ from scipy's Dijkstra: {what}", {}
    return True, f"{int(fin.sum()):,} reached, max distance {float(ref[fin].max()):,.6g}, equal to scipy's", {}


def check_components(H, labels, _):
    ref = _cached(H, "cc", lambda: oracle.smallest_member(
        csgraph.connected_components(H.S, directed=True, connection="weak")[1]))
    return _labels_check(labels, ref, "scipy weak")


def check_scc(H, labels, data):
    def make():
        import os

        path = os.path.join(data, H.spec.scc) if H.spec.scc else None
        if path and os.path.exists(path):
            return oracle.smallest_member(oracle.published_scc(path)), os.path.basename(path)
        lab = csgraph.connected_components(H.S, directed=True, connection="strong")[1]
        return oracle.smallest_member(lab), "scipy strong"
    ref, what = _cached(H, "scc", make)
    if ref.shape[0] != labels.shape[0]:
        return False, f"{labels.shape[0]} labels, the reference has {ref.shape[0]}", {}
    return _labels_check(labels, ref, what)


def check_pagerank(H, ranks, _, tol=1e-6):
    ref = _cached(H, "pagerank", lambda: oracle.scipy_pagerank(H.S, max_iter=1000, tol=1e-10))
    n = ref.shape[0]
    l1 = float(np.abs(ranks - ref).sum()) if np.isfinite(ranks).all() else math.inf
    limit = PAGERANK_SLACK * n * tol
    return l1 < limit, f"L1 distance {l1:.1e} to the converged ranks (limit {limit:.1e})", {}


def check_triangles(H, count, _):
    ref = _cached(H, "triangles", lambda: oracle.scipy_triangles(H.S))
    return int(count) == ref, f"{int(count):,} triangles (scipy {ref:,})", {}


def forest_edges(r, c, w):
    """One (u < v, weight) per undirected edge of a forest given one way or both ways."""
    r, c, w = (np.asarray(a) for a in (r, c, w))
    u, v = np.minimum(r, c).astype(np.int64), np.maximum(r, c).astype(np.int64)
    key, first = np.unique(u * (int(max(r.max(), c.max())) + 1 if r.size else 1) + v, return_index=True)
    return u[first], v[first], np.asarray(w, dtype=np.float64)[first]


def check_forest(H, edges, _):
    u, v, w = edges

    def make():
        T = csgraph.minimum_spanning_tree(H.Ws)
        nc, lab = csgraph.connected_components(H.Ws, directed=False)
        return float(T.sum()), nc, oracle.smallest_member(lab)
    best, nc, comp = _cached(H, "forest", make)
    n = H.n
    problems = []
    if u.shape[0] != n - nc:
        problems.append(f"{u.shape[0]:,} edges, expected n - c = {n - nc:,}")
    if u.size and not np.array_equal(np.asarray(H.Ws[u, v]).ravel(), w):
        problems.append("edges that are not the graph's (or carry other weights)")
    F = sp.csr_matrix((np.ones(u.shape[0]), (u, v)), shape=(n, n))
    if not np.array_equal(oracle.smallest_member(csgraph.connected_components(F, directed=False)[1]), comp):
        problems.append("does not span the graph's components")
    total = float(w.sum())
    if not math.isclose(total, best, rel_tol=1e-12, abs_tol=1e-9):
        problems.append(f"weight {total:,.6g}, scipy's {best:,.6g}")
    detail = f"{u.shape[0]:,} edges, weight {total:,.6g}" + ("; " + "; ".join(problems) if problems else
                                                             " (scipy's minimum spanning tree)")
    return not problems, detail, {}


def betweenness_scale(H, sources):
    """Per vertex: the factor networkx's ``_rescale`` (normalized, endpoints excluded) applies to
    the raw dependency sums."""
    from networkx.algorithms.centrality.betweenness import _rescale

    ones = dict.fromkeys(range(H.n), 1.0)
    scaled = _rescale(ones, H.n, normalized=True, directed=H.kind == "directed", endpoints=False,
                      sampled_nodes=list(sources))
    return np.fromiter((scaled[i] for i in range(H.n)), dtype=np.float64, count=H.n)


def check_betweenness(H, raw, sources):
    ref = _cached(H, ("betweenness", tuple(sources)), lambda: oracle.brandes_raw(H.S, np.asarray(sources)))
    ok = bool(np.allclose(raw, ref, rtol=1e-9, atol=1e-9 * max(1.0, float(ref.max(initial=0)))))
    diff = float(np.max(np.abs(raw - ref), initial=0.0)) if np.isfinite(raw).all() else math.inf
    return ok, f"{len(sources)} sources, max difference {diff:.1e} to Brandes over scipy BFS " \
               f"(largest {float(ref.max(initial=0)):,.6g})", {}


def check_louvain(H, labels, _):
    lab = np.asarray(labels, dtype=np.int64)
    if lab.shape[0] != H.n or (lab < 0).any():
        return False, "not every vertex has a community", {}
    _, dense = np.unique(lab, return_inverse=True)
    q = oracle.modularity_of(H.S, dense.astype(np.int64))
    k = int(dense.max()) + 1 if dense.size else 0
    floor = MODULARITY_FLOOR.get(H.spec.name, MODULARITY_FLOOR_DEFAULT)
    return q >= floor, f"{k:,} communities, modularity {q:.4f} (floor {floor})", {"communities": k, "modularity": q}


def check_coloring(H, colors, _):
    import semiring as sr

    v, k = oracle.check_coloring(H.S, sr.Vector.from_dense(np.asarray(colors, dtype=np.int64), backend="numpy"))
    return bool(v.ok), v.detail, {"colors": k}


def check_vxm(H, answer, case):
    idx, vals = answer
    expect = case["expect"]
    if not np.array_equal(np.asarray(idx, dtype=np.int64), expect):
        return False, f"{len(idx)} positions, the oracle (scipy rows of the frontier) {expect.size}", {}
    if not np.all(vals):
        return False, "a value is not true (any_pair)", {}
    return True, f"frontier {case['frontier']}, {case['visited']:,} of {H.n:,} visited, {expect.size} in the result", {}


CHECKS = {"bfs": check_bfs, "sssp": check_sssp, "connected_components": check_components,
          "strongly_connected_components": check_scc, "pagerank": check_pagerank, "triangle_count": check_triangles,
          "minimum_spanning_forest": check_forest, "betweenness_centrality": check_betweenness,
          "louvain": check_louvain, "coloring": check_coloring, "masked_vxm": check_vxm}
