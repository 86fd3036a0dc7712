"""The networkx suite's call specs: how each dispatched function is called on a graph and how its
result is checked (:data:`SPECS`), and why the others are not timed (:data:`NOT_TIMED`).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Callable

from .checks import (bisection, close, equal, first_path_trees, hits_vectors, independent_and_maximal,
                     lengths_and_paths, one_path, partition_modularity, paths_only, pred_lists, same_edges, same_parts, scalar, tight_pred)
from .measure import NX_BUDGET_S


@dataclass
class Picks:
    """Nodes a call needs: a source with edges, a target reached from it, a few pairs."""
    source: object
    target: object
    pairs: list = field(default_factory=list)
    nodes: list = field(default_factory=list)
    widest: int = 0


def picks(G):
    """A deterministic source of largest degree, the node farthest from it by BFS (a reachable
    target), that BFS's widest level, 100 node pairs and 100 nodes (every 1000th node or so)."""
    import networkx as nx

    source = max(G, key=G.degree)  # the first node of largest degree
    layers = list(nx.bfs_layers(G, source, backend="networkx"))
    target = layers[-1][0]
    nodes = list(G)
    step = max(1, len(nodes) // 100)
    some = nodes[::step][:100]
    pairs = list(zip(some, reversed(some)))
    widest = max(range(len(layers)), key=lambda i: len(layers[i]))
    return Picks(source, target, pairs, some, widest)


@dataclass
class Spec:
    """How to call one function and check it.

    call : (G, picks) -> (args, kwargs)  (G excluded from args: it is passed first)
    consume : result -> a value to compare (generators and iterators are consumed here, inside the timing)
    check : (got, want, G) -> None, raising Invalid
    directed : the function needs a directed graph
    dag : the function needs a directed acyclic graph (the directed graph's edges u -> v with u < v)
    budget_s : seconds a networkx call may take
    valid_alone : the check needs no networkx result (it is run even when networkx ran past its budget)
    """
    call: Callable = lambda G, p: ((), {})
    consume: Callable = lambda r: r
    check: Callable = equal
    directed: bool = False
    dag: bool = False
    budget_s: float = NX_BUDGET_S
    valid_alone: bool = False
    note: str = ""


def _nx():
    import networkx

    return networkx


def _source(G, p):
    return (p.source,), {}


def _source_target(G, p):
    return (p.source, p.target), {}


def _first(k):
    return lambda it: list(itertools.islice(it, k))


#: dispatch name -> Spec; a function without one is listed as "not timed" with this table's reason.
SPECS = {
    # traversal
    "bfs_edges": Spec(_source, list),
    "bfs_tree": Spec(_source, check=same_edges),
    "bfs_layers": Spec(_source, list),
    "bfs_predecessors": Spec(_source, list),
    "bfs_successors": Spec(_source, list),
    "descendants_at_distance": Spec(lambda G, p: ((p.source, p.widest), {}), note="the BFS's widest level"),
    "descendants": Spec(_source),
    "ancestors": Spec(_source),
    "has_path": Spec(_source_target),
    "node_connected_component": Spec(_source),
    # unweighted shortest paths
    "single_source_shortest_path_length": Spec(_source),
    "single_source_shortest_path": Spec(_source),
    "shortest_path_length": Spec(lambda G, p: ((), {"source": p.source})),
    "shortest_path": Spec(lambda G, p: ((), {"source": p.source, "target": p.target})),
    "bidirectional_shortest_path": Spec(_source_target),
    "all_pairs_shortest_path_length": Spec(consume=_first(3), note="the first 3 sources"),
    # weighted shortest paths
    "single_source_dijkstra_path_length": Spec(_source),
    "single_source_dijkstra_path": Spec(_source),
    "single_source_dijkstra": Spec(_source),
    "dijkstra_path_length": Spec(_source_target),
    "dijkstra_path": Spec(_source_target),
    "multi_source_dijkstra_path_length": Spec(lambda G, p: ((set(p.nodes[:10]),), {})),
    "bellman_ford_path_length": Spec(_source_target),
    "all_pairs_dijkstra_path_length": Spec(consume=_first(3), note="the first 3 sources"),
    # components
    "connected_components": Spec(consume=list, check=same_parts),
    "number_connected_components": Spec(),
    "is_connected": Spec(),
    "weakly_connected_components": Spec(consume=list, check=same_parts, directed=True),
    "number_weakly_connected_components": Spec(directed=True),
    "is_weakly_connected": Spec(directed=True),
    "strongly_connected_components": Spec(consume=list, check=same_parts, directed=True),
    "number_strongly_connected_components": Spec(directed=True),
    "is_strongly_connected": Spec(directed=True),
    "articulation_points": Spec(consume=set),
    "bridges": Spec(consume=lambda it: {frozenset(e) for e in it}),
    "biconnected_components": Spec(consume=list, check=same_parts),
    "isolates": Spec(consume=list),
    # link analysis and centrality
    "pagerank": Spec(check=close(1e-6)),
    "hits": Spec(consume=lambda r: {**{("h", k): v for k, v in r[0].items()}, **{("a", k): v for k, v in r[1].items()}},
                 check=hits_vectors(1e-6)),
    "eigenvector_centrality": Spec(lambda G, p: ((), {"max_iter": 1000}), check=close(1e-6)),
    "katz_centrality": Spec(lambda G, p: ((), {"alpha": 0.01}), check=close(1e-6)),
    "degree_centrality": Spec(check=close(1e-12)),
    "betweenness_centrality": Spec(lambda G, p: ((), {"k": 8, "seed": 0}), check=close(1e-9),
                                   note="k=8 sampled sources, seed 0"),
    "edge_betweenness_centrality": Spec(lambda G, p: ((), {"k": 8, "seed": 0}), check=close(1e-9),
                                        note="k=8 sampled sources, seed 0"),
    "closeness_centrality": Spec(lambda G, p: ((), {"u": p.source}), note="one node (u=source)"),
    "harmonic_centrality": Spec(lambda G, p: ((), {"nbunch": p.nodes[:4]}), check=close(1e-9),
                                note="4 nodes (nbunch)"),
    # clustering, cores, link prediction
    "triangles": Spec(),
    "clustering": Spec(check=close(1e-12)),
    "average_clustering": Spec(check=scalar(1e-12)),
    "transitivity": Spec(check=scalar(1e-12)),
    "square_clustering": Spec(lambda G, p: ((), {"nodes": p.nodes[:20]}), check=close(1e-12), note="20 nodes"),
    "core_number": Spec(),
    "k_core": Spec(check=same_edges),
    "jaccard_coefficient": Spec(lambda G, p: ((), {"ebunch": p.pairs}), consume=list),
    "adamic_adar_index": Spec(lambda G, p: ((), {"ebunch": p.pairs}), consume=list),
    "resource_allocation_index": Spec(lambda G, p: ((), {"ebunch": p.pairs}), consume=list),
    "common_neighbors": Spec(lambda G, p: ((p.pairs[0][0], p.pairs[0][1]), {}), consume=sorted),
    # others
    "greedy_color": Spec(),
    "maximal_independent_set": Spec(lambda G, p: ((), {"seed": 0}), check=independent_and_maximal, valid_alone=True,
                                    note="valid and maximal (another random stream than networkx's)"),
    "minimum_spanning_tree": Spec(check=same_edges),
    "louvain_communities": Spec(lambda G, p: ((), {"seed": 0}), check=partition_modularity(), budget_s=300.0,
                                note="a partition whose modularity is within 0.02 of networkx's"),
    "label_propagation_communities": Spec(consume=list, check=same_parts),
    "modularity": Spec(lambda G, p: (([set(G)],), {}), check=scalar(1e-9),
                       note="one community of every node"),
    "kernighan_lin_bisection": Spec(lambda G, p: ((), {"seed": 0}), check=bisection, valid_alone=True,
                                    note="a balanced bisection (another random stream than networkx's)"),
    "is_bipartite": Spec(),
    "reciprocity": Spec(lambda G, p: ((), {"nodes": None}), directed=True, check=scalar(1e-12)),
    # more paths
    "bidirectional_dijkstra": Spec(_source_target),
    "astar_path": Spec(_source_target, note="no heuristic"),
    "astar_path_length": Spec(_source_target, note="no heuristic"),
    "all_shortest_paths": Spec(_source_target, consume=_first(100), note="the first 100 paths"),
    "multi_source_dijkstra": Spec(lambda G, p: ((set(p.nodes[:10]),), {})),
    "multi_source_dijkstra_path": Spec(lambda G, p: ((set(p.nodes[:10]),), {})),
    "dijkstra_predecessor_and_distance": Spec(_source),
    "bellman_ford_path": Spec(_source_target, check=one_path, note="any shortest path (networkx does not say which)"),
    "bellman_ford_predecessor_and_distance": Spec(_source, check=pred_lists, note="pred lists compared as sets"),
    "single_source_bellman_ford": Spec(_source, check=lengths_and_paths, note="paths: any shortest-path tree"),
    "single_source_bellman_ford_path": Spec(_source, check=paths_only, note="any shortest-path tree"),
    "single_source_bellman_ford_path_length": Spec(_source),
    "goldberg_radzik": Spec(_source, check=tight_pred, note="any tight predecessor"),
    "negative_edge_cycle": Spec(),
    "all_pairs_dijkstra": Spec(consume=_first(3), note="the first 3 sources"),
    "all_pairs_dijkstra_path": Spec(consume=_first(3), note="the first 3 sources"),
    "all_pairs_bellman_ford_path_length": Spec(consume=_first(3), note="the first 3 sources"),
    "all_pairs_bellman_ford_path": Spec(consume=_first(3), check=first_path_trees,
                                        note="the first 3 sources; any shortest-path tree"),
    "all_pairs_shortest_path": Spec(consume=_first(3), note="the first 3 sources"),
    "single_target_shortest_path": Spec(lambda G, p: ((p.source,), {})),
    "single_target_shortest_path_length": Spec(lambda G, p: ((p.source,), {}), consume=dict),
    "predecessor": Spec(_source),
    "bfs_labeled_edges": Spec(_source, list),
    "edge_bfs": Spec(_source, list),
    "ego_graph": Spec(lambda G, p: ((p.source,), {"radius": 3}), check=same_edges, note="radius 3"),
    "local_reaching_centrality": Spec(_source, check=scalar(1e-12)),
    # more components and structure
    "biconnected_component_edges": Spec(consume=lambda it: [{frozenset(e) for e in c} for c in it],
                                        check=same_parts),
    "is_biconnected": Spec(),
    "has_bridges": Spec(),
    "local_bridges": Spec(lambda G, p: ((), {"with_span": False}), consume=lambda it: {frozenset(e) for e in it}),
    "is_forest": Spec(),
    "number_of_isolates": Spec(),
    "number_of_selfloops": Spec(),
    "attracting_components": Spec(consume=list, check=same_parts, directed=True),
    "number_attracting_components": Spec(directed=True),
    "condensation": Spec(lambda G, p: ((), {"scc": list(_nx().strongly_connected_components(G, backend="networkx"))}),
                         check=same_edges, directed=True, note="scc given"),
    "is_semiconnected": Spec(directed=True),
    "is_branching": Spec(directed=True),
    "is_arborescence": Spec(directed=True),
    "is_aperiodic": Spec(directed=True),
    "in_degree_centrality": Spec(check=close(1e-12), directed=True),
    "out_degree_centrality": Spec(check=close(1e-12), directed=True),
    "overall_reciprocity": Spec(directed=True, check=scalar(1e-12)),
    "k_shell": Spec(check=same_edges),
    "k_crust": Spec(check=same_edges),
    "k_corona": Spec(lambda G, p: ((2,), {}), check=same_edges, note="k=2"),
    "k_truss": Spec(lambda G, p: ((3,), {}), check=same_edges, note="k=3"),
    "onion_layers": Spec(),
    "generalized_degree": Spec(lambda G, p: ((), {"nodes": p.nodes})),
    "average_neighbor_degree": Spec(check=close(1e-9)),
    "average_degree_connectivity": Spec(check=close(1e-9)),
    "preferential_attachment": Spec(lambda G, p: ((), {"ebunch": p.pairs}), consume=list),
    "betweenness_centrality_subset": Spec(lambda G, p: ((p.nodes[:4], p.nodes[-4:]), {}), check=close(1e-9),
                                          note="4 sources, 4 targets"),
    "edge_betweenness_centrality_subset": Spec(lambda G, p: ((p.nodes[:4], p.nodes[-4:]), {}), check=close(1e-9),
                                               note="4 sources, 4 targets"),
    "group_closeness_centrality": Spec(lambda G, p: ((p.nodes[:10],), {}), check=scalar(1e-12), note="10 nodes"),
    "group_degree_centrality": Spec(lambda G, p: ((p.nodes[:10],), {}), check=scalar(1e-12), note="10 nodes"),
    "eigenvector_centrality_numpy": Spec(check=close(1e-6)),
    "convert_node_labels_to_integers": Spec(check=same_edges),
    "relabel_nodes": Spec(lambda G, p: (({v: -1 - v for v in G},), {}), check=same_edges, note="v -> -1 - v"),
    "compose": Spec(lambda G, p: ((G,), {}), check=same_edges, note="compose(G, G)"),
    "disjoint_union": Spec(lambda G, p: ((G,), {}), check=same_edges, note="disjoint_union(G, G)"),
    # DAG functions: the directed graph's edges u -> v with u < v
    "is_directed_acyclic_graph": Spec(dag=True),
    "has_cycle": Spec(dag=True),
    "topological_sort": Spec(consume=list, dag=True),
    "lexicographical_topological_sort": Spec(consume=list, dag=True),
    "topological_generations": Spec(consume=list, dag=True),
    "dag_longest_path": Spec(dag=True),
    "dag_longest_path_length": Spec(dag=True),
    "transitive_reduction": Spec(check=same_edges, dag=True),
}

#: functions with no input graph (generators) or an O(n^2) answer: not timed, with why
NOT_TIMED = {
    "floyd_warshall": "its answer holds n^2 distances (7 * 10^10 on NY roads)",
    "floyd_warshall_numpy": "its answer is a dense n x n matrix",
    "floyd_warshall_predecessor_and_distance": "its answer holds n^2 distances",
    "johnson": "its answer holds n^2 paths",
    "all_pairs_all_shortest_paths": "every shortest path between every pair (counts grow with the graph)",
    "single_source_all_shortest_paths": "every shortest path to every node (counts grow with the graph)",
    "complement": "its answer has about n^2 / 2 edges",
    "transitive_closure_dag": "its answer can have about n^2 / 2 edges",
    "average_shortest_path_length": "a search from every node (days for networkx at this size)",
    "global_reaching_centrality": "a search from every node (days for networkx at this size)",
    "newman_betweenness_centrality": "a search from every node, with no sampling option",
    "edge_load_centrality": "a search from every node, with no sampling option",
    "katz_centrality_numpy": "networkx builds a dense n x n matrix (320 GB at 200,000 nodes)",
    "google_matrix": "its answer is a dense n x n matrix",
    "trophic_levels": "networkx inverts a dense n x n matrix",
    "trophic_differences": "networkx inverts a dense n x n matrix",
    "trophic_incoherence_parameter": "networkx inverts a dense n x n matrix",
    "is_isolate": "one node's degree: constant time",
    "is_tree": "the edge count answers it at once on these graphs",
    "is_bipartite_node_set": "needs a bipartite graph",
    "sets": "needs a bipartite graph",
    "color": "needs a bipartite graph",
    "cn_soundarajan_hopcroft": "needs a community node attribute",
    "ra_index_soundarajan_hopcroft": "needs a community node attribute",
    "within_inter_cluster": "needs a community node attribute",
    "union": "the same code as disjoint_union (timed), on disjoint node sets",
    "union_all": "the same code as disjoint_union (timed), for a list of graphs",
    "compose_all": "the same code as compose (timed), for a list of graphs",
    "disjoint_union_all": "the same code as disjoint_union (timed), for a list of graphs",
    "reverse": "declined on graphs with edge attributes (networkx's dispatcher would not convert them)",
    "common_neighbor_centrality": "networkx computes every pair's shortest path length first (past any budget)",
}


def public(name):
    """networkx's public function of a dispatch name (with its decorators: random states, checks),
    not the bare dispatcher."""
    import importlib

    import networkx as nx

    f = getattr(nx, name, None)
    if f is None:
        dispatcher = nx.utils.backends._registered_algorithms[name]
        f = getattr(importlib.import_module(dispatcher.orig_func.__module__), name)
    return f


def _why_untimed(name, dispatcher):
    if name in NOT_TIMED:
        return NOT_TIMED[name]
    if not dispatcher.graphs:
        return "a generator (no input graph)"
    return "no call spec in benchmarks.suites.nx_backend.specs.SPECS"
