"""The networkx adapters ``minimum_spanning_tree`` and ``betweenness_centrality`` against networkx.

The oracle is networkx itself: each call through networkx's dispatcher with ``backend="semiring"``
is compared with the same call run by networkx (``backend="networkx"``), on graphs whose nodes
are strings inserted in a shuffled order. minimum_spanning_tree: Kruskal's tree is networkx's
exactly (nodes, graph attributes, every edge's data and the edge order), ties included; Prim and
Borůvka with distinct weights; NaN weights raise or are ignored as networkx does; the declines.
betweenness_centrality: every normalized/endpoints combination, directed, multigraph, self-loops,
and ``k`` sampled from the same seed as networkx. networkx's own tests of both run in
tests/nx/test_networkx_backend.py (semiring.nx._suite).
"""

from __future__ import annotations

import random

import networkx as nx
import numpy as np
import pytest

from semiring.nx import nxapi
from semiring.nx.backend import BackendInterface
from _nxgraphs import NX, SR

nx.config.warnings_to_ignore.add("cache")


def shuffled(G, seed, *, weights=None, low=1, high=4, extra=False):
    """G with nodes "v<i>" inserted in a random order, edges in a random order and orientation, and
    optionally "weight" on every edge (ints in [low, high]: ties; or distinct floats) and an int
    "length" attribute."""
    rng = random.Random(seed)
    H = G.__class__()
    nodes = list(G)
    rng.shuffle(nodes)
    H.add_nodes_from(f"v{v}" for v in nodes)
    edges = list(G.edges())
    rng.shuffle(edges)
    for u, v in edges:
        if rng.random() < 0.5:
            u, v = v, u
        d = {}
        if weights == "int":
            d["weight"] = rng.randint(low, high)
        elif weights == "float":
            d["weight"] = rng.random()
        if extra:
            d["length"] = rng.randint(0, 100)
        H.add_edge(f"v{u}", f"v{v}", **d)
    return H


def same_graph(T, W):
    """T is networkx's W: nodes in order, graph attributes, edges with data in order."""
    assert type(T) is type(W) is nx.Graph
    assert list(T) == list(W) and T.graph == W.graph
    assert T._node == W._node and T._adj == W._adj
    assert typed(T) == typed(W)
    assert list(T.edges(data=True)) == list(W.edges(data=True))


def typed(T):
    """{(u, v): {attribute: (type, value)}} of T's edges (1 == 1.0, but an int must stay an int)."""
    return {frozenset((u, v)): {k: (type(x), x) for k, x in d.items()} for u, v, d in T.edges(data=True)}


MST_GRAPHS = {
    "gnp_int_ties": shuffled(nx.gnp_random_graph(60, 0.1, seed=1), 1, weights="int", extra=True),
    "gnp_unweighted": shuffled(nx.gnp_random_graph(50, 0.08, seed=2), 2),
    "forest_int": shuffled(nx.disjoint_union(nx.random_labeled_tree(20, seed=3), nx.cycle_graph(7)), 3,
                           weights="int", high=2),
    "grid_float": shuffled(nx.grid_2d_graph(6, 7), 4, weights="float", extra=True),
    "negative_and_zero": shuffled(nx.gnp_random_graph(30, 0.2, seed=5), 5, weights="int", low=-2, high=1),
}


# ---------------------------------------------------------------------------------------------
# minimum_spanning_tree
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(MST_GRAPHS))
def test_kruskal_tree_is_networkx_exactly(name):
    G = MST_GRAPHS[name]
    G.graph["name"] = name
    for weight in ("weight", "length", "missing"):
        same_graph(nx.minimum_spanning_tree(G, weight=weight, **SR), nx.minimum_spanning_tree(G, weight=weight, **NX))


def test_self_loops_isolated_nodes_and_empty_graphs():
    G = shuffled(nx.cycle_graph(9), 6, weights="int")
    G.add_edge("v2", "v2", weight=-50)
    G.add_node("alone")
    same_graph(nx.minimum_spanning_tree(G, **SR), nx.minimum_spanning_tree(G, **NX))
    for H in (nx.Graph(), nx.empty_graph(4)):
        same_graph(nx.minimum_spanning_tree(H, **SR), nx.minimum_spanning_tree(H, **NX))


