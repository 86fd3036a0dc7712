"""Arithmetic products (plus_times, plus_first, plus_second, plus_pair on floats) through
cuSPARSE SpMV: the same results as the CPU over semirings, directions (mxv/vxm), types, masks,
accumulators, replace, input formats, full inputs, explicit zeros and infinite values; no host
read per operation; and the resident kernels wherever cuSPARSE cannot serve (a recording, a
forced direction, a sparse mask, integer types, infinite matrix values with a sparse input).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import semiring as sr
from semiring.backends._xp import asnumpy

gpu = pytest.mark.gpu

SEMIRINGS = ["plus_times", "plus_first", "plus_second", "plus_pair"]


def _calls():
    from semiring.backends.gpu import cusparse

    return cusparse.calls[0]


def _matrix(rng, n, m, nnz, dtype, device, special=False):
    keys = rng.choice(n * m, size=min(nnz, n * m), replace=False)
    vals = rng.integers(-4, 9, keys.size).astype(dtype)
    if special and keys.size:
        vals[rng.random(keys.size) < 0.1] = 0  # explicit zeros are entries
    return sr.Matrix.from_coo(keys // m, keys % m, vals, nrows=n, ncols=m, dtype=dtype, device=device)


def _vector(rng, n, density, dtype, device, full=False):
    if full:
        return sr.Vector.from_dense(rng.integers(-3, 7, n).astype(dtype), device=device)
    k = int(n * density)
    idx = np.sort(rng.choice(n, size=k, replace=False))
    return sr.Vector.from_coo(idx, rng.integers(-3, 7, k).astype(dtype), size=n, dtype=dtype, device=device)


def _same(cpu, dev):
    assert dev.device == "gpu" and cpu.dtype == dev.dtype and cpu.size == dev.size
    a, av = cpu.to_coo()
    b, bv = (asnumpy(t) for t in dev.to_coo())
    np.testing.assert_array_equal(a, b)
    rtol = 1e-5 if av.dtype == np.float32 else 1e-12
    np.testing.assert_allclose(bv, av, rtol=rtol, atol=rtol)


def _both(fn, seed):
    out = []
    for device in ("cpu", "gpu"):
        out.append(fn(np.random.default_rng(seed), device))
    return out


@gpu
@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_hypothesis_parity_with_the_cpu(data):
    seed = data.draw(st.integers(0, 2**31 - 1))
    name = data.draw(st.sampled_from(SEMIRINGS))
    is_vxm = data.draw(st.booleans())
    adtype, udtype = data.draw(st.sampled_from([("float64", "float64"), ("float32", "float32"), ("bool", "float64"),
                                                ("float32", "float64"), ("int32", "float64")]))
    mask_kind = data.draw(st.sampled_from([None, "S", "V", "~S", "~V"]))
    accum = data.draw(st.sampled_from([None, "plus", "min", "second"]))
    with_out = data.draw(st.booleans())
    replace = data.draw(st.booleans()) if (mask_kind and with_out) else False
    full = data.draw(st.booleans())
    fmt = data.draw(st.sampled_from(["sparse", "bitmap"]))
    before = _calls()
    entries = []

    def run(rng, device):
        n = int(rng.integers(1, 150))
        m = int(rng.integers(1, 150))
        A = _matrix(rng, n, m, int(rng.integers(0, n * m // 3 + 1)), adtype, device, special=True)
        entries.append(A.nvals)
        u = _vector(rng, n if is_vxm else m, rng.random(), udtype, device, full=full)
        if fmt == "bitmap" and device == "gpu":
            u._resident()
        else:
            u._keys()
        size = m if is_vxm else n
        mk = _vector(rng, size, rng.random(), "float64", device, full=mask_kind is not None and rng.random() < 0.5)
        out = _vector(rng, size, rng.random(), "float64", device)
        mask = None if mask_kind is None else {"S": mk.S, "V": mk.V, "~S": ~mk.S, "~V": ~mk.V}[mask_kind]
        w = dict(mask=mask, accum=getattr(sr.binary, accum) if (accum and with_out) else None, replace=replace)
        if with_out:
            w["out"] = out
        s = getattr(sr.semirings, name)
        return sr.vxm(u, A, s, **w) if is_vxm else sr.mxv(A, u, s, **w)

    cpu, dev = _both(run, seed)
    _same(cpu, dev)
    if mask_kind is None and entries[-1]:
        assert _calls() > before  # an unmasked float product goes through cuSPARSE


@gpu
@pytest.mark.parametrize("name", SEMIRINGS)
@pytest.mark.parametrize("is_vxm", [False, True])
def test_full_and_sparse_inputs_with_explicit_zeros_and_infinities(name, is_vxm):
    """Explicit zeros and values of u that multiply to zero keep their entries; infinite values
    of u or A give inf/NaN exactly where the CPU does (never for absent terms)."""

    def run(rng, device, full):
        n = 400
        A = _matrix(rng, n, n, 3000, "float64", device, special=True)
        rows, cols, vals = (asnumpy(t) for t in A.to_coo())
        vals[:5] = np.inf
        A = sr.Matrix.from_coo(rows, cols, vals, nrows=n, ncols=n, device=device)
        u = _vector(rng, n, 0.1, "float64", device, full=full)
        ui, uv = (asnumpy(t) for t in u.to_coo())
        uv[:3] = np.inf
        uv[3:6] = 0
        u = sr.Vector.from_coo(ui, uv, size=n, device=device)
        s = getattr(sr.semirings, name)
        return sr.vxm(u, A, s) if is_vxm else sr.mxv(A, u, s)

    for full in (False, True):
        cpu, dev = _both(lambda rng, device: run(rng, device, full), 17)
        a, av = cpu.to_coo()
        b, bv = (asnumpy(t) for t in dev.to_coo())
        np.testing.assert_array_equal(a, b)
        np.testing.assert_allclose(bv, av, rtol=1e-12)  # (NaN where the CPU has NaN)


@gpu
def test_an_operation_reads_nothing_from_the_host():
    rng = np.random.default_rng(2)
    A = _matrix(rng, 3000, 3000, 40000, "float64", "gpu")
    x = _vector(rng, 3000, 0.4, "float64", "gpu")
    y = _vector(rng, 3000, 0.4, "float64", "gpu")
    w = sr.Vector(3000, "float64", device="gpu")
    ops = [lambda: sr.mxv(A, x, sr.semirings.plus_times, out=w),
           lambda: sr.vxm(x, A, sr.semirings.plus_second, out=w, accum=sr.binary.plus),
           lambda: sr.mxv(A, x, sr.semirings.plus_pair, out=w, mask=~y.S, replace=True),
           lambda: sr.mxv(A, sr.ewise_mult(x, y, sr.binary.times), sr.semirings.plus_first)]
    for op in ops:
        op()  # (A's cuSPARSE form, the finiteness of its values: once per content)
        before = _calls()
        with sr.host_reads() as hr:
            op()
        assert hr.count == 0 and _calls() == before + 1


@gpu
def test_the_resident_kernels_serve_what_cusparse_cannot():
    from semiring.backends.gpu import recording

    rng = np.random.default_rng(4)
    n = 500
    Ac, xc = _matrix(rng, n, n, 5000, "float64", "cpu"), _vector(rng, n, 0.3, "float64", "cpu")
    small = _vector(rng, n, 0.01, "float64", "cpu")
    A, x, few = Ac.to("gpu"), xc.to("gpu"), small.to("gpu")
    cases = {"forced direction": lambda A, x, m: sr.mxv(A, x, sr.semirings.plus_times, direction="pull"),
             "few allowed by the mask": lambda A, x, m: sr.mxv(A, x, sr.semirings.plus_times, mask=m.S),
             "integers": lambda A, x, m: sr.mxv(A.dup("int64"), x.dup("int64"), sr.semirings.plus_times),
             "min.plus": lambda A, x, m: sr.mxv(A, x, sr.semirings.min_plus)}
    for what, fn in cases.items():
        before = _calls()
        got = fn(A, x, few)
        assert _calls() == before, what
        _same(fn(Ac, xc, small), got)
    if recording.available():
        w = sr.Vector(n, "float64", device="gpu")
        before = _calls()
        # (a cuSPARSE call cannot be captured: the block's first run already takes the
        # resident kernels, so the recording finds them compiled and needs no read)
        rec = sr.record(lambda: sr.mxv(A, x, sr.semirings.plus_times, out=w), device="gpu")
        assert _calls() == before
        sr.apply(w, sr.binary.plus, right=1.0, out=w)  # (changed, so the replay must rewrite it)
        rec()
        _same(sr.mxv(Ac, xc, sr.semirings.plus_times), w)
        # a device loop whose body has a float plus.second product (one iteration, then the graph)
        got = []
        for device, mat in (("cpu", Ac), ("gpu", A)):
            k = sr.Vector.from_coo([0, 7], [True, True], size=n, device=device)
            acc = sr.Vector(n, "float64", device=device)

            def body(it, k=k, mat=mat, acc=acc):
                sr.mxv(mat, k, sr.semirings.plus_second, out=acc, accum=sr.binary.plus)  # acc += A plus.second k
                sr.select(k, sr.indexunary.valuegt, 1, out=k)                            # k = {}: one pass

            sr.while_nonempty(k, body)
            got.append(acc)
        assert _calls() == before
        _same(*got)
