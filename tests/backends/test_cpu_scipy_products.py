"""The CPU's SciPy paths of the arithmetic semirings (SpMV: ``semiring.backends.cpu.spmv``;
SpGEMM: ``semiring.backends.cpu.spgemm``) against the dict-of-keys reference and against the
paths that never take them (a forced pull; the array layer): values, the structure of the
result (an output is present when some term is, whatever its value, also when the terms cancel),
masks, accumulators, full and sparse inputs, infinite weights, and the cases left to the array
layer."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import semiring as sr
from semiring.backends.cpu import spgemm, spmv
from semiring.backends.array import products as products_array
from semiring.testing import reference as ref

#: SciPy's products are the NumPy backend's (SuiteSparse containers compute in GraphBLAS)
pytestmark = pytest.mark.numpy_backend

S = sr.semirings
ARITH = (S.plus_times, S.plus_first, S.plus_second, S.plus_pair)
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def case(draw):
    dtype = draw(st.sampled_from(["float64", "float32"]))
    m, n = draw(st.integers(1, 9)), draw(st.integers(1, 9))
    present = np.array(draw(st.lists(st.booleans(), min_size=m * n, max_size=m * n))).reshape(m, n)
    r, c = np.nonzero(present)
    quarters = st.integers(-8, 8).map(lambda x: x / 4)
    vals = np.array(draw(st.lists(quarters, min_size=r.size, max_size=r.size)), dtype=dtype)
    if draw(st.booleans()) and r.size:  # explicit zeros and -0.0 are entries too
        vals[draw(st.integers(0, r.size - 1))] = -0.0
    A = sr.Matrix.from_coo(r, c, vals, nrows=m, ncols=n, dtype=dtype)
    is_vxm = draw(st.booleans())
    size = m if is_vxm else n
    full = draw(st.booleans())
    idx = np.arange(size) if full else np.flatnonzero(draw(st.lists(st.booleans(), min_size=size,
                                                                       max_size=size)))
    uv = np.array(draw(st.lists(quarters, min_size=idx.size, max_size=idx.size)), dtype=dtype)
    u = sr.Vector.from_coo(idx, uv, size=size, dtype=dtype)
    return A, u, draw(st.sampled_from(ARITH)), is_vxm


def _run(A, u, s, is_vxm, **kw):
    return sr.vxm(u, A, s, **kw) if is_vxm else sr.mxv(A, u, s, **kw)


def _ref(A, u, s, is_vxm, **kw):
    rA, ru = ref.from_semiring(A), ref.from_semiring(u)
    return ref.vxm(ru, rA, s, **kw) if is_vxm else ref.mxv(rA, ru, s, **kw)


@SETTINGS
@given(case())
def test_spmv_equals_the_reference_and_the_pull(c):
    A, u, s, is_vxm = c
    before = spmv.calls[0]
    got = _run(A, u, s, is_vxm)
    if u.nvals and A.nvals:
        assert spmv.calls[0] == before + 1  # the SpMV path ran (empty operands: the array layer)
    rtol = 1e-6 if A.dtype == np.float32 else 1e-12
    ref.assert_same(got, _ref(A, u, s, is_vxm), rtol=rtol)
    pulled = _run(A, u, s, is_vxm, direction="pull")
    assert got.to_coo()[0].tolist() == pulled.to_coo()[0].tolist()
    np.testing.assert_allclose(got.to_coo()[1], pulled.to_coo()[1], rtol=rtol)


@SETTINGS
@given(case(), st.sampled_from(["S", "V", "~S", "~V"]), st.booleans(), st.booleans())
def test_spmv_write_step_equals_the_reference(c, mask_kind, accum, replace):
    """Mask, accumulator and replace applied to the SpMV's result, into an existing output."""
    A, u, s, is_vxm = c
    size = A.ncols if is_vxm else A.nrows
    rng = np.random.default_rng(size)
    wk = np.flatnonzero(rng.random(size) < 0.6)
    out = sr.Vector.from_coo(wk, (wk % 3).astype(float), size=size, dtype="float64")
    kw = {"accum": sr.binary.plus if accum else None, "replace": replace and mask_kind is not None}
    rout = ref.from_semiring(out)
    mask = {"S": out.S, "V": out.V, "~S": ~out.S, "~V": ~out.V}[mask_kind]
    expected = _ref(A, u, s, is_vxm, mask=ref.mask(mask_kind, rout), out=rout, **kw)
    got = _run(A, u, s, is_vxm, mask=mask, out=out, **kw)
    ref.assert_same(got, expected, rtol=1e-6)


