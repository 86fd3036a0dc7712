"""Result validators a user can run on any output, written directly on NumPy arrays (not on the
engine they check).

``check_bfs`` follows the Graph500 specification 3.0, section 5 ("Validation"), adapted to
directed graphs; ``check_sssp`` is its analogue for shortest paths (the Graph500 SSSP kernel's
validation); ``check_coloring`` and ``check_mis`` check the definitions.
"""

from __future__ import annotations

import numpy as np

from ..backends._xp import asnumpy
from ..core.matrix import Matrix
from ..core.vector import Vector
from ..exceptions import SemiringError


class ValidationError(SemiringError, AssertionError):
    """A result failed a validation check; the message names the check and a witness."""


def _edges(A):
    if not isinstance(A, Matrix):
        A = getattr(A, "A", A)
    if not isinstance(A, Matrix):
        raise ValidationError(f"expected a Matrix or Graph; given {type(A).__name__}")
    return A.nrows, tuple(asnumpy(a) for a in A.to_coo())


def _dense(v, n, what, fill):
    if not isinstance(v, Vector) or v.size != n:
        raise ValidationError(f"{what}: expected a Vector of size {n}; given {v!r}")
    return asnumpy(v.to_dense(fill))


def check_bfs(A, source, level, parent=None):
    """Validate BFS levels (and parents) from ``source``; raise ValidationError on failure.

    Checks (Graph500 5.1, for out-edges): (0) level[source] = 0 and parent[source] = source;
    (1) every reached vertex but the source has a parent whose level is one less, so the
    parent pointers form a tree rooted at the source; (2) every tree edge is an edge of A;
    (3) for every edge u -> v with u reached, v is reached and level[v] <= level[u] + 1;
    (4) hence the tree spans exactly the vertices reachable from the source; and every
    reached vertex at level L > 0 has an in-edge from level L - 1.

    Returns
    -------
    int
        The number of reached vertices.
    """
    n, (r, c, _) = _edges(A)
    lv = _dense(level, n, "level", -1).astype(np.int64)
    if not 0 <= source < n or lv[source] != 0:
        raise ValidationError(f"check 0: level[source={source}] must be 0; given {lv[source] if 0 <= source < n else None}")
    if (lv < -1).any():
        raise ValidationError(f"check 0: levels must be >= 0; vertex {np.flatnonzero(lv < -1)[0]} has a negative level")
    reached = lv >= 0
    # (3) edges from reached vertices
    fr = reached[r]
    bad = fr & (~reached[c] | (lv[c] > lv[r] + 1))
    if bad.any():
        e = np.flatnonzero(bad)[0]
        raise ValidationError(f"check 3: edge {r[e]} -> {c[e]} leaves level {lv[r[e]]} but reaches level {lv[c[e]]}")
    # every reached vertex at level L > 0 has an in-edge from level L - 1
    tight = np.zeros(n, bool)
    tight[c[fr & (lv[c] == lv[r] + 1)]] = True
    lack = reached & ~tight & (lv > 0)
    if lack.any():
        v = np.flatnonzero(lack)[0]
        raise ValidationError(f"check 4: vertex {v} has level {lv[v]} but no in-edge from level {lv[v] - 1}")
    if parent is not None:
        pa = _dense(parent, n, "parent", -1).astype(np.int64)
        if pa[source] != source:
            raise ValidationError(f"check 0: parent[source={source}] must be the source; given {pa[source]}")
        if not np.array_equal(pa >= 0, reached):
            v = np.flatnonzero((pa >= 0) != reached)[0]
            raise ValidationError(f"check 4: vertex {v} has a level {lv[v]} but parent {pa[v]} (-1 = none)")
        kids = np.flatnonzero(reached & (np.arange(n) != source))
        p = pa[kids]
        if ((p < 0) | (p >= n)).any() or (lv[p] != lv[kids] - 1).any():
            k = kids[np.flatnonzero((p < 0) | (p >= n) | (lv[np.clip(p, 0, n - 1)] != lv[kids] - 1))[0]]
            raise ValidationError(f"check 1: vertex {k} at level {lv[k]} has parent {pa[k]} "
                                  f"at level {lv[pa[k]] if 0 <= pa[k] < n else None}")
        keys = r * n + c
        order = np.sort(keys)
        want = p * n + kids
        pos = np.minimum(np.searchsorted(order, want), max(order.size - 1, 0))
        missing = order.size == 0 or (order[pos] != want).any()
        if missing and kids.size:
            k = kids[np.flatnonzero(order[pos] != want)[0]] if order.size else kids[0]
            raise ValidationError(f"check 2: tree edge {pa[k]} -> {k} is not an edge of the graph")
    return int(reached.sum())


