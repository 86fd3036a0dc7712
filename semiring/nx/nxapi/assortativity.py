"""networkx's neighbour-degree averages on engine products.

``average_neighbor_degree`` sums the target degrees of each node's neighbours with one product
``s = M plus.times d_target`` (M: the successors, the predecessors (``M'``) or both, weighted by
``weight``) and divides by the node's (weighted) source degree. ``average_degree_connectivity``
groups the same sums by the nodes' source degree k (``sum s / sum of weighted degrees``, keys in
the order networkx first meets them). Integer degrees give networkx's exact values.

Declined: multigraphs with parallel edges (networkx's degrees count them), weighted multigraphs
(networkx reads a multigraph's edge-key dict as the edge data there), and
``average_neighbor_degree`` of a single node (networkx iterates its degree, an int, and fails).
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from ... import core as _core
from ...core.vector import Vector
from ...ops import semiring
from ._common import checked_by, weight_reason
from ._measures import degrees, dense, nbunch, parallel_reason

_WHICH = ("in", "out", "in+out")


def _multi_reason(G, weight):
    if G.is_multigraph() and weight is not None:
        return "networkx reads a multigraph's edge-key dict as the edge data of a weighted sum"
    return parallel_reason(G)


def _neighbour_sums(G, tdeg, succ, pred, weight):
    """s(v) = sum of ``tdeg`` over v's successors (``succ``) and predecessors (``pred``), each
    times the edge's ``weight``: a list of Python numbers, the int 0 where v has no such
    neighbour (networkx's empty sum)."""
    dev = G.A.device
    t = Vector.from_dense(np.asarray(tdeg), device=dev)
    ring = semiring.plus_second if weight is None else semiring.plus_times
    total, count = 0, 0
    for reverse, on in ((False, succ), (True, pred)):
        if on:
            M = G.weighted(weight, reverse=reverse).A
            # s = M plus.times t   (M' for the predecessors);  c = M plus.pair t   (the neighbours)
            total = total + dense(_core.mxv(M, t, ring), 0)
            count = count + dense(_core.mxv(M, t, semiring.plus_pair), 0)
    return [x if c else 0 for x, c in zip(np.asarray(total).tolist(), np.asarray(count).tolist())]


def _nd_reason(G, source="out", target="out", nodes=None, weight=None):
    reason = weight_reason(weight) or _multi_reason(G, weight)
    if reason:
        return reason
    if nodes is not None and nodes in G:
        return "networkx iterates the degree of a single node (an int) and fails"
    return None


@checked_by(_nd_reason)
def average_neighbor_degree(G, source="out", target="out", nodes=None, weight=None):
    """networkx.average_neighbor_degree: ``{node: mean target degree of its neighbours}`` in node
    order or ``nodes``' order (0.0 where the source degree is 0).

    Raises networkx.NetworkXError for a source or target other than "in", "out", "in+out"
    (directed) or "out" (undirected), as networkx does.
    """
    reason = _nd_reason(G, source, target, nodes, weight)
    if reason:
        raise NotImplementedError(reason)
    if G.is_directed():
        if source not in _WHICH:
            raise nx.NetworkXError(f"source argument {source} must be 'in', 'out' or 'in+out'")
        if target not in _WHICH:
            raise nx.NetworkXError(f"target argument {target} must be 'in', 'out' or 'in+out'")
        succ, pred = "out" in source, "in" in source
    else:
        if source != "out" or target != "out":
            raise nx.NetworkXError("source and target arguments are only supported for directed graphs")
        source = target = "in+out"
        succ, pred = True, False
    s = _neighbour_sums(G, degrees(G, target), succ, pred, weight)
    deg = degrees(G, source, weight).tolist()
    index = G.index
    avg = {}
    for v in nbunch(G, nodes):
        i = index[v]
        avg[v] = 0.0 if deg[i] == 0 else s[i] / deg[i]
    return avg


def _adc_reason(G, source="in+out", target="in+out", nodes=None, weight=None):
    return weight_reason(weight) or _multi_reason(G, weight)


@checked_by(_adc_reason)
def average_degree_connectivity(G, source="in+out", target="in+out", nodes=None, weight=None):
    """networkx.average_degree_connectivity: ``{k: mean target degree of the neighbours of the
    nodes of source degree k}`` (keys in the order networkx meets them).

    Raises networkx.NetworkXError for a source or target networkx does not take, as networkx.
    """
    reason = _adc_reason(G, source, target, nodes, weight)
    if reason:
        raise NotImplementedError(reason)
    if G.is_directed():
        if source not in _WHICH:
            raise nx.NetworkXError('source must be one of "in", "out", or "in+out"')
        if target not in _WHICH:
            raise nx.NetworkXError('target must be one of "in", "out", or "in+out"')
        # networkx's neighbours: successors for "out" and "in+out" (DiGraph.neighbors), predecessors for "in"
        succ, pred = source != "in", source == "in"
    else:
        if source != "in+out" or target != "in+out":
            raise nx.NetworkXError("source and target arguments are only supported for directed graphs")
        succ, pred = True, False
    s = _neighbour_sums(G, degrees(G, target), succ, pred, weight)
    k_of = degrees(G, source).tolist()
    norm = k_of if weight is None else degrees(G, source, weight).tolist()
    index = G.index
    dsum, dnorm = {}, {}
    for v in ([nodes] if nodes is not None and nodes in G else nbunch(G, nodes)):
        i = index[v]
        k = k_of[i]
        dsum[k] = dsum.get(k, 0) + s[i]
        dnorm[k] = dnorm.get(k, 0) + norm[i]
    return {k: avg if dnorm[k] == 0 else avg / dnorm[k] for k, avg in dsum.items()}


__all__ = ["average_neighbor_degree", "average_degree_connectivity"]
