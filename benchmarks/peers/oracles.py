"""Independent checks of the graph algorithms' results, for the algorithms suite
(:mod:`benchmarks.suites.algorithms`) and the cpu suite's algorithm table.

Every check works on host copies (NumPy arrays, scipy.sparse matrices) and uses SciPy, NumPy,
networkx or a published answer, never the engine it checks: scipy.sparse.csgraph for
components, minimum spanning trees and shortest paths; a power iteration written like
networkx's ``_pagerank_scipy`` for PageRank; ``tril(A) (tril(A) tril(A))`` summed for triangles;
Brandes' accumulation over scipy BFS distances with networkx's ``_rescale`` for betweenness;
the definitions for modularity, edge cuts, balance and colorings.

Each ``check_*`` returns a :class:`Verdict`. A check raises only on a bug in the check itself
(the caller reports it in the row).
"""

from __future__ import annotations

import gzip
import math
import os
import time
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
import scipy.sparse.csgraph as csgraph

from semiring.backends._xp import asnumpy


@dataclass
class Verdict:
    """Outcome of a check.

    Attributes
    ----------
    ok : bool or None
        True: the result matches the oracle; False: it does not; None: no oracle ran.
    detail : str
        What was compared, with the values (counts, cut, modularity, largest difference).
    oracle : str
        The oracle's name.
    oracle_s : float or None
        Seconds the oracle itself took (not the comparison), where it is a computation.
    """

    ok: bool | None
    detail: str
    oracle: str
    oracle_s: float | None = None


def _timed(fn, *args):
    t = time.perf_counter()
    out = fn(*args)
    return out, time.perf_counter() - t


def host_vector(v, fill):
    """Dense host array of a Vector (any device)."""
    return asnumpy(v.to_dense(fill))


def host_coo(M):
    """(rows, cols, values) host arrays of a Matrix (any device)."""
    return tuple(asnumpy(a) for a in M.to_coo())


def smallest_member(labels):
    """Each vertex's label replaced by the smallest vertex with the same label."""
    n = labels.shape[0]
    _, inv = np.unique(labels, return_inverse=True)
    first = np.full(inv.max() + 1 if n else 0, n, dtype=np.int64)
    np.minimum.at(first, inv, np.arange(n, dtype=np.int64))
    return first[inv]


def _same_labels(ours, expected, what):
    bad = np.flatnonzero(ours != expected)
    ncomp = int(np.count_nonzero(expected == np.arange(expected.shape[0])))
    if bad.size:
        v = int(bad[0])
        return False, f"{bad.size} vertices differ, e.g. vertex {v}: {int(ours[v])} vs {int(expected[v])} ({what})"
    return True, f"{ncomp:,} components, labels equal ({what})"


# --------------------------------------------------------------------------------------------
# components
# --------------------------------------------------------------------------------------------

def check_components(S, labels):
    """Weak components: scipy.sparse.csgraph.connected_components(connection='weak')."""
    (nc, lab), t = _timed(lambda: csgraph.connected_components(S, directed=True, connection="weak"))
    ok, detail = _same_labels(host_vector(labels, -1), smallest_member(lab), "scipy")
    return Verdict(ok, detail, "scipy connected_components", t)


def published_scc(path):
    """Per-vertex strong-component labels from a ``*.scc.txt.gz`` file ('#' comment lines)."""
    with gzip.open(path, "rt") as f:
        return np.loadtxt(f, dtype=np.int64, comments="#")


def check_scc(S, labels, published=None):
    """Strong components against a published labelling (a file path) or, without one, scipy."""
    ours = host_vector(labels, -1)
    if published is not None and os.path.exists(published):
        ref, t = _timed(published_scc, published)
        if ref.shape[0] != ours.shape[0]:
            return Verdict(False, f"published labels cover {ref.shape[0]} vertices, the graph has {ours.shape[0]}",
                           "published labels", t)
        ok, detail = _same_labels(ours, smallest_member(ref), os.path.basename(published))
        return Verdict(ok, detail, "published labels", t)
    (nc, lab), t = _timed(lambda: csgraph.connected_components(S, directed=True, connection="strong"))
    ok, detail = _same_labels(ours, smallest_member(lab), "scipy strong")
    return Verdict(ok, detail, "scipy connected_components(strong)", t)


# --------------------------------------------------------------------------------------------
# PageRank
# --------------------------------------------------------------------------------------------

