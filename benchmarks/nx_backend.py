"""The networkx backend against networkx itself (``python -m benchmarks run --suite networkx``).

Graphs (full size): ``gnm-1M``, ``nx.gnm_random_graph(200_000, 1_000_000, seed=0)`` with an integer
``weight`` 1..255 on every edge (a hash of the node pair); ``NY roads``, the DIMACS file
``roads/USA-road-t.NY.gr.gz`` read as a networkx Graph (travel times as ``weight``); for the
functions of directed graphs, the same two as DiGraphs (``gnm_random_graph(..., directed=True)``
and the file's arcs). ``--size tiny``: a 20,000-node, 100,000-edge gnm graph and a 100 x 100 grid.

Two tables:

- **conversion**: seconds per million edges (networkx's count: an undirected edge once) of
  ``semiring.nx.from_networkx`` pattern-only (no attribute asked for) and weighted (``weight``),
  next to networkx's own ``to_scipy_sparse_array`` (pattern and weighted) as a yardstick; median of
  :data:`CONVERSION_REPEAT` runs;
- **functions**: for every function the backend dispatches (``semiring.nx.backend.FUNCTIONS``), the
  median seconds of networkx (``backend="networkx"``), of the backend's first call on a graph
  whose cache was cleared (the conversion included) and of its warm calls (the converted graph
  taken from networkx's cache), with the speedups. Each backend result is checked against
  networkx's (:data:`SPECS` says how: equal, close, the same partition, or valid where the
  answer depends on a random stream). A networkx call runs within :data:`NX_BUDGET_S` seconds (a
  timer interrupts it): past that, the cell reads "> budget" and the backend's result is checked
  by its own validity check where the spec has one. A function without a call spec (one added
  after this table) is listed as "not timed", with why.
"""

from __future__ import annotations

import itertools
import os
import signal
import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from .timing import median

#: Runs of each conversion (median).
CONVERSION_REPEAT = 3
#: Warm backend calls timed per function and graph (median), and networkx calls at most.
REPEAT = 3
#: Seconds one networkx call may take before it is interrupted (per function: ``Spec.budget_s``).
NX_BUDGET_S = 120.0
#: networkx calls are repeated only while one takes less than this many seconds.
REPEAT_BELOW_S = 3.0


class OverBudget(Exception):
    """A networkx call passed its time budget."""


class Invalid(Exception):
    """A backend result differs from networkx's (or is not valid)."""


# -- graphs --------------------------------------------------------------------------------------------
def _pair_weights(u, v, n):
    """Integer weights 1..255 of the node pairs (u, v): a splitmix64 hash of the unordered pair."""
    lo, hi = np.minimum(u, v).astype(np.uint64), np.maximum(u, v).astype(np.uint64)
    x = lo * np.uint64(n) + hi + np.uint64(0x9E3779B97F4A7C15)
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    x = x ^ (x >> np.uint64(31))
    return ((x % np.uint64(255)).astype(np.int64) + 1).tolist()


def gnm(n, m, *, directed=False):
    """``nx.gnm_random_graph(n, m, seed=0)`` with an integer ``weight`` 1..255 per edge."""
    import networkx as nx

    G = nx.gnm_random_graph(n, m, seed=0, directed=directed)
    edges = list(G.edges())
    u = np.fromiter((a for a, _ in edges), np.int64, len(edges))
    v = np.fromiter((b for _, b in edges), np.int64, len(edges))
    for (a, b), w in zip(edges, _pair_weights(u, v, n)):
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


# -- checks -----------------------------------------------------------------------------------------------
def equal(got, want, G=None):
    if got != want:
        raise Invalid(_first_difference(got, want))


def _first_difference(got, want):
    if isinstance(got, dict) and isinstance(want, dict):
        if got.keys() != want.keys():
            return f"keys differ ({len(got)} against {len(want)})"
        k = next(k for k in want if got[k] != want[k])
        return f"at {k!r}: {got[k]!r}, networkx {want[k]!r}"
    if isinstance(got, list) and isinstance(want, list) and len(got) == len(want):
        i = next(i for i, (a, b) in enumerate(zip(got, want)) if a != b)
        return f"item {i}: {got[i]!r}, networkx {want[i]!r}"
    return f"{str(got)[:80]}, networkx {str(want)[:80]}"


