"""Strongly connected components on the algebra: Multistep (Slota, Rajamanickam, Madduri
2014): trimming, the component of a high-degree pivot by a backward and a forward search, then
the coloring algorithm (Orzan 2004; McLendon et al. 2005) on what is left.

Used by :func:`semiring.algorithms.components.strongly_connected_components` with the NumPy CPU
backend (see the module docstring of :mod:`semiring.algorithms.components` for the method and
the references).
"""

from __future__ import annotations

import numpy as np

from .. import core as _core
from ..core.vector import Vector
from ..ops import binary, indexunary, monoid, semiring, unary
from ._components_cc import _star_matrix, _vertex_ids
from .coloring import priorities

#: The low 32 bits of a :func:`priorities` key are the vertex id.
_VERTEX_BITS = np.int64(0xFFFFFFFF)


def _scc_structure(G):
    """``(S, S', din, dout)``, computed once per graph: S = the structure of A without
    self-loops (bool), its transpose, and the in- and out-degrees in S (full int64 Vectors)."""

    # S = one(offdiag(A)) as bool: self-loops connect nothing, values are not read
    S = G.offdiag_pattern("bool")
    din, dout = G.offdiag_degrees
    return S, S.T, din, dout


def _pivot(din, dout, todo):
    """A vertex of ``todo`` with the largest in-degree x out-degree (Slota et al.), or None."""
    # score<todo.S> = din * dout
    score = _core.ewise_mult(din, dout, binary.times, mask=todo.S)
    if not score.nvals:
        return None
    top = _core.reduce_scalar(score, monoid.max)
    # the first vertex with that score
    idx, _ = _core.select(score, indexunary.valueeq, top).to_coo()
    return int(idx[0])


def _reach(M, source, within):
    """The vertices of ``within`` (a Vector mask) that ``source`` reaches along the edges of M
    through vertices of ``within``: breadth-first, one ``any.pair`` product per level."""
    n = M.nrows
    # seen<!within.S> = true;  seen(source) = true   (what the search may not enter)
    seen = _core.apply(Vector.from_dense(np.ones(n, dtype=bool), device=M.device), unary.identity, mask=~within.S)
    q = Vector.from_coo([source], [True], size=n, device=M.device)
    _core.assign(seen, q, None, mask=q.S)
    while q.nvals:
        # q<!seen.S> = q any.pair M;  seen<q.S> = q
        q = _core.vxm(q, M, semiring.any_pair, mask=~seen.S)
        _core.assign(seen, q, None, mask=q.S)
    # reached<within.S> = seen
    return _core.apply(seen, unary.identity, mask=within.S)


def _coloring_round(S, ST, key, todo):
    """One round of the coloring algorithm on the subgraph induced by ``todo``.

    Returns ``found``: at each vertex of every component whose root (largest key) was found,
    that root's key. At least the remaining vertex with the largest key is a root."""
    # color<todo.S> = key
    color = _core.apply(key, unary.identity, mask=todo.S)
    frontier = color
    while frontier.nvals:
        # t<todo.S> = frontier max.first S   (the largest color among each vertex's changed in-neighbours)
        t = _core.vxm(frontier, S, semiring.max_first, mask=todo.S)
        # frontier<t > color> = t;  color<frontier.S> = frontier
        frontier = _core.apply(t, unary.identity, mask=_core.ewise_mult(t, color, binary.gt).V)
        _core.assign(color, frontier, None, mask=frontier.S)
    # roots: color == key (no larger key reaches them);  found<root.V> = color
    found = _core.apply(color, unary.identity, mask=_core.ewise_mult(color, key, binary.eq).V)
    # closed<!todo.S> = true;  closed<found.S> = true   (what the backward search may not enter)
    closed = _core.apply(Vector.from_dense(np.ones(key.size, dtype=bool), device=key.device), unary.identity,
                         mask=~todo.S)
    _core.assign(closed, True, None, mask=found.S)
    frontier = found
    while frontier.nvals:
        # t<!closed.S> = frontier min.first S'   (at each vertex, the smallest color among its
        # out-neighbours in the frontier: an out-neighbour's color is >= the vertex's own, so
        # it equals the vertex's color iff one of them shares it)
        t = _core.vxm(frontier, ST, semiring.min_first, mask=~closed.S)
        # frontier<t == color> = t
        frontier = _core.apply(t, unary.identity, mask=_core.ewise_mult(t, color, binary.eq).V)
        # found<frontier.S> = frontier;  closed<frontier.S> = true
        _core.assign(found, frontier, None, mask=frontier.S)
        _core.assign(closed, True, None, mask=frontier.S)
    return found


def _multistep(G, seed):
    """Strongly connected components of the directed Graph G by Multistep on the algebra:
    trimming, the pivot's component by two searches, then coloring rounds; labels relabelled
    by each component's smallest vertex."""
    n, device = G.n, G.A.device
    S, ST, din, dout = _scc_structure(G)
    # trimming: a vertex with no in-edge or no out-edge is its own component
    # root<(din * dout) == 0> = i
    dead = _core.select(_core.ewise_mult(din, dout, binary.times), indexunary.valueeq, 0)
    root = _core.apply(dead, indexunary.rowindex).dup("int64")
    # todo<!root.S> = true   (the vertices not yet placed in a component)
    todo = _core.apply(Vector.from_dense(np.ones(n, dtype=bool), device=device), unary.identity, mask=~root.S)
    pivot = _pivot(din, dout, todo)
    if pivot is not None:
        # the pivot's component: the vertices that reach it, among them those it reaches
        scc = _reach(S, pivot, _reach(ST, pivot, todo))
        # root<scc.S> = pivot;  todo<scc.S> = (deleted)
        _core.assign(root, pivot, None, mask=scc.S)
        todo = _core.apply(todo, unary.identity, mask=~scc.S)
    key = Vector.from_dense(priorities(n, seed), device=device)
    while todo.nvals:
        found = _coloring_round(S, ST, key, todo)
        # root<found.S> = found band 0xFFFFFFFF   (the root's vertex id, from its key);  todo<found.S> = (deleted)
        _core.assign(root, _core.apply(found, binary.band, right=_VERTEX_BITS), None, mask=found.S)
        todo = _core.apply(todo, unary.identity, mask=~found.S)
    # relabel by the smallest member: C(root(v), v) present; m = C min.second ids; out = m min.first C
    C = _star_matrix(root, device)
    smallest = _core.mxv(C, _vertex_ids(n, device), semiring.min_second)
    return _core.vxm(smallest, C, semiring.min_first)
