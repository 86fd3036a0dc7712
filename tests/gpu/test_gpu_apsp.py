"""``all_pairs_shortest_paths(method="repeated")`` on the device: batched Bellman-Ford
(semiring.backends.gpu.multi_source) for weighted graphs, the batched BFS sweeps for bool ones.

Each result is compared with the CPU path (one ``sssp`` or ``bfs`` per source: same rows, dtype
and values bit for bit, same errors naming the same source) and with scipy's shortest paths; on
random graphs of every weight kind (integers, floats, zeros, negative weights without negative
cycles, +inf weights, float sums past the largest double), with negative cycles, sources
repeated and in any order, batches of several sizes, rows cut into chunks (hubs), ``max_bytes``
refusals, and LAGraph's ``test_FW_2003`` and a Graph500 Kronecker graph, where a warm call reads
from the device once per batch.
"""

from __future__ import annotations

import contextlib
import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.sparse import csgraph

import semiring as sr
from semiring.backends._xp import asnumpy

gpu = pytest.mark.gpu
apsp = sr.algorithms.all_pairs_shortest_paths
DEVICE = "gpu"


@contextlib.contextmanager
def _batch(size):
    """Sources per batch of the device's searches set to ``size`` for the block."""
    from semiring.backends.gpu import multi_source

    saved = multi_source.BATCH
    multi_source.BATCH = size
    try:
        yield
    finally:
        multi_source.BATCH = saved


def _outcome(f):
    try:
        return f()
    except sr.SemiringError as exc:
        return exc


def _cycle_source(exc):
    return re.search(r"from source (\d+) ", str(exc)).group(1)


def _identical(cpu, dev):
    """The device's result (or error) is the CPU's: same kind, shape, dtype, positions and
    values bit for bit; errors of the same type with the same message (negative cycles: naming
    the same source)."""
    if isinstance(cpu, Exception):
        assert type(dev) is type(cpu), (cpu, dev)
        if isinstance(cpu, sr.NegativeCycleError):
            assert _cycle_source(dev) == _cycle_source(cpu)
        else:
            assert str(dev) == str(cpu)
        return
    assert not isinstance(dev, Exception), dev
    assert dev.device == DEVICE and dev.shape == cpu.shape and dev.dtype == cpu.dtype
    a = [asnumpy(t) for t in cpu.to_coo()]
    b = [asnumpy(t) for t in dev.to_coo()]
    for x, y in zip(a, b):
        assert x.dtype == y.dtype
        np.testing.assert_array_equal(x.view(np.int64) if x.dtype == np.float64 else x,
                                      y.view(np.int64) if y.dtype == np.float64 else y)


def _scipy(A, sources):
    """scipy's lengths from ``sources`` over A's entries (bool A: hop counts)."""
    S = A.to_scipy().tocsr().astype(np.float64)
    if A.dtype.kind == "b":
        S.data[:] = 1.0
    D = csgraph.shortest_path(S, method="BF" if (S.data < 0).any() else "D", indices=np.asarray(sources))
    return np.atleast_2d(D).reshape(len(sources), A.nrows)


def _both(A, sources, max_bytes=None):
    """(CPU result, device result) of method="repeated", or the errors raised."""
    cpu = _outcome(lambda: apsp(A, method="repeated", sources=sources, max_bytes=max_bytes))
    dev = _outcome(lambda: apsp(A.to(DEVICE), method="repeated", sources=sources, max_bytes=max_bytes))
    _identical(cpu, dev)
    return dev


def _graph(n, m, seed, kind):
    """A random n-vertex graph of about m arcs whose weights are of ``kind``."""
    rng = np.random.default_rng(seed)
    r, c = rng.integers(0, n, m), rng.integers(0, n, m)
    dtype = "float64"
    if kind == "int":
        w, dtype = rng.integers(0, 50, m), "int64"
    elif kind == "int8":
        w, dtype = rng.integers(0, 100, m), "int8"
    elif kind == "float":
        w = rng.random(m) * 10
    elif kind == "zero":  # zero-length edges, both signs of zero
        w = rng.integers(0, 3, m).astype(np.float64)
        w[(w == 0) & (rng.random(m) < 0.5)] = -0.0
    elif kind in ("negative", "negative_float"):  # potentials: negative edges, no negative cycle
        p = rng.integers(0, 30, n)
        keep = r != c
        r, c = r[keep], c[keep]
        w = rng.integers(0, 10, r.size) + p[r] - p[c]
        dtype = "int64" if kind == "negative" else "float64"
        if dtype == "float64":
            w = w / 4.0
    elif kind == "inf":  # +inf weights: vertices reached only through them are at +inf
        w = np.where(rng.random(m) < 0.3, np.inf, rng.integers(1, 9, m).astype(float))
    elif kind == "huge":  # float sums past the largest double are +inf
        w = np.where(rng.random(m) < 0.5, 1.2e308, rng.random(m))
    elif kind == "bool":
        w, dtype = None, "bool"
    return sr.Matrix.from_coo(r, c, None if w is None else np.asarray(w).astype(dtype), nrows=n, ncols=n,
                              dtype=dtype, dup_op=sr.binary.lor if w is None else sr.binary.min)


