"""The algebra on the GPU without host round trips: every vector operation runs on the device
(zero device-to-host reads, checked by the library's counter and by recording it as a CUDA
graph, which fails on any read), matches the CPU over the mask x accum x replace x format
grid, and recorded blocks and device loops give the eager results.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import semiring as sr
from semiring.backends._xp import asnumpy

from _gpuvectors import bfs_levels_scipy, random_vector

gpu = pytest.mark.gpu


def _graph(rng, n, nnz, device="cpu", dtype="bool"):
    keys = rng.choice(n * n, size=nnz, replace=False)
    vals = rng.integers(1, 9, nnz)
    vals = vals > 0 if dtype == "bool" else vals.astype(dtype)
    return sr.Matrix.from_coo(keys // n, keys % n, vals, nrows=n, ncols=n, dtype=dtype, device=device)


def _same(cpu, dev, any_value=False):
    assert dev.device == "gpu" and cpu.size == dev.size and cpu.dtype == dev.dtype
    a, av = cpu.to_coo()
    b, bv = (asnumpy(t) for t in dev.to_coo())
    np.testing.assert_array_equal(a, b)
    if not any_value:
        if av.dtype.kind == "f":
            np.testing.assert_allclose(av, bv)
        else:
            np.testing.assert_array_equal(av, bv)
    assert dev.nvals == cpu.nvals


def _ops(A, x, y, q, level, s):
    """Operations of the algebra, each with out= given (so each can run inside a recording)."""
    return {
        "vxm any_pair ~mask replace": lambda: sr.vxm(q, A, sr.semirings.any_pair, mask=~level.S, replace=True, out=q),
        "vxm push min_plus": lambda: sr.vxm(x, A, sr.semirings.min_plus, out=y, direction="push"),
        "vxm pull plus_times accum": lambda: sr.vxm(x, A, sr.semirings.plus_times, out=y, accum=sr.binary.plus,
                                                    direction="pull"),
        "mxv auto max_second value mask": lambda: sr.mxv(A, x, sr.semirings.max_second, mask=level.V, out=y),
        "ewise_add min": lambda: sr.ewise_add(x, y, sr.monoid.min, out=y),
        "ewise_mult times mask": lambda: sr.ewise_mult(x, y, sr.binary.times, mask=x.S, out=y),
        "apply ainv": lambda: sr.apply(x, sr.unary.ainv, out=y, accum=sr.binary.max),
        "apply bound plus": lambda: sr.apply(x, sr.binary.plus, right=2.0, out=y),
        "select valuegt": lambda: sr.select(x, sr.indexunary.valuegt, 2.0, out=y, mask=~level.S),
        "assign scalar mask": lambda: sr.assign(level, 3, None, mask=q.S),
        "assign Scalar": lambda: sr.assign(level, s, None, mask=q.S, accum=sr.binary.plus),
        "assign vector": lambda: sr.assign(y, x, None, mask=~q.S, replace=True),
        "extract": lambda: sr.extract(x, None, out=y, mask=x.S),
    }


def _operands(device, seed=0):
    rng = np.random.default_rng(seed)
    n = 300
    A = _graph(rng, n, 3000, device, "float64")
    x = random_vector(rng, n, 0.3, "float64", device)
    y = random_vector(rng, n, 0.2, "float64", device)
    q = random_vector(rng, n, 0.02, "bool", device)
    level = random_vector(rng, n, 0.4, "int64", device)
    s = sr.Scalar(5, device=device)
    return A, x, y, q, level, s


@gpu
def test_every_vector_operation_reads_nothing_from_the_device():
    """Zero reads by the library's counter, and each operation records as a CUDA graph (a read
    of any kind during capture fails it)."""
    from semiring.backends.gpu import recording

    ops = _ops(*_operands("gpu"))
    for name, op in ops.items():
        op()  # warm: kernels compiled, operands in device form
        with sr.host_reads() as hr:
            op()
        assert hr.count == 0, name
        if recording.available():
            assert recording.nodes_per_call(op) >= 1, name


@gpu
def test_operations_match_the_cpu_in_sequence():
    cpu, dev = _operands("cpu"), _operands("gpu")
    ops_c, ops_d = _ops(*cpu), _ops(*dev)
    for name in ops_c:
        ops_c[name]()
        ops_d[name]()
        for c, d in zip(cpu[1:5], dev[1:5]):
            _same(c, d, any_value=False)


@gpu
def test_readme_loop_reads_once_per_level():
    rng = np.random.default_rng(3)
    A = _graph(rng, 2000, 8000, "gpu")
    sr.vxm(sr.Vector.from_coo([0], [True], size=2000, device="gpu"), A, sr.semirings.any_pair)  # (A's derived data)
    level = sr.Vector.from_coo([0], [0], size=2000, dtype="int64", device="gpu")
    q = sr.Vector.from_coo([0], [True], size=2000, device="gpu")
    depth = 0
    with sr.host_reads() as hr:
        while q.nvals:
            depth += 1
            q = sr.vxm(q, A, sr.semirings.any_pair, mask=~level.S)   # q<!level.S> = q any.pair A
            sr.assign(level, depth, None, mask=q.S)                   # level<q.S> = depth
    assert hr.count == depth  # q's first count is known on the host (from_coo); one read per level after
    ref = _bfs_levels_scipy(A, 0)
    got = asnumpy(level.to_dense(-1))
    np.testing.assert_array_equal(got, ref)


def _bfs_levels_scipy(A, s):
    return bfs_levels_scipy(A.to("cpu").to_scipy().tocsr(), s)


def _bfs_loop(A, n, device):
    level = sr.Vector.from_coo([0], [0], size=n, dtype="int64", device=device)
    q = sr.Vector.from_coo([0], [True], size=n, device=device)

    def step(depth):
        sr.vxm(q, A, sr.semirings.any_pair, mask=~level.S, replace=True, out=q)  # q<!level.S, replace> = q any.pair A
        sr.assign(level, depth, None, mask=q.S)                                  # level<q.S> = depth

    it = sr.while_nonempty(q, step)
    return level, it


@gpu
@pytest.mark.parametrize("conditional", [True, False])
def test_device_loop_gives_the_bfs_levels(monkeypatch, conditional):
    from semiring.backends.gpu import recording

    if not conditional:
        monkeypatch.setattr(recording, "available", lambda: False)
    rng = np.random.default_rng(5)
    # a path (deep) joined to a random graph (wide): many iterations, both directions
    n = 3000
    A = _graph(rng, n, 12000, "gpu")
    S = A.to("cpu").to_scipy().tolil()
    for v in range(n - 400, n - 1):
        S[v, v + 1] = True
    S[0, n - 400] = True
    A = sr.Matrix.from_scipy(S.tocsr(), device="gpu")
    level, it = _bfs_loop(A, n, "gpu")
    ref = _bfs_levels_scipy(A, 0)
    np.testing.assert_array_equal(asnumpy(level.to_dense(-1)), ref)
    assert int(it) == ref.max() + 1  # the last iteration finds nothing
    lc, itc = _bfs_loop(A.to("cpu"), n, "cpu")
    assert lc.isequal(level.to("cpu")) and int(itc) == int(it)


@gpu
def test_device_loop_reads_nothing_per_iteration():
    from semiring.backends.gpu import recording

    if not recording.available():
        pytest.skip("CUDA graph conditional nodes need CUDA >= 12.4 and cuda-bindings")
    rng = np.random.default_rng(6)
    n = 4000
    S = _graph(rng, n, 40, "cpu").to_scipy().tolil()
    for v in range(n - 1):
        S[v, v + 1] = True
    A = sr.Matrix.from_scipy(S.tocsr(), device="gpu")
    level = sr.Vector.from_coo([0], [0], size=n, dtype="int64", device="gpu")
    q = sr.Vector.from_coo([0], [True], size=n, device="gpu")

    def step(depth):
        sr.vxm(q, A, sr.semirings.any_pair, mask=~level.S, replace=True, out=q)
        sr.assign(level, depth, None, mask=q.S)

    with sr.host_reads() as hr:
        it = sr.while_nonempty(q, step)
    assert hr.count <= 3  # the first nvals, the eager first iteration's checks; none per level
    assert int(it) > 50  # a path with a few shortcuts: many iterations
    np.testing.assert_array_equal(asnumpy(level.to_dense(-1)), _bfs_levels_scipy(A, 0))


@gpu
def test_recorded_block_replays_the_eager_results():
    cpu, dev = _operands("cpu", 9), _operands("gpu", 9)
    for objs in (cpu, dev):
        A, x, y, q, level, s = objs

        def block(A=A, x=x, y=y, q=q, level=level):
            sr.vxm(x, A, sr.semirings.min_plus, out=y, accum=sr.binary.min)       # y min= x min.plus A
            sr.ewise_add(x, y, sr.monoid.plus, out=x, mask=~q.S)                   # x<!q.S> = x + y
            sr.apply(x, sr.binary.times, right=0.5, out=x)                         # x = x * 0.5

        rec = sr.record(block, device=objs[0].device)
        for _ in range(4):
            rec()
    for c, d in zip(cpu[1:3], dev[1:3]):
        _same(c, d)


@gpu
def test_recording_a_host_read_is_refused_with_a_message():
    from semiring.backends.gpu import recording

    if not recording.available():
        pytest.skip("CUDA graph conditional nodes need CUDA >= 12.4 and cuda-bindings")
    A, x, y, q, level, s = _operands("gpu")
    with pytest.raises(sr.InvalidValue, match="needs the host"):
        sr.record(lambda: x.to_coo()[0].get(), device="gpu")


@gpu
def test_while_nonempty_refuses_a_body_that_never_writes_u():
    A, x, y, q, level, s = _operands("gpu")
    with pytest.raises(sr.InvalidValue, match="did not write u"):
        sr.while_nonempty(x, lambda it: sr.apply(x, sr.unary.ainv, out=y))


FORMATS = ["sparse", "bitmap"]


def _in_format(v, fmt):
    """The same vector, stored as asked (a dense-enough vector is bitmap; ``_keys`` makes the
    sparse form, ``_bitmap`` the bitmap)."""
    if fmt == "bitmap":
        v._resident() if v.device == "gpu" else v._bitmap()
    else:
        v._keys()
    return v


@gpu
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_hypothesis_parity_over_mask_accum_replace_and_format(data):
    seed = data.draw(st.integers(0, 2**31 - 1))
    mask_kind = data.draw(st.sampled_from([None, "S", "V", "~S", "~V"]))
    accum = data.draw(st.sampled_from([None, "plus", "min", "second"]))
    replace = data.draw(st.booleans()) if mask_kind else False
    fmts = data.draw(st.tuples(*[st.sampled_from(FORMATS)] * 3))
    op = data.draw(st.sampled_from(["vxm", "mxv", "ewise_add", "ewise_mult", "apply", "assign", "select"]))
    direction = data.draw(st.sampled_from(["auto", "push", "pull"]))
    with_out = data.draw(st.booleans())
    results = []
    for device in ("cpu", "gpu"):
        rng = np.random.default_rng(seed)
        n = int(rng.integers(1, 120))
        A = _graph(rng, n, int(rng.integers(0, n * n // 3 + 1)), device, "int64")
        x = _in_format(random_vector(rng, n, rng.random(), "int64", device), fmts[0])
        out = _in_format(random_vector(rng, n, rng.random(), "int64", device), fmts[1])
        m = _in_format(random_vector(rng, n, rng.random(), "int64", device), fmts[2])
        mask = None if mask_kind is None else {"S": m.S, "V": m.V, "~S": ~m.S, "~V": ~m.V}[mask_kind]
        acc = None if accum is None else getattr(sr.binary, accum)
        w = dict(mask=mask, accum=acc if with_out else None, replace=replace if with_out or not mask else False,
                 out=out if with_out else None)
        if not with_out:
            w["replace"] = False
        if op == "vxm":
            r = sr.vxm(x, A, sr.semirings.min_plus, direction=direction, **w)
        elif op == "mxv":
            r = sr.mxv(A, x, sr.semirings.plus_times, direction=direction, **w)
        elif op == "ewise_add":
            r = sr.ewise_add(x, m, sr.binary.max, **w)
        elif op == "ewise_mult":
            r = sr.ewise_mult(x, m, sr.binary.minus, **w)
        elif op == "apply":
            r = sr.apply(x, sr.binary.times, left=3, **w)
        elif op == "select":
            r = sr.select(x, sr.indexunary.valuelt, 3, **w)
        else:
            if not with_out:
                continue
            w.pop("out")
            r = sr.assign(out, x, None, **w)
        results.append(r)
    if len(results) == 2:
        _same(results[0], results[1])


@gpu
@pytest.mark.parametrize("monoid", ["plus", "min", "max", "times", "any", "lor"])
@pytest.mark.parametrize("dtype", ["int64", "float64", "bool", "int8"])
def test_reduce_scalar_is_one_kernel_and_one_read(monoid, dtype):
    rng = np.random.default_rng(11)
    m = getattr(sr.monoid, monoid)
    for density in (0.0, 0.01, 0.7):
        c = random_vector(rng, 5000, density, dtype)
        g = c.to("gpu")
        sr.apply(g, sr.unary.identity, out=g)  # (its device form)
        try:
            want = sr.reduce_scalar(c, m)
        except sr.SemiringError as exc:
            with pytest.raises(type(exc)):
                sr.reduce_scalar(g, m)
            continue
        with sr.host_reads() as hr:
            got = sr.reduce_scalar(g, m)
        assert hr.count == 1
        if monoid == "any":
            assert (got in set(c.to_coo()[1].tolist())) if c.nvals else got == want
        elif np.dtype(dtype).kind == "f":
            np.testing.assert_allclose(got, want)
        else:
            assert got == want and np.asarray(got).dtype == np.asarray(want).dtype


@gpu
@pytest.mark.parametrize("semiring", ["plus_times", "min_plus", "max_second", "any_pair", "lor_land", "min_first"])
@pytest.mark.parametrize("mask_kind", [None, "~S", "V"])
def test_pull_of_heavy_rows_by_blocks_matches_the_cpu(semiring, mask_kind):
    """Rows of 1,024 edges and more (a web graph's hubs) are pulled by a block each, the rest
    by warps or threads: the same results as the CPU, with and without early exit."""
    from semiring.backends.gpu import resident

    rng = np.random.default_rng(21)
    n = 6000
    rows = [np.full(d, r) for r, d in ((5, 5000), (17, resident.PULL_HEAVY), (18, resident.PULL_HEAVY - 1),
                                      (4000, 2500))]
    cols = [rng.choice(n, size=r.size, replace=False) for r in rows]
    extra = rng.choice(n * n, size=60000, replace=False)
    I = np.concatenate(rows + [extra // n])
    J = np.concatenate(cols + [extra % n])
    keys = np.unique(I * n + J)
    vals = rng.integers(-5, 9, keys.size).astype(np.float64)
    for low_degree in (False, True):
        got = []
        for device in ("cpu", "gpu"):
            A = sr.Matrix.from_coo(keys // n, keys % n, vals, nrows=n, ncols=n, device=device)
            if low_degree:  # (a mean degree below 8: threads for the light rows)
                A = sr.select(A, sr.indexunary.rowle, 1000)
            u = random_vector(np.random.default_rng(3), n, 0.3, "float64", device)
            m = random_vector(np.random.default_rng(4), n, 0.5, "int64", device)
            mask = None if mask_kind is None else {"~S": ~m.S, "V": m.V}[mask_kind]
            s = getattr(sr.semirings, semiring)
            if semiring == "lor_land":
                A, u = A.dup("bool"), u.dup("bool")
            got.append(sr.mxv(A, u, s, mask=mask, direction="pull"))
        _same(*got, any_value=semiring == "any_pair")


@gpu
@pytest.mark.parametrize("columns", [False, True])
@pytest.mark.parametrize("monoid", ["plus", "min", "max", "times", "any", "lor"])
@pytest.mark.parametrize("dtype", ["int64", "float64", "bool", "int8"])
def test_reduce_rowwise_and_columnwise_match_the_cpu_without_reads(columns, monoid, dtype):
    """Row and column reductions on the device (a pull product with a full input), under the
    write step, with no host read; rows without entries stay absent."""
    if monoid == "lor" and dtype != "bool":
        pytest.skip("lor takes bool")
    rng = np.random.default_rng(11)
    n = 400
    A = _graph(rng, n, 3000, "cpu", dtype)
    S = A.to_scipy().tolil()
    S[:, 7] = 0 if dtype != "bool" else False  # (an empty column and rows of one entry)
    S[9, :] = 0 if dtype != "bool" else False
    A = sr.Matrix.from_scipy(S.tocsr(), dtype=dtype)
    A = sr.select(A, sr.indexunary.valuene, 0) if dtype != "bool" else sr.select(A, sr.indexunary.valueeq, True)
    m = getattr(sr.monoid, monoid)
    reduce = sr.reduce_columnwise if columns else sr.reduce_rowwise
    Ag = A.to("gpu")
    for mask_kind, accum, replace in [(None, None, False), ("~S", None, True), ("V", "plus", False)]:
        outs = {}
        for dev, M in (("cpu", A), ("gpu", Ag)):
            out = random_vector(np.random.default_rng(2), n, 0.3, m.domain_for(A.dtype).name, dev)
            mv = random_vector(np.random.default_rng(3), n, 0.5, "int64", dev)
            mask = None if mask_kind is None else (~mv.S if mask_kind == "~S" else mv.V)
            acc = None if accum is None or m.domain_for(A.dtype).kind == "b" else getattr(sr.binary, accum)
            reduce(M, m, out=out, mask=mask, accum=acc, replace=replace)  # warm (kernels compiled)
            out = random_vector(np.random.default_rng(2), n, 0.3, m.domain_for(A.dtype).name, dev)
            if dev == "gpu":
                out._resident()
                with sr.host_reads() as hr:
                    reduce(M, m, out=out, mask=mask, accum=acc, replace=replace)
                assert hr.count == 0
            else:
                reduce(M, m, out=out, mask=mask, accum=acc, replace=replace)
            outs[dev] = out
        _same(outs["cpu"], outs["gpu"], any_value=monoid == "any")
