"""The compiled component loops of the SuiteSparse CPU profile (semiring.backends.cpu.components:
ECL-CC union-find, Pearce's iterative Tarjan) against SciPy and the algebra engines.

Every case compares three results on the same graph: the compiled loop (a SuiteSparse graph,
the loops on), the algebra formulation on the SuiteSparse backend (the loops turned off) and on
the NumPy backend (the reference), and the labelling derived from
``scipy.sparse.csgraph.connected_components`` (each vertex labelled by the smallest vertex of
its component, computed here from SciPy's partition). A spy on the loops' entry points makes
sure the compiled path is the one that ran.
"""

from __future__ import annotations

import contextlib
from unittest import mock

import numpy as np
import pytest
import scipy.sparse as sparse
import scipy.sparse.csgraph as csgraph
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from _componentgraphs import clustered_graphs, condensations, min_labels

import semiring as sr
from semiring.algorithms import components as components_module
from semiring.backends.cpu import _jit
from semiring.backends.cpu import components as loops

pytestmark = pytest.mark.suitesparse

cc = sr.algorithms.connected_components
scc = sr.algorithms.strongly_connected_components
SETTINGS = dict(deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


def scipy_answer(A, connection):
    """SciPy's partition of A's pattern as smallest-vertex labels."""
    S = sparse.csr_matrix(A.to_scipy(), dtype=np.float64, copy=True)
    S.data[:] = 1.0
    return min_labels(csgraph.connected_components(S, directed=True, connection=connection)[1])


@contextlib.contextmanager
def spy():
    """Count the calls of the compiled loops' entry points (``calls["cc"]``, ``calls["scc"]``)."""
    calls = {"cc": 0, "scc": 0}
    real_cc, real_scc = loops.connected_components, loops.strongly_connected_components

    def count_cc(*args, **kwargs):
        calls["cc"] += 1
        return real_cc(*args, **kwargs)

    def count_scc(*args, **kwargs):
        calls["scc"] += 1
        return real_scc(*args, **kwargs)

    with mock.patch.object(loops, "connected_components", count_cc), \
            mock.patch.object(loops, "strongly_connected_components", count_scc):
        yield calls


def loops_off():
    return mock.patch.object(components_module._jit, "enabled", lambda: False)


def dense(v):
    assert v.dtype == np.int64 and v.nvals == v.size
    return np.asarray(v.to_dense())


def compare(A, kind=None):
    """Every engine gives SciPy's labelling on A (given as a ``kind`` Graph, or the Matrix)."""
    P = A.to("cpu", backend="numpy")
    S = A.to("cpu", backend="suitesparse")
    weak, strong = scipy_answer(P, "weak"), scipy_answer(P, "strong")
    # an undirected graph's strong components are its weak ones (the union-find loop)
    undirected = kind == "undirected" or kind is None and P.isequal(P.T)
    ran = int(A.nrows > 0)  # no vertices: nothing to search
    for f, want, name in ((cc, weak, "cc"), (scc, strong, "scc")):
        with spy() as calls:
            got = f(sr.algorithms.Graph(S, kind) if kind else S)
        assert got.backend == "suitesparse"
        union_find = f is cc or undirected
        assert calls == {"cc": ran * union_find, "scc": ran * (not union_find)}, (name, calls)
        np.testing.assert_array_equal(dense(got), want, err_msg=f"compiled {name}")
        with loops_off(), spy() as calls:
            algebra = f(sr.algorithms.Graph(S, kind) if kind else S)
        assert calls == {"cc": 0, "scc": 0}
        np.testing.assert_array_equal(dense(algebra), want, err_msg=f"suitesparse algebra {name}")
        reference = f(sr.algorithms.Graph(P, kind) if kind else P)
        assert reference.backend == "numpy"
        np.testing.assert_array_equal(dense(reference), want, err_msg=f"numpy {name}")
    return weak, strong


# ---------------------------------------------------------------------------------------------
# small graphs written out
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("n", [0, 1, 2, 7])
def test_empty_single_vertex_and_edgeless(n):
    A = sr.Matrix(n, n, "bool", backend="suitesparse")
    assert cc(A).to_dense().tolist() == scc(A).to_dense().tolist() == list(range(n))
    if n:
        loop = sr.Matrix.from_coo([0], [0], nrows=n, ncols=n, backend="suitesparse")
        assert cc(loop).to_dense().tolist() == scc(loop).to_dense().tolist() == list(range(n))


def test_hand_examples():
    # 0 <-> 1 -> 2 <-> 3, 4 alone with a self-loop
    A = sr.Matrix.from_coo([0, 1, 1, 2, 3, 4], [1, 0, 2, 3, 2, 4], nrows=5, ncols=5, backend="suitesparse")
    with spy() as calls:
        assert scc(A).to_dense().tolist() == [0, 0, 2, 2, 4]
        assert cc(A).to_dense().tolist() == [0, 0, 0, 0, 4]
    assert calls == {"cc": 1, "scc": 1}
    # labels are the smallest member even when every arc points to a larger vertex, or away
    B = sr.Matrix.from_coo([5, 3, 1, 4], [3, 1, 5, 0], nrows=6, ncols=6, backend="suitesparse")
    assert scc(B).to_dense().tolist() == [0, 1, 2, 1, 4, 1]
    assert cc(B).to_dense().tolist() == [0, 1, 2, 1, 0, 1]


def test_values_are_ignored():
    """Explicit zeros, False and NaN are arcs; any value type."""
    for vals, dtype in (([False] * 3, "bool"), ([0, 0, 0], "int64"), ([np.nan, 0.0, -1.0], "float64"),
                        ([0, 1, 2], "uint64"), ([0, 1, 2], "int8")):
        A = sr.Matrix.from_coo([0, 1, 2], [1, 2, 0], vals, nrows=4, ncols=4, dtype=dtype, backend="suitesparse")
        assert cc(A).to_dense().tolist() == scc(A).to_dense().tolist() == [0, 0, 0, 3]


def test_hypersparse_matrix():
    """A few arcs among many vertices (SuiteSparse keeps it hypersparse)."""
    n = 200_000
    A = sr.Matrix.from_coo([7, 150_000, 9], [150_000, 7, 199_999], nrows=n, ncols=n, backend="suitesparse")
    want = np.arange(n)
    want[150_000] = 7
    np.testing.assert_array_equal(dense(scc(A)), want)
    want[199_999] = 9
    np.testing.assert_array_equal(dense(cc(A)), want)


def test_symmetric_graph_reads_each_edge_from_one_end():
    """A Graph given as undirected takes the kernel's symmetric path (edges to smaller vertices
    only); its result equals the full pass over both directions."""
    A = sr.generators.grid(9, 11).to("cpu", backend="suitesparse")
    P = sr.algorithms.Graph(A, "undirected")
    assert P._given_kind == "undirected"
    half = loops.connected_components(A, symmetric=True)
    full = loops.connected_components(A, symmetric=False)
    np.testing.assert_array_equal(half, full)
    np.testing.assert_array_equal(dense(cc(P)), half)
    np.testing.assert_array_equal(half, scipy_answer(A, "weak"))


# ---------------------------------------------------------------------------------------------
# random graphs (hypothesis): compiled = algebra (both backends) = scipy
# ---------------------------------------------------------------------------------------------

@st.composite
def arc_lists(draw):
    """Random arcs on 0-40 vertices: self-loops, isolated vertices, parallel arcs, several
    components; directed or made symmetric."""
    n = draw(st.integers(0, 40))
    m = draw(st.integers(0, 3 * n)) if n else 0
    r = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m)) if n else []
    c = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m)) if n else []
    A = sr.Matrix.from_coo(r, c, nrows=n, ncols=n, dtype="bool", dup_op=sr.binary.lor, backend="numpy")
    symmetric = draw(st.booleans())
    if symmetric:
        A = sr.ewise_add(A, sr.transpose(A), sr.binary.lor)
    kind = draw(st.sampled_from([None, "undirected" if symmetric else "directed"]))
    return A, kind


