"""A Matrix's derived data (transpose, row ids, the algorithms' Graph with its degrees, symmetry
and per-algorithm data) follow every write of the matrix.

Each test warms every cache a read fills, writes the matrix by one write path, and checks that
what is read afterwards (``A.T``, the degrees, ``bfs``, ``sssp``) equals what a fresh Matrix of
the same content gives, and that both equal ``scipy.sparse.csgraph`` and NumPy computed on the
content read back with ``to_scipy``. The overlapping-write tests make a cache build run a write
of the matrix in its middle (as another thread could), and check that the value it publishes
is never served after the write.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse import csgraph

import semiring as sr
from semiring.algorithms import Graph
from semiring.algorithms.graph import as_graph

N = 24
SOURCE = 0


def _random_matrix(seed, n=N, density=0.12):
    """A directed graph with weights in [1, 10): no zero or negative weight, so every write
    below keeps the weights positive and Dijkstra is an oracle."""
    rng = np.random.default_rng(seed)
    S = sp.random(n, n, density=density, format="csr", random_state=rng, data_rvs=lambda k: rng.uniform(1, 10, k))
    S.sum_duplicates()
    return sr.Matrix.from_scipy(S.astype(np.float64), copy=True)


def _other(seed, n=N):
    return _random_matrix(seed + 1000, n, 0.08)


def _warm(A):
    """Read everything that fills a cache on A (and on its remembered Graph)."""
    A.T
    A._row_ids()
    G = as_graph(A, "test")
    G.out_degree, G.in_degree, G.kind
    for engine in ("auto", "algebra"):
        sr.algorithms.bfs(A, SOURCE, engine=engine)
        sr.algorithms.sssp(A, SOURCE, engine=engine)
    assert "sssp_weights" in G.derived()  # the searches filled the per-algorithm data
    return G


def _oracle(S):
    """(levels, distances, transpose as dense, out-degrees, in-degrees) of scipy matrix S."""
    S = sp.csr_array(S)
    hops = csgraph.shortest_path(S, directed=True, unweighted=True, indices=SOURCE)
    levels = np.where(np.isinf(hops), -1, hops).astype(np.int64)
    dist = csgraph.dijkstra(S, directed=True, indices=SOURCE)
    dense = S.toarray()
    present = np.zeros(S.shape, bool)
    r = np.repeat(np.arange(S.shape[0]), np.diff(S.indptr))
    present[r, S.indices] = True
    return levels, dist, dense.T, present.T, present.sum(axis=1), present.sum(axis=0)


def _observed(A):
    """The same quantities read through A's (possibly cached) derived data."""
    G = as_graph(A, "test")
    levels = {e: sr.algorithms.bfs(A, SOURCE, engine=e).level.to_dense(-1) for e in ("auto", "algebra")}
    dist = {e: sr.algorithms.sssp(A, SOURCE, engine=e).distance.to_dense(np.inf) for e in ("auto", "algebra")}
    T = A.T
    tdense, tpresent = T.to_dense(0.0), np.zeros(T.shape, bool)
    r, c, _ = T.to_coo()
    tpresent[r, c] = True
    return levels, dist, tdense, tpresent, G.out_degree.to_dense(0), G.in_degree.to_dense(0), A._row_ids()


def _check_follows(A):
    """A's derived data equal a fresh Matrix's and the oracle's for A's current content."""
    S = A.to_scipy(copy=True)
    fresh = sr.Matrix.from_scipy(S, copy=True)
    lv, dist, tdense, tpresent, outd, ind = _oracle(S)
    for got in (_observed(A), _observed(fresh)):
        levels, dists, td, tp, od, idg, rows = got
        for e in levels:
            np.testing.assert_array_equal(levels[e], lv)
            np.testing.assert_allclose(dists[e], dist)
        np.testing.assert_array_equal(td, tdense)
        np.testing.assert_array_equal(tp, tpresent)
        np.testing.assert_array_equal(od, outd)
        np.testing.assert_array_equal(idg, ind)
        np.testing.assert_array_equal(rows, np.repeat(np.arange(S.shape[0]), np.diff(S.indptr)))


