"""The networkx adapter ``strongly_connected_components`` against networkx itself (backend="networkx").

The same components (as sets) on random digraphs with shuffled string labels, self-loops,
parallel edges and isolated nodes; the order is a reverse topological order of the condensation,
and exactly "by height, then first node" (heights computed here with networkx's condensation);
networkx's exceptions (undirected input) and the null graph. networkx's own tests of the function
run in tests/nx/test_networkx_backend.py (semiring.nx._suite).
"""

from __future__ import annotations

import networkx as nx
import pytest

from semiring.nx.backend import BackendInterface

from _nxgraphs import NX, SR, relabelled

nx.config.warnings_to_ignore.add("cache")


def sets(components):
    return {frozenset(c) for c in components}


def heights(G, components):
    """Height of each component in the condensation: 0 for a sink, else 1 + the largest height
    of a successor (networkx's condensation and topological order)."""
    C = nx.condensation(G, scc=components)
    h = {}
    for c in reversed(list(nx.topological_sort(C))):
        h[c] = 1 + max((h[d] for d in C.successors(c)), default=-1)
    return [h[i] for i in range(len(components))]


def check_order(G, got):
    """Reverse topological, and sorted by (height, position of the first node in G)."""
    where = {v: i for i, c in enumerate(got) for v in c}
    assert all(where[u] >= where[v] for u, v in G.edges())
    pos = {v: i for i, v in enumerate(G)}
    key = [(h, min(pos[v] for v in c)) for h, c in zip(heights(G, got), got)]
    assert key == sorted(key)


GRAPHS = {
    "sparse": relabelled(nx.gnp_random_graph(120, 0.012, seed=1, directed=True), 1),
    "giant": relabelled(nx.gnp_random_graph(150, 0.03, seed=2, directed=True), 2),
    "dense": relabelled(nx.gnp_random_graph(60, 0.2, seed=3, directed=True), 3),
    "scale_free": relabelled(nx.DiGraph(nx.scale_free_graph(300, seed=4)), 4),
    "dag": relabelled(nx.gn_graph(200, seed=5), 5),
    "cycles": relabelled(nx.disjoint_union_all([nx.cycle_graph(k, create_using=nx.DiGraph) for k in (1, 2, 3, 7)]), 6),
}


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_same_components_as_networkx_in_reverse_topological_order(name):
    G = GRAPHS[name]
    got = list(nx.strongly_connected_components(G, **SR))
    want = list(nx.strongly_connected_components(G, **NX))
    assert sets(got) == sets(want)
    assert all(isinstance(c, set) for c in got)
    check_order(G, got)


def test_self_loops_isolated_nodes_and_a_multigraph():
    G = nx.MultiDiGraph()
    G.add_nodes_from(["iso", "a", "b", "c", "d"])
    G.add_edges_from([("a", "b"), ("a", "b"), ("b", "a"), ("b", "c"), ("c", "c"), ("c", "d"), ("d", "c"),
                      ("d", "d")])
    got = list(nx.strongly_connected_components(G, **SR))
    assert sets(got) == sets(nx.strongly_connected_components(G, **NX)) == {
        frozenset({"iso"}), frozenset({"a", "b"}), frozenset({"c", "d"})}
    # {c, d} is the only sink besides iso: height 0, then iso (first node); {a, b} reaches it: height 1
    assert got == [{"iso"}, {"c", "d"}, {"a", "b"}]


def test_a_chain_comes_out_as_networkx_yields_it():
    # distinct heights leave one reverse topological order: networkx's
    G = nx.DiGraph()
    for i in range(300):
        G.add_edge(f"a{i}", f"b{i}")
        G.add_edge(f"b{i}", f"a{i}")
        G.add_edge(f"b{i}", f"a{i + 1}")
    got = list(nx.strongly_connected_components(G, **SR))
    assert got == list(nx.strongly_connected_components(G, **NX))
    assert got[0] == {"a300"} and got[-1] == {"a0", "b0"}


def test_null_graph_undirected_graph_and_independent_sets():
    assert list(nx.strongly_connected_components(nx.DiGraph(), **SR)) == []
    with pytest.raises(nx.NetworkXNotImplemented):
        next(nx.strongly_connected_components(nx.path_graph(3), **SR))
    G = nx.disjoint_union(nx.path_graph(5, create_using=nx.DiGraph), nx.path_graph(5, create_using=nx.DiGraph))
    seen = set()
    for component in nx.strongly_connected_components(G, **SR):
        assert not seen & component
        seen.update(component)
        component.clear()
    assert seen == set(G)


def test_condensation_from_the_backend_components():
    G = GRAPHS["scale_free"]
    scc = list(nx.strongly_connected_components(G, **SR))
    C = nx.condensation(G, scc, **NX)
    assert nx.is_directed_acyclic_graph(C)
    assert [C.nodes[i]["members"] for i in range(len(scc))] == scc
    # networkx's own: the same number of components, and as many condensation edges
    D = nx.condensation(G, **NX)
    assert (len(C), C.number_of_edges()) == (len(D), D.number_of_edges())


def test_adapter_on_the_backend_graph_directly():
    G = GRAPHS["giant"]
    H = BackendInterface.convert_from_nx(G)
    got = list(BackendInterface.strongly_connected_components(H))
    assert sets(got) == sets(nx.strongly_connected_components(G, **NX))
    assert nx.number_strongly_connected_components(G, **SR) == len(got)


@pytest.mark.gpu
def test_adapter_on_gpu():
    G = GRAPHS["scale_free"]
    with nx.config.backends.semiring(device="gpu"):
        H = BackendInterface.convert_from_nx(G)
        assert H.structure.A.device == "gpu"
        got = list(BackendInterface.strongly_connected_components(H))
    assert sets(got) == sets(nx.strongly_connected_components(G, **NX))
    check_order(G, got)
