"""networkx.floyd_warshall on the engine's all-pairs closure (``semiring.algorithms.floyd_warshall``)."""

from __future__ import annotations

import math
from collections import defaultdict

import numpy as np

from .... import algorithms as _alg
from ....exceptions import DomainMismatch, InvalidValue, NegativeCycleError
from ....backends._xp import asnumpy
from .._common import checked_by, weight_reason


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


__all__ = ["floyd_warshall"]