def close(tol=1e-6):
    def check(got, want, G=None):
        if got.keys() != want.keys():
            raise Invalid(f"keys differ ({len(got)} against {len(want)})")
        worst = max((abs(got[k] - want[k]) / max(1.0, abs(want[k])) for k in want), default=0.0)
        if not worst <= tol:
            raise Invalid(f"largest difference {worst:.3g} > {tol} (relative to values above 1)")
    return check


def hits_vectors(tol=1e-6):
    """HITS hubs and authorities: networkx's within ``tol``, or, where the top singular value of
    the adjacency matrix is repeated (a bipartite graph such as a grid: networkx's answer then
    depends on ARPACK's random start), any normalized top singular pair of the same value: the
    hubs ``A a`` and the authorities proportional to ``A^T h``."""
    def check(got, want, G):
        try:
            close(tol)(got, want)
            return
        except Invalid as exc:
            differ = exc
        import networkx as nx

        nodes = list(G)
        A = nx.to_scipy_sparse_array(G, nodelist=nodes, dtype=float)
        h, a = (np.array([got[(k, v)] for v in nodes]) for k in ("h", "a"))
        a_nx = np.array([want[("a", v)] for v in nodes])
        sigma, sigma_nx = (np.linalg.norm(A @ x) / np.linalg.norm(x) for x in (a, a_nx))
        hub = A @ a
        auth = A.T @ h
        if not (abs(sigma - sigma_nx) <= tol * sigma_nx and np.allclose(hub / hub.sum(), h, rtol=0, atol=tol)
                and np.allclose(auth / auth.sum(), a, rtol=0, atol=tol)):
            raise differ
    return check


def _w(G, u, v):
    return G._adj[u][v].get("weight", 1)


def dists_of(paths, G):
    """{node: length} of a dict of shortest paths that share prefixes (a shortest-path tree)."""
    d = {}
    for p in paths.values():
        i = len(p) - 1
        while i >= 0 and p[i] not in d:
            i -= 1
        if i < 0:
            d[p[0]], i = 0, 0
        acc = d[p[i]]
        for j in range(i + 1, len(p)):
            acc += _w(G, p[j - 1], p[j])
            d[p[j]] = acc
    return d


def path_tree(got, dist, G):
    """``got`` ({node: path}) is a tree of shortest paths for the distances ``dist``: the same
    nodes, each path its last hop's tail's path plus the node, that hop tight."""
    if got.keys() != dist.keys():
        raise Invalid(f"keys differ ({len(got)} against {len(dist)})")
    for v, p in got.items():
        if len(p) == 1:
            if dist[v] != 0:
                raise Invalid(f"the path to {v!r} is one node at distance {dist[v]}")
            continue
        u = p[-2]
        if p[:-1] != got[u] or dist[u] + _w(G, u, v) != dist[v]:
            raise Invalid(f"the path to {v!r} is not a shortest path")


def lengths_and_paths(got, want, G):
    """(distances, paths): the same distances; the paths any tree of shortest paths (networkx
    does not say which of equally short paths it returns)."""
    equal(got[0], want[0])
    path_tree(got[1], want[0], G)


def paths_only(got, want, G):
    path_tree(got, dists_of(want, G), G)


def first_path_trees(got, want, G):
    if [v for v, _ in got] != [v for v, _ in want]:
        raise Invalid("other sources")
    for (_, a), (_, b) in zip(got, want):
        paths_only(a, b, G)


def one_path(got, want, G):
    """A path between the same ends of the same length."""
    if got[0] != want[0] or got[-1] != want[-1]:
        raise Invalid(f"ends {got[0]!r}, {got[-1]!r}; networkx {want[0]!r}, {want[-1]!r}")
    a, b = (sum(_w(G, u, v) for u, v in zip(p, p[1:])) for p in (got, want))
    if a != b:
        raise Invalid(f"length {a}, networkx {b}")


def pred_lists(got, want, G):
    """(pred, dist): the same distances and the same tight predecessors of each node (in any order)."""
    equal(got[1], want[1])
    if got[0].keys() != want[0].keys():
        raise Invalid("pred keys differ")
    bad = [v for v in want[0] if set(got[0][v]) != set(want[0][v])]
    if bad:
        raise Invalid(f"pred[{bad[0]!r}] = {got[0][bad[0]]!r}, networkx {want[0][bad[0]]!r}")


