"""networkx's ``louvain_communities`` and ``modularity`` on the engine
(``semiring.algorithms.louvain`` and ``semiring.algorithms.modularity``).

Both take undirected simple graphs with non-negative weights; the rest declines (directed
graphs: networkx then uses its directed formulas; multigraphs: networkx sums parallel edges,
the backend graph keeps the smallest; negative or NaN weights; a graph whose edges all weigh 0,
where networkx divides by zero). The engine's Louvain moves vertices in parallel rounds, so for
the same ``seed`` its partition differs from networkx's (a different random stream and order);
its modularity is comparable (``tests/test_community.py``). Modularity is networkx's formula and
self-loop convention exactly.
"""

from __future__ import annotations

import random

import numpy as np
from networkx.algorithms.community.quality import NotAPartition

from ... import algorithms as _alg
from ...backends._xp import asnumpy
from ...core.vector import Vector
from ._common import checked_by, entries, is_int, real_reason, weight_reason


def _rng(seed):
    # networkx's @py_random_state turns seed into a random.Random-like object before dispatch
    return seed if hasattr(seed, "getrandbits") else random.Random(seed)


def _graph_reason(G, weight):
    if G.is_directed():
        return ("a directed graph: the engine's Louvain and modularity are for undirected graphs (networkx uses "
                "its directed formulas)")
    if G.is_multigraph():
        return "a multigraph: networkx sums parallel edges' weights, the backend graph keeps the smallest"
    return weight_reason(weight)


def _number_reason(x, what):
    return f"{what} must be a real number; given None" if x is None else real_reason(x, what)


def _louvain_reason(G, weight="weight", resolution=1, threshold=0.0000001, max_level=None, seed=None):
    if max_level is not None and not is_int(max_level):
        return f"max_level must be an integer or None; given {max_level!r} (networkx decides what that does)"
    return (_graph_reason(G, weight) or _number_reason(resolution, "resolution")
            or _number_reason(threshold, "threshold"))


def _modularity_reason(G, communities, weight="weight", resolution=1):
    return _graph_reason(G, weight) or _number_reason(resolution, "resolution")


def _weights(G, weight):
    """The engine graph of ``weight``; NotImplementedError (networkx falls back) where networkx's
    answer is not the engine's: negative or NaN weights, or edges that all weigh 0."""
    W = G.weighted(weight)
    vals = asnumpy(W.A.to_coo()[2]).astype(np.float64)
    if vals.shape[0]:
        if np.isnan(vals).any() or (vals < 0).any():
            raise NotImplementedError(f"negative or NaN {weight!r} weights: modularity needs non-negative ones")
        if not vals.any():
            raise NotImplementedError(f"every edge has {weight!r} 0: networkx divides by the total weight, 0")
    return W


@checked_by(_louvain_reason)
def louvain_communities(G, weight="weight", resolution=1, threshold=0.0000001, max_level=None, seed=None):
    """networkx.community.louvain_communities: a list of node sets, in order of their first node.

    Raises ValueError (as networkx) when ``max_level`` is not positive.
    """
    if max_level is not None and max_level <= 0:
        raise ValueError("max_level argument must be a positive integer or None")
    seed = _rng(seed)
    if not len(G):
        return []
    W = _weights(G, weight)
    labels = _alg.louvain(W, resolution=resolution, threshold=threshold, max_level=max_level,
                          seed=seed.getrandbits(32))
    lab = entries(labels)[1]
    order = np.argsort(lab, kind="stable")
    cuts = np.flatnonzero(np.diff(lab[order])) + 1
    nodes = G.nodes
    return [{nodes[i] for i in part.tolist()} for part in np.split(order, cuts)]


@checked_by(_modularity_reason)
def modularity(G, communities, weight="weight", resolution=1):
    """networkx.community.modularity: the modularity of a partition of G's nodes.

    Raises networkx.algorithms.community.quality.NotAPartition (as networkx) when ``communities``
    is not a partition of the nodes.
    """
    if not isinstance(communities, list):
        communities = list(communities)
    n = len(G)
    label = np.full(n, -1, dtype=np.int64)
    index = G.index
    for c, part in enumerate(communities):
        for v in part:
            i = index.get(v) if _hashable(v) else None
            if i is None or label[i] >= 0:
                raise NotAPartition(G, communities)
            label[i] = c
    if (label < 0).any():
        raise NotAPartition(G, communities)
    W = _weights(G, weight)
    if not W.A.nvals:
        raise NotImplementedError("a graph without edges: networkx divides by the total weight, 0")
    q = _alg.modularity(W, Vector.from_dense(label, device=W.A.device), resolution=resolution)
    return float(q)


def _hashable(v):
    try:
        hash(v)
    except TypeError:
        return False
    return True


__all__ = ["louvain_communities", "modularity"]
