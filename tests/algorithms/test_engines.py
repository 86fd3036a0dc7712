"""How a traversal runs (``semiring.algorithms.engines``): the registry of engines and strategies
against what actually runs on the CPU (every registered name on small graphs, checked against
scipy.sparse.csgraph, and every option rule enforced as listed), one message for one mistake
across bfs, sssp and coloring, Beamer's direction rule (``semiring.backends.direction``) as
every BFS engine applies it, and the backends' result types."""

from __future__ import annotations

import importlib

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as csgraph
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import semiring as sr
from _bfsgraphs import assert_parents, random_graph, scipy_levels
from semiring.algorithms import engines
from semiring.backends import direction, results
from semiring.backends.cpu import bfs_strategies as cpu_bfs
from semiring.backends.cpu import paths as cpu_paths
from semiring.backends.cpu import sssp_strategies as cpu_sssp
from semiring.backends.cpu import traversal as cpu_traversal
from semiring.backends.gpu import bfs_strategies as gpu_bfs

bfs_module = importlib.import_module("semiring.algorithms.bfs")  # the package's names are the functions
sssp_module = importlib.import_module("semiring.algorithms.sssp")
TRAVERSALS = ("bfs", "sssp", "coloring")
#: Every value each option of a traversal can take (the rules are checked over these).
DOMAINS = {
    "bfs": {"direction": ("auto", "push", "pull", "edge"), "deterministic": (False, True),
            "engine": engines.ENGINES},
    "sssp": {"method": ("auto", "bellman_ford", "delta_stepping"), "delta": (None, 3.0), "engine": engines.ENGINES},
    "coloring": {"method": ("jones_plassmann", "greedy", "luby", "gebremedhin_manne"), "engine": engines.ENGINES},
}


def _weighted(n, m, seed, negative=False):
    """Random weighted digraph; with ``negative`` a DAG (edges i -> j, i < j) with some negative
    weights, so no negative cycle."""
    rng = np.random.default_rng(seed)
    r, c = rng.integers(0, n, m), rng.integers(0, n, m)
    if negative:
        keep = r != c
        r, c = np.minimum(r, c)[keep], np.maximum(r, c)[keep]
    S = sp.coo_array((np.ones(r.shape[0]), (r, c)), shape=(n, n)).tocsr()
    S.sum_duplicates()
    low = -5 if negative else 1
    S.data = rng.integers(low, 10, S.data.shape[0]).astype(np.float64)
    S.data[S.data == 0] = 1.0  # no explicit zeros: scipy and semiring read them differently
    return S


BFS_GRAPH = random_graph(60, 240, seed=3)
SSSP_GRAPH = _weighted(50, 200, seed=4)
NEG_GRAPH = _weighted(50, 200, seed=5, negative=True)
COLOR_GRAPH = random_graph(40, 160, seed=6, symmetric=True, loops=False)


def _kw(choice, **opts):
    kw = {"strategy": choice.name} if choice.kind == "strategy" else {"engine": choice.name}
    kw.update(opts)
    return kw


def _run(choice, graph=None, **opts):
    """Run ``choice`` on the CPU with ``opts`` and check the answer against scipy."""
    kw = _kw(choice, **opts)
    if choice.traversal == "bfs":
        A = BFS_GRAPH
        for s in (0, 7):
            r = sr.algorithms.bfs(A, s, parents=True, **kw)
            want = scipy_levels(A, s)
            np.testing.assert_array_equal(r.level.to_dense(-1), want)
            assert_parents(A, s, want, r.parent.to_dense(-1))
            assert r.engine == choice.engine or kw.get("engine") == "auto"
    elif choice.traversal == "sssp":
        S = SSSP_GRAPH if graph is None else graph
        W = sr.Matrix.from_scipy(S)
        for s in (0, 3):
            r = sr.algorithms.sssp(W, s, **kw)
            want = csgraph.shortest_path(S, method="BF", directed=True, indices=s)
            np.testing.assert_allclose(r.distance.to_dense(np.inf), want)
            assert r.engine == choice.engine or kw.get("engine") == "auto"
    else:
        A = _color_graph(choice) if graph is None else graph
        c = sr.algorithms.coloring(A, **kw).to_dense(-1)
        rows, cols, _ = A.to_coo()
        off = rows != cols
        assert (c >= 0).all() and not (c[rows[off]] == c[cols[off]]).any()


