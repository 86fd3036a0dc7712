"""All-pairs shortest paths against scipy.sparse.csgraph.shortest_path and published answers.

The oracle is scipy (Floyd-Warshall / Bellman-Ford / BFS on the same entries; SciPy takes
stored zeros as zero-length edges, which ``test_scipy_takes_stored_zeros_as_edges`` checks);
published answers are the LDBC Graphalytics SSSP and BFS outputs (one source row each) and
LAGraph's Floyd-Warshall test matrices (``small/lagraph/test_FW_*.mtx``, checked against scipy).
Floyd-Warshall is n**3 ``min_plus`` terms, so the CPU tests keep n small; the full test_FW
matrices run on the GPU.
"""

from __future__ import annotations

import doctest
import re

import numpy as np
import pytest
import scipy.sparse.csgraph as csgraph
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import semiring as sr
from semiring.algorithms import apsp as apsp_module
from semiring.backends._xp import asnumpy
from _devices import DEVICES

apsp = sr.algorithms.all_pairs_shortest_paths
fw = sr.algorithms.floyd_warshall
WEIGHTED = ("floyd_warshall", "repeated")
ALL = ("auto", "floyd_warshall", "repeated", "batched_bfs")


def scipy_distances(A, unweighted=False, indices=None):
    """scipy's shortest paths over A's entries (bool or ``unweighted``: hop counts)."""
    S = A.to_scipy().astype(np.float64)
    if unweighted or A.dtype.kind == "b":
        S.data[:] = 1.0
    n = A.nrows
    if n == 0:
        return np.zeros((0, 0))
    method = "BF" if (S.data < 0).any() else ("FW" if indices is None else "D")
    if indices is not None:
        indices = np.asarray(indices, dtype=np.int64)
        if indices.size == 0:
            return np.zeros((0, n))
    D = csgraph.shortest_path(S, method=method, unweighted=unweighted or A.dtype.kind == "b", indices=indices)
    return D.reshape(-1, n)


def dense(D):
    return asnumpy(D.to_dense(np.inf)).astype(np.float64)


def check(A, method="auto", sources=None, unweighted=False, device="cpu", **kw):
    """The result on ``device`` (A copied there): shape, dtype, entries exactly at the reachable
    pairs, values equal to scipy's on A."""
    D = apsp(A.to(device), method=method, sources=sources, **kw)
    assert D.device == device
    src = np.arange(A.nrows) if sources is None else np.atleast_1d(np.asarray(sources))
    assert D.shape == (src.size, A.nrows)
    if method == "batched_bfs" or A.dtype.kind in "biu":
        assert D.dtype == np.int64
    else:
        assert D.dtype == np.float64
    want = scipy_distances(A, unweighted=unweighted or method == "batched_bfs", indices=src)
    got = dense(D)
    assert D.nvals == int(np.isfinite(want).sum())
    if D.dtype.kind == "f":
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    else:
        np.testing.assert_array_equal(got, want)
    if src.size:
        assert (got[np.arange(src.size), src] == 0).all()
    return D


def coo(n, edges, values=None, dtype=None):
    e = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    return sr.Matrix.from_coo(e[:, 0], e[:, 1], values, nrows=n, ncols=n, dtype=dtype)


# ---------------------------------------------------------------------------------------------
# small cases written out
# ---------------------------------------------------------------------------------------------

def test_hand_example_every_method():
    A = coo(4, [(0, 1), (1, 2), (0, 2), (2, 0)], [1.0, 2.0, 5.0, 1.0])
    inf = np.inf
    want = [[0, 1, 3, inf], [3, 0, 2, inf], [1, 2, 0, inf], [inf, inf, inf, 0]]
    for method in WEIGHTED:
        np.testing.assert_array_equal(dense(apsp(A, method=method)), want)
    np.testing.assert_array_equal(dense(fw(A)), want)
    hops = [[0, 1, 1, inf], [2, 0, 1, inf], [1, 2, 0, inf], [inf, inf, inf, 0]]
    np.testing.assert_array_equal(dense(apsp(A, method="batched_bfs")), hops)
    np.testing.assert_array_equal(dense(apsp(A, method="repeated", sources=[3, 1])), [want[3], want[1]])


