"""networkx graphs to the engine and back: the conversion, networkx's cache, declined calls'
reasons, and the generators of the ``semiring`` backend.

Oracles: ``nx.to_scipy_sparse_array`` (networkx's own conversion, pinned to networkx) for the
matrices; networkx's iteration of ``G._adj`` / ``G._pred`` for the neighbour orders; the edge data
read with ``G.edges(data=True)`` for the backend's smallest-weight rule; networkx's generators
(``backend="networkx"``) for the generated graphs.
"""

from __future__ import annotations

import subprocess
import sys
import warnings

import networkx as nx
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import semiring as sr
from semiring.nx import from_networkx
from semiring.nx.backend import BackendInterface
from semiring.nx.nxapi import generators as gen
from _nxgraphs import NX, SR

CLASSES = [nx.Graph, nx.DiGraph, nx.MultiGraph, nx.MultiDiGraph]


# ---------------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------------
def scipy_of(G, weight=None, nodelist=None):
    """networkx's own conversion, as a dense array (bool pattern without weight)."""
    nodes = list(G) if nodelist is None else nodelist
    if not nodes:
        return np.zeros((0, 0))
    S = nx.to_scipy_sparse_array(G, nodelist=nodes, weight=weight, format="csr", backend="networkx",
                                 dtype=None if weight else np.int64)
    D = S.toarray()
    return D != 0 if weight is None else D


def dense(M):
    return M.to_dense(0)


def smallest_weights(G, attr, default=1):
    """{(u, v): the smallest ``attr`` of the edges u -> v (both ways when undirected)}, networkx's
    shortest-path rule: Python's min over the parallel edges, missing values weighing ``default``."""
    out = {}
    edges = G.edges(keys=True, data=True) if G.is_multigraph() else ((u, v, 0, d) for u, v, d in G.edges(data=True))
    for u, v, _, d in edges:
        w = d.get(attr, default)
        pairs = [(u, v)] if G.is_directed() else [(u, v), (v, u)]
        for p in pairs:
            out[p] = w if p not in out else min(out[p], w)
    return out


def matrix_dict(H, M):
    r, c, x = (np.asarray(a) for a in M.to_coo())
    return {(H.nodes[i], H.nodes[j]): w for i, j, w in zip(r.tolist(), c.tolist(), x.tolist())}


def orders_match(H, G):
    def lists(order):
        indptr, indices = order
        return [[H.nodes[j] for j in indices[indptr[i]:indptr[i + 1]].tolist()] for i in range(len(H.nodes))]

    assert lists(H.order) == [list(G._adj[u]) for u in G]
    if G.is_directed():
        assert lists(H.pred_order) == [list(G._pred[u]) for u in G]
    else:
        assert H.pred_order is None


def build_graph(cls, nodes, edges, weights, present):
    G = cls()
    G.add_nodes_from(nodes)
    for (u, v), w, p in zip(edges, weights, present):
        G.add_edge(u, v, **({"weight": w} if p else {}))
    return G


LABELS = {
    "range": lambda n: list(range(n)),
    "shuffled ints": lambda n: list(np.random.default_rng(n).permutation(n).tolist()),
    "sparse ints": lambda n: [7 * i - 3 * n for i in range(n)],
    "huge ints": lambda n: [2**62 + 11 * i for i in range(n)] if n % 2 else [10**30 + i for i in range(n)],
    "strings": lambda n: [f"v{i}" for i in range(n)],
    "tuples": lambda n: [(i % 3, f"t{i}") for i in range(n)],
    "mixed": lambda n: [i if i % 2 else f"s{i}" for i in range(n)],
}


@st.composite
def graphs(draw):
    cls = draw(st.sampled_from(CLASSES))
    n = draw(st.integers(0, 12))
    nodes = LABELS[draw(st.sampled_from(sorted(LABELS)))](n)
    k = draw(st.integers(0, 3 * n)) if n else 0
    ends = st.integers(0, max(n - 1, 0))
    edges = [(nodes[draw(ends)], nodes[draw(ends)]) for _ in range(k)]  # self-loops and repeats included
    kind = draw(st.sampled_from(["int", "float", "zeros"]))
    weights = [draw(st.integers(-5, 9)) if kind == "int" else draw(st.floats(-4, 4)) if kind == "float" else 0
               for _ in range(k)]
    present = [draw(st.booleans()) for _ in range(k)]
    return build_graph(cls, nodes, edges, weights, present)


