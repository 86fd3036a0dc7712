"""Strongly connected components on the GPU (one persistent kernel, semiring.backends.gpu.scc)
against the CPU path, scipy.sparse.csgraph's strong components and published answers.

The labelling every path must return is each vertex's smallest component member; scipy's
labels are put in that form independently of the code under test (``min_labels``). Graph
families: random digraphs with self-loops and isolated vertices, DAGs (every vertex alone),
chains of cycles numbered in increasing or decreasing order (the case that costs the
signature propagation one round per component when keys follow the ids), one big cycle in id
order or shuffled, symmetric graphs taken as directed, and LAW's cnr-2000 web crawl
(100,977 components, per-vertex labels published).
"""

from __future__ import annotations


import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import semiring as sr
from semiring.backends._xp import asnumpy

from _componentgraphs import min_labels, scipy_labels

gpu = pytest.mark.gpu
scc = sr.algorithms.strongly_connected_components

FAMILIES = ("random", "dag", "chain_up", "chain_down", "cycle", "cycle_shuffled", "symmetric")


def _cycles_in_blocks(sizes, increasing):
    """Consecutive blocks of vertices, each a directed cycle, linked block to block by one arc
    (from each block to the next when ``increasing``, else from each block to the previous).
    Returns (n, rows, cols, labels): labels[v] is the first vertex of v's block."""
    starts = np.r_[0, np.cumsum(sizes)[:-1]]
    n = int(np.sum(sizes))
    rows, cols, labels = [], [], np.repeat(starts, sizes)
    for s, k in zip(starts, sizes):
        if k > 1:
            v = np.arange(s, s + k)
            rows += v.tolist()
            cols += np.roll(v, -1).tolist()
    for a, b in zip(starts[:-1], starts[1:]):
        if increasing:
            rows.append(b - 1)
            cols.append(b)
        else:
            rows.append(b)
            cols.append(b - 1)
    return n, np.asarray(rows, dtype=np.int64), np.asarray(cols, dtype=np.int64), labels.astype(np.int64)


@st.composite
def digraphs(draw):
    """(family, n, rows, cols, known): ``known`` is the expected labelling where the family fixes
    it (None for random graphs), with self-loops and isolated vertices added at random."""
    family = draw(st.sampled_from(FAMILIES))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    known = None
    if family in ("random", "symmetric", "dag"):
        n = draw(st.integers(1, 70))
        m = int(rng.integers(0, 3 * n + 1))
        rows, cols = rng.integers(0, n, m), rng.integers(0, n, m)
        if family == "dag":  # arcs from smaller to larger ids only: every vertex alone
            rows, cols = np.minimum(rows, cols), np.maximum(rows, cols)
            known = np.arange(n, dtype=np.int64)
        if family == "symmetric":
            rows, cols = np.r_[rows, cols], np.r_[cols, rows]
    elif family in ("chain_up", "chain_down"):
        sizes = rng.integers(1, 5, draw(st.integers(1, 25)))
        n, rows, cols, known = _cycles_in_blocks(sizes, family == "chain_up")
    else:
        n = draw(st.integers(1, 300))
        order = np.arange(n) if family == "cycle" else rng.permutation(n)
        rows, cols = order, np.roll(order, -1)
        known = np.zeros(n, dtype=np.int64)
    # self-loops connect nothing; isolated vertices (no arc at all) at the end are alone
    loops = rng.integers(0, n, draw(st.integers(0, 3)))
    rows, cols = np.r_[rows, loops], np.r_[cols, loops]
    extra = draw(st.integers(0, 3))
    if known is not None:
        known = np.r_[known, np.arange(n, n + extra)]
    return family, n + extra, rows.astype(np.int64), cols.astype(np.int64), known


def _matrix(n, rows, cols, device="cpu"):
    return sr.Matrix.from_coo(rows, cols, nrows=n, ncols=n, dtype="bool", dup_op=sr.binary.lor, device=device)


def _device_labels(A):
    """The GPU result as host labels, after checking it is a full int64 Vector on the device."""
    got = scc(sr.algorithms.Graph(A.to("gpu"), "directed"))
    assert got.device == "gpu" and got.dtype == np.int64 and got.size == A.nrows
    assert got.nvals == A.nrows
    return asnumpy(got.to_dense())


@pytest.fixture
def device_calls(monkeypatch):
    """Counts the calls of the device kernel's host function (so a test knows which path ran)."""
    from semiring.backends.gpu import scc as backend

    calls = []
    real = backend.strongly_connected

    def spy(A, seed=0):
        out = real(A, seed)
        calls.append(out[1])
        return out

    monkeypatch.setattr(backend, "strongly_connected", spy)
    return calls