@pytest.mark.parametrize("is_vxm", [False, True])
def test_infinite_weights_with_a_sparse_input_are_not_nan(is_vxm):
    """inf * (0 standing for an absent entry) would be NaN: the array layer computes it."""
    A = sr.Matrix.from_coo([0, 0, 1], [0, 1, 1], [np.inf, 2.0, -np.inf], nrows=2, ncols=2)
    u = sr.Vector.from_coo([1], [3.0], size=2)
    before = spmv.calls[0]
    got = _run(A, u, S.plus_times, is_vxm)
    assert spmv.calls[0] == before
    ref.assert_same(got, _ref(A, u, S.plus_times, is_vxm))
    assert not np.isnan(got.to_coo()[1]).any()
    full = sr.Vector.from_coo([0, 1], [1.0, 3.0], size=2)  # a full input: every term is real
    ref.assert_same(_run(A, full, S.plus_times, is_vxm), _ref(A, full, S.plus_times, is_vxm))
    assert spmv.calls[0] == before + 1


def test_terms_that_sum_to_zero_are_present():
    A = sr.Matrix.from_coo([0, 0, 1], [0, 1, 0], [1.0, -1.0, 0.0], nrows=3, ncols=2)
    u = sr.Vector.from_coo([0, 1], [2.0, 2.0], size=2)
    got = sr.mxv(A, u, S.plus_times)
    assert got.to_coo()[0].tolist() == [0, 1]  # row 2 has no term; rows 0 and 1 sum to 0
    assert got.to_coo()[1].tolist() == [0.0, 0.0]


@pytest.mark.parametrize("what", ["int", "any", "mask", "direction", "mixed"])
def test_left_to_the_array_layer(what):
    A = sr.Matrix.from_coo([0, 1, 2], [1, 2, 0], [1.0, 2.0, 3.0], nrows=3, ncols=3)
    u = sr.Vector.from_coo([0, 1, 2], [1.0, 1.0, 1.0], size=3)
    s, kw = S.plus_times, {}
    if what == "int":
        A = A.dup("int64")
        u = u.dup("int64")
    elif what == "any":
        s = S.any_pair
    elif what == "mask":  # one allowed output of 3 x 16: the pull visits it alone
        big = sr.Matrix.from_coo(np.arange(48), np.arange(48) % 3, 1.0, nrows=48, ncols=3)
        A, kw = big, {"mask": sr.Vector.from_coo([5], [True], size=48).S}
    elif what == "direction":
        kw = {"direction": "push"}
    else:  # a float32 matrix with a float64 input: a cast the SpMV would not make
        A = A.dup("float32")
    before = spmv.calls[0]
    got = sr.mxv(A, u, s, **kw)
    assert spmv.calls[0] == before
    ref.assert_same(got, ref.mxv(ref.from_semiring(A), ref.from_semiring(u), s,
                                 mask=None if "mask" not in kw else ref.mask("S", ref.from_semiring(kw["mask"].parent))))