# ---------------------------------------------------------------------------------------------
# the conversion against networkx's
# ---------------------------------------------------------------------------------------------
@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(graphs())
def test_io_conversion_equals_networkx_scipy(G):
    """sr.io.from_networkx: the pattern and the values (parallel edges summed, missing weights 1) as
    networkx's to_scipy_sparse_array gives them, rows in node order."""
    A, nodes = sr.io.from_networkx(G)
    assert nodes == list(G) and A.dtype == np.bool_
    assert np.array_equal(dense(A), scipy_of(G))
    W, _ = sr.io.from_networkx(G, weight="weight")
    assert np.allclose(dense(W), scipy_of(G, "weight"), equal_nan=True)
    assert W.nvals == A.nvals  # explicit zeros stay entries
    floats = any(isinstance(w, float) for _, _, w in G.edges(data="weight", default=1))
    assert W.dtype == (np.float64 if floats else np.int64)


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(graphs())
def test_backend_conversion_pattern_weights_and_orders(G):
    """semiring.nx.from_networkx: the pattern as networkx's, the smallest weight per node pair, and
    each node's neighbours in networkx's iteration order."""
    H = from_networkx(G, weights=["weight"], device="cpu")
    assert H.nodes == list(G) and all(H.index[v] == i for i, v in enumerate(G))
    assert np.array_equal(dense(H.A), scipy_of(G))
    orders_match(H, G)
    want = smallest_weights(G, "weight")
    if any("weight" in d for _, _, d in G.edges(data=True)):
        assert H.uniform_weight("weight") is None
        assert matrix_dict(H, H.weights["weight"].A) == want
    else:  # no edge has it: no matrix, every edge weighs 1
        assert "weight" not in H.weights and H.uniform_weight("weight") == 1
        assert matrix_dict(H, H.weighted("weight").A) == want
    assert H.number_of_edges() == nx.Graph(G).number_of_edges() if not G.is_directed() else True


@pytest.mark.parametrize("labels", sorted(LABELS))
@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_label_kinds_map_to_their_rows(labels, cls):
    n = 30
    nodes = LABELS[labels](n)
    rng = np.random.default_rng(1)
    edges = [(nodes[a], nodes[b]) for a, b in rng.integers(0, n, size=(80, 2)).tolist()]
    G = build_graph(cls, nodes, edges, list(range(80)), [True] * 80)
    H = from_networkx(G, weights=["weight"], device="cpu")
    assert np.array_equal(dense(H.A), scipy_of(G))
    assert matrix_dict(H, H.weights["weight"].A) == smallest_weights(G, "weight")
    orders_match(H, G)


def test_nodelist_order_and_graph_views():
    G = nx.gnm_random_graph(40, 120, seed=3, directed=True)
    for u, v, d in G.edges(data=True):
        d["weight"] = (u * 7 + v) % 5
    order = list(reversed(list(G)))
    W, nodes = sr.io.from_networkx(G, weight="weight", nodelist=order)
    assert nodes == order and np.array_equal(dense(W), scipy_of(G, "weight", order))
    for view in (G.subgraph(range(0, 40, 2)), G.reverse(copy=False), nx.restricted_view(G, [3, 4], [(0, 1)])):
        H = from_networkx(view, weights=["weight"], device="cpu")
        assert np.array_equal(dense(H.A), scipy_of(view))
        assert matrix_dict(H, H.weights["weight"].A) == smallest_weights(view, "weight")
        orders_match(H, view)
    M = nx.MultiGraph([(0, 1), (0, 1), (1, 2), (2, 2)])
    E = M.edge_subgraph([(0, 1, 1), (2, 2, 0)])  # node 1 keeps a neighbour whose keys are filtered out
    H = from_networkx(E, device="cpu")
    assert np.array_equal(dense(H.A), scipy_of(E))


