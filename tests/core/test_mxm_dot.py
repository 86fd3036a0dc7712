"""Masked mxm by dot products (``C(i,j) = A(i,:) (+).(x) B(:,j)`` at the mask's keys only) against
the dict-of-keys reference and against Gustavson's expansion, and the choice between them.

Each method is forced through ``semiring.core.products.MXM_METHOD`` (or its kernel is called
directly), so every semantics meets both: every semiring kind (arithmetic, min/max, logical,
bitwise, ``any``, positional, user-defined with a non-commutative multiply), every dtype, value
and structural masks, accum and replace, empty rows and columns, rectangular shapes, explicit
zeros, hypersparse and 2**40 x 2**40 operands, and chunks of a few needles.

Davis, "Algorithm 1000: SuiteSparse:GraphBLAS", ACM TOMS 45(4), 2019 (masked dot-product
method); Gustavson, ACM TOMS 4(3), 1978 (row-wise expansion).
"""

from __future__ import annotations

import contextlib

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import semiring as sr
from semiring.backends.array import products as array_products
from semiring.backends.cpu import products as cpu_products
from semiring.core import _rowptr
from semiring.core import products as core_products
from semiring.testing import reference as ref

from _strategies import (
    ACCUMS, check_against_reference, containers, float_rtol, lib_mask, matrices, out_dtypes, reference_outcome,
)

