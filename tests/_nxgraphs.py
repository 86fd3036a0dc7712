"""networkx graphs shared by the backend adapter tests."""

from __future__ import annotations

import random


def relabelled(G, seed):
    """G with nodes renamed "v<i>" and inserted in a random order (edge data kept), so adapters
    cannot rely on integer labels or on insertion order."""
    rng = random.Random(seed)
    nodes = list(G)
    rng.shuffle(nodes)
    H = G.__class__()
    H.add_nodes_from(f"v{v}" for v in nodes)
    H.add_edges_from((f"v{u}", f"v{v}", d) for u, v, d in G.edges(data=True))
    return H