def test_attribute_defaults_and_uniform_weights():
    G = nx.path_graph(4)
    H = from_networkx(G, weights=["weight", "cost"], defaults={"cost": 2.5}, device="cpu")
    assert H.weights == {} and H.uniform == {"weight": 1, "cost": 2.5}
    assert H.weighted("cost").A.dtype == np.float64 and set(dense(H.weighted("cost").A)[H.A.to_dense(False)]) == {2.5}
    assert H.weighted("weight").A.dtype == np.int64 and H.min_weight("cost") == 2.5
    with pytest.raises(NotImplementedError, match="holds edge attributes"):
        H.weighted("length")  # never asked for: not held
    G.add_edge(0, 1, cost=7)
    H = from_networkx(G, weights=["cost"], defaults={"cost": 2.5}, device="cpu")
    assert matrix_dict(H, H.weights["cost"].A) == smallest_weights(G, "cost", 2.5)
    D = nx.DiGraph([(0, 1), (1, 2)])
    H = from_networkx(D, weights=["weight"], device="cpu")
    assert matrix_dict(H, H.weighted("weight", reverse=True).A) == {(1, 0): 1, (2, 1): 1}


@pytest.mark.parametrize("bad", [True, "heavy", None, [1], 2**70])
def test_values_that_are_not_numbers(bad):
    G = nx.Graph()
    G.add_edge("a", "b", weight=1)
    G.add_edge("b", "c", weight=bad)
    with pytest.raises(sr.InvalidValue, match="'weight' must"):
        sr.io.from_networkx(G, weight="weight")
    with pytest.raises(NotImplementedError, match="'weight' must"):
        from_networkx(G, weights=["weight"], device="cpu")
    H = from_networkx(G, preserve_all=True, device="cpu")  # an attribute that is no weight is left out
    assert "weight" not in H.weights
    with pytest.raises(NotImplementedError, match="not a number"):
        from_networkx(nx.path_graph(3), weights=["weight"], defaults={"weight": "x"}, device="cpu")


def test_round_trip_keeps_nodes_edges_weights_and_graph_attributes():
    G = nx.DiGraph(name="g")
    G.add_nodes_from(["z", "y", ("t", 1)])
    G.add_edge("y", ("t", 1), weight=2.5, cost=3)
    G.add_edge(("t", 1), "z", weight=0.0, cost=4)
    back = BackendInterface.convert_to_nx(BackendInterface.convert_from_nx(G, preserve_edge_attrs=True))
    assert list(back) == list(G) and back.graph == G.graph and back._adj == G._adj


# ---------------------------------------------------------------------------------------------
# networkx's cache
# ---------------------------------------------------------------------------------------------
def test_reuse_shares_the_pattern_and_reads_only_new_attributes():
    G = nx.gnm_random_graph(50, 200, seed=1)
    for u, v, d in G.edges(data=True):
        d["weight"] = u + v
    P = BackendInterface.convert_from_nx(G)
    G.__networkx_cache__.setdefault("backends", {}).setdefault("semiring", {})[(False, False)] = P
    W = BackendInterface.convert_from_nx(G, edge_attrs={"weight": 1})
    assert W.structure is P.structure and W.order is P.order and W.index is P.index and W.nodes == P.nodes
    assert matrix_dict(W, W.weights["weight"].A) == smallest_weights(G, "weight")
    G.add_edge(*next(nx.non_edges(G)))  # networkx clears its cache: nothing to reuse
    assert not G.__networkx_cache__
    W2 = BackendInterface.convert_from_nx(G, edge_attrs={"weight": 1})
    assert W2.structure is not P.structure and W2.A.nvals == P.A.nvals + 2


