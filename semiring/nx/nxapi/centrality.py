"""networkx's degree and shortest-path betweenness centralities on the engine.

- degree, in-degree and out-degree centrality: the degrees are row and column counts of the
  pattern (``reduce_rowwise(one(A), plus)``), a self-loop counted as networkx counts it;
- ``betweenness_centrality``: the engine's batched Brandes algorithm
  (``semiring.algorithms.betweenness_centrality``);
- ``edge_betweenness_centrality``, ``betweenness_centrality_subset`` and
  ``edge_betweenness_centrality_subset``: the engine's forward sweep with the backward sweeps of
  :mod:`semiring.nx.algorithms.brandes` (networkx's accumulation rules, its ``_rescale``);
- ``load_centrality`` (``newman_betweenness_centrality``) and ``edge_load_centrality``: the
  same batched BFS levels with Newman's even split (:mod:`semiring.nx.algorithms.brandes`).

With ``k``, the sources are drawn exactly as networkx draws them, ``seed.sample(list(G), k)`` on
the ``random.Random`` that networkx's ``py_random_state`` made of ``seed``, so the estimate is
networkx's for the same seed. Weighted betweenness (Dijkstra's shortest paths) declines, and so
do multigraphs where an answer depends on parallel edges (degrees, edge keys).
"""

from __future__ import annotations

import math
from collections.abc import Iterator

import networkx as nx
import numpy as np

from ... import _checks
from ... import algorithms as _alg
from ...algorithms.centrality import scale_factors
from ...backends._xp import asnumpy
from ..algorithms import brandes
from ._common import checked_by
from ._measures import degrees, parallel_reason

_WEIGHTED = "weighted betweenness (Dijkstra's shortest paths) is not in the engine; it is unweighted (BFS)"


# ---------------------------------------------------------------------------------------------
# degree centralities
# ---------------------------------------------------------------------------------------------
def _degree_reason(G):
    return parallel_reason(G)


def _by_degree(G, which):
    if len(G) <= 1:
        return {n: 1 for n in G.nodes}
    s = 1.0 / (len(G) - 1.0)
    return {n: d * s for n, d in zip(G.nodes, degrees(G, which).tolist())}


def _directed_only(G):
    if not G.is_directed():
        raise nx.NetworkXNotImplemented("not implemented for undirected type")


@checked_by(_degree_reason)
def degree_centrality(G):
    """networkx.degree_centrality: ``{node: degree / (n - 1)}`` in node order (1 for every node
    of a graph with at most one node)."""
    return _by_degree(G, "in+out")


@checked_by(_degree_reason)
def in_degree_centrality(G):
    """networkx.in_degree_centrality (directed graphs; networkx.NetworkXNotImplemented otherwise)."""
    _directed_only(G)
    return _by_degree(G, "in")


@checked_by(_degree_reason)
def out_degree_centrality(G):
    """networkx.out_degree_centrality (directed graphs; networkx.NetworkXNotImplemented otherwise)."""
    _directed_only(G)
    return _by_degree(G, "out")


# ---------------------------------------------------------------------------------------------
# betweenness
# ---------------------------------------------------------------------------------------------
def _reason(G, k=None, normalized=True, weight=None, endpoints=False, seed=None):
    if weight is not None:
        return _WEIGHTED
    return None


@checked_by(_reason)
def betweenness_centrality(G, k=None, normalized=True, weight=None, endpoints=False, seed=None):
    """networkx.betweenness_centrality (``weight=None``): ``{node: value}`` in node order.

    Raises ValueError as networkx's sampling does for k > n or k < 0, and ZeroDivisionError for
    k = 0 where networkx's rescaling divides by zero.
    """
    reason = _reason(G, k, normalized, weight, endpoints, seed)
    if reason:
        raise NotImplementedError(reason)
    nodes = G.nodes
    if k == len(G):
        k = None  # networkx: all nodes, the same result
    sources = None
    if k is not None:
        sources = [G.index[v] for v in seed.sample(list(nodes), k)]
        if not sources:
            N = len(G) if endpoints else len(G) - 1
            if N >= 2:
                raise ZeroDivisionError("division by zero")  # networkx's rescale with no source
            return dict.fromkeys(nodes, 0.0)
    bc = _alg.betweenness_centrality(G.structure, sources=sources, normalized=normalized, endpoints=endpoints)
    return dict(zip(nodes, asnumpy(bc.to_dense()).tolist()))