@st.composite
def mxm_case(draw):
    dtype = draw(st.sampled_from(["float64", "float32"]))
    m, k, n = (draw(st.integers(1, 7)) for _ in range(3))
    quarters = st.integers(-8, 8).map(lambda x: x / 4)

    def matrix(rows, cols):
        present = np.array(draw(st.lists(st.booleans(), min_size=rows * cols, max_size=rows * cols)))
        r, c = np.nonzero(present.reshape(rows, cols))
        vals = np.array(draw(st.lists(quarters, min_size=r.size, max_size=r.size)), dtype=dtype)
        return sr.Matrix.from_coo(r, c, vals, nrows=rows, ncols=cols, dtype=dtype)

    return matrix(m, k), matrix(k, n), draw(st.sampled_from(ARITH))


@SETTINGS
@given(mxm_case(), st.sampled_from([None, "S", "V", "~S", "~V"]), st.booleans())
def test_spgemm_equals_the_reference(c, mask_kind, accum):
    A, B, s = c
    rng = np.random.default_rng(A.nrows * 31 + B.ncols)
    dense = rng.random((A.nrows, B.ncols)) < 0.5  # an output C with entries to mask and accumulate
    r, cc = np.nonzero(dense)
    C = sr.Matrix.from_coo(r, cc, (r % 2).astype(float), nrows=A.nrows, ncols=B.ncols)
    rC = ref.from_semiring(C)
    mask = None if mask_kind is None else {"S": C.S, "V": C.V, "~S": ~C.S, "~V": ~C.V}[mask_kind]
    kw = {"accum": sr.binary.plus} if accum else {}
    expected = ref.mxm(ref.from_semiring(A), ref.from_semiring(B), s, mask=ref.mask(mask_kind, rC), out=rC, **kw)
    got = sr.mxm(A, B, s, mask=mask, out=C, **kw)
    ref.assert_same(got, expected, rtol=1e-6)
    # without an output: against the array layer (never the SciPy path: the product is pulled apart)
    before = spgemm.calls[0]
    T = sr.mxm(A, B, s)
    assert spgemm.calls[0] == before + (A.nvals > 0 and B.nvals > 0)
    gk, gv = products_array.mxm(A, B, s)
    order = np.argsort(gk)
    tr, tc, tv = T.to_coo()
    assert (tr * B.ncols + tc).tolist() == gk[order].tolist()
    np.testing.assert_allclose(tv, gv[order].astype(tv.dtype), rtol=1e-6)


def test_spgemm_keeps_entries_whose_terms_cancel():
    A = sr.Matrix.from_coo([0, 0], [0, 1], [1.0, -1.0], nrows=1, ncols=2)
    B = sr.Matrix.from_coo([0, 1], [0, 0], [2.0, 2.0], nrows=2, ncols=1)
    before = spgemm.calls[0]
    C = sr.mxm(A, B, S.plus_times)
    assert spgemm.calls[0] == before + 1
    assert [x.tolist() for x in C.to_coo()] == [[0], [0], [0.0]]


@pytest.mark.parametrize("what", ["int", "any", "sparse_mask", "mixed"])
def test_spgemm_left_to_the_other_paths(what):
    A = sr.Matrix.from_coo(np.arange(40), np.arange(40) % 5, 1.0, nrows=40, ncols=5)
    B = sr.Matrix.from_coo(np.arange(5), np.arange(5), 2.0, nrows=5, ncols=40)
    s, kw = S.plus_times, {}
    if what == "int":
        A, B = A.dup("int64"), B.dup("int64")
    elif what == "any":
        s = S.any_pair
    elif what == "sparse_mask":  # one allowed output of 1,600
        kw = {"mask": sr.Matrix.from_coo([3], [3], [True], nrows=40, ncols=40).S}
    else:
        A = A.dup("float32")
    before = spgemm.calls[0]
    got = sr.mxm(A, B, s, **kw)
    assert spgemm.calls[0] == before
    rmask = None if "mask" not in kw else ref.mask("S", ref.from_semiring(kw["mask"].parent))
    ref.assert_same(got, ref.mxm(ref.from_semiring(A), ref.from_semiring(B), s, mask=rmask))