def _region(A, seed):
    rng = np.random.default_rng(seed)
    return np.sort(rng.choice(A.nrows, 3, replace=False)), np.sort(rng.choice(A.ncols, 4, replace=False))


# each writes A in place by one write path, keeping the weights positive, and changes its content
WRITES = {
    "ewise_add out=A": lambda A, s: sr.ewise_add(A, _other(s), sr.binary.min, out=A),
    "ewise_mult out=A": lambda A, s: sr.ewise_mult(A, sr.ewise_add(A, _other(s), sr.binary.first),
                                                   sr.binary.plus, out=A),
    "mxm out=A, accum": lambda A, s: sr.mxm(A, A, sr.semirings.min_plus, accum=sr.binary.min, out=A),
    "mxm out=A, masked": lambda A, s: sr.mxm(A, A, sr.semirings.min_plus, mask=_other(s).S, out=A),
    "mxm out=A, complemented mask": lambda A, s: sr.mxm(A, A, sr.semirings.min_plus, mask=~A.S, out=A),
    "apply out=A, replace": lambda A, s: sr.apply(A, sr.binary.plus, right=1.0, mask=_other(s).S, replace=True,
                                                  out=A),
    "select out=A": lambda A, s: sr.select(A, sr.indexunary.valuelt, 6.0, out=A),
    "transpose out=A": lambda A, s: sr.transpose(A, out=A),
    "assign scalar into a region": lambda A, s: sr.assign(A, 0.5, _region(A, s)),
    "assign scalar, masked": lambda A, s: sr.assign(A, 2.5, None, mask=_other(s).S),
    "assign scalar, accum": lambda A, s: sr.assign(A, 3.0, None, accum=sr.binary.plus, mask=_other(s).S),
    "assign matrix into a region": lambda A, s: sr.assign(A, sr.Matrix.from_coo([0, 2], [1, 3], [4.0, 5.0],
                                                                                nrows=3, ncols=4), _region(A, s)),
    "extract out=A": lambda A, s: sr.extract(_other(s), None, None, out=A),
}


@pytest.mark.parametrize("kind", sorted(WRITES))
@pytest.mark.parametrize("seed", [1, 2])
def test_derived_data_follow_each_write(kind, seed):
    A = _random_matrix(seed)
    G = _warm(A)
    before = A.to_scipy(copy=True)
    v = A._version
    WRITES[kind](A, seed)
    assert A._version > v  # every write gives a new version
    assert (A.to_scipy() != before).nnz  # and the write did change the content
    _check_follows(A)
    assert as_graph(A, "test") is not G  # the Graph of the old content is not served
    # a Graph held across the write follows too (degrees, symmetry, per-algorithm data anew)
    np.testing.assert_array_equal(G.out_degree.to_dense(0), np.diff(A.to_scipy().indptr))


@settings(max_examples=25, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(sorted(WRITES)), min_size=1, max_size=4), st.integers(0, 50))
def test_derived_data_follow_a_sequence_of_writes(kinds, seed):
    # reads between the writes fill the caches again; each write must invalidate them again
    A = _random_matrix(seed)
    for i, kind in enumerate(kinds):
        _warm(A)
        WRITES[kind](A, seed + i)
    _check_follows(A)


def test_user_graph_keeps_its_given_kind_and_recomputes_the_rest():
    A = _random_matrix(5)
    G = Graph(A, "directed")
    d0 = G.out_degree.to_dense(0)
    sr.assign(A, 1.0, ([1, 2], [3, 4, 5]))
    assert G.kind == "directed"
    np.testing.assert_array_equal(G.out_degree.to_dense(0), np.diff(A.to_scipy().indptr))
    assert not np.array_equal(d0, G.out_degree.to_dense(0))


def test_transpose_taken_before_a_write_stays_a_snapshot():
    A = _random_matrix(7)
    T0, S0 = A.T, A.to_scipy(copy=True)
    sr.assign(A, 9.0, ([0], [1, 2, 3]))
    np.testing.assert_array_equal(T0.to_scipy().toarray(), S0.T.toarray())
    np.testing.assert_array_equal(A.T.to_scipy().toarray(), A.to_scipy().T.toarray())


