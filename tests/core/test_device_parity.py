"""CPU/GPU parity of the core operations (products, element-wise operations, select, apply,
reduce, assign, extract, kronecker, user-defined semirings, the write-step grid; Matrix.from_coo
of device arrays; device storage and out-of-memory): one test body, run on both devices, results
compared exactly (integers, booleans) or with allclose (floats). Marked ``gpu``: skipped with
CuPy's reason where no GPU is present; run them on a GPU machine with ``pytest -m gpu``.
"""

from __future__ import annotations

import subprocess
import sys
import zlib

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import semiring as sr
from semiring.backends._xp import asnumpy

from _strategies import ACCUMS, GRID, dims, grid_id, lib_mask, matrices, small_values, vec_dims, vectors
from _devices import SEMIRINGS, no_host_build, random_matrix, random_vector, same

gpu = pytest.mark.gpu

MASKS = ["none", "S", "V", "~S", "~V"]


def _mask(m, kind):
    return {"none": None, "S": m.S, "V": m.V, "~S": ~m.S, "~V": ~m.V}[kind]


@gpu
@pytest.mark.parametrize("mask", MASKS)
@pytest.mark.parametrize("accum", [None, "plus"])
@pytest.mark.parametrize("replace", [False, True])
@pytest.mark.parametrize("name", SEMIRINGS)
def test_products_parity(name, mask, accum, replace):
    if replace and mask == "none":
        return  # replace needs a mask (InvalidValue): covered on the CPU
    s = sr.semirings.get(name)
    dtype = "uint64" if name == "bor_second" else ("bool" if name in ("lor_land",) else "int64")
    rng = np.random.default_rng(zlib.crc32(repr((name, mask, accum, replace)).encode()))
    A = random_matrix(rng, 40, 30, 0.15, dtype)
    B = random_matrix(rng, 30, 20, 0.2, dtype)
    u = random_vector(rng, 30, 0.3, dtype)
    v = random_vector(rng, 40, 0.3, dtype)
    acc = sr.binary.get(accum) if accum else None
    anyv = name.startswith("any_") and name != "any_pair"
    for direction in ("push", "pull"):
        m_w = random_vector(rng, 40, 0.5, "int64")
        out = random_vector(rng, 40, 0.4, dtype)
        cpu = sr.mxv(A, u, s, mask=_mask(m_w, mask), accum=acc, replace=replace, out=out.dup(),
                     direction=direction)
        dev = sr.mxv(A.to("gpu"), u.to("gpu"), s, mask=_mask(m_w.to("gpu"), mask), accum=acc,
                     replace=replace, out=out.to("gpu"), direction=direction)
        same(cpu, dev, anyv)
        if anyv:  # each kept term must be a real one: k with A(i, k) and u(k) present
            present_u = np.zeros(30, bool)
            present_u[u.to_coo()[0]] = True
            fresh = sr.mxv(A.to("gpu"), u.to("gpu"), s, direction=direction)
            for i, k in zip(*(asnumpy(t) for t in fresh.to_coo())):
                assert present_u[k] and sr.Matrix.get(A, int(i), int(k)) is not None
        m_u = random_vector(rng, 30, 0.5, "int64")
        cpu = sr.vxm(v, A, s, mask=_mask(m_u, mask), direction=direction)
        dev = sr.vxm(v.to("gpu"), A.to("gpu"), s, mask=_mask(m_u.to("gpu"), mask), direction=direction)
        same(cpu, dev, anyv)
    M = random_matrix(rng, 40, 20, 0.5, "int64")
    C = random_matrix(rng, 40, 20, 0.3, dtype)
    cpu = sr.mxm(A, B, s, mask=_mask(M, mask), accum=acc, replace=replace, out=C.dup())
    dev = sr.mxm(A.to("gpu"), B.to("gpu"), s, mask=_mask(M.to("gpu"), mask), accum=acc, replace=replace,
                 out=C.to("gpu"))
    same(cpu, dev, anyv)


