"""The compiled CPU coloring loops (``semiring.backends.cpu.coloring``): ``engine="fused"`` on
the CPU, run where compiled loops are enabled (the graph stored by SuiteSparse, numba importable).

Oracles: the algebra engine on the NumPy backend (the reference) for the same seed, colors
compared exactly; Jones-Plassmann's parallel rounds simulated here from the definition (each
round, the uncolored vertices with no uncolored higher-priority neighbour take the smallest
color their colored neighbours lack), which gives both the colors and the number of rounds;
the algebra's Gebremedhin-Manne pass sizes; a clique colored all at once (worked out by hand);
the DIMACS coloring instances and the New York roads and cnr-2000 graphs of ../shared/data. On
the NumPy backend the compiled loops never run, and engine="fused" names what it needs.
"""

from __future__ import annotations

import importlib

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import semiring as sr
from semiring.algorithms import engines
from semiring.backends.cpu import _jit
from semiring.backends.cpu import coloring as cpu_coloring
from semiring.testing.validate import check_coloring

from _strategies import clique_graphs

coloring_module = importlib.import_module("semiring.algorithms.coloring")
JP, GM = "jones_plassmann", "gebremedhin_manne"
SETTINGS = settings(max_examples=60, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])
NEEDS = "runs on the CPU as a compiled loop, which needs the SuiteSparse CPU backend and numba"


def ss(A):
    return A.to("cpu", backend="suitesparse")


def np_backend(A):
    return A.to("cpu", backend="numpy")


def dense(v):
    return np.asarray(v.to_dense(-1))


def neighbours(A):
    """Neighbour sets of the undirected simple graph of A (A or A^T, no self-loops)."""
    r, c, _ = A.to_coo()
    adj = [set() for _ in range(A.nrows)]
    for u, v in zip(np.asarray(r).tolist(), np.asarray(c).tolist()):
        if u != v:
            adj[u].add(v)
            adj[v].add(u)
    return adj


def jp_by_rounds(adj, prio):
    """Jones-Plassmann as its parallel rounds: (colors, rounds)."""
    n = len(adj)
    color = [-1] * n
    uncolored = set(range(n))
    rounds = 0
    while uncolored:
        ready = [v for v in uncolored if not any(color[u] < 0 and prio[u] > prio[v] for u in adj[v])]
        chosen = {}
        for v in ready:
            used = {color[u] for u in adj[v] if color[u] >= 0}
            chosen[v] = next(c for c in range(n + 1) if c not in used)
        for v, c in chosen.items():
            color[v] = c
        uncolored -= set(ready)
        rounds += 1
    return color, rounds


def csr_of_pattern(A):
    """int64 CSR of the symmetric pattern of A (self-loops kept: the loops must skip them)."""
    r, c, _ = A.to_coo()
    r, c = np.asarray(r, dtype=np.int64), np.asarray(c, dtype=np.int64)
    n = A.nrows
    keys = np.unique(np.concatenate([r * n + c, c * n + r])) if n else np.zeros(0, np.int64)
    rows, cols = keys // max(n, 1), keys % max(n, 1)
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows, minlength=n), out=indptr[1:])
    return indptr, cols


@st.composite
def graphs(draw, max_n=40):
    """Random patterns: directed or symmetric, with self-loops, isolated vertices, empty and
    single-vertex graphs, several components; a kind for the Graph (None: decided by symmetry)."""
    n = draw(st.integers(0, max_n))
    m = draw(st.integers(0, 4 * n)) if n else 0
    r = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m)) if n else []
    c = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m)) if n else []
    symmetric = draw(st.booleans())
    if symmetric:
        r, c = r + c, c + r
    A = sr.Matrix.from_coo(r, c, nrows=n, ncols=n, dtype="bool", dup_op=sr.binary.lor, backend="numpy")
    kind = draw(st.sampled_from(["undirected", None] if symmetric else ["directed", None]))
    return A, kind


