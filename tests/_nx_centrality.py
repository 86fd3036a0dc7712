"""Graphs and comparisons of the networkx backend's centrality, clustering and link tests
(tests/nx/test_nx_centrality*.py, tests/nx/test_nx_clustering_prediction.py): graphs whose node
labels are strings inserted in a shuffled order (undirected and directed, with and without
weights, disconnected, with self-loops and reciprocated edges), and ``check``: a call through
networkx's dispatcher with ``backend="semiring"`` (which raises rather than fall back) compared
with the same call run by networkx, type and order included, ints exactly and floats to rounding."""

from __future__ import annotations

import random

import networkx as nx
import pytest

from _nxgraphs import NX, SR

nx.config.warnings_to_ignore.add("cache")


# ---------------------------------------------------------------------------------------------
# graphs and comparison
# ---------------------------------------------------------------------------------------------
def shuffled(G, seed, *, weights=None, loops=0):
    """G with nodes "v<i>" inserted in a random order, edges in a random order, optional "weight"
    values (ints 1..9 or floats in [0.5, 9]) on 80% of the edges, and ``loops`` self-loops."""
    rng = random.Random(seed)
    H = G.__class__()
    nodes = list(G)
    rng.shuffle(nodes)
    H.add_nodes_from(f"v{v}" for v in nodes)
    edges = list(G.edges())
    edges += [(v, v) for v in rng.sample(nodes, loops)]
    rng.shuffle(edges)
    for u, v in edges:
        attrs = {}
        if weights is not None and rng.random() < 0.8:
            attrs["weight"] = rng.randint(1, 9) if weights == "int" else rng.uniform(0.5, 9)
        H.add_edge(f"v{u}", f"v{v}", **attrs)
    return H


def gnp(n, p, seed, *, directed=False, **kw):
    return shuffled(nx.gnp_random_graph(n, p, seed=seed, directed=directed), seed, **kw)


def _reciprocal(seed):
    """A directed graph with reciprocated edges and self-loops."""
    G = gnp(25, 0.12, seed, directed=True, loops=3)
    rng = random.Random(seed)
    for u, v in rng.sample(list(G.edges()), 8):
        G.add_edge(v, u)
    return G


UNDIRECTED = [gnp(30, 0.15, 0), gnp(30, 0.2, 1, loops=3), gnp(25, 0.05, 2)]  # the last is disconnected
DIRECTED = [gnp(30, 0.1, 3, directed=True), _reciprocal(4), gnp(25, 0.04, 5, directed=True)]
WEIGHTED = [gnp(30, 0.15, 6, weights="int"), gnp(30, 0.15, 7, weights="float", loops=2),
            gnp(30, 0.1, 8, directed=True, weights="int"), gnp(30, 0.1, 9, directed=True, weights="float")]
U_IDS = [f"u{i}" for i in range(len(UNDIRECTED))]
D_IDS = [f"d{i}" for i in range(len(DIRECTED))]
W_IDS = [f"w{i}" for i in range(len(WEIGHTED))]


def same(got, want, rel=1e-7, abs_=1e-10):
    """got equals want in structure, order and types; floats to rounding."""
    if isinstance(want, dict):
        assert type(got) is type(want) and list(got) == list(want)
        for k in want:
            same(got[k], want[k], rel, abs_)
    elif isinstance(want, (list, tuple)):
        assert type(got) is type(want) and len(got) == len(want)
        for a, b in zip(got, want):
            same(a, b, rel, abs_)
    elif isinstance(want, float):
        assert type(got) is float and got == pytest.approx(want, rel=rel, abs=abs_)
    else:
        assert type(got) is type(want) and got == want


def both(func, *args, **kwargs):
    return func(*args, **kwargs, **SR), func(*args, **kwargs, **NX)


def check(func, *args, rel=1e-7, abs_=1e-10, **kwargs):
    """The backend's answer is networkx's (or it raises networkx's exception type)."""
    try:
        want = func(*args, **kwargs, **NX)
    except Exception as exc:  # noqa: BLE001  (whatever networkx raises, the backend must too)
        with pytest.raises(type(exc)):
            func(*args, **kwargs, **SR)
        return None
    got = func(*args, **kwargs, **SR)
    same(got, want, rel, abs_)
    return got


def raises_both(exc, func, *args, match=None, **kwargs):
    for backend in (SR, NX):
        with pytest.raises(exc, match=match):
            r = func(*args, **kwargs, **backend)
            if hasattr(r, "__next__"):
                list(r)


#: the link predictors of networkx the backend implements
PREDICTORS = [nx.jaccard_coefficient, nx.adamic_adar_index, nx.resource_allocation_index,
              nx.preferential_attachment, nx.common_neighbor_centrality]


def _with_communities(G, seed, missing=0):
    H = G.copy()
    rng = random.Random(seed)
    nodes = list(H)
    for v in nodes:
        H.nodes[v]["community"] = rng.randint(0, 2)
    for v in rng.sample(nodes, missing):
        del H.nodes[v]["community"]
    return H
