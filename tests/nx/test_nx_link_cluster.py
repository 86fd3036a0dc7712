"""The networkx adapters ``pagerank`` and ``triangles`` against networkx itself (backend="networkx").

pagerank: the same node order and ranks (networkx's stopping rule, so the same iteration count),
networkx's exceptions, and the declines. triangles: every form of ``nodes`` and networkx's errors.
networkx's own tests of both run in tests/nx/test_networkx_backend.py (semiring.nx._suite).
"""

from __future__ import annotations

import random

import networkx as nx
import pytest

import semiring as sr
from semiring.nx.backend import BackendInterface
from _nxgraphs import NX, SR

nx.config.warnings_to_ignore.add("cache")


def shuffled(G, seed, weights=False):
    """G with nodes renamed "v<i>" and inserted in a random order; with ``weights``, a random float
    "weight" on 80% of the edges (the others weigh 1 for networkx and for the backend)."""
    rng = random.Random(seed)
    H = G.__class__()
    nodes = list(G)
    rng.shuffle(nodes)
    H.add_nodes_from(f"v{v}" for v in nodes)
    edges = list(G.edges())
    rng.shuffle(edges)
    for u, v in edges:
        attrs = {"weight": rng.uniform(0, 5)} if weights and rng.random() < 0.8 else {}
        H.add_edge(f"v{u}", f"v{v}", **attrs)
    return H


def gnp(n, p, seed, directed=False, weights=False):
    return shuffled(nx.gnp_random_graph(n, p, seed=seed, directed=directed), seed, weights)


def with_self_loops(G):
    H = G.copy()
    H.add_edges_from((v, v) for v in list(H)[::7])
    return H


PR_GRAPHS = {
    "directed": gnp(60, 0.05, 1, directed=True),
    "undirected": gnp(50, 0.08, 2),
    "weighted_directed": gnp(60, 0.06, 3, directed=True, weights=True),
    "weighted_undirected_loops": with_self_loops(gnp(40, 0.1, 4, weights=True)),
    "karate_club": nx.karate_club_graph(),  # int "weight" attributes
}


def close(got, want, tol=1e-12):
    assert list(got) == list(want)  # node order
    assert all(abs(got[k] - want[k]) <= tol for k in want), max(abs(got[k] - want[k]) for k in want)


# ---------------------------------------------------------------------------------------------
# pagerank
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(PR_GRAPHS))
@pytest.mark.parametrize("weight", ["weight", None])
def test_pagerank_matches_networkx(name, weight):
    G = PR_GRAPHS[name]
    for kw in ({}, {"alpha": 0.6, "tol": 1e-10}):
        got = nx.pagerank(G, weight=weight, **kw, **SR)
        assert all(isinstance(v, float) for v in got.values())
        close(got, nx.pagerank(G, weight=weight, **kw, **NX))


def test_pagerank_vectors_as_dicts():
    G = PR_GRAPHS["directed"]
    nodes = list(G)
    rng = random.Random(5)
    pers = {v: rng.random() for v in nodes[::3]} | {"not-a-node": 5.0}
    dang = {v: rng.randint(0, 3) for v in nodes[1::4]} | {nodes[0]: 1}
    start = {v: rng.random() for v in nodes}
    for kw in ({"personalization": pers}, {"dangling": dang}, {"nstart": start},
               {"personalization": pers, "dangling": dang, "nstart": start}):
        close(nx.pagerank(G, tol=1e-10, **kw, **SR), nx.pagerank(G, tol=1e-10, **kw, **NX))


def test_pagerank_errors_as_networkx():
    G = PR_GRAPHS["directed"]
    for backend in (SR, NX):
        with pytest.raises(nx.PowerIterationFailedConvergence):
            nx.pagerank(G, max_iter=0, **backend)
        with pytest.raises(nx.PowerIterationFailedConvergence):
            nx.pagerank(G, max_iter=3, tol=1e-12, **backend)
        with pytest.raises(ZeroDivisionError):
            nx.pagerank(G, personalization={v: 0 for v in G}, **backend)
        assert nx.pagerank(nx.DiGraph(), **backend) == {}
    # the same iteration count: one more than the failing limit converges for both
    k = next(k for k in range(1, 100) if _converges(G, k))
    close(nx.pagerank(G, max_iter=k, **SR), nx.pagerank(G, max_iter=k, **NX))
    with pytest.raises(nx.PowerIterationFailedConvergence):
        nx.pagerank(G, max_iter=k - 1, **SR)


def _converges(G, k):
    try:
        nx.pagerank(G, max_iter=k, **NX)
        return True
    except nx.PowerIterationFailedConvergence:
        return False


@pytest.mark.parametrize("args, kwargs, words", [
    ((nx.MultiDiGraph([(0, 1), (0, 1), (1, 0)]),), {}, "parallel edges"),
    ((nx.path_graph(3),), {"weight": lambda u, v, d: 1}, "callable weight"),
    ((nx.path_graph(3),), {"alpha": 1.5}, "alpha"),
    ((nx.path_graph(3),), {"alpha": None}, "alpha"),
    ((nx.path_graph(3),), {"max_iter": -1}, "max_iter"),
    ((nx.path_graph(3),), {"max_iter": 2.0}, "max_iter"),
    ((nx.path_graph(3),), {"tol": -1.0}, "tol"),
    ((nx.path_graph(3),), {"nstart": {0: 0, 1: 0}}, "nstart sums to 0"),
    ((nx.path_graph(3),), {"dangling": {9: 1}}, "dangling sums to 0"),  # its only key is not a node
    ((nx.path_graph(3),), {"personalization": {0: -1, 1: 2}}, "personalization values"),
    ((nx.path_graph(3),), {"personalization": {0: "a"}}, "personalization values"),
    ((nx.path_graph(3),), {"nstart": [1, 2, 3]}, "must be a dict"),
])
def test_pagerank_can_run_declines(args, kwargs, words):
    reason = BackendInterface.can_run("pagerank", args, kwargs)
    assert isinstance(reason, str) and words in reason