def edge_order(G):
    """(tails, heads): index arrays of G's edges in the order networkx's ``G.edges()`` lists
    them (an undirected edge once, from the node that comes first)."""
    indptr, indices = G.order
    tails = np.repeat(np.arange(len(G), dtype=np.int64), np.diff(indptr))
    if G.is_directed():
        return tails, indices
    keep = indices >= tails  # networkx skips neighbours it has already passed
    return tails[keep], indices[keep]


def _lookup(E, n, rows, cols):
    """E(rows[i], cols[i]) as a float array, 0 where absent."""
    out = np.zeros(rows.shape[0])
    if E is None or not E.nvals or not rows.shape[0]:
        return out
    r, c, v = (asnumpy(a) for a in E.to_coo())
    key = r.astype(np.int64) * n + c
    o = np.argsort(key, kind="stable")
    key, v = key[o], v[o]
    want = rows * n + cols
    pos = np.minimum(np.searchsorted(key, want), key.shape[0] - 1)
    hit = key[pos] == want
    out[hit] = v[pos[hit]]
    return out


def _edge_dict(G, E, scale):
    """``{(u, v): value}`` over G's edges in networkx's order; undirected edges sum both ways."""
    tails, heads = edge_order(G)
    n = len(G)
    vals = _lookup(E, n, tails, heads)
    if not G.is_directed():
        vals = vals + _lookup(E, n, heads, tails)
    nodes = G.nodes
    out = {(nodes[u], nodes[v]): x for u, v, x in zip(tails.tolist(), heads.tolist(), vals.tolist())}
    if scale is not None:
        for e in out:
            out[e] *= scale
    return out


def _edge_reason(G, *args, weight=None, **kwargs):
    if weight is not None:
        return _WEIGHTED
    if G.is_multigraph():
        return "networkx keys a multigraph's edge betweenness by edge key; the backend graph holds no keys"
    return None


@checked_by(lambda G, k=None, normalized=True, weight=None, seed=None: _edge_reason(G, weight=weight))
def edge_betweenness_centrality(G, k=None, normalized=True, weight=None, seed=None):
    """networkx.edge_betweenness_centrality (``weight=None``): ``{(u, v): value}`` over the edges in
    networkx's ``G.edges()`` order.

    Raises ValueError as networkx's sampling does for k > n or k < 0, and ZeroDivisionError for
    k = 0 where networkx's rescaling divides by zero.
    """
    reason = _edge_reason(G, weight=weight)
    if reason:
        raise NotImplementedError(reason)
    sources = np.arange(len(G), dtype=np.int64)
    if k is not None:
        sources = np.array([G.index[v] for v in seed.sample(list(G.nodes), k)], dtype=np.int64)
    scale, _ = scale_factors(len(G), normalized=normalized, directed=G.is_directed(), endpoints=True,
                             k=None if k is None else len(sources))
    E = brandes.edge_dependencies(G.structure, sources) if len(sources) else None
    return _edge_dict(G, E, scale)


def _subset_reason(G, sources, targets, normalized=False, weight=None):
    if weight is not None:
        return _WEIGHTED
    if isinstance(targets, Iterator):
        return "networkx reads targets once per source: an iterator is used up by the first one"
    return None


def _sources(G, sources):
    """The indices of ``sources`` in order, repeats kept; KeyError for a non-node, as networkx's
    search raises it."""
    out = []
    for s in sources:
        if s not in G:
            raise KeyError(s)
        out.append(G.index[s])
    return np.array(out, dtype=np.int64)


def _targets(G, targets):
    return [G.index[t] for t in set(targets) if t in G]


@checked_by(_subset_reason)
def betweenness_centrality_subset(G, sources, targets, normalized=False, weight=None):
    """networkx.betweenness_centrality_subset (``weight=None``): ``{node: value}`` in node order,
    counting the shortest paths from ``sources`` to ``targets``."""
    reason = _subset_reason(G, sources, targets, normalized, weight)
    if reason:
        raise NotImplementedError(reason)
    src = _sources(G, sources)
    tgt = _targets(G, targets)
    vals = np.zeros(len(G))
    if src.shape[0] and tgt:
        vals = brandes.subset_dependencies(G.structure, src, tgt)
    scale, _ = scale_factors(len(G), normalized=normalized, directed=G.is_directed(), endpoints=False)
    out = dict(zip(G.nodes, vals.tolist()))
    if scale is not None:
        for v in out:
            out[v] *= scale
    return out


