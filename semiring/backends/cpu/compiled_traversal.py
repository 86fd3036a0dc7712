"""Whole-search, direction-optimizing BFS compiled by numba: the compiled counterpart of
:mod:`semiring.backends.cpu.traversal`, run where :func:`semiring.backends.cpu._jit.enabled`
(the SuiteSparse CPU backend in effect and numba importable).

One compiled call runs every level of the search. The frontiers live in one queue of n
vertices (each vertex enters it once, level after level), and the first pull level lists the
unvisited vertices, a list each later pull level scans and compacts; so a push level costs its
frontier's out-edges, a pull level its unvisited vertices and the in-edges they scan, and no
level after the first pull sweeps all n vertices (a deep search that pulls near its end, as a
road network's does, pays n once). The push / pull decision of each level is
Beamer's rule with the constants and comparisons of :mod:`semiring.backends.direction`,
evaluated on the same frontier sizes, frontier out-edges and unexplored edges as every other
BFS engine, so the directions are the same level by level.

Parents: a push level keeps, per newly reached vertex, the smallest frontier vertex with an
edge to it when ``deterministic`` (the first one met otherwise); a pull level scans each
unvisited vertex's in-edges in ascending order and stops at the first on the previous level,
which is the smallest. With ``deterministic`` these are the parents of ``min_secondi``, the
same as the NumPy engine's and the algebra's.

A pull level scans within a budget of its frontier's out-edges; where the unvisited vertices'
scans pass it (most of them find no parent on this level, as on a web crawl), the level
finishes as a push from the frontier, so it costs at most about twice the cheaper of the two
forms. The vertices it reaches are those of the pull, and so are the parents with
``deterministic`` (the push keeps the smallest frontier vertex, and a vertex the scan found
already has it); the trace records the level as the rule's pull, with the pull's count of edges,
as every engine does.

The trace holds, per level run: the direction, the frontier size, the edges examined (push: the
frontier's out-edges; pull: the in-edges of every unvisited vertex, an upper bound since a scan
stops at its first hit, as the other engines count it) and the vertices discovered. It is
recorded in the loop and equals the NumPy engine's.

The in-edges (A^T) are asked for only when a level is to be pulled: the compiled loop returns
before that level, the caller fetches them and calls it again, and the loop resumes with the
direction already decided.

References: Beamer, Asanovic, Patterson, "Direction-optimizing breadth-first search", SC 2012.
Lam, Pitrou, Seibert, "Numba: a LLVM-based Python JIT compiler", LLVM-HPC 2015.
"""

from __future__ import annotations

import numpy as np

from ..._memory import require
from ..direction import ALPHA, BETA
from ..results import TraversalResult
from . import _jit

# positions in the state array the compiled loop resumes from
_DEPTH, _HEAD, _TAIL, _NQ_LAST, _UNEXPLORED, _PULL, _MF, _LEVELS, _PENDING = range(9)
#: The loop returned to ask for the in-edges (the next level is a pull level).
NEED_IN_EDGES = 1