def _color_graph(choice):
    """COLOR_GRAPH, stored by SuiteSparse for a choice that runs on the CPU as a compiled loop."""
    return COLOR_GRAPH.to("cpu", backend="suitesparse") if "cpu" in choice.compiled else COLOR_GRAPH


def _choices(traversal):
    return [c for c in engines.REGISTRY.values() if c.traversal == traversal]


ALL = [pytest.param(c, id=f"{c.traversal}-{c.name}", marks=[pytest.mark.suitesparse] if "cpu" in c.compiled else [])
       for t in TRAVERSALS for c in _choices(t)]


# -- the registry against what runs --------------------------------------------------------------

def test_strategy_names_are_the_registry_names_everywhere():
    assert bfs_module.STRATEGIES == engines.strategies("bfs") == engines.BFS_STRATEGIES
    assert cpu_bfs.STRATEGIES == gpu_bfs.STRATEGIES == engines.BFS_STRATEGIES
    assert sssp_module.STRATEGIES == engines.strategies("sssp") == cpu_sssp.STRATEGIES == engines.SSSP_STRATEGIES
    assert engines.strategies("coloring") == ()
    for t in TRAVERSALS:
        assert {"algebra", "fused"} <= set(engines.runnable(t, "gpu"))
        assert engines.runnable(t, "cpu") == tuple(c.name for c in _choices(t) if "cpu" in c.devices)


@pytest.mark.parametrize("choice", ALL)
def test_every_registered_choice_runs_where_listed(choice):
    if "cpu" in choice.devices:
        _run(choice)
        if choice.traversal == "sssp" and choice.name != "near_far":  # negative weights, Bellman-Ford
            _run(choice, NEG_GRAPH, method="bellman_ford")
        if "cpu" in choice.compiled:  # a compiled loop: not on a NumPy-backend graph
            with pytest.raises(sr.InvalidValue, match=f"{choice.label} runs on the CPU as a compiled loop"):
                _run(choice, COLOR_GRAPH.to("cpu", backend="numpy"))
    else:
        with pytest.raises(sr.InvalidValue, match=f"{choice.label} has no CPU implementation"):
            _run(choice)


@pytest.mark.parametrize("choice", [p for p in ALL if "cpu" in p.values[0].devices])
def test_every_option_rule_is_enforced_as_listed(choice):
    """Each option takes exactly the values the registry lists for the CPU: the others raise
    InvalidValue naming the option; the listed ones (and every value of a GPU-only rule) run."""
    accepts = choice.accepts("cpu")
    for option, domain in DOMAINS[choice.traversal].items():
        if option == "engine" and choice.kind == "engine":
            continue
        for value in domain:
            allowed = option not in accepts or any(value == a if a is not None else value is None
                                                   for a in accepts[option])
            if allowed:
                _run(choice, **{option: value})
            else:
                with pytest.raises(sr.InvalidValue, match=f"{choice.label}.*{option} must be .* with it; given"):
                    _run(choice, **{option: value})


def test_gpu_only_rules_name_the_device():
    fused = engines.REGISTRY["sssp", "fused"]
    assert fused.accepts("cpu") == {} and fused.accepts("gpu") == {"method": ("auto", "delta_stepping")}
    why = fused.problem("sssp", "gpu", 10, {"method": "bellman_ford"})
    assert why == ("sssp: engine='fused' runs the whole search in one backend call; method must be 'auto' or "
                   "'delta_stepping' with it on the GPU; given method='bellman_ford'")
    assert fused.problem("sssp", "cpu", 10, {"method": "bellman_ford"}) is None
    bfs_fused = engines.REGISTRY["bfs", "fused"]
    assert "deterministic must be False with it on the GPU" in bfs_fused.problem("bfs", "gpu", 10,
                                                                                   {"deterministic": True})