def tight_pred(got, want, G):
    """(pred, dist) with one predecessor per node: the same distances, each pred a tight one."""
    pred, dist = got
    equal(dist, want[1])
    if pred.keys() != want[0].keys():
        raise Invalid("pred keys differ")
    bad = [v for v, u in pred.items() if (u is None) != (dist[v] == 0 and want[0][v] is None)
           or (u is not None and dist[u] + _w(G, u, v) != dist[v])]
    if bad:
        raise Invalid(f"pred[{bad[0]!r}] = {pred[bad[0]]!r} is not a tight predecessor")


def scalar(tol):
    """A number within ``tol`` of networkx's."""
    def check(got, want, G=None):
        close(tol)({0: got}, {0: want})
    return check


def same_parts(got, want, G=None):
    a, b = {frozenset(p) for p in got}, {frozenset(p) for p in want}
    if a != b:
        raise Invalid(f"{len(a)} parts, networkx {len(b)}; {len(a ^ b)} differ")


def same_edges(got, want, G=None):
    def edges(H):
        return {(frozenset((u, v)) if not H.is_directed() else (u, v)): d for u, v, d in H.edges(data=True)}
    if set(got) != set(want) or edges(got) != edges(want):
        raise Invalid(f"{got.number_of_edges()} edges, networkx {want.number_of_edges()}; edge sets differ")


def independent_and_maximal(got, want, G):
    s = set(got)
    if any(v in s for u in s for v in G[u] if v != u):
        raise Invalid("two nodes of the set are adjacent")
    if any(not any(v in s for v in G[u]) for u in G if u not in s):
        raise Invalid("a node outside the set has no neighbour in it: not maximal")


def partition_modularity(slack=0.02):
    """A partition of the nodes whose modularity is within ``slack`` of networkx's."""
    def check(got, want, G):
        import networkx as nx

        nodes = [v for p in got for v in p]
        if len(nodes) != len(set(nodes)) or set(nodes) != set(G):
            raise Invalid("not a partition of the nodes")
        q, qn = (nx.community.modularity(G, p, backend="networkx") for p in (got, want))
        if q < qn - slack:
            raise Invalid(f"modularity {q:.4f}, networkx {qn:.4f}")
    return check


def bisection(got, want, G):
    a, b = got
    if a & b or (a | b) != set(G) or abs(len(a) - len(b)) > 1:
        raise Invalid("not a balanced bisection of the nodes")


# -- the call specs ---------------------------------------------------------------------------------------
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
    return "no call spec in benchmarks.nx_backend.SPECS"


# -- timing ----------------------------------------------------------------------------------------------
def _alarm(seconds):
    def raise_over(signum, frame):
        raise OverBudget

    old = signal.signal(signal.SIGALRM, raise_over)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    return old


def _disarm(old):
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, old)


def timed(fn, budget_s=None):
    """(seconds, value) of ``fn()``; OverBudget when it runs past ``budget_s`` (a SIGALRM timer,
    which interrupts Python code between bytecodes)."""
    old = _alarm(budget_s) if budget_s else None
    try:
        t = time.perf_counter()
        out = fn()
        return time.perf_counter() - t, out
    finally:
        if old is not None:
            _disarm(old)


def conversion_rows(name, G):
    """Seconds per million edges of each conversion of G (median of CONVERSION_REPEAT)."""
    import networkx as nx

    from semiring.nx import from_networkx

    m = G.number_of_edges()
    ways = {
        "semiring pattern": lambda: from_networkx(G, device="cpu"),
        "semiring weighted": lambda: from_networkx(G, weights=["weight"], device="cpu"),
        "networkx to_scipy_sparse_array pattern": lambda: nx.to_scipy_sparse_array(G, weight=None,
                                                                                    backend="networkx"),
        "networkx to_scipy_sparse_array weighted": lambda: nx.to_scipy_sparse_array(G, weight="weight",
                                                                                     backend="networkx"),
    }
    rows = []
    for way, fn in ways.items():
        secs = [timed(fn)[0] for _ in range(CONVERSION_REPEAT)]
        rows.append({"table": "conversion", "kernel": "conversion", "graph": name, "system": way, "edges": m,
                     "seconds": median(secs), "runs_s": secs, "s_per_million_edges": median(secs) / (m / 1e6),
                     "status": "ok", "validated": True})
    return rows