def scipy_pagerank(S, alpha=0.85, max_iter=100, tol=1e-6):
    """networkx's ``_pagerank_scipy`` for uniform teleport and dangling distributions."""
    n = S.shape[0]
    A = sp.csr_matrix(S, dtype=np.float64)
    out = np.asarray(A.sum(axis=1)).ravel()
    inv = np.zeros(n)
    inv[out != 0] = 1.0 / out[out != 0]
    AT = (sp.diags(inv) @ A).T.tocsr()
    dangling = np.flatnonzero(out == 0)
    p = np.full(n, 1.0 / n)
    x = p.copy()
    for _ in range(max_iter):
        last = x
        x = alpha * (AT @ x + x[dangling].sum() * p) + (1 - alpha) * p
        if np.abs(x - last).sum() < n * tol:
            return x
    raise RuntimeError(f"the scipy power iteration did not converge in {max_iter} iterations")


def check_pagerank(S, ranks, tol=1e-6):
    """Ranks within the stopping tolerance (L1 < n tol) of the scipy power iteration."""
    ref, t = _timed(scipy_pagerank, S)
    ours = host_vector(ranks, np.nan)
    n = ref.shape[0]
    l1 = float(np.abs(ours - ref).sum())
    ok = bool(np.isfinite(ours).all() and l1 < n * tol)
    return Verdict(ok, f"L1 distance {l1:.2e} (limit n tol = {n * tol:.2e}), sum {ours.sum():.9f}",
                   "scipy power iteration", t)


# --------------------------------------------------------------------------------------------
# triangles
# --------------------------------------------------------------------------------------------

def scipy_triangles(S):
    """sum(L .* (L L)) with L the strictly lower triangle of the pattern."""
    P = sp.csr_matrix(S, dtype=np.int64)
    P.data[:] = 1
    L = sp.tril(P, -1, format="csr")
    return int((L @ L).multiply(L).sum())


def check_triangles(S, count, cache):
    if "triangles" not in cache:
        cache["triangles"] = _timed(scipy_triangles, S)
    ref, t = cache["triangles"]
    return Verdict(count == ref, f"{count:,} triangles (scipy {ref:,})", "scipy tril products", t)


# --------------------------------------------------------------------------------------------
# minimum spanning forest
# --------------------------------------------------------------------------------------------

def check_forest(W, F):
    """F (a Matrix) is a spanning forest of W (scipy, symmetric, positive weights) of the
    minimum total weight: its entries are W's, it has 2 (n - c) of them, it connects what W
    connects, and its weight equals scipy's minimum_spanning_tree."""
    n = W.shape[0]
    (T, t) = _timed(csgraph.minimum_spanning_tree, W)
    best = T.sum()
    nc, lab = csgraph.connected_components(W, directed=False)
    r, c, v = host_coo(F)
    problems = []
    if r.shape[0] != 2 * (n - nc):
        problems.append(f"{r.shape[0]} entries, expected 2 (n - c) = {2 * (n - nc)}")
    if r.shape[0]:
        wv = np.asarray(W[r, c]).ravel()
        if not np.array_equal(wv, v.astype(wv.dtype)):
            problems.append("entries that are not edges of A (or carry other weights)")
    Fs = sp.csr_matrix((np.ones(r.shape[0]), (r, c)), shape=(n, n))
    fc, flab = csgraph.connected_components(Fs, directed=False)
    if fc != nc or not np.array_equal(smallest_member(flab), smallest_member(lab)):
        problems.append(f"{fc} components, A has {nc}")
    total = float(v.sum()) / 2
    if not math.isclose(total, float(best), rel_tol=1e-12, abs_tol=1e-9):
        problems.append(f"weight {total} vs scipy {float(best)}")
    detail = f"{r.shape[0] // 2:,} edges, weight {total:,.6g} (scipy {float(best):,.6g})"
    return Verdict(not problems, detail + ("; " + "; ".join(problems) if problems else ""),
                   "scipy minimum_spanning_tree", t)


# --------------------------------------------------------------------------------------------
# shortest paths
# --------------------------------------------------------------------------------------------

def dense_of(D, nrows, ncols):
    """Dense float64 host array of a distance Matrix, inf where absent."""
    r, c, v = host_coo(D)
    out = np.full((nrows, ncols), np.inf)
    out[r, c] = v
    return out