def test_pagerank_can_run_accepts():
    G = nx.path_graph(4)
    for kwargs in ({}, {"weight": None}, {"personalization": {0: 1}, "dangling": {1: 2}, "nstart": {2: 1.5}},
                   {"personalization": {0: 0}},  # zero sum: networkx's ZeroDivisionError, raised here too
                   {"alpha": 1, "max_iter": 0, "tol": 0}):
        assert BackendInterface.can_run("pagerank", (G,), kwargs) is True, kwargs


def test_pagerank_declines_negative_weights_and_falls_back():
    G = nx.DiGraph([(0, 1, {"weight": -1.0}), (1, 2, {"weight": 2.0}), (2, 0, {"weight": 1.0})])
    with pytest.raises(NotImplementedError):
        nx.pagerank(G, **SR)
    prio = nx.utils.backends.BackendPriorities(algos=["semiring"], generators=[], classes=[])
    with nx.config(backend_priority=prio, fallback_to_nx=True):
        assert nx.pagerank(G, max_iter=1000) == nx.pagerank(G, max_iter=1000, **NX)
    assert nx.pagerank(G, weight=None, **SR) == pytest.approx(nx.pagerank(G, weight=None, **NX), abs=1e-12)


@pytest.mark.data
def test_karate_mtx_pagerank(shared_data):
    G = nx.from_scipy_sparse_array(sr.io.read(shared_data / "small/lagraph/karate.mtx").to_scipy())
    close(nx.pagerank(G, weight=None, **SR), nx.pagerank(G, weight=None, **NX))


# ---------------------------------------------------------------------------------------------
# triangles
# ---------------------------------------------------------------------------------------------
TRI_GRAPHS = {
    "gnp": gnp(60, 0.12, 6),
    "sparse": gnp(80, 0.03, 7),
    "loops": with_self_loops(gnp(30, 0.2, 8)),
    "multigraph": nx.MultiGraph([(0, 1), (0, 1), (1, 2), (2, 0), (2, 0), (2, 2), (3, 4)]),
    "karate_club": nx.karate_club_graph(),
    "empty": nx.Graph(),
}


@pytest.mark.parametrize("name", sorted(TRI_GRAPHS))
def test_triangles_matches_networkx(name):
    G = TRI_GRAPHS[name]
    got = nx.triangles(G, **SR)
    want = nx.triangles(G, **NX)
    assert got == want and list(got) == list(want)
    assert all(type(v) is int for v in got.values())
    if len(G) and not G.is_multigraph():
        assert sum(want.values()) > 0
        v = list(G)[len(G) // 2]
        assert nx.triangles(G, v, **SR) == nx.triangles(G, v, **NX)
        some = list(G)[::3] + ["missing", list(G)[0]]
        assert list(nx.triangles(G, some, **SR).items()) == list(nx.triangles(G, some, **NX).items())
        assert nx.triangles(G, iter(list(G)[:4]), **SR) == nx.triangles(G, list(G)[:4], **NX)


def test_triangles_errors_as_networkx():
    G = nx.complete_graph(4)
    for backend in (SR, NX):
        with pytest.raises(nx.NetworkXError, match="99 is not in the graph"):
            nx.triangles(G, 99, **backend)
        with pytest.raises(nx.NetworkXNotImplemented, match="multigraph"):
            nx.triangles(nx.MultiGraph(G), [0], **backend)
        with pytest.raises(nx.NetworkXError, match="not a valid node"):
            nx.triangles(G, [0, [1]], **backend)
        with pytest.raises(nx.NetworkXNotImplemented):
            nx.triangles(nx.DiGraph(G), **backend)
        assert nx.triangles(G, [], **backend) == {}
    assert nx.triangles(G, 0, **SR) == 3
    assert BackendInterface.can_run("triangles", (G,), {}) is True


@pytest.mark.data
def test_triangles_of_bcsstk13(shared_data):
    G = nx.from_scipy_sparse_array(sr.io.read(shared_data / "small/lagraph/bcsstk13.mtx").to_scipy())
    t = nx.triangles(G, **SR)
    assert sum(t.values()) == 3 * 342300  # LAGraph's published count
    assert t == nx.triangles(G, **NX)


# ---------------------------------------------------------------------------------------------
# on the GPU
# ---------------------------------------------------------------------------------------------
@pytest.mark.gpu
def test_pagerank_and_triangles_on_gpu_match_networkx():
    with nx.config.backends.semiring(device="gpu"):
        for name, G in PR_GRAPHS.items():
            close(nx.pagerank(G, **SR), nx.pagerank(G, **NX), tol=1e-10)
        for name, G in TRI_GRAPHS.items():
            assert nx.triangles(G, **SR) == nx.triangles(G, **NX), name