def test_scipy_takes_stored_zeros_as_edges():
    """The oracle's convention (and ours): a stored 0 is a zero-length edge."""
    A = coo(3, [(0, 1), (1, 2)], [0.0, 1.0])
    assert scipy_distances(A)[0].tolist() == [0.0, 0.0, 1.0]
    for method in WEIGHTED:
        D = apsp(A, method=method)
        assert dense(D)[0].tolist() == [0.0, 0.0, 1.0]
        assert D.get(0, 1) == 0.0  # present, not absent


def test_bool_false_entries_are_unit_edges():
    A = coo(3, [(0, 1), (1, 2)], [False, False], "bool")
    for method in ALL:
        D = apsp(A, method=method)
        assert D.dtype == np.int64 and asnumpy(D.to_dense(-1)).tolist() == [[0, 1, 2], [-1, 0, 1], [-1, -1, 0]]


@pytest.mark.parametrize("method", ALL)
def test_empty_single_and_edgeless(method):
    for n in (0, 1, 5):
        A = sr.Matrix(n, n, "float64")
        D = apsp(A, method=method)
        assert D.shape == (n, n)
        assert D.nvals == n  # the diagonal only
        assert asnumpy(D.to_dense(-1)).tolist() == np.where(np.eye(n, dtype=bool), 0, -1).tolist()
    assert apsp(sr.Matrix(4, 4, "float64"), method=method, sources=[]).shape == (0, 4)


def test_diagonal_is_zero_with_positive_self_loops():
    A = coo(2, [(0, 0), (0, 1), (1, 1)], [3.0, 2.0, 0.5])
    for method in WEIGHTED:
        assert dense(apsp(A, method=method)).tolist() == [[0.0, 2.0], [np.inf, 0.0]]


def test_integer_and_unsigned_weights_give_int64():
    for dtype in ("int8", "int32", "uint16", "int64"):
        A = coo(3, [(0, 1), (1, 2), (2, 0)], [1, 2, 3], dtype)
        for method in WEIGHTED:
            D = apsp(A, method=method)
            assert D.dtype == np.int64
            assert asnumpy(D.to_dense()).tolist() == [[0, 1, 3], [5, 0, 2], [3, 4, 0]]


def test_float32_weights_give_float64():
    A = coo(2, [(0, 1)], [0.25], "float32")
    assert fw(A).dtype == np.float64


def test_negative_weights_without_a_negative_cycle():
    # potentials make negative edges without negative cycles
    A = coo(4, [(0, 1), (1, 2), (2, 3), (0, 3), (3, 1)], [-2, -3, 4, -1, 5], "int64")
    for method in WEIGHTED:
        check(A, method)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("method", WEIGHTED)
def test_negative_cycles_raise(method, device):
    A = coo(4, [(0, 1), (1, 2), (2, 1), (2, 3)], [1.0, -2.0, 1.0, 1.0]).to(device)
    with pytest.raises(sr.NegativeCycleError, match="negative"):
        apsp(A, method=method)
    loop = coo(3, [(0, 1), (1, 1)], [1.0, -0.5]).to(device)
    with pytest.raises(sr.NegativeCycleError):
        apsp(loop, method=method)


@pytest.mark.parametrize("device", DEVICES)
def test_floyd_warshall_negative_cycle_far_from_the_first_tile(device):
    n = 100
    r = list(range(n - 1)) + [90]
    c = list(range(1, n)) + [70]
    w = [1.0] * (n - 1) + [-25.0]  # 70 -> 90 costs 20, 90 -> 70 costs -25: a negative cycle
    A = sr.Matrix.from_coo(r, c, w, nrows=n, ncols=n)
    with pytest.raises(sr.NegativeCycleError, match=r"vertex \d+ lies on a negative-weight cycle") as info:
        fw(A.to(device))
    named = int(re.search(r"vertex (\d+)", str(info.value)).group(1))
    assert 70 <= named <= 90  # a vertex of the cycle; the GPU's tiled closure names its first
    assert device == "cpu" or named == 70
    # negative edges without a negative cycle are fine
    B = sr.Matrix.from_coo(r[:-1], c[:-1], [-1.0] * (n - 1), nrows=n, ncols=n)
    D = check(B, "floyd_warshall", device=device)
    assert fw(B.to(device)).isequal(D)


