"""networkx's ``kernighan_lin_bisection`` on the engine (``semiring.algorithms.kernighan_lin_bisection``).

The engine runs the same single-move form of Kernighan-Lin as networkx (alternately the best
vertex of each side moves, the best prefix of pairs is kept, up to ``max_iter`` passes), with
the gains from one product per pass. Its random starting bisection comes from another stream
than networkx's for the same ``seed``, and ties between equal gains are broken by vertex
order, so the bisection can differ from networkx's (both keep the sides' sizes). Self-loops
never count (networkx's gains count a self-loop as an internal edge; either way it is never
cut). Declined: multigraphs (networkx sums parallel edges' weights, the backend graph keeps the
smallest), callable weights, negative or NaN weights, a non-integer ``max_iter``.
"""

from __future__ import annotations

import random

import networkx as nx
import numpy as np

from ... import _checks
from ... import algorithms as _alg
from ...backends._xp import asnumpy
from ._common import checked_by, weight_reason


def _rng(seed):
    # networkx's @py_random_state turns seed into a random.Random-like object before dispatch
    return seed if hasattr(seed, "getrandbits") else random.Random(seed)


def _reason(G, partition=None, max_iter=10, weight="weight", seed=None):
    if G.is_multigraph():
        return "a multigraph: networkx sums parallel edges' weights, the backend graph keeps the smallest"
    if not _checks.is_integer(max_iter):
        return f"max_iter must be an integer; given {max_iter!r} (networkx decides what that does)"
    return weight_reason(weight)


def _is_partition(G, blocks):
    """networkx.community.is_partition, on the backend graph's node set."""
    nodes = {v for c in blocks for v in c if v in G}
    return len(G) == len(nodes) == sum(len(c) for c in blocks)


@checked_by(_reason)
def kernighan_lin_bisection(G, partition=None, max_iter=10, weight="weight", seed=None):
    """networkx.community.kernighan_lin_bisection: a pair of node sets.

    As networkx: the nodes of the first block of ``partition`` form the second set's side (the
    sides of a given partition are swapped in the return value, as networkx's are), and
    networkx.NetworkXError for a ``partition`` that is not two blocks partitioning the nodes.
    """
    if G.is_directed():
        raise nx.NetworkXNotImplemented("not implemented for directed type")
    n = len(G)
    if partition is None:
        start = None
        seed = _rng(seed).getrandbits(63)
    else:
        try:
            A, B = partition
        except (TypeError, ValueError) as err:
            raise nx.NetworkXError("partition must be two sets") from err
        if not _is_partition(G, [A, B]):
            raise nx.NetworkXError("partition invalid")
        start = np.zeros(n, dtype=np.int64)
        start[[G.index[v] for v in A]] = 1
        seed = 0
    if not n:
        return set(), set()
    W = G.weighted(weight)
    if W.A.dtype.kind == "f":
        vals = asnumpy(W.A.to_coo()[2])
        if vals.shape[0] and (np.isnan(vals).any() or (vals < 0).any()):
            raise NotImplementedError(f"negative or NaN {weight!r} weights: the engine's cut needs non-negative ones")
    elif W.A.dtype.kind == "i" and W.A.nvals and (asnumpy(W.A.to_coo()[2]) < 0).any():
        raise NotImplementedError(f"negative {weight!r} weights: the engine's cut needs non-negative ones")
    side = asnumpy(_alg.kernighan_lin_bisection(W, partition=start, max_iter=max(0, int(max_iter)),
                                                 seed=seed).to_dense())
    nodes = G.nodes
    return ({nodes[i] for i in np.flatnonzero(side == 0).tolist()},
            {nodes[i] for i in np.flatnonzero(side == 1).tolist()})


__all__ = ["kernighan_lin_bisection"]
