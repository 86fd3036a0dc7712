"""networkx's dense all-pairs functions on the engine: ``floyd_warshall`` and
``floyd_warshall_numpy`` on its all-pairs closure (``semiring.algorithms.floyd_warshall``),
``floyd_warshall_predecessor_and_distance`` on one SSSP with parents per source.

networkx's Floyd-Warshall records, for each pair, the predecessor its pivot order happens to
leave among equally short paths; the predecessors here are the engine's shortest-path tree from
each source (a BFS over the tight edges, each node taking its smallest-index tight predecessor
one hop nearer), so ``reconstruct_path`` gives a shortest path, possibly another one of the same
length. A graph with a negative cycle is declined: networkx returns whatever values its
relaxation reaches there.
"""

from __future__ import annotations

import math
from collections import defaultdict

import networkx as nx
import numpy as np

from .... import algorithms as _alg
from ....exceptions import DomainMismatch, InvalidValue, NegativeCycleError, OutOfMemory
from ....backends._xp import asnumpy
from ...algorithms.paths import distances
from .._common import checked_by, weight_reason
from ._pairs import require_pairs
from .bellman_ford import _potentials


def _inf():
    return math.inf


@checked_by(lambda G, weight="weight": weight_reason(weight))
def floyd_warshall(G, weight="weight"):
    """networkx.floyd_warshall: ``{u: defaultdict(inf, {v: distance})}`` over every pair (inf where
    v is unreachable); int distances for integer weights, as networkx's sums.

    Declined (NotImplementedError): a graph with a negative cycle (networkx returns the values its
    relaxation happens to reach there; the engine proves the cycle instead), NaN weights, integer
    weights that could overflow int64, and a result larger than the engine's memory limit.
    """
    if not len(G):
        return {}
    require_pairs(len(G), "floyd_warshall")
    W = G.weighted(weight).A
    try:
        D = _alg.floyd_warshall(W)
    except (NegativeCycleError, DomainMismatch, InvalidValue) as exc:
        raise NotImplementedError(f"the engine declines: {exc}") from None
    rows, cols, vals = (asnumpy(a) for a in D.to_coo())  # row-major (CSR order)
    nodes = G.nodes
    starts = np.searchsorted(rows, np.arange(len(nodes) + 1))
    cols, vals, starts = cols.tolist(), vals.tolist(), starts.tolist()
    out = {}
    for i, u in enumerate(nodes):
        row = defaultdict(_inf, dict.fromkeys(nodes, math.inf))
        row.update((nodes[j], d) for j, d in zip(cols[starts[i]:starts[i + 1]], vals[starts[i]:starts[i + 1]]))
        out[u] = row
    return out


def _closure(G, weight):
    """The engine's all-pairs distances D (a Matrix); declines what networkx would not answer."""
    W = G.weighted(weight).A
    try:
        return _alg.floyd_warshall(W)
    except (NegativeCycleError, DomainMismatch, InvalidValue, OutOfMemory) as exc:
        raise NotImplementedError(f"the engine declines: {exc}") from None


def _numpy_reason(G, nodelist=None, weight="weight"):
    return weight_reason(weight)


@checked_by(_numpy_reason)
def floyd_warshall_numpy(G, nodelist=None, weight="weight"):
    """networkx.floyd_warshall_numpy: the n x n float64 array of distances (inf where
    unreachable), rows and columns in ``nodelist`` order (default G's).

    Raises networkx.NetworkXError for a ``nodelist`` that is not a permutation of G's nodes.
    Declined (NotImplementedError): a negative cycle, including a negative self-loop (networkx
    overwrites the diagonal with 0 and keeps going).
    """
    n = len(G)
    if nodelist is not None:
        if not (len(nodelist) == n == len(set(nodelist))):
            raise nx.NetworkXError("nodelist must contain every node in G with no repeats."
                                   "If you wanted a subgraph of G use G.subgraph(nodelist)")
        missing = set(nodelist) - set(G.index)
        if missing:
            raise nx.NetworkXError(f"Nodes {missing} in nodelist is not in G")
        perm = np.fromiter((G.index[v] for v in nodelist), dtype=np.int64, count=n)
    else:
        perm = np.arange(n, dtype=np.int64)
    if not n:
        return np.zeros((0, 0), dtype=np.float64)
    D = _closure(G, weight)
    dense = asnumpy(D.to_dense(np.inf)).astype(np.float64, copy=False)
    return np.ascontiguousarray(dense[np.ix_(perm, perm)])


@checked_by(lambda G, weight="weight": weight_reason(weight))
def floyd_warshall_predecessor_and_distance(G, weight="weight"):
    """networkx.floyd_warshall_predecessor_and_distance: ``(pred, dist)``.

    ``dist[u]`` is a ``defaultdict(inf)`` over every node; ``pred[u][v]`` (for reachable
    v != u, and v == u where u has a self-loop) is v's predecessor on a shortest u-v path; only
    nodes with an out-edge are keys of ``pred``, as in networkx. One engine SSSP with parents
    per source (see the module docstring for which path).

    Raises semiring.OutOfMemory when the n x n dicts would not fit in memory. Declined
    (NotImplementedError): a negative cycle anywhere, NaN weights, integer weights that could
    overflow int64.
    """
    n = len(G)
    if not n:
        return {}, {}
    require_pairs(n, "floyd_warshall_predecessor_and_distance")
    negative = G.min_weight(weight) < 0
    if negative:
        try:
            _potentials(G, weight)  # one Bellman-Ford from a super source: a negative cycle anywhere
        except nx.NetworkXUnbounded:
            raise NotImplementedError("a negative cycle: networkx's Floyd-Warshall returns the values its "
                                      "relaxation reaches there") from None

    nodes = G.nodes
    W = G.weighted(weight).A
    rows, cols = (asnumpy(a) for a in W.to_coo()[:2])
    has_out = np.zeros(n, dtype=bool)
    has_out[rows] = True
    loops = set(rows[rows == cols].tolist())
    method = "bellman-ford" if negative else "dijkstra"
    pred, dist = {}, {}
    for u in range(n):
        d, reached, parent = distances(G, [u], weight, method, parents=True)
        row = defaultdict(_inf, dict.fromkeys(nodes, math.inf))
        idx = np.flatnonzero(reached)
        row.update(zip((nodes[i] for i in idx.tolist()), d[idx].tolist()))
        dist[nodes[u]] = row
        if has_out[u]:
            reach = idx[idx != u]
            p = {nodes[v]: nodes[q] for v, q in zip(reach.tolist(), parent[reach].tolist())}
            if u in loops:
                p[nodes[u]] = nodes[u]
            pred[nodes[u]] = p
    return pred, dist


__all__ = ["floyd_warshall", "floyd_warshall_numpy", "floyd_warshall_predecessor_and_distance"]
