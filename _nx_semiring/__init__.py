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
        ``Config`` with ``device``).
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


def make_config(device="cpu"):
    """A networkx ``Config`` holding the backend's settings (``device``), validated on assignment.

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
            """

            device: str

            def _on_setattr(self, key, value):
                if key == "device" and value not in DEVICES:
                    raise ValueError(f"nx.config.backends.semiring.device must be one of {DEVICES}; "
                                     f"given {value!r}")
                return value

    return SemiringConfig(device=device)


#: The config class (made by :func:`make_config`).
SemiringConfig = None
