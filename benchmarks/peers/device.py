"""Device-side peers and checks: a plain cupyx.scipy.sparse SpMV BFS, and Graph500-style
validators that run on the GPU (the graphs of the GPU suite are too big to copy to the host
for every root).

The cupyx BFS is what a CuPy user would write without semiring: the frontier is a float32
0/1 vector ``x``; each level computes ``y = A^T @ x`` with cuSPARSE SpMV, keeps the unvisited
vertices with ``y != 0`` and stops when there are none (one host sync per level).
"""

from __future__ import annotations

from semiring.testing.validate import ValidationError

from ..harness.graphs import csr_arrays

#: Edges per chunk in the device validators (bounds their temporary memory).
CHUNK = 1 << 26


def cupyx_operator(cp, A, undirected):
    """float32 cupyx CSR matrix of ``A^T`` (A itself when undirected), values 1.

    Raises
    ------
    ValueError
        More than 2**31 - 1 entries (cuSPARSE through cupyx takes int32 indices).
    """
    from cupyx.scipy import sparse as cs

    ip, ix = csr_arrays(A)
    if ix.shape[0] >= 2**31:
        raise ValueError(f"cupyx.scipy.sparse needs int32 indices; the graph has {ix.shape[0]} entries")
    S = cs.csr_matrix((cp.ones(ix.shape[0], cp.float32), ix.astype(cp.int32, copy=False),
                       ip.astype(cp.int32, copy=False)), shape=(A.nrows, A.ncols))
    return S if undirected else S.T.tocsr()


def cupyx_bfs(cp, AT, source, dtype="int32"):
    """Level-synchronous BFS by SpMV: ``y = A^T x``, keep unvisited ``y != 0``, until empty.

    Parameters
    ----------
    AT : cupyx.scipy.sparse.csr_matrix, float32, shape (n, n)
        Transpose of the adjacency matrix (``AT[v, u]`` present for an edge u -> v).
    source : int
    dtype : str
        Level dtype (int16 halves the memory of cached references on deep-enough graphs).

    Returns
    -------
    cupy.ndarray, shape (n,)
        Level of every vertex, -1 where unreached.
    """
    n = AT.shape[0]
    level = cp.full(n, -1, dtype=dtype)
    level[source] = 0
    x = cp.zeros(n, cp.float32)
    x[source] = 1
    d = 0
    while True:
        y = AT @ x  # y[v] = number of frontier vertices with an edge into v
        new = (y != 0) & (level < 0)
        if not bool(new.any()):  # the one host sync of a level
            return level
        d += 1
        cp.copyto(level, d, where=new)
        x = new.astype(cp.float32)


def _edge_chunks(cp, A, values=False):
    """Yield ``(rows, cols)`` (and ``vals`` with ``values``) device arrays of A's entries,
    CHUNK at a time."""
    ip, ix = csr_arrays(A)
    ip = ip.astype(cp.int64)
    vals = getattr(A, "_values", None) if values else None
    if values and vals is None:
        vals = A.to_coo()[2]
    nnz = int(ix.shape[0])
    for start in range(0, nnz, CHUNK):
        e = cp.arange(start, min(nnz, start + CHUNK), dtype=cp.int64)
        r = cp.searchsorted(ip, e, side="right") - 1
        if values:
            yield r, ix[start:start + CHUNK], vals[start:start + CHUNK]
        else:
            yield r, ix[start:start + CHUNK]


def check_levels_device(cp, A, source, level):
    """Graph500 BFS checks on the device: level[source] = 0 and no other level 0; every edge
    u -> v with u reached has v reached and level[v] <= level[u] + 1; every reached vertex at
    level L > 0 has an in-edge from level L - 1. Raises ValidationError."""
    lv = level.astype(cp.int64)
    if int(lv[source]) != 0 or int((lv == 0).sum()) != 1:
        raise ValidationError(f"device check 0: level[source={source}] = {int(lv[source])}, "
                              f"{int((lv == 0).sum())} vertices at level 0")
    tight = cp.zeros(lv.shape[0], dtype=bool)
    for r, c in _edge_chunks(cp, A):
        lr, lc = lv[r], lv[c]
        bad = (lr >= 0) & ((lc < 0) | (lc > lr + 1))
        if bool(bad.any()):
            e = int(cp.flatnonzero(bad)[0])
            raise ValidationError(f"device check 3: edge {int(r[e])} -> {int(c[e])} leaves level {int(lr[e])} "
                                  f"but reaches level {int(lc[e])}")
        tight[c[(lr >= 0) & (lc == lr + 1)]] = True
    lack = (lv > 0) & ~tight
    if bool(lack.any()):
        v = int(cp.flatnonzero(lack)[0])
        raise ValidationError(f"device check 4: vertex {v} has level {int(lv[v])} but no in-edge from the level before")


