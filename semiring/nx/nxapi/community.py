"""networkx's ``louvain_communities`` and ``modularity`` on the engine
(``semiring.algorithms.louvain`` and ``semiring.algorithms.modularity``).

Both take undirected simple graphs with non-negative weights; the rest declines (directed
graphs: networkx then uses its directed formulas; multigraphs: networkx sums parallel edges,
the backend graph keeps the smallest; negative or NaN weights; a graph whose edges all weigh 0,
where networkx divides by zero). Where the compiled CPU loops run, Louvain is networkx's sequential
method compiled (:mod:`semiring.backends.cpu.compiled_louvain`); elsewhere the engine's Louvain
moves vertices in parallel rounds. Either way, for the same ``seed`` the partition differs from
networkx's (another random stream, and another order), and its modularity is comparable
(``tests/algorithms/test_community.py``). Modularity is networkx's formula and
self-loop convention exactly.
"""

from __future__ import annotations

import random
from collections import defaultdict

import numpy as np
from networkx.algorithms.community.quality import NotAPartition

from ... import _checks
from ... import algorithms as _alg
from ... import core as _core
from ...backends._xp import asnumpy
from ...backends.cpu import _jit
from ...backends.cpu import compiled_louvain as _louvain
from ...core.matrix import Matrix
from ...core.vector import Vector
from ...ops import semiring as _semirings
from ...ops import unary
from ._common import checked_by, entries, weight_reason


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
    return _checks.reason(_checks.real, x, "", what)


def _louvain_reason(G, weight="weight", resolution=1, threshold=0.0000001, max_level=None, seed=None):
    if max_level is not None and not _checks.is_integer(max_level):
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
    if G.device == "cpu" and _jit.enabled():
        # networkx's sequential sweeps, compiled (its random stream is not networkx's)
        rows, cols, vals = (asnumpy(a) for a in W.A.to_coo())
        lab = _louvain.louvain(rows, cols, vals.astype(np.float64), len(G), resolution=float(resolution),
                               threshold=float(threshold), max_level=max_level,
                               rng=np.random.default_rng(seed.getrandbits(32)))
    else:
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


# label propagation ------------------------------------------------------------------------------
# networkx's semi-synchronous label propagation (Cordasco and Gargano 2010): the nodes are split
# into the colour classes of networkx's largest-first greedy colouring (the engine's, which is
# the same colouring), and each round updates the classes one after the other, all nodes of a
# class at once (they are never adjacent, so this is networkx's sweep exactly). A node's label
# counts among its neighbours are one product with the label indicator L (L(u, label(u)) = 1):
# ``F = A(class, :) plus.pair L``; the most frequent labels are where F reaches its row maximum
# (``reduce_rowwise(F, max)``); a node keeps its label if it is among them, else takes the
# largest (networkx's "Prec-Max" rule). The rounds stop once every node with neighbours holds one
# of its most frequent labels.


def _propagation_reason(G):
    if G.is_multigraph():
        return "a multigraph: networkx's colouring orders nodes by degree counting parallel edges"
    return None


def _label_matrix(labels, device):
    n = labels.shape[0]
    return Matrix.from_coo(np.arange(n, dtype=np.int64), labels, np.ones(n, dtype=np.int64), nrows=n, ncols=n,
                           dtype="int64", device=device)


def _counts(A, rows, L):
    """COO (row, label, count) of ``F = A(rows, :) plus.pair L``, rows numbered as in ``rows``
    (all rows when None)."""
    P = A if rows is None else _core.extract(A, rows, None)
    return tuple(asnumpy(a) for a in _core.mxm(P, L, _semirings.plus_pair).to_coo())


def _best(r, c, x, size):
    """Per row: whether each entry is a most frequent label (x equals the row maximum)."""
    top = np.zeros(size, dtype=x.dtype)
    np.maximum.at(top, r, x)
    return x == top[r]


def _settled(A, labels, L):
    """Whether every node with neighbours holds one of its most frequent labels."""
    n = labels.shape[0]
    r, c, x = _counts(A, None, L)
    best = _best(r, c, x, n)
    own = np.zeros(n, dtype=bool)
    own[r[best & (c == labels[r])]] = True
    has = np.zeros(n, dtype=bool)
    has[r] = True
    return bool(np.all(own | ~has))


@checked_by(_propagation_reason)
def label_propagation_communities(G):
    """networkx.community.label_propagation_communities: the communities as node sets, in order
    of their first node (a ``dict_values``, as networkx returns).

    Declines graphs with self-loops (networkx's colouring counts them in the degree order;
    networkx rejects directed graphs before dispatching).
    """
    n = len(G)
    if G.has_self_loops():
        raise NotImplementedError("self-loops: networkx's colouring counts them twice in its degree order")
    labels = np.arange(n, dtype=np.int64)
    if n:
        colour = asnumpy(_alg.coloring(G.structure, method="greedy").to_dense()).astype(np.int64)
        order = np.argsort(-np.diff(G.order[0]), kind="stable")  # networkx's largest-first order
        _, first = np.unique(colour[order], return_index=True)
        classes = [np.sort(np.flatnonzero(colour == colour[order[f]])) for f in np.sort(first)]
        A = _core.apply(G.structure.A, unary.one).dup("int64")
        L = _label_matrix(labels, G.device)
        while not _settled(A, labels, L):
            for members in classes:
                r, c, x = _counts(A, members, L)
                if not r.shape[0]:
                    continue
                best = _best(r, c, x, members.shape[0])
                r, c = r[best], c[best]
                own = labels[members]
                keep = np.zeros(members.shape[0], dtype=bool)
                keep[r[c == own[r]]] = True
                top = np.full(members.shape[0], -1, dtype=np.int64)
                np.maximum.at(top, r, c)
                move = ~keep & (top >= 0)
                if move.any():
                    labels[members[move]] = top[move]
                    L = _label_matrix(labels, G.device)
    clusters = defaultdict(set)
    for v, label in zip(G.nodes, labels.tolist()):
        clusters[label].add(v)
    return clusters.values()


__all__ = ["louvain_communities", "modularity", "label_propagation_communities"]
