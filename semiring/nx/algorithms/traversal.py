"""BFS pieces networkx's traversal API needs beyond :func:`semiring.algorithms.bfs`.

- :func:`levels`: hop distances from one source (the engine's direction-optimizing BFS) or from
  a set of sources at once (one masked ``any.pair`` product per level, as the engine's push
  step: ``q<!level.S, replace> = q any.pair A``).
- :func:`queue_order`: networkx's discovery order and BFS-tree parents, rebuilt from the levels.
  networkx's BFS (``generic_bfs_edges``, ``bfs_layers``) scans each level's vertices in the
  order they were discovered and each vertex's neighbours in its adjacency order; a vertex's
  parent is the first vertex of the previous level, in that order, that has an edge to it. So
  with the levels known, each level's order follows from the previous one by a sort of the
  edges between the two levels on (rank of the tail, position in the tail's adjacency): a
  vectorized pass per level, no per-vertex queue.

References
----------
Beamer, Asanovic, Patterson, "Direction-optimizing breadth-first search", SC 2012 (the engine's BFS).
networkx ``networkx.algorithms.traversal.breadth_first_search`` (the order reproduced).
"""

from __future__ import annotations

import numpy as np

from ... import core as _core
from ... import algorithms as _alg
from ...backends._xp import asnumpy
from ...core.vector import Vector
from ...ops import semiring as _semirings


def levels(G, sources, max_depth=None):
    """Hop distance from the nearest of ``sources``, as a dense host array.

    Parameters
    ----------
    G : semiring.algorithms.Graph, n vertices
    sources : sequence of int
        Distinct vertex indices (level 0).
    max_depth : int, optional
        Stop after this many levels (>= 0).

    Returns
    -------
    numpy int64 array, shape (n,)
        The level of each vertex; -1 where not reached (within ``max_depth``).
    """
    n = G.n
    sources = np.asarray(sources, dtype=np.int64)
    if sources.shape[0] == 1:
        r = _alg.bfs(G, int(sources[0]), max_depth=max_depth)
        return asnumpy(r.level.to_dense(-1)).astype(np.int64, copy=False)
    dev = G.A.device
    level = Vector.from_coo(sources, np.zeros(sources.shape[0], np.int64), size=n, dtype="int64", device=dev)
    q = Vector.from_coo(sources, np.ones(sources.shape[0], bool), size=n, dtype="bool", device=dev)
    depth = 0
    while q.nvals and (max_depth is None or depth < max_depth):
        depth += 1
        # q<!level.S, replace> = q any.pair A
        q = _core.vxm(q, G.A, _semirings.any_pair, mask=~level.S)
        # level<q.S> = depth
        _core.assign(level, depth, None, mask=q.S)
    return asnumpy(level.to_dense(-1)).astype(np.int64, copy=False)


def queue_order(level, indptr, indices, first):
    """networkx's BFS discovery order and parents, from the levels.

    Parameters
    ----------
    level : int64 array, shape (n,)
        BFS levels, -1 where unreached (from :func:`levels`).
    indptr, indices : int64 arrays, shapes (n + 1,) and (nnz,)
        Each vertex's neighbours in the order networkx iterates them.
    first : sequence of int
        The level-0 vertices in networkx's order.

    Returns
    -------
    layers : list of int64 arrays
        The vertices of each level, in discovery order (``layers[0]`` is ``first``).
    parent : int64 array, shape (n,)
        The BFS-tree parent networkx picks (the first discoverer); -1 at level 0 and where unreached.
    """
    n = level.shape[0]
    parent = np.full(n, -1, dtype=np.int64)
    first = np.asarray(first, dtype=np.int64)
    layers = [first]
    top = int(level.max()) if n else -1
    if top < 1:
        return layers, parent
    deg = np.diff(indptr)
    src = np.repeat(np.arange(n, dtype=np.int64), deg)
    pos = np.arange(indices.shape[0], dtype=np.int64) - indptr[src]
    ls = level[src]
    keep = (ls >= 0) & (level[indices] == ls + 1)  # the edges from one level to the next
    src, dst, pos, ls = src[keep], indices[keep], pos[keep], ls[keep]
    by_level = np.argsort(ls, kind="stable")
    src, dst, pos, ls = src[by_level], dst[by_level], pos[by_level], ls[by_level]
    bounds = np.searchsorted(ls, np.arange(top + 1))
    width = int(deg.max()) + 1  # pos < width: (rank, pos) packs into rank * width + pos
    rank = np.full(n, -1, dtype=np.int64)
    rank[first] = np.arange(first.shape[0])
    seen = first.shape[0]
    for d in range(1, top + 1):
        lo, hi = bounds[d - 1], bounds[d]
        e_src, e_dst = src[lo:hi], dst[lo:hi]
        key = rank[e_src] * width + pos[lo:hi]
        o = np.lexsort((key, e_dst))  # by head, then by (rank of the tail, adjacency position)
        e_src, e_dst, key = e_src[o], e_dst[o], key[o]
        head = np.ones(e_dst.shape[0], dtype=bool)
        head[1:] = e_dst[1:] != e_dst[:-1]
        v, k, p = e_dst[head], key[head], e_src[head]
        o = np.argsort(k, kind="stable")
        v = v[o]
        parent[v] = p[o]
        rank[v] = seen + np.arange(v.shape[0])
        seen += v.shape[0]
        layers.append(v)
    return layers, parent


__all__ = ["levels", "queue_order"]
