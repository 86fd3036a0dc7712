"""Weakly connected components on the algebra: Afforest's subgraph sampling (each vertex's
smallest and largest neighbour), Shiloach-Vishkin hooking of roots, the giant component's
label from a sample, and hooking rounds on the rows of the vertices outside it.

Used by :func:`semiring.algorithms.components.connected_components` with the NumPy CPU backend
(see the module docstring of :mod:`semiring.algorithms.components` for the method and the
references); its helpers (vertex ids, the star matrix of a labelling) also serve the strong
components (:mod:`._components_scc`).
"""

from __future__ import annotations

import numpy as np

from .. import core as _core
from ..backends._xp import asnumpy
from ..core import _validate as _v
from ..core.matrix import Matrix
from ..core.vector import Vector
from ..ops import binary, indexunary, monoid, semiring, unary

#: Vertices whose labels after the sample phase are read to find its most frequent label (the
#: giant component), as LAGraph's ``LG_CC_FastSV6`` and Afforest estimate it.
GIANT_SAMPLES = 1024

#: Below this fraction of the sampled vertices, the most frequent label of the sample phase is
#: no giant component: the final rounds then start from every vertex that has a neighbour.
GIANT_FRACTION = 1 / 8

#: A product restricted to a set of rows takes it as a mask only when the set holds less than
#: this fraction of the vertices; above, the product over every row costs less.
MASKED_ROWS_FRACTION = 1 / 8


def _vertex_ids(n, device):
    """int64 Vector with v(i) = i at every position."""
    return Vector.from_dense(np.arange(n, dtype=np.int64), device=device)


def _star_matrix(labels, device):
    """``C(labels(u), u)`` present for every u held by ``labels`` (bool, n x n): one entry per
    such column.

    ``C min.second x`` then gives, at each i, the minimum of x(u) over the u with labels(u) = i,
    and ``x min.first C`` gives x(labels(u)) at each u."""
    n = labels.size
    u, r = labels.to_coo()
    return Matrix.from_coo(r, u, None, nrows=n, ncols=n, dtype="bool", device=device)


def _dense(t, fill):
    """t with ``fill`` at every absent position (a full Vector)."""
    return Vector.from_dense(t.to_dense(fill), device=t.device)


def _neighbour_reduce(mats, x, s, fill, rows=None):
    """``t<rows.S> = ⊕ over the matrices M of (M s x)``: s's monoid over every entry of each
    row of each M, for the rows ``rows`` holds (None: all).

    A small row set is the products' mask (only those rows are read), and t holds the rows
    with an entry. A large one restricts the products over every row afterwards, which costs
    less than a large mask; their results are made full (``fill``, the monoid's identity,
    where a row has no entry) so that they combine without a union of sparse index sets, and
    t holds every row of ``rows``."""
    if rows is not None and rows.nvals < MASKED_ROWS_FRACTION * rows.size:
        # t<rows.S> = M0 s x;  t = t ⊕ (M s x)
        t = _core.mxv(mats[0], x, s, mask=rows.S, direction="pull")
        for M in mats[1:]:
            t = _core.ewise_add(t, _core.mxv(M, x, s, mask=rows.S, direction="pull"), s.monoid.op)
        return t
    # t = M0 s x, fill where absent;  t = t ⊕ (M s x)
    t = _dense(_core.mxv(mats[0], x, s, direction="pull"), fill)
    for M in mats[1:]:
        t = _core.ewise_mult(t, _dense(_core.mxv(M, x, s, direction="pull"), fill), s.monoid.op)
    # t<rows.S> = t
    return t if rows is None else _core.apply(t, unary.identity, mask=rows.S)


def _extreme_neighbours(mats, n):
    """``(lo, hi)``: each vertex's smallest and largest neighbour over the rows of ``mats``
    (full int64 Vectors; ``n`` and ``-1`` where a vertex has none)."""
    lo = hi = None
    for M in mats:
        # J = colindex(M)   (J(i, j) = j);  a = reduce_rowwise(J, min);  b = reduce_rowwise(J, max)
        J = _core.apply(M, indexunary.colindex)
        a = _dense(_core.reduce_rowwise(J, monoid.min), n)
        b = _dense(_core.reduce_rowwise(J, monoid.max), -1)
        # lo = min(lo, a);  hi = max(hi, b)   (full vectors)
        lo = a if lo is None else _core.ewise_mult(lo, a, binary.min)
        hi = b if hi is None else _core.ewise_mult(hi, b, binary.max)
    return lo, hi