def _bfs_loop(optr, oidx, iptr, iidx, has_in, level, parent, present, queue, unvisited, st, codes, front, exam, disc,
              max_depth, auto, want, det, alpha, beta):
    """Run levels from the state ``st`` until the search ends (returns 0) or a pull level needs
    the in-edges and ``has_in`` is False (returns :data:`NEED_IN_EDGES`, the direction decided
    and kept in ``st``). ``level`` is -1 where unvisited; the queue holds the frontier in
    ``queue[head:tail]``; ``codes``/``front``/``exam``/``disc`` get one entry per level run;
    ``parent`` is written where ``want``. The first pull level lists the unvisited vertices in
    ``unvisited`` (ascending), and every pull level scans and compacts that list, so a pull
    level late in a deep search costs its few unvisited vertices, not n. At the end,
    ``present`` marks the reached vertices and ``level`` (and ``parent``) are 0 elsewhere."""
    n = level.shape[0]
    nu = -1  # the unvisited vertices listed in unvisited[:nu] (-1: not listed yet)
    depth, head, tail = st[_DEPTH], st[_HEAD], st[_TAIL]
    nq_last, unexplored, pull, mf = st[_NQ_LAST], st[_UNEXPLORED], st[_PULL] != 0, st[_MF]
    nlev, pending = st[_LEVELS], st[_PENDING] != 0
    while True:
        nq = tail - head
        if nq == 0 or depth == max_depth:
            break
        if pending:  # the direction of this level was decided before the loop returned for A^T
            pending = False
        elif auto:  # Beamer's rule (semiring.backends.direction)
            if not pull:
                pull = nq > nq_last and mf > unexplored / alpha
            else:
                pull = not (nq < nq_last and nq < n / beta)
        if pull and not has_in:
            st[_DEPTH], st[_HEAD], st[_TAIL] = depth, head, tail
            st[_NQ_LAST], st[_UNEXPLORED], st[_PULL], st[_MF] = nq_last, unexplored, 1, mf
            st[_LEVELS], st[_PENDING] = nlev, 1
            return NEED_IN_EDGES
        depth += 1
        new = tail
        mfn = 0
        push = not pull
        if pull:
            # every unvisited vertex scans its (sorted) in-edges for one on the previous level,
            # within a budget of the frontier's out-edges; past it the level finishes as a push
            if nu < 0:
                nu = 0
                for v in range(n):
                    if level[v] < 0:
                        unvisited[nu] = v
                        nu += 1
            examined = 0
            prev = depth - 1
            budget = mf
            scan = budget > 0
            kept = 0
            for i in range(nu):
                v = unvisited[i]
                if level[v] >= 0:  # reached by a push since the list was made
                    continue
                s, e = iptr[v], iptr[v + 1]
                examined += e - s
                found = False
                if scan:
                    for p in range(s, e):
                        u = iidx[p]
                        if level[u] == prev:
                            level[v] = depth
                            if want:
                                parent[v] = u
                            queue[new] = v
                            new += 1
                            mfn += optr[v + 1] - optr[v]
                            found = True
                            break
                    budget -= e - s if not found else p - s + 1
                    scan = budget > 0
                if not found:
                    unvisited[kept] = v
                    kept += 1
            nu = kept
            push = not scan
        else:
            examined = mf
        if push:
            # the frontier's out-edges; a vertex the pull part found keeps its parent, which is
            # already the smallest in-neighbour on the previous level
            for i in range(head, tail):
                u = queue[i]
                for p in range(optr[u], optr[u + 1]):
                    v = oidx[p]
                    lv = level[v]
                    if lv < 0:
                        level[v] = depth
                        if want:
                            parent[v] = u
                        queue[new] = v
                        new += 1
                        mfn += optr[v + 1] - optr[v]
                    elif det and lv == depth and u < parent[v]:
                        parent[v] = u
        codes[nlev] = 1 if pull else 0
        front[nlev] = nq
        exam[nlev] = examined
        disc[nlev] = new - tail
        nlev += 1
        unexplored -= mf
        nq_last = nq
        head, tail, mf = tail, new, mfn
    st[_DEPTH], st[_HEAD], st[_TAIL], st[_LEVELS], st[_PENDING] = depth, head, tail, nlev, 0
    for v in range(n):
        reached = level[v] >= 0
        present[v] = reached
        if not reached:
            level[v] = 0
            if want:
                parent[v] = 0
    return 0


def _index(a):
    """``a`` as a contiguous int32 or int64 array (other integer types become int64)."""
    a = np.asarray(a)
    return np.ascontiguousarray(a if a.dtype in (np.int32, np.int64) else a.astype(np.int64))


def narrow(indptr, indices):
    """A CSR structure with int32 row pointers and indices where the entries fit (fewer than
    2**31), for the compiled loops to read half the bytes per edge; int64 otherwise.

    Parameters
    ----------
    indptr, indices : ndarray of int, shapes (n + 1,) and (nnz,)

    Returns
    -------
    tuple of 2 ndarrays
        ``(indptr, indices)``, both int32 or both int64, contiguous.

    Raises
    ------
    OutOfMemory
        The copy does not fit in memory.
    """
    indptr, indices = np.asarray(indptr), np.asarray(indices)
    small = indptr.shape[0] <= 2**31 and indices.shape[0] < 2**31
    dtype = np.int32 if small else np.int64
    if indptr.dtype != dtype or indices.dtype != dtype:
        require(np.dtype(dtype).itemsize * (indptr.shape[0] + indices.shape[0]),
                f"bfs: the structure of {indices.shape[0]:,} edges with {np.dtype(dtype).name} indices")
    return (np.ascontiguousarray(indptr, dtype=dtype), np.ascontiguousarray(indices, dtype=dtype))


