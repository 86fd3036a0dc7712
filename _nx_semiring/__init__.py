"""networkx's ``backend_info`` entry point for the ``semiring`` backend.

networkx calls :func:`get_info` at the end of ``import networkx`` for every installed backend,
so this package is kept apart from ``semiring`` (whose import loads NumPy, SciPy and the
engine): it imports nothing of the engine and never CuPy. The backend itself is
``semiring.nx.backend:BackendInterface`` (entry point ``networkx.backends``), loaded on first
dispatch. nx-cugraph (``_nx_cugraph``) and graphblas-algorithms (``_nx_graphblas``) split
their info the same way.
"""

from __future__ import annotations

import os

#: Devices a backend graph may live on (``nx.config.backends.semiring.device``).
DEVICES = ("cpu", "gpu", "auto")

_SHARED = "Runs on the semiring engine (masked products over semirings), on the CPU or the GPU by "\
          "nx.config.backends.semiring.device."

#: Dispatch name -> what the backend does differently, or declines (networkx then falls back
#: where ``nx.config.fallback_to_nx`` is set). Names must match ``semiring.nx.backend``.
FUNCTIONS = {
    "bfs_edges": "Levels from the engine's BFS; networkx's edge order is rebuilt from the adjacency "
                 "order. Declines sort_neighbors.",
    "bfs_tree": "As bfs_edges; returns a networkx DiGraph. Declines sort_neighbors.",
    "bfs_layers": "Levels from masked any.pair products over all sources at once, in networkx's order.",
    "descendants_at_distance": "One BFS to the given depth.",
    "single_source_shortest_path_length": "BFS levels.",
    "all_pairs_shortest_path_length": "One BFS per node, lazily.",
    "shortest_path_length": "BFS, delta-stepping or Bellman-Ford by method and weights. Declines "
                            "callable weights, and Dijkstra on negative weights.",
    "single_source_dijkstra_path_length": "Delta-stepping SSSP. Declines callable and negative weights.",
    "dijkstra_path_length": "Delta-stepping SSSP. Declines callable and negative weights.",
    "bellman_ford_path_length": "Bellman-Ford SSSP; a reachable negative cycle raises NetworkXUnbounded. "
                                "Declines callable weights.",
    "floyd_warshall": "min.plus closure; declines graphs with a negative cycle (networkx returns its "
                      "partial values there) and callable weights.",
    "greedy_color": "Largest-first greedy only (other strategies and interchange decline); undirected "
                    "simple graphs without self-loops.",
    "maximal_independent_set": "Luby's algorithm: a valid maximal independent set, from a different "
                               "random stream than networkx's for the same seed.",
    "connected_components": "Component labels from the engine.",
    "number_connected_components": "Component labels from the engine.",
    "is_connected": "Component labels from the engine.",
    "weakly_connected_components": "Component labels from the engine (A + A^T).",
    "number_weakly_connected_components": "Component labels from the engine (A + A^T).",
    "is_weakly_connected": "Component labels from the engine (A + A^T).",
    "strongly_connected_components": "Strong component labels from the engine (Multistep); components in a reverse "
                                     "topological order of the condensation, as networkx's Tarjan search yields them "
                                     "(ties by first node, not networkx's search order).",
    "number_strongly_connected_components": "Strong component labels from the engine (Multistep).",
    "is_strongly_connected": "Strong component labels from the engine (Multistep).",
    "pagerank": "Power iteration on plus.second (plus.times with weights), networkx's stopping rule. Declines "
                "multigraphs, negative or non-finite weights, and nstart/dangling dicts that sum to 0.",
    "triangles": "Per-node counts from two masked plus.pair products (degree-sorted).",
    "minimum_spanning_tree": "Borůvka with contraction on (weight, position in G.edges()) keys: Kruskal's forest "
                             "exactly, ties included; prim and boruvka only with distinct weights. Declines "
                             "multigraphs, node attributes, non-numeric or uneven edge data, Graph subclasses.",
    "betweenness_centrality": "Batched Brandes (plus.first products forward, dependency products backward); k "
                              "samples networkx's sources from the same seed. Declines weight.",
    "louvain_communities": "Louvain in parallel rounds (plus.times with the community indicator, argmax, Up/Down "
                           "label rounds, vertex dropping): a partition as good, not networkx's for the same "
                           "seed. Declines directed graphs, multigraphs, negative or NaN weights.",
    "modularity": "Products with the community indicator, networkx's formula. Declines directed graphs, "
                  "multigraphs, negative or NaN weights, and graphs of total weight 0.",
    "kernighan_lin_bisection": "Kernighan-Lin passes on the engine (gains by one product per pass): a valid "
                               "bisection from another random stream than networkx's, ties broken by node "
                               "order. Declines multigraphs, callable and negative weights.",
    # structure
    "core_number": "Cores by parallel peeling rounds (plus.pair products with each round's vertices), "
                   "Batagelj-Zaversnik's values.",
    "k_core": "Core numbers by peeling; the subgraph rebuilt in networkx's order. Declines node attributes, "
              "non-numeric or uneven edge attributes and Graph subclasses.",
    "k_shell": "As k_core.",
    "k_crust": "As k_core.",
    "k_corona": "As k_core; the neighbour counts by one plus.pair product.",
    "k_truss": "Edge supports by masked plus.pair products (C<C> = C C), rounds until stable. Declines as k_core.",
    "onion_layers": "The peeling rounds are the layers, in networkx's order.",
    "topological_generations": "In-degree rounds (plus.pair products), networkx's order within each generation. "
                               "A converted snapshot: changes to G during the iteration are not seen.",
    "topological_sort": "As topological_generations.",
    "lexicographical_topological_sort": "networkx's heap, sequential, over the adjacency arrays with the engine's "
                                        "in-degrees.",
    "is_directed_acyclic_graph": "In-degree rounds.",
    "has_cycle": "In-degree rounds.",
    "dag_longest_path": "max.plus products per generation, networkx's tie-breaks. Declines multigraphs whose "
                        "parallel edges weigh differently, topo_order iterators and non-topological orders.",
    "dag_longest_path_length": "As dag_longest_path.",
    "transitive_closure_dag": "Closure rows by any.pair products per generation; the added edges are listed by "
                              "node (networkx's follow a set). Declines as k_core, and multigraphs.",
    "transitive_reduction": "A<!(A any.pair R)> with the closure R; networkx's set order replayed.",
    "is_aperiodic": "The engine's BFS levels and a gcd over the edges.",
    "is_bipartite": "Multi-source BFS levels from networkx's roots; conflicts by masked any.pair products.",
    "color": "As is_bipartite; nodes with edges in G's order, then the isolated ones (networkx lists its search "
             "order).",
    "sets": "As color.",
    "is_bipartite_node_set": "As color, per component.",
    "articulation_points": "Hopcroft-Tarjan, sequential, over the adjacency arrays: networkx's order.",
    "biconnected_components": "Hopcroft-Tarjan, sequential, over the adjacency arrays: networkx's order.",
    "biconnected_component_edges": "Hopcroft-Tarjan, sequential, over the adjacency arrays: networkx's order.",
    "is_biconnected": "Hopcroft-Tarjan, sequential, over the adjacency arrays.",
    "bridges": "Low points of the Hopcroft-Tarjan search, in G.edges() order. Declines multigraphs with parallel "
               "edges, and multigraphs with a root.",
    "has_bridges": "As bridges.",
    "local_bridges": "Edges on no triangle (masked plus.pair product); spans by batched min.plus rounds. Declines "
                     "callable weights, negative or NaN weights.",
    "isolates": "Degree reductions.",
    "is_isolate": "The adjacency arrays. Declines n not in G.",
    "number_of_isolates": "Degree reductions.",
    "number_of_selfloops": "The entries of select(A, diag). Declines multigraphs with parallel edges.",
    "condensation": "Strong components from the engine; declines scc=None unless the condensation is a chain "
                    "(networkx numbers components in its Tarjan order).",
    "attracting_components": "Strong components of height 0, in the backend's strongly_connected_components order.",
    "number_attracting_components": "Strong components from the engine.",
    "is_attracting_component": "Strong components from the engine.",
    "is_semiconnected": "Heights of the strong components (a chain iff all differ).",
    "label_propagation_communities": "Semi-synchronous rounds over networkx's greedy colour classes, counts by "
                                     "plus.pair products with the label indicator: networkx's communities. "
                                     "Declines multigraphs and self-loops.",
    "ego_graph": "BFS levels (SSSP with distance) from the engine; the subgraph in networkx's order. Declines as "
                 "k_core, multigraphs, and undirected=True with distance on a directed graph.",
    "complement": "C<!A.S> = true without the diagonal. Declines Graph subclasses.",
    "reverse": "The transposed adjacency. Declines copy=False, multigraphs, node or edge attributes.",
    "is_tree": "Component labels and edge counts. Declines multigraphs with parallel edges.",
    "is_forest": "Component labels and edge counts. Declines multigraphs with parallel edges.",
    "is_arborescence": "As is_tree, with the in-degrees.",
    "is_branching": "As is_forest, with the in-degrees.",
    "convert_node_labels_to_integers": "The relabelled graph in networkx's order (degree orderings from the "
                                       "engine's degrees). Declines multigraphs and attributes as k_core.",
    "compose": "Both graphs rebuilt in networkx's order. Declines multigraphs and attributes as k_core.",
    "disjoint_union": "Both graphs relabelled and rebuilt in networkx's order. Declines as compose.",
    "relabel_nodes": "A relabelled copy in networkx's order. Declines copy=False, multigraphs and attributes as "
                     "k_core.",
    "compose_all": "As compose; declines graphs given as an iterator.",
    "union": "As compose; the node sets must be disjoint.",
    "union_all": "As union; declines graphs given as an iterator.",
    "disjoint_union_all": "As disjoint_union; declines graphs given as an iterator.",
    # paths
    "shortest_path": "BFS (networkx's bidirectional search for a pair), Dijkstra or Bellman-Ford by method and "
                     "weights, as networkx dispatches. Declines callable weights and Dijkstra on negative weights.",
    "has_path": "networkx's bidirectional BFS, one any.pair product per level.",
    "average_shortest_path_length": "Engine connectivity check, then all-pairs distances in batches of sources "
                                    "(batched BFS, one SSSP per source or Floyd-Warshall) summed. Declines Dijkstra "
                                    "on negative weights and Floyd-Warshall on a negative cycle.",
    "all_shortest_paths": "Every path through the predecessor lists of predecessor, "
                          "dijkstra_predecessor_and_distance or bellman_ford_predecessor_and_distance.",
    "single_source_all_shortest_paths": "As all_shortest_paths, for every reached node.",
    "all_pairs_all_shortest_paths": "As single_source_all_shortest_paths, for every node.",
    "single_source_shortest_path": "BFS levels; networkx's paths and order rebuilt from the adjacency order.",
    "single_target_shortest_path": "BFS levels along reversed edges; networkx's paths and order.",
    "single_target_shortest_path_length": "BFS levels along reversed edges, in networkx's order.",
    "all_pairs_shortest_path": "One BFS per node, lazily; networkx's paths and order.",
    "bidirectional_shortest_path": "networkx's alternating two-sided BFS, one any.pair product per level; the "
                                   "meeting edge found in networkx's scan order (networkx's path).",
    "predecessor": "BFS levels; every predecessor one level nearer, in networkx's order.",
    "dijkstra_path": "Delta-stepping distances; networkx's path (first settled tight predecessor) rebuilt from "
                     "them. Declines callable and negative weights.",
    "single_source_dijkstra": "Delta-stepping distances; networkx's settle order and paths rebuilt from them. "
                              "Declines callable and negative weights.",
    "single_source_dijkstra_path": "As single_source_dijkstra.",
    "dijkstra_predecessor_and_distance": "As single_source_dijkstra; every tight predecessor in settle order.",
    "all_pairs_dijkstra": "One SSSP per node, lazily. Declines callable and negative weights.",
    "all_pairs_dijkstra_path": "One SSSP per node, lazily. Declines callable and negative weights.",
    "all_pairs_dijkstra_path_length": "One SSSP per node, lazily. Declines callable and negative weights.",
    "multi_source_dijkstra": "Delta-stepping from a super source joined to the sources; networkx's order and "
                             "paths. Declines callable and negative weights.",
    "multi_source_dijkstra_path": "As multi_source_dijkstra.",
    "multi_source_dijkstra_path_length": "As multi_source_dijkstra.",
    "bidirectional_dijkstra": "Delta-stepping distance; the path networkx's one-sided Dijkstra returns (networkx's "
                              "two-sided search may pick another of the same length). Declines callable and "
                              "negative weights.",
    "bellman_ford_path": "Bellman-Ford with parents (the engine's tight-edge BFS tree; networkx's queue order may "
                         "pick another path of the same length). Declines callable weights.",
    "single_source_bellman_ford": "As bellman_ford_path; dicts by (distance, node index).",
    "single_source_bellman_ford_path": "As single_source_bellman_ford.",
    "single_source_bellman_ford_path_length": "Bellman-Ford; dict by (distance, node index).",
    "bellman_ford_predecessor_and_distance": "Bellman-Ford; every tight predecessor, the tree parent first.",
    "all_pairs_bellman_ford_path": "One Bellman-Ford per node, lazily.",
    "all_pairs_bellman_ford_path_length": "One Bellman-Ford per node, lazily.",
    "goldberg_radzik": "Bellman-Ford with parents (the engine's shortest-path tree).",
    "negative_edge_cycle": "One Bellman-Ford from a super source joined to every node.",
    "johnson": "Bellman-Ford potentials, then networkx's Dijkstra order and paths on the reweighted lengths. "
               "Declines float reweightings that round below zero.",
    "floyd_warshall_predecessor_and_distance": "One SSSP with parents per source (the engine's shortest-path tree; "
                                               "networkx's pivot order may pick another path of the same length). "
                                               "Declines negative cycles.",
    "floyd_warshall_numpy": "min.plus closure as a dense float array in nodelist order. Declines negative cycles.",
    "astar_path": "heuristic=None only (a heuristic declines): networkx's Dijkstra path on delta-stepping "
                  "distances.",
    "astar_path_length": "heuristic=None only: the length of astar_path's path.",
    "bfs_predecessors": "As bfs_edges. Declines sort_neighbors.",
    "bfs_successors": "As bfs_edges. Declines sort_neighbors.",
    "descendants": "One BFS.",
    "ancestors": "One BFS along reversed edges.",
    "node_connected_component": "One BFS.",
    "edge_bfs": "BFS levels (over out-edges, in-edges or both by orientation) and networkx's queue order; each "
                "edge reported once, as networkx does. Declines multigraphs.",
    "bfs_labeled_edges": "BFS levels and queue order; labels from the levels. Declines multigraphs.",
    # generators
    **{name: "Builds a semiring.nx.Graph from NumPy arrays (edges in networkx's insertion order, so "
             "neighbours iterate as networkx's do). Declines create_using other than None, nx.Graph or "
             "nx.DiGraph, and node containers that are iterators or repeat a node." for name in (
        "empty_graph", "null_graph", "trivial_graph", "complete_graph", "path_graph", "cycle_graph", "star_graph",
        "wheel_graph", "ladder_graph", "circular_ladder_graph", "barbell_graph", "lollipop_graph", "tadpole_graph",
        "turan_graph", "complete_multipartite_graph", "complete_bipartite_graph", "caveman_graph")},
    **{name: "The fixed graph as data (nodes, edges in networkx's insertion order, weights and node and graph "
             "attributes), built into a semiring.nx.Graph." for name in (
        "karate_club_graph", "davis_southern_women_graph", "florentine_families_graph", "les_miserables_graph",
        "bull_graph", "chvatal_graph", "cubical_graph", "desargues_graph", "diamond_graph", "dodecahedral_graph",
        "frucht_graph", "heawood_graph", "house_graph", "house_x_graph", "icosahedral_graph",
        "krackhardt_kite_graph", "moebius_kantor_graph", "octahedral_graph", "petersen_graph",
        "sedgewick_maze_graph", "tetrahedral_graph", "truncated_cube_graph", "truncated_tetrahedron_graph",
        "tutte_graph", "pappus_graph")},
    # centrality, clustering, link analysis, link prediction
    "degree_centrality": "Row and column counts of the pattern. Declines multigraphs with parallel edges.",
    "in_degree_centrality": "Column counts of the pattern. Declines multigraphs with parallel edges.",
    "out_degree_centrality": "Row counts of the pattern. Declines multigraphs with parallel edges.",
    "eigenvector_centrality": "networkx's power iteration on A + I (plus.second or plus.times products with A'), "
                              "its stopping rule. Declines nstart dicts without exactly the graph's nodes.",
    "eigenvector_centrality_numpy": "ARPACK (networkx's eigs call) on engine products with A'. Declines multigraphs "
                                    "with parallel edges and graphs of 1 or 2 nodes.",
    "katz_centrality": "networkx's iteration x = alpha A' x + beta on engine products, its stopping rule. Declines "
                       "nstart dicts without exactly the graph's nodes.",
    "katz_centrality_numpy": "(I - alpha A') x = beta built on the engine, solved by a sparse LU factorization. "
                             "Declines singular systems.",
    "closeness_centrality": "Batched BFS (masked any.pair products) or Bellman-Ford (min.plus) from many sources, "
                            "row sums. Declines negative, NaN or infinite distances.",
    "harmonic_centrality": "Batched BFS or Bellman-Ford from the smaller of nbunch and sources, sums of 1/d under "
                           "a mask. Declines negative, NaN or infinite distances.",
    "edge_betweenness_centrality": "Batched Brandes; edge dependencies by masked plus.times products on the "
                                   "pattern. Declines weight and multigraphs (edge keys).",
    "betweenness_centrality_subset": "Batched Brandes with networkx's target-restricted accumulation. Declines "
                                     "weight.",
    "edge_betweenness_centrality_subset": "Batched Brandes with networkx's edge accumulation for subsets. Declines "
                                          "weight and multigraphs (edge keys).",
    "hits": "ARPACK (networkx's svds call) on engine products with A and A'. Declines multigraphs with parallel "
            "edges.",
    "google_matrix": "networkx's dense matrix from the engine's adjacency. Declines multigraphs with parallel edges "
                     "and a nodelist that is not every node once.",
    "clustering": "diag(S^3) by a masked product (S = A, A + A', or cube roots of the normalized weights), "
                  "networkx's denominators.",
    "average_clustering": "The mean of clustering.",
    "transitivity": "Triangle count (undirected) or successor wedges (directed) by masked plus.pair products.",
    "square_clustering": "Common successors by a masked plus.pair product over the two-hop pattern.",
    "generalized_degree": "Common neighbours per edge by a masked plus.pair product.",
    "reciprocity": "A .* A' and the degrees.",
    "overall_reciprocity": "nvals(offdiag(A .* A')) / nvals(A).",
    "average_neighbor_degree": "One plus.times product of the adjacency with the target degrees. Declines "
                               "multigraphs with parallel edges or weights, and a single node.",
    "average_degree_connectivity": "As average_neighbor_degree, grouped by source degree.",
    "jaccard_coefficient": "Common neighbours by a plus.pair product masked to the requested pairs.",
    "adamic_adar_index": "A plus.first product of the pattern scaled by 1/log(degree), masked to the pairs.",
    "resource_allocation_index": "A plus.first product of the pattern scaled by 1/degree, masked to the pairs.",
    "preferential_attachment": "Degree products.",
    "common_neighbor_centrality": "Common neighbours (masked plus.pair) and hop counts (batched BFS from the "
                                  "pairs' first nodes).",
    "cn_soundarajan_hopcroft": "Common neighbours and those inside the shared community by plus.pair products "
                               "masked to the pairs (the community node attribute held by the converted graph).",
    "ra_index_soundarajan_hopcroft": "A plus.first product of the intra-community pattern scaled by 1/degree, "
                                     "masked to the pairs.",
    "within_inter_cluster": "Common neighbours inside and outside the shared community by masked plus.pair "
                            "products.",
    "group_degree_centrality": "The group's neighbours by one any.pair product masked to leave it out.",
    "group_in_degree_centrality": "As group_degree_centrality on A'.",
    "group_out_degree_centrality": "As group_degree_centrality on A.",
    "group_closeness_centrality": "A BFS (or min.plus Bellman-Ford) from the whole group at once. Declines "
                                  "negative, NaN or infinite weights.",
    "trophic_levels": "(I - P) z = 1 built on the engine (P = in-weights normalized), solved by a sparse LU "
                      "factorization; reachability from the basal nodes by a multi-source BFS. Declines "
                      "multigraphs with parallel edges.",
    "trophic_differences": "trophic_levels over the edges.",
    "trophic_incoherence_parameter": "The standard deviation of trophic_differences.",
    "newman_betweenness_centrality": "load_centrality: batched BFS levels with Newman's even split over the "
                                     "shortest-path in-edges (plus.pair and plus.first products). Declines weight.",
    "edge_load_centrality": "As load_centrality, on both orientations of each shortest-path edge. Declines "
                            "multigraphs.",
    "local_reaching_centrality": "One BFS; 1/d summed level by level in networkx's order. Declines weight "
                                 "(after networkx's checks of it) and given paths.",
    "global_reaching_centrality": "Batched BFS from every node. Declines weight (after networkx's "
                                  "checks of it).",
}


