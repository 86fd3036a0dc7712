"""CPU/GPU parity: one test body, run on both devices, results compared exactly (integers,
booleans) or with allclose (floats). Marked ``gpu``: skipped with CuPy's reason where no GPU
is present; run them on a GPU machine with ``pytest -m gpu``.
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
from semiring.testing.validate import check_bfs, check_coloring, check_mis, check_sssp

from _strategies import ACCUMS, GRID, dims, grid_id, lib_mask, matrices, vec_dims, vectors

gpu = pytest.mark.gpu

SEMIRINGS = ["plus_times", "min_plus", "max_second", "lor_land", "any_pair", "plus_pair", "min_secondi",
             "any_secondi", "min_first", "max_times", "bor_second"]


def _random_matrix(rng, m, n, density, dtype):
    nnz = int(m * n * density)
    keys = rng.choice(m * n, size=nnz, replace=False) if m * n else np.zeros(0, int)
    vals = rng.integers(0, 5, nnz)
    if dtype == "bool":
        vals = vals > 1
    return sr.Matrix.from_coo(keys // max(n, 1), keys % max(n, 1), vals.astype(dtype), nrows=m, ncols=n,
                              dtype=dtype)


def _random_vector(rng, n, density, dtype):
    nnz = int(n * density)
    idx = rng.choice(n, size=nnz, replace=False) if n else np.zeros(0, int)
    vals = rng.integers(0, 5, nnz)
    if dtype == "bool":
        vals = vals > 1
    return sr.Vector.from_coo(idx, vals.astype(dtype), size=n, dtype=dtype)


def same(cpu, dev, any_value=False):
    """The GPU result equals the CPU result: same kind, shape, dtype, positions and values
    (positions only with ``any_value``: an ``any`` monoid may keep a different term)."""
    assert type(cpu) is type(dev)
    assert dev.device == "gpu"
    assert cpu.shape == dev.shape and cpu.dtype == dev.dtype
    a = [asnumpy(t) for t in cpu.to_coo()]
    b = [asnumpy(t) for t in dev.to_coo()]
    for x, y in zip(a[:-1], b[:-1]):
        np.testing.assert_array_equal(x, y)
    if any_value:
        return
    if a[-1].dtype.kind == "f":
        np.testing.assert_allclose(a[-1], b[-1], rtol=1e-6)
    else:
        np.testing.assert_array_equal(a[-1], b[-1])


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
    A = _random_matrix(rng, 40, 30, 0.15, dtype)
    B = _random_matrix(rng, 30, 20, 0.2, dtype)
    u = _random_vector(rng, 30, 0.3, dtype)
    v = _random_vector(rng, 40, 0.3, dtype)
    acc = sr.binary.get(accum) if accum else None
    anyv = name.startswith("any_") and name != "any_pair"
    for direction in ("push", "pull"):
        m_w = _random_vector(rng, 40, 0.5, "int64")
        out = _random_vector(rng, 40, 0.4, dtype)
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
        m_u = _random_vector(rng, 30, 0.5, "int64")
        cpu = sr.vxm(v, A, s, mask=_mask(m_u, mask), direction=direction)
        dev = sr.vxm(v.to("gpu"), A.to("gpu"), s, mask=_mask(m_u.to("gpu"), mask), direction=direction)
        same(cpu, dev, anyv)
    M = _random_matrix(rng, 40, 20, 0.5, "int64")
    C = _random_matrix(rng, 40, 20, 0.3, dtype)
    cpu = sr.mxm(A, B, s, mask=_mask(M, mask), accum=acc, replace=replace, out=C.dup())
    dev = sr.mxm(A.to("gpu"), B.to("gpu"), s, mask=_mask(M.to("gpu"), mask), accum=acc, replace=replace,
                 out=C.to("gpu"))
    same(cpu, dev, anyv)


@gpu
@pytest.mark.parametrize("mask", MASKS)
@pytest.mark.parametrize("dtype", ["bool", "int8", "int64", "uint64", "float32", "float64"])
def test_elementwise_select_apply_reduce_parity(mask, dtype):
    rng = np.random.default_rng(7)
    A = _random_matrix(rng, 25, 35, 0.3, dtype)
    B = _random_matrix(rng, 25, 35, 0.3, dtype)
    M = _random_matrix(rng, 25, 35, 0.4, "int64")
    g = lambda x: x.to("gpu")  # noqa: E731
    mk = lambda m: _mask(m, mask)  # noqa: E731
    plus = sr.binary.lor if dtype == "bool" else sr.binary.plus
    same(sr.ewise_add(A, B, plus, mask=mk(M)), sr.ewise_add(g(A), g(B), plus, mask=mk(g(M))))
    same(sr.ewise_mult(A, B, sr.binary.max, mask=mk(M)), sr.ewise_mult(g(A), g(B), sr.binary.max, mask=mk(g(M))))
    same(sr.select(A, "tril", 1, mask=mk(M)), sr.select(g(A), "tril", 1, mask=mk(g(M))))
    same(sr.select(A, "valuegt", 1), sr.select(g(A), "valuegt", 1))
    same(sr.apply(A, sr.unary.ainv), sr.apply(g(A), sr.unary.ainv))
    same(sr.apply(A, sr.indexunary.colindex, thunk=2), sr.apply(g(A), sr.indexunary.colindex, thunk=2))
    MT = _random_matrix(rng, 35, 25, 0.4, "int64")
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
    w = _random_vector(rng, 35, 0.5, dtype)
    out = _random_vector(rng, 35, 0.4, dtype)
    idx = np.array([3, 1, 30, 7])
    same(sr.assign(out.dup(), w, None, mask=_mask(_random_vector(np.random.default_rng(1), 35, 0.5, "int64"), mask)
                   if mask != "none" else None),
         sr.assign(g(out), g(w), None, mask=_mask(g(_random_vector(np.random.default_rng(1), 35, 0.5, "int64")), mask)
                   if mask != "none" else None))
    same(sr.assign(out.dup(), 1, idx), sr.assign(g(out), 1, idx))
    same(sr.extract(A, [4, 0, 4], [2, 9]), sr.extract(g(A), [4, 0, 4], [2, 9]))
    K = _random_matrix(rng, 3, 2, 0.5, dtype)
    same(sr.kronecker(A, K, sr.binary.first), sr.kronecker(g(A), g(K), sr.binary.first))


@gpu
def test_user_defined_semiring_on_gpu():
    op = sr.BinaryOp(lambda x, y: x * 2 + y, "twice_plus")
    mon = sr.Monoid(sr.binary.max, 0)
    s = sr.Semiring(mon, op)
    rng = np.random.default_rng(3)
    A = _random_matrix(rng, 30, 30, 0.2, "int64")
    u = _random_vector(rng, 30, 0.5, "int64")
    same(sr.mxv(A, u, s), sr.mxv(A.to("gpu"), u.to("gpu"), s))
    # a reduction by a user operator without a CUDA snippet runs on the host
    add = sr.BinaryOp(lambda x, y: x + y, "user_plus")
    same(sr.reduce_rowwise(A, add), sr.reduce_rowwise(A.to("gpu"), add))


@gpu
@pytest.mark.parametrize("scale", [8, 12])
def test_algorithms_on_gpu_match_cpu(scale):
    A = sr.generators.kronecker(scale, seed=scale)
    W = sr.generators.kronecker(scale, seed=scale, weights=(1, 255))
    Ag, Wg = A.to("gpu"), W.to("gpu")
    src = int(np.argmax(np.diff(A.to_scipy().indptr)))
    for direction in ("auto", "push", "pull"):
        cpu = sr.algorithms.bfs(A, src, parents=True, direction=direction)
        dev = sr.algorithms.bfs(Ag, src, parents=True, direction=direction)
        same(cpu.level, dev.level)
        check_bfs(A, src, dev.level, dev.parent)
    for method in ("delta_stepping", "bellman_ford"):
        cpu = sr.algorithms.sssp(W, src, method=method)
        dev = sr.algorithms.sssp(Wg, src, method=method, parents=True)
        same(cpu.distance, dev.distance)
        check_sssp(W, src, dev.distance, dev.parent)
    for method in ("jones_plassmann", "luby", "greedy"):
        cpu = sr.algorithms.coloring(A, method=method, seed=1)
        dev = sr.algorithms.coloring(Ag, method=method, seed=1)
        same(cpu, dev)
        check_coloring(A, dev)
    dev = sr.algorithms.mis(Ag, seed=2)
    same(sr.algorithms.mis(A, seed=2), dev)
    check_mis(A, dev)


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


@gpu
@pytest.mark.parametrize("name", SEMIRINGS + ["min_times", "max_plus", "plus_plus", "any_firsti", "any_secondj"])
@pytest.mark.parametrize("direction", ["push", "pull", "edge"])
def test_fast_kernels_match_generic_path(name, direction):
    """The generated pull/push kernels against the generic array code, on the same GPU data."""
    from semiring.backends.gpu import products as fast

    s = sr.semirings.get(name)
    dtype = "uint64" if name == "bor_second" else ("bool" if name == "lor_land" else "int64")
    rng = np.random.default_rng(11)
    # skewed degrees: a few dense rows among sparse ones
    A = _random_matrix(rng, 300, 200, 0.01, dtype)
    hub = _random_matrix(rng, 300, 200, 0.0, dtype)
    sr.assign(hub, 1, ([5, 17], None))
    A = sr.ewise_add(A, hub.dup(dtype), sr.binary.first if dtype != "bool" else sr.binary.lor)
    u = _random_vector(rng, 200, 0.2, dtype)
    v = _random_vector(rng, 300, 0.2, dtype)
    mask = _random_vector(rng, 300, 0.5, "bool")
    anyv = name.startswith("any_") and name != "any_pair"
    Ag, ug, vg, mg = A.to("gpu"), u.to("gpu"), v.to("gpu"), mask.to("gpu")
    try:
        fast.ENABLED = True
        f1 = sr.mxv(Ag, ug, s, mask=~mg.S, direction=direction)
        f2 = sr.vxm(vg, Ag, s, direction=direction)
        fast.ENABLED = False
        g1 = sr.mxv(Ag, ug, s, mask=~mg.S, direction=direction)
        g2 = sr.vxm(vg, Ag, s, direction=direction)
    finally:
        fast.ENABLED = True
    for a, b in ((g1, f1), (g2, f2)):
        assert np.array_equal(asnumpy(a.to_coo()[0]), asnumpy(b.to_coo()[0]))
        if not anyv:
            va, vb = asnumpy(a.to_coo()[1]), asnumpy(b.to_coo()[1])
            np.testing.assert_allclose(va.astype(float), vb.astype(float), rtol=1e-9)


@gpu
def test_fast_kernels_cover_the_traversal_semirings():
    from semiring.backends.gpu import products as fast

    for name in ("any_pair", "lor_land", "any_secondi", "min_secondi", "min_plus", "max_second", "plus_times"):
        s = sr.semirings.get(name)
        d = "bool" if name in ("any_pair", "lor_land") else "int64"
        assert fast.supports(s, np.dtype(d), np.dtype(d), push=False), name
        assert fast.supports(s, np.dtype(d), np.dtype(d), push=True), name


@gpu
@pytest.mark.data
def test_real_graphs_on_gpu_match_cpu_and_published_answers(shared_data):
    """karate, cnr-2000 (BFS), the DIMACS NY road graph (SSSP: the published Dijkstra sum) and
    the DIMACS coloring instances, on the GPU."""
    for name in ("small/lagraph/karate.mtx", "web/cnr-2000.mtx.gz"):
        A = sr.io.read(shared_data / name)
        Ag = A.to("gpu")
        hub = int(np.argmax(np.diff(A.to_scipy().indptr)))
        for s in (0, hub):
            for direction in ("auto", "push", "pull"):
                dev = sr.algorithms.bfs(Ag, s, parents=True, direction=direction)
                same(sr.algorithms.bfs(A, s).level, dev.level)
                check_bfs(A, s, dev.level, dev.parent)
    W = sr.io.read(shared_data / "roads/USA-road-d.NY.gr.gz")
    d = sr.algorithms.sssp(W.to("gpu"), 0).distance
    vals = asnumpy(d.to_coo()[1])
    assert d.nvals == W.nrows and int(vals.max()) == 1_440_081 and int(vals.sum()) == 186_686_642_878
    for path in sorted((shared_data / "coloring").glob("*.col"))[:12]:
        A = sr.io.read(path)
        c = sr.algorithms.coloring(A.to("gpu"))
        same(sr.algorithms.coloring(A), c)
        check_coloring(A, c)


@gpu
def test_kronecker_scale_22_on_gpu():
    A = sr.generators.kronecker(22, seed=1)
    G = sr.algorithms.Graph(A.to("gpu"), "undirected")
    deg = np.diff(A.to_scipy().indptr)
    for s in np.random.default_rng(0).choice(np.flatnonzero(deg > 0), 2, replace=False):
        r = sr.algorithms.bfs(G, int(s), parents=True)
        check_bfs(A, int(s), r.level, r.parent)


PARITY_SEMIRINGS = [sr.semirings.get(n) for n in SEMIRINGS if n != "bor_second"] + [
    sr.Semiring(sr.Monoid(sr.binary.max, 0), sr.BinaryOp(lambda x, y: x * 2 + y, "user_twice_plus"))]


@gpu
@pytest.mark.parametrize("grid", GRID, ids=grid_id)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_hypothesis_parity_over_the_write_step_grid(grid, data):
    """Random sparse inputs (empty, full, explicit zeros, several dtypes), every mask kind,
    accumulator and replace: the GPU equals the CPU for products in every direction,
    element-wise operations and assign."""
    mask_kind, accum_name, replace = grid
    accum = ACCUMS[accum_name]
    s = data.draw(st.sampled_from(PARITY_SEMIRINGS))
    user = s.multiply.name.startswith("user")
    dtype = data.draw(st.sampled_from(["int64"] if user else ["bool", "int8", "int64", "float64"]))
    if s.monoid.name in ("lor", "land") and dtype != "bool":
        dtype = "bool"
    m, k = data.draw(dims), data.draw(vec_dims)
    A = data.draw(matrices(m, k, dtype))
    u = data.draw(vectors(k, dtype))
    M = data.draw(vectors(m, st.sampled_from(["bool", "int64", "float64"])))
    tz = s.output_dtype(A.dtype, u.dtype)
    out = data.draw(st.one_of(st.none(), vectors(m, st.just(tz.name))))
    if out is None and (accum is not None):
        out = data.draw(vectors(m, st.just(tz.name)))
    anyv = s.monoid.is_any and s.multiply.name != "pair"
    g = lambda x: None if x is None else x.to("gpu")  # noqa: E731
    for direction in ("push", "pull", "edge"):
        cpu = sr.mxv(A, u, s, mask=lib_mask(mask_kind, M), accum=accum, replace=replace,
                     out=None if out is None else out.dup(), direction=direction)
        dev = sr.mxv(g(A), g(u), s, mask=lib_mask(mask_kind, g(M)), accum=accum, replace=replace,
                     out=g(out), direction=direction)
        same(cpu, dev, anyv)
    v = data.draw(vectors(m, dtype))
    W = data.draw(vectors(k, st.sampled_from(["bool", "int64"])))
    for direction in ("push", "pull", "edge"):
        same(sr.vxm(v, A, s, mask=lib_mask(mask_kind, W), direction=direction),
             sr.vxm(g(v), g(A), s, mask=lib_mask(mask_kind, g(W)), direction=direction), anyv)
    B = data.draw(matrices(m, k, dtype))
    C = data.draw(matrices(m, k, st.just(dtype)))
    MM = data.draw(matrices(m, k, st.sampled_from(["bool", "int64"])))
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
def test_command_line_on_gpu(tmp_path, capsys):
    from semiring.cli import main

    out = tmp_path / "levels.csv"
    assert main(["bfs", "kron:10", "--device", "gpu", "--source", "0", "--parents", "--output", str(out)]) == 0
    assert main(["sssp", "grid2d:20", "--device", "gpu"]) == 0
    assert main(["color", "rgg:10", "--device", "gpu"]) == 0
    assert main(["bench", "--scale", "8", "--roots", "2", "--sssp-roots", "1", "--device", "gpu"]) == 0
    text = capsys.readouterr().out
    assert "device gpu" in text and "all results validated" in text
    A = sr.generators.kronecker(10)
    table = np.loadtxt(out, delimiter=",", skiprows=1, dtype=np.int64, ndmin=2)  # vertex,level,parent
    check_bfs(A, 0, sr.algorithms.bfs(A, 0).level,
              sr.Vector.from_coo(table[:, 0], table[:, 2], size=A.nrows, dtype="int64"))


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


@gpu
@pytest.mark.data
@pytest.mark.parametrize("case", ["example-directed", "example-undirected", "dir", "undir"])
def test_ldbc_bfs_and_sssp_on_gpu(shared_data, case):
    """The LDBC Graphalytics reference outputs, computed on the GPU."""
    from test_published_answers import LDBC_UNREACHED, ldbc_case

    A, index, source, expected = ldbc_case(shared_data, "bfs", case)
    for direction in ("auto", "push", "pull", "edge"):
        r = sr.algorithms.bfs(A.to("gpu"), index[source], parents=True, direction=direction)
        got = asnumpy(r.level.to_dense(-1))
        for label, value in expected.items():
            assert got[index[label]] == (-1 if int(value) == LDBC_UNREACHED else int(value)), label
        check_bfs(A, index[source], r.level, r.parent)
    A, index, source, expected = ldbc_case(shared_data, "sssp", case)
    want = np.full(A.nrows, np.nan)
    for label, value in expected.items():
        want[index[label]] = float(value)
    for method in ("bellman_ford", "delta_stepping"):
        d = sr.algorithms.sssp(A.to("gpu"), index[source], method=method).distance
        np.testing.assert_allclose(asnumpy(d.to_dense(np.inf)), want, rtol=1e-12, atol=0)


# ---------------------------------------------------------------------------------------------
# generators on the device: the same graph as on the CPU for a seed (counter-based random
# numbers), generated and built on the GPU; and the validators run on device data
# ---------------------------------------------------------------------------------------------
from semiring.testing.validate import ValidationError  # noqa: E402

def _assert_undirected_on_host(A):
    """Square, symmetric in structure and values, no self-loops (checked on a host copy)."""
    S = A.to_scipy()
    S.sort_indices()
    rows = np.repeat(np.arange(S.shape[0]), np.diff(S.indptr))
    assert not np.any(rows == S.indices), "self-loop"
    T = S.T.tocsr()
    T.sort_indices()
    assert np.array_equal(S.indptr, T.indptr) and np.array_equal(S.indices, T.indices), "not symmetric"
    assert np.array_equal(S.data, T.data), "A[i, j] != A[j, i]"


def _no_host_build(monkeypatch):
    """Make the host path of Matrix.from_coo fail: a device build must not take it."""
    from semiring.core import _validate

    def boom(*args, **kwargs):
        raise AssertionError("the entries went through the host path of Matrix.from_coo")

    monkeypatch.setattr(_validate, "index_array", boom)
    monkeypatch.setattr(_validate, "values_array", boom)


@gpu
@pytest.mark.parametrize("scale, weights", [(1, None), (6, None), (10, None), (10, (1, 255)),
                                            (9, (0.5, 2.0)),
                                            (13, (-3, 3)), (16, None)])
def test_kronecker_on_gpu_is_the_cpu_graph(monkeypatch, scale, weights):
    import cupy as cp

    cpu = sr.generators.kronecker(scale, seed=scale, weights=weights)
    _no_host_build(monkeypatch)
    dev = sr.generators.kronecker(scale, seed=scale, weights=weights, device="gpu")
    assert dev.device == "gpu" and isinstance(dev._indices, cp.ndarray)
    assert dev._indptr.dtype == np.int32 and dev._indices.dtype == np.int32  # as Matrix.to("gpu") stores
    assert dev.dtype == cpu.dtype and dev.shape == (2**scale, 2**scale)
    assert dev.isequal(cpu, check_dtype=True)
    _assert_undirected_on_host(dev)
    assert 0 < dev.nvals <= 2 * 16 * 2**scale
    if scale >= 10:
        assert dev.nvals >= 0.45 * 2 * 16 * 2**scale


@gpu
def test_kronecker_on_gpu_is_deterministic_per_seed():
    a = sr.generators.kronecker(12, seed=5, weights=(1, 255), device="gpu")
    b = sr.generators.kronecker(12, seed=5, weights=(1, 255), device="gpu")
    c = sr.generators.kronecker(12, seed=6, weights=(1, 255), device="gpu")
    assert a.isequal(b, check_dtype=True)
    assert not a.isequal(c)


@gpu
@pytest.mark.parametrize("chunk", [1000, 4097])
def test_kronecker_on_gpu_in_many_chunks(monkeypatch, chunk):
    from semiring.generators import _generators

    cpu = sr.generators.kronecker(12, 5, seed=1, weights=(1, 9))
    monkeypatch.setitem(_generators._CHUNK, "gpu", chunk)  # 20480 edges: several chunks, a partial last one
    assert sr.generators.kronecker(12, 5, seed=1, weights=(1, 9), device="gpu").isequal(cpu, check_dtype=True)


@gpu
def test_kronecker_scale_20_on_gpu_matches_cpu_and_validates():
    import cupy as cp

    dev = sr.generators.kronecker(20, edge_factor=40, seed=2, device="gpu")  # 42M edges: two GPU chunks
    cp.cuda.Device().synchronize()
    assert 0.45 * 2 * 40 * 2**20 <= dev.nvals <= 2 * 40 * 2**20
    cpu = sr.generators.kronecker(20, edge_factor=40, seed=2)
    assert dev.isequal(cpu)
    src = int(cp.argmax(cp.diff(dev._indptr)))
    r = sr.algorithms.bfs(dev, src, parents=True)
    assert check_bfs(dev, src, r.level, r.parent) == r.level.nvals


@gpu
@pytest.mark.parametrize("dims, weights", [((1,), None), ((7,), None), ((30, 40), None), ((30, 40), (1, 9)),
                                           ((5, 6, 7), (0.5, 2.0))])
def test_grid_on_gpu_is_the_cpu_graph(monkeypatch, dims, weights):
    cpu = sr.generators.grid(*dims, weights=weights, seed=2)
    _no_host_build(monkeypatch)
    dev = sr.generators.grid(*dims, weights=weights, seed=2, device="gpu")
    assert dev.device == "gpu"
    assert dev.isequal(cpu, check_dtype=True)


@gpu
@pytest.mark.parametrize("n, radius, weights", [(2, 1.5, None), (500, None, None), (5000, None, (1, 255)),
                                                (5000, 0.03, "distance"), (3000, 0.7, None),
                                                (1 << 17, None, "distance")])
def test_random_geometric_on_gpu_is_the_cpu_graph(monkeypatch, n, radius, weights):
    cpu = sr.generators.random_geometric(n, radius, seed=3, weights=weights)
    _no_host_build(monkeypatch)
    dev = sr.generators.random_geometric(n, radius, seed=3, weights=weights, device="gpu")
    assert dev.device == "gpu"
    assert dev.isequal(cpu, check_dtype=True)  # exact, distances included


@gpu
def test_cell_search_on_gpu_finds_exactly_the_kdtree_pairs():
    import cupy as cp
    from scipy.spatial import cKDTree

    from semiring.generators._generators import _pairs_within

    rng = np.random.default_rng(8)
    for n, r, scale in [(1000, 0.05, 1.0), (4000, 0.01, 1.0), (300, 0.3, 100.0), (2000, 0.05, 1.0)]:
        pts = rng.random((n, 2)) * scale
        if n == 2000:
            pts = np.round(pts * 20) / 20  # a lattice: many ties at exactly r
        want = set(map(tuple, cKDTree(pts).query_pairs(r, output_type="ndarray").tolist()))
        i, j = _pairs_within(cp.asarray(pts[:, 0]), cp.asarray(pts[:, 1]), r, budget=5000)
        got = set(zip(asnumpy(i).tolist(), asnumpy(j).tolist()))
        assert len(got) == i.shape[0] and got == want


@gpu
def test_from_coo_of_device_arrays_builds_on_the_device(monkeypatch):
    import cupy as cp

    rng = np.random.default_rng(5)
    r, c = rng.integers(0, 50, 3000), rng.integers(0, 40, 3000)
    vals = rng.integers(0, 9, 3000)
    ops = (sr.binary.first, sr.binary.second, sr.binary.plus, sr.binary.min, sr.monoid.max)
    hosts = [sr.Matrix.from_coo(r, c, vals, nrows=50, ncols=40, dup_op=op) for op in ops]
    _no_host_build(monkeypatch)
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


@pytest.fixture
def _device_validation(monkeypatch):
    """Record the array module each validator runs on, and forbid host copies inside them."""
    import cupy as cp

    from semiring.testing import validate

    seen = []
    edges = validate._edges

    def spy(A):
        out = edges(A)
        seen.append(out[1])
        return out

    def no_host_copy(a):
        if isinstance(a, cp.ndarray) and a.size > 10:
            raise AssertionError("a validator copied device data to the host")
        return asnumpy(a)

    monkeypatch.setattr(validate, "_edges", spy)
    monkeypatch.setattr(validate, "asnumpy", no_host_copy)
    return seen


def _gpu_vec(dense, missing=-1):
    return sr.Vector.from_dense(asnumpy(dense), missing=missing, device="gpu")


@gpu
def test_validators_run_on_the_device_and_accept_correct_results(_device_validation):
    import cupy as cp

    A = sr.generators.kronecker(12, seed=7, device="gpu")
    W = sr.generators.kronecker(12, seed=7, weights=(1, 255), device="gpu")
    src = int(cp.argmax(cp.diff(A._indptr)))
    r = sr.algorithms.bfs(A, src, parents=True)
    assert check_bfs(A, src, r.level, r.parent) == r.level.nvals
    assert check_bfs(sr.algorithms.Graph(A, "undirected"), src, r.level) == r.level.nvals
    s = sr.algorithms.sssp(W, src, parents=True)
    assert check_sssp(W, src, s.distance, s.parent) == s.distance.nvals
    assert check_sssp(A, src, r.level.dup("float64")) == r.level.nvals  # unit weights
    col = sr.algorithms.coloring(A)
    assert check_coloring(A, col) >= 2
    m = sr.algorithms.mis(A, seed=1)
    assert check_mis(A, m) == m.nvals
    assert _device_validation and all(xp is cp for xp in _device_validation)


@gpu
def test_validators_with_the_graph_and_the_results_on_different_devices():
    import cupy as cp

    A = sr.generators.kronecker(11, seed=4, device="gpu")
    src = int(cp.argmax(cp.diff(A._indptr)))
    r = sr.algorithms.bfs(A, src, parents=True)
    rc = sr.algorithms.bfs(A.to("cpu"), src, parents=True)
    assert check_bfs(A.to("cpu"), src, r.level, r.parent) == r.level.nvals  # on the host
    assert check_bfs(A, src, rc.level, rc.parent) == rc.level.nvals         # on the device
    col = sr.algorithms.coloring(A.to("cpu"))
    assert check_coloring(A, col) == check_coloring(A.to("cpu"), col.to("gpu"))
    m = sr.algorithms.mis(A, seed=3)
    assert check_mis(A.to("cpu"), m) == check_mis(A, m.to("cpu")) == m.nvals


@gpu
def test_validators_on_the_device_reject_corrupted_results(_device_validation):
    import cupy as cp

    A = sr.generators.kronecker(12, seed=9, device="gpu")
    W = sr.generators.kronecker(12, seed=9, weights=(1, 255), device="gpu")
    deg = cp.diff(A._indptr)
    src = int(cp.argmax(deg))
    r = sr.algorithms.bfs(A, src, parents=True)
    level, parent = r.level.to_dense(-1), r.parent.to_dense(-1)
    v = int(cp.flatnonzero(level == level.max())[0])
    bad = level.copy()
    bad[v] += 1  # wrong level
    with pytest.raises(ValidationError, match="check 3"):
        check_bfs(A, src, _gpu_vec(bad))
    iso = int(cp.flatnonzero(deg == 0)[0])
    bad = level.copy()
    bad[iso] = 0  # a second root
    with pytest.raises(ValidationError, match=f"only the source {src} may have level 0; vertex {iso}"):
        check_bfs(A, src, _gpu_vec(bad))
    bad = parent.copy()
    bad[v] = v  # not a tree: a vertex its own parent
    with pytest.raises(ValidationError, match=f"check 1: vertex {v} "):
        check_bfs(A, src, r.level, _gpu_vec(bad))
    k = int(cp.flatnonzero(level == 2)[0])
    others = asnumpy(cp.flatnonzero(level == 1))
    nbrs = set(asnumpy(A.T._indices[int(A.T._indptr[k]):int(A.T._indptr[k + 1])]).tolist())
    stranger = int(next(u for u in others if u not in nbrs))
    bad = parent.copy()
    bad[k] = stranger  # a parent one level up that is not an in-neighbour
    with pytest.raises(ValidationError, match=f"check 2: tree edge {stranger} -> {k}"):
        check_bfs(A, src, r.level, _gpu_vec(bad))

    s = sr.algorithms.sssp(W, src, parents=True)
    dist, sp_parent = s.distance.to_dense(np.inf), s.parent.to_dense(-1)
    far = int(cp.argmax(cp.where(cp.isfinite(dist), dist, -1)))
    bad = dist.copy()
    bad[far] += 1  # a relaxable edge
    with pytest.raises(ValidationError, match=f"gives {far} a shorter distance"):
        check_sssp(W, src, _gpu_vec(bad, missing=np.inf))
    bad = dist.copy()
    bad[far] -= 0.5  # no tight in-edge
    with pytest.raises(ValidationError, match=f"vertex {far} has distance .* no in-edge that attains it"):
        check_sssp(W, src, _gpu_vec(bad, missing=np.inf))
    bad = sp_parent.copy()
    bad[far] = far
    with pytest.raises(ValidationError, match=f"parent edge {far} -> {far} is not a tight edge"):
        check_sssp(W, src, s.distance, _gpu_vec(bad))
    Z = sr.Matrix.from_coo([0, 1, 2, 3], [1, 2, 3, 2], [1, 0, 0, 0], nrows=4, ncols=4, dtype="int64", device="gpu")
    with pytest.raises(ValidationError, match="never lead back to the source"):  # a tight zero-weight cycle
        check_sssp(Z, 0, _gpu_vec(np.array([0.0, 1.0, 1.0, 1.0])), _gpu_vec(np.array([0, 0, 3, 2])))

    col = sr.algorithms.coloring(A).to_dense()
    rows, cols, _ = A.to_coo()
    e = int(cp.flatnonzero(cp.bincount(col)[col[cols]] >= 2)[0])  # recolouring cols[e] leaves no gap
    bad = col.copy()
    bad[int(cols[e])] = bad[int(rows[e])]  # conflicting colours on an edge
    with pytest.raises(ValidationError, match="joins two vertices of color"):
        check_coloring(A, _gpu_vec(bad, missing=None))
    m = sr.algorithms.mis(A, seed=1)
    members = asnumpy(m.to_coo()[0])
    smaller = sr.Vector.from_coo(members[1:], True, size=A.nrows, device="gpu")
    with pytest.raises(ValidationError, match="not maximal"):
        check_mis(A, smaller)
    assert _device_validation and all(xp is cp for xp in _device_validation)


@gpu
@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", ["min", "max"])
def test_gpu_segment_fold_of_floats_is_exact(dtype, name):
    """min / max runs of floats on the GPU equal NumPy's fmin / fmax reduceat bit for bit
    (negatives, -0.0, infinities, NaN, runs of only NaN); CuPy's float64 minimum.at rounds to
    float32 precision, which once made GPU graphs and SSSP parents differ from the CPU's."""
    import cupy as cp

    from semiring.backends.gpu.reduce import segment_fold

    rng = np.random.default_rng(7)
    x = (rng.standard_normal(50_000) * 1e3).astype(dtype)
    x[::89] = np.nan
    x[5::113] = -0.0
    x[7::997] = np.inf
    x[:3] = np.nan  # the first run is NaN only
    starts = np.unique(np.concatenate([[0, 3], rng.integers(3, x.size, 9_000)]))
    got = segment_fold(getattr(sr.binary, name), cp.asarray(x), cp.asarray(starts)).get()
    want = (np.fmin if name == "min" else np.fmax).reduceat(x, starts)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got.view(f"u{x.itemsize}")[~np.isnan(want)], want.view(f"u{x.itemsize}")[~np.isnan(want)])
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    assert np.isnan(got[0])