@checked_by(lambda G, sources, targets, normalized=False, weight=None:
            _subset_reason(G, sources, targets, weight=weight) or _edge_reason(G))
def edge_betweenness_centrality_subset(G, sources, targets, normalized=False, weight=None):
    """networkx.edge_betweenness_centrality_subset (``weight=None``): ``{(u, v): value}`` over the
    edges in networkx's order (networkx's rule: a target's in-edges share by path counts, other
    vertices split their dependency evenly over their shortest-path in-edges)."""
    reason = _subset_reason(G, sources, targets, normalized, weight) or _edge_reason(G)
    if reason:
        raise NotImplementedError(reason)
    src = _sources(G, sources)
    tgt = _targets(G, targets)
    E = brandes.edge_subset_dependencies(G.structure, src, tgt) if src.shape[0] and tgt else None
    scale, _ = scale_factors(len(G), normalized=normalized, directed=G.is_directed(), endpoints=True)
    return _edge_dict(G, E, scale)


# ---------------------------------------------------------------------------------------------
# Newman's load
# ---------------------------------------------------------------------------------------------
def _cutoff_depth(cutoff):
    """networkx's ``predecessor`` cutoff as a BFS depth: it stops after the first level L with
    ``cutoff <= L`` when ``cutoff`` is truthy (at least one level), else searches everything."""
    if not cutoff:
        return None
    return max(1, math.ceil(cutoff))


def _load_reason(G, *args, cutoff=None, weight=None, **kwargs):
    if weight is not None:
        return "weighted load (Dijkstra's predecessors) is not in the engine; it is unweighted (BFS)"
    if cutoff is not None and cutoff is not False and (not _checks.is_real(cutoff) or cutoff != cutoff):
        return f"cutoff must be a real number, None or False; given {cutoff!r}"
    return None


@checked_by(lambda G, v=None, cutoff=None, normalized=True, weight=None: _load_reason(G, cutoff=cutoff, weight=weight))
def newman_betweenness_centrality(G, v=None, cutoff=None, normalized=True, weight=None):
    """networkx.load_centrality (``weight=None``): ``{node: load}`` in node order, or the load of
    ``v`` (0.0 for a ``v`` that is not a node, as networkx)."""
    reason = _load_reason(G, cutoff=cutoff, weight=weight)
    if reason:
        raise NotImplementedError(reason)
    vals = np.zeros(len(G))
    if len(G):
        vals = brandes.load_dependencies(G.structure, np.arange(len(G)), _cutoff_depth(cutoff))
    order = len(G)
    scale = 1.0 / ((order - 1) * (order - 2)) if normalized and order > 2 else None
    if v is not None:
        betweenness = vals[G.index[v]].item() if v in G else 0.0
        return betweenness if scale is None else betweenness * scale
    out = dict(zip(G.nodes, vals.tolist()))
    if scale is not None:
        for u in out:
            out[u] *= scale
    return out


@checked_by(lambda G, cutoff=False: _load_reason(G, cutoff=cutoff) or
            ("networkx keys a multigraph's edges by their ends; the backend graph holds one edge per pair"
             if G.is_multigraph() else None))
def edge_load_centrality(G, cutoff=False):
    """networkx.edge_load_centrality: ``{(u, v): load}`` for both orientations of every edge, in
    networkx's order (each source adds 1 to every pair, and its share on its shortest-path edges)."""
    reason = _load_reason(G, cutoff=cutoff)
    if reason:
        raise NotImplementedError(reason)
    n = len(G)
    tails, heads = edge_order(G)
    E = brandes.edge_load_dependencies(G.structure, np.arange(n), _cutoff_depth(cutoff)) if n else None
    extra = _lookup(E, n, tails, heads) + _lookup(E, n, heads, tails)
    nodes = G.nodes
    out = {}
    for u, v, x in zip(tails.tolist(), heads.tolist(), extra.tolist()):
        out[(nodes[u], nodes[v])] = float(n) + x
        out.setdefault((nodes[v], nodes[u]), float(n) + x)
    return out


__all__ = ["degree_centrality", "in_degree_centrality", "out_degree_centrality", "betweenness_centrality",
           "edge_betweenness_centrality", "betweenness_centrality_subset", "edge_betweenness_centrality_subset",
           "newman_betweenness_centrality", "edge_load_centrality", "edge_order"]
