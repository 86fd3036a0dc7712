"""The fast paths of masked ``plus.pair`` products against a dense NumPy count of the terms and
against the generic expansion kernel: on the CPU SciPy's SpGEMM of the patterns, then the mask;
on the GPU one sorted-list intersection per mask key."""

from __future__ import annotations

import numpy as np
import pytest

import semiring as sr
from semiring.backends._xp import asnumpy
from semiring.backends.cpu import products as kernels
from _devices import DEVICES


gpu = pytest.mark.gpu


def random_matrix(rng, m, n, density, dtype, zeros=True):
    """A random Matrix with values in dtype; some stored values are explicit zeros (entries)."""
    present = rng.random((m, n)) < density
    rows, cols = np.nonzero(present)
    vals = rng.integers(0, 3 if zeros else 1, rows.size) if dtype != "bool" else rng.random(rows.size) < 0.5
    return sr.Matrix.from_coo(rows, cols, np.asarray(vals).astype(dtype), nrows=m, ncols=n, dtype=dtype), present


@pytest.mark.parametrize("dtype", ["int64", "int8", "float64", "bool"])
@pytest.mark.parametrize("mask_kind", ["S", "V"])
@pytest.mark.parametrize("chunk", [1 << 25, 7])
def test_masked_pair_counts_terms(dtype, mask_kind, chunk, monkeypatch):
    monkeypatch.setattr(kernels, "COUNT_CHUNK_TERMS", chunk)  # 7: many chunks of a few rows
    rng = np.random.default_rng(hash((dtype, mask_kind, chunk)) % 2**32)
    m, k, n = 40, 300, 35
    A, pa = random_matrix(rng, m, k, 0.6, dtype)  # ~180 terms per entry: int8 wraps
    B, pb = random_matrix(rng, k, n, 0.7, dtype)
    M, pm = random_matrix(rng, m, n, 0.3, "int64")
    mask = M.S if mask_kind == "S" else M.V
    allowed = pm if mask_kind == "S" else pm & (M.to_dense(0) != 0)
    got = sr.mxm(A, B, sr.semirings.plus_pair, mask=mask)
    count = pa.astype(np.int64) @ pb.astype(np.int64)  # terms per (i, j), explicit zeros included
    want_present = allowed & (count > 0)
    r, c, v = got.to_coo()
    assert np.array_equal(np.sort(r * n + c), np.flatnonzero(want_present))
    want = count[r, c]
    if dtype == "bool":
        assert got.dtype == np.bool_ and v.all()
    else:
        assert got.dtype == np.dtype(dtype)
        np.testing.assert_array_equal(v, want.astype(dtype))  # int8: modulo 256, as repeated int8 plus
    # the generic expansion kernel gives the same entries and values
    s = sr.semirings.plus_pair
    gk, gv = kernels.mxm(A, B, s, keep=mask.allows_fn())
    order = np.argsort(gk)
    np.testing.assert_array_equal(gk[order], np.sort(r * n + c))
    np.testing.assert_array_equal(gv[order].astype(v.dtype), v[np.argsort(r * n + c)])


@pytest.mark.parametrize("device", DEVICES)
def test_masked_pair_edge_cases(device):
    A = sr.Matrix(3, 4, "int64", device=device)
    B = sr.Matrix.from_coo([0], [1], [1], nrows=4, ncols=2, device=device)
    M = sr.Matrix.from_coo([0, 2], [1, 0], [1, 1], nrows=3, ncols=2, device=device)
    assert sr.mxm(A, B, sr.semirings.plus_pair, mask=M.S).nvals == 0  # A empty
    A = sr.Matrix.from_coo([0, 2], [0, 3], [5, 5], nrows=3, ncols=4, device=device)
    E = sr.Matrix(3, 2, "int64", device=device)
    assert sr.mxm(A, B, sr.semirings.plus_pair, mask=E.S).nvals == 0  # empty mask
    C = sr.mxm(A, B, sr.semirings.plus_pair, mask=M.S)
    assert [asnumpy(x).tolist() for x in C.to_coo()] == [[0], [1], [1]]
    # a complemented mask takes the generic kernel: the same counts outside the mask
    D = sr.mxm(A, B, sr.semirings.plus_pair, mask=~M.S)
    assert D.nvals == 0


@gpu
@pytest.mark.parametrize("dtype", ["int64", "int8", "float32", "bool"])
@pytest.mark.parametrize("mask_kind", ["S", "V"])
@pytest.mark.parametrize("shape", [(40, 300, 35, 0.6), (500, 60, 400, 0.02), (200, 200, 200, 0.1)])
def test_gpu_masked_pair_counts_terms(dtype, mask_kind, shape):
    """The GPU intersection kernel against the dense count, with rows of very different lengths
    (lanes per key from 1 to 32), explicit zeros, empty rows and value masks; and against the
    CPU path on the same operands."""
    m, k, n, density = shape
    rng = np.random.default_rng(hash((dtype, mask_kind, shape)) % 2**32)
    A, pa = random_matrix(rng, m, k, density, dtype)
    pa[rng.random(m) < 0.2] = False  # empty rows of A
    r, c = np.nonzero(pa)
    A = sr.Matrix.from_coo(r, c, np.ones(r.size, dtype=dtype), nrows=m, ncols=k, dtype=dtype)
    B, pb = random_matrix(rng, k, n, max(density, 0.3), dtype)
    M, pm = random_matrix(rng, m, n, 0.3, "int64")
    mask_cpu = M.S if mask_kind == "S" else M.V
    allowed = pm if mask_kind == "S" else pm & (M.to_dense(0) != 0)
    Ag, Bg, Mg = (X.to("gpu") for X in (A, B, M))
    got = sr.mxm(Ag, Bg, sr.semirings.plus_pair, mask=Mg.S if mask_kind == "S" else Mg.V)
    assert got.device == "gpu" and got.dtype == np.dtype(dtype)
    count = pa.astype(np.int64) @ pb.astype(np.int64)
    want_present = allowed & (count > 0)
    r, c, v = (asnumpy(x) for x in got.to_coo())
    assert np.array_equal(r * n + c, np.flatnonzero(want_present))
    if dtype == "bool":
        assert v.all()
    else:
        np.testing.assert_array_equal(v, count[r, c].astype(dtype))
    want = sr.mxm(A, B, sr.semirings.plus_pair, mask=mask_cpu)
    assert [x.tolist() for x in want.to_coo()] == [x.tolist() for x in (r, c, v)]