def bfs(optr, oidx, source, *, in_edges, parents=False, deterministic=False, direction="auto", max_depth=None,
        alpha=ALPHA, beta=BETA):
    """Run a whole BFS from ``source`` in one compiled loop.

    Parameters
    ----------
    optr, oidx : ndarray of int, shapes (n + 1,) and (nnz,)
        CSR structure of the out-edges (int32 arrays, as :func:`narrow` makes them, are read
        as they are; other integer types as int64).
    source : int
        0 <= source < n (checked by the caller).
    in_edges : callable
        Returns the CSR ``(indptr, indices)`` of the in-edges (A^T, sorted indices); called
        before the first pull level only.
    parents, deterministic : bool
        Record parents; the smallest-index one on the previous level with ``deterministic``.
    direction : {"auto", "push", "pull"}
    max_depth : int or None
    alpha, beta : float
        Beamer's switching thresholds (:mod:`semiring.backends.direction`).

    Returns
    -------
    TraversalResult
        ``level`` (int64, shape (n,), 0 where unreached), ``present`` (bool, shape (n,)),
        ``parent`` (int64, shape (n,), 0 where unreached; None without parents), ``nvals``,
        ``trace`` (one entry per level run: direction code :data:`~semiring.backends.results.PUSH`
        or :data:`~semiring.backends.results.PULL`, frontier, edges examined, discovered);
        ``launches`` and ``host_syncs`` None. The same values as
        :func:`semiring.backends.cpu.traversal.bfs` (parents: with ``deterministic``).

    Raises
    ------
    OutOfMemory
        The per-vertex arrays do not fit in memory.
    BackendUnavailable
        numba cannot be imported.
    """
    loop = _jit.compile(_bfs_loop)
    optr, oidx = _index(optr), _index(oidx)
    n = optr.shape[0] - 1
    # level, parent, queue, the unvisited list (8 bytes each), present; the trace: one int8 and
    # three int64 per level
    require(58 * (n + 1), f"bfs: per-vertex arrays of {n:,} vertices")
    level = np.full(n, -1, dtype=np.int64)
    parent = np.empty(n if parents else 1, dtype=np.int64)
    present = np.empty(n, dtype=np.bool_)
    queue = np.empty(n, dtype=oidx.dtype)
    unvisited = np.empty(n if direction != "push" else 0, dtype=oidx.dtype)  # written at the first pull level
    level[source] = 0
    parent[source if parents else 0] = source
    queue[0] = source
    codes = np.empty(n + 1, dtype=np.int8)
    front, exam, disc = (np.empty(n + 1, dtype=np.int64) for _ in range(3))
    st = np.zeros(9, dtype=np.int64)
    st[_TAIL] = 1
    st[_UNEXPLORED] = int(optr[n])
    st[_PULL] = direction == "pull"
    st[_MF] = int(optr[source + 1] - optr[source])
    md = -1 if max_depth is None else int(max_depth)
    want, det = bool(parents), bool(parents and deterministic)
    iptr = iidx = np.zeros(1, dtype=oidx.dtype)
    has_in = False
    while True:
        status = loop(optr, oidx, iptr, iidx, has_in, level, parent, present, queue, unvisited, st, codes, front, exam,
                      disc, md, direction == "auto", want, det, float(alpha), float(beta))
        if status != NEED_IN_EDGES:
            break
        ip_in, ix_in = in_edges()
        iptr, iidx, has_in = _index(ip_in), _index(ix_in), True
    nlev = int(st[_LEVELS])
    nvals = int(st[_TAIL])  # every reached vertex entered the queue once
    trace = (codes[:nlev].copy(), front[:nlev].copy(), exam[:nlev].copy(), disc[:nlev].copy())
    return TraversalResult(level, present, (parent if parents else None), nvals, trace)


__all__ = ["bfs", "narrow", "NEED_IN_EDGES"]