def test_auto_follows_the_registry_and_the_degree_rule():
    sparse_g = sr.generators.grid(6, 6)  # average degree < 4: the whole-search engine
    assert sr.algorithms.bfs(sparse_g, 0).engine == "fused"
    assert sr.algorithms.bfs(sparse_g, 0, direction="edge").engine == "algebra"  # fused refuses "edge"
    assert sr.algorithms.sssp(sparse_g, 0).engine == "fused"
    n = 20
    dense = sr.Matrix.from_scipy(sp.csr_array(np.ones((n, n)) - np.eye(n)))  # degree 19 > 16
    # a SuiteSparse graph's BFS is the compiled search at any degree
    assert sr.algorithms.bfs(dense, 0).engine == ("fused" if dense.backend == "suitesparse" else "algebra")
    assert sr.algorithms.bfs(dense.to("cpu", backend="numpy"), 0).engine == "algebra"
    assert sr.algorithms.sssp(dense, 0).engine == "algebra"
    for traversal in TRAVERSALS:
        assert engines.select(traversal, "auto", None, "gpu", 10, 10**6).name == "fused"
        assert engines.select(traversal, "auto", None, "gpu", 2**31, 10).name == "algebra"


# -- one mistake, one message ---------------------------------------------------------------------

def _message(call):
    with pytest.raises(sr.InvalidValue) as e:
        call()
    return str(e.value)


def _tail(msg, what):
    assert msg.startswith(f"{what}: ")
    return msg[len(what) + 2:]


A3 = sr.Matrix.from_coo([0, 1], [1, 2], [1.0, 2.0], nrows=3, ncols=3)
CALLS = {"bfs": lambda **kw: sr.algorithms.bfs(A3, 0, **kw), "sssp": lambda **kw: sr.algorithms.sssp(A3, 0, **kw),
         "coloring": lambda **kw: sr.algorithms.coloring(A3, **kw)}

BAD_VALUES = st.one_of(st.text(max_size=6).filter(lambda s: s not in engines.ENGINES), st.integers(), st.none(),
                       st.booleans(), st.lists(st.sampled_from(engines.ENGINES), max_size=2))


@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(bad=BAD_VALUES)
def test_unknown_engine_same_message(bad):
    msgs = {t: _tail(_message(lambda: CALLS[t](engine=bad)), t) for t in TRAVERSALS}
    assert len(set(msgs.values())) == 1
    assert msgs["bfs"] == f"engine must be one of {engines.ENGINES}; given {bad!r}"


@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(bad=st.one_of(st.text(max_size=6), st.integers(), st.booleans(), st.lists(st.text(max_size=3), max_size=2)))
def test_unknown_strategy_same_message(bad):
    out = set()
    for t in ("bfs", "sssp"):
        names = engines.strategies(t)
        if isinstance(bad, str) and bad in names:
            return
        msg = _tail(_message(lambda: CALLS[t](strategy=bad)), t)
        out.add(msg.replace(str(names), "<names>"))
    assert out == {f"strategy must be None or one of <names>; given {bad!r}"}


@pytest.mark.parametrize("engine", ["algebra", "fused"])
def test_strategy_with_an_engine_same_message(engine):
    tails = set()
    for t, s in (("bfs", "queue_atomic"), ("bfs", "edge"), ("sssp", "topology"), ("sssp", "near_far")):
        msg = _tail(_message(lambda: CALLS[t](strategy=s, engine=engine)), t)
        assert msg.startswith(f"strategy={s!r} ")
        tails.add(msg.split("; ", 1)[1])
    assert tails == {f"engine must be 'auto' with it; given engine={engine!r}"}


def test_fused_where_it_cannot_run_same_message():
    tails = set()
    for t in TRAVERSALS:
        msg = _tail(_message(lambda: engines.select(t, "fused", None, "gpu", 2**31, 10)), t)
        tails.add(msg)
    assert tails == {"engine='fused' keeps vertex ids in int32 on the GPU (n < 2**31 - 1); given n = 2147483648"}
    msg = _message(lambda: sr.algorithms.coloring(A3.to("cpu", backend="numpy"), engine="fused"))
    assert msg == ("coloring: engine='fused' runs on the CPU as a compiled loop, which needs the SuiteSparse "
                   "CPU backend and numba (pip install \"semiring[suitesparse]\"); given a graph on the NumPy "
                   "backend")
    # an option the engine does not take: the same shape in every traversal
    b = _message(lambda: sr.algorithms.bfs(A3, 0, engine="fused", direction="edge"))
    c = _message(lambda: sr.algorithms.coloring(A3, engine="algebra", method="x"))
    assert b == ("bfs: engine='fused' runs the whole search in one backend call; direction must be 'auto', "
                 "'push' or 'pull' with it; given direction='edge'")
    assert c.startswith("coloring: method must be one of")
    g = engines.REGISTRY["coloring", "fused"].problem("coloring", "gpu", 3, {"method": "greedy"})
    assert g == ("coloring: engine='fused' runs the whole search in one backend call; method must be "
                 "'jones_plassmann' or 'gebremedhin_manne' with it; given method='greedy'")


