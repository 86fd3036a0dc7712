"""The systems of the CPU algorithm table: for each algorithm, what each library's user calls,
and how its result becomes the one host form that :mod:`benchmarks.suites.cpu_table.checks` compares.

Systems (columns of the table):

- ``semiring numpy`` and ``semiring suitesparse``: ``semiring.algorithms`` on a Graph of a
  Matrix stored by that CPU backend, called inside ``use_cpu_backend(backend)`` (entered outside
  the timed region) so the containers the algorithm makes are stored by it too;
- ``scipy``: ``scipy.sparse.csgraph`` where it has the algorithm; the power iteration written like
  networkx's ``_pagerank_scipy``; the triangle count ``sum(L .* (L L))``;
- ``python-graphblas``: the algorithm written directly (:mod:`benchmarks.peers.gb_direct`);
- ``graphblas-algorithms``: its functions on its own Graph (built fresh per row, like semiring's);
- ``networkx``: its own implementation (``backend="networkx"``: never a registered backend).

A library without the algorithm has no entry; one that is not installed raises
:class:`benchmarks.suites.cpu_table.graphs.Unavailable` when its system is built, and the row says so.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
import scipy.sparse.csgraph as csgraph

import semiring as sr
from semiring._bench.references import levels_from_tree
from semiring.backends._xp import asnumpy

from ...peers import gb_direct
from ...peers import host as peers
from ...peers import oracles as oracle
from ...peers.algorithms import _labels, _nx_call
from .checks import betweenness_scale, forest_edges
from .graphs import Unavailable, graphblas, graphblas_algorithms, networkx, semiring_backend

#: The table's columns, semiring's two backends first.
SYSTEMS = ("semiring numpy", "semiring suitesparse", "scipy", "python-graphblas", "graphblas-algorithms", "networkx")
#: The peers (the "best peer" is the fastest of these that validated).
PEERS = SYSTEMS[2:]


@dataclass
class System:
    """One library's call on one row.

    Attributes
    ----------
    name : str  a column of :data:`SYSTEMS`
    what : str  the call, as the report names it
    call : callable ``arg -> result``  (timed)
    answer : callable ``(result, arg) -> host answer``  (not timed)
    context : callable returning a context manager entered around the timed call, outside the clock
    """

    name: str
    what: str
    call: Callable[[Any], Any]
    answer: Callable[[Any, Any], Any]
    context: Callable = contextlib.nullcontext


def _dense(v, fill, dtype=None):
    out = oracle.host_vector(v, fill)
    return out.astype(dtype) if dtype is not None else out


def _gb_dense(v, fill, dtype=None):
    out = peers.gb_dense(v, fill)
    return out.astype(dtype) if dtype is not None else out


def _from_dict(n, d, fill, dtype):
    out = np.full(n, fill, dtype=dtype)
    if d:
        k = np.fromiter(d.keys(), dtype=np.int64, count=len(d))
        out[k] = np.fromiter(d.values(), dtype=dtype, count=len(d))
    return out


def _semiring(what, call, answer, weighted=False):
    """Both semiring systems: ``call(G, arg)`` on a fresh Graph of the backend's Matrix;
    ``answer(result, arg)``, or ``answer(H)`` returning it when ``answer`` needs the graph."""
    def make(H, backend):
        semiring_backend(backend)
        G = H.graph(backend, weighted)
        return System(f"semiring {backend}", what, lambda arg: call(G, arg), _bind(answer, H),
                      lambda: sr.backends.use_cpu_backend(backend))
    return make


def _scipy(what, call, answer=lambda r, _: r):
    """SciPy on the host copies: ``call(H, arg)``."""
    return lambda H: System("scipy", what, lambda arg: call(H, arg), answer)


def _gb(what, call, answer, weighted=False, transpose=False):
    """python-graphblas written directly: ``call(gb, A, arg)`` on the weights, the pattern, or
    the pattern's transpose."""
    def make(H):
        gb = graphblas()
        A = H.gb_transpose() if transpose else H.gb(weighted)
        return System("python-graphblas", what, lambda arg: call(gb, A, arg), answer)
    return make


