"""The networkx suite's graphs: networkx graphs with an integer ``weight`` on every edge.

Full size: ``gnm-1M`` (``nx.gnm_random_graph(200_000, 1_000_000, seed=0)``, weights 1..255 hashed
from the node pair by :func:`benchmarks.harness.graphs.pair_weights`) and ``NY roads`` (the DIMACS
file ``roads/USA-road-t.NY.gr.gz``, travel times as ``weight``), each also as a DiGraph and as the
DAG of its edges u -> v with u < v. ``--size tiny``: a 20,000-node, 100,000-edge gnm graph and a
100 x 100 grid.
"""

from __future__ import annotations

import os

import numpy as np

from ...harness.graphs import pair_weights


def gnm(n, m, *, directed=False):
    """``nx.gnm_random_graph(n, m, seed=0)`` with an integer ``weight`` 1..255 per edge."""
    import networkx as nx

    G = nx.gnm_random_graph(n, m, seed=0, directed=directed)
    edges = list(G.edges())
    u = np.fromiter((a for a, _ in edges), np.int64, len(edges))
    v = np.fromiter((b for _, b in edges), np.int64, len(edges))
    for (a, b), w in zip(edges, pair_weights(u, v, n).tolist()):
        G._adj[a][b]["weight"] = w
    return G


def roads(data_dir, *, directed=False):
    """The DIMACS NY road network as a networkx (Di)Graph with travel times as ``weight``."""
    import networkx as nx

    import semiring as sr

    A = sr.io.read(os.path.join(data_dir, "roads", "USA-road-t.NY.gr.gz"))
    return nx.from_scipy_sparse_array(A.to_scipy(), create_using=nx.DiGraph if directed else nx.Graph,
                                      edge_attribute="weight")


def dag(D):
    """The directed acyclic graph of D's edges u -> v with u < v (every node kept)."""
    import networkx as nx

    out = nx.DiGraph()
    out.add_nodes_from(D)
    out.add_edges_from((u, v, d) for u, v, d in D.edges(data=True) if u < v)
    return out


def _kind(spec):
    return "dag" if spec.dag else ("directed" if spec.directed else "undirected")


def grid(k):
    import networkx as nx

    G = nx.convert_node_labels_to_integers(nx.grid_2d_graph(k, k))
    for u, v, d in G.edges(data=True):
        d["weight"] = 1 + (u * 31 + v * 17) % 9
    return G


def graph_specs(size, data_dir):
    """name -> (maker of the undirected graph, maker of the directed one, about)."""
    if size == "tiny":
        return {"gnm-100k": (lambda: gnm(20_000, 100_000), lambda: gnm(20_000, 100_000, directed=True),
                             "nx.gnm_random_graph(20_000, 100_000, seed=0), weight 1..255"),
                "grid-100": (lambda: grid(100), lambda: grid(100).to_directed(), "100 x 100 grid, weight 1..9")}
    return {"gnm-1M": (lambda: gnm(200_000, 1_000_000), lambda: gnm(200_000, 1_000_000, directed=True),
                       "nx.gnm_random_graph(200_000, 1_000_000, seed=0), weight 1..255 (hash of the pair)"),
            "NY roads": (lambda: roads(data_dir), lambda: roads(data_dir, directed=True),
                         "../shared/data/roads/USA-road-t.NY.gr.gz as a networkx Graph, travel times as weight")}
