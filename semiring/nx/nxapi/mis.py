"""networkx.maximal_independent_set on the engine's Luby algorithm (``semiring.algorithms.mis``).

As networkx does, the set starts from ``nodes`` (or one node drawn from ``seed``) and is extended
to a maximal independent set at random; here the extension is Luby's algorithm on the subgraph of
the nodes neither in ``nodes`` nor next to them (``sr.extract``). The result is a valid maximal
independent set containing ``nodes``, drawn from a different random stream than networkx's.
"""

from __future__ import annotations

import random

import networkx as nx
import numpy as np

from ... import core as _core
from ... import algorithms as _alg
from ...core.vector import Vector
from ...ops import binary, semiring
from ._common import entries


def _rng(seed):
    # networkx's @py_random_state turns seed into a random.Random-like object before dispatch
    return seed if hasattr(seed, "choice") and hasattr(seed, "randrange") else random.Random(seed)


def maximal_independent_set(G, nodes=None, seed=None):
    """networkx.maximal_independent_set: a list, ``nodes`` first, then the engine's extension.

    Raises networkx.NetworkXUnfeasible when ``nodes`` is not a subset of G's nodes or not
    independent, and IndexError (as networkx does) for a graph without nodes and no ``nodes``.
    """
    seed = _rng(seed)
    nodes = {seed.choice(list(G))} if not nodes else set(nodes)
    if not nodes.issubset(G):
        raise nx.NetworkXUnfeasible(f"{nodes} is not a subset of the nodes of G")
    n, A = len(G), G.A
    chosen = np.array([G.index[v] for v in nodes], dtype=np.int64)
    x = Vector.from_coo(chosen, np.ones(chosen.shape[0], bool), size=n, dtype="bool", device=A.device)
    # near = A any.pair x   (the chosen nodes' neighbours; A is symmetric)
    near = _core.mxv(A, x, semiring.any_pair)
    # clash = near .* x   (a chosen node next to a chosen node, or on a self-loop)
    if _core.ewise_mult(near, x, binary.pair).nvals:
        raise nx.NetworkXUnfeasible(f"{nodes} is not an independent set of G")
    taken = np.zeros(n, dtype=bool)
    taken[chosen] = True
    taken[entries(near)[0]] = True
    free = np.flatnonzero(~taken)
    members = []
    if free.shape[0]:
        # sub = A(free, free); members = luby(sub)
        sub = _core.extract(A, free, free)
        members = free[entries(_alg.mis(sub, seed=seed.randrange(2**31)))[0]].tolist()
    return list(nodes) + [G.nodes[i] for i in members]


__all__ = ["maximal_independent_set"]