def check_sssp(A, source, distance, parent=None, *, rtol=1e-9):
    """Validate shortest-path distances from ``source``; raise ValidationError on failure.

    Checks: distance[source] = 0; for every edge u -> v (weight w) with u reached, v is reached
    and d[v] <= d[u] + w; every reached v other than the source has an in-edge with
    d[v] = d[u] + w (within ``rtol`` for floats); with parents, that edge is (parent[v], v).
    Bool matrices mean unit weights.

    Returns
    -------
    int
        The number of reached vertices.
    """
    n, (r, c, w) = _edges(A)
    w = np.ones(r.size) if w.dtype.kind == "b" else w.astype(np.float64)
    d = _dense(distance, n, "distance", np.inf).astype(np.float64)
    if not 0 <= source < n or d[source] != 0:
        raise ValidationError(f"distance[source={source}] must be 0; given {d[source] if 0 <= source < n else None}")
    reached = np.isfinite(d)
    tol = rtol * np.maximum(np.abs(np.where(np.isfinite(d[c]), d[c], 0.0)), 1.0)
    fr = reached[r]
    via = d[r] + w
    with np.errstate(invalid="ignore"):
        gap = np.abs(d[c] - via)  # NaN where both are inf: never tight
    bad = fr & (d[c] > via + tol)
    if bad.any():
        e = np.flatnonzero(bad)[0]
        raise ValidationError(f"edge {r[e]} -> {c[e]} (weight {w[e]}) gives {c[e]} a shorter distance "
                              f"{via[e]} than {d[c[e]]}")
    tight = np.zeros(n, bool)
    tight[c[fr & (gap <= tol)]] = True
    tight[source] = True
    lack = reached & ~tight
    if lack.any():
        v = np.flatnonzero(lack)[0]
        raise ValidationError(f"vertex {v} has distance {d[v]} but no in-edge that attains it")
    if parent is not None:
        pa = _dense(parent, n, "parent", -1).astype(np.int64)
        if pa[source] != source:
            raise ValidationError(f"parent[source={source}] must be the source; given {pa[source]}")
        ok = np.zeros(n, bool)
        e = fr & (gap <= tol) & (pa[c] == r)
        ok[c[e]] = True
        ok[source] = True
        if (reached & ~ok).any():
            v = np.flatnonzero(reached & ~ok)[0]
            raise ValidationError(f"parent edge {pa[v]} -> {v} is not a tight edge of the graph")
        _check_tree(pa, reached, source)
    return int(reached.sum())


def _check_tree(pa, reached, source):
    """Following parents from every reached vertex must end at the source (no cycles):
    pointer jumping, log2(n) rounds."""
    hop = np.where(reached, pa, -1)
    hop[source] = source
    for _ in range(max(1, int(np.ceil(np.log2(max(hop.size, 2))))) + 1):
        hop = np.where(hop >= 0, hop[np.maximum(hop, 0)], -1)
    stuck = reached & (hop != source)
    if stuck.any():
        v = np.flatnonzero(stuck)[0]
        raise ValidationError(f"the parents of vertex {v} never lead back to the source (a cycle)")


def check_coloring(A, color):
    """Every vertex colored, colors exactly 0..k-1, no edge (other than a self-loop) joins two
    equal colors. Returns k, the number of colors."""
    n, (r, c, _) = _edges(A)
    if color.nvals != n:
        raise ValidationError(f"coloring: {n - color.nvals} of {n} vertices have no color")
    col = _dense(color, n, "color", -1).astype(np.int64)
    k = int(col.max()) + 1 if n else 0
    if n and (col.min() < 0 or np.unique(col).size != k):
        raise ValidationError(f"coloring: colors must be exactly 0..k-1; given {np.unique(col)[:10]}...")
    clash = (col[r] == col[c]) & (r != c)
    if clash.any():
        e = np.flatnonzero(clash)[0]
        raise ValidationError(f"coloring: edge {r[e]} - {c[e]} joins two vertices of color {col[r[e]]}")
    return k


def check_mis(A, members):
    """No two members adjacent (self-loops ignored), and every non-member has a member
    neighbour (in either direction). Returns the set's size."""
    n, (r, c, _) = _edges(A)
    m = np.zeros(n, bool)
    idx = asnumpy(members.to_coo()[0])
    m[idx] = True
    both = m[r] & m[c] & (r != c)
    if both.any():
        e = np.flatnonzero(both)[0]
        raise ValidationError(f"mis: members {r[e]} and {c[e]} are adjacent")
    covered = m.copy()
    covered[c[m[r]]] = True
    covered[r[m[c]]] = True
    if not covered.all():
        raise ValidationError(f"mis: vertex {np.flatnonzero(~covered)[0]} could join: the set is not maximal")
    return int(m.sum())
