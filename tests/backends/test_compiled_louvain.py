"""The compiled sequential Louvain (``semiring.backends.cpu.compiled_louvain``).

Oracles: networkx's ``louvain_communities`` itself, given the very same random order of the
vertices at each level (networkx shuffles ``list(graph.nodes)`` with its ``seed`` object, level
after level; the compiled method draws its orders from ``rng.permutation``, so a stand-in whose
``permutation`` is that shuffle reproduces networkx's sweeps), on graphs whose real weights make
ties between gains unlikely; networkx's ``modularity`` for the modularity of a level; and the
coarsened graph, whose modularity of the singleton partition must equal the partition's."""

from __future__ import annotations

import random

import networkx as nx
import numpy as np
import pytest

from semiring.backends.cpu import _jit
from semiring.backends.cpu import compiled_louvain as cl

pytestmark = pytest.mark.skipif(not _jit.available(), reason="numba is not installed (the suitesparse extra)")


class NetworkxOrder:
    """``permutation(size)``: networkx's ``seed.shuffle(list(range(size)))``, one stream throughout."""

    def __init__(self, seed):
        self.random = random.Random(seed)

    def permutation(self, size):
        nodes = list(range(size))
        self.random.shuffle(nodes)
        return np.array(nodes, dtype=np.int64)


def weighted(G, seed, loops=0):
    r = random.Random(seed)
    H = nx.Graph()
    H.add_nodes_from(range(len(G)))
    H.add_weighted_edges_from((u, v, r.uniform(0.5, 2.0)) for u, v in G.edges())
    H.add_weighted_edges_from((u, u, r.uniform(0.5, 2.0)) for u in r.sample(range(len(G)), loops))
    return H


def coo(G):
    A = nx.to_scipy_sparse_array(G, nodelist=range(len(G)), format="coo")
    return A.row.astype(np.int64), A.col.astype(np.int64), A.data.astype(np.float64)


GRAPHS = {"karate": weighted(nx.karate_club_graph(), 1),
          "planted": weighted(nx.planted_partition_graph(6, 20, 0.5, 0.02, seed=2), 2, loops=5),
          "gnm": weighted(nx.gnm_random_graph(300, 1200, seed=3), 3),
          "caveman": weighted(nx.connected_caveman_graph(8, 6), 4)}


def parts(labels):
    return sorted(sorted(np.flatnonzero(labels == c).tolist()) for c in np.unique(labels))


@pytest.mark.parametrize("name", GRAPHS)
@pytest.mark.parametrize("seed", [0, 7])
@pytest.mark.parametrize("max_level", [None, 1])
def test_louvain_is_networkx_louvain_with_its_order(name, seed, max_level):
    G = GRAPHS[name]
    rows, cols, vals = coo(G)
    got = cl.louvain(rows, cols, vals, len(G), max_level=max_level, rng=NetworkxOrder(seed))
    want = nx.community.louvain_communities(G, seed=seed, max_level=max_level, backend="networkx")
    assert parts(got) == sorted(sorted(p) for p in want)


@pytest.mark.parametrize("name", GRAPHS)
@pytest.mark.parametrize("gamma", [0.5, 1.0, 2.0])
def test_modularity_and_coarsening(name, gamma):
    G = GRAPHS[name]
    rows, cols, vals = coo(G)
    n = len(G)
    k = np.bincount(rows, weights=np.where(rows == cols, 2.0, 1.0) * vals, minlength=n)
    m = k.sum() / 2
    labels = np.random.default_rng(5).integers(0, 7, n)
    labels = np.unique(labels, return_inverse=True)[1].astype(np.int64)
    K = int(labels.max()) + 1
    q = cl._modularity(rows, cols, vals, k, labels, K, m, gamma)
    want = nx.community.modularity(G, [set(np.flatnonzero(labels == c).tolist()) for c in range(K)],
                                   resolution=gamma, backend="networkx")
    assert q == pytest.approx(want, abs=1e-12)
    cr, cc, cv = cl._coarsen(rows, cols, vals, labels, K)
    kc = np.bincount(labels, weights=k, minlength=K)
    assert cl._modularity(cr, cc, cv, kc, np.arange(K), K, m, gamma) == pytest.approx(q, abs=1e-12)
    assert np.bincount(cr, weights=np.where(cr == cc, 2.0, 1.0) * cv, minlength=K) == pytest.approx(kc)
