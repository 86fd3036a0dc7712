"""Single-pair searches compiled by numba: bidirectional BFS and bidirectional Dijkstra, run
where :func:`semiring.backends.cpu._jit.enabled` (the SuiteSparse CPU backend in effect and
numba importable).

A query for one source and one target needs only the two balls around them that meet: on a
graph with good expansion that is a few thousand of a million vertices, so a whole-graph search
(one BFS or delta-stepping) does far more work than a search that stops. Both loops scan the
adjacency in the order they are given (the caller passes networkx's order), so they return the
very path networkx's ``bidirectional_shortest_path`` and ``bidirectional_dijkstra`` return:

- **bidirectional BFS** expands the smaller fringe (the forward one on a tie) a whole level at
  a time, and stops at the first scanned edge whose far end the other side has seen;
- **bidirectional Dijkstra** alternates the two sides one settled vertex at a time, each with a
  binary heap keyed by (distance, push count), and stops when a vertex is settled by both sides;
  the answer is the best meeting found while relaxing (Pohl's bidirectional search with
  Dijkstra's rule on each side).

Parents are kept per side (-1: the root, -2: not seen); the caller walks them into the path.

References: Pohl, "Bi-directional search", Machine Intelligence 6, 1971; Dijkstra, "A note on
two problems in connexion with graphs", Numerische Mathematik 1, 1959.
"""

from __future__ import annotations

import numpy as np

from . import _jit

#: bidirectional_dijkstra's status codes
FOUND, NO_PATH, NEGATIVE = 0, 1, 2


def _bfs_loop(indptr, indices, rindptr, rindices, source, target, pred, succ):
    """Bidirectional BFS from ``source`` and (backward) from ``target``; fills ``pred`` and
    ``succ`` (-2 unseen, -1 root) and returns the meeting vertex, or -1 when there is none."""
    n = pred.shape[0]
    fwd = np.empty(n, np.int64)
    rev = np.empty(n, np.int64)
    nxt = np.empty(n, np.int64)
    fwd[0] = source
    rev[0] = target
    nf = 1
    nr = 1
    pred[source] = -1
    succ[target] = -1
    while nf > 0 and nr > 0:
        k = 0
        if nf <= nr:
            for i in range(nf):
                v = fwd[i]
                for e in range(indptr[v], indptr[v + 1]):
                    w = indices[e]
                    if pred[w] == -2:
                        nxt[k] = w
                        k += 1
                        pred[w] = v
                    if succ[w] != -2:
                        return w
            fwd, nxt = nxt, fwd
            nf = k
        else:
            for i in range(nr):
                v = rev[i]
                for e in range(rindptr[v], rindptr[v + 1]):
                    w = rindices[e]
                    if succ[w] == -2:
                        succ[w] = v
                        nxt[k] = w
                        k += 1
                    if pred[w] != -2:
                        return w
            rev, nxt = nxt, rev
            nr = k
    return -1