@pytest.mark.parametrize("algorithm", ["prim", "boruvka", "borůvka"])
def test_prim_and_boruvka_with_distinct_weights(algorithm):
    G = MST_GRAPHS["grid_float"]
    T = nx.minimum_spanning_tree(G, algorithm=algorithm, **SR)
    W = nx.minimum_spanning_tree(G, algorithm=algorithm, **NX)
    # the unique tree (edges inserted in Kruskal's order, not Prim's or Borůvka's)
    assert list(T) == list(W) and T._adj == W._adj and typed(T) == typed(W)
    assert BackendInterface.can_run("minimum_spanning_tree", (MST_GRAPHS["gnp_int_ties"],),
                                    {"algorithm": algorithm}).startswith("equal weights")


def test_nan_weights_raise_or_are_ignored_as_networkx():
    G = shuffled(nx.gnp_random_graph(25, 0.2, seed=7), 7, weights="float")
    edges = list(G.edges())
    for u, v in (edges[3], edges[11]):
        G[u][v]["weight"] = float("nan")
    G.add_edge("v1", "v1", weight=float("nan"))  # a NaN self-loop counts too
    same_graph(nx.minimum_spanning_tree(G, ignore_nan=True, **SR), nx.minimum_spanning_tree(G, ignore_nan=True, **NX))
    with pytest.raises(ValueError) as ours:
        nx.minimum_spanning_tree(G, **SR)
    with pytest.raises(ValueError) as theirs:
        nx.minimum_spanning_tree(G, **NX)
    assert str(ours.value) == str(theirs.value)  # the first NaN edge in G.edges() order, with its data
    assert str(ours.value).startswith("NaN found as an edge weight. Edge (")
    for algorithm in ("prim", "boruvka"):
        with pytest.raises(ValueError, match="NaN found as an edge weight"):
            nx.minimum_spanning_tree(G, algorithm=algorithm, **SR)


def test_errors_as_networkx():
    with pytest.raises(nx.NetworkXNotImplemented, match="not implemented for directed type"):
        nx.minimum_spanning_tree(nx.DiGraph([(0, 1)]), **SR)
    with pytest.raises(ValueError, match="random is not a valid choice for an algorithm."):
        nx.minimum_spanning_tree(nx.path_graph(3), algorithm="random", **SR)


def test_declines():
    def reason(G, **kw):
        return BackendInterface.can_run("minimum_spanning_tree", (G,), kw)

    G = MST_GRAPHS["gnp_int_ties"]
    assert reason(G) is True and reason(G, weight="length") is True
    assert "multigraph" in reason(nx.MultiGraph([(0, 1), (0, 1)]))
    H = G.copy()
    H.add_node("v0", color="red")
    assert "node attributes" in reason(H)
    H = nx.Graph([(0, 1, {"weight": 1, "color": "red"})])
    assert "holds str values" in reason(H)
    H = nx.Graph([(0, 1, {"weight": 1}), (1, 2, {})])
    assert "different attribute names" in reason(H)
    H = nx.Graph([(0, 1, {"weight": 1}), (1, 2, {"weight": 2.5})])
    assert "mixes ints and floats" in reason(H)
    H = nx.Graph([(0, 1, {"weight": True})])
    assert "holds bool values" in reason(H)

    class MyGraph(nx.Graph):
        pass

    assert "MyGraph" in reason(MyGraph([(0, 1)]))
    assert "a str" in reason(nx.path_graph(3), weight=3)
    assert reason(MST_GRAPHS["grid_float"], algorithm="prim") is True
    # a backend graph given directly: the tie check runs on its weight matrix
    B = BackendInterface.convert_from_nx(G, preserve_edge_attrs=True)
    with pytest.raises(NotImplementedError, match="equal weights"):
        nxapi.minimum_spanning_tree(B, algorithm="prim")


def test_multigraph_edge_subgraph_view_converts():
    """networkx's multigraph edge_subgraph view counts a neighbour whose keys are all filtered out in
    len() but not in iteration (networkx's test_mst setup hit it)."""
    G = nx.MultiGraph()
    G.add_weighted_edges_from([(0, 1, 5), (0, 1, 10), (1, 2, 4), (1, 4, 6)])
    view = G.edge_subgraph([(0, 1, 0), (0, 1, 1), (1, 2, 0), (1, 4, 0)])
    B = BackendInterface.convert_from_nx(view)
    rows, cols, _ = B.A.to_coo()
    got = sorted((B.nodes[i], B.nodes[j]) for i, j in zip(rows.tolist(), cols.tolist()))
    assert got == sorted((u, v) for u in view for v in view[u])
    assert len(got) == 6  # 0-1 (twice in the view, once in the pattern), 1-2, 1-4, both ways


# ---------------------------------------------------------------------------------------------
# betweenness_centrality
# ---------------------------------------------------------------------------------------------