def test_repeated_calls_hit_the_cache(monkeypatch):
    import semiring.nx.backend as backend

    calls = []
    real = backend.from_networkx
    monkeypatch.setattr(backend, "from_networkx", lambda *a, **k: calls.append(k.get("weights")) or real(*a, **k))
    G = nx.gnm_random_graph(60, 200, seed=2)
    with warnings.catch_warnings(record=True) as seen:
        first = nx.pagerank(G, **SR)
        assert nx.pagerank(G, **SR) == first and len(calls) == 1
    assert not [w for w in seen if "saved to cache" in str(w.message)]  # the cache hit is quiet
    assert list(nx.bfs_edges(G, 0, **SR)) == list(nx.bfs_edges(G, 0))  # a pattern-only call: same conversion
    assert len(calls) == 1
    G.add_edge(0, 59)
    nx.pagerank(G, **SR)
    assert len(calls) == 2


def test_no_cache_warning_for_this_backend_in_a_fresh_process():
    code = ("import networkx as nx, warnings\n"
            "G = nx.gnm_random_graph(50, 150, seed=1)\n"
            "for _ in range(3): nx.pagerank(G, backend='semiring')\n"
            "assert len(G.__networkx_cache__['backends']['semiring']) == 1\n"
            "nx.config.backends.semiring.cache_warning = True\n"
            "with warnings.catch_warnings(record=True) as w:\n"
            "    warnings.simplefilter('always')\n"
            "    nx.pagerank(G, backend='semiring')\n"
            "print(sum('saved to cache' in str(x.message) for x in w))\n")
    out = subprocess.run([sys.executable, "-W", "error::UserWarning", "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "1"  # shown once the config asks for it


def test_cache_warning_config_adds_and_removes_one_filter():
    import _nx_semiring

    cfg = nx.config.backends.semiring
    before = cfg.cache_warning
    try:
        cfg.cache_warning = False
        ours = [f for f in warnings.filters if getattr(f[1], "pattern", None) == _nx_semiring.CACHE_WARNING]
        assert len(ours) == 1
        assert ours[0][1].match("Note: conversions to backend graphs are saved to cache (...)\n\nThis warning means "
                                "the cached graph is being used for the 'semiring' backend in the call to x.")
        assert not ours[0][1].match("Note: conversions to backend graphs are saved to cache (...)\n\nThis warning "
                                    "means the cached graph is being used for the 'cugraph' backend")
        cfg.cache_warning = True
        assert not [f for f in warnings.filters if getattr(f[1], "pattern", None) == _nx_semiring.CACHE_WARNING]
        with pytest.raises(TypeError, match="True or False"):
            cfg.cache_warning = "no"
    finally:
        cfg.cache_warning = before


# ---------------------------------------------------------------------------------------------
# declined calls say why
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("call, words", [
    (lambda: nx.greedy_color(nx.petersen_graph(), strategy="DSATUR", **SR), "largest_first only"),
    (lambda: nx.dijkstra_path_length(nx.path_graph(3), 0, 2, weight=lambda u, v, d: 1, **SR), "callable weight"),
    (lambda: nx.complete_graph(3, create_using=nx.MultiGraph, **SR), "nx.Graph and nx.DiGraph"),
    (lambda: nx.path_graph(iter([1, 2]), **SR), "iterators"),
])
def test_the_reason_reaches_the_exception(call, words):
    with pytest.raises(NotImplementedError) as info:
        call()
    text = str(info.value)
    assert "not implemented by 'semiring' backend for the given arguments, because: " in text and words in text


def test_the_reason_is_in_networkx_debug_log_by_priority(caplog):
    """By priority networkx runs a declined call itself (a networkx graph is its own input); its debug
    log says why the backend declined."""
    import logging

    G = nx.petersen_graph()
    prio = nx.utils.backends.BackendPriorities(algos=["semiring"], generators=[], classes=[])
    with caplog.at_level(logging.DEBUG, logger="networkx"), nx.config(backend_priority=prio):
        assert nx.greedy_color(G, strategy="DSATUR") == nx.greedy_color(G, strategy="DSATUR", **NX)
    assert any("because: strategy 'DSATUR'" in r.getMessage() for r in caplog.records)


def test_can_run_returns_the_reason_outside_a_named_call():
    G = nx.petersen_graph()
    reason = BackendInterface.can_run("greedy_color", (G,), {"strategy": "DSATUR"})
    assert isinstance(reason, str) and "largest_first" in reason
    prio = nx.utils.backends.BackendPriorities(algos=["semiring"], generators=["semiring"], classes=[])
    with nx.config(backend_priority=prio, fallback_to_nx=True):  # by priority, declined calls fall back
        assert nx.greedy_color(G, strategy="DSATUR") == nx.greedy_color(G, strategy="DSATUR", **NX)
        assert nx.utils.graphs_equal(nx.complete_graph(3, create_using=nx.MultiGraph),
                                     nx.complete_graph(3, create_using=nx.MultiGraph, **NX))


# ---------------------------------------------------------------------------------------------
# generators
# ---------------------------------------------------------------------------------------------
D = nx.DiGraph
GENERATOR_CALLS = (
    [(f, (k,), kw) for f in ["complete_graph", "path_graph", "cycle_graph", "star_graph", "wheel_graph", "empty_graph"]
     for k in [0, 1, 2, 3, 6] for kw in ({}, {"create_using": D})]
    + [(f, (x,), {}) for f in ["complete_graph", "path_graph", "cycle_graph", "star_graph", "wheel_graph"]
       for x in ["abcd", [("x", 1), ("y", 2), 3], range(2, 6), -1]]
    + [("ladder_graph", (k,), {}) for k in [-2, 0, 1, 4]] + [("circular_ladder_graph", (k,), {}) for k in [-1, 0, 1, 4]]
    + [("caveman_graph", (l, k), {}) for l, k in [(0, 3), (3, 1), (3, 4), (-2, -3), (-1, 2)]]
    + [("barbell_graph", (m1, m2), {}) for m1 in [1, 2, 4] for m2 in [-1, 0, 1, 3]]
    + [(f, (m, n), {}) for f in ["lollipop_graph", "tadpole_graph"] for m, n in
       [(1, 2), (2, 0), (3, 1), (4, 3), ("ab", "xyz"), (("p", "q", "r"), ["a", "p"]), (3, 80)]]
    + [("turan_graph", (n, r), {}) for n, r in [(1, 1), (7, 3), (10, 10), (3, 4)]]
    + [("complete_multipartite_graph", s, {}) for s in [(), (3,), (1, 0, 2), (2, 3, 2), ("ab", "cde"), (-1, 2)]]
    + [("complete_bipartite_graph", (a, b), {}) for a, b in [(0, 0), (2, 3), ("ab", "cd"), ("ab", "bc"), (-1, 2)]]
    + [("complete_bipartite_graph", (2, 2), {"create_using": D}), ("wheel_graph", (4,), {"create_using": D}),
       ("empty_graph", (3,), {"default": D}), ("null_graph", (), {}), ("trivial_graph", (), {"create_using": D})]
    + [(f, (), {}) for f in ["karate_club_graph", "davis_southern_women_graph", "florentine_families_graph",
                             "les_miserables_graph", "pappus_graph"]]
    + [(f, (), kw) for f in gen._SMALL for kw in ({}, {"create_using": D})]
)


def _equal_to_networkx(name, args, kwargs):
    try:
        want = getattr(nx, name)(*args, **NX, **kwargs)
    except Exception as exc:  # networkx raises: so must the backend, the same way
        with pytest.raises(type(exc)) as info:
            getattr(nx, name)(*args, **SR, **kwargs)
        assert str(info.value) == str(exc)
        return
    got = getattr(nx, name)(*args, **SR, **kwargs)
    assert isinstance(got, sr.nx.Graph)
    H = BackendInterface.convert_to_nx(got)
    assert type(H) is type(want) and list(H) == list(want)
    assert H._node == want._node and H._adj == want._adj and H.graph == want.graph
    orders_match(got, want)  # each node's neighbours in networkx's order


@pytest.mark.parametrize("name, args, kwargs", GENERATOR_CALLS,
                         ids=[f"{n}{a}{k and '-D' or ''}" for n, a, k in GENERATOR_CALLS])
def test_generators_equal_networkx(name, args, kwargs):
    _equal_to_networkx(name, args, kwargs)


def test_every_generator_is_tested():
    assert {name for name, _, _ in GENERATOR_CALLS} == set(gen.__all__)


def test_generated_graphs_feed_the_backend():
    K = nx.karate_club_graph(**SR)
    G = nx.karate_club_graph()
    assert nx.pagerank(K) == pytest.approx(nx.pagerank(G))  # a backend graph dispatches by itself
    assert nx.single_source_dijkstra_path_length(K, 0) == nx.single_source_dijkstra_path_length(G, 0)
    P = nx.path_graph(5, **SR)  # no attribute at all: any weight is 1 on every edge
    assert P.uniform_weight("weight") == 1 and P.uniform_weight(None) == 1
    assert nx.dijkstra_path_length(P, 0, 4) == 4
    assert list(nx.bfs_edges(nx.les_miserables_graph(**SR), "Valjean")) == list(
        nx.bfs_edges(nx.les_miserables_graph(), "Valjean"))


@pytest.mark.parametrize("name, args, kwargs, words", [
    ("complete_graph", (3,), {"create_using": nx.MultiDiGraph}, "nx.Graph and nx.DiGraph"),
    ("path_graph", (3,), {"create_using": nx.Graph()}, "graph instance"),
    ("cycle_graph", ([1, 2, 1],), {}, "repeats a node"),
    ("star_graph", (iter("abc"),), {}, "iterators"),
    ("path_graph", ([[1], [2]],), {}, "unhashable"),
    ("ladder_graph", (2.0,), {}, "must be an int"),
    ("empty_graph", (2,), {"default": nx.MultiGraph}, "default="),
    ("complete_multipartite_graph", (2, "ab"), {}, "mix ints and containers"),
    ("complete_multipartite_graph", ("ab", "bc"), {}, "two subsets"),
])
def test_generator_declines_with_a_reason(name, args, kwargs, words):
    reason = BackendInterface.can_run(name, args, kwargs)
    assert isinstance(reason, str) and words in reason


# ---------------------------------------------------------------------------------------------
# the benchmark's call specs (benchmarks/suites/nx_backend): they fit networkx, and they catch a wrong answer
# ---------------------------------------------------------------------------------------------
def _bench():
    from pathlib import Path

    root = str(Path(__file__).resolve().parents[2])
    if root not in sys.path:
        sys.path.insert(0, root)
    from benchmarks.suites import nx_backend

    return nx_backend


def test_benchmark_specs_bind_to_networkx_signatures():
    import inspect

    nb = _bench()
    G = nb.gnm(60, 200)
    D = nb.gnm(60, 200, directed=True)
    registered = nx.utils.backends._registered_algorithms
    for name, spec in nb.SPECS.items():
        if name not in registered:
            continue
        H = D if spec.directed else G
        args, kwargs = spec.call(H, nb.picks(H))
        inspect.signature(nb.public(name)).bind(H, *args, **kwargs)


def test_benchmark_rows_time_check_and_list_untimed(monkeypatch):
    import semiring.nx.backend as backend

    nb = _bench()
    G = nb.gnm(300, 1500)
    P = nb.picks(G)
    row = nb.function_row("pagerank", "g", G, P, nb.SPECS["pagerank"], nb.public("pagerank"))
    assert row["status"] == "ok" and row["validated"] and row["warm_s"] > 0 and row["nx_s"] > 0
    row = nb.function_row("triangles", "g", G, P, nb.SPECS["triangles"], nb.public("triangles"))
    assert row["validated"]
    real = backend.BackendInterface.triangles
    monkeypatch.setattr(backend.BackendInterface, "triangles",
                        staticmethod(lambda *a, **k: {**real(*a, **k), 0: -1}))
    row = nb.function_row("triangles", "g", G, P, nb.SPECS["triangles"], nb.public("triangles"))
    assert row["status"] == "validation failed" and "at 0" in row["note"]
    assert "generator" in nb._why_untimed("path_graph", nx.utils.backends._registered_algorithms["path_graph"])
