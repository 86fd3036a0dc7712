"""The ``semiring`` networkx backend's structure adapters: cores, DAGs, bipartiteness,
biconnectivity and bridges, isolates.

The oracle is networkx: every adapter runs through networkx's dispatcher with
``backend="semiring"`` and is compared with ``backend="networkx"`` on graphs whose node labels
are strings inserted in a shuffled order, in networkx's exact output order (dict insertion
order, generator order, a returned graph's node and adjacency order) unless the adapter's
docstring says otherwise (tests/_nx_structure.py: the graphs and the comparison)."""

from __future__ import annotations

import random

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from _nxgraphs import NX, SR, dag, gnp, ids, shuffled
from _nx_structure import (DIRECTED, UNDIRECTED, _function, assert_same, assert_same_graph, both, reason,
                           with_loops)

SETTINGS = settings(max_examples=40, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


DAGS = [dag(35, p, s, weights=w, low=-4, high=9) for s, p, w in ((1, 0.05, None), (2, 0.1, "int"),
                                                                  (3, 0.2, "float"), (4, 0.08, "int"))]


# ---------------------------------------------------------------------------------------------
# cores
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("G", UNDIRECTED + DIRECTED, ids=ids(UNDIRECTED, "u") + ids(DIRECTED, "d"))
def test_core_number_and_onion_layers(G):
    assert_same("core_number", G)
    if not G.is_directed():
        assert_same("onion_layers", G)


@pytest.mark.parametrize("G", UNDIRECTED[:4] + DIRECTED[1:], ids=ids(UNDIRECTED[:4], "u") + ids(DIRECTED[1:], "d"))
def test_core_subgraphs_carry_attributes_in_networkx_order(G):
    G = shuffled(G, 11, attrs=("cap",), floats=("len",))
    G.graph["name"] = "g"
    for k in (None, 0, 1, 2, 3, 4, 2.5):
        for name in ("k_core", "k_shell", "k_crust"):
            assert_same(name, G, k)
        if k is not None:
            assert_same("k_corona", G, k)
    given = dict(reversed(list(nx.core_number(G).items())))  # another dict order: another set order
    for name in ("k_core", "k_shell", "k_crust"):
        assert_same(name, G, None, given)
    assert_same("k_corona", G, 2, given)


@pytest.mark.parametrize("G", UNDIRECTED, ids=ids(UNDIRECTED, "u"))
def test_k_truss(G):
    G = shuffled(G, 12, attrs=("cap",))
    for k in (-1, 0, 2, 3, 4, 5, 3.5):
        assert_same("k_truss", G, k)


def test_core_errors_match_networkx():
    loop = nx.Graph([(0, 1), (1, 1)])
    for name in ("core_number", "k_core", "k_truss", "onion_layers"):
        args = (loop, 2) if name == "k_truss" else (loop,)
        for backend in (SR, NX):
            with pytest.raises(nx.NetworkXNotImplemented, match="self loops"):
                _function(name)(*args, **backend)
    for name in ("k_core", "k_shell", "k_crust"):
        assert both(name, nx.Graph()) == (ValueError, ValueError)
    assert both("core_number", nx.Graph()) == ({}, {})
    assert both("onion_layers", nx.empty_graph(3)) == ({0: 1, 1: 1, 2: 1},) * 2


@SETTINGS
@given(st.lists(st.tuples(st.integers(0, 14), st.integers(0, 14)), max_size=60), st.booleans())
def test_peeling_is_batagelj_zaversnik(edges, directed):
    G = (nx.DiGraph if directed else nx.Graph)()
    G.add_nodes_from(range(15))
    G.add_edges_from((u, v) for u, v in edges if u != v)
    assert_same("core_number", G)
    if not directed:
        assert_same("onion_layers", G)
        assert_same("k_truss", G, 3)
        assert_same("k_corona", G, 1)


# ---------------------------------------------------------------------------------------------
# DAGs
# ---------------------------------------------------------------------------------------------
def with_cycle(G):
    """G with one edge turned into a 2-cycle."""
    G = G.copy()
    u, v = next(iter(G.edges()))
    G.add_edge(v, u)
    return G


@pytest.mark.parametrize("G", DAGS + [with_cycle(DAGS[1]), nx.MultiDiGraph(DAGS[2])],
                         ids=ids(DAGS, "dag") + ["cycle", "multi"])
def test_topological_orders(G):
    assert_same("topological_generations", G)
    assert_same("topological_sort", G)
    assert_same("lexicographical_topological_sort", G)
    assert_same("lexicographical_topological_sort", G, key=lambda v: -int(v[1:]))
    assert_same("is_directed_acyclic_graph", G)
    assert_same("has_cycle", G)


def test_topological_orders_raise_as_networkx():
    U = nx.path_graph(3)
    for name in ("topological_generations", "topological_sort", "lexicographical_topological_sort", "has_cycle"):
        assert both(name, U) == (nx.NetworkXError, nx.NetworkXError)
    assert both("is_directed_acyclic_graph", U) == (False, False)
    loop = nx.DiGraph([(0, 1), (1, 1), (1, 2)])
    got, want = both("topological_generations", loop)
    assert got == want == ([[0]], nx.NetworkXUnfeasible)
    class Opaque:
        pass
    G = nx.DiGraph([(Opaque(), Opaque()), (Opaque(), Opaque())])
    assert both("lexicographical_topological_sort", G) == (TypeError, TypeError)


@pytest.mark.parametrize("G", DAGS, ids=ids(DAGS, "dag"))
def test_dag_longest_path(G):
    for dw in (1, 3, -2, 0.5):
        assert_same("dag_longest_path", G, default_weight=dw)
        got, want = both("dag_longest_path_length", G, default_weight=dw)
        assert got == pytest.approx(want)
        if not isinstance(dw, float):  # int weights with a float default come back as floats
            assert type(got) is type(want)
    assert_same("dag_longest_path", G, weight=None, default_weight=2)
    order = list(nx.lexicographical_topological_sort(G, key=lambda v: random.Random(v).random()))
    assert_same("dag_longest_path", G, topo_order=order)
    assert both("dag_longest_path", nx.DiGraph()) == ([], [])


def test_dag_longest_path_negative_restarts_and_cycles():
    G = nx.DiGraph()
    G.add_weighted_edges_from([(1, 2, -5), (2, 3, 1), (3, 4, 1), (4, 5, 0), (3, 5, 4), (1, 6, 2)])
    assert both("dag_longest_path", G) == ([2, 3, 5], [2, 3, 5])
    assert both("dag_longest_path_length", G) == (5, 5)
    assert both("dag_longest_path", with_cycle(DAGS[0]))[0] is nx.NetworkXUnfeasible


def test_multidigraph_longest_path_takes_or_declines_parallel_weights():
    G = nx.MultiDiGraph([(1, 2), (2, 3), (1, 3), (1, 3)])
    assert_same("dag_longest_path", G)
    G.add_edge(1, 3, weight=5)  # parallel edges of different weights
    assert "heaviest" in reason("dag_longest_path", G)
    assert reason("dag_longest_path", G, weight=None) is True


@pytest.mark.parametrize("G", DAGS, ids=ids(DAGS, "dag"))
def test_transitive_closure_and_reduction(G):
    H = shuffled(G, 3, attrs=("cap",))  # every edge the same numeric attributes
    H.graph["kind"] = "dag"
    got, want = both("transitive_closure_dag", H)
    # G's edges in networkx's order with their data; the added edges (networkx: set order) as a set
    assert_same_graph(got, want, edge_order=False)
    for u in H:
        assert list(got._adj[u])[:len(H._adj[u])] == list(want._adj[u])[:len(H._adj[u])]
    order = list(nx.lexicographical_topological_sort(H, key=lambda v: int(v.lstrip("v"))))
    assert_same_graph(*both("transitive_closure_dag", H, order), edge_order=False)
    assert_same("transitive_reduction", G)
    assert both("transitive_reduction", with_cycle(G)) == (nx.NetworkXError, nx.NetworkXError)


def test_is_aperiodic():
    graphs = [nx.cycle_graph(4, create_using=nx.DiGraph), nx.DiGraph([(0, 0)]),
              nx.DiGraph([(0, 1), (1, 0), (1, 2), (2, 0)]), nx.DiGraph([(0, 1)]), nx.DiGraph(), nx.path_graph(3)]
    graphs += [g for g in (gnp(12, 0.3, s, directed=True) for s in range(12)) if nx.is_strongly_connected(g)]
    assert len(graphs) > 8
    for G in graphs:
        assert_same("is_aperiodic", G)


# ---------------------------------------------------------------------------------------------
# bipartite
# ---------------------------------------------------------------------------------------------
BIPARTITE = [shuffled(nx.bipartite.random_graph(12, 10, p, seed=s, directed=d), s)
             for s, (p, d) in enumerate([(0.1, False), (0.2, False), (0.15, True), (0.05, True)])]
BIPARTITE += [shuffled(nx.path_graph(6), 1), shuffled(nx.star_graph(4), 2)]


@pytest.mark.parametrize("G", BIPARTITE + UNDIRECTED[:3] + DIRECTED[:2] + [with_loops(BIPARTITE[0], 1, 1)],
                         ids=ids(BIPARTITE, "b") + ids(UNDIRECTED[:3], "u") + ids(DIRECTED[:2], "d") + ["loop"])
def test_is_bipartite_and_color(G):
    assert_same("is_bipartite", G)
    got, want = both("color", G)
    assert got == want  # the same colours (dict order: see the adapter's docstring)
    if isinstance(want, dict):
        lonely = set(nx.isolates(G))
        assert list(got) == [v for v in G if v not in lonely] + [v for v in G if v in lonely]
    got, want = both("sets", G)
    assert got == want


def test_color_roots_at_the_first_node_with_a_successor():
    G = nx.DiGraph()
    G.add_node(0)
    G.add_edge(1, 0)  # node 0 has no successor: networkx colours from 1
    assert both("color", G) == ({1: 1, 0: 0},) * 2


@pytest.mark.parametrize("G, seen", [
    (BIPARTITE[0], {True, False}), (BIPARTITE[1], {True, False}),
    (nx.disjoint_union(nx.cycle_graph(3), nx.path_graph(3)), {"NetworkXError"}),
    (nx.disjoint_union(nx.path_graph(3), nx.cycle_graph(3)), {False, "NetworkXError"}),
], ids=["b0", "b1", "odd_first", "odd_last"])
def test_is_bipartite_node_set(G, seen):
    rng = random.Random(5)
    colour = nx.bipartite.color(G) if nx.is_bipartite(G) else {}
    trials = [[v for v, c in colour.items() if c], [v for v, c in colour.items() if not c], [0, 2], [1]]
    trials += [rng.sample(list(G), rng.randint(0, len(G))) for _ in range(8)]
    assert_same("is_bipartite", G)  # an odd cycle in the first or in a later component
    outcomes = set()
    for S in trials:
        got, want = both("is_bipartite_node_set", G, S)
        assert got == want
        outcomes.add(want if isinstance(want, bool) else want.__name__)
    assert both("is_bipartite_node_set", G, [list(G)[0]] * 2) == (nx.AmbiguousSolution,) * 2
    assert outcomes >= seen  # networkx checks the components in order: an odd one first raises


def test_bipartite_sets_errors():
    assert both("sets", nx.Graph([(0, 1), (2, 3)])) == (nx.AmbiguousSolution,) * 2
    assert both("sets", nx.Graph()) == (nx.NetworkXPointlessConcept,) * 2
    assert both("sets", nx.Graph([(0, 1), (2, 3)]), [0, 2]) == (({0, 2}, {1, 3}),) * 2
    assert both("color", nx.complete_graph(3)) == (nx.NetworkXError,) * 2


# ---------------------------------------------------------------------------------------------
# biconnectivity and bridges
# ---------------------------------------------------------------------------------------------
LOOPED = [with_loops(UNDIRECTED[1], 3, 1), with_loops(UNDIRECTED[4], 2, 2)]


@pytest.mark.parametrize("G", UNDIRECTED + LOOPED + [nx.MultiGraph(UNDIRECTED[0]), nx.Graph(), nx.empty_graph(3)],
                         ids=ids(UNDIRECTED, "u") + ids(LOOPED, "loop") + ["multi", "null", "empty"])
def test_biconnectivity_in_networkx_order(G):
    for name in ("biconnected_component_edges", "biconnected_components", "articulation_points",
                 "is_biconnected", "bridges", "has_bridges"):
        assert_same(name, G)


@pytest.mark.parametrize("G", UNDIRECTED + LOOPED, ids=ids(UNDIRECTED, "u") + ids(LOOPED, "loop"))
def test_bridges_from_a_root(G):
    for root in list(G)[:6] + ["not a node"]:
        assert_same("bridges", G, root)
        assert_same("has_bridges", G, root)


@SETTINGS
@given(st.lists(st.tuples(st.integers(0, 11), st.integers(0, 11)), max_size=30), st.randoms(use_true_random=False))
def test_hopcroft_tarjan_port(edges, rng):
    G = nx.Graph()
    nodes = list(range(12))
    rng.shuffle(nodes)
    G.add_nodes_from(nodes)
    G.add_edges_from(edges)
    for name in ("biconnected_component_edges", "articulation_points", "bridges", "is_biconnected"):
        assert_same(name, G)


@pytest.mark.parametrize("G", UNDIRECTED + [nx.cycle_graph(4), nx.barbell_graph(4, 0)],
                         ids=ids(UNDIRECTED, "u") + ["square", "barbell"])
def test_local_bridges(G):
    G = shuffled(G, 8, weights="int", low=1)
    assert_same("local_bridges", G, with_span=False)
    assert_same("local_bridges", G)
    got, want = both("local_bridges", G, weight="weight")
    assert got == want and [type(x[2]) for x in got] == [type(x[2]) for x in want]


def test_local_bridges_spans_avoid_only_the_edge():
    G = nx.cycle_graph(5)
    G.add_edge(0, 0)
    assert both("local_bridges", G) == ([(1, 2, 4), (2, 3, 4), (3, 4, 4)],) * 2  # 0's edges: its loop is "common"


# ---------------------------------------------------------------------------------------------
# isolates
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("G", [UNDIRECTED[0], DIRECTED[0], with_loops(nx.empty_graph(5), 2, 3), nx.Graph()],
                         ids=["u", "d", "loops", "null"])
def test_isolates(G):
    assert_same("isolates", G)
    assert_same("number_of_isolates", G)
    for v in G:
        assert_same("is_isolate", G, v)
