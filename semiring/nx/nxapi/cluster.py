"""networkx's triangle and clustering functions on the engine's masked products.

- ``triangles``: the engine's per-vertex triangle counts
  (``semiring.algorithms.triangles_per_vertex``: two masked ``plus.pair`` products), exact
  integers, self-loops ignored, parallel edges of a multigraph counted once as networkx's
  neighbour sets do;
- ``clustering`` / ``average_clustering``: ``t = diag(S^3)`` by one masked product
  (:mod:`semiring.nx.algorithms.clustering`) with networkx's denominators: ``d (d - 1)``
  undirected, ``2 (d_tot (d_tot - 1) - 2 d_<->)`` directed; weighted forms on the cube roots of
  the weights divided by the largest weight;
- ``transitivity``: the triangle count (undirected) or the successor wedges (directed, as
  networkx reads a DiGraph's adjacency) over the connected triples;
- ``square_clustering`` and ``generalized_degree``: common-neighbour counts from masked
  ``plus.pair`` products.

Integer counts give networkx's exact values; weighted ones agree to rounding. networkx raises
NetworkXNotImplemented for multigraphs in the triangle-based functions; so do these.
"""

from __future__ import annotations

from collections import Counter

import networkx as nx
import numpy as np

from ... import algorithms as _alg
from ... import core as _core
from ...ops import indexunary, monoid
from ..algorithms import clustering as _cl
from ._common import checked_by, entries, weight_reason
from .. import _derived
from ._measures import Members, nbunch, offdiag_pattern

_Members = Members  # the name the triangles adapter has used


def _counts(G):
    """Host int64 array: the triangles of every node, in node order."""
    idx, vals = entries(_alg.triangles_per_vertex(G.structure))
    out = [0] * len(G)
    for i, t in zip(idx.tolist(), vals.tolist()):
        out[i] = t
    return out


def _no_multigraph(G):
    if G.is_multigraph():
        raise nx.NetworkXNotImplemented("not implemented for multigraph type")


def triangles(G, nodes=None):
    """networkx.triangles: ``{node: count}`` (every node, or those of ``nodes``), or one count
    when ``nodes`` is a node of G.

    Raises networkx.NetworkXError when ``nodes`` is neither a node nor an iterable of nodes, and
    networkx.NetworkXNotImplemented for ``nodes`` on a multigraph, as networkx does.
    """
    if G.is_directed():
        raise nx.NetworkXNotImplemented("not implemented for directed type")
    if nodes is None:
        return dict(zip(G.nodes, _counts(G)))
    _no_multigraph(G)  # networkx's per-node path is not_implemented_for("multigraph")
    if nodes in G:
        return _counts(G)[G.index[nodes]]
    wanted = list(nbunch(G, nodes))
    if not wanted:
        return {}
    counts = _counts(G)
    return {v: counts[G.index[v]] for v in wanted}


def _offdiag_counts(G):
    """Neighbours (successors) of each node, self-loops left out: host int64, once per graph."""
    return _derived.once(G.structure, "offdiag_counts", lambda: _cl.row_counts(offdiag_pattern(G)))


def _offdiag_transposed(G):
    """P' (P itself for an undirected graph), once per graph (cached on P: ``Matrix.T``)."""
    P = offdiag_pattern(G)
    return P if not G.is_directed() else P.T


def _max_weight(G, weight):
    """networkx's normalizer: the largest ``weight`` (1 without edges); NotImplementedError for
    weights it cannot take (0 as the largest: networkx divides by it; NaN or infinite)."""
    W = G.weighted(weight).A
    if not W.nvals:
        return 1
    finite = _core.select(_core.select(W.dup("float64"), indexunary.valuelt, np.inf), indexunary.valuegt, -np.inf)
    if finite.nvals != W.nvals:
        raise NotImplementedError(f"NaN or infinite {weight!r} values: networkx computes with them in Python")
    top = _core.reduce_scalar(W, monoid.max)
    top = top.item() if hasattr(top, "item") else top
    if top == 0:
        raise NotImplementedError(f"the largest {weight!r} is 0: networkx divides by it")
    return top


def _cycles(G, weight):
    """(t, denominators): host arrays of networkx's clustering numerators and denominators."""
    P = offdiag_pattern(G)
    d_out = _offdiag_counts(G)
    if weight is not None:
        X = _cl.cube_root(G.weighted(weight).A, _max_weight(G, weight))
    if not G.is_directed():
        if weight is None:
            t = 2 * np.asarray(_counts(G), dtype=np.int64)
        else:
            t = _cl.closed_walks(X)
        return t, d_out * (d_out - 1)
    d_tot = d_out + _cl.row_counts(_offdiag_transposed(G))
    d_bi = _cl.reciprocated(P)
    t = _cl.closed_walks(_cl.symmetrized(P if weight is None else X))
    return t, (d_tot * (d_tot - 1) - 2 * d_bi) * 2


def _clustering_reason(G, nodes=None, weight=None):
    return weight_reason(weight)