def default_device(environ=os.environ):
    """The device at startup: ``SEMIRING_NX_DEVICE`` if set (cpu, gpu or auto), else "cpu"."""
    device = environ.get("SEMIRING_NX_DEVICE", "cpu") or "cpu"
    if device not in DEVICES:
        raise ValueError(f"SEMIRING_NX_DEVICE must be one of {DEVICES}; given {device!r}")
    return device


def get_info():
    """The backend's metadata, as networkx's ``networkx.backend_info`` entry point expects.

    Returns
    -------
    dict
        ``backend_name``, ``project``, ``package``, ``url``, ``short_summary``, ``functions``
        (dispatch name -> ``{"additional_docs": ...}``) and ``default_config`` (a networkx
        ``Config`` with ``device`` and ``cache_warning``).
    """
    return {
        "backend_name": "semiring",
        "project": "semiring",
        "package": "semiring",
        "url": "https://github.com/semiring/semiring",
        "short_summary": "GraphBLAS-style semiring engine (NumPy/SciPy on the CPU, CuPy on NVIDIA GPUs).",
        "functions": {name: {"additional_docs": f"{_SHARED} {doc}"} for name, doc in FUNCTIONS.items()},
        "default_config": make_config(default_device()),
    }


#: networkx's UserWarning on every call that reuses a conversion cached on the networkx graph,
#: for this backend (``networkx.utils.backends``, ``_convert_graph``)
CACHE_WARNING = r"Note: conversions to backend graphs are saved to cache[\s\S]*for the 'semiring' backend"


