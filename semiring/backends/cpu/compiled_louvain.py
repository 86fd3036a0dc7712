"""Sequential Louvain compiled by numba, run where :func:`semiring.backends.cpu._jit.enabled`
(the SuiteSparse CPU backend in effect and numba importable).

The method of Blondel et al. as networkx's ``louvain_partitions`` runs it: at each level every
vertex, in one random order fixed for the level, moves to the neighbouring community of largest
modularity gain (staying where no gain is positive), sweeps repeating until one moves no vertex;
then the graph is coarsened to its communities and the next level starts, until a level gains no
more than ``threshold`` in modularity (that level's partition is kept) or ``max_level`` levels.
The gain of moving a vertex ``u`` of weighted degree ``k_u`` into community ``c`` is
``w(u, c) / m - gamma * Sigma_c * k_u / (2 m^2)`` against leaving it, ``m`` the total edge weight.

The algebra formulation (``semiring.algorithms.louvain``) moves vertices in parallel rounds, a
product per round; a sequential sweep is inherently one vertex at a time, and here each sweep is
one compiled pass over the edges. Coarsening and the modularity of a level are array operations.

References: Blondel, Guillaume, Lambiotte, Lefebvre, "Fast unfolding of communities in large
networks", J. Stat. Mech. P10008, 2008; Newman, "Finding community structure in networks using
the eigenvectors of matrices", Phys. Rev. E 74, 2006 (modularity with resolution).
"""

from __future__ import annotations

import numpy as np

from . import _jit


def _one_level_loop(indptr, indices, weights, k, order, m, gamma, com, stot, w2c, touched):
    """Sweeps of local moving over the vertices in ``order``; ``com`` and ``stot`` are updated in
    place. Returns whether any vertex moved."""
    moved_any = False
    moves = 1
    scale = gamma / (2.0 * m * m)
    while moves > 0:
        moves = 0
        for t in range(order.shape[0]):
            u = order[t]
            # the weight from u to each neighbouring community (self-loops left out)
            nt = 0
            for e in range(indptr[u], indptr[u + 1]):
                v = indices[e]
                if v == u:
                    continue
                c = com[v]
                if w2c[c] == 0.0:
                    touched[nt] = c
                    nt += 1
                w2c[c] += weights[e]
            own = com[u]
            ku = k[u]
            stot[own] -= ku
            best = own
            best_gain = 0.0
            remove = -w2c[own] / m + stot[own] * ku * scale
            for i in range(nt):
                c = touched[i]
                gain = remove + w2c[c] / m - stot[c] * ku * scale
                if gain > best_gain:
                    best_gain = gain
                    best = c
            stot[best] += ku
            if best != own:
                com[u] = best
                moves += 1
                moved_any = True
            for i in range(nt):
                w2c[touched[i]] = 0.0
    return moved_any


def _modularity(rows, cols, vals, k, labels, K, m, gamma):
    """networkx's modularity of ``labels`` on a symmetric graph given by its COO entries (a
    self-loop once, weight counted once; an edge twice)."""
    inside = labels[rows] == labels[cols]
    loop = rows == cols
    # L_c: each undirected edge inside c once, a self-loop once
    L = np.bincount(labels[rows[inside]], weights=np.where(loop[inside], 1.0, 0.5) * vals[inside], minlength=K)
    Kc = np.bincount(labels, weights=k, minlength=K)
    return float(np.sum(L / m - gamma * Kc * Kc / (4.0 * m * m)))


def _coarsen(rows, cols, vals, labels, K):
    """The community graph: entries (c, e) with the summed weight of the entries between c and e;
    a community's self-loop weighs its inner edges once each and its vertices' self-loops."""
    cr, cc = labels[rows], labels[cols]
    # an inner edge u != v appears twice (u, v), (v, u): half each makes the loop weigh it once
    w = np.where((cr == cc) & (rows != cols), 0.5 * vals, vals)
    key = cr * K + cc
    uniq, inv = np.unique(key, return_inverse=True)
    summed = np.bincount(inv, weights=w, minlength=uniq.shape[0])
    return uniq // K, uniq % K, summed


def _csr(rows, cols, vals, n):
    if rows.shape[0] > 1 and (np.diff(rows) < 0).any():  # the entries are in row order: no sort
        order = np.argsort(rows, kind="stable")
        rows, cols, vals = rows[order], cols[order], vals[order]
    indptr = np.zeros(n + 1, np.int64)
    np.cumsum(np.bincount(rows, minlength=n), out=indptr[1:])
    return indptr, cols.astype(np.int64), vals.astype(np.float64)


def _by_first_vertex(labels):
    """Labels renumbered in order of each community's smallest vertex."""
    _, first = np.unique(labels, return_index=True)
    rank = np.empty(first.shape[0], np.int64)
    rank[np.argsort(first)] = np.arange(first.shape[0])
    return rank[labels]


def _compact(com):
    _, labels = np.unique(com, return_inverse=True)
    return labels.astype(np.int64), int(labels.max()) + 1 if labels.shape[0] else 0


def louvain(rows, cols, vals, n, *, resolution=1.0, threshold=1e-7, max_level=None, rng=None):
    """Louvain communities of a symmetric graph with non-negative weights.

    Parameters
    ----------
    rows, cols : numpy int64 arrays of shape (nvals,)
        The entries of a symmetric matrix (both (u, v) and (v, u); a self-loop once).
    vals : numpy float64 array of shape (nvals,)
        Their weights (non-negative; not all zero).
    n : int
        The number of vertices.
    resolution : float
        The modularity's gamma.
    threshold : float
        Smallest modularity gain of a level that keeps the method going.
    max_level : int or None
        At most this many levels.
    rng : numpy.random.Generator
        Draws each level's order of the vertices.

    Returns
    -------
    numpy int64 array of shape (n,)
        The community of each vertex, 0..K-1 numbered in order of their smallest vertex (a graph
        without edges: every vertex on its own).

    Raises
    ------
    BackendUnavailable
        numba cannot be imported.
    """
    step = _jit.compile(_one_level_loop)
    rows, cols, vals = np.asarray(rows, np.int64), np.asarray(cols, np.int64), np.asarray(vals, np.float64)
    # weighted degrees: a self-loop counts twice, as in networkx
    k = np.bincount(rows, weights=np.where(rows == cols, 2.0, 1.0) * vals, minlength=n)
    m = float(k.sum()) / 2.0
    labels = np.arange(n, dtype=np.int64)
    if m == 0:
        return labels  # original vertex -> community of the current level
    size = n
    mod = _modularity(rows, cols, vals, k, np.arange(n, dtype=np.int64), n, m, resolution)
    level = 0
    while True:
        indptr, indices, weights = _csr(rows, cols, vals, size)
        com = np.arange(size, dtype=np.int64)
        stot = k.copy()
        order = rng.permutation(size).astype(np.int64)
        moved = step(indptr, indices, weights, k, order, m, float(resolution), com, stot, np.zeros(size),
                     np.empty(size, np.int64))
        com, K = _compact(com)
        labels = com[labels]
        level += 1
        if not moved or (max_level is not None and level >= max_level):
            return _by_first_vertex(labels)
        new_mod = _modularity(rows, cols, vals, k, com, K, m, resolution)
        if new_mod - mod <= threshold:
            return _by_first_vertex(labels)
        mod = new_mod
        rows, cols, vals = _coarsen(rows, cols, vals, com, K)
        k = np.bincount(com, weights=k, minlength=K)
        size = K
