"""The backends' layers: the CPU products (SciPy's row gather) agree with the array layer's
code they override."""

import numpy as np
import pytest
import semiring as sr
from semiring.backends.array import products as array_products
from semiring.backends.cpu import products as cpu_products
from semiring.ops import semiring as S

SEMIRINGS = [S.plus_times, S.min_plus, S.any_secondi, S.max_first, S.lor_land]


def _matrix(rng, n, m, density, hyper=False):
    nnz = int(n * m * density)
    keys = np.unique(rng.integers(0, n * m, size=nnz))
    rows, cols = keys // m, keys % m
    if hyper:  # a few rows of a tall matrix: stored hypersparse
        n = 1 << 21
        rows = rows * 997
    vals = rng.integers(-5, 6, size=keys.shape[0]).astype(np.float64)
    return sr.Matrix.from_coo(rows, cols, vals, nrows=n, ncols=m)


@pytest.mark.parametrize("threshold", [0, 1, 10**9])
@pytest.mark.parametrize("hyper", [False, True])
@pytest.mark.parametrize("seed", range(3))
def test_cpu_push_with_scipy_gather_matches_the_array_layer(monkeypatch, threshold, hyper, seed):
    monkeypatch.setattr(cpu_products, "SCIPY_GATHER_TERMS", threshold)
    rng = np.random.default_rng(seed)
    A = _matrix(rng, 60, 50, 0.1, hyper)
    rows = np.flatnonzero(np.diff(A.to_scipy().tocsr().indptr)) if hyper else np.arange(A.nrows)
    u_idx = np.sort(rng.choice(rows, size=min(20, rows.shape[0]), replace=False)).astype(np.int64)
    u_vals = rng.integers(1, 4, size=u_idx.shape[0]).astype(np.float64)
    keep_cols = rng.random(A.ncols) < 0.6
    for s in SEMIRINGS:
        for keep in (None, lambda j: keep_cols[j]):
            got = cpu_products.vxm(u_idx, u_vals, A, s, keep=keep)
            want = array_products.vxm(u_idx, u_vals, A, s, keep=keep)
            np.testing.assert_array_equal(got[0], want[0])
            np.testing.assert_array_equal(got[1], want[1])
            assert got[1].dtype == want[1].dtype


@pytest.mark.parametrize("threshold", [0, 10**9])
def test_cpu_edge_product_matches_the_array_layer(monkeypatch, threshold):
    monkeypatch.setattr(cpu_products, "SCIPY_GATHER_TERMS", threshold)
    rng = np.random.default_rng(7)
    A = _matrix(rng, 40, 40, 0.15)
    u = sr.Vector.from_coo(np.array([0, 3, 17, 39]), np.array([1.0, 2.0, 3.0, 4.0]), size=40)
    for s in SEMIRINGS:
        for is_vxm in (False, True):
            got = cpu_products.edge(A, u, s, is_vxm=is_vxm)
            want = array_products.edge(A, u, s, is_vxm=is_vxm)
            np.testing.assert_array_equal(got[0], want[0])
            np.testing.assert_array_equal(got[1], want[1])


def test_the_scipy_gather_is_taken_above_the_threshold(monkeypatch):
    calls = []
    import scipy.sparse as sp

    real = sp.csr_array

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(cpu_products.sp, "csr_array", counting)
    rng = np.random.default_rng(1)
    A = _matrix(rng, 30, 30, 0.2)
    u_idx, u_vals = np.arange(30, dtype=np.int64), np.ones(30)
    monkeypatch.setattr(cpu_products, "SCIPY_GATHER_TERMS", 10**9)
    cpu_products.vxm(u_idx, u_vals, A, S.plus_times)
    assert not calls
    monkeypatch.setattr(cpu_products, "SCIPY_GATHER_TERMS", 1)
    cpu_products.vxm(u_idx, u_vals, A, S.plus_times)
    assert calls


def _imports(path):
    """Every module a Python file imports (absolute names, relative ones resolved), anywhere in it."""
    import ast
    from pathlib import Path

    pkg = ".".join(Path(path).resolve().relative_to(Path(sr.__file__).resolve().parents[1]).with_suffix("").parts[:-1])
    out = set()
    for node in ast.walk(ast.parse(Path(path).read_text())):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = pkg.split(".")[: len(pkg.split(".")) - node.level + 1] if node.level else []
            mod = ".".join(base + ([node.module] if node.module else []))
            out.add(mod)
            out |= {f"{mod}.{a.name}" for a in node.names}
    return out


def test_ops_layer_imports_no_backend():
    """Operators, monoids and semirings are values; the kernels that fold them live in the backends."""
    from pathlib import Path

    import semiring.ops

    files = sorted(Path(semiring.ops.__file__).parent.glob("*.py"))
    assert any(f.name == "monoid.py" for f in files)
    for f in files:
        bad = [m for m in _imports(f) if m.startswith("semiring.backends")]
        assert not bad, (f.name, bad)
    # the resolver sees a backend import where there is one
    assert "semiring.backends.array.reduce.reduce_runs" in _imports(Path(sr.__file__).parent / "core" / "reduce.py")


def test_segmented_reductions_of_the_array_layer():
    from semiring.backends.array.reduce import host_runs, reduce_all, reduce_runs, reduce_segments
    from semiring.ops import binary as B, monoid as M

    rng = np.random.default_rng(3)
    vals = rng.integers(-9, 10, size=200).astype(np.int64)
    starts = np.unique(np.concatenate([[0], rng.integers(1, 200, size=30)]))
    ends = np.append(starts[1:], 200)
    want_min = np.array([vals[a:b].min() for a, b in zip(starts, ends)])
    np.testing.assert_array_equal(reduce_runs(B.min, vals, starts), want_min)
    np.testing.assert_array_equal(reduce_segments(M.min, vals, starts), want_min)
    # an operator with no ufunc: the pairwise rounds, left to right within a run
    assert B.first.ufunc_for(vals.dtype) is None
    first = np.array([vals[a] for a in starts])
    np.testing.assert_array_equal(host_runs(B.first, vals, starts), first)
    assert reduce_all(M.plus, vals) == vals.sum() and reduce_all(M.plus, vals[:0]) == 0
    np.testing.assert_array_equal(reduce_segments(M.any, vals, starts), first)
