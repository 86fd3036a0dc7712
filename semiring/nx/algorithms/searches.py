"""Shortest-path lengths from a batch of sources at once, as b x n matrices (row i: source i).

Distance-based centralities (closeness, harmonic) and path-aware link prediction need the hop
counts or distances from many sources. Searching them one source at a time costs an engine call
per source and per level; here a batch of b sources runs together in a b x n frontier matrix, as
the batched BFS of Brandes' algorithm does (Buluç and Gilbert's Combinatorial BLAS):

- hops (:func:`hop_matrix`): ``F<!seen.S, replace> = F any.pair A`` carries the frontier of
  every source one level further (``seen`` as a few disjoint runs of earlier levels), and the
  levels are written into ``L`` once at the end;
- distances (:func:`distance_matrix`): Bellman-Ford from the entries that changed,
  ``T = F min.plus W``, where ``F`` holds the distances improved by the last round; the entries
  of T that are new or smaller than ``D`` become the next ``F`` and are written into ``D``. For
  non-negative weights it stops once no distance improves (after the largest number of edges on
  a shortest path, plus one round).

:func:`batches` cuts a list of sources into batches whose b x n matrices stay under a fixed
number of entries.

References
----------
A. Buluç, J. R. Gilbert, "The Combinatorial BLAS: design, implementation, and applications",
IJHPCA 25(4), 2011 (multi-source BFS as sparse matrix products). J. Kepner, J. Gilbert (eds.),
"Graph Algorithms in the Language of Linear Algebra", SIAM 2011 (Bellman-Ford as min.plus
products).
"""

from __future__ import annotations

import numpy as np

from ... import core as _core
from ...backends._xp import asnumpy
from ...core.matrix import Matrix
from ...ops import binary, semiring, unary

#: A batch's b x n matrices hold at most about this many entries (b = this // n, at least 1).
BATCH_ENTRIES = 1 << 22


def batches(sources, n):
    """Consecutive slices of ``sources`` whose b x n matrices hold about :data:`BATCH_ENTRIES`.

    Parameters
    ----------
    sources : numpy int64 array, shape (k,)
    n : int
        The number of vertices (columns of a batch's matrices).

    Yields
    ------
    numpy int64 array, shape (b,)
        ``b = max(1, BATCH_ENTRIES // n)`` (the last one shorter).
    """
    b = max(1, BATCH_ENTRIES // max(n, 1))
    for start in range(0, sources.shape[0], b):
        yield sources[start:start + b]


def _start(src, n, dtype, device):
    b = src.shape[0]
    return Matrix.from_coo(np.arange(b, dtype=np.int64), src, np.zeros(b, dtype=dtype), nrows=b, ncols=n,
                           dtype=dtype, device=device)


def hop_matrix(A, src, max_depth=None, *, undirected=False):
    """Hop counts from each source of a batch, by one masked ``any.pair`` product per level.

    The vertices seen so far are kept as a few disjoint runs (the last two levels of an
    undirected graph, whose edges reach no further back; for a directed one every level, merged
    like a binary counter, as the engine's batched Brandes search keeps them), and the levels
    are written into L once at the end: no pass over all of L per level.

    Parameters
    ----------
    A : Matrix, shape (n, n)
        ``A[i, j]`` present means an edge i -> j (values ignored).
    src : numpy int64 array, shape (b,)
        Source vertices; they may repeat (each is a row).
    max_depth : int, optional
        Stop after this many levels.
    undirected : bool, default False
        A is symmetric (an undirected graph).

    Returns
    -------
    Matrix of int64, shape (b, n)
        ``L(i, j)``: the number of edges on a shortest path from ``src[i]`` to j, present only
        where j is reached (within ``max_depth``); 0 at the source.
    """
    n, b = A.nrows, src.shape[0]
    rows = np.arange(b, dtype=np.int64)
    F = Matrix.from_coo(rows, src, None, nrows=b, ncols=n, dtype="bool", device=A.device)
    parts = [(rows, np.asarray(src, dtype=np.int64), np.zeros(b, dtype=np.int64))]
    runs = [F]
    depth = 0
    while max_depth is None or depth < max_depth:
        # F<!seen.S> = F any.pair A   (the vertices first reached at the next depth)
        N = _core.mxm(F, A, semiring.any_pair, mask=~runs[0].S)
        for r in runs[1:]:
            # N<!run.S> = N
            N = _core.apply(N, unary.identity, mask=~r.S)
        if not N.nvals:
            break
        depth += 1
        r, c, _ = (asnumpy(a) for a in N.to_coo())
        parts.append((r, c, np.full(r.shape[0], depth, dtype=np.int64)))
        if undirected:
            runs = [F, N]
        else:
            # run = run(-2) first run(-1) while the newer is as large: O(log depth) disjoint runs
            runs.append(N)
            while len(runs) > 1 and runs[-1].nvals >= runs[-2].nvals:
                runs[-2:] = [_core.ewise_add(runs[-2], runs[-1], binary.first)]
        F = N
    r, c, v = (np.concatenate(x) for x in zip(*parts))
    return Matrix.from_coo(r, c, v, nrows=b, ncols=n, dtype="int64", device=A.device)


def distance_matrix(W, src, *, nearest=False):
    """Shortest-path distances from each source of a batch, by Bellman-Ford ``min.plus`` rounds
    from the entries that improved.

    Parameters
    ----------
    W : Matrix, shape (n, n)
        Non-negative edge lengths, ``W(i, j)`` for the edge i -> j (int or float). Negative
        lengths are the caller's to refuse: a negative cycle would not end the rounds.
    src : numpy int64 array, shape (b,)
        Source vertices; they may repeat (each is a row).
    nearest : bool, default False
        One row instead: the distance from the nearest source.

    Returns
    -------
    Matrix of W's dtype, shape (b, n) (or (1, n) with ``nearest``)
        ``D(i, j)`` present where j is reachable from ``src[i]``; 0 at the source.
    """
    n = W.nrows
    if nearest:
        src = np.unique(src)
        D = Matrix.from_coo(np.zeros(src.shape[0], dtype=np.int64), src, np.zeros(src.shape[0], dtype=W.dtype),
                            nrows=1, ncols=n, dtype=W.dtype, device=W.device)
    else:
        D = _start(src, n, W.dtype, W.device)
    F = D
    while F.nvals:
        # T = F min.plus W   (lengths through the distances improved last round)
        T = _core.mxm(F, W, semiring.min_plus)
        # lower = T .< D   (where both hold a distance)
        lower = _core.ewise_mult(T, D, binary.lt)
        # F = T on the entries D lacks, and where T is lower
        F = _core.ewise_add(_core.apply(T, unary.identity, mask=~D.S), _core.apply(T, unary.identity, mask=lower.V),
                            binary.first)
        # D<F.S> = F
        D = _core.ewise_add(D, F, binary.second)
    return D


__all__ = ["batches", "hop_matrix", "distance_matrix", "BATCH_ENTRIES"]
