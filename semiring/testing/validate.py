"""Result validators a user can run on any output, written directly on arrays (not on the
engine they check): NumPy arrays for a CPU graph, CuPy arrays for a GPU graph, so a GPU result
is validated on the device without copying the graph to the host.

``check_bfs`` follows the Graph500 specification 3.0, section 5 ("Validation"), adapted to
directed graphs; ``check_sssp`` is its analogue for shortest paths (the Graph500 SSSP kernel's
validation); ``check_coloring`` and ``check_mis`` check the definitions.

The checks run where the graph lives: result vectors on the other device are moved to it.
"""

from __future__ import annotations

import numpy as np

from ..backends._xp import asnumpy, xp_of
from ..core.matrix import Matrix
from ..core.vector import Vector
from ..exceptions import SemiringError


class ValidationError(SemiringError, AssertionError):
    """A result failed a validation check; the message names the check and a witness."""


def _edges(A):
    """(n, xp, (rows, cols, values)): the entries of A in row-major order, on A's device."""
    if not isinstance(A, Matrix):
        A = getattr(A, "A", A)
    if not isinstance(A, Matrix):
        raise ValidationError(f"expected a Matrix or Graph; given {type(A).__name__}")
    r, c, w = A.to_coo()
    return A.nrows, xp_of(r), (r, c, w)


def _on(xp, a):
    """``a`` as an array of the module ``xp`` (a copy only when it lives on the other device)."""
    return asnumpy(a) if xp is np else xp.asarray(a)


def _dense(v, n, what, fill, xp):
    if not isinstance(v, Vector) or v.size != n:
        raise ValidationError(f"{what}: expected a Vector of size {n}; given {v!r}")
    return _on(xp, v.to_dense(fill))


def _first(xp, mask):
    """Index of the first True of a boolean array (a Python int)."""
    return int(xp.flatnonzero(mask)[0])


def check_bfs(A, source, level, parent=None):
    """Validate BFS levels (and parents) from ``source``; raise ValidationError on failure.

    Checks (Graph500 5.1, for out-edges): (0) level[source] = 0, no other vertex at level 0,
    and parent[source] = source; (1) every reached vertex but the source has a parent whose
    level is one less, so the parent pointers form a tree rooted at the source; (2) every tree
    edge is an edge of A; (3) for every edge u -> v with u reached, v is reached and
    level[v] <= level[u] + 1; (4) hence the tree spans exactly the vertices reachable from the
    source; and every reached vertex at level L > 0 has an in-edge from level L - 1.

    Runs on the graph's device (NumPy or CuPy).

    Returns
    -------
    int
        The number of reached vertices.
    """
    n, xp, (r, c, _) = _edges(A)
    lv = _dense(level, n, "level", -1, xp).astype(np.int64)
    if not 0 <= source < n or int(lv[source]) != 0:
        raise ValidationError(f"check 0: level[source={source}] must be 0; "
                              f"given {int(lv[source]) if 0 <= source < n else None}")
    if bool((lv < -1).any()):
        raise ValidationError(f"check 0: levels must be >= 0; vertex {_first(xp, lv < -1)} has a negative level")
    roots = lv == 0
    roots[source] = False
    if bool(roots.any()):
        raise ValidationError(f"check 0: only the source {source} may have level 0; vertex {_first(xp, roots)} has it")
    del roots
    reached = lv >= 0
    # (3) edges from reached vertices
    fr = reached[r]
    lr, lc = lv[r], lv[c]
    bad = fr & (~reached[c] | (lc > lr + 1))
    if bool(bad.any()):
        e = _first(xp, bad)
        raise ValidationError(f"check 3: edge {int(r[e])} -> {int(c[e])} leaves level {int(lv[r[e]])} "
                              f"but reaches level {int(lv[c[e]])}")
    del bad
    # every reached vertex at level L > 0 has an in-edge from level L - 1
    tight = xp.zeros(n, dtype=bool)
    tight[c[fr & (lc == lr + 1)]] = True
    del fr, lr, lc
    lack = reached & ~tight & (lv > 0)
    if bool(lack.any()):
        v = _first(xp, lack)
        raise ValidationError(f"check 4: vertex {v} has level {int(lv[v])} but no in-edge from level {int(lv[v]) - 1}")
    if parent is not None:
        pa = _dense(parent, n, "parent", -1, xp).astype(np.int64)
        if int(pa[source]) != source:
            raise ValidationError(f"check 0: parent[source={source}] must be the source; given {int(pa[source])}")
        if not bool(xp.array_equal(pa >= 0, reached)):
            v = _first(xp, (pa >= 0) != reached)
            raise ValidationError(f"check 4: vertex {v} has a level {int(lv[v])} but parent {int(pa[v])} (-1 = none)")
        kids = xp.flatnonzero(reached & (xp.arange(n) != source))
        p = pa[kids]
        wrong = (p < 0) | (p >= n) | (lv[xp.clip(p, 0, n - 1)] != lv[kids] - 1)
        if bool(wrong.any()):
            k = int(kids[_first(xp, wrong)])
            pk = int(pa[k])
            raise ValidationError(f"check 1: vertex {k} at level {int(lv[k])} has parent {pk} "
                                  f"at level {int(lv[pk]) if 0 <= pk < n else None}")
        # (2) tree edges are edges: the entry keys row * n + col are sorted (row-major)
        found = _member(xp, r * n + c, p * n + kids)
        if not bool(found.all()):
            k = int(kids[_first(xp, ~found)])
            raise ValidationError(f"check 2: tree edge {int(pa[k])} -> {k} is not an edge of the graph")
    return int(reached.sum())