def test_floyd_warshall_finds_a_negative_cycle_the_sources_do_not_reach():
    A = coo(4, [(0, 1), (2, 3), (3, 2)], [1.0, -1.0, -1.0])
    D = apsp(A, method="repeated", sources=[0, 1])  # no negative cycle reachable from 0 or 1
    assert dense(D).tolist() == [[0.0, 1.0, np.inf, np.inf], [np.inf, 0.0, np.inf, np.inf]]
    with pytest.raises(sr.NegativeCycleError, match="vertex 3"):
        apsp(A, method="floyd_warshall", sources=[0, 1])
    with pytest.raises(sr.NegativeCycleError):
        fw(A)


def test_negative_cycle_across_blocks():
    # the cycle 1 -> 6 -> 1 spans two blocks of size 4
    A = coo(8, [(0, 1), (1, 6), (6, 1), (6, 7)], [1, 2, -3, 1], "int64")
    with pytest.raises(sr.NegativeCycleError):
        fw(A, block=4)
    with pytest.raises(sr.NegativeCycleError):
        fw(A, block=1)


def test_bad_inputs_raise():
    A = coo(3, [(0, 1)], [1.0])
    with pytest.raises(sr.DimensionMismatch, match="square"):
        apsp(sr.Matrix(2, 3, "float64"))
    with pytest.raises(sr.DimensionMismatch, match="square"):
        fw(sr.Matrix(2, 3, "float64"))
    with pytest.raises(sr.InvalidValue, match="expected a Matrix or Graph"):
        apsp(np.eye(3))
    with pytest.raises(sr.InvalidValue, match="method must be one of"):
        apsp(A, method="dijkstra")
    with pytest.raises(sr.IndexOutOfBound):
        apsp(A, sources=[0, 3])
    with pytest.raises(sr.IndexOutOfBound):
        apsp(A, sources=-1)
    with pytest.raises(sr.InvalidValue, match="sources"):
        apsp(A, sources=np.array([True, False, True]))
    with pytest.raises(sr.InvalidValue, match="integer"):
        apsp(A, sources=[0.5])
    for bad in (0, -5, 1.5, True, "1GB"):
        with pytest.raises(sr.InvalidValue, match="max_bytes"):
            apsp(A, max_bytes=bad)
        with pytest.raises(sr.InvalidValue, match="max_bytes"):
            fw(A, max_bytes=bad)
    for bad in (0, -1, 2.0, True):
        with pytest.raises(sr.InvalidValue, match="block"):
            fw(A, block=bad)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("method", WEIGHTED + ("auto",))
def test_nan_weights_raise(method, device):
    A = coo(3, [(0, 1), (1, 2)], [1.0, np.nan]).to(device)
    with pytest.raises(sr.InvalidValue, match="NaN"):
        apsp(A, method=method)
    with pytest.raises(sr.InvalidValue, match="1 NaN"):
        fw(A)
    # hop counts ignore the values, as BFS does
    assert dense(apsp(A, method="batched_bfs"))[0].tolist() == [0, 1, 2]


def test_integer_overflow_is_refused():
    A = coo(3, [(0, 1), (1, 2)], [2**62, 2**62], "int64")
    with pytest.raises(sr.DomainMismatch, match="overflow"):
        fw(A)


def test_memory_guard_says_what_it_needs_and_what_is_allowed():
    n = 50
    A = sr.generators.grid(5, 10, weights=(1, 5))
    need = n * n * (8 + 8) * apsp_module.FW_WORKSPACE
    with pytest.raises(sr.InvalidValue, match=f"needs {need:,} bytes but max_bytes allows {need - 1:,}"):
        fw(A, max_bytes=need - 1)
    with pytest.raises(sr.InvalidValue, match=f"needs {need:,} bytes"):
        apsp(A, method="floyd_warshall", max_bytes=need - 1)
    assert fw(A, max_bytes=need).nvals == n * n
    # the searches count the entries they produce: each row of a connected graph is n entries
    row = n * (8 + 8)
    with pytest.raises(sr.InvalidValue, match=f"first 3 of {n} sources needs {3 * row:,} bytes"):
        apsp(A, method="repeated", max_bytes=3 * row - 1)
    B = A.dup("bool")
    with pytest.raises(sr.InvalidValue, match="needs"):
        apsp(B, method="batched_bfs", max_bytes=5 * row)
    assert apsp(B, method="batched_bfs", max_bytes=n * row).nvals == n * n


