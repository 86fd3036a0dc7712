"""Per-vertex cycle counts behind networkx's clustering coefficients, as masked products.

With ``P`` the pattern without self-loops (``offdiag(one(A))``) and ``S`` symmetric:

- :func:`closed_walks`: ``t = diag(S^3)``, computed as ``C<S.S> = S plus.times S`` and
  ``t = reduce_rowwise(C .* S)``: twice the (weighted) triangles through each vertex. networkx's
  directed clustering is this with ``S = P + P'`` (a reciprocated pair counts 2; Fagiolo 2007),
  its weighted forms with ``S`` the cube roots of the normalized weights (Onnela et al. 2005).
- :func:`successor_wedges`: ``C<P.S> = P plus.pair P``: ``C(v, w)`` counts the successors of v
  that are successors of w, for each edge v -> w (networkx's ``_triangles_and_degree_iter``
  on a directed graph, and its generalized degree).
- :func:`square_terms`: the counts of networkx's square clustering (Lind et al. 2005, in the
  form of Zhang et al.): ``C<M> = P plus.pair P'`` over ``M`` = the successors and the
  successors' successors of each vertex (itself excluded) gives the common successors ``p2``;
  the squares are ``sum over M of p2 (p2 - 1) / 2``.

References
----------
G. Fagiolo, "Clustering in complex directed networks", Phys. Rev. E 76, 026107 (2007).
J.-P. Onnela, J. Saramäki, J. Kertész, K. Kaski, "Intensity and coherence of motifs in weighted
complex networks", Phys. Rev. E 71, 065103 (2005). P. G. Lind, M. C. González, H. J. Herrmann,
"Cycles and clustering in bipartite networks", Phys. Rev. E 72, 056127 (2005). networkx
``clustering``, ``transitivity``, ``square_clustering``, ``generalized_degree``.
"""

from __future__ import annotations

import numpy as np

from ... import core as _core
from ...backends._xp import asnumpy
from ...core.matrix import Matrix
from ...core.vector import Vector
from ...ops import UnaryOp, binary, indexunary, monoid, semiring, unary

#: z = cbrt(x), the real cube root
CBRT = UnaryOp(np.cbrt, "cbrt", cuda="cbrt(x)")


def _dense(v, fill=0):
    return asnumpy(v.to_dense(fill))


def offdiag(A, dtype="int64"):
    """P = offdiag(one(A)) as ``dtype``: the pattern without self-loops."""
    return _core.select(_core.apply(A, unary.one).dup(dtype), indexunary.offdiag)


def row_counts(M):
    """Host int64 array: entries per row."""
    # d = reduce_rowwise(one(M), plus)
    return _dense(_core.reduce_rowwise(_core.apply(M, unary.one).dup("int64"), monoid.plus)).astype(np.int64)


def closed_walks(S):
    """Host array ``diag(S^3)`` of a symmetric S without diagonal (S's value type)."""
    # C<S.S> = S plus.times S;  t = reduce_rowwise(C .* S, plus)
    C = _core.mxm(S, S, semiring.plus_times, mask=S.S)
    return _dense(_core.reduce_rowwise(_core.ewise_mult(C, S, binary.times), monoid.plus), 0)


def symmetrized(P):
    """P + P' (plus): 2 where both directions are edges."""
    return _core.ewise_add(P, _core.transpose(P), binary.plus)


def cube_root(W, scale):
    """cbrt(offdiag(W) / scale) as float64 (networkx's weighted triangle weights)."""
    X = _core.apply(_core.select(W.dup("float64"), indexunary.offdiag), binary.div, right=float(scale))
    return _core.apply(X, CBRT)


def successor_wedges(P):
    """C<P.S> = P plus.pair P (int64): for each edge v -> w, the successors shared by v and w."""
    return _core.mxm(P, P, semiring.plus_pair, mask=P.S)


def reciprocated(P):
    """Host int64 array: per vertex, the neighbours that are both successor and predecessor."""
    # b = reduce_rowwise(P .* P', plus)
    return row_counts(_core.ewise_mult(P, _core.transpose(P), binary.pair))


def square_terms(P, rows=None, *, PT=None, deg=None):
    """(squares, triangles, neighbour degree sums, degrees): host int64 arrays of networkx's
    square clustering for the pattern P without self-loops (successors of a directed graph), at
    the vertices ``rows`` (all by default; a host int array, repeats allowed). ``PT`` (P') and
    ``deg`` (P's row counts) are computed when not given."""
    n = P.nrows
    deg = row_counts(P) if deg is None else deg
    PT = _core.transpose(P) if PT is None else PT
    if rows is None:
        rows, R = np.arange(n, dtype=np.int64), P
    else:
        rows = np.asarray(rows, dtype=np.int64)
        # R = P(rows, :)
        R = _core.extract(P, rows, None)
    k = rows.shape[0]
    own = Matrix.from_coo(np.arange(k, dtype=np.int64), rows, None, nrows=k, ncols=n, dtype="bool", device=P.device)
    # M<!own.S> = one(R any.pair P) + R   (the successors and the successors' successors, v excluded)
    M = _core.ewise_add(_core.apply(_core.mxm(R, P, semiring.any_pair), unary.one).dup("int64"), R, binary.first)
    M = _core.apply(M, unary.identity, mask=~own.S)
    # C<M.S> = R plus.pair P'   (p2: the successors v shares with each x of M)
    C = _core.mxm(R, PT, semiring.plus_pair, mask=M.S)
    # squares = reduce_rowwise(C .* (C - 1)) / 2
    sq = _core.reduce_rowwise(_core.ewise_mult(C, _core.apply(C, binary.minus, right=1), binary.times), monoid.plus)
    # triangles = reduce_rowwise(C .* R)   (p2 over the successors u)
    tri = _core.reduce_rowwise(_core.ewise_mult(C, R, binary.first), monoid.plus)
    # nbr = R plus.second deg   (the successors' degrees summed)
    nbr = _core.mxv(R, Vector.from_dense(deg, device=P.device), semiring.plus_second)
    return _dense(sq, 0) // 2, _dense(tri, 0), _dense(nbr, 0), deg[rows]


__all__ = ["offdiag", "row_counts", "closed_walks", "symmetrized", "cube_root", "successor_wedges", "reciprocated",
           "square_terms"]