# -- the same colors as the algebra engine --------------------------------------------------------

@pytest.mark.suitesparse
@SETTINGS
@given(g=graphs(), seed=st.integers(0, 2**40))
def test_jones_plassmann_compiled_equals_algebra_and_the_rounds(g, seed):
    A, kind = g
    fused = sr.algorithms.coloring(sr.algorithms.Graph(ss(A), kind), seed=seed, engine="fused")
    want = sr.algorithms.coloring(sr.algorithms.Graph(A, kind), seed=seed, engine="algebra")
    assert fused.dtype == np.int64 and fused.nvals == A.nrows and fused.backend == "suitesparse"
    np.testing.assert_array_equal(dense(fused), dense(want))
    assert check_coloring(A, fused) == (int(dense(want).max()) + 1 if A.nrows else 0)
    # the loop itself against the parallel rounds, on a CSR that keeps the self-loops
    prio = coloring_module.priorities(A.nrows, seed)
    color, rounds = cpu_coloring.jones_plassmann(*csr_of_pattern(A), prio)
    want_color, want_rounds = jp_by_rounds(neighbours(A), prio.tolist())
    assert color.tolist() == want_color and rounds == want_rounds


@pytest.mark.suitesparse
@pytest.mark.parametrize("method", [JP, GM])
@settings(max_examples=6, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(g=clique_graphs(), seed=st.integers(0, 2**40))
def test_compiled_equals_algebra_needing_64_or_more_colors(method, g, seed):
    """A clique of 65..72 vertices: the compiled loops' colors past 63 (a second 64-bit word of
    a neighbour-color bitset) as the algebra's, and at least as many colors as the clique."""
    n, rows, cols, clique = g
    A = sr.Matrix.from_coo(rows, cols, nrows=n, ncols=n, dtype="bool", dup_op=sr.binary.lor, backend="numpy")
    fused = sr.algorithms.coloring(sr.algorithms.Graph(ss(A), "undirected"), method=method, seed=seed,
                                   engine="fused")
    want = sr.algorithms.coloring(sr.algorithms.Graph(A, "undirected"), method=method, seed=seed,
                                  engine="algebra")
    np.testing.assert_array_equal(dense(fused), dense(want))
    assert check_coloring(A, fused) >= clique


@pytest.mark.suitesparse
@SETTINGS
@given(g=graphs(), seed=st.integers(0, 2**40), blocks=st.one_of(st.none(), st.integers(1, 50)))
def test_gebremedhin_manne_compiled_equals_algebra_and_its_passes(g, seed, blocks):
    A, kind = g
    fused = sr.algorithms.coloring(sr.algorithms.Graph(ss(A), kind), method=GM, seed=seed, blocks=blocks,
                                   engine="fused")
    want = sr.algorithms.coloring(sr.algorithms.Graph(A, kind), method=GM, seed=seed, blocks=blocks,
                                  engine="algebra")
    np.testing.assert_array_equal(dense(fused), dense(want))
    check_coloring(A, fused)
    S = coloring_module.undirected_pattern(sr.algorithms.Graph(A))
    color, passes = cpu_coloring.gebremedhin_manne(*csr_of_pattern(A), coloring_module.priorities(A.nrows, seed),
                                                   blocks, coloring_module.GM_STEPS)
    want_color, want_passes = coloring_module.gebremedhin_manne(S, seed, blocks)
    assert color.tolist() == dense(want_color).tolist() and passes == want_passes


def test_clique_colored_all_at_once_one_vertex_per_pass():
    """K_7 in 7 blocks: every pass colors its vertices in one step with one color, and only the
    highest-priority one keeps it; a vertex's color is its rank by priority."""
    n = 7
    indptr = np.arange(0, n * n + 1, n, dtype=np.int64)
    indices = np.tile(np.arange(n, dtype=np.int64), n)  # with the diagonal: loops are skipped
    prio = coloring_module.priorities(n, 11)
    color, passes = cpu_coloring.gebremedhin_manne(indptr, indices, prio, n, coloring_module.GM_STEPS)
    assert passes == [7, 6, 5, 4, 3, 2, 1]
    rank = np.argsort(np.argsort(-prio))
    assert color.tolist() == rank.tolist()
    jp_color, rounds = cpu_coloring.jones_plassmann(indptr, indices, prio)
    assert jp_color.tolist() == rank.tolist() and rounds == n
    # a single block: sequential greedy in vertex order, one pass
    color, passes = cpu_coloring.gebremedhin_manne(indptr, indices, prio, 1, coloring_module.GM_STEPS)
    assert color.tolist() == list(range(n)) and passes == [n]


def test_empty_and_single_vertex_loops():
    for n in (0, 1):
        indptr, indices = np.zeros(n + 1, dtype=np.int64), np.zeros(0, dtype=np.int64)
        prio = coloring_module.priorities(n, 0)
        color, rounds = cpu_coloring.jones_plassmann(indptr, indices, prio)
        assert color.tolist() == [0] * n and rounds == n
        color, passes = cpu_coloring.gebremedhin_manne(indptr, indices, prio, None, 128)
        assert color.tolist() == [0] * n and passes == [1] * n


# -- which engine runs ----------------------------------------------------------------------------

def _dense_graph(n=40):
    return sr.Matrix.from_dense(~np.eye(n, dtype=bool), missing=False, backend="numpy")  # degree n - 1


def _spy(monkeypatch):
    calls = []
    for name in ("jones_plassmann", "gebremedhin_manne"):
        real = getattr(cpu_coloring, name)

        def spy(*a, _real=real, _name=name, **k):
            calls.append(_name)
            return _real(*a, **k)
        monkeypatch.setattr(cpu_coloring, name, spy)
    return calls


@pytest.mark.suitesparse
def test_auto_runs_the_compiled_loop_at_any_degree(monkeypatch):
    """K_40 (average degree 39, far above the traversals' CPU limits): "auto" takes the compiled
    loop for both methods; Jones-Plassmann colors a clique by priority rank."""
    A = _dense_graph()
    calls = _spy(monkeypatch)
    rank = np.argsort(np.argsort(-coloring_module.priorities(40, 0)))
    jp = sr.algorithms.coloring(ss(A))
    np.testing.assert_array_equal(dense(jp), rank)
    gm = sr.algorithms.coloring(ss(A), method=GM)
    np.testing.assert_array_equal(dense(gm), dense(sr.algorithms.coloring(A, method=GM, engine="algebra")))
    assert calls == [JP, GM]
    for method in ("greedy", "luby"):  # no compiled loop
        check_coloring(A, sr.algorithms.coloring(ss(A), method=method))
    np.testing.assert_array_equal(dense(sr.algorithms.coloring(ss(A), engine="algebra")), rank)
    assert calls == [JP, GM]
    with sr.backends.use_cpu_backend("suitesparse"):
        assert engines.select("coloring", "auto", None, "cpu", 10, 10**4, method=JP).name == "fused"
        assert engines.select("coloring", "auto", None, "cpu", 10, 10**4, method="luby").name == "algebra"
    with sr.backends.use_cpu_backend("numpy"):
        assert engines.select("coloring", "auto", None, "cpu", 10, 10, method=JP).name == "algebra"


def test_numpy_backend_never_compiles(monkeypatch):
    def refuse(func):
        raise AssertionError(f"compiled {func.__name__} on the NumPy backend")
    monkeypatch.setattr(_jit, "compile", refuse)
    A = _dense_graph(12)
    for method in ("jones_plassmann", "gebremedhin_manne", "greedy", "luby"):
        check_coloring(A, sr.algorithms.coloring(A, method=method))
    with pytest.raises(sr.InvalidValue) as e:
        sr.algorithms.coloring(A, engine="fused")
    assert str(e.value) == (f"coloring: engine='fused' {NEEDS} (pip install \"semiring[suitesparse]\"); "
                            "given a graph on the NumPy backend")
    with pytest.raises(sr.InvalidValue, match="compiled loop"):
        sr.algorithms.coloring(sr.algorithms.Graph(A, "undirected"), method=GM, engine="fused", blocks=2)


@pytest.mark.suitesparse
def test_without_numba_the_algebra_runs(monkeypatch):
    monkeypatch.setattr(_jit, "_numba", False)
    A = ss(_dense_graph(12))
    with pytest.raises(sr.InvalidValue) as e:
        sr.algorithms.coloring(A, engine="fused")
    assert str(e.value).endswith(f"{NEEDS} (pip install \"semiring[suitesparse]\"); numba cannot be imported")
    calls = _spy(monkeypatch)
    got = sr.algorithms.coloring(A)
    assert calls == []
    np.testing.assert_array_equal(dense(got), dense(sr.algorithms.coloring(np_backend(A), engine="algebra")))


@pytest.mark.suitesparse
def test_fused_checks_method_before_running():
    A = ss(_dense_graph(5))
    for method in ("greedy", "luby"):
        with pytest.raises(sr.InvalidValue, match=f"method must be 'jones_plassmann' or 'gebremedhin_manne' with it; "
                                                  f"given method='{method}'"):
            sr.algorithms.coloring(A, method=method, engine="fused")


@pytest.mark.parametrize("backend", ["numpy", pytest.param("suitesparse", marks=pytest.mark.suitesparse)])
def test_huge_vertex_count_is_out_of_memory(backend):
    A = sr.Matrix.from_coo([0, 1], [1, 2], None, nrows=2**40, ncols=2**40, dtype="bool", backend=backend)
    for engine in ("auto", "algebra"):
        with pytest.raises(sr.OutOfMemory, match="coloring: per-vertex arrays for n = 1099511627776"):
            sr.algorithms.coloring(A, engine=engine)
    with pytest.raises(sr.OutOfMemory, match="mis: per-vertex arrays for n = 1099511627776"):
        sr.algorithms.mis(A)


# -- real graphs ----------------------------------------------------------------------------------

@pytest.mark.data
@pytest.mark.suitesparse
def test_dimacs_instances_same_colors_as_algebra(shared_data):
    files = sorted((shared_data / "coloring").glob("*.col"))
    assert len(files) >= 20
    for f in files:
        A = np_backend(sr.io.read(f))
        S = ss(A)
        for method, seed in ((JP, 0), (JP, 9), (GM, 0)):
            fused = sr.algorithms.coloring(S, method=method, seed=seed, engine="fused")
            want = sr.algorithms.coloring(A, method=method, seed=seed, engine="algebra")
            np.testing.assert_array_equal(dense(fused), dense(want), err_msg=f"{f.name} {method} seed {seed}")
            check_coloring(A, fused)


@pytest.mark.data
@pytest.mark.suitesparse
@pytest.mark.parametrize("path, methods", [("roads/USA-road-t.NY.gr.gz", (JP, GM)), ("web/cnr-2000.mtx.gz", (JP,))],
                         ids=["NY-roads", "cnr-2000"])
def test_large_graphs_same_colors_as_algebra(shared_data, path, methods):
    """New York roads (undirected) and cnr-2000 (directed: colored as A or A^T) against the
    algebra engine on the NumPy backend (on cnr-2000 Jones-Plassmann only, for time: there
    Gebremedhin-Manne's coloring is checked proper)."""
    A = np_backend(sr.io.read(shared_data / path))
    S = ss(A)
    for method in (JP, GM):
        fused = sr.algorithms.coloring(S, method=method, engine="fused")
        assert fused.backend == "suitesparse"
        check_coloring(A, fused)
        if method in methods:
            want = sr.algorithms.coloring(A, method=method, engine="algebra")
            np.testing.assert_array_equal(dense(fused), dense(want), err_msg=f"{path} {method}")
