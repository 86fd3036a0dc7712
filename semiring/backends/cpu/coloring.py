"""Compiled whole-graph coloring loops on the CPU (the CPU counterpart of
:mod:`semiring.backends.gpu.coloring`), run where :func:`semiring.backends.cpu._jit.enabled`.

- Jones-Plassmann: in each parallel round, every uncolored vertex whose uncolored neighbours all
  have lower priority takes the smallest color no colored neighbour has. A vertex is colored
  after every higher-priority neighbour and before every lower-priority one, so the colored
  neighbours it sees are exactly its higher-priority ones: the colors are those of the
  sequential greedy coloring in decreasing priority order, which this loop computes in one pass
  over the edges (O(n log n + edges)). The number of rounds is the longest chain of neighbours
  of decreasing priority, recorded in the same pass.
- Gebremedhin-Manne: the passes of :func:`semiring.algorithms.coloring.gebremedhin_manne`, step
  by step: the vertices of a step each take the smallest color no neighbour had at the step's
  start (all are chosen before any is written), then every vertex of the pass that shares its
  color with a higher-priority neighbour is cleared and colored again in the next pass.

Both give exactly the algebra engine's colors for the same priorities. The graph is a
symmetric CSR pattern; self-loops are skipped. Every array is int64, so each loop compiles once.

References: Jones, Plassmann, "A parallel graph coloring heuristic", SIAM J. Sci. Comput.
14(3), 1993; Gebremedhin, Manne, "Scalable parallel graph coloring algorithms", Concurrency:
Practice and Experience 12(12), 2000.
"""

from __future__ import annotations

import numpy as np

from ..._memory import require
from . import _jit


def _jp_loop(indptr, indices, order, color, depth, mark):
    """Greedy coloring in ``order`` (decreasing priority): each vertex takes the smallest color
    no colored neighbour has; ``depth[v]`` is 1 + the largest depth among them (v's round).
    ``color`` and ``mark`` start at -1. Returns the number of rounds."""
    rounds = 0
    for t in range(order.shape[0]):
        v = order[t]
        d = 0
        for k in range(indptr[v], indptr[v + 1]):
            u = indices[k]
            c = color[u]
            if c >= 0 and u != v:  # colored: a higher-priority neighbour
                mark[c] = v
                if depth[u] > d:
                    d = depth[u]
        c = 0
        while mark[c] == v:
            c += 1
        color[v] = c
        depth[v] = d + 1
        if d + 1 > rounds:
            rounds = d + 1
    return rounds


def _gm_loop(indptr, indices, prio, blocks, steps_cap, color, todo, fresh, clash, mark, passes):
    """Gebremedhin-Manne passes until no conflict is left. ``blocks`` 0: ``ceil(count /
    steps_cap)`` blocks per pass. ``color`` and ``mark`` start at -1, ``todo`` holds 0..n-1.
    Returns the number of passes (their sizes are in ``passes``)."""
    count = todo.shape[0]
    npass = 0
    stamp = 0
    while count > 0:
        passes[npass] = count
        npass += 1
        p = blocks if blocks > 0 else (count + steps_cap - 1) // steps_cap
        steps = (count + p - 1) // p
        for j in range(steps):
            # step j: position j of every block of `steps` consecutive positions
            for i in range(j, count, steps):
                v = todo[i]
                stamp += 1
                for k in range(indptr[v], indptr[v + 1]):
                    c = color[indices[k]]
                    if c >= 0:
                        mark[c] = stamp
                c = 0
                while mark[c] == stamp:
                    c += 1
                fresh[i] = c
            for i in range(j, count, steps):
                color[todo[i]] = fresh[i]
        # the vertices sharing their color with a higher-priority neighbour (ascending ids)
        m = 0
        for i in range(count):
            v = todo[i]
            cv = color[v]
            pv = prio[v]
            for k in range(indptr[v], indptr[v + 1]):
                u = indices[k]
                if u != v and color[u] == cv and prio[u] > pv:
                    clash[m] = v
                    m += 1
                    break
        for i in range(m):
            color[clash[i]] = -1
            todo[i] = clash[i]
        count = m
    return npass


def _csr(indptr, indices):
    return np.ascontiguousarray(indptr, dtype=np.int64), np.ascontiguousarray(indices, dtype=np.int64)


def jones_plassmann(indptr, indices, prio):
    """Jones-Plassmann coloring of a symmetric pattern.

    Parameters
    ----------
    indptr : int64 array, shape (n + 1,)
    indices : int64 array, shape (nnz,)
        The CSR pattern; ``S[i, j]`` present iff ``S[j, i]`` is. Self-loops are skipped.
    prio : int64 array, shape (n,)
        Distinct vertex priorities (``semiring.algorithms.coloring.priorities``).

    Returns
    -------
    color : int64 array, shape (n,)
        Colors 0..k-1.
    rounds : int
        The parallel rounds Jones-Plassmann takes (0 for an empty graph).

    Raises
    ------
    OutOfMemory
        The work arrays (five of n int64) do not fit.
    """
    n = prio.shape[0]
    require(40 * n, f"coloring: Jones-Plassmann work arrays for n = {n}")
    indptr, indices = _csr(indptr, indices)
    order = np.ascontiguousarray(np.argsort(prio)[::-1], dtype=np.int64)
    color = np.full(n, -1, dtype=np.int64)
    depth = np.zeros(n, dtype=np.int64)
    mark = np.full(n + 1, -1, dtype=np.int64)
    rounds = _jit.compile(_jp_loop)(indptr, indices, order, color, depth, mark)
    return color, int(rounds)


def gebremedhin_manne(indptr, indices, prio, blocks, steps_cap):
    """Gebremedhin-Manne speculative coloring of a symmetric pattern.

    Parameters
    ----------
    indptr, indices : int64 arrays, shapes (n + 1,) and (nnz,)
        The symmetric CSR pattern (self-loops are skipped).
    prio : int64 array, shape (n,)
        Distinct priorities: the lower end of a conflict is colored again.
    blocks : int or None
        The blocks p of every pass; None: ``ceil(count / steps_cap)`` in each.
    steps_cap : int
        The steps of a pass when ``blocks`` is None.

    Returns
    -------
    color : int64 array, shape (n,)
    passes : list of int
        The vertices colored in each pass.

    Raises
    ------
    OutOfMemory
        The work arrays (six of n int64) do not fit.
    """
    n = prio.shape[0]
    require(48 * n, f"coloring: Gebremedhin-Manne work arrays for n = {n}")
    indptr, indices = _csr(indptr, indices)
    prio = np.ascontiguousarray(prio, dtype=np.int64)
    color = np.full(n, -1, dtype=np.int64)
    todo = np.arange(n, dtype=np.int64)
    fresh = np.empty(n, dtype=np.int64)
    clash = np.empty(n, dtype=np.int64)
    mark = np.full(n + 1, -1, dtype=np.int64)
    passes = np.empty(max(n, 1), dtype=np.int64)
    npass = _jit.compile(_gm_loop)(indptr, indices, prio, np.int64(blocks or 0), np.int64(steps_cap), color, todo,
                                   fresh, clash, mark, passes)
    return color, passes[:npass].tolist()


__all__ = ["jones_plassmann", "gebremedhin_manne"]