def function_row(name, graph, G, P, spec, function):
    """Time ``name`` on G with networkx and the backend (first call and warm); check the results."""
    args, kwargs = spec.call(G, P)
    row = {"table": "functions", "function": name, "kernel": name, "system": "semiring", "graph": graph,
           "status": "ok", "note": spec.note}

    def call(backend):
        return spec.consume(function(G, *args, backend=backend, **kwargs))

    # networkx: up to REPEAT calls while one takes less than REPEAT_BELOW_S
    nx_s, want = [], None
    try:
        for _ in range(REPEAT):
            s, want = timed(lambda: call("networkx"), spec.budget_s)
            nx_s.append(s)
            if s > REPEAT_BELOW_S:
                break
    except OverBudget:
        nx_s, want = None, None
        row["note"] = "; ".join(x for x in (row["note"], f"networkx past its {spec.budget_s:.0f} s budget") if x)
    except Exception as exc:  # noqa: BLE001 - networkx refuses this graph: the backend must refuse it alike
        return _both_raise(row, exc, lambda: call("semiring"))
    # the backend's first call: the graph's cache cleared, so the conversion is in the time
    try:
        G.__networkx_cache__.clear()
        first_s, got = timed(lambda: call("semiring"))
        warm = []
        for _ in range(REPEAT):
            s, got = timed(lambda: call("semiring"))
            warm.append(s)
            if s > REPEAT_BELOW_S:
                break
    except NotImplementedError as exc:
        row.update(status="declined", note=str(exc)[:300], nx_s=median(nx_s) if nx_s else None)
        return row
    except Exception as exc:  # noqa: BLE001 - a benchmark reports what went wrong
        row.update(status="error", note=f"{type(exc).__name__}: {exc}"[:300])
        return row
    row.update(nx_s=median(nx_s) if nx_s else None, nx_runs_s=nx_s, first_s=first_s, warm_s=median(warm),
               warm_runs_s=warm)
    try:
        if want is not None:
            spec.check(got, want, G)
            row["validated"] = True
        elif spec.valid_alone:
            spec.check(got, None, G)
            row["validated"] = True
        else:
            row.update(validated=False, status="not checked")
    except Invalid as exc:
        row.update(validated=False, status="validation failed", note=str(exc)[:300])
    if row.get("nx_s"):
        row["speedup_first"] = row["nx_s"] / first_s
        row["speedup_warm"] = row["nx_s"] / row["warm_s"]
    return row


def _both_raise(row, exc, backend_call):
    """The row of a call networkx answers with an exception: valid when the backend raises the
    same exception type."""
    why = f"networkx raises {type(exc).__name__}"
    try:
        backend_call()
    except Exception as mine:  # noqa: BLE001
        same = type(mine) is type(exc)
        row.update(status="ok" if same else "validation failed", validated=same,
                   note=f"{why}; the backend raises {type(mine).__name__}")
        return row
    row.update(status="validation failed", validated=False, note=f"{why}; the backend returns a value")
    return row


def run(size, ctx, deadline, progress):
    """The conversion table and the function table. Returns (graphs_info, rows, notes)."""
    import networkx as nx

    from semiring.nx.backend import FUNCTIONS

    registered = nx.utils.backends._registered_algorithms
    info, rows, notes = [], [], []
    specs = graph_specs(size, ctx.data_dir)
    names = sorted(FUNCTIONS)
    for name in names:
        if name not in SPECS:
            rows.append({"table": "functions", "function": name, "kernel": name, "system": "semiring", "graph": "—",
                         "status": "not timed", "note": _why_untimed(name, registered[name])})
    kinds = [k for k in ("undirected", "directed", "dag") if any(_kind(SPECS[n]) == k for n in names if n in SPECS)]
    for graph, (make, make_directed, about) in specs.items():
        for kind in kinds:
            label = graph + ("" if kind == "undirected" else f" ({kind if kind == 'directed' else 'DAG'})")
            try:
                t = time.perf_counter()
                G = make() if kind == "undirected" else make_directed()
                if kind == "dag":
                    G = dag(G)
                build_s = time.perf_counter() - t
            except FileNotFoundError as exc:
                notes.append(f"{label}: skipped, {exc}")
                continue
            info.append({"name": label, "about": about + {"undirected": "", "directed": " (directed)",
                                                           "dag": " (directed, the edges u -> v with u < v)"}[kind],
                         "n": G.number_of_nodes(), "nvals": G.number_of_edges(),
                         "kind": "undirected" if kind == "undirected" else "directed", "load_s": build_s})
            if kind == "undirected":
                rows += conversion_rows(label, G)
                progress.step(f"{label}: conversion")
            P = picks(G)
            for name in names:
                spec = SPECS.get(name)
                if spec is None or _kind(spec) != kind:
                    continue
                if deadline.left() <= 0:
                    rows.append({"table": "functions", "function": name, "graph": label, "status": "skipped",
                                 "note": "suite time budget spent"})
                    continue
                rows.append(function_row(name, label, G, P, spec, public(name)))
                progress.step(f"{label} {name}: {rows[-1]['status']}")
            del G
    notes.append("first call: networkx's cache on the graph cleared before the call, so the conversion is "
                 "timed with it; warm: the same call again, the converted graph taken from networkx's cache")
    notes.append(f"networkx runs at most {REPEAT} times, the backend once cold and at most {REPEAT} times warm "
                 f"(each once a call takes over {REPEAT_BELOW_S:.0f} s); medians")
    return info, rows, notes


