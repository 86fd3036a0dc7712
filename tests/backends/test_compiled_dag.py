"""The compiled topological generations (``semiring.backends.cpu.compiled_dag``) against
networkx's ``topological_generations`` (the same generations in the same order) and against the
backend's algebra formulation (one ``plus.pair`` product per generation), on random DAGs, DAGs
with a cycle below them, self-loops and long chains."""

from __future__ import annotations

import random
from unittest import mock

import networkx as nx
import numpy as np
import pytest

from semiring.backends.cpu import _jit
from semiring.backends.cpu import compiled_dag
from semiring.nx import from_networkx
from semiring.nx.nxapi import dag as nxdag

pytestmark = pytest.mark.skipif(not _jit.available(), reason="numba is not installed (the suitesparse extra)")


def random_dag(n, p, seed, *, cycle=False, loop=False):
    rng = random.Random(seed)
    nodes = list(range(n))
    rng.shuffle(nodes)  # node order differs from the topological order
    G = nx.DiGraph()
    G.add_nodes_from(nodes)
    G.add_edges_from((u, v) for u in range(n) for v in range(u + 1, n) if rng.random() < p)
    if cycle:
        G.add_edges_from([(n // 2, n // 2 + 1), (n // 2 + 1, n // 2)])
    if loop:
        G.add_edge(n - 1, n - 1)
    return G


GRAPHS = ([random_dag(60, p, s) for s, p in ((1, 0.02), (2, 0.1), (3, 0.3))]
          + [random_dag(40, 0.1, 4, cycle=True), random_dag(40, 0.1, 5, loop=True),
             nx.path_graph(500, create_using=nx.DiGraph), nx.DiGraph(), nx.empty_graph(5, create_using=nx.DiGraph)])


def _generations(G, *, compiled):
    E = from_networkx(G)
    with mock.patch.object(_jit, "enabled", lambda: compiled):
        gens, cyclic = nxdag.generations(E)
    return [[E.nodes[i] for i in g.tolist()] for g in gens], cyclic


@pytest.mark.parametrize("G", GRAPHS, ids=[f"g{i}" for i in range(len(GRAPHS))])
def test_compiled_generations_are_networkx_generations(G):
    got, cyclic = _generations(G, compiled=True)
    assert (got, cyclic) == _generations(G, compiled=False)
    want = []
    try:
        for gen in nx.topological_generations(G):
            want.append(gen)
    except nx.NetworkXUnfeasible:
        assert cyclic
    else:
        assert not cyclic
    assert got == want


def test_generations_leave_the_in_degrees_unchanged():
    indptr, indices = np.array([0, 1, 2, 2]), np.array([1, 2])
    indeg = np.array([0, 1, 1])
    gens, cyclic = compiled_dag.generations(indptr, indices, indeg)
    assert [g.tolist() for g in gens] == [[0], [1], [2]] and not cyclic
    assert indeg.tolist() == [0, 1, 1]


WEIGHTED = [random_dag(50, 0.1, s) for s in (6, 7, 8)]
for _i, _G in enumerate(WEIGHTED):
    _r = random.Random(_i)
    for _u, _v in _G.edges():
        _G[_u][_v]["weight"] = _r.choice([-3, 1, 2, 5]) if _i != 2 else _r.uniform(-2.0, 4.0)


@pytest.mark.parametrize("G", WEIGHTED, ids=["int", "int-2", "float"])
def test_compiled_longest_path_is_networkx_longest_path(G):
    E = from_networkx(G, weights=("weight",))
    results = []
    for compiled in (True, False):
        with mock.patch.object(_jit, "enabled", lambda c=compiled: c):
            results.append(nxdag._longest(E, "weight", 1, None))
    assert results[0] == results[1]
    assert [E.nodes[i] for i in results[0][0]] == nx.dag_longest_path(G, backend="networkx")