S, B, M = sr.semirings, sr.binary, sr.monoid
SEMIRINGS = (
    S.plus_times, S.min_plus, S.max_plus, S.max_times, S.min_times, S.times_times, S.plus_pair,
    S.plus_first, S.min_second, S.max_min, S.lor_land, S.land_lor, S.lxor_land, S.lor_pair,
    S.any_pair, S.any_first, S.any_times, S.bor_band, S.bxor_band,
    S.any_firsti, S.any_secondj, S.min_firsti, S.min_firstj, S.min_secondi, S.min_secondj,
    S.max_firsti, S.max_firstj, S.max_secondi, S.max_secondj,
    sr.Semiring(M.plus, B.minus), sr.Semiring(M.max, B.rminus), sr.Semiring(M.min, B.div),
)
MASKED = ("S", "V")  # the kinds the dot method serves (a complemented mask always expands)
FORCED_METHODS = ("dot", "expand")
SETTINGS = settings(max_examples=60, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@contextlib.contextmanager
def method(name, chunk=None):
    """mxm under a mask takes ``name`` ("auto", "dot", "expand", "count"); ``chunk`` bounds
    the needles (and keys) the dot method takes at once."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(core_products, "MXM_METHOD", name)
        if chunk is not None:
            mp.setattr(array_products, "DOT_CHUNK_TERMS", chunk)
        yield


@contextlib.contextmanager
def always_hypersparse():
    """Every matrix with a row keeps row pointers for its nonempty rows only."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_rowptr, "HYPER_MIN_ROWS", 0)
        mp.setattr(_rowptr, "HYPER_RATIO", 0)
        yield


def supported(s, da, db):
    """The semiring takes these dtypes (bitwise operators refuse floats)."""
    bitwise = {B.bor, B.band, B.bxor}
    if (s.multiply in bitwise or s.monoid.op in bitwise) and "f" in (np.dtype(da).kind, np.dtype(db).kind):
        return False
    try:
        s.output_dtype(da, db)
        return True
    except sr.SemiringError:
        return False


@st.composite
def product_case(draw):
    """Operands, semiring, write step and forcing for one masked product (dtypes the semiring
    takes; tiny shapes, where empty rows, columns and operands are common)."""
    s = draw(st.sampled_from(SEMIRINGS), label="semiring")
    d = draw(st.sampled_from([t for t in ("bool", "int8", "int64", "uint8", "float32", "float64")
                              if supported(s, t, t)]), label="dtype")
    dims = st.integers(0, 7)
    m, k, n = draw(dims), draw(dims), draw(dims)
    A, Bm = draw(matrices(m, k, d), label="A"), draw(matrices(k, n, d), label="B")
    kind = draw(st.sampled_from(MASKED), label="mask kind")
    accum = ACCUMS[draw(st.sampled_from(sorted(ACCUMS)), label="accum")]
    replace = draw(st.booleans(), label="replace")
    td = s.output_dtype(d, d)
    out = draw(st.one_of(st.none(), containers((m, n), st.sampled_from(out_dtypes(td)))), label="out")
    if out is not None and draw(st.booleans(), label="mask is out's"):
        parent = out  # C<C.S> = ...: the mask is read before C is written
    else:
        parent = draw(matrices(m, n, st.sampled_from(("bool", "int8", "float64"))), label="mask parent")
    chunk = draw(st.sampled_from((None, 1, 2, 5)), label="chunk")
    return s, A, Bm, kind, parent, accum, replace, out, chunk


def run_case(case, forced):
    s, A, Bm, kind, parent, accum, replace, out, chunk = case
    rA, rB = ref.from_semiring(A), ref.from_semiring(Bm)
    ref_out = None if out is None else ref.from_semiring(out)
    expected = reference_outcome(lambda: ref.mxm(rA, rB, s, mask=ref.mask(kind, ref.from_semiring(parent)),
                                                 accum=accum, replace=replace, out=ref_out))
    target = None if out is None else out.dup()
    mask = lib_mask(kind, target if parent is out else parent)
    with method(forced, chunk):
        return check_against_reference(lambda: sr.mxm(A, Bm, s, mask=mask, accum=accum, replace=replace, out=target),
                                       expected, rtol=float_rtol(s.monoid, s.output_dtype(A.dtype, Bm.dtype)),
                                       watched=(A, Bm), out=target)


@pytest.mark.parametrize("forced", FORCED_METHODS)
@SETTINGS
@given(case=product_case())
def test_masked_product_matches_reference(forced, case):
    run_case(case, forced)


@SETTINGS
@given(case=product_case())
def test_dot_and_expansion_give_the_same_matrix(case):
    """Both methods on the same call: same entries, dtype and values (``any``: each value one
    of its terms, checked against the reference above; here the structure and dtype)."""
    got = {f: run_case(case, f) for f in FORCED_METHODS}
    if any(g is None for g in got.values()):
        return  # raised InvalidValue, as the reference allows (an undefined typecast)
    d, e = got["dot"], got["expand"]
    assert d.dtype == e.dtype and d.shape == e.shape
    dr, dc, dv = d.to_coo()
    er, ec, ev = e.to_coo()
    np.testing.assert_array_equal(dr, er)
    np.testing.assert_array_equal(dc, ec)
    # (a float sum or product may differ with the order of its terms: each is within the
    # reference's bounds, checked above)
    if not case[0].monoid.is_any and not (d.dtype.kind == "f" and case[0].monoid.name in ("plus", "times")):
        np.testing.assert_array_equal(dv, ev)


def random_matrix(rng, m, n, density, dtype, lo=-3, hi=4):
    """A Matrix with about ``density * m * n`` entries, explicit zeros among them, some empty
    rows and columns."""
    present = rng.random((m, n)) < density
    present[rng.random(m) < 0.15] = False
    present[:, rng.random(n) < 0.15] = False
    r, c = np.nonzero(present)
    if np.dtype(dtype).kind == "b":
        v = rng.random(r.size) < 0.5
    else:
        v = rng.integers(max(lo, 0) if np.dtype(dtype).kind == "u" else lo, hi, r.size)
    return sr.Matrix.from_coo(r, c, np.asarray(v).astype(dtype), nrows=m, ncols=n, dtype=dtype), present


@pytest.mark.parametrize("dtype", ["bool", "int8", "int64", "float32", "float64"])
@pytest.mark.parametrize("chunk", [1 << 22, 1, 37])
def test_dot_kernel_against_expansion_kernel(dtype, chunk, monkeypatch):
    """The array layer's kernels called directly on larger operands (rows of very different
    lengths, so both directions of lookup occur): the same keys, dtype and values; int8 sums
    of up to ~40 terms of |v| <= 100 wrap as the expansion's."""
    monkeypatch.setattr(array_products, "DOT_CHUNK_TERMS", chunk)
    rng = np.random.default_rng(abs(hash((dtype, chunk))) % 2**32)
    m, k, n = 30, 50, 25
    A, _ = random_matrix(rng, m, k, 0.5, dtype, -100, 101)
    A2, _ = random_matrix(rng, m, k, 0.05, dtype, -100, 101)
    A = sr.ewise_add(A, A2, B.first) if dtype != "bool" else A
    Bm, _ = random_matrix(rng, k, n, 0.8, dtype, -100, 101)
    Mk, _ = random_matrix(rng, m, n, 0.4, "bool")
    for s in (S.plus_times, S.min_plus, S.max_secondj, S.min_firsti, S.plus_pair, S.lor_land,
              S.any_secondi, sr.Semiring(M.plus, B.minus)):
        if not supported(s, dtype, dtype):
            continue
        for mask in (Mk.S, Mk.V):
            keys = mask.true_keys()
            gk, gv = array_products.mxm(A, Bm, s, keep=mask.allows_fn(), row_allowed=mask.allowed_rows())
            dk, dv = array_products.mxm_dot(A, Bm.T, s, keys)
            np.testing.assert_array_equal(dk, gk)
            assert dv.dtype == gv.dtype, s.name
            if s.monoid.is_any:
                continue
            if dv.dtype.kind == "f" and s.monoid.name in ("plus", "times"):
                np.testing.assert_allclose(dv, gv, rtol=1e-5)
            else:
                np.testing.assert_array_equal(dv, gv, err_msg=s.name)
            # the number of terms: the dense count of the patterns at the keys
            pa = np.zeros((m, k), np.int64)
            pb = np.zeros((k, n), np.int64)
            r, c, _ = A.to_coo()
            pa[r, c] = 1
            r, c, _ = Bm.to_coo()
            pb[r, c] = 1
            assert array_products.mxm_dot_terms(A, Bm.T, keys) == int((pa @ pb).ravel()[keys].sum())


def test_dot_any_takes_a_term_of_each_key():
    """``any``: each entry is one of its key's terms (the smallest k's, by the lookup order)."""
    A = sr.Matrix.from_coo([0, 0, 0, 1], [0, 1, 2, 2], [5, 6, 7, 8], nrows=2, ncols=3, dtype="int64")
    Bm = sr.Matrix.from_coo([0, 1, 2, 2], [0, 0, 0, 1], [1, 1, 1, 1], nrows=3, ncols=2, dtype="int64")
    keys = np.array([0, 1, 3], dtype=np.int64)  # (0,0), (0,1), (1,1)
    dk, dv = array_products.mxm_dot(A, Bm.T, S.any_first, keys)
    assert dk.tolist() == [0, 1, 3]
    assert dv[0] in (5, 6, 7) and dv[1] == 7 and dv[2] == 8


def entries(C):
    r, c, v = C.to_coo()
    return dict(zip(zip(r.tolist(), c.tolist()), v.tolist()))


def test_dot_positional_multiplies_see_i_k_j():
    """firsti = i, firstj = k, secondi = k, secondj = j of each term A(i,k) * B(k,j)."""
    A = sr.Matrix.from_coo([1, 1, 3], [2, 4, 4], [1.0, 1.0, 1.0], nrows=4, ncols=5)
    Bm = sr.Matrix.from_coo([2, 4, 4], [0, 0, 3], [1.0, 1.0, 1.0], nrows=5, ncols=4)
    Mk = sr.Matrix.from_coo([1, 1, 3, 0], [0, 3, 3, 0], [True] * 4, nrows=4, ncols=4)
    with method("dot"):
        got = {name: entries(sr.mxm(A, Bm, getattr(S, name), mask=Mk.S))
               for name in ("min_firsti", "max_firstj", "min_secondi", "max_secondj")}
    assert got["min_firsti"] == {(1, 0): 1, (1, 3): 1, (3, 3): 3}
    assert got["max_firstj"] == {(1, 0): 4, (1, 3): 4, (3, 3): 4}
    assert got["min_secondi"] == {(1, 0): 2, (1, 3): 4, (3, 3): 4}
    assert got["max_secondj"] == {(1, 0): 0, (1, 3): 3, (3, 3): 3}


def test_dot_on_empty_operands_and_masks():
    A = sr.Matrix(3, 4, "int64")
    Bm = sr.Matrix.from_coo([0], [1], [1], nrows=4, ncols=2)
    Mk = sr.Matrix.from_coo([0, 2], [1, 0], [1, 1], nrows=3, ncols=2)
    with method("dot"):
        assert sr.mxm(A, Bm, S.plus_times, mask=Mk.S).nvals == 0
        assert sr.mxm(Bm.T, A.T, S.min_plus, mask=Mk.T.S).nvals == 0
        assert sr.mxm(A.T, A, S.plus_times, mask=sr.Matrix(4, 4, "bool").S).nvals == 0
        C = sr.mxm(sr.Matrix(0, 3), sr.Matrix(3, 0), S.plus_times, mask=sr.Matrix(0, 0).S)
        assert C.shape == (0, 0) and C.nvals == 0
        C = sr.mxm(sr.Matrix(2, 0), sr.Matrix(0, 2), S.plus_times, mask=sr.Matrix.from_coo(
            [0], [0], [True], nrows=2, ncols=2).S)
        assert C.shape == (2, 2) and C.nvals == 0
    # an allowed key whose row and column share no k holds no entry (absent, not a zero)
    A = sr.Matrix.from_coo([0], [0], [2.0], nrows=1, ncols=2)
    Bm = sr.Matrix.from_coo([1], [0], [3.0], nrows=2, ncols=1)
    with method("dot"):
        assert sr.mxm(A, Bm, S.plus_times, mask=sr.Matrix.from_coo([0], [0], [True], nrows=1, ncols=1).S).nvals == 0


@pytest.mark.parametrize("forced", ["auto", *FORCED_METHODS])
@settings(max_examples=30, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(case=product_case())
def test_hypersparse_operands(forced, case):
    """Every matrix hypersparse (row pointers for the nonempty rows only): the products run on
    compressed copies of the operands and read rows through ``_rowptr.ranges``."""
    s, A, Bm, kind, parent, accum, replace, out, chunk = case
    with always_hypersparse():
        A, Bm = rebuild(A), rebuild(Bm)
        new_out = None if out is None else rebuild(out)
        parent = new_out if parent is out else rebuild(parent)
        assert all(X.nvals == 0 or X.format == "hypersparse" for X in (A, Bm, parent))
        run_case((s, A, Bm, kind, parent, accum, replace, new_out, chunk), forced)


def rebuild(X):
    """X built again from its entries (in the storage format the thresholds pick now)."""
    r, c, v = X.to_coo()
    return sr.Matrix.from_coo(r, c, v, nrows=X.nrows, ncols=X.ncols, dtype=X.dtype)


N = 2**40


def _huge(entries, dtype="float64"):
    rows, cols = zip(*entries) if entries else ((), ())
    return sr.Matrix.from_coo(list(rows), list(cols), list(entries.values()), nrows=N, ncols=N, dtype=dtype)


@pytest.mark.parametrize("forced", ["auto", *FORCED_METHODS])
@pytest.mark.parametrize("semiring", ["plus_times", "min_secondi", "max_firstj", "plus_pair"])
def test_huge_operands(forced, semiring):
    """2**40 x 2**40 operands: keys do not fit int64, the product runs on compressed copies
    (positional multiplies still see the original ids)."""
    EA = {(5, 7): 1.0, (5, N - 1): 3.0, (2**39, 3): 2.0, (N - 1, 0): 4.0, (N - 1, 7): 5.0}
    EB = {(7, 5): 10.0, (3, 9): 20.0, (0, N - 1): -4.0, (N - 1, N - 1): 1.0, (7, N - 1): 2.0}
    EM = {(5, 5): True, (N - 1, N - 1): True, (2**39, 9): True, (5, N - 1): True, (9, 9): True}
    A, Bm, Mk = _huge(EA), _huge(EB), _huge(EM, "bool")
    s = getattr(S, semiring)
    with method(forced):
        C = sr.mxm(A, Bm, s, mask=Mk.S)
    got = entries(C)
    want = {}
    for (i, k), a in EA.items():
        for (k2, j), b in EB.items():
            if k == k2 and (i, j) in EM:
                t = {"plus_times": a * b, "min_secondi": k, "max_firstj": k, "plus_pair": 1}[semiring]
                old = want.get((i, j))
                if old is None:
                    want[(i, j)] = t
                elif semiring in ("plus_times", "plus_pair"):
                    want[(i, j)] = old + t
                else:
                    want[(i, j)] = (min if semiring.startswith("min") else max)(old, t)
    assert got == want


# -- the choice ---------------------------------------------------------------------------------
def kron(scale):
    return sr.generators.kronecker(scale, weights=(1.0, 2.0))


def sparse_mask(A, share, seed=0):
    r, c, _ = A.to_coo()
    keep = np.random.default_rng(seed).random(r.size) < share
    return sr.Matrix.from_coo(r[keep], c[keep], np.ones(int(keep.sum()), bool), nrows=A.nrows, ncols=A.ncols)


def test_choice_dot_for_a_very_sparse_mask_over_a_dense_product():
    A = kron(9)
    M1 = sparse_mask(A, 0.01)
    for s in (S.plus_times, S.min_plus, S.plus_pair):
        c = core_products.mxm_method(A, A, s, M1.S.true_keys())
        assert c.method == "dot", (s.name, c)
        assert c.needles * 20 < c.terms and c.dot_ns < c.other_ns
    # and the product through the public call is the expansion's
    with method("expand"):
        want = sr.mxm(A, A, S.plus_times, mask=M1.S)
    got = sr.mxm(A, A, S.plus_times, mask=M1.S)
    ref.assert_same(got, ref.from_semiring(want), rtol=1e-12)


def test_choice_expansion_or_scipy_for_a_dense_mask():
    """A mask holding the whole product (every key a term): the expansion, or SciPy's SpGEMM
    for plus.pair on the CPU; and a mask of A itself on uniform degrees (no hubs) for plus.pair."""
    rng = np.random.default_rng(3)
    n, d = 3000, 4
    keys = np.unique(rng.integers(0, n, n * d) * n + rng.integers(0, n, n * d))
    A = sr.Matrix.from_coo(keys // n, keys % n, rng.random(keys.size), nrows=n, ncols=n)
    P = sr.mxm(A, A, S.any_pair)  # the product's pattern
    c = core_products.mxm_method(A, A, S.plus_times, P.S.true_keys())
    assert c.method == "expand" and c.dot_ns > c.other_ns, c
    assert core_products.mxm_method(A, A, S.plus_pair, P.S.true_keys()).method == "count"
    assert core_products.mxm_method(A, A, S.plus_pair, A.S.true_keys()).method == "count"


def test_choice_estimates_are_exact_counts():
    """W (expansion terms) is exact; N (needles) and the kept terms are exact when every key
    is sampled, and the sample's counts scaled otherwise (against a dense computation)."""
    rng = np.random.default_rng(5)
    A, pa = random_matrix(rng, 40, 30, 0.3, "float64")
    Bm, pb = random_matrix(rng, 30, 50, 0.3, "float64")
    Mk, pm = random_matrix(rng, 40, 50, 0.2, "bool")
    keys = Mk.S.true_keys()
    ii, jj = keys // 50, keys % 50
    rows = np.unique(ii)
    W = int((pa[rows].astype(np.int64) @ pb.sum(axis=1)).sum())
    dega, degb = pa.sum(axis=1)[ii], pb.sum(axis=0)[jj]
    need = int(np.where((dega > 0) & (degb > 0), np.minimum(dega, degb), 0).sum())
    kept = int((pa.astype(np.int64) @ pb.astype(np.int64))[ii, jj].sum())
    with pytest.MonkeyPatch.context() as mp:
        # make the kept terms decide: the dot method wins without them and loses with all
        mp.setattr(core_products, "DOT_NS", {"needle": 0.0, "key": 0.0, "term": 1000.0, "entry": 0.0, "transpose": 0.0})
        mp.setattr(core_products, "EXPAND_NS", {"term": 1.0, "kept": 0.0, "key": 0.0, "entry": 0.0})
        mp.setattr(core_products, "DOT_SAMPLE_KEYS", keys.size)
        c = core_products.mxm_method(A, Bm, S.plus_times, keys)
    assert (c.terms, c.needles) == (W, need)
    assert c.kept == kept
    assert c.method == ("dot" if 1000.0 * kept < W else "expand")
    # the same counts from hypersparse row pointers
    with always_hypersparse():
        Ah, Bh = rebuild(A), rebuild(Bm)
        assert Ah.format == Bh.format == Bh.T.format == "hypersparse"
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(core_products, "DOT_NS", {"needle": 0.0, "key": 0.0, "term": 1000.0, "entry": 0.0, "transpose": 0.0})
            mp.setattr(core_products, "EXPAND_NS", {"term": 1.0, "kept": 0.0, "key": 0.0, "entry": 0.0})
            mp.setattr(core_products, "DOT_SAMPLE_KEYS", keys.size)
            assert core_products.mxm_method(Ah, Bh, S.plus_times, keys) == c
    # sampled every other key: estimates, the sample's counts scaled to all keys
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(core_products, "DOT_NS", {"needle": 0.0, "key": 0.0, "term": 1000.0, "entry": 0.0, "transpose": 0.0})
        mp.setattr(core_products, "EXPAND_NS", {"term": 1.0, "kept": 0.0, "key": 0.0, "entry": 0.0})
        mp.setattr(core_products, "DOT_SAMPLE_KEYS", (keys.size + 1) // 2)
        c = core_products.mxm_method(A, Bm, S.plus_times, keys)
    sample = keys[::2]
    scale = keys.size / sample.size
    n_sample = int(np.where((dega > 0) & (degb > 0), np.minimum(dega, degb), 0)[::2].sum())
    k_sample = int((pa.astype(np.int64) @ pb.astype(np.int64))[sample // 50, sample % 50].sum())
    assert c.terms == W
    assert c.needles == pytest.approx(n_sample * scale)
    assert c.kept == pytest.approx(k_sample * scale)


def test_choice_skips_the_transpose_when_settled_by_bounds():
    """No product term at all (A's rows under the mask are empty): the expansion is chosen
    without building B'; nor is B' built when the needles alone settle the choice."""
    A = sr.Matrix.from_coo([0], [0], [1.0], nrows=3, ncols=3)
    Bm = sr.Matrix.from_coo([1, 2], [0, 2], [1.0, 1.0], nrows=3, ncols=3)
    Mk = sr.Matrix.from_coo([1, 2], [0, 2], [True, True], nrows=3, ncols=3)
    c = core_products.mxm_method(A, Bm, S.plus_times, Mk.S.true_keys())
    assert (c.method, c.terms, c.needles) == ("expand", 0, None)
    assert Bm._T is None  # B' was never built
    A = kron(8)
    B2 = A.dup()
    c = core_products.mxm_method(A, B2, S.plus_pair, sparse_mask(A, 0.01).S.true_keys())
    assert c.method == "dot" and c.kept is None and B2._T is None


@pytest.mark.parametrize("ncols", [40, 100_000])
def test_choice_reads_column_lengths_from_any_source(ncols):
    """B's column lengths counted in its indices, read off a given or cached B', or (B with
    many more columns than entries) off a B' built for the purpose: the same estimates."""
    rng = np.random.default_rng(ncols)
    A, _ = random_matrix(rng, 30, 20, 0.3, "float64")
    r, c = rng.integers(0, 20, 60), rng.integers(0, ncols, 60)
    keys = np.unique(r * ncols + c)
    Bm = sr.Matrix.from_coo(keys // ncols, keys % ncols, np.ones(keys.size), nrows=20, ncols=ncols)
    r, c = rng.integers(0, 30, 200), rng.integers(0, ncols, 200)
    mkeys = np.unique(r * ncols + c)
    fresh = core_products.mxm_method(A, Bm, S.min_plus, mkeys)
    given = core_products.mxm_method(A, Bm, S.min_plus, mkeys, Bt=sr.transpose(Bm))
    Bm.T
    cached = core_products.mxm_method(A, Bm, S.min_plus, mkeys)
    assert fresh.needles is not None and (fresh.terms, fresh.needles) == (given.terms, given.needles)
    assert given == cached
    # B' to build costs the dot method its transpose (per entry of B), and only then
    extra = fresh.dot_ns - given.dot_ns - core_products.DOT_NS["term"] * ((fresh.kept or 0) - (given.kept or 0))
    assert extra == pytest.approx(core_products.DOT_NS["transpose"] * Bm.nvals)


@pytest.mark.numpy_backend  # MXM_METHOD chooses among the NumPy backend's methods
def test_forcing_an_unknown_method_is_invalid(monkeypatch):
    monkeypatch.setattr(core_products, "MXM_METHOD", "sideways")
    A = sr.Matrix.from_coo([0], [0], [1.0], nrows=1, ncols=1)
    with pytest.raises(sr.InvalidValue, match="MXM_METHOD"):
        sr.mxm(A, A, S.plus_times, mask=A.S)


def test_forced_count_for_another_semiring_expands():
    A = kron(6)
    with method("count"):
        got = sr.mxm(A, A, S.min_plus, mask=A.S)
    with method("expand"):
        want = sr.mxm(A, A, S.min_plus, mask=A.S)
    ref.assert_same(got, ref.from_semiring(want))


def test_triangle_counts_by_every_method():
    """Triangle counting (``C<L> = L plus.pair L`` and the other formulations) with each masked
    method forced: the same count, and networkx's."""
    import networkx as nx

    A = sr.generators.kronecker(7)
    r, c, _ = A.to_coo()
    G = nx.Graph()
    G.add_edges_from(zip(r.tolist(), c.tolist()))
    want = sum(nx.triangles(G).values()) // 3
    for forced in ("count", "dot", "expand", "auto"):
        with method(forced):
            for m in ("sandia", "sandia2", "cohen", "burkhardt"):
                assert sr.algorithms.triangle_count(A, method=m) == want, (forced, m)


# -- the GPU runs the same array code on CuPy ---------------------------------------------------
@pytest.mark.gpu
@pytest.mark.parametrize("forced", ["auto", *FORCED_METHODS])
@pytest.mark.parametrize("semiring", ["plus_times", "min_plus", "any_secondi", "max_firstj", "lor_land",
                                      "bxor_band"])
@pytest.mark.parametrize("dtype", ["int8", "int64", "float32", "bool"])
def test_gpu_masked_product_matches_the_cpu(forced, semiring, dtype):
    s = getattr(S, semiring)
    if not supported(s, dtype, dtype):
        pytest.skip(f"{semiring} does not take {dtype}")
    rng = np.random.default_rng(abs(hash((forced, semiring, dtype))) % 2**32)
    A, _ = random_matrix(rng, 60, 80, 0.2, dtype, -100, 101)
    Bm, _ = random_matrix(rng, 80, 50, 0.3, dtype, -100, 101)
    Mk, _ = random_matrix(rng, 60, 50, 0.1, "int8")
    for kind in MASKED:
        with method(forced, 64):
            want = sr.mxm(A, Bm, s, mask=lib_mask(kind, Mk))
            got = sr.mxm(A.to("gpu"), Bm.to("gpu"), s, mask=lib_mask(kind, Mk.to("gpu")))
        assert got.device == "gpu"
        ref.assert_same(got.to("cpu"), ref.from_semiring(want) if not s.monoid.is_any else
                        ref.mxm(ref.from_semiring(A), ref.from_semiring(Bm), s,
                                mask=ref.mask(kind, ref.from_semiring(Mk))),
                        rtol=float_rtol(s.monoid, want.dtype))


def test_cpu_backend_exports_the_dot_kernel():
    assert cpu_products.mxm_dot is array_products.mxm_dot