KINDS = ["int", "int8", "float", "zero", "negative", "negative_float", "inf", "huge", "bool"]


@gpu
@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(n=st.integers(1, 160), density=st.floats(0, 6), seed=st.integers(0, 2**31), kind=st.sampled_from(KINDS),
       nsrc=st.integers(1, 80), batch=st.sampled_from([1, 3, 32, 40, 128]))
def test_random_graphs_equal_cpu_and_scipy(n, density, seed, kind, nsrc, batch):
    A = _graph(n, int(n * density), seed, kind)
    src = np.random.default_rng(seed + 1).integers(0, n, nsrc)  # any order, repeats
    with _batch(batch):
        D = _both(A, src)
    if kind not in ("inf", "huge"):
        want = _scipy(A, src)
        got = asnumpy(D.to_dense(np.inf)).astype(np.float64)
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=0)
        assert D.nvals == int(np.isfinite(want).sum())


@gpu
def test_infinite_weights_and_overflowing_sums_give_inf_entries():
    # 0 -> 1 (1), 1 -> 2 (+inf), 2 -> 3 (1), 0 -> 4 (1e308), 4 -> 5 (1e308), 5 -> 4 (-1e308)
    A = sr.Matrix.from_coo([0, 1, 2, 0, 4, 5], [1, 2, 3, 4, 5, 4], [1.0, np.inf, 1.0, 1e308, 1e308, -1e308],
                           nrows=7, ncols=7)
    D = _both(A, [0, 2, 6])
    got = asnumpy(D.to_dense(-1.0))
    np.testing.assert_array_equal(got[0], [0, 1, np.inf, np.inf, 1e308, np.inf, -1])
    np.testing.assert_array_equal(got[1], [-1, -1, 0, 1, -1, -1, -1])
    assert D.nvals == 6 + 2 + 1
    minus_inf = sr.Matrix.from_coo([0, 1], [1, 2], [1.0, -np.inf], nrows=3, ncols=3)
    with pytest.raises(sr.InvalidValue, match="-inf"):
        apsp(minus_inf.to(DEVICE), method="repeated", sources=[0])


@gpu
@pytest.mark.parametrize("dtype", ["int64", "float64"])
def test_negative_cycles_name_the_first_source_that_reaches_one(dtype):
    # a path 0 -> 1 -> ... -> 9, a cycle 9 -> 10 -> 9 of weight -1 at its end; 11 -> 0 and 12 alone
    r = list(range(9)) + [9, 10, 11]
    c = list(range(1, 10)) + [10, 9, 0]
    w = [2] * 9 + [3, -4, 1]
    A = sr.Matrix.from_coo(r, c, np.array(w, dtype=dtype), nrows=13, ncols=13)
    for sources in ([12, 10, 3], [11], [5, 12, 0, 9]):
        err = _both(A, sources)
        assert isinstance(err, sr.NegativeCycleError)
        assert _cycle_source(err) == str([s for s in sources if s != 12][0])
    # sources that reach no negative cycle get their rows
    B = sr.Matrix.from_coo(r + [12], c + [12], np.array(w + [5], dtype=dtype), nrows=13, ncols=13)
    _both(B, [12, 12])
    # a negative self-loop at the source, n = 1
    _both(sr.Matrix.from_coo([0], [0], np.array([-1], dtype=dtype), nrows=1, ncols=1), [0])
    with pytest.raises(sr.NegativeCycleError, match="source 0 "):
        apsp(sr.Matrix.from_coo([0], [0], np.array([-1], dtype=dtype), nrows=1, ncols=1).to(DEVICE),
             method="repeated", sources=[0, 0])
    # a zero-weight cycle is no negative cycle
    Z = sr.Matrix.from_coo([0, 1, 1], [1, 0, 2], np.array([0, 0, -3], dtype=dtype), nrows=3, ncols=3)
    assert asnumpy(_both(Z, [0, 2]).to_dense(99)).tolist() == [[0, 0, -3], [99, 99, 0]]


@gpu
def test_long_integer_weights_near_overflow():
    # weights near 2**63 / n: a negative cycle must raise before int64 overflows, and without
    # one the longest paths are exact
    n = 40
    top = (2**63 - 1) // (n - 1)
    path = sr.Matrix.from_coo(np.arange(n - 1), np.arange(1, n), np.full(n - 1, top, dtype=np.int64),
                              nrows=n, ncols=n)
    D = _both(path, [0, 1])
    assert D.get(0, n - 1) == top * (n - 1)
    r, c = np.r_[np.arange(n - 1), n - 1], np.r_[np.arange(1, n), 0]
    w = np.r_[np.full(n - 1, -top, dtype=np.int64), top - 1]  # the whole ring weighs -top * (n - 2) - 1
    ring = sr.Matrix.from_coo(r, c, w, nrows=n, ncols=n)
    assert isinstance(_both(ring, [3]), sr.NegativeCycleError)


