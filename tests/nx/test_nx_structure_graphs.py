"""The ``semiring`` networkx backend's adapters that return components or graphs: condensation,
attracting and semiconnected components, label propagation, ego graphs, complement and
reverse, relabelling and binary operators, tree recognition; and the structure adapters'
declines, checked for their reasons.

The oracle is networkx, in its exact output order (tests/_nx_structure.py: the graphs and the
comparison)."""

from __future__ import annotations

import networkx as nx
import pytest

from _nxgraphs import NX, SR, ids, shuffled
from _nx_structure import DIRECTED, UNDIRECTED, assert_same, assert_same_graph, both, reason, with_loops


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