def check_distances(W, D, sources=None, unweighted=False):
    """Rows of D against scipy's Dijkstra (or BFS hop counts with ``unweighted``)."""
    n = W.shape[0]
    ref, t = _timed(lambda: csgraph.shortest_path(W, method="D", directed=True, unweighted=unweighted,
                                                  indices=sources))
    ref = np.atleast_2d(ref)
    ours = dense_of(D, ref.shape[0], n)
    same_inf = np.array_equal(np.isinf(ours), np.isinf(ref))
    fin = np.isfinite(ref)
    diff = float(np.max(np.abs(ours[fin] - ref[fin]), initial=0.0))
    ok = bool(same_inf and np.allclose(ours[fin], ref[fin], rtol=1e-12, atol=0))
    return Verdict(ok, f"{int(fin.sum()):,} reachable pairs, max abs difference {diff:.3g}"
                   + ("" if same_inf else "; reachability differs"), "scipy shortest_path", t)


# --------------------------------------------------------------------------------------------
# betweenness
# --------------------------------------------------------------------------------------------

def brandes_raw(S, sources):
    """Brandes' dependency sums over ``sources`` (networkx's unscaled accumulation), with
    scipy BFS distances and one NumPy pass per level."""
    n = S.shape[0]
    C = sp.coo_matrix(S)
    r, c = C.row.astype(np.int64), C.col.astype(np.int64)
    dist = np.atleast_2d(csgraph.shortest_path(S, directed=True, unweighted=True, indices=sources))
    bc = np.zeros(n)
    for i, s in enumerate(np.asarray(sources).tolist()):
        d = dist[i]
        tree = np.isfinite(d[r]) & (d[c] == d[r] + 1)
        tu, tv = r[tree], c[tree]
        lvl = d[tv].astype(np.int64)
        o = np.argsort(lvl, kind="stable")
        tu, tv, lvl = tu[o], tv[o], lvl[o]
        top = int(lvl[-1]) if lvl.size else 0
        cuts = np.searchsorted(lvl, np.arange(1, top + 2))
        sigma = np.zeros(n)
        sigma[s] = 1.0
        for k in range(top):
            a, b = cuts[k], cuts[k + 1]
            np.add.at(sigma, tv[a:b], sigma[tu[a:b]])
        delta = np.zeros(n)
        for k in range(top - 1, -1, -1):
            a, b = cuts[k], cuts[k + 1]
            u, v = tu[a:b], tv[a:b]
            np.add.at(delta, u, sigma[u] / sigma[v] * (1.0 + delta[v]))
        delta[s] = 0.0
        bc += delta
    return bc


def check_betweenness(S, sources, bc, directed):
    """Normalized sampled betweenness against Brandes over scipy BFS, scaled by networkx's
    ``_rescale`` (networkx 3.5+)."""
    try:
        from networkx.algorithms.centrality.betweenness import _rescale
    except ImportError as exc:
        return Verdict(None, f"networkx's _rescale is not available ({exc})", "scipy BFS + Brandes")
    n = S.shape[0]
    raw, t = _timed(brandes_raw, S, sources)
    try:
        scaled = _rescale(dict(enumerate(raw.tolist())), n, normalized=True, directed=directed, endpoints=False,
                          sampled_nodes=list(np.asarray(sources).tolist()))
    except TypeError as exc:  # networkx < 3.5: another _rescale (and another scaling of sampled sources)
        return Verdict(None, f"networkx's _rescale has another signature before 3.5 ({exc})", "scipy BFS + Brandes")
    ref = np.array([scaled[i] for i in range(n)])
    ours = host_vector(bc, np.nan)
    ok = bool(np.allclose(ours, ref, rtol=1e-9, atol=1e-12, equal_nan=True))
    return Verdict(ok, f"{len(sources)} sources, max abs difference {float(np.nanmax(np.abs(ours - ref))):.2e}, "
                   f"largest {float(np.nanmax(ref)):.4g}", "scipy BFS + Brandes, networkx _rescale", t)


# --------------------------------------------------------------------------------------------
# communities, partitions, colorings
# --------------------------------------------------------------------------------------------

def modularity_of(W, labels, resolution=1.0):
    """networkx's modularity (a self-loop of weight w: w inside, 2w in the degree)."""
    C = sp.coo_matrix(W)
    r, c, w = C.row, C.col, C.data.astype(np.float64)
    loop = r == c
    deg = np.bincount(r, weights=w, minlength=W.shape[0]) + np.bincount(r[loop], weights=w[loop],
                                                                        minlength=W.shape[0])
    two_m = deg.sum()
    same = labels[r] == labels[c]
    inside = w[same].sum() + w[loop].sum()
    tot = np.bincount(labels, weights=deg)
    return float(inside / two_m - resolution * (tot * tot).sum() / (two_m * two_m))