@gpu
@pytest.mark.parametrize("mask", MASKS)
@pytest.mark.parametrize("dtype", ["bool", "int8", "int64", "uint64", "float32", "float64"])
def test_elementwise_select_apply_reduce_parity(mask, dtype):
    rng = np.random.default_rng(7)
    A = random_matrix(rng, 25, 35, 0.3, dtype)
    B = random_matrix(rng, 25, 35, 0.3, dtype)
    M = random_matrix(rng, 25, 35, 0.4, "int64")
    g = lambda x: x.to("gpu")  # noqa: E731
    mk = lambda m: _mask(m, mask)  # noqa: E731
    plus = sr.binary.lor if dtype == "bool" else sr.binary.plus
    same(sr.ewise_add(A, B, plus, mask=mk(M)), sr.ewise_add(g(A), g(B), plus, mask=mk(g(M))))
    same(sr.ewise_mult(A, B, sr.binary.max, mask=mk(M)), sr.ewise_mult(g(A), g(B), sr.binary.max, mask=mk(g(M))))
    same(sr.select(A, "tril", 1, mask=mk(M)), sr.select(g(A), "tril", 1, mask=mk(g(M))))
    same(sr.select(A, "valuegt", 1), sr.select(g(A), "valuegt", 1))
    same(sr.apply(A, sr.unary.ainv), sr.apply(g(A), sr.unary.ainv))
    same(sr.apply(A, sr.indexunary.colindex, thunk=2), sr.apply(g(A), sr.indexunary.colindex, thunk=2))
    MT = random_matrix(rng, 35, 25, 0.4, "int64")
    same(sr.transpose(A, mask=mk(MT)), sr.transpose(g(A), mask=mk(g(MT))))
    for mon in ("plus", "min", "max", "times", "any") if dtype != "bool" else ("lor", "land", "lxor", "any"):
        m = sr.monoid.get(mon)
        cpu, dev = sr.reduce_rowwise(A, m), sr.reduce_rowwise(g(A), m)
        if mon == "any":
            assert np.array_equal(asnumpy(cpu.to_coo()[0]), asnumpy(dev.to_coo()[0]))
        else:
            same(cpu, dev)
            same(sr.reduce_columnwise(A, m), sr.reduce_columnwise(g(A), m))
            assert np.allclose(sr.reduce_scalar(A, m), sr.reduce_scalar(g(A), m))
    w = random_vector(rng, 35, 0.5, dtype)
    out = random_vector(rng, 35, 0.4, dtype)
    idx = np.array([3, 1, 30, 7])
    same(sr.assign(out.dup(), w, None, mask=_mask(random_vector(np.random.default_rng(1), 35, 0.5, "int64"), mask)
                   if mask != "none" else None),
         sr.assign(g(out), g(w), None, mask=_mask(g(random_vector(np.random.default_rng(1), 35, 0.5, "int64")), mask)
                   if mask != "none" else None))
    same(sr.assign(out.dup(), 1, idx), sr.assign(g(out), 1, idx))
    same(sr.extract(A, [4, 0, 4], [2, 9]), sr.extract(g(A), [4, 0, 4], [2, 9]))
    K = random_matrix(rng, 3, 2, 0.5, dtype)
    same(sr.kronecker(A, K, sr.binary.first), sr.kronecker(g(A), g(K), sr.binary.first))


@gpu
def test_user_defined_semiring_on_gpu():
    op = sr.BinaryOp(lambda x, y: x * 2 + y, "twice_plus")
    mon = sr.Monoid(sr.binary.max, 0)
    s = sr.Semiring(mon, op)
    rng = np.random.default_rng(3)
    A = random_matrix(rng, 30, 30, 0.2, "int64")
    u = random_vector(rng, 30, 0.5, "int64")
    same(sr.mxv(A, u, s), sr.mxv(A.to("gpu"), u.to("gpu"), s))
    # a reduction by a user operator without a CUDA snippet runs on the host
    add = sr.BinaryOp(lambda x, y: x + y, "user_plus")
    same(sr.reduce_rowwise(A, add), sr.reduce_rowwise(A.to("gpu"), add))


def test_import_does_not_import_cupy():
    code = "import sys, semiring; semiring.Matrix(2, 2); print('cupy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_device_gpu_without_gpu_raises_backend_unavailable():
    from semiring.backends import gpu as gpu_backend

    if gpu_backend.available():
        A = sr.Matrix(2, 2, device="gpu")
        assert A.device == "gpu" and sr.Matrix(2, 2, device="auto").device == "gpu"
        return
    with pytest.raises(sr.BackendUnavailable, match="CuPy"):
        sr.Matrix(2, 2, device="gpu")
    with pytest.raises(sr.BackendUnavailable, match="CuPy"):
        sr.Vector.from_coo([0], [1.0], size=2).to("gpu")
    assert sr.Vector(3, device="auto").device == "cpu"


PARITY_SEMIRINGS = [sr.semirings.get(n) for n in SEMIRINGS if n != "bor_second"] + [
    sr.Semiring(sr.Monoid(sr.binary.max, 0), sr.BinaryOp(lambda x, y: x * 2 + y, "user_twice_plus"))]


