"""The networkx adapter ``kernighan_lin_bisection`` against networkx itself.

Oracles: networkx's own ``kernighan_lin_bisection`` (backend="networkx"): the same answer where
the algorithm leaves no choice (max_iter=0, an optimal start, the barbell), cuts of the same
quality from the same starts elsewhere (within 15 percent on average: ties between equal gains
are broken in another order), and the same errors; cuts counted here from the edge data.
networkx's own tests of the function run in tests/nx/test_networkx_backend.py (semiring.nx._suite).
"""

from __future__ import annotations

import random

import networkx as nx
import pytest

from semiring.nx.backend import BackendInterface
from _nxgraphs import NX, SR, relabelled

nx.config.warnings_to_ignore.add("cache")

kl = nx.community.kernighan_lin_bisection


def cut(G, parts, weight="weight"):
    a, b = parts
    return sum(d.get(weight, 1) if weight else 1 for u, v, d in G.edges(data=True)
               if u != v and ((u in a) != (v in a)))


def check_bisection(G, parts, sizes=None):
    a, b = parts
    assert isinstance(a, set) and isinstance(b, set) and not (a & b) and a | b == set(G)
    if sizes is not None:
        assert sorted((len(a), len(b))) == sorted(sizes)


def graphs():
    g = nx.grid_2d_graph(12, 12)
    w = nx.random_geometric_graph(300, 0.1, seed=2)
    rng = random.Random(3)
    for u, v in w.edges():
        w[u][v]["weight"] = rng.randint(1, 9)
    w.add_edge(0, 0, weight=5)  # a self-loop: never cut
    return {"karate": nx.karate_club_graph(), "grid": relabelled(g, 1), "rgg_weighted": w,
            "lollipop": nx.lollipop_graph(8, 20)}


GRAPHS = graphs()


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_same_quality_as_networkx_from_the_same_starts(name):
    G = GRAPHS[name]
    rng = random.Random(5)
    ours, theirs = [], []
    for _ in range(4):
        nodes = list(G)
        rng.shuffle(nodes)
        start = (set(nodes[: len(nodes) // 2]), set(nodes[len(nodes) // 2:]))
        a = kl(G, partition=start, **SR)
        b = kl(G, partition=start, **NX)
        check_bisection(G, a, (len(start[0]), len(start[1])))
        assert cut(G, a) <= cut(G, start)
        ours.append(cut(G, a))
        theirs.append(cut(G, b))
    assert sum(ours) <= 1.15 * sum(theirs), (ours, theirs)


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_random_start_is_balanced_and_seeded(name):
    G = GRAPHS[name]
    n = len(G)
    a = kl(G, seed=11, **SR)
    check_bisection(G, a, (n // 2, n - n // 2))
    assert a == kl(G, seed=11, **SR) == kl(G, seed=random.Random(11), **SR)
    assert cut(G, a, None) >= 0 and cut(G, kl(G, weight=None, seed=3, **SR)) >= 0


def test_exact_answers_where_there_is_no_choice():
    B = nx.barbell_graph(6, 0)
    halves = [{0, 1, 2, 3, 4, 5}, {6, 7, 8, 9, 10, 11}]
    for seed in range(4):
        got = kl(B, seed=seed, **SR)
        assert {frozenset(s) for s in got} == {frozenset(s) for s in halves}
    start = ({0, 2, 4, 6, 8, 10}, {1, 3, 5, 7, 9, 11})
    # no pass at all: both return the start, sides in networkx's order
    assert kl(B, partition=start, max_iter=0, **SR) == kl(B, partition=start, max_iter=0, **NX)
    assert kl(B, partition=start, max_iter=-3, **SR) == kl(B, partition=start, max_iter=-3, **NX)
    # an optimal start stays
    assert kl(B, partition=halves, **SR) == kl(B, partition=halves, **NX)
    E = nx.empty_graph(0)
    assert kl(E, **SR) == (set(), set())


def test_weights_are_honoured():
    """A 20-cycle whose edges weigh 50 except two opposite ones (weight 1): the weighted
    bisection cuts exactly those two; weight=None sees a plain cycle (cut 2 as well, anywhere)."""
    C = nx.cycle_graph(20)
    nx.set_edge_attributes(C, 50, "w")
    C[4][5]["w"] = C[14][15]["w"] = 1
    got = kl(C, partition=(set(range(0, 20, 2)), set(range(1, 20, 2))), weight="w", **SR)
    check_bisection(C, got, (10, 10))
    assert cut(C, got, "w") == 2
    assert {frozenset(s) for s in got} == {frozenset(range(5, 15)), frozenset(list(range(5)) + list(range(15, 20)))}


def test_errors_as_networkx():
    B = nx.barbell_graph(3, 0)
    for bad in (({0, 1, 2}, {2, 3, 4, 5}), ({0, 1}, {2}, {3, 4, 5}), ({0, 1, 2}, {3, 4}), 7, ({0, 1, 2, 99}, {3, 4, 5})):
        for backend in (SR, NX):
            with pytest.raises(nx.NetworkXError):
                kl(B, partition=bad, **backend)
    with pytest.raises(nx.NetworkXNotImplemented):
        kl(nx.DiGraph([(0, 1)]), **SR)


def test_declines():
    B = nx.barbell_graph(3, 0)
    M = nx.MultiGraph(B)
    assert isinstance(BackendInterface.can_run("kernighan_lin_bisection", (M,), {}), str)
    assert isinstance(BackendInterface.can_run("kernighan_lin_bisection", (B,), {"weight": lambda u, v, d: 1}), str)
    assert isinstance(BackendInterface.can_run("kernighan_lin_bisection", (B,), {"max_iter": 2.5}), str)
    assert BackendInterface.can_run("kernighan_lin_bisection", (B,), {"max_iter": 3}) is True
    N = B.copy()
    nx.set_edge_attributes(N, -1.0, "weight")
    G = BackendInterface.convert_from_nx(N, edge_attrs={"weight": 1})
    with pytest.raises(NotImplementedError):
        BackendInterface.kernighan_lin_bisection(G)


@pytest.mark.gpu
def test_adapter_on_gpu():
    G = GRAPHS["rgg_weighted"]
    cpu = kl(G, seed=4, **SR)
    with nx.config.backends.semiring(device="gpu"):
        assert BackendInterface.convert_from_nx(G, edge_attrs={"weight": 1}).device == "gpu"
        assert kl(G, seed=4, **SR) == cpu
