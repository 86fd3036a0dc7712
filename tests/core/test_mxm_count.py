"""The fast paths of masked ``plus.pair`` products against a dense NumPy count of the terms and
against the generic expansion kernel: on the CPU SciPy's SpGEMM of the patterns, then the mask;
on the GPU one sorted-list intersection per mask key."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

import semiring as sr
from semiring.backends._xp import asnumpy
from semiring.backends.cpu import products as kernels
from _devices import DEVICES, same


def random_matrix(rng, m, n, density, dtype, empty_rows=0.0):
    """A random Matrix with values in dtype and its pattern; some stored values are explicit
    zeros (entries); about a fraction ``empty_rows`` of the rows hold no entry."""
    present = rng.random((m, n)) < density
    present[rng.random(m) < empty_rows] = False
    rows, cols = np.nonzero(present)
    vals = rng.integers(0, 3, rows.size) if dtype != "bool" else rng.random(rows.size) < 0.5
    return sr.Matrix.from_coo(rows, cols, np.asarray(vals).astype(dtype), nrows=m, ncols=n, dtype=dtype), present


#: (m, k, n, density of A, density of B, COUNT_CHUNK_TERMS): ~125 terms per entry (int8 wraps),
#: in one chunk and in many chunks of a few rows (7 terms); short and long rows of A (on the GPU
#: 1 to 32 lanes per mask key); a square case
SHAPES = [(40, 300, 35, 0.6, 0.7, 1 << 25), (40, 300, 35, 0.6, 0.7, 7), (500, 60, 400, 0.02, 0.3, 7),
          (200, 200, 200, 0.1, 0.3, 1 << 25)]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", ["int64", "int8", "float32", "float64", "bool"])
@pytest.mark.parametrize("mask_kind", ["S", "V"])
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_masked_pair_counts_terms(device, dtype, mask_kind, shape, monkeypatch):
    """The product against the dense count of its terms (explicit zeros and empty rows of A,
    structure and value masks) and against the generic expansion kernel on the same operands;
    on the GPU (one sorted-list intersection per mask key) also against the CPU path."""
    m, k, n, da, db, chunk = shape
    monkeypatch.setattr(kernels, "COUNT_CHUNK_TERMS", chunk)  # 7: many chunks of a few rows
    rng = np.random.default_rng(zlib.crc32(repr((dtype, mask_kind, shape)).encode()))
    A, pa = random_matrix(rng, m, k, da, dtype, empty_rows=0.2)
    B, pb = random_matrix(rng, k, n, db, dtype)
    M, pm = random_matrix(rng, m, n, 0.3, "int64")
    allowed = pm if mask_kind == "S" else pm & (M.to_dense(0) != 0)
    mask = M.S if mask_kind == "S" else M.V
    Ad, Bd, Md = (X.to(device) for X in (A, B, M))
    got = sr.mxm(Ad, Bd, sr.semirings.plus_pair, mask=Md.S if mask_kind == "S" else Md.V)
    assert got.device == device and got.dtype == np.dtype(dtype)
    count = pa.astype(np.int64) @ pb.astype(np.int64)  # terms per (i, j), explicit zeros included
    r, c, v = (asnumpy(x) for x in got.to_coo())
    assert np.array_equal(r * n + c, np.flatnonzero(allowed & (count > 0)))
    if dtype == "bool":
        assert v.all()
    else:
        np.testing.assert_array_equal(v, count[r, c].astype(dtype))  # int8: modulo 256, as repeated int8 plus
    # the generic expansion kernel gives the same entries and values
    gk, gv = kernels.mxm(A, B, sr.semirings.plus_pair, keep=mask.allows_fn())
    order = np.argsort(gk)
    np.testing.assert_array_equal(gk[order], r * n + c)
    np.testing.assert_array_equal(gv[order].astype(v.dtype), v)
    if device == "gpu":
        same(sr.mxm(A, B, sr.semirings.plus_pair, mask=mask), got)


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