#: the method paragraph of the report
METHOD = ("Method: wall-clock seconds (time.perf_counter) of the whole call as a user makes it, through "
          "networkx's dispatcher (backend=\"networkx\" or backend=\"semiring\"), results consumed inside the "
          "timing (generators listed); medians. Conversions: semiring.nx.from_networkx (what the dispatcher's "
          "convert_from_nx runs) pattern-only and with the weight attribute, and networkx's own "
          "to_scipy_sparse_array as a yardstick; seconds per million edges as networkx counts them. Every "
          "backend result is checked against networkx's answer (see the valid column).")


# -- tables ----------------------------------------------------------------------------------------------
def _s(x):
    if x is None:
        return "—"
    return f"{x:.3f}" if x < 10 else f"{x:.1f}"


def _x(x):
    return "—" if x is None else f"{x:.2f}x"


def table(rows):
    """Markdown lines: the conversion table, then the function table."""
    conv = [r for r in rows if r["table"] == "conversion"]
    out = ["", "## Conversion: networkx graph to the engine, seconds per million edges (median)", "",
           "| graph | edges | way | seconds | s per million edges |", "|---|---|---|---|---|"]
    out += [f"| {r['graph']} | {r['edges']:,} | {r['system']} | {_s(r['seconds'])} | {r['s_per_million_edges']:.3f} |"
            for r in conv]
    fun = [r for r in rows if r["table"] == "functions"]
    out += ["", "## Functions: networkx against the backend (median seconds)", "",
            "first: the backend's call with the conversion; warm: the converted graph from networkx's cache. "
            "Speedups are networkx's time over the backend's.", "",
            "| function | graph | networkx s | first s | warm s | first speedup | warm speedup | valid | note |",
            "|---|---|---|---|---|---|---|---|---|"]
    for r in sorted(fun, key=lambda r: (r["status"] == "not timed", r["function"], r["graph"])):
        valid = "yes" if r.get("validated") else ("—" if r["status"] in ("not timed", "skipped", "declined")
                                                   else "**NO**")
        nx_cell = _s(r.get("nx_s")) if r.get("nx_s") is not None else ("> budget" if r.get("first_s") else "—")
        status = "" if r["status"] == "ok" else r["status"]
        note = "; ".join(x for x in (status, r.get("note") or "") if x).replace("|", "/").replace("\n", " ")
        out.append(f"| {r['function']} | {r['graph']} | {nx_cell} | {_s(r.get('first_s'))} | {_s(r.get('warm_s'))} | "
                   f"{_x(r.get('speedup_first'))} | {_x(r.get('speedup_warm'))} | {valid} | {note} |")
    return out


def summary(rows):
    fun = [r for r in rows if r["table"] == "functions" and r.get("speedup_warm")]
    slower = sorted(f"{r['function']} ({r['graph']})" for r in fun if r["speedup_warm"] < 1)
    return (f"{len(fun)} function rows timed, warm slower than networkx: {', '.join(slower) or 'none'}; "
            f"{sum(1 for r in rows if r['status'] == 'not timed')} functions not timed")


__all__ = ["run", "table", "summary", "SPECS", "METHOD", "conversion_rows", "function_row", "gnm", "roads"]