def test_hypersparse_matrix_transpose_and_rows_follow_a_write():
    # 2**40 x 2**40: row pointers of the nonempty rows only; the write goes through the
    # compressed-axes path of huge shapes
    n = 2**40
    A = sr.Matrix.from_coo([3, n - 1], [n - 2, 5], [1.0, 2.0], nrows=n, ncols=n)
    assert A.format == "hypersparse"
    assert A.T.to_coo()[0].tolist() == [5, n - 2]
    A._row_ids()
    sr.ewise_add(A, sr.Matrix.from_coo([7], [11], [3.0], nrows=n, ncols=n), sr.binary.plus, out=A)
    r, c, v = A.T.to_coo()
    assert r.tolist() == [5, 11, n - 2] and c.tolist() == [n - 1, 7, 3] and v.tolist() == [2.0, 3.0, 1.0]
    assert A._row_ids().tolist() == [3, 7, n - 1]


# --- a build that overlaps a write ------------------------------------------------------------

def _write_during_first_build(monkeypatch, target, name, A, write):
    """Patch ``target.name`` so that its first call writes A before building (as a thread
    writing A while another builds a cache of it would); later calls build normally."""
    original = getattr(target, name)
    done = []

    def patched(*args, **kwargs):
        if not done:
            done.append(True)
            stale = original(*args, **kwargs)  # built from the old content ...
            write(A)  # ... and the write lands before it is published
            return stale
        return original(*args, **kwargs)

    monkeypatch.setattr(target, name, patched)
    return done


def test_a_transpose_built_across_a_write_is_not_served_after_it(monkeypatch):
    A = _random_matrix(11)
    done = _write_during_first_build(monkeypatch, sr.Matrix, "_transpose", A,
                                     lambda A: sr.assign(A, 7.0, ([0, 1], [2, 3, 4])))
    stale = A.T  # the build that overlapped the write returns what it built to its caller
    assert done
    fresh = A.T
    assert fresh is not stale
    np.testing.assert_array_equal(fresh.to_scipy().toarray(), A.to_scipy().T.toarray())


def test_row_ids_built_across_a_write_are_not_served_after_it(monkeypatch):
    import semiring.core.matrix as mm

    A = _random_matrix(12)
    _write_during_first_build(monkeypatch, mm._rowptr, "entry_rows", A,
                              lambda A: sr.assign(A, 7.0, ([N - 1], [0, 1, 2, 3, 4, 5])))
    A._row_ids()
    S = A.to_scipy()
    np.testing.assert_array_equal(A._row_ids(), np.repeat(np.arange(N), np.diff(S.indptr)))


def test_a_graph_and_degrees_built_across_a_write_are_not_served_after_it(monkeypatch):
    import semiring.algorithms.graph as gm

    A = _random_matrix(13)
    _write_during_first_build(monkeypatch, gm, "_ones", A,
                              lambda A: sr.assign(A, 7.0, ([2, 5], [0, 1, 6, 9])))
    as_graph(A, "test").out_degree  # built from the old content while the write lands
    _check_follows(A)


def test_threads_reading_while_one_writes_see_the_last_write_once_it_returned():
    # readers fill and refill the caches while a writer writes; the outcome of a read that
    # overlaps a write is the caller's race (anything may be read, or raised), but after the
    # writer has returned, every read sees the last content
    A = _random_matrix(21)
    stop = threading.Event()

    def reader():
        while not stop.is_set():
            try:
                A.T
                as_graph(A, "test").out_degree
                sr.algorithms.bfs(A, SOURCE)
            except Exception:  # noqa: BLE001 - reads racing a write are undefined
                pass

    threads = [threading.Thread(target=reader, daemon=True) for _ in range(3)]
    for t in threads:
        t.start()
    try:
        for i in range(30):
            sr.ewise_add(A, _other(i), sr.binary.min, out=A) if i % 2 else sr.select(A, sr.indexunary.valuelt,
                                                                                     8.0 - i / 10, out=A)
        _check_follows(A)
    finally:
        stop.set()
        for t in threads:
            t.join(30)
    _check_follows(A)
