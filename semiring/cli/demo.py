"""``semiring demo`` runs a short tour of the algebra on a generated grid graph: breadth-first
search as masked ``vxm`` over ``any_pair``, Bellman-Ford shortest paths as ``min_plus``
products, and degrees by ``reduce_rowwise``, each checked against SciPy's csgraph.
"""

from __future__ import annotations

import math
import sys
import time

import numpy as np
import scipy.sparse.csgraph as csgraph

import semiring as sr

from . import progress


#: the largest --side: side**2 vertices within the generators' MAX_VERTICES
MAX_SIDE = math.isqrt(sr.generators.MAX_VERTICES)


def _grid(side, seed):
    """A side x side 4-neighbour grid, symmetric, with integer weights in [1, 9] (as float64);
    the generator refuses with OutOfMemory before building a grid that would not fit."""
    try:
        return sr.generators.grid(side, side, weights=(1, 9), seed=seed).dup("float64")
    except sr.OutOfMemory as exc:
        raise sr.OutOfMemory(f"demo --side {side}: {exc}") from None


def _bfs_levels(A, source):
    n = A.nrows
    level = sr.Vector.from_coo([source], [0], size=n, dtype="int64")
    q = sr.Vector.from_coo([source], [True], size=n)
    depth = 0
    while q.nvals:
        depth += 1
        # q<!level.S, replace> = q any.pair A
        q = sr.vxm(q, A, sr.semirings.any_pair, mask=~level.S)
        # level<q.S> = depth
        sr.assign(level, depth, None, mask=q.S)
    return level


def _bellman_ford(A, source):
    d = sr.Vector.from_coo([source], [0.0], size=A.nrows)
    changed = d
    while changed.nvals:
        # t = changed min.plus A
        t = sr.vxm(changed, A, sr.semirings.min_plus)
        # shorter = t < d, where both exist
        shorter = sr.ewise_mult(t, d, sr.binary.lt)
        # changed<!d.S> = t   (reached for the first time)
        changed = sr.apply(t, sr.unary.identity, mask=~d.S)
        # changed<shorter.V> = t   (a shorter path)
        sr.apply(t, sr.unary.identity, mask=shorter.V, out=changed)
        # d<changed.S> = changed
        sr.assign(d, changed, None, mask=changed.S)
    return d


def demo(side=64, seed=0, out=None):
    """Run the algebra tour; returns 0 if every result matched SciPy."""
    out = sys.stdout if out is None else out
    with progress.phase(f"generating grid2d:{side}"):
        A = _grid(side, seed)
        S = A.to_scipy()
    print(f"semiring {sr.__version__} demo: {side}x{side} grid, {A.nrows} vertices, {A.nvals} edges", file=out)
    ok = True

    with progress.phase("bfs"):
        t0 = time.perf_counter()
        level = _bfs_levels(A, 0)
        t1 = time.perf_counter()
        want = csgraph.shortest_path(S, unweighted=True, indices=0)
    good = np.array_equal(level.to_dense(-1), want.astype(np.int64))
    ok &= good
    print(f"  BFS levels (masked vxm, any_pair): depth {level.to_dense().max()}, "
          f"{1e3 * (t1 - t0):.1f} ms, matches scipy: {good}", file=out)

    with progress.phase("bellman-ford"):
        t0 = time.perf_counter()
        dist = _bellman_ford(A, 0)
        t1 = time.perf_counter()
        want = csgraph.dijkstra(S, indices=0)
    good = np.allclose(dist.to_dense(np.inf), want)
    ok &= good
    print(f"  SSSP (Bellman-Ford, min_plus): max distance {dist.to_dense().max():.0f}, "
          f"{1e3 * (t1 - t0):.1f} ms, matches scipy: {good}", file=out)

    deg = sr.reduce_rowwise(sr.apply(A, sr.unary.one).dup("int64"), sr.monoid.plus)
    good = np.array_equal(deg.to_dense(0), np.diff(S.indptr))
    ok &= good
    print(f"  degrees (reduce_rowwise, plus): min {deg.to_dense(0).min()}, max {deg.to_dense(0).max()}, "
          f"matches scipy: {good}", file=out)

    with progress.phase("triangles"):
        # C<A.S> = A plus.pair A: C(i,j) counts the wedges i-k-j closed by the edge i-j
        tri = sr.mxm(A, A, sr.semirings.plus_pair, mask=A.S)
    count = int(sr.reduce_scalar(tri.dup("int64"), sr.monoid.plus)) // 6
    P = (S != 0).astype(np.int64)
    want = int((P @ P).multiply(P).sum()) // 6
    good = count == want
    ok &= good
    print(f"  triangles (masked mxm, plus_pair): {count}, matches scipy: {good}", file=out)
    print("OK" if ok else "MISMATCH", file=out)
    return 0 if ok else 1
