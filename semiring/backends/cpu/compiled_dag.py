"""Topological generations compiled by numba, run where
:func:`semiring.backends.cpu._jit.enabled` (the SuiteSparse CPU backend in effect and numba
importable).

Kahn's algorithm one generation at a time: the vertices of in-degree 0 form the first
generation; scanning a generation's out-edges in the order given lowers each head's remaining
in-degree, and a head whose count reaches 0 joins the next generation at that moment. That is
networkx's own ``topological_generations`` order when the caller passes networkx's adjacency
order. The algebra formulation (one ``plus.pair`` product per generation) costs one operation
per generation; a long DAG (thousands of generations) is where one compiled pass over the
edges wins.

The longest-path distances of a DAG follow in one more pass over the vertices in topological
order: ``d[v] = max(0, max over in-edges (u, v) of d[u] + w(u, v))``, the recurrence the algebra
computes as one ``max.plus`` product per generation.

Reference: Kahn, "Topological sorting of large networks", Communications of the ACM 5(11), 1962.
"""

from __future__ import annotations

import numpy as np

from . import _jit


def _kahn_loop(indptr, indices, indeg, order, starts):
    """Fill ``order`` with the vertices generation by generation and ``starts`` with each
    generation's first position; return (vertices placed, generations)."""
    n = indeg.shape[0]
    k = 0
    for v in range(n):
        if indeg[v] == 0:
            order[k] = v
            k += 1
    g = 0
    lo = 0
    while lo < k:
        hi = k
        starts[g] = lo
        g += 1
        for t in range(lo, hi):
            u = order[t]
            for e in range(indptr[u], indptr[u + 1]):
                c = indices[e]
                indeg[c] -= 1
                if indeg[c] == 0:
                    order[k] = c
                    k += 1
        lo = hi
    starts[g] = k
    return k, g


def generations(indptr, indices, indeg):
    """The topological generations of a directed graph given as adjacency arrays.

    Parameters
    ----------
    indptr, indices : numpy int64 arrays of shapes (n + 1,) and (m,)
        The out-neighbours of each vertex, each once, in the order to scan them.
    indeg : numpy int64 array of shape (n,)
        The in-degree of each vertex (distinct predecessors); not modified.

    Returns
    -------
    (list of numpy int64 arrays, bool)
        The generations (vertex indices in Kahn's order), and whether vertices were left over
        (they lie on or below a cycle).

    Raises
    ------
    BackendUnavailable
        numba cannot be imported.
    """
    n = indeg.shape[0]
    order = np.empty(n, np.int64)
    starts = np.empty(n + 1, np.int64)
    k, g = _jit.compile(_kahn_loop)(np.asarray(indptr, np.int64), np.asarray(indices, np.int64),
                                    np.array(indeg, np.int64), order, starts)
    k, g = int(k), int(g)
    return [order[starts[i]:starts[i + 1]] for i in range(g)], k < n


def _longest_loop(order, pindptr, pindices, w, d):
    for t in range(order.shape[0]):
        v = order[t]
        lo = pindptr[v]
        hi = pindptr[v + 1]
        if lo == hi:
            continue
        best = d[pindices[lo]] + w[lo]
        for e in range(lo + 1, hi):
            r = d[pindices[e]] + w[e]
            if r > best:
                best = r
        if best > 0:
            d[v] = best


def longest_distances(order, pindptr, pindices, w):
    """Longest-path distances of a DAG, a negative best restarting at 0.

    Parameters
    ----------
    order : numpy int64 array of shape (n,)
        The vertices in a topological order.
    pindptr, pindices : numpy int64 arrays of shapes (n + 1,) and (m,)
        The in-neighbours (predecessors) of each vertex.
    w : numpy array of shape (m,), integer or float
        The length of each in-edge, aligned with ``pindices``.

    Returns
    -------
    numpy array of shape (n,), ``w``'s dtype
        ``d[v] = max(0, max over in-edges (u, v) of d[u] + w(u, v))``.

    Raises
    ------
    BackendUnavailable
        numba cannot be imported.
    """
    d = np.zeros(order.shape[0], dtype=w.dtype)
    _jit.compile(_longest_loop)(np.asarray(order, np.int64), np.asarray(pindptr, np.int64),
                                np.asarray(pindices, np.int64), w, d)
    return d