@gpu
@settings(max_examples=120, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(digraphs())
def test_random_digraphs_match_the_cpu_and_scipy(graph):
    family, n, rows, cols, known = graph
    A = _matrix(n, rows, cols)
    want = scipy_labels(A, "strong")[1]
    if known is not None:  # the family's own answer, and scipy agrees with it
        np.testing.assert_array_equal(want, known)
    np.testing.assert_array_equal(scc(sr.algorithms.Graph(A, "directed")).to_dense(), want)
    np.testing.assert_array_equal(_device_labels(A), want, err_msg=family)


@gpu
def test_the_device_path_runs_once_per_call_with_one_host_read(device_calls):
    sizes = np.random.default_rng(4).integers(1, 6, 200)
    n, rows, cols, known = _cycles_in_blocks(sizes, True)
    A = _matrix(n, rows, cols, "gpu")
    np.testing.assert_array_equal(asnumpy(scc(A).to_dense()), known)  # warm: kernel compiled, Graph built
    with sr.host_reads() as hr:
        got = scc(A)
    assert hr.count == 1
    np.testing.assert_array_equal(asnumpy(got.to_dense()), known)
    assert len(device_calls) == 2
    stats = device_calls[-1]
    assert stats["host_syncs"] == 1 and 1 <= stats["rounds"] <= stats["passes"]


@gpu
def test_undirected_graphs_keep_going_to_connected_components(device_calls):
    A = sr.generators.grid(5, 4).to("gpu")
    got = scc(A)
    assert device_calls == []
    np.testing.assert_array_equal(asnumpy(got.to_dense()), np.zeros(20, dtype=np.int64))


@gpu
@pytest.mark.parametrize("seed", [0, 1, 2**64 - 1, -5])
@pytest.mark.parametrize("sweeps", [1, 4])
def test_the_result_depends_on_neither_seed_nor_local_sweeps(monkeypatch, seed, sweeps):
    from semiring.backends.gpu import scc as backend

    monkeypatch.setattr(backend, "LOCAL_SWEEPS", sweeps)
    A = sr.generators.kronecker(10, seed=7)
    r, c, _ = A.to_coo()
    keep = (r * 7 + c * 13) % 4 != 0  # drop a quarter of the arcs: many components
    A = _matrix(A.nrows, r[keep], c[keep])
    want = scipy_labels(A, "strong")[1]
    got = scc(A.to("gpu"), seed=seed)
    np.testing.assert_array_equal(asnumpy(got.to_dense()), want)


@gpu
def test_wide_indices_and_hypersparse_storage():
    import cupy as cp

    # int64 column indices on the device (the kernel's other index type)
    n, rows, cols, known = _cycles_in_blocks(np.array([3, 1, 4, 1, 5]), False)
    A = _matrix(n, rows, cols)
    ip, ix, vals = (cp.asarray(a) for a in (A._indptr, A._indices, A._values))
    wide = sr.Matrix._from_csr(n, n, A.dtype, ip.astype(cp.int64), ix.astype(cp.int64), vals)
    assert wide.device == "gpu" and wide._indices.dtype == np.int64
    np.testing.assert_array_equal(asnumpy(scc(wide).to_dense()), known)
    # many vertices, few arcs (a hypersparse matrix): a 3-cycle far out and an arc into it
    big = 1_200_000
    B = _matrix(big, np.array([900_000, 900_001, 900_002, 7]), np.array([900_001, 900_002, 900_000, 900_000]))
    B = B.to("gpu")
    assert B.format == "hypersparse"
    want = np.arange(big)
    want[[900_001, 900_002]] = 900_000
    np.testing.assert_array_equal(asnumpy(scc(sr.algorithms.Graph(B, "directed")).to_dense()), want)


@gpu
@pytest.mark.data
def test_cnr2000_matches_the_published_components(cnr2000, device_calls):
    A, law = cnr2000
    G = sr.algorithms.Graph(A.to("gpu"))
    want = min_labels(law)
    np.testing.assert_array_equal(asnumpy(scc(G).to_dense()), want)
    with sr.host_reads() as hr:  # warm: one read, of the kernel's control words
        out = scc(G)
    assert hr.count == 1
    got = asnumpy(out.to_dense())
    np.testing.assert_array_equal(got, want)
    assert int((got == np.arange(A.nrows)).sum()) == 100_977
    assert len(device_calls) == 2
    # each round's fixed point is unique, so the rounds are fixed by the keys (seed 0): six, as
    # a NumPy model of the rounds gives; the passes depend on the order of the in-place updates
    stats = device_calls[-1]
    assert stats["rounds"] == 6 and stats["passes"] >= 6