def check_louvain(W, labels):
    """Every vertex labelled, 0..K-1 numbered by smallest vertex, modularity above the
    singletons' (which is negative)."""
    lab = host_vector(labels, -1).astype(np.int64)
    n = lab.shape[0]
    problems = []
    K = int(lab.max()) + 1 if n else 0
    if n and (lab.min() < 0 or np.unique(lab).shape[0] != K):
        problems.append("labels are not exactly 0..K-1")
    first = np.full(K, n, dtype=np.int64)
    np.minimum.at(first, lab, np.arange(n))
    if K and not np.all(np.diff(first) > 0):
        problems.append("communities are not numbered by their smallest vertex")
    q, t = _timed(modularity_of, W, lab)
    if not q > 0:
        problems.append(f"modularity {q:.4f} <= 0")
    return Verdict(not problems, f"{K:,} communities, modularity {q:.4f}" + ("; " + "; ".join(problems)
                                                                            if problems else ""),
                   "partition check; modularity by definition (NumPy)", t), q


def check_modularity(W, labels, value):
    q, t = _timed(modularity_of, W, host_vector(labels, -1).astype(np.int64))
    return Verdict(math.isclose(value, q, rel_tol=1e-9, abs_tol=1e-12), f"{value:.6f} (NumPy {q:.6f})",
                   "modularity by definition (NumPy)", t)


def cut_of(S, parts):
    """Edges (each undirected edge once, self-loops never) between different parts."""
    C = sp.coo_matrix(S)
    return int(np.count_nonzero(parts[C.row] != parts[C.col])) // 2


def check_partition(S, parts, k, imbalance, engine_cut):
    p = host_vector(parts, -1).astype(np.int64)
    n = p.shape[0]
    (cut, t) = _timed(cut_of, S, p)
    sizes = np.bincount(p[p >= 0], minlength=k)
    cap = max(-(-n // k), math.floor((1 + imbalance) * n / k + 1e-9))
    problems = []
    if p.min() < 0 or p.max() >= k or np.count_nonzero(sizes) != k:
        problems.append(f"part ids {p.min()}..{p.max()}, {np.count_nonzero(sizes)} non-empty of {k}")
    if sizes.max() > cap:
        problems.append(f"largest part {sizes.max()} > cap {cap}")
    if engine_cut != cut:
        problems.append(f"edge_cut gives {engine_cut}")
    detail = f"cut {cut:,} edges, balance {sizes.max() * k / n:.3f} (cap {cap * k / n:.3f})"
    return Verdict(not problems, detail + ("; " + "; ".join(problems) if problems else ""),
                   "cut and balance by definition (NumPy)", t)


def check_bisection(S, side, start):
    s = host_vector(side, -1).astype(np.int64)
    (cut, t) = _timed(cut_of, S, s)
    before = cut_of(S, start)
    problems = []
    if not np.isin(s, (0, 1)).all():
        problems.append("sides other than 0 and 1")
    if int(s.sum()) != int(start.sum()):
        problems.append(f"side 1 has {int(s.sum())} vertices, the start had {int(start.sum())}")
    if cut > before:
        problems.append("the cut grew")
    return Verdict(not problems, f"cut {before:,} -> {cut:,} edges" + ("; " + "; ".join(problems) if problems else ""),
                   "cut by definition (NumPy)", t)


def check_coloring(S, color):
    """Every vertex colored 0..k-1, no edge between equal colors."""
    c = host_vector(color, -1).astype(np.int64)
    C = sp.coo_matrix(S)
    t0 = time.perf_counter()
    k = int(c.max()) + 1 if c.size else 0
    problems = []
    if c.size and (c.min() < 0 or np.unique(c).shape[0] != k):
        problems.append("colors are not exactly 0..k-1 (or a vertex has none)")
    clash = (c[C.row] == c[C.col]) & (C.row != C.col)
    if clash.any():
        e = int(np.flatnonzero(clash)[0])
        problems.append(f"edge {C.row[e]} - {C.col[e]} joins two vertices of color {c[C.row[e]]}")
    t = time.perf_counter() - t0
    return Verdict(not problems, f"{k} colors" + ("; " + "; ".join(problems) if problems else ""),
                   "coloring by definition (NumPy)", t), k