@pytest.mark.parametrize("device", DEVICES)
def test_default_budget_is_a_share_of_the_free_memory(device):
    free = apsp_module.available_bytes(device)
    assert free > 0
    assert apsp_module._budget(None, device, "x") <= free
    # a graph too big for any machine's memory is refused before any work
    n = 10**7
    huge = sr.Matrix(n, n, "float64", device=device)
    with pytest.raises(sr.InvalidValue, match="max_bytes allows"):
        fw(huge)


def test_auto_method_choices(monkeypatch):
    calls = []
    for name in ("_floyd_warshall", "_repeated", "_batched_bfs"):
        real = getattr(apsp_module, name)

        def spy(*a, _real=real, _name=name, **k):
            calls.append(_name)
            return _real(*a, **k)
        monkeypatch.setattr(apsp_module, name, spy)
    W = coo(3, [(0, 1)], [1.0])
    apsp(W)
    apsp(W, sources=[0])
    apsp(W.dup("bool"))
    monkeypatch.setattr(apsp_module, "AUTO_FW_MAX_N", 2)
    apsp(W)
    assert calls == ["_floyd_warshall", "_repeated", "_batched_bfs", "_repeated"]


def test_graph_argument():
    A = sr.generators.grid(4, 4, weights=(1, 9))
    G = sr.algorithms.Graph(A)
    for method in ALL:
        assert apsp(G, method=method).isequal(apsp(A, method=method))


def test_docstring_examples():
    result = doctest.testmod(apsp_module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 2 and result.failed == 0


# ---------------------------------------------------------------------------------------------
# random graphs (hypothesis) and generated graphs
# ---------------------------------------------------------------------------------------------

@st.composite
def weighted_graphs(draw):
    n = draw(st.integers(1, 14))
    m = draw(st.integers(0, 3 * n))
    r = np.array(draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m)), dtype=np.int64)
    c = np.array(draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m)), dtype=np.int64)
    kind = draw(st.sampled_from(["float", "int", "negative", "bool"]))
    w = np.array(draw(st.lists(st.integers(0, 6), min_size=m, max_size=m)), dtype=np.int64)
    if kind == "negative":  # potentials: negative edges, no negative cycle; no self-loops
        p = np.array(draw(st.lists(st.integers(0, 8), min_size=n, max_size=n)), dtype=np.int64)
        keep = r != c
        r, c, w = r[keep], c[keep], w[keep] + p[r[keep]] - p[c[keep]]
    vals, dtype = {"float": (w / 4, "float64"), "int": (w, "int64"), "negative": (w, "int64"),
                   "bool": (None, "bool")}[kind]
    return sr.Matrix.from_coo(r, c, vals, nrows=n, ncols=n, dtype=dtype, dup_op=sr.binary.min)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(A=weighted_graphs(), data=st.data())
def test_random_graphs_match_scipy(A, data):
    n = A.nrows
    for method in WEIGHTED + ("auto",):
        check(A, method)
    check(A, "batched_bfs")
    block = data.draw(st.integers(1, n + 1))
    np.testing.assert_array_equal(dense(fw(A, block=block)), scipy_distances(A))
    sources = data.draw(st.lists(st.integers(0, n - 1), max_size=5))
    for method in ALL:
        check(A, method, sources=sources)


@pytest.mark.parametrize("name,make", [
    ("grid_weighted", lambda: sr.generators.grid(8, 9, weights=(1, 10), seed=1)),
    ("rgg_distance", lambda: sr.generators.random_geometric(110, seed=3, weights="distance")),
    ("kronecker7_weighted", lambda: sr.generators.kronecker(7, seed=2, weights=(1, 20))),
])
def test_generated_graphs(name, make):
    A = make()
    check(A, "floyd_warshall")
    check(A, "repeated", sources=[0, 5, A.nrows - 1])
    check(A, "batched_bfs")


def test_directed_generated_graph_every_method():
    K = sr.generators.kronecker(7, seed=4, weights=(1, 9))
    r, c, v = K.to_coo()
    keep = (r * 7 + c * 3) % 5 < 3  # drop some directions
    A = sr.Matrix.from_coo(r[keep], c[keep], v[keep], nrows=K.nrows, ncols=K.ncols)
    check(A, "floyd_warshall")
    check(A, "repeated", sources=np.arange(0, A.nrows, 9))
    check(A, "batched_bfs")
    check(A.dup("bool"), "auto")