@gpu
def test_hub_rows_cut_into_chunks():
    # a star: the hub's row (300 entries) spans many chunks; every leaf's shortest way to another
    # leaf goes through the hub
    from semiring.backends.gpu import multi_source

    n = 301
    leaves = np.arange(1, n)
    rng = np.random.default_rng(3)
    r = np.r_[np.zeros(n - 1, dtype=np.int64), leaves]
    c = np.r_[leaves, np.zeros(n - 1, dtype=np.int64)]
    A = sr.Matrix.from_coo(r, c, rng.integers(1, 1000, r.size).astype(np.int64), nrows=n, ncols=n)
    assert n - 1 > 4 * multi_source.CHUNK
    src = np.r_[0, rng.integers(1, n, 45)]
    with _batch(32):
        D = _both(A, src)
    np.testing.assert_array_equal(asnumpy(D.to_dense(-1)), _scipy(A, src))


@gpu
@pytest.mark.parametrize("kind", ["int", "bool"])
def test_max_bytes_refused_source_by_source_as_on_the_cpu(kind):
    A = sr.generators.grid(6, 9, weights=(1, 5), seed=2)
    A = A.dup("bool") if kind == "bool" else A
    n = A.nrows
    row = n * (8 + 8)  # a connected graph: every row has n entries of value + int64 index
    src = np.arange(0, n, 2)
    for batch in (1, 3, 128):
        with _batch(batch):
            for allowed in (row - 1, 3 * row - 1, 3 * row, 10 * row + 7):
                err = _both(A, src, max_bytes=allowed)
                assert isinstance(err, sr.InvalidValue)
                k = allowed // row + 1
                assert f"the rows of the first {k} of {src.size} sources needs {k * row:,} bytes" in str(err)
            assert _both(A, src, max_bytes=src.size * row).nvals == src.size * n
    if kind == "int":
        # the grid plus a negative cycle n <-> n + 1 that only source n reaches: rows over
        # max_bytes before that source refuse first, as on the CPU
        r, c, v = A.to_coo()
        W = sr.Matrix.from_coo(np.r_[r, n, n + 1], np.r_[c, n + 1, n], np.r_[v, 1, -2], nrows=n + 2, ncols=n + 2)
        for batch in (1, 128):
            with _batch(batch):
                err = _both(W, [0, 1, n], max_bytes=row)
                assert isinstance(err, sr.InvalidValue) and "first 2 of 3" in str(err)
                assert isinstance(_both(W, [0, 1, n], max_bytes=10 * row), sr.NegativeCycleError)


@gpu
def test_bool_graphs_take_batched_bfs_levels():
    A = sr.select(sr.generators.kronecker(9, seed=2), sr.indexunary.triu)  # directed: i -> j, i < j
    src = np.r_[np.arange(0, 512, 7), [5, 5, 0]]
    D = _both(A, src)
    assert D.dtype == np.int64
    np.testing.assert_array_equal(asnumpy(D.to_dense(-1)), np.where(np.isinf(w := _scipy(A, src)), -1, w))


@gpu
@pytest.mark.parametrize("kind", ["float", "bool"])
def test_empty_and_tiny(kind):
    dtype = "float64" if kind == "float" else "bool"
    for n in (1, 4):
        A = sr.Matrix(n, n, dtype)
        D = _both(A, list(range(n)) + [0])
        assert D.nvals == n + 1
    assert apsp(sr.Matrix(4, 4, dtype).to(DEVICE), method="repeated", sources=[]).shape == (0, 4)


def _warm_reads(G, src):
    """The result of a second call on the same Graph and the host reads it made."""
    apsp(G, method="repeated", sources=src)
    with sr.host_reads() as hr:
        D = apsp(G, method="repeated", sources=src)
    return D, hr.count


@gpu
def test_kronecker_one_read_per_batch():
    A = sr.generators.kronecker(8, weights=(1, 255))
    src = np.arange(32)
    D, reads = _warm_reads(sr.algorithms.Graph(A.to(DEVICE)), src)
    assert reads == 1
    _identical(apsp(A, method="repeated", sources=src), D)
    np.testing.assert_array_equal(asnumpy(D.to_dense(np.inf)).astype(np.float64), _scipy(A, src))


@gpu
@pytest.mark.data
def test_lagraph_fw_2003(shared_data):
    A = sr.io.read(shared_data / "small/lagraph/test_FW_2003.mtx")
    assert A.dtype == np.float64
    G = sr.algorithms.Graph(A.to(DEVICE))
    spread = np.unique(np.linspace(0, A.nrows - 1, 32).astype(np.int64))
    for src in (np.arange(32), spread, np.arange(A.nrows)[::-7]):
        D, reads = _warm_reads(G, src)
        from semiring.backends.gpu import multi_source

        assert reads == -(-src.size // multi_source.BATCH)
        want = _scipy(A, src)
        assert D.nvals == int(np.isfinite(want).sum())
        np.testing.assert_array_equal(asnumpy(D.to_dense(np.inf)), want)  # integer lengths: exact
    _identical(apsp(A, method="repeated", sources=spread), apsp(G, method="repeated", sources=spread))