def show_cache_warning(show):
    """Show (True) or hide (False) networkx's cache UserWarning for ``semiring`` conversions only.

    Hiding adds one ``warnings`` filter that matches that message for this backend alone (other
    backends' warnings, and every other warning, are untouched); showing removes it.
    """
    import warnings

    def ours(f):
        return f[0] == "ignore" and getattr(f[1], "pattern", None) == CACHE_WARNING

    if show:
        if any(ours(f) for f in warnings.filters):
            warnings.filters[:] = [f for f in warnings.filters if not ours(f)]
            getattr(warnings, "_filters_mutated", lambda: None)()
    elif not any(ours(f) for f in warnings.filters):
        warnings.filterwarnings("ignore", message=CACHE_WARNING, category=UserWarning,
                                module=r"networkx\.utils\.backends")


def make_config(device="cpu", cache_warning=False):
    """A networkx ``Config`` holding the backend's settings (``device``, ``cache_warning``),
    validated on assignment.

    The class is made on first use: importing ``networkx.utils.configs`` at module level would
    import networkx from inside its own import when networkx loads this entry point first.
    """
    global SemiringConfig
    if SemiringConfig is None:
        from networkx.utils.configs import Config

        class SemiringConfig(Config):  # noqa: F811 (made once, kept as the module's name for pickle)
            """Settings of the ``semiring`` networkx backend.

            Parameters
            ----------
            device : {"cpu", "gpu", "auto"}
                Where converted graphs live: "cpu" (NumPy/SciPy), "gpu" (CuPy; conversion raises
                ``semiring.BackendUnavailable`` without a usable GPU) or "auto" (the GPU where one
                can be used, else the CPU).
            cache_warning : bool
                networkx keeps a graph's conversion in ``G.__networkx_cache__`` (cleared by every
                change made through the graph's methods) and warns, at each call that reuses it,
                that edge data changed in place (``G[u][v]["weight"] = x``) is not seen. False
                (the default) hides that warning for this backend's conversions; True shows it.
                After changing edge data in place, call ``G.__networkx_cache__.clear()``.
            """

            device: str
            cache_warning: bool

            def _on_setattr(self, key, value):
                if key == "device" and value not in DEVICES:
                    raise ValueError(f"nx.config.backends.semiring.device must be one of {DEVICES}; "
                                     f"given {value!r}")
                if key == "cache_warning":
                    if not isinstance(value, bool):
                        raise TypeError(f"nx.config.backends.semiring.cache_warning must be True or False; "
                                        f"given {value!r}")
                    show_cache_warning(value)
                return value

    return SemiringConfig(device=device, cache_warning=cache_warning)


#: The config class (made by :func:`make_config`).
SemiringConfig = None