@checked_by(_clustering_reason)
def clustering(G, nodes=None, weight=None):
    """networkx.clustering: ``{node: coefficient}`` (0, an int, where there is no triangle) in
    node order or ``nodes``' order, or one coefficient when ``nodes`` is a node of G.

    Raises networkx.NetworkXNotImplemented for multigraphs and networkx.NetworkXError for a
    ``nodes`` that is neither a node nor an iterable of nodes, as networkx does.
    """
    reason = _clustering_reason(G, nodes, weight)
    if reason:
        raise NotImplementedError(reason)
    _no_multigraph(G)
    t, den = _cycles(G, weight)
    t, den = t.tolist(), den.tolist()
    index = G.index
    out = {}
    for v in nbunch(G, nodes):
        i = index[v]
        out[v] = 0 if t[i] == 0 else t[i] / den[i]
    if nodes in G:
        return out[nodes]
    return out


@checked_by(lambda G, nodes=None, weight=None, count_zeros=True: weight_reason(weight))
def average_clustering(G, nodes=None, weight=None, count_zeros=True):
    """networkx.average_clustering: the mean of :func:`clustering` over ``nodes`` (zeros left out
    with ``count_zeros=False``).

    Raises ZeroDivisionError where no value is left, as networkx does.
    """
    c = clustering(G, nodes, weight=weight).values()
    if not count_zeros:
        c = [v for v in c if abs(v) > 0]
    return sum(c) / len(c)


def transitivity(G):
    """networkx.transitivity: 3 x triangles / connected triples (a DiGraph read through its
    successors, as networkx reads it); 0 without triangles.

    Raises networkx.NetworkXNotImplemented for multigraphs, as networkx does.
    """
    _no_multigraph(G)
    if not len(G):
        return 0
    P = offdiag_pattern(G)
    d = _offdiag_counts(G)
    contri = int((d * (d - 1)).sum())
    if G.is_directed():
        # triangles = plus_reduce(C),  C<P.S> = P plus.pair P
        C = _cl.successor_wedges(P)
        tri = int(_core.reduce_scalar(C, monoid.plus)) if C.nvals else 0
    else:
        tri = 6 * _alg.triangle_count(G.structure)
    return 0 if tri == 0 else tri / contri


def square_clustering(G, nodes=None):
    """networkx.square_clustering: ``{node: coefficient}`` in node order or ``nodes``' order (0,
    an int, where a node has fewer than two neighbours or no possible square), or one value when
    ``nodes`` is a node of G. Only the rows of the requested nodes are computed."""
    wanted = list(nbunch(G, nodes))
    index = G.index
    rows = None if nodes is None else np.array([index[v] for v in wanted], dtype=np.int64)
    P = offdiag_pattern(G)
    sq, tri, nbr, deg = (a.tolist() for a in _cl.square_terms(P, rows, PT=_offdiag_transposed(G),
                                                                deg=_offdiag_counts(G)))
    out = {}
    for k, v in enumerate(wanted):
        m1 = deg[k] - 1
        if m1 <= 0:
            out[v] = 0
            continue
        potential = nbr[k] * m1 - deg[k] * m1 - tri[k] - sq[k]
        out[v] = sq[k] / potential if potential > 0 else 0
    if nodes in G:
        return out[nodes]
    return out


def generalized_degree(G, nodes=None):
    """networkx.generalized_degree: ``{node: Counter({k: neighbours sharing k triangles with it})}``
    (a Counter in networkx's key order), or the Counter of ``nodes`` when it is a node of G.

    Raises networkx.NetworkXNotImplemented for directed graphs and multigraphs, as networkx does.
    """
    if G.is_directed():
        raise nx.NetworkXNotImplemented("not implemented for directed type")
    _no_multigraph(G)
    single = nodes in G
    C = _cl.successor_wedges(offdiag_pattern(G)).to_scipy()
    cptr, cind, cval = C.indptr.tolist(), C.indices.tolist(), C.data.tolist()
    indptr, indices = (a.tolist() for a in G.order)
    names, index = G.nodes, G.index
    out = {}
    deg = _offdiag_counts(G).tolist()
    for v in ([nodes] if single else nbunch(G, nodes)):
        i = index[v]
        lo, hi = cptr[i], cptr[i + 1]
        values = cval[lo:hi]
        if not values or (hi - lo == deg[i] and values.count(values[0]) == len(values)):
            # one key (every neighbour shares as many triangles): no order to follow
            out[v] = c = Counter.__new__(Counter)  # empty (Counter.__init__ only adds the items it is given)
            if deg[i]:
                c[values[0] if values else 0] = deg[i]  # dict's own item assignment
            continue
        shared = dict(zip(cind[lo:hi], values))
        # networkx's set of v's neighbours, built in its adjacency order: the Counter's key order
        vs = {names[j] for j in indices[indptr[i]:indptr[i + 1]]} - {v}
        out[v] = Counter([shared.get(index[w], 0) for w in vs])
    return out[nodes] if single else out


__all__ = ["triangles", "clustering", "average_clustering", "transitivity", "square_clustering",
           "generalized_degree"]