@settings(max_examples=120, **SETTINGS)
@given(case=arc_lists())
def test_random_graphs(case):
    A, kind = case
    compare(A, kind)


@settings(max_examples=60, **SETTINGS)
@given(A=clustered_graphs())
def test_clustered_graphs(A):
    """A giant component among small ones, isolated vertices, self-loops, any value type."""
    compare(A)


@settings(max_examples=60, **SETTINGS)
@given(case=condensations())
def test_strong_blocks_joined_by_a_dag(case):
    """Many strongly connected blocks under a random numbering, joined by arcs of a DAG."""
    A, blocks = case
    _, strong = compare(A)
    assert int((strong == np.arange(A.nrows)).sum()) == blocks


# ---------------------------------------------------------------------------------------------
# deep graphs: no recursion
# ---------------------------------------------------------------------------------------------

def _arcs(n, src, dst):
    return sr.Matrix.from_coo(src, dst, nrows=n, ncols=n, dtype="bool", backend="suitesparse")


def test_paths_and_cycle_of_a_million_vertices():
    n = 10**6
    i = np.arange(n - 1)
    ids = np.arange(n)
    with spy() as calls:
        # a path 0 -> 1 -> ... -> n-1: one weak component, n strong ones (depth n search)
        path = _arcs(n, i, i + 1)
        assert (dense(cc(path)) == 0).all()
        np.testing.assert_array_equal(dense(scc(path)), ids)
        # the path reversed, n-1 -> ... -> 0
        back = _arcs(n, i + 1, i)
        assert (dense(cc(back)) == 0).all()
        np.testing.assert_array_equal(dense(scc(back)), ids)
        # the cycle: one strong component, found at the end of a search n deep
        cycle = _arcs(n, ids, (ids + 1) % n)
        assert (dense(scc(cycle)) == 0).all()
    assert calls == {"cc": 2, "scc": 3}


