"""The GPU's generated product kernels (pull and push, ``semiring.backends.gpu.products``) against
the generic array code on the same device data, the semirings the traversals need among those
they cover, and the device's segmented min / max of floats against NumPy bit for bit. Marked
``gpu``: skipped with CuPy's reason where no GPU is present; run with ``pytest -m gpu``.
"""

from __future__ import annotations

import numpy as np
import pytest

import semiring as sr
from semiring.backends._xp import asnumpy

from _devices import SEMIRINGS, random_matrix, random_vector

gpu = pytest.mark.gpu


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
    A = random_matrix(rng, 300, 200, 0.01, dtype)
    hub = random_matrix(rng, 300, 200, 0.0, dtype)
    sr.assign(hub, 1, ([5, 17], None))
    A = sr.ewise_add(A, hub.dup(dtype), sr.binary.first if dtype != "bool" else sr.binary.lor)
    u = random_vector(rng, 200, 0.2, dtype)
    v = random_vector(rng, 300, 0.2, dtype)
    mask = random_vector(rng, 300, 0.5, "bool")
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