def test_batched_bfs_in_several_batches(monkeypatch):
    monkeypatch.setattr(apsp_module, "BFS_BATCH", 7)
    A = sr.generators.random_geometric(60, seed=5)
    check(A, "batched_bfs")
    check(A, "batched_bfs", sources=[59, 3, 3, 10])  # repeated sources give repeated rows


# ---------------------------------------------------------------------------------------------
# published answers (../shared/data)
# ---------------------------------------------------------------------------------------------

LDBC_CASES = ["example-directed", "example-undirected", "dir", "undir"]


@pytest.mark.data
@pytest.mark.parametrize("case", LDBC_CASES)
def test_ldbc_sssp_rows(shared_data, case):
    from test_published_answers import ldbc_case

    A, index, source, expected = ldbc_case(shared_data, "sssp", case)
    want = np.full(A.nrows, np.nan)
    for label, value in expected.items():
        want[index[label]] = float(value)  # "Infinity" parses as inf
    for method in WEIGHTED:
        D = apsp(A, method=method, sources=[index[source]])
        np.testing.assert_allclose(dense(D)[0], want, rtol=1e-12, atol=0)
    full = dense(fw(A))
    np.testing.assert_allclose(full[index[source]], want, rtol=1e-12, atol=0)
    np.testing.assert_allclose(full, scipy_distances(A), rtol=1e-12, atol=0)


@pytest.mark.data
@pytest.mark.parametrize("case", LDBC_CASES)
def test_ldbc_bfs_rows(shared_data, case):
    from test_published_answers import LDBC_UNREACHED, ldbc_case

    A, index, source, expected = ldbc_case(shared_data, "bfs", case)
    D = apsp(A, method="batched_bfs")
    got = asnumpy(D.to_dense(-1))[index[source]]
    for label, value in expected.items():
        assert got[index[label]] == (-1 if int(value) == LDBC_UNREACHED else int(value)), (case, label)


@pytest.mark.data
@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("name", ["test_FW_1000", "test_FW_2003", "test_FW_2500"])
def test_lagraph_fw_matrices(shared_data, name, device):
    A = sr.io.read(shared_data / f"small/lagraph/{name}.mtx")
    assert A.dtype == np.float64
    sources = [0, 1, A.nrows // 2, A.nrows - 1]
    check(A, "repeated", sources=sources, device=device)
    check(A, "batched_bfs", sources=sources, device=device)
    # Floyd-Warshall: the whole matrix on the GPU, the leading 90 x 90 block on the CPU (the
    # whole matrix is n**3 terms)
    idx = np.arange(A.nrows if device == "gpu" else 90)
    B = sr.extract(A, idx, idx)
    D = check(B, "floyd_warshall", device=device)
    assert fw(B.to(device)).isequal(D)


@pytest.mark.data
def test_lagraph_test_bf(shared_data):
    A = sr.io.read(shared_data / "small/lagraph/test_BF.mtx")
    for method in ALL:
        check(A, method)


# ---------------------------------------------------------------------------------------------
# CPU / GPU parity (one body)
# ---------------------------------------------------------------------------------------------

def _parity_graphs():
    K = sr.generators.kronecker(7, seed=4, weights=(1, 9))
    r, c, v = K.to_coo()
    keep = (r * 7 + c * 3) % 5 < 3
    return {
        "directed_int": sr.Matrix.from_coo(r[keep], c[keep], v[keep], nrows=K.nrows, ncols=K.ncols),
        "rgg_distance": sr.generators.random_geometric(150, seed=3, weights="distance"),
        "grid_bool": sr.generators.grid(9, 11),
        "negative": coo(5, [(0, 1), (1, 2), (2, 3), (3, 4), (0, 4)], [4, -2, 3, -1, 2], "int64"),
        "edgeless": sr.Matrix(6, 6, "float64"),
    }


@pytest.mark.gpu
@pytest.mark.parametrize("name", sorted(_parity_graphs()))
@pytest.mark.parametrize("method", ALL)
def test_apsp_on_gpu_matches_cpu(method, name):
    from _devices import same

    A = _parity_graphs()[name]
    for sources in (None, [3, 0, 3]):
        cpu = apsp(A, method=method, sources=sources)
        dev = apsp(A.to("gpu"), method=method, sources=sources)
        same(cpu, dev)
    same(fw(A, block=16), fw(A.to("gpu"), block=16))