def _ga(what, call, answer, weighted=False):
    """graphblas-algorithms: ``call(ga, G, arg)`` on a fresh graphblas-algorithms Graph."""
    def make(H):
        ga = graphblas_algorithms()
        G = H.ga(weighted)
        return System("graphblas-algorithms", what, lambda arg: call(ga, G, arg), answer)
    return make


def _networkx(what, call, answer):
    """networkx's own implementation on the graph built from SciPy: ``call(nx, G, arg)``
    (through ``_nx_call``); ``answer(H)`` returns the result's host form."""
    def make(H):
        nx = networkx()
        G = H.nx()
        return System("networkx", what, lambda arg: call(nx, G, arg), answer(H))
    return make


def _bind(answer, H):
    """``answer`` itself, or ``answer(H)`` for a factory marked ``needs_graph``."""
    return answer(H) if getattr(answer, "needs_graph", False) else answer


def _needs_graph(factory):
    factory.needs_graph = True
    return factory


def _nx_dict(fill, dtype):
    """A networkx dict {vertex: value} as a dense array."""
    return lambda H: lambda r, _: _from_dict(H.n, r, fill, dtype)


def _nx_sets(H):
    """networkx vertex sets (components, communities) as labels."""
    return lambda r, _: _labels(H.n, r)


def _vector(fill, dtype=None, attr=None):
    """A semiring result (or its ``attr``) as a dense host array."""
    return lambda r, _: _dense(getattr(r, attr) if attr else r, fill, dtype)


def _gb_vector(fill, dtype=None):
    """A python-graphblas Vector as a dense host array."""
    return lambda r, _: _gb_dense(r, fill, dtype)


def _count(r, _):
    return int(r)


# --------------------------------------------------------------------------------------------
# each algorithm: {system: factory}
# --------------------------------------------------------------------------------------------

def _bfs():
    alg = sr.algorithms
    return {
        "semiring": _semiring("bfs(G, s)", lambda G, s: alg.bfs(G, s), _vector(-1, np.int64, "level")),
        "scipy": _scipy("csgraph.breadth_first_order(return_predecessors=True)", lambda H, s: peers.scipy_bfs(H.S, s),
                        lambda r, s: levels_from_tree(r[0], r[1], s).astype(np.int64)),
        "python-graphblas": _gb("q<!v.S, replace> = q any.pair A per level", gb_direct.gb_bfs_levels,
                                _gb_vector(-1, np.int64)),
        "graphblas-algorithms": _ga("single_source_shortest_path_length(G, s)",
                                    lambda ga, G, s: ga.single_source_shortest_path_length(G, s),
                                    _gb_vector(-1, np.int64)),
        "networkx": _networkx("single_source_shortest_path_length(G, s)",
                              lambda nx, G, s: _nx_call(nx.single_source_shortest_path_length, G, s),
                              _nx_dict(-1, np.int64)),
    }


def _sssp():
    return {
        "semiring": _semiring("sssp(G, s)", lambda G, s: sr.algorithms.sssp(G, s),
                              _vector(np.inf, np.float64, "distance"), weighted=True),
        "scipy": _scipy("csgraph.dijkstra(indices=s)", lambda H, s: csgraph.dijkstra(H.Ws, directed=True, indices=s)),
        "python-graphblas": _gb("Bellman-Ford: d = min(d, d min.plus A) until fixed", gb_direct.gb_bellman_ford,
                                _gb_vector(np.inf), weighted=True),
        "graphblas-algorithms": _ga("single_source_bellman_ford_path_length(G, s)",
                                    lambda ga, G, s: ga.single_source_bellman_ford_path_length(G, s),
                                    _gb_vector(np.inf), weighted=True),
        "networkx": _networkx("single_source_dijkstra_path_length(G, s)",
                              lambda nx, G, s: _nx_call(nx.single_source_dijkstra_path_length, G, s, weight="weight"),
                              _nx_dict(np.inf, np.float64)),
    }