BC_GRAPHS = {
    "gnp": shuffled(nx.gnp_random_graph(45, 0.08, seed=1), 1),
    "gnp_directed": shuffled(nx.gnp_random_graph(45, 0.06, seed=2, directed=True), 2),
    "multigraph_loops": nx.MultiGraph([(0, 1), (0, 1), (1, 2), (2, 2), (2, 3), (3, 0), (4, 5)]),
    "les_miserables": nx.les_miserables_graph(),  # weighted edges: the weights are ignored (weight=None)
}
FLAGS = [(normalized, endpoints) for normalized in (True, False) for endpoints in (False, True)]


def close(a, b):
    assert list(a) == list(b)  # node order
    np.testing.assert_allclose(list(a.values()), list(b.values()), rtol=1e-9, atol=1e-12, equal_nan=True)
    assert all(type(x) is float for x in a.values())


@pytest.mark.parametrize("name", sorted(BC_GRAPHS))
def test_betweenness_matches_networkx(name):
    G = BC_GRAPHS[name]
    for normalized, endpoints in FLAGS:
        kw = {"normalized": normalized, "endpoints": endpoints}
        close(nx.betweenness_centrality(G, **kw, **SR), nx.betweenness_centrality(G, **kw, **NX))
        for k, seed in ((1, 3), (4, 0), (len(G) - 1, 11), (len(G), 5)):
            close(nx.betweenness_centrality(G, k=k, seed=seed, **kw, **SR),
                  nx.betweenness_centrality(G, k=k, seed=seed, **kw, **NX))
        # a Random instance as the seed: the same stream on both sides
        close(nx.betweenness_centrality(G, k=3, seed=random.Random(8), **kw, **SR),
              nx.betweenness_centrality(G, k=3, seed=random.Random(8), **kw, **NX))


def test_betweenness_errors_and_declines():
    G = nx.cycle_graph(4)
    with pytest.raises(ValueError, match="larger"):
        nx.betweenness_centrality(G, k=5, **SR)
    with pytest.raises(ValueError, match="negative"):
        nx.betweenness_centrality(G, k=-1, **SR)
    for normalized in (True, False):
        with pytest.raises(ZeroDivisionError):
            nx.betweenness_centrality(G, k=0, normalized=normalized, **SR)
    assert nx.betweenness_centrality(nx.path_graph(2), k=0, **SR) == {0: 0.0, 1: 0.0}
    assert nx.betweenness_centrality(nx.Graph(), **SR) == {}
    reason = BackendInterface.can_run("betweenness_centrality", (G,), {"weight": "weight"})
    assert "weighted betweenness" in reason
    assert BackendInterface.can_run("betweenness_centrality", (G,), {"k": 2, "seed": 1}) is True


@pytest.mark.data
def test_karate_club(shared_data):
    import semiring as sr

    S = sr.io.read(shared_data / "small/lagraph/karate.mtx").to_scipy().astype(np.int64)  # weights 1
    G = nx.relabel_nodes(nx.from_scipy_sparse_array(S), {i: f"m{i}" for i in range(34)})
    close(nx.betweenness_centrality(G, **SR), nx.betweenness_centrality(G, **NX))
    close(nx.betweenness_centrality(G, k=10, seed=1, **SR), nx.betweenness_centrality(G, k=10, seed=1, **NX))
    T = nx.minimum_spanning_tree(G, **SR)
    same_graph(T, nx.minimum_spanning_tree(G, **NX))
    assert T.number_of_edges() == 33


@pytest.mark.gpu
def test_gpu_device_matches_networkx():
    with nx.config.backends.semiring(device="gpu"):
        assert BackendInterface.convert_from_nx(MST_GRAPHS["gnp_int_ties"]).device == "gpu"
        for name in ("gnp_int_ties", "grid_float", "negative_and_zero"):
            G = MST_GRAPHS[name]
            same_graph(nx.minimum_spanning_tree(G, **SR), nx.minimum_spanning_tree(G, **NX))
        T = nx.minimum_spanning_tree(MST_GRAPHS["grid_float"], algorithm="prim", **SR)
        W = nx.minimum_spanning_tree(MST_GRAPHS["grid_float"], algorithm="prim", **NX)
        assert T._adj == W._adj and typed(T) == typed(W)
        for name in ("gnp", "gnp_directed"):
            G = BC_GRAPHS[name]
            close(nx.betweenness_centrality(G, **SR), nx.betweenness_centrality(G, **NX))
            close(nx.betweenness_centrality(G, k=7, seed=2, endpoints=True, **SR),
                  nx.betweenness_centrality(G, k=7, seed=2, endpoints=True, **NX))
