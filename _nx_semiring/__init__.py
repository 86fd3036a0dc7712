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