def _components(strong):
    conn = "strong" if strong else "weak"

    def semiring(G, _):  # looked up at call time, as a user's call is
        alg = sr.algorithms
        return alg.strongly_connected_components(G) if strong else alg.connected_components(G)

    def nx_call(nx, G, _):
        f = nx.strongly_connected_components if strong else (
            nx.weakly_connected_components if G.is_directed() else nx.connected_components)
        return list(_nx_call(f, G))

    return {
        "semiring": _semiring("strongly_connected_components(G)" if strong else "connected_components(G)", semiring,
                              _vector(-1, np.int64)),
        "scipy": _scipy(f"csgraph.connected_components(connection='{conn}')",
                        lambda H, _: csgraph.connected_components(H.S, directed=True, connection=conn),
                        lambda r, _: r[1].astype(np.int64)),
        "networkx": _networkx("strongly_connected_components(G)" if strong else
                              "connected_components(G) (weakly_connected_components on a DiGraph)", nx_call, _nx_sets),
    }


def _pagerank():
    return {
        "semiring": _semiring("pagerank(G)", lambda G, _: sr.algorithms.pagerank(G), _vector(np.nan, np.float64)),
        "scipy": _scipy("power iteration (networkx's _pagerank_scipy)", lambda H, _: oracle.scipy_pagerank(H.S)),
        "python-graphblas": _gb("r = (1-a)/n + a/n sum(dangling r) + A' plus.second (a r ./ d)",
                                lambda gb, AT, _: gb_direct.pagerank(gb, AT), _gb_vector(np.nan), transpose=True),
        "graphblas-algorithms": _ga("pagerank(G)", lambda ga, G, _: ga.pagerank(G), _gb_vector(np.nan)),
        "networkx": _networkx("pagerank(G, weight=None)", lambda nx, G, _: _nx_call(nx.pagerank, G, weight=None),
                              _nx_dict(np.nan, np.float64)),
    }