def _dijkstra_loop(indptr, indices, w, rindptr, rindices, rw, source, target, preds, out):
    """Bidirectional Dijkstra (networkx's ``bidirectional_dijkstra`` step for step).

    ``preds`` (2 x n, filled with -2) receives each side's parents; ``out`` (length 1, the
    weights' dtype, 0 on entry) the distance. Returns (status, meeting vertex). Each side's heap
    is kept in row ``side`` of (hd, hc, hv), ordered by (distance, push count).
    """
    n = preds.shape[1]
    cap = max(indptr[n], rindptr[n]) + 2
    zero = out[0]
    hd = np.empty((2, cap), out.dtype)
    hc = np.empty((2, cap), np.int64)
    hv = np.empty((2, cap), np.int64)
    size = np.ones(2, np.int64)
    hd[0, 0], hc[0, 0], hv[0, 0] = zero, 0, source
    hd[1, 0], hc[1, 0], hv[1, 0] = zero, 1, target
    count = 2
    dist = np.empty((2, n), out.dtype)
    done = np.zeros((2, n), np.bool_)
    seen = np.empty((2, n), out.dtype)
    has = np.zeros((2, n), np.bool_)
    seen[0, source] = zero
    has[0, source] = True
    seen[1, target] = zero
    has[1, target] = True
    preds[0, source] = -1
    preds[1, target] = -1
    best = zero
    meet = -1
    s = 1
    while size[0] > 0 and size[1] > 0:
        s = 1 - s
        d = hd[s, 0]
        v = hv[s, 0]
        # pop: move the last entry down from the root
        m = size[s] - 1
        size[s] = m
        ld, lc, lv = hd[s, m], hc[s, m], hv[s, m]
        i = 0
        while True:
            a = 2 * i + 1
            if a >= m:
                break
            b = a + 1
            if b < m and (hd[s, b] < hd[s, a] or (hd[s, b] == hd[s, a] and hc[s, b] < hc[s, a])):
                a = b
            if not (hd[s, a] < ld or (hd[s, a] == ld and hc[s, a] < lc)):
                break
            hd[s, i], hc[s, i], hv[s, i] = hd[s, a], hc[s, a], hv[s, a]
            i = a
        if m > 0:
            hd[s, i], hc[s, i], hv[s, i] = ld, lc, lv
        if done[s, v]:
            continue
        dist[s, v] = d
        done[s, v] = True
        if done[1 - s, v]:
            out[0] = best
            return FOUND, meet
        if s == 0:
            lo, hi = indptr[v], indptr[v + 1]
        else:
            lo, hi = rindptr[v], rindptr[v + 1]
        for e in range(lo, hi):
            if s == 0:
                u, cost = indices[e], w[e]
            else:
                u, cost = rindices[e], rw[e]
            length = d + cost
            if done[s, u]:
                if length < dist[s, u]:
                    return NEGATIVE, -1
            elif not has[s, u] or length < seen[s, u]:
                seen[s, u] = length
                has[s, u] = True
                preds[s, u] = v
                # push (length, count, u): move it up from the end
                i = size[s]
                size[s] = i + 1
                while i > 0:
                    p = (i - 1) >> 1
                    if not (length < hd[s, p] or (length == hd[s, p] and count < hc[s, p])):
                        break
                    hd[s, i], hc[s, i], hv[s, i] = hd[s, p], hc[s, p], hv[s, p]
                    i = p
                hd[s, i], hc[s, i], hv[s, i] = length, count, u
                count += 1
                if has[1 - s, u]:
                    total = length + seen[1 - s, u]
                    if meet < 0 or best > total:
                        best = total
                        meet = u
    return NO_PATH, -1


def bidirectional_bfs(indptr, indices, rindptr, rindices, source, target):
    """networkx's bidirectional BFS between vertex indices ``source != target``.

    Parameters
    ----------
    indptr, indices : int64 ndarray
        The adjacency (CSR) in the order its rows are to be scanned.
    rindptr, rindices : int64 ndarray
        The reversed adjacency (the same arrays for an undirected graph).
    source, target : int

    Returns
    -------
    list of int or None
        The vertices of the path networkx returns, or None when ``target`` is not reachable.
    """
    n = indptr.shape[0] - 1
    pred = np.full(n, -2, dtype=np.int64)
    succ = np.full(n, -2, dtype=np.int64)
    meet = int(_jit.compile(_bfs_loop)(indptr, indices, rindptr, rindices, source, target, pred, succ))
    if meet < 0:
        return None
    path = []
    v = meet
    while v >= 0:
        path.append(v)
        v = int(pred[v])
    path.reverse()
    v = int(succ[meet])
    while v >= 0:
        path.append(v)
        v = int(succ[v])
    return path


def bidirectional_dijkstra(adj, radj, source, target):
    """networkx's bidirectional Dijkstra between vertex indices ``source != target``.

    Parameters
    ----------
    adj, radj : (indptr, indices, weights)
        The weighted adjacency in scan order and its reverse (the same for an undirected graph);
        weights int64 or float64, finite.
    source, target : int

    Returns
    -------
    (distance, list of int) or None
        The length (a NumPy scalar of the weights' dtype) and the path networkx returns, or None
        when ``target`` is not reachable.

    Raises
    ------
    ValueError
        A settled vertex was reached again by a shorter path (a negative weight), networkx's
        "Contradictory paths found" error.
    """
    indptr, indices, w = adj
    rindptr, rindices, rw = radj
    n = indptr.shape[0] - 1
    preds = np.full((2, n), -2, dtype=np.int64)
    out = np.zeros(1, dtype=w.dtype)
    status, meet = _jit.compile(_dijkstra_loop)(indptr, indices, w, rindptr, rindices, rw, source, target,
                                                 preds, out)
    if status == NEGATIVE:
        raise ValueError("Contradictory paths found: negative weights?")
    if status == NO_PATH:
        return None
    path = []
    v = int(meet)
    while v >= 0:
        path.append(v)
        v = int(preds[0, v])
    path.reverse()
    v = int(preds[1, meet])
    while v >= 0:
        path.append(v)
        v = int(preds[1, v])
    return out[0], path


__all__ = ["bidirectional_bfs", "bidirectional_dijkstra", "FOUND", "NO_PATH", "NEGATIVE"]