# -- Beamer's rule --------------------------------------------------------------------------------

def test_beamer_thresholds():
    a, b = direction.ALPHA, direction.BETA
    assert (a, b) == (15.0, 18.0)
    assert direction.push_to_pull(10, 5, 101, 1500) and not direction.push_to_pull(10, 5, 100, 1500)
    assert not direction.push_to_pull(5, 5, 10**6, 1)  # a frontier that did not grow stays push
    assert direction.pull_to_push(9, 10, 180) and not direction.pull_to_push(10, 10, 180)
    assert not direction.pull_to_push(10, 11, 180)  # 10 vertices is not below 180 / 18
    for fixed in ("push", "pull"):
        rule = direction.Beamer(100, 10**6, fixed)
        assert [rule.next(nq, 10**5) for nq in (1, 50, 2)] == [fixed == "pull"] * 3
    assert bfs_module.ALPHA is direction.ALPHA and bfs_module.BETA is direction.BETA


def _replay(A, s):
    """The directions Beamer's rule gives level by level, from scipy's levels."""
    S = A.to_scipy()
    lv = scipy_levels(A, s)
    deg = np.diff(S.indptr)
    rule = direction.Beamer(A.nrows, A.nvals)
    out = []
    for d in range(int(lv.max()) + 1):  # the last level run discovers nothing
        f = lv == d
        nq, mf = int(f.sum()), int(deg[f].sum())
        out.append("pull" if rule.next(nq, mf) else "push")
        rule.advance(nq, mf)
    return out


@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 120), density=st.integers(1, 12), seed=st.integers(0, 10**6), sym=st.booleans())
def test_every_cpu_engine_takes_beamers_directions(n, density, seed, sym):
    A = random_graph(n, n * density, seed, symmetric=sym)
    want = _replay(A, 0)
    for engine in ("algebra", "fused"):
        got = sr.algorithms.bfs(A, 0, engine=engine).trace.directions
        assert got == want


# -- what the backends return -----------------------------------------------------------------------

def test_backends_return_result_types():
    A = BFS_GRAPH
    S = A.to_scipy()
    want = scipy_levels(A, 0)
    r = cpu_traversal.bfs(S.indptr, S.indices, 0, in_edges=lambda: (S.T.tocsr().indptr, S.T.tocsr().indices),
                          parents=True)
    assert isinstance(r, results.TraversalResult)
    np.testing.assert_array_equal(np.where(r.present, r.level, -1), want)
    assert r.nvals == int((want >= 0).sum()) and (r.launches, r.host_syncs) == (None, None)
    assert len(r.trace) == 4 and r.trace[0].shape == r.trace[3].shape
    q = cpu_bfs.bfs("queue_atomic", S.indptr, S.indices, 0, parents=True)
    assert isinstance(q, results.TraversalResult)
    np.testing.assert_array_equal(np.where(q.present, q.level, -1), want)
    assert q.trace[3].tolist() == r.trace[3].tolist()  # discovered per level
    W = SSSP_GRAPH
    dist = csgraph.shortest_path(W, directed=True, indices=0)
    p = cpu_paths.bellman_ford(W.indptr.astype(np.int64), W.indices.astype(np.int64), W.data, 0)
    c = cpu_sssp.run("worklist_scan", W.indptr.astype(np.int64), W.indices.astype(np.int64), W.data, 0)
    for res in (p, c):
        assert isinstance(res, results.PathsResult) and res.rounds >= 1 and res.launches is None
        np.testing.assert_allclose(np.where(res.dist == cpu_paths.unreached(res.dist.dtype), np.inf, res.dist), dist)
    assert c.edges_examined >= W.indptr[1] - W.indptr[0] and c.worklist_entries >= 1


def test_trace_columns_round_trip():
    rows = [("push", 1, 3, 3), ("pull", 3, 40, 20), ("edge", 20, 50, 0)]
    cols = results.trace_columns(rows)
    traces = bfs_module.LevelTraces(*cols)
    assert [(t.direction, t.frontier, t.edges_examined, t.discovered) for t in traces] == [r for r in rows]
    assert bfs_module.LevelTraces.from_rows(rows) == traces
    assert [len(c) for c in results.trace_columns([])] == [0, 0, 0, 0]
