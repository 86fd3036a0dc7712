"""networkx graphs shared by the backend adapter tests (tests/nx) and the community tests.

``shuffled`` renames and reorders a graph so that adapters cannot rely on integer labels or on
insertion order; ``gnp`` and ``dag`` are random graphs passed through it. Each draws from
``random.Random(seed)`` in a fixed order (nodes, self-loops, edges, then per edge its
attributes and its weight), so a call gives the same graph wherever it is made.
"""

from __future__ import annotations

import random

import networkx as nx
import numpy as np

from semiring.backends._xp import asnumpy

#: keyword arguments of a networkx call dispatched to the semiring backend / run by networkx
SR = {"backend": "semiring"}
NX = {"backend": "networkx"}


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


def shuffled(G, seed, *, weights=None, low=0, high=9, loops=0, attrs=(), floats=()):
    """G with nodes renamed "v<i>", nodes and edges inserted in a random order, ``loops``
    self-loops at random nodes; optionally a "weight" (``weights`` "int": ``randint(low, high)``,
    "float": ``uniform(low, high)``) on a random 80% of the edges (the others weigh 1), and every
    edge given each attribute of ``attrs`` (random ints in [0, 5]) and of ``floats`` (random
    floats in [0, 3]). Multigraphs keep their parallel edges."""
    rng = random.Random(seed)
    H = G.__class__()
    nodes = list(G)
    rng.shuffle(nodes)
    H.add_nodes_from(f"v{v}" for v in nodes)
    edges = list(G.edges(keys=True) if G.is_multigraph() else G.edges())
    edges += [(v, v) for v in rng.sample(nodes, loops)]
    rng.shuffle(edges)
    for e in edges:
        d = {a: rng.randint(0, 5) for a in attrs}
        d.update({a: rng.uniform(0, 3) for a in floats})
        if weights is not None and rng.random() < 0.8:
            d["weight"] = rng.randint(low, high) if weights == "int" else rng.uniform(low, high)
        H.add_edge(f"v{e[0]}", f"v{e[1]}", **d)
    return H


def gnp(n, p, seed, *, directed=False, **kw):
    """networkx's G(n, p) for ``seed``, shuffled (``kw``: ``shuffled``'s options)."""
    return shuffled(nx.gnp_random_graph(n, p, seed=seed, directed=directed), seed, **kw)


def dag(n, p, seed, **kw):
    """A random DAG (edges i -> j with i < j only, so negative weights make no negative cycle),
    shuffled."""
    G = nx.gnp_random_graph(n, p, seed=seed, directed=True)
    G.remove_edges_from([(u, v) for u, v in list(G.edges) if u > v])
    return shuffled(G, seed, **kw)


def ids(graphs, prefix):
    """Test ids ``<prefix>0``, ``<prefix>1``, ... for a list of graphs."""
    return [f"{prefix}{i}" for i in range(len(graphs))]


def to_nx(A):
    """The networkx graph of a symmetric Matrix: one edge per stored pair (weight = value, 1 for bool)."""
    G = nx.Graph()
    G.add_nodes_from(range(A.nrows))
    r, c, v = (asnumpy(x) for x in A.to_coo())
    keep = r <= c
    w = np.ones(int(keep.sum())) if A.dtype == bool else v[keep].astype(np.float64)
    G.add_weighted_edges_from(zip(r[keep].tolist(), c[keep].tolist(), w.tolist()))
    return G