@gpu
@pytest.mark.parametrize("grid", GRID, ids=grid_id)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_hypothesis_parity_over_the_write_step_grid(grid, data):
    """Random sparse inputs (empty, full, explicit zeros, several dtypes), every mask kind,
    accumulator and replace: the GPU equals the CPU for products in every direction,
    element-wise operations and assign. Values are the small exact ones (``small_values``):
    this checks the write step's structure on both devices, not float rounding order."""
    mask_kind, accum_name, replace = grid
    accum = ACCUMS[accum_name]
    s = data.draw(st.sampled_from(PARITY_SEMIRINGS))
    user = s.multiply.name.startswith("user")
    dtype = data.draw(st.sampled_from(["int64"] if user else ["bool", "int8", "int64", "float64"]))
    if s.monoid.name in ("lor", "land") and dtype != "bool":
        dtype = "bool"
    m, k = data.draw(dims), data.draw(vec_dims)
    A = data.draw(matrices(m, k, dtype, elements=small_values))
    u = data.draw(vectors(k, dtype, elements=small_values))
    M = data.draw(vectors(m, st.sampled_from(["bool", "int64", "float64"]), elements=small_values))
    tz = s.output_dtype(A.dtype, u.dtype)
    out = data.draw(st.one_of(st.none(), vectors(m, st.just(tz.name), elements=small_values)))
    if out is None and (accum is not None):
        out = data.draw(vectors(m, st.just(tz.name), elements=small_values))
    anyv = s.monoid.is_any and s.multiply.name != "pair"
    g = lambda x: None if x is None else x.to("gpu")  # noqa: E731
    for direction in ("push", "pull", "edge"):
        cpu = sr.mxv(A, u, s, mask=lib_mask(mask_kind, M), accum=accum, replace=replace,
                     out=None if out is None else out.dup(), direction=direction)
        dev = sr.mxv(g(A), g(u), s, mask=lib_mask(mask_kind, g(M)), accum=accum, replace=replace,
                     out=g(out), direction=direction)
        same(cpu, dev, anyv)
    v = data.draw(vectors(m, dtype, elements=small_values))
    W = data.draw(vectors(k, st.sampled_from(["bool", "int64"]), elements=small_values))
    for direction in ("push", "pull", "edge"):
        same(sr.vxm(v, A, s, mask=lib_mask(mask_kind, W), direction=direction),
             sr.vxm(g(v), g(A), s, mask=lib_mask(mask_kind, g(W)), direction=direction), anyv)
    B = data.draw(matrices(m, k, dtype, elements=small_values))
    C = data.draw(matrices(m, k, st.just(dtype), elements=small_values))
    MM = data.draw(matrices(m, k, st.sampled_from(["bool", "int64"]), elements=small_values))
    op = sr.binary.max
    same(sr.ewise_add(A, B, op, mask=lib_mask(mask_kind, MM), accum=accum and sr.binary.max, replace=replace,
                      out=C.dup()),
         sr.ewise_add(g(A), g(B), op, mask=lib_mask(mask_kind, g(MM)), accum=accum and sr.binary.max,
                      replace=replace, out=g(C)))
    same(sr.ewise_mult(A, B, op, mask=lib_mask(mask_kind, MM), replace=replace, out=C.dup()),
         sr.ewise_mult(g(A), g(B), op, mask=lib_mask(mask_kind, g(MM)), replace=replace, out=g(C)))
    same(sr.assign(C.dup(), B, (None, None), mask=lib_mask(mask_kind, MM), accum=accum and sr.binary.max,
                   replace=replace),
         sr.assign(g(C), g(B), (None, None), mask=lib_mask(mask_kind, g(MM)), accum=accum and sr.binary.max,
                   replace=replace))


@gpu
def test_gpu_out_of_memory_is_a_memory_error_and_leaves_inputs_intact():
    import cupy as cp

    # A pool of its own, so that no free piece left inside another test's chunk can serve an
    # allocation here; 2**24 positions: the device kernels' bitmaps and scratch (16 MiB each)
    pool = cp.cuda.MemoryPool()
    old_allocator = cp.cuda.get_allocator()
    cp.cuda.set_allocator(pool.malloc)
    try:
        n = 1 << 24
        rng = np.random.default_rng(0)
        A = sr.Matrix.from_coo(rng.integers(0, n, 5000), rng.integers(0, n, 5000), nrows=n, ncols=n, device="gpu",
                               dup_op=sr.binary.lor)
        A.T  # noqa: B018  (cached before the limit, so the product itself must allocate)
        u = sr.Vector.from_dense(np.ones(A.nrows, dtype=bool), device="gpu")
        # w in its sparse form: the product's device kernels need its bitmap, and their scratch
        w = sr.Vector.from_coo([3], [True], size=A.nrows, device="gpu")
        before = [asnumpy(t) for t in w.to_coo()]
        pool.free_all_blocks()
        pool.set_limit(size=pool.used_bytes())  # every further allocation fails
        with pytest.raises(MemoryError, match="vxm: the GPU ran out of memory"):
            sr.vxm(u, A, sr.semirings.any_pair, out=w, accum=sr.binary.lor, direction="push")
        # (the failed product's temporaries went back to the pool as free blocks: release them,
        # so that the next allocation needs the device again)
        pool.free_all_blocks()
        pool.set_limit(size=pool.used_bytes())
        with pytest.raises(MemoryError, match="ewise_add: the GPU ran out of memory"):
            sr.ewise_add(u, w, sr.binary.lor)  # (a new result: three device arrays)
        pool.set_limit(size=0)  # (no limit)
        assert all(np.array_equal(a, asnumpy(b)) for a, b in zip(before, w.to_coo()))
    finally:
        cp.cuda.set_allocator(old_allocator)