def _triangles():
    return {
        "semiring": _semiring("triangle_count(G)", lambda G, _: sr.algorithms.triangle_count(G), _count),
        "scipy": _scipy("sum(L .* (L @ L)), L = tril(A, -1)", lambda H, _: oracle.scipy_triangles(H.S), _count),
        "python-graphblas": _gb("sum(C), C<L.S> = L plus.pair L",
                                lambda gb, A, _: gb_direct.triangle_count(gb, A), _count),
        "graphblas-algorithms": _ga("total_triangles(G)", lambda ga, G, _: ga.total_triangles(G), _count),
        "networkx": _networkx("sum(triangles(G).values()) / 3",
                              lambda nx, G, _: sum(_nx_call(nx.triangles, G).values()) // 3, lambda H: _count),
    }


def _forest():
    def from_scipy(T, _):
        C = T.tocoo()
        return forest_edges(C.row, C.col, C.data)

    def from_nx(edges, _):
        a = np.array([(u, v, d["weight"]) for u, v, d in edges], dtype=np.float64).reshape(-1, 3)
        return forest_edges(a[:, 0].astype(np.int64), a[:, 1].astype(np.int64), a[:, 2])

    return {
        "semiring": _semiring("minimum_spanning_forest(G)", lambda G, _: sr.algorithms.minimum_spanning_forest(G),
                              lambda F, _: forest_edges(*oracle.host_coo(F)), weighted=True),
        "scipy": _scipy("csgraph.minimum_spanning_tree", lambda H, _: csgraph.minimum_spanning_tree(H.Ws), from_scipy),
        "networkx": _networkx("minimum_spanning_edges(G, algorithm='kruskal')",
                              lambda nx, G, _: list(_nx_call(nx.minimum_spanning_edges, G, algorithm="kruskal",
                                                             weight="weight", data=True)), lambda H: from_nx),
    }


def _betweenness():
    @_needs_graph
    def semiring_raw(H):
        """semiring's normalized values back to raw sums (networkx's ``_rescale`` factors)."""
        def answer(r, sources):
            key = ("bc scale", tuple(sources))
            if key not in H.cache:
                H.cache[key] = betweenness_scale(H, sources)
            return _dense(r, np.nan, np.float64) / H.cache[key]
        return answer

    def nx_raw(H):
        """networkx's unnormalized subset sums count each undirected pair once: twice that."""
        factor = 1.0 if H.kind == "directed" else 2.0
        return lambda r, _: _from_dict(H.n, r, 0.0, np.float64) * factor

    return {
        "semiring": _semiring("betweenness_centrality(G, sources)",
                              lambda G, src: sr.algorithms.betweenness_centrality(G, sources=src), semiring_raw),
        "python-graphblas": _gb("batched Brandes (LAGr_Betweenness)", gb_direct.betweenness_raw, _gb_vector(0.0)),
        "networkx": _networkx("betweenness_centrality_subset(G, sources, all targets)",
                              lambda nx, G, src: _nx_call(nx.betweenness_centrality_subset, G, src, list(G),
                                                          normalized=False, weight=None), nx_raw),
    }


def _louvain():
    return {
        "semiring": _semiring("louvain(G)", lambda G, _: sr.algorithms.louvain(G), _vector(-1, np.int64)),
        "networkx": _networkx("community.louvain_communities(G, weight=None, seed=0)",
                              lambda nx, G, _: _nx_call(nx.community.louvain_communities, G, weight=None, seed=0),
                              _nx_sets),
    }


def _coloring():
    return {
        "semiring": _semiring("coloring(G)", lambda G, _: sr.algorithms.coloring(G), _vector(-1, np.int64)),
        "networkx": _networkx("greedy_color(G, strategy='largest_first')",
                              lambda nx, G, _: _nx_call(nx.greedy_color, G, strategy="largest_first"),
                              _nx_dict(-1, np.int64)),
    }


def _vxm():
    """``q<!visited.S> = f any.pair A``: the frontier f and the visited set of the row's case
    (``H.cache["vxm case"]``) in each system's containers."""
    anyp = sr.semirings.any_pair

    def semiring(H, backend):
        semiring_backend(backend)
        case = H.cache["vxm case"]
        A = H.matrix(backend)
        f, V = (sr.Vector.from_coo(case[k], True, size=H.n, backend=backend) for k in ("f_idx", "v_idx"))
        return System(f"semiring {backend}", "vxm(f, A, any_pair, mask=~visited.S)",
                      lambda _: sr.vxm(f, A, anyp, mask=~V.S), lambda r, _: tuple(asnumpy(x) for x in r.to_coo()),
                      lambda: sr.backends.use_cpu_backend(backend))

    def graphblas_vxm(H):
        gb = graphblas()
        case = H.cache["vxm case"]
        f, V = (gb.Vector.from_coo(case[k], True, size=H.n) for k in ("f_idx", "v_idx"))
        A = H.gb()
        return System("python-graphblas", "f.vxm(A, any_pair).new(mask=~visited.S)",
                      lambda _: gb_direct.masked_vxm(gb, f, A, V), lambda r, _: r.to_coo())

    return {"semiring": semiring, "python-graphblas": graphblas_vxm}


FACTORIES = {"bfs": _bfs, "sssp": _sssp, "connected_components": lambda: _components(False),
             "strongly_connected_components": lambda: _components(True), "pagerank": _pagerank,
             "triangle_count": _triangles, "minimum_spanning_forest": _forest,
             "betweenness_centrality": _betweenness, "louvain": _louvain, "coloring": _coloring,
             "masked_vxm": _vxm}


def build(algorithm, H):
    """The row's systems in :data:`SYSTEMS` order: ``[(name, System or reason)]``; a reason (str)
    says why the system cannot run here (its library is not installed). Systems whose library has
    no such algorithm are absent."""
    table = FACTORIES[algorithm]()
    out = []
    for name in SYSTEMS:
        key = "semiring" if name.startswith("semiring") else name
        if key not in table:
            continue
        try:
            out.append((name, table[key](H, name.split()[1]) if key == "semiring" else table[key](H)))
        except Unavailable as exc:
            out.append((name, str(exc)))
    return out