def _member(xp, sorted_keys, keys):
    """Boolean array: ``keys[t]`` occurs in the sorted array ``sorted_keys``."""
    if sorted_keys.shape[0] == 0:
        return xp.zeros(keys.shape[0], dtype=bool)
    pos = xp.minimum(xp.searchsorted(sorted_keys, keys), sorted_keys.shape[0] - 1)
    return sorted_keys[pos] == keys


def check_sssp(A, source, distance, parent=None, *, rtol=1e-9):
    """Validate shortest-path distances from ``source``; raise ValidationError on failure.

    Checks: distance[source] = 0; for every edge u -> v (weight w) with u reached, v is reached
    and d[v] <= d[u] + w; every reached v other than the source has an in-edge with
    d[v] = d[u] + w (within ``rtol`` for floats); with parents, that edge is (parent[v], v),
    and the parent pointers lead from every reached vertex back to the source (a tree).
    Bool matrices mean unit weights. Runs on the graph's device (NumPy or CuPy).

    Returns
    -------
    int
        The number of reached vertices.
    """
    n, xp, (r, c, w) = _edges(A)
    w = xp.ones(r.shape[0]) if w.dtype.kind == "b" else w.astype(np.float64)
    d = _dense(distance, n, "distance", np.inf, xp).astype(np.float64)
    if not 0 <= source < n or float(d[source]) != 0:
        raise ValidationError(f"distance[source={source}] must be 0; "
                              f"given {float(d[source]) if 0 <= source < n else None}")
    reached = xp.isfinite(d)
    dc = d[c]
    tol = rtol * xp.maximum(xp.abs(xp.where(xp.isfinite(dc), dc, 0.0)), 1.0)
    fr = reached[r]
    via = d[r] + w
    with np.errstate(invalid="ignore"):
        gap = xp.abs(dc - via)  # NaN where both are inf: never tight
    bad = fr & (dc > via + tol)
    if bool(bad.any()):
        e = _first(xp, bad)
        raise ValidationError(f"edge {int(r[e])} -> {int(c[e])} (weight {float(w[e])}) gives {int(c[e])} a shorter "
                              f"distance {float(via[e])} than {float(d[c[e]])}")
    del bad, dc, via
    tight_edge = fr & (gap <= tol)
    del gap, tol, fr
    tight = xp.zeros(n, dtype=bool)
    tight[c[tight_edge]] = True
    tight[source] = True
    lack = reached & ~tight
    if bool(lack.any()):
        v = _first(xp, lack)
        raise ValidationError(f"vertex {v} has distance {float(d[v])} but no in-edge that attains it")
    if parent is not None:
        pa = _dense(parent, n, "parent", -1, xp).astype(np.int64)
        if int(pa[source]) != source:
            raise ValidationError(f"parent[source={source}] must be the source; given {int(pa[source])}")
        ok = xp.zeros(n, dtype=bool)
        ok[c[tight_edge & (pa[c] == r)]] = True
        ok[source] = True
        if bool((reached & ~ok).any()):
            v = _first(xp, reached & ~ok)
            raise ValidationError(f"parent edge {int(pa[v])} -> {v} is not a tight edge of the graph")
        _check_tree(xp, pa, reached, source)
    return int(reached.sum())


def _check_tree(xp, pa, reached, source):
    """Following parents from every reached vertex must end at the source (no cycles):
    pointer jumping, log2(n) rounds. Parents of reached vertices are vertices (checked)."""
    hop = xp.where(reached, pa, -1)
    hop[source] = source
    for _ in range(max(1, int(np.ceil(np.log2(max(hop.shape[0], 2))))) + 1):
        hop = xp.where(hop >= 0, hop[xp.maximum(hop, 0)], -1)
    stuck = reached & (hop != source)
    if bool(stuck.any()):
        v = _first(xp, stuck)
        raise ValidationError(f"the parents of vertex {v} never lead back to the source (a cycle)")


def check_coloring(A, color):
    """Every vertex colored, colors exactly 0..k-1, no edge (other than a self-loop) joins two
    equal colors. Returns k, the number of colors. Runs on the graph's device."""
    n, xp, (r, c, _) = _edges(A)
    if color.nvals != n:
        raise ValidationError(f"coloring: {n - color.nvals} of {n} vertices have no color")
    col = _dense(color, n, "color", -1, xp).astype(np.int64)
    k = int(col.max()) + 1 if n else 0
    if n:
        used = xp.unique(col)
        if int(col.min()) < 0 or used.shape[0] != k:
            raise ValidationError(f"coloring: colors must be exactly 0..k-1; given {asnumpy(used[:10])}...")
    clash = (col[r] == col[c]) & (r != c)
    if bool(clash.any()):
        e = _first(xp, clash)
        raise ValidationError(f"coloring: edge {int(r[e])} - {int(c[e])} joins two vertices of color {int(col[r[e]])}")
    return k


def check_mis(A, members):
    """No two members adjacent (self-loops ignored), and every non-member has a member
    neighbour (in either direction). Returns the set's size. Runs on the graph's device."""
    n, xp, (r, c, _) = _edges(A)
    m = xp.zeros(n, dtype=bool)
    m[_on(xp, members.to_coo()[0])] = True
    both = m[r] & m[c] & (r != c)
    if bool(both.any()):
        e = _first(xp, both)
        raise ValidationError(f"mis: members {int(r[e])} and {int(c[e])} are adjacent")
    covered = m.copy()
    covered[c[m[r]]] = True
    covered[r[m[c]]] = True
    if not bool(covered.all()):
        raise ValidationError(f"mis: vertex {_first(xp, ~covered)} could join: the set is not maximal")
    return int(m.sum())