def test_deep_search_with_a_cycle_at_its_bottom():
    """A path 0 -> ... -> k into a cycle of the last vertices and out of it again: the open
    components stack up under the whole path before the cycle closes."""
    n, k = 300_000, 200_000
    i = np.arange(n - 1)
    src = np.concatenate([i, [n - 1, n // 2]])
    dst = np.concatenate([i + 1, [k, 3]])  # n-1 -> k closes the cycle k..n-1; n/2 -> 3 the cycle 3..n/2
    A = _arcs(n, src, dst)
    want = scipy_answer(A, "strong")
    assert want[n - 1] == want[k] == k and want[n // 2] == want[3] == 3
    assert want[2] == 2 and want[n // 2 + 1] == n // 2 + 1 and want[k - 1] == k - 1
    np.testing.assert_array_equal(dense(scc(A)), want)


# ---------------------------------------------------------------------------------------------
# which engine runs where
# ---------------------------------------------------------------------------------------------

def _raise(_func):
    raise AssertionError("a compiled loop ran")


@pytest.mark.parametrize("f", [cc, scc], ids=["cc", "scc"])
def test_numpy_backend_never_compiles(f):
    """On the NumPy backend the algebra runs (whatever the session's default), and numba is
    never asked to compile."""
    A = sr.generators.kronecker(8, seed=1).to("cpu", backend="numpy")
    D = sr.Matrix.from_coo(*A.to_coo()[:2], nrows=A.nrows, ncols=A.ncols, backend="numpy")
    with mock.patch.object(_jit, "compile", _raise), spy() as calls:
        for M in (A, D):
            want = scipy_answer(M, "weak" if f is cc else "strong")
            np.testing.assert_array_equal(dense(f(M)), want)
            with sr.backends.use_cpu_backend("suitesparse"):  # the graph's backend decides
                np.testing.assert_array_equal(dense(f(M)), want)
    assert calls == {"cc": 0, "scc": 0}


@pytest.mark.parametrize("f", [cc, scc], ids=["cc", "scc"])
def test_suitesparse_backend_compiles(f):
    """On the SuiteSparse backend the compiled loop runs (here: it is made to raise)."""
    A = sr.Matrix.from_coo([0, 1], [1, 0], nrows=3, ncols=3, backend="suitesparse")
    with mock.patch.object(_jit, "compile", _raise), pytest.raises(AssertionError, match="a compiled loop ran"):
        f(A)


@pytest.mark.parametrize("f", [cc, scc], ids=["cc", "scc"])
def test_without_numba_the_algebra_runs(f):
    """Where numba cannot be imported the SuiteSparse graph takes the algebra formulation."""
    A = sr.Matrix.from_coo([0, 1, 3], [1, 0, 4], nrows=5, ncols=5, backend="suitesparse")
    with mock.patch.object(_jit, "_numba", False), spy() as calls:
        assert not _jit.enabled()
        got = f(A)
    assert calls == {"cc": 0, "scc": 0}
    assert got.backend == "suitesparse"
    assert got.to_dense().tolist() == ([0, 0, 2, 3, 3] if f is cc else [0, 0, 2, 3, 4])


def test_out_of_memory_before_the_search():
    """The loops' arrays are checked against the memory free before they are made."""
    n = 10**7
    A = sr.Matrix.from_coo([0], [1], nrows=n, ncols=n, backend="suitesparse")  # directed
    with mock.patch("semiring._memory.available_bytes", lambda device="cpu": 16 * 2**20):
        with pytest.raises(sr.OutOfMemory, match="strongly_connected_components: the depth-first search arrays"):
            scc(A)
        with pytest.raises(sr.OutOfMemory, match="connected_components: the labels of 10000000 vertices"):
            cc(A)


# ---------------------------------------------------------------------------------------------
# the data graphs (../shared/data)
# ---------------------------------------------------------------------------------------------

@pytest.mark.data
def test_ny_roads(shared_data):
    A = sr.io.read(shared_data / "roads/USA-road-t.NY.gr.gz").to("cpu", backend="suitesparse")
    want = scipy_answer(A, "weak")
    with spy() as calls:
        np.testing.assert_array_equal(dense(cc(sr.algorithms.Graph(A, "undirected"))), want)
        np.testing.assert_array_equal(dense(cc(A)), want)
    assert calls["cc"] == 2


@pytest.mark.data
def test_cnr2000(cnr2000):
    M, law = cnr2000
    A = M.to("cpu", backend="suitesparse")
    with spy() as calls:
        np.testing.assert_array_equal(dense(scc(A)), min_labels(law))
        np.testing.assert_array_equal(dense(cc(A)), scipy_answer(M, "weak"))
    assert calls == {"cc": 1, "scc": 1}