def _compress(f):
    """Pointer jumping ``f = f(f)`` until every tree of the forest ``f`` is a star."""
    while True:
        # g = f(f)
        g = _core.extract(f, f.to_dense())
        if g.isequal(f):
            return f
        f = g


def _hook_roots(f, lo, at, roots, device):
    """Hook roots of the forest ``f`` in place: the offer at each position ``at[k]`` of ``lo``
    goes to the root ``roots[k]`` (``lo(at[k]) < roots[k]``, both roots); each root takes the
    smallest label offered to it and then points at the root of its new tree (so that no path
    grows by more than one). Returns the hooked roots (a Vector of their new parents).

    ``at`` and ``roots`` are int64 index arrays of one length; ``lo`` is a Vector of labels
    (of any index space) present at ``at``."""
    n = f.size
    # w = C min.second lo with C(roots[k], at[k]): the smallest label offered to each root
    # (Shiloach-Vishkin's hooking, FastSV's  f(f(u)) = min(f(f(u)), mngp(u)))
    C = Matrix.from_coo(roots, at, None, nrows=n, ncols=lo.size, dtype="bool", device=device)
    w = _core.mxv(C, lo, semiring.min_second)
    # pointer doubling on the hooked roots only: p(r) = p(p(r)) while p(r) is hooked too
    roots, p = w.to_coo()
    P = w
    while True:
        # q = P(p)   (present where p names a hooked root)
        q = _core.extract(P, p)
        if not q.nvals:
            break
        at, pq = q.to_coo()
        p = p.copy()
        p[at] = pq
        P = Vector.from_coo(roots, p, size=n, dtype="int64", device=device)
    # f<P.S> = P
    _core.assign(f, P, None, mask=P.S)
    return P


def _hook(L, lo, at, device):
    """Hook the root ``L(at[k])`` of each position under the label ``lo(at[k])`` offered there
    (as :func:`_hook_roots`) and return the new labels: every tree a star again.

    ``L`` is a full star forest; ``lo(at[k]) < L(at[k])``; ``lo`` may hold other positions."""
    f = L.dup()
    _hook_roots(f, lo, at, _core.extract(L, at).to_dense(), device)
    # L = f(L)   (every old root points at its final root)
    return _core.extract(f, L.to_dense())


def _link_rounds(L, src, dst, device):
    """Shiloach-Vishkin rounds over the links ``src(k) -- dst(k)`` (int64 index arrays): hook
    the larger root of each link's ends under the smaller, compress, and keep only the links
    whose ends were in different trees. Returns (labels, rounds)."""
    rounds = 0
    while src.shape[0]:
        # a = L(src);  b = L(dst);  lo = min(a, b);  hi = max(a, b)
        a, b = _core.extract(L, src), _core.extract(L, dst)
        lo = _core.ewise_mult(a, b, binary.min)
        hi = _core.ewise_mult(a, b, binary.max)
        # cross<lo != hi>: the links between two trees
        apart = _core.ewise_mult(lo, hi, binary.ne)
        keep, _ = _core.select(apart, indexunary.valueeq, True).to_coo()
        if not keep.shape[0]:
            break
        rounds += 1
        # hook hi(k) under lo(k) for the links between two trees
        f = L.dup()
        _hook_roots(f, lo, keep, _core.extract(hi, keep).to_dense(), device)
        # L = f(L)
        L = _core.extract(f, L.to_dense())
        src, dst = src[keep], dst[keep]
    return L, rounds


def _hooking_rounds(mats, L, active, device):
    """Connected components on the rows ``active`` of ``mats`` by hooking and compression.

    ``L`` (full, a star forest of vertex ids, ``L(u) <= u``) is lowered until no active vertex
    has a neighbour of smaller label; ``active`` must hold every vertex that has a neighbour of
    another label. Each round every active vertex u takes ``t(u)``, the smallest label among
    its neighbours; the root of u's star is hooked under the smallest such ``t(u) < L(u)`` of
    its vertices, and every tree is compressed to a star again. A vertex whose neighbours all
    share its label leaves ``active`` for good: trees only merge, so it never sees another
    label again (LACC's exclusion of converged vertices). Returns (labels, rounds)."""
    n = L.size
    rounds = 0
    while active.nvals:
        # t<active> = min over the rows of mats of L   (each active vertex's smallest neighbour label)
        t = _neighbour_reduce(mats, L, semiring.min_second, n, active)
        # hook<t < L> = t
        hook = _core.apply(t, unary.identity, mask=_core.ewise_mult(t, L, binary.lt).V)
        # flat<t >= L> = true   (no smaller neighbour label; interior if no larger one either)
        flat = _core.ewise_mult(t, L, binary.ge)
        flat = _core.apply(flat, unary.identity, mask=flat.V)
        # high<flat> = max over the rows of mats of L;  interior<high <= L> = true
        high = _neighbour_reduce(mats, L, semiring.max_second, -1, flat)
        interior = _core.ewise_mult(high, L, binary.le)
        # active<t.S and !interior.V> = active   (a vertex without neighbours leaves too)
        active = _core.apply(_core.apply(active, unary.identity, mask=t.S), unary.identity, mask=~interior.V)
        if not hook.nvals:
            break
        rounds += 1
        # hook the root L(u) of each u in hook under hook(u)
        L = _hook(L, hook, hook.to_coo()[0], device)
    return L, rounds


