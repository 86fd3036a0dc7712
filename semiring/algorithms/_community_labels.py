"""Community labels: a partition given by the caller (a label Vector or sets of vertices)
checked and renumbered 0..K-1, and the matrices built from labels that every step of
modularity and Louvain multiplies by (the n x K indicator ``C``, diagonal matrices, a row
selection).

Used by :mod:`semiring.algorithms.community` (see its module docstring for the method).
"""

from __future__ import annotations

import numpy as np

from .. import _checks
from .. import core as _core
from ..core import _validate as _v
from ..core.matrix import Matrix
from ..core.vector import Vector
from ..exceptions import DimensionMismatch, DomainMismatch, InvalidValue
from ..ops import indexunary, monoid, semiring


def _labels_of(communities, n, device, what):
    """Compact labels (int64 array on the device, values 0..K-1) and K for a partition given as a
    Vector of labels or as an iterable of sets of vertex indices."""
    xp = _v.xp_for(device)
    if isinstance(communities, Vector):
        if communities.size != n:
            raise DimensionMismatch(f"{what}: expected one label per vertex (a Vector of size {n}); "
                                    f"given size {communities.size}")
        if communities.dtype.kind not in "iu":
            raise DomainMismatch(f"{what}: expected integer community labels; given dtype {communities.dtype}")
        if communities.nvals != n:
            raise InvalidValue(f"{what}: every vertex needs a community label; "
                               f"{n - communities.nvals} of {n} are absent")
        labels = xp.asarray(communities.to(device).to_dense()).astype(np.int64)
        return _compact_any(labels, xp)
    if isinstance(communities, (Matrix, str, bytes)) or not hasattr(communities, "__iter__"):
        raise InvalidValue(f"{what}: expected a Vector of labels or an iterable of sets of vertex indices; "
                           f"given {type(communities).__name__}")
    owner = np.full(n, -1, dtype=np.int64)
    K = 0
    for c, part in enumerate(communities):
        if isinstance(part, (str, bytes)) or not hasattr(part, "__iter__"):
            raise InvalidValue(f"{what}: each community must be a set of vertex indices; given {part!r}")
        for v in part:
            v = _checks.vertex(v, n, what, "a community's vertex")
            if owner[v] >= 0:
                raise InvalidValue(f"{what}: the communities must be disjoint (a partition); "
                                   f"vertex {v} is in communities {owner[v]} and {c}")
            owner[v] = c
        K = c + 1
    missing = np.flatnonzero(owner < 0)
    if missing.shape[0]:
        raise InvalidValue(f"{what}: the communities must cover every vertex (a partition); "
                           f"{missing.shape[0]} vertices are in none, e.g. {int(missing[0])}")
    return xp.asarray(owner), K


def _compact_any(labels, xp):
    """Labels renumbered 0..K-1 in increasing order of value (a sort and an adjacent difference)."""
    if labels.shape[0] == 0:
        return labels, 0
    order = xp.argsort(labels)
    s = labels[order]
    rank = xp.zeros(labels.shape[0], dtype=np.int64)
    rank[1:] = xp.cumsum(s[1:] != s[:-1])
    out = xp.empty_like(rank)
    out[order] = rank
    return out, int(rank[-1]) + 1


def _compact(a, xp):
    """Labels in 0..n-1 renumbered 0..K-1 (the used ones, in order)."""
    used = xp.zeros(a.shape[0], dtype=bool)
    used[a] = True
    new = xp.cumsum(used) - 1
    return new[a], int(used.sum())


def _indicator(labels, K, device, rows=None):
    """C(i, labels(i)) = 1.0 (n x K float64); ``rows`` picks a subset of rows (len(rows) x K)."""
    xp = _v.xp_for(device)
    lab = labels if rows is None else labels[rows]
    r = lab.shape[0]
    return Matrix.from_coo(xp.arange(r, dtype=np.int64), lab, xp.ones(r, dtype=np.float64),
                           nrows=r, ncols=K, dtype="float64", device=device)


def _diag(values, device, rows=None, size=None):
    """diag(values) (or values at ``rows`` of a size x size diagonal)."""
    xp = _v.xp_for(device)
    if rows is None:
        size = values.shape[0]
        rows = xp.arange(size, dtype=np.int64)
    return Matrix.from_coo(rows, rows, values, nrows=size, ncols=size, device=device)


def _rows(W, rows):
    """W(rows, :) as the product R any.second W with the selection R(t, rows(t)) = 1 (faster here
    than extract, which also matches every column against the column list)."""
    if rows.shape[0] == W.nrows:
        return W
    # Wr = R any.second W
    return _core.mxm(_indicator(rows, W.nrows, W.device), W, semiring.any_second)


def _by_first_vertex(labels, K, device):
    """Labels renumbered so that communities are numbered in order of their smallest vertex."""
    xp = _v.xp_for(device)
    C = _indicator(labels, K, device)
    # first = min_reduce_columnwise(rowindex(C))   (the smallest vertex of each community)
    first = _core.reduce_columnwise(_core.apply(C, indexunary.rowindex), monoid.min).to_dense()
    rank = xp.empty(K, dtype=np.int64)
    rank[xp.argsort(first)] = xp.arange(K, dtype=np.int64)
    return rank[labels]
