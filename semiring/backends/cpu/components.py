"""Compiled whole-graph component loops on the CPU (numba, through :mod:`._jit`): the CPU
counterparts of :mod:`semiring.backends.gpu.forest` (connected components) and
:mod:`semiring.backends.gpu.scc` (strongly connected components).

- Weakly connected components by union-find as ECL-CC does it (Jaiganesh, Burtscher 2018),
  run sequentially: every vertex starts with a parent pointer to its first smaller
  neighbour (or itself); one pass over the arcs unites the trees of each arc's ends, hooking
  the larger root under the smaller, with path halving on every walk to a root
  (intermediate pointer jumping); a last pass in increasing vertex order points every vertex
  at its root. A parent is never larger than its child, so each tree's root is the smallest
  vertex of its component. A directed graph is taken as ``A + A^T``: uniting the ends of an
  arc is symmetric, so each arc of A is read once; a graph known to be symmetric reads only
  the arcs to a smaller vertex (each edge once).
- Strongly connected components by Pearce's space-efficient variant of Tarjan's algorithm
  (Tarjan 1972; Pearce 2016, ``PEA_FIND_SCC2``) with an explicit stack, so a path of any
  length runs without recursion: one depth-first pass keeps a single ``rindex`` per vertex
  (its visit index, lowered to the smallest index it reaches on the stack; a finished
  component's vertices take its component number, counted down from n - 1 so it exceeds
  every index in use), a stack of visited vertices whose component is open, and per
  search frame the vertex, its next arc and whether it is still a root. A last pass labels
  each component by its smallest vertex (the first of it met in increasing order).

Both run in O(n + nnz) time; each kernel takes int64 CSR arrays and returns int64 labels, so
each compiles once per process (numba's cache keeps it between processes).

References: J. Jaiganesh, M. Burtscher, "A high-performance connected components
implementation for GPUs", HPDC 2018 (ECL-CC). R. E. Tarjan, "Depth-first search and linear
graph algorithms", SIAM J. Comput. 1(2), 1972. D. J. Pearce, "A space-efficient algorithm for
finding strongly connected components", Inf. Process. Lett. 116(1), 2016. R. E. Tarjan,
J. van Leeuwen, "Worst-case analysis of set union algorithms", J. ACM 31(2), 1984 (path
halving).
"""

from __future__ import annotations

import numpy as np

from ..._memory import require
from . import _jit


def _cc_kernel(indptr, indices, n, symmetric):
    """ECL-CC union-find over the arcs of the CSR (indptr, indices); labels (int64, n)."""
    parent = np.empty(n, dtype=np.int64)
    # init: the first smaller neighbour, else the vertex itself
    for v in range(n):
        parent[v] = v
        for p in range(indptr[v], indptr[v + 1]):
            u = indices[p]
            if u < v:
                parent[v] = u
                break
    # hook: unite the trees of each arc's ends, the larger root under the smaller
    for v in range(n):
        # rv = root of v (path halving)
        rv = v
        while parent[rv] != rv:
            parent[rv] = parent[parent[rv]]
            rv = parent[rv]
        for p in range(indptr[v], indptr[v + 1]):
            u = indices[p]
            if symmetric and u > v:
                continue
            ru = u
            while parent[ru] != ru:
                parent[ru] = parent[parent[ru]]
                ru = parent[ru]
            if ru < rv:
                parent[rv] = ru
                rv = ru
            elif rv < ru:
                parent[ru] = rv
    # flatten: parent[v] < v is already the root of its tree, in increasing order
    for v in range(n):
        parent[v] = parent[parent[v]]
    return parent


def _scc_kernel(indptr, indices, n):
    """Pearce's PEA_FIND_SCC2 with an explicit stack over the CSR (indptr, indices); labels
    (int64, n): the smallest vertex of each vertex's strongly connected component."""
    rindex = np.zeros(n, dtype=np.int64)
    members = np.empty(n, dtype=np.int64)  # visited vertices of open components
    frame_v = np.empty(n, dtype=np.int64)  # the search path: vertex, next arc, still a root
    frame_p = np.empty(n, dtype=np.int64)
    root = np.zeros(n, dtype=np.bool_)
    index = 1
    c = n - 1
    sp = 0
    for s in range(n):
        if rindex[s] != 0:
            continue
        # visit(s)
        top = 0
        frame_v[0] = s
        frame_p[0] = indptr[s]
        rindex[s] = index
        index += 1
        root[s] = True
        while top >= 0:
            v = frame_v[top]
            p = frame_p[top]
            end = indptr[v + 1]
            descended = False
            while p < end:
                w = indices[p]
                p += 1
                if rindex[w] == 0:
                    # visit(w); its rindex is compared with v's when it finishes
                    frame_p[top] = p
                    top += 1
                    frame_v[top] = w
                    frame_p[top] = indptr[w]
                    rindex[w] = index
                    index += 1
                    root[w] = True
                    descended = True
                    break
                if rindex[w] < rindex[v]:
                    rindex[v] = rindex[w]
                    root[v] = False
            if descended:
                continue
            # v is finished: close its component if it is a root, else leave it on the stack
            if root[v]:
                index -= 1
                while sp > 0 and rindex[v] <= rindex[members[sp - 1]]:
                    sp -= 1
                    rindex[members[sp]] = c
                    index -= 1
                rindex[v] = c
                c -= 1
            else:
                members[sp] = v
                sp += 1
            top -= 1
            if top >= 0:
                u = frame_v[top]
                if rindex[v] < rindex[u]:
                    rindex[u] = rindex[v]
                    root[u] = False
    # relabel: component number -> its smallest vertex (met first in increasing order)
    smallest = members  # reused: every component is closed, the stack is empty
    smallest[:] = -1
    for v in range(n):
        k = rindex[v]
        if smallest[k] < 0:
            smallest[k] = v
        rindex[v] = smallest[k]
    return rindex


def _csr(M):
    """M's full row pointers and column indices as int64 arrays (no copy when they are)."""
    return (np.ascontiguousarray(M._indptr, dtype=np.int64),
            np.ascontiguousarray(M._indices, dtype=np.int64))


def connected_components(A, symmetric):
    """Weakly connected components of the pattern of A (``A + A^T`` for a directed A).

    Parameters
    ----------
    A : Matrix on the CPU, shape (n, n)
    symmetric : bool
        A is known to be symmetric: each edge is read once, from its larger end.

    Returns
    -------
    numpy int64 array, shape (n,)
        The smallest vertex of each vertex's component.

    Raises
    ------
    OutOfMemory
        The labels do not fit in the memory free now.
    """
    n = A.nrows
    require(8 * n, f"connected_components: the labels of {n} vertices")
    indptr, indices = _csr(A)
    return _jit.compile(_cc_kernel)(indptr, indices, np.int64(n), bool(symmetric))


def strongly_connected_components(A):
    """Strongly connected components of the pattern of A (an arc i -> j per entry A(i, j)).

    Parameters
    ----------
    A : Matrix on the CPU, shape (n, n)

    Returns
    -------
    numpy int64 array, shape (n,)
        The smallest vertex of each vertex's strongly connected component.

    Raises
    ------
    OutOfMemory
        The search's arrays (four int64 and one bool per vertex) do not fit in the memory free
        now.
    """
    n = A.nrows
    require(33 * n, f"strongly_connected_components: the depth-first search arrays of {n} vertices")
    indptr, indices = _csr(A)
    return _jit.compile(_scc_kernel)(indptr, indices, np.int64(n))


__all__ = ["connected_components", "strongly_connected_components"]