def _most_frequent(L):
    """An estimate of the most frequent label of L and of the fraction of the vertices that
    hold it, from :data:`GIANT_SAMPLES` vertices."""
    n = L.size
    picks = np.random.default_rng(n).integers(0, n, size=min(GIANT_SAMPLES, n))
    # x = L(picks)
    labels = asnumpy(_core.extract(L, picks).to_dense())
    values, counts = np.unique(labels, return_counts=True)
    top = int(np.argmax(counts))
    return int(values[top]), counts[top] / picks.size


def _neighbour_matrices(G):
    """The matrices whose rows list each vertex's neighbours: ``(A,)`` for an undirected graph,
    ``(A, A')`` for a directed one; their structure, as bool, where A's values would make an
    int64 label vector's ``min.second`` product not int64 (floats, uint64)."""
    mats = (G.A,) if G.kind == "undirected" else (G.A, G.AT)
    if G.A.dtype.kind == "b" or G.A.dtype.kind == "i" or G.A.dtype.kind == "u" and G.A.dtype.itemsize < 8:
        return mats
    # P = one(A) as bool, and P' for a directed graph (cached on P)
    P = G.pattern("bool")
    return (P,) if len(mats) == 1 else (P, P.T)


def _afforest(G, device):
    """Connected components by Afforest's subgraph sampling; returns (labels, rounds)."""
    n = G.n
    mats = _neighbour_matrices(G)
    ids = _vertex_ids(n, device)
    # sample: each vertex's smallest and largest neighbour (over out- and in-edges)
    lo, hi = _extreme_neighbours(mats, n)
    # the links to the smallest neighbours form a forest: f = min(ids, lo), compressed
    L = _compress(_core.ewise_mult(ids, lo, binary.min))
    # the other links, by Shiloach-Vishkin rounds: to the largest neighbour, and to the smallest
    # one where it is larger than the vertex (a root of that forest)
    # near<lo < n> = lo   (the vertices with a neighbour)
    near = _core.select(lo, indexunary.valuelt, n)
    s1, d1 = near.to_coo()
    s2, d2 = _core.apply(hi, unary.identity, mask=near.S).to_coo()
    up, other = d1 > s1, d2 > s2
    xp = _v.xp_for(device)
    L, rounds = _link_rounds(L, xp.concatenate([s1[up], s2[other]]), xp.concatenate([d1[up], d2[other]]), device)
    # the giant component's label, and the other vertices that have a neighbour:
    # rest<near.S and L != key> = true
    key, share = _most_frequent(L)
    if share < GIANT_FRACTION:
        # no giant component: every vertex with a neighbour is active
        L, more = _hooking_rounds(mats, L, _core.apply(near, unary.one).dup("bool"), device)
        return L, rounds + more
    rest = _core.select(_core.apply(L, unary.identity, mask=near.S), indexunary.valuene, key)
    rest = _core.apply(rest, unary.one).dup("bool")
    if not rest.nvals:
        return L, rounds
    # edge<!rest.S> = rest any.pair M   (giant vertices with a neighbour outside it)
    edge = _core.vxm(rest, mats[0], semiring.any_pair, mask=~rest.S, direction="push")
    for M in mats[1:]:
        edge = _core.ewise_add(edge, _core.vxm(rest, M, semiring.any_pair, mask=~rest.S, direction="push"),
                               binary.lor)
    # final phase on the rows of the vertices outside the giant component and of its edge:
    # active = rest lor edge
    L, more = _hooking_rounds(mats, L, _core.ewise_add(rest, edge.dup("bool"), binary.lor), device)
    return L, rounds + more
