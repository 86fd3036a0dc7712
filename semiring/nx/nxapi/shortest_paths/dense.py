"""networkx.floyd_warshall on the engine's all-pairs closure (``semiring.algorithms.floyd_warshall``)."""

from __future__ import annotations

import math
from collections import defaultdict

from ....backends._xp import asnumpy
from ....exceptions import NegativeCycleError
from .._common import checked_by, engine_lacks, weight_reason


def _inf():
    return math.inf


@checked_by(lambda G, weight="weight": weight_reason(weight) or engine_lacks("floyd_warshall"))
def floyd_warshall(G, weight="weight"):
    """networkx.floyd_warshall: ``{u: defaultdict(inf, {v: distance})}`` over every pair.

    A graph with a negative cycle is declined (NotImplementedError): networkx returns the values
    its relaxation happens to reach there, the engine proves the cycle instead.
    """
    from .... import algorithms

    if not len(G):
        return {}
    W = G.weighted(weight).A
    try:
        D = algorithms.floyd_warshall(W)
    except NegativeCycleError as exc:
        raise NotImplementedError(f"a negative cycle: {exc}") from None
    rows = asnumpy(D.to_dense(math.inf)).tolist()
    nodes = G.nodes
    return {u: defaultdict(_inf, zip(nodes, row)) for u, row in zip(nodes, rows)}


__all__ = ["floyd_warshall"]
