"""The CPU fast path of masked ``plus.pair`` products (SciPy's SpGEMM of the patterns, then the
mask) against a dense NumPy count of the terms, and against the generic expansion kernel."""

from __future__ import annotations

import numpy as np
import pytest

import semiring as sr
from semiring.backends.cpu import products as kernels


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


def test_masked_pair_edge_cases():
    A = sr.Matrix(3, 4, "int64")
    B = sr.Matrix.from_coo([0], [1], [1], nrows=4, ncols=2)
    M = sr.Matrix.from_coo([0, 2], [1, 0], [1, 1], nrows=3, ncols=2)
    assert sr.mxm(A, B, sr.semirings.plus_pair, mask=M.S).nvals == 0  # A empty
    A = sr.Matrix.from_coo([0, 2], [0, 3], [5, 5], nrows=3, ncols=4)
    E = sr.Matrix(3, 2, "int64")
    assert sr.mxm(A, B, sr.semirings.plus_pair, mask=E.S).nvals == 0  # empty mask
    C = sr.mxm(A, B, sr.semirings.plus_pair, mask=M.S)
    assert C.to_coo()[0].tolist() == [0] and C.to_coo()[1].tolist() == [1] and C.to_coo()[2].tolist() == [1]
    # a complemented mask takes the generic kernel: the same counts outside the mask
    D = sr.mxm(A, B, sr.semirings.plus_pair, mask=~M.S)
    assert D.nvals == 0