@gpu
def test_gpu_storage_uses_int32_indices_while_they_fit():
    A = sr.generators.kronecker(8).to("gpu")
    assert A._indptr.dtype == np.int32 and A._indices.dtype == np.int32
    assert A.T._indices.dtype == np.int32
    rows, cols, _ = A.to_coo()
    assert rows.dtype == np.int64 and cols.dtype == np.int64  # exports stay int64
    back = A.to("cpu")
    assert back._indices.dtype == np.int64 and back.isequal(sr.generators.kronecker(8))


# ---------------------------------------------------------------------------------------------
# Matrix.from_coo of device arrays
# ---------------------------------------------------------------------------------------------
@gpu
def test_from_coo_of_device_arrays_builds_on_the_device(monkeypatch):
    import cupy as cp

    rng = np.random.default_rng(5)
    r, c = rng.integers(0, 50, 3000), rng.integers(0, 40, 3000)
    vals = rng.integers(0, 9, 3000)
    ops = (sr.binary.first, sr.binary.second, sr.binary.plus, sr.binary.min, sr.monoid.max)
    hosts = [sr.Matrix.from_coo(r, c, vals, nrows=50, ncols=40, dup_op=op) for op in ops]
    no_host_build(monkeypatch)
    for op, host in zip(ops, hosts):
        dev = sr.Matrix.from_coo(cp.asarray(r), cp.asarray(c), cp.asarray(vals), nrows=50, ncols=40, dup_op=op,
                                 device="gpu")
        assert dev.device == "gpu" and dev._indices.dtype == np.int32 and dev._indptr.dtype == np.int32
        same(host, dev)
    empty = sr.Matrix.from_coo(cp.zeros(0, dtype=np.int64), cp.zeros(0, dtype=np.int64), nrows=4, ncols=3,
                               device="gpu")
    assert empty.nvals == 0 and empty.shape == (4, 3) and asnumpy(empty._indptr).tolist() == [0] * 5
    pattern = sr.Matrix.from_coo(cp.asarray(r), cp.asarray(c), nrows=50, ncols=40, dup_op=sr.binary.lor,
                                 device="gpu")
    assert pattern.dtype == np.bool_
    assert pattern.nvals == np.unique(r * 40 + c).size
    scalar = sr.Matrix.from_coo(cp.asarray(r), cp.asarray(c), 2.5, nrows=50, ncols=40, dup_op=sr.binary.plus,
                                device="gpu")
    keys, counts = np.unique(r * 40 + c, return_counts=True)
    np.testing.assert_array_equal(asnumpy(scalar.to_coo()[2]), 2.5 * counts)
    x = cp.asarray(vals.astype(np.float64))
    u = sr.Matrix.from_coo(cp.arange(5), cp.arange(5), x[:5], nrows=5, ncols=5, device="gpu")
    x[:5] = -1
    assert asnumpy(u.to_coo()[2]).tolist() == vals[:5].astype(float).tolist()  # no aliasing of the input


@gpu
def test_from_coo_of_device_arrays_raises_as_on_the_host():
    import cupy as cp

    cases = [([0, 5], [0, 0], None, sr.IndexOutOfBound), ([-1, 0], [0, 0], None, sr.IndexOutOfBound),
             ([0.5, 1.0], [0, 0], None, sr.InvalidValue), ([0, 1], [0], None, sr.InvalidValue),
             ([0, 1], [0, 1], [1, 2, 3], sr.DimensionMismatch), ([0, 0], [1, 1], [1, 2], sr.InvalidValue)]
    for rows, cols, values, exc in cases:
        with pytest.raises(exc) as host:
            sr.Matrix.from_coo(np.asarray(rows), np.asarray(cols), None if values is None else np.asarray(values),
                               nrows=3, ncols=3)
        with pytest.raises(exc) as dev:
            sr.Matrix.from_coo(cp.asarray(rows), cp.asarray(cols), None if values is None else cp.asarray(values),
                               nrows=3, ncols=3, device="gpu")
        assert str(dev.value) == str(host.value)