def check_distances_device(cp, W, source, dist, rtol=1e-9):
    """``check_sssp`` on the device: dist[source] = 0; for every edge u -> v (weight w) with
    u reached, d[v] <= d[u] + w; every reached v but the source has an in-edge attaining
    d[v]. ``dist`` is dense float64 with inf where unreached. Raises ValidationError."""
    d = dist.astype(cp.float64)
    if float(d[source]) != 0:
        raise ValidationError(f"device sssp check: distance[source={source}] = {float(d[source])}")
    tight = cp.zeros(d.shape[0], dtype=bool)
    tight[source] = True
    for r, c, w in _edge_chunks(cp, W, values=True):
        via = d[r] + w.astype(cp.float64)
        fin = cp.isfinite(d[r])
        tol = rtol * cp.maximum(cp.abs(cp.where(cp.isfinite(d[c]), d[c], 0.0)), 1.0)
        bad = fin & (d[c] > via + tol)
        if bool(bad.any()):
            e = int(cp.flatnonzero(bad)[0])
            raise ValidationError(f"device sssp check: edge {int(r[e])} -> {int(c[e])} gives a shorter distance "
                                  f"{float(via[e])} than {float(d[c[e]])}")
        tight[c[fin & (cp.abs(d[c] - via) <= tol)]] = True
    lack = cp.isfinite(d) & ~tight
    if bool(lack.any()):
        v = int(cp.flatnonzero(lack)[0])
        raise ValidationError(f"device sssp check: vertex {v} has distance {float(d[v])} but no in-edge attaining it")


def check_coloring_device(cp, A, color):
    """Every vertex colored with a color in 0..k-1, every color used, no edge (other than a
    self-loop) joining equal colors, checked on the device. Returns k; raises ValidationError."""
    n = A.nrows
    if color.nvals != n:
        raise ValidationError(f"coloring: {n - color.nvals} of {n} vertices have no color")
    col = color.to_dense(-1).astype(cp.int64)
    k = int(col.max()) + 1 if n else 0
    if n and (int(col.min()) < 0 or int((cp.bincount(col, minlength=k) == 0).sum())):
        raise ValidationError("coloring: colors must be exactly 0..k-1")
    for r, c in _edge_chunks(cp, A):
        clash = (col[r] == col[c]) & (r != c)
        if bool(clash.any()):
            e = int(cp.flatnonzero(clash)[0])
            raise ValidationError(f"coloring: edge {int(r[e])} - {int(c[e])} joins two vertices of color "
                                  f"{int(col[r[e]])}")
    return k


def pagerank_power_iteration(xp, AT, out_degree, alpha=0.85, tol=1e-6, max_iter=100):
    """PageRank by power iteration, what a CuPy (or SciPy) user writes in 15 lines.

    The same iteration as ``semiring.algorithms.pagerank`` with its defaults: ``x`` uniform;
    each step ``r = A^T (alpha x / d) + ((1 - alpha) + alpha * dangling rank) / n``; stop after
    the first step with ``sum |r - x| < n * tol`` (networkx's rule; one host read a step).

    Parameters
    ----------
    xp : module
        cupy (AT a cupyx.scipy.sparse matrix) or numpy (AT a scipy.sparse matrix).
    AT : sparse matrix, float64, shape (n, n)
        The transpose of the link pattern, values 1.
    out_degree : array, shape (n,)
        Out-links of every vertex.

    Returns
    -------
    (ranks, iterations)

    Raises
    ------
    RuntimeError
        No convergence within ``max_iter`` steps.
    """
    n = AT.shape[0]
    x = xp.full(n, 1.0 / n)
    dangling = out_degree == 0
    share = xp.where(dangling, 0.0, alpha / xp.maximum(out_degree, 1).astype(xp.float64))
    any_dangling = bool(dangling.any())
    for it in range(1, max_iter + 1):
        s = float(x[dangling].sum()) if any_dangling else 0.0
        r = AT @ (x * share) + ((1.0 - alpha) + alpha * s) / n
        err = float(xp.abs(r - x).sum())
        x = r
        if err < n * tol:
            return x, it
    raise RuntimeError(f"power iteration did not converge to tol={tol} within {max_iter} steps")
