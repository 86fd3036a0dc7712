"""The ``semiring`` networkx backend's structure adapters: cores, DAGs, bipartiteness,
biconnectivity and bridges, isolates, condensation and attracting components, label
propagation, ego graphs, complement and reverse, tree recognition.

The oracle is networkx: every adapter runs through networkx's dispatcher with
``backend="semiring"`` and is compared with ``backend="networkx"`` on graphs whose node labels
are strings inserted in a shuffled order, in networkx's exact output order (dict insertion
order, generator order, a returned graph's node and adjacency order) unless the adapter's
docstring says otherwise. Declines are checked for their reasons.
"""

from __future__ import annotations

import random

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from semiring.nx.backend import BackendInterface
from _nxgraphs import NX, SR, dag, gnp, ids, shuffled

nx.config.warnings_to_ignore.add("cache")

SETTINGS = settings(max_examples=40, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# ---------------------------------------------------------------------------------------------
# graphs and comparisons
# ---------------------------------------------------------------------------------------------
def with_loops(G, k, seed):
    rng = random.Random(seed)
    G = G.copy()
    G.add_edges_from((v, v) for v in rng.sample(list(G), k))
    return G


UNDIRECTED = [gnp(40, p, s) for s, p in ((1, 0.03), (2, 0.06), (3, 0.12))] + [
    shuffled(nx.karate_club_graph(), 4), shuffled(nx.barbell_graph(5, 3), 5), shuffled(nx.caveman_graph(3, 5), 6)]
DIRECTED = [gnp(40, p, s, directed=True) for s, p in ((1, 0.02), (2, 0.04), (3, 0.08))]
DAGS = [dag(35, p, s, weights=w, low=-4, high=9) for s, p, w in ((1, 0.05, None), (2, 0.1, "int"),
                                                                  (3, 0.2, "float"), (4, 0.08, "int"))]


def outcome(func, *args, **kwargs):
    """The result (generators consumed, items listed until an exception) or the exception type."""
    got = []
    try:
        out = func(*args, **kwargs)
        if hasattr(out, "__next__"):
            for item in out:
                got.append(item)
            return got
        return out
    except Exception as exc:  # noqa: BLE001 (the type is the compared outcome)
        return (got, type(exc)) if got else type(exc)


def both(name, *args, **kwargs):
    """(semiring's outcome, networkx's outcome) of nx.<name>."""
    func = _function(name)
    return outcome(func, *args, **kwargs, **SR), outcome(func, *args, **kwargs, **NX)


def _function(name):
    """networkx's dispatchable function of that name."""
    return nx.utils.backends._registered_algorithms[name]


def assert_same(name, *args, **kwargs):
    got, want = both(name, *args, **kwargs)
    if isinstance(want, nx.Graph):
        assert_same_graph(got, want)
    else:
        assert got == want, name
        if isinstance(want, dict):
            assert list(got.items()) == list(want.items()), f"{name}: order"


def assert_same_graph(a, b, *, edge_order=True):
    """Equal graphs with equal node order, node and graph attributes, and (``edge_order``)
    equal adjacency order with edge attributes (else equal adjacency dicts)."""
    assert type(a) is type(b)
    assert list(a.nodes(data=True)) == list(b.nodes(data=True))
    assert a.graph == b.graph
    for u in b:
        if edge_order:
            assert list(a._adj[u].items()) == list(b._adj[u].items()), u
            if b.is_directed():
                assert list(a._pred[u]) == list(b._pred[u]), u
        else:
            assert dict(a._adj[u]) == dict(b._adj[u]), u


def reason(name, *args, **kwargs):
    return BackendInterface.can_run(name, args, kwargs)


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


# ---------------------------------------------------------------------------------------------
# condensation, attracting and semiconnected components
# ---------------------------------------------------------------------------------------------
CHAINS = [shuffled(nx.path_graph(8, create_using=nx.DiGraph), 1), nx.cycle_graph(5, create_using=nx.DiGraph),
          nx.DiGraph([(0, 1), (1, 0), (1, 2), (2, 3), (3, 2), (3, 4)])]


@pytest.mark.parametrize("G", DIRECTED + CHAINS + [nx.DiGraph(), nx.MultiDiGraph([(0, 1), (0, 1), (1, 0), (2, 1)])],
                         ids=ids(DIRECTED, "d") + ids(CHAINS, "chain") + ["null", "multi"])
def test_attracting_and_semiconnected(G):
    assert_same("number_attracting_components", G)
    assert_same("is_attracting_component", G)
    assert_same("is_semiconnected", G)
    got = list(nx.attracting_components(G, **SR))
    assert sorted(map(sorted, got)) == sorted(map(sorted, nx.attracting_components(G, **NX)))
    # the order of the backend's strongly_connected_components
    sinks = {frozenset(c) for c in got}
    assert got == [c for c in nx.strongly_connected_components(G, **SR) if frozenset(c) in sinks]


@pytest.mark.parametrize("G", DIRECTED + CHAINS, ids=ids(DIRECTED, "d") + ids(CHAINS, "chain"))
def test_condensation(G):
    scc = list(nx.strongly_connected_components(G, **NX))
    got, want = both("condensation", G, scc)
    assert_same_graph(got, want)
    assert list(got.graph["mapping"].items()) == list(want.graph["mapping"].items())
    assert nx.condensation(G, iter(scc), **SR).graph == want.graph


def test_condensation_without_scc_runs_only_where_networkx_order_is_forced():
    for G in CHAINS:
        got, want = both("condensation", G)
        assert_same_graph(got, want)
    with pytest.raises(NotImplementedError):
        nx.condensation(DIRECTED[1], **SR)
    got, want = both("condensation", nx.DiGraph())
    assert got.graph == want.graph == {"mapping": {}} and len(got) == 0


def test_condensation_errors_as_networkx():
    G = nx.DiGraph([(0, 1), (1, 2)])
    assert both("condensation", G, [{0, 1}]) == (KeyError, KeyError)  # 2 is in no component
    assert both("condensation", G, []) == (UnboundLocalError, UnboundLocalError)
    assert both("condensation", nx.Graph([(0, 1)])) == (nx.NetworkXNotImplemented,) * 2


# ---------------------------------------------------------------------------------------------
# label propagation
# ---------------------------------------------------------------------------------------------
COMMUNITIES = [shuffled(nx.karate_club_graph(), 1), nx.caveman_graph(2, 10), shuffled(nx.ring_of_cliques(5, 4), 2),
               shuffled(nx.random_partition_graph([10] * 5, 0.5, 0.05, seed=3), 3), UNDIRECTED[1], nx.empty_graph(4),
               nx.Graph()]


@pytest.mark.parametrize("G", COMMUNITIES, ids=ids(COMMUNITIES, "c"))
def test_label_propagation_communities(G):
    got, want = both("label_propagation_communities", G)
    assert type(got) is type(want) and list(got) == list(want)


# ---------------------------------------------------------------------------------------------
# ego graphs, complement, reverse
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("G", UNDIRECTED[:3] + DIRECTED[:2], ids=ids(UNDIRECTED[:3], "u") + ids(DIRECTED[:2], "d"))
def test_ego_graph_in_networkx_order(G):
    G = shuffled(G, 9, floats=("d",))
    G.graph["g"] = 1
    for n in list(G)[:3]:
        for radius in (0, 1, 2, 2.5, None, -1):
            for center in (True, False):
                for undirected in (False, True):
                    assert_same("ego_graph", G, n, radius, center, undirected)
        for radius in (0, 3, 6.5, None):
            if G.is_directed():
                assert_same_graph(*both("ego_graph", G, n, radius, distance="d"), edge_order=False)
            else:
                for undirected in (False, True):
                    assert_same_graph(*both("ego_graph", G, n, radius, True, undirected, "d"), edge_order=False)
    assert both("ego_graph", G, "not a node") == (nx.NodeNotFound,) * 2


@pytest.mark.parametrize("G", [UNDIRECTED[0], DIRECTED[0], nx.MultiGraph([(0, 1), (1, 2)]), nx.MultiDiGraph([(0, 1)]),
                               nx.empty_graph(3), nx.Graph(), with_loops(UNDIRECTED[2], 2, 1)],
                         ids=["u", "d", "multi", "multidi", "empty", "null", "loops"])
def test_complement(G):
    G = G.copy()
    G.graph["dropped"] = True
    assert_same("complement", G)


@pytest.mark.parametrize("G", DIRECTED + [nx.DiGraph([(0, 0), (0, 1)])], ids=ids(DIRECTED, "d") + ["loop"])
def test_reverse(G):
    G = G.copy()
    G.graph["nested"] = {"a": [1]}
    assert_same("reverse", G)
    got = nx.reverse(G, **SR)
    assert got.graph["nested"] is not G.graph["nested"]  # deep-copied, as networkx's
    assert both("reverse", nx.Graph()) == (nx.NetworkXError, nx.NetworkXError)


# ---------------------------------------------------------------------------------------------
# relabelling and binary operators (networkx's own tests build their inputs with them)
# ---------------------------------------------------------------------------------------------
def _attributed(G, seed):
    G = shuffled(G, seed, attrs=("cap",))
    G.graph.update(seed=seed, name=f"g{seed}")
    return G


PAIRS = [(_attributed(nx.gnp_random_graph(9, 0.3, seed=s), s), _attributed(nx.gnp_random_graph(7, 0.3, seed=s + 9), s))
         for s in (1, 2)]
PAIRS += [(_attributed(with_loops(nx.gnp_random_graph(8, 0.3, seed=s, directed=True), 2, s), s),
           _attributed(nx.gnp_random_graph(6, 0.4, seed=s + 9, directed=True), s + 1)) for s in (3, 4)]


@pytest.mark.parametrize("G, H", PAIRS, ids=ids(PAIRS, "p"))
def test_relabelling_and_operators(G, H):
    for ordering in ("default", "sorted", "increasing degree", "decreasing degree"):
        assert_same("convert_node_labels_to_integers", G, 3, ordering, "old")
    assert both("convert_node_labels_to_integers", G, 0, "backwards") == (nx.NetworkXError,) * 2
    assert_same("relabel_nodes", G, {v: f"x{v}" for v in list(G)[::2]})
    assert_same("relabel_nodes", G, lambda v: len(v))  # merges nodes, as networkx does
    for name in ("compose", "disjoint_union"):
        assert_same(name, G, H)  # G and H share node names: compose merges them
    assert_same("union", G, H, ("g", "h"))
    assert both("union", G, H) == (nx.NetworkXError,) * 2  # not disjoint
    for name in ("compose_all", "disjoint_union_all"):
        assert_same(name, [G, H, G])
    assert_same("union_all", [G, H], ("a", "b"))
    for name in ("compose_all", "union_all", "disjoint_union_all"):
        assert both(name, []) == (ValueError,) * 2
    other = nx.Graph() if G.is_directed() else nx.DiGraph()
    assert both("compose", G, other) == (nx.NetworkXError,) * 2


def test_operators_decline_what_the_backend_graph_does_not_hold():
    G = nx.path_graph(3)
    assert "in place" in reason("relabel_nodes", G, {0: 1}, copy=False)
    assert "dict or a callable" in reason("relabel_nodes", G, [1, 2, 3])
    assert "list or tuple" in reason("compose_all", iter([G, G]))
    assert "expected a list or tuple of networkx graphs" in reason("union_all", [G, 3])
    assert "edge keys" in reason("disjoint_union", nx.MultiGraph([(0, 1)]), G)
    assert "node attributes" in reason("convert_node_labels_to_integers", _noded())


@pytest.mark.parametrize("G", [with_loops(UNDIRECTED[0], 3, 1), with_loops(DIRECTED[0], 2, 2), nx.Graph(),
                               nx.MultiGraph([(0, 0), (0, 1)])], ids=["u", "d", "null", "multi"])
def test_number_of_selfloops(G):
    assert_same("number_of_selfloops", G)
    assert "parallel" in reason("number_of_selfloops", nx.MultiGraph([(0, 0), (0, 0)]))


# ---------------------------------------------------------------------------------------------
# tree recognition
# ---------------------------------------------------------------------------------------------
TREES = [nx.random_labeled_tree(20, seed=1), nx.path_graph(5), nx.empty_graph(3), nx.empty_graph(1),
         nx.disjoint_union(nx.path_graph(3), nx.star_graph(3)), nx.cycle_graph(4), nx.Graph([(0, 0)]),
         nx.MultiGraph([(0, 1), (1, 2)])]
TREES += [nx.bfs_tree(nx.random_labeled_tree(15, seed=2), 0), nx.DiGraph([(0, 1), (2, 1)]),
          nx.DiGraph([(0, 1), (1, 0)]), nx.DiGraph([(0, 1), (2, 3)])]


@pytest.mark.parametrize("G", TREES + [nx.Graph(), nx.DiGraph()], ids=ids(TREES, "t") + ["null", "dinull"])
def test_tree_recognition(G):
    for name in ("is_tree", "is_forest") + (("is_arborescence", "is_branching") if G.is_directed() else ()):
        assert_same(name, G)


def test_tree_recognition_results_vary():
    results = {(nx.is_tree(G, **SR), nx.is_forest(G, **SR)) for G in TREES[:-4]}
    assert results == {(True, True), (False, True), (False, False)}


# ---------------------------------------------------------------------------------------------
# declines, with their reasons
# ---------------------------------------------------------------------------------------------
class SubGraph(nx.Graph):
    pass


def _noded():
    G = nx.path_graph(4)
    G.nodes[0]["color"] = "red"
    return G


def _labelled():
    G = nx.path_graph(4)
    nx.set_edge_attributes(G, "x", "label")
    return G


def _uneven():
    G = nx.path_graph(4)
    G.edges[0, 1]["weight"] = 2
    return G


def _parallel():
    return nx.MultiGraph([(0, 1), (0, 1), (1, 2)])


@pytest.mark.parametrize("name, args, kwargs, words", [
    ("k_core", (_noded(),), {}, "node attributes"),
    ("k_shell", (_labelled(),), {}, "holds str values"),
    ("k_crust", (_uneven(),), {}, "different attribute names"),
    ("k_corona", (SubGraph([(0, 1)]), 1), {}, "SubGraph"),
    ("k_truss", (nx.path_graph(3), "3"), {}, "k must be a real number"),
    ("k_core", (nx.path_graph(3),), {"core_number": [1, 1, 1]}, "core_number must be a dict"),
    ("ego_graph", (nx.MultiGraph([(0, 1)]), 0), {}, "multigraph"),
    ("ego_graph", (nx.path_graph(3), 0), {"distance": lambda u, v, d: 1}, "callable"),
    ("ego_graph", (nx.path_graph(3, create_using=nx.DiGraph), 0), {"undirected": True, "distance": "w"},
     "one direction"),
    ("ego_graph", (nx.path_graph(3), 0), {"radius": "1"}, "radius must be None or a real number"),
    ("transitive_closure_dag", (nx.MultiDiGraph([(0, 1)]),), {}, "multigraph"),
    ("transitive_closure_dag", (nx.DiGraph([(0, 1)]),), {"topo_order": iter([0, 1])}, "list or tuple"),
    ("dag_longest_path", (nx.DiGraph([(0, 1)]),), {"weight": lambda u, v, d: 1}, "callable"),
    ("dag_longest_path", (nx.DiGraph([(0, 1)]),), {"default_weight": "1"}, "default_weight"),
    ("lexicographical_topological_sort", (nx.DiGraph([(0, 1)]),), {"key": 3}, "callable"),
    ("bridges", (_parallel(),), {}, "parallel edges"),
    ("has_bridges", (nx.MultiGraph([(0, 1)]),), {"root": 0}, "root"),
    ("local_bridges", (nx.path_graph(3),), {"weight": lambda u, v, d: 1}, "callable"),
    ("is_tree", (_parallel(),), {}, "parallel edges"),
    ("is_forest", (_parallel(),), {}, "parallel edges"),
    ("is_isolate", (nx.path_graph(3), 7), {}, "not a node"),
    ("is_bipartite_node_set", (nx.path_graph(3), 5), {}, "sized iterable"),
    ("label_propagation_communities", (nx.MultiGraph([(0, 1)]),), {}, "multigraph"),
    ("complement", (SubGraph([(0, 1)]),), {}, "SubGraph"),
    ("reverse", (nx.DiGraph([(0, 1)]),), {"copy": False}, "in place"),
    ("reverse", (nx.DiGraph([(0, 1, {"w": 1})]),), {}, "edge attributes"),
    ("reverse", (nx.MultiDiGraph([(0, 1)]),), {}, "multigraph"),
])
def test_can_run_declines_with_a_reason(name, args, kwargs, words):
    why = reason(name, *args, **kwargs)
    assert isinstance(why, str) and words in why, why


def test_declined_calls_fall_back_to_networkx():
    prio = nx.utils.backends.BackendPriorities(algos=["semiring"], generators=[], classes=[])
    G = _noded()
    with nx.config(backend_priority=prio, fallback_to_nx=True):
        assert list(nx.k_core(G, 1).nodes(data=True)) == list(nx.k_core(G, 1, **NX).nodes(data=True))
        M = _parallel()
        assert list(nx.bridges(M)) == list(nx.bridges(M, **NX)) == [(1, 2)]


def test_runtime_declines():
    with pytest.raises(NotImplementedError):  # not a topological order
        nx.dag_longest_path(nx.DiGraph([(0, 1), (1, 2)]), topo_order=[2, 1, 0], **SR)
    with pytest.raises(NotImplementedError):  # a self-loop: networkx's colouring counts it twice
        nx.community.label_propagation_communities(nx.Graph([(0, 1), (1, 1)]), **SR)
    with pytest.raises(NotImplementedError):  # negative lengths: networkx's Dijkstra decides
        nx.local_bridges(nx.Graph([(0, 1, {"weight": -1})]), weight="weight", **SR).__next__()
    with pytest.raises(NotImplementedError):  # a core_number dict missing a node
        nx.k_core(nx.path_graph(3), 1, {0: 1, 1: 1}, **SR)


def test_can_run_accepts_what_it_runs():
    G, D = nx.path_graph(4), nx.path_graph(4, create_using=nx.DiGraph)
    for name, args in (("k_core", (G,)), ("k_truss", (G, 3)), ("ego_graph", (G, 0)), ("bridges", (G,)),
                       ("dag_longest_path", (D,)), ("transitive_closure_dag", (D, [0, 1, 2, 3])),
                       ("reverse", (D,)), ("complement", (G,)), ("is_tree", (nx.MultiGraph(G),)),
                       ("label_propagation_communities", (G,)), ("condensation", (D,))):
        assert reason(name, *args) is True, name
