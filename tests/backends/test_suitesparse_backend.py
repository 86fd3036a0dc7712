"""The SuiteSparse:GraphBLAS CPU backend: choosing it, its containers' two forms, and parity of
every public operation with the NumPy backend.

A SuiteSparse container holds its content as a python-graphblas object, a NumPy form, or both
(``semiring.backends.suitesparse.containers``). Each test that builds one takes it in one of
three forms: ``"numpy"`` (a NumPy container), ``"ss"`` (SuiteSparse, NumPy form
authoritative) and ``"gb"`` (SuiteSparse, only the graphblas object present), so that both
directions of the conversion are exercised by every operation.
"""

from __future__ import annotations

import copy
import os
import pickle
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import semiring as sr
from semiring.testing import reference
from semiring.exceptions import InvalidValue, SemiringError

from _strategies import DTYPES, containers, dims, lib_mask, matrices, scalars, vec_dims, vectors

pytestmark = pytest.mark.suitesparse
ROOT = Path(__file__).resolve().parents[2]
B, M, S, U, IU = sr.binary, sr.monoid, sr.semirings, sr.unary, sr.indexunary
FORMS = ("numpy", "ss", "gb")
ALL_DTYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32",
              "float64")


def as_form(x, form):
    """``x`` (a NumPy container, or None) in ``form`` (see the module notes); a new object."""
    from semiring.backends.suitesparse.containers import from_gb

    if x is None or form == "numpy":
        return None if x is None else x.dup()
    y = x.to("cpu", backend="suitesparse")
    if form == "gb":
        g = y._gb().dup()
        y = from_gb(g, x.dtype)
        assert y._current_host() is None
    return y


def numpy_only():
    return sr.backends.use_cpu_backend("numpy")


# -- choosing the backend -----------------------------------------------------------------------
def test_names_and_availability():
    assert sr.backends.available_cpu_backends() == ("numpy", "suitesparse")
    with sr.backends.use_cpu_backend("suitesparse") as name:
        assert name == "suitesparse" == sr.backends.cpu_backend()
        assert sr.Matrix(2, 3).backend == "suitesparse" and sr.Vector(4).backend == "suitesparse"
        with sr.backends.use_cpu_backend("numpy") as inner:
            assert inner == "numpy" and sr.Vector(4).backend == "numpy"
        with sr.backends.use_cpu_backend("auto") as auto:
            assert auto == "suitesparse" == sr.backends.cpu_backend()  # auto: the extra is importable
        assert sr.backends.cpu_backend() == "suitesparse"


def test_set_cpu_backend_returns_the_previous_choice():
    first = sr.backends.set_cpu_backend("suitesparse")
    try:
        assert sr.backends.cpu_backend() == "suitesparse" and sr.Matrix(1, 1).backend == "suitesparse"
        assert sr.backends.set_cpu_backend("numpy") == "suitesparse"
        assert sr.Matrix(1, 1).backend == "numpy"
    finally:
        sr.backends.set_cpu_backend(first)


def test_use_cpu_backend_is_local_to_its_thread():
    seen = {}
    with sr.backends.use_cpu_backend("numpy"):
        previous = sr.backends.set_cpu_backend("suitesparse")
        try:
            t = threading.Thread(target=lambda: seen.setdefault("other", sr.Vector(3).backend))
            t.start()
            t.join()
            seen["here"] = sr.Vector(3).backend
        finally:
            sr.backends.set_cpu_backend(previous)
    assert seen == {"other": "suitesparse", "here": "numpy"}


@pytest.mark.parametrize("bad", ["scipy", "SuiteSparse", "", None, 3])
def test_unknown_backend_names_raise(bad):
    for call in (lambda: sr.backends.set_cpu_backend(bad), lambda: sr.backends.use_cpu_backend(bad).__enter__()):
        with pytest.raises(InvalidValue, match="expected one of 'numpy', 'suitesparse', 'auto'"):
            call()
    if bad is None:
        return
    A = sr.Matrix(2, 2, backend="numpy")
    for call in (lambda: sr.Matrix(2, 2, backend=bad), lambda: sr.Vector(2, backend=bad),
                 lambda: sr.Matrix.from_coo([0], [1], nrows=2, ncols=2, backend=bad),
                 lambda: sr.Vector.from_coo([0], size=2, backend=bad),
                 lambda: sr.Matrix.from_dense(np.ones((2, 2)), backend=bad),
                 lambda: sr.Vector.from_dense(np.ones(2), backend=bad),
                 lambda: sr.Matrix.from_scipy(sp.eye(2, format="csr"), backend=bad),
                 lambda: A.to("cpu", backend=bad)):
        with pytest.raises(InvalidValue, match=r"backend: expected one of .*'cupy'"):
            call()


def test_a_cpu_backend_on_the_gpu_is_refused_before_looking_for_a_gpu():
    for backend in ("suitesparse", "numpy"):
        msg = rf"backend='{backend}' stores on the CPU; device='gpu' stores with 'cupy'"
        with pytest.raises(InvalidValue, match=msg):
            sr.Matrix(2, 2, device="gpu", backend=backend)
        with pytest.raises(InvalidValue, match=msg):
            sr.Vector.from_coo([0], size=2, device="gpu", backend=backend)
        with pytest.raises(InvalidValue, match=msg):
            sr.Matrix(2, 2, backend="suitesparse").to("gpu", backend=backend)
    with pytest.raises(InvalidValue, match="backend='cupy' stores on the GPU"):
        sr.Vector(2, backend="cupy")


def test_every_constructor_takes_backend(tmp_path):
    dense = np.array([[0.0, 2.0], [3.0, 0.0]])
    made = [
        sr.Matrix(2, 2, backend="suitesparse"), sr.Vector(2, backend="suitesparse"),
        sr.Matrix.from_coo([0, 1], [1, 0], [2.0, 3.0], nrows=2, ncols=2, backend="suitesparse"),
        sr.Vector.from_coo([1], [2.0], size=2, backend="suitesparse"),
        sr.Matrix.from_dense(dense, missing=0.0, backend="suitesparse"),
        sr.Vector.from_dense(dense[0], backend="suitesparse"),
        sr.Matrix.from_scipy(sp.csr_array(dense), backend="suitesparse"),
        sr.Matrix.from_scipy(sp.coo_array(dense), backend="suitesparse"),
        sr.io.from_graphblas(sr.io.to_graphblas(sr.Matrix.from_dense(dense)), backend="suitesparse"),
        sr.io.from_graphblas(sr.io.to_graphblas(sr.Vector.from_dense(dense[1])), backend="suitesparse"),
    ]
    assert [x.backend for x in made] == ["suitesparse"] * len(made)
    assert made[2].isequal(made[4]) and made[4].isequal(made[6]) and made[6].isequal(made[7])
    with sr.backends.use_cpu_backend("suitesparse"):
        assert sr.Matrix.from_coo([0], [0], nrows=1, ncols=1, backend="numpy").backend == "numpy"
        assert sr.Matrix.from_dense(dense).backend == "suitesparse"
        path = tmp_path / "two.mtx"
        path.write_text("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 3.5\n")
        assert sr.io.read(path).backend == "suitesparse" and sr.io.read(path).get(0, 1) == 3.5
        assert sr.generators.kronecker(4).backend == "suitesparse"


def test_dimensions_past_2_60_stay_numpy():
    big = 2**60 + 1
    for backend in ("suitesparse", None):
        with sr.backends.use_cpu_backend("suitesparse"):
            assert sr.Matrix(big, 3, backend=backend).backend == "numpy"
            assert sr.Vector(big, backend=backend).backend == "numpy"
            A = sr.Matrix.from_coo([big - 1], [2], [1.5], nrows=big, ncols=3, backend=backend)
            assert A.backend == "numpy" and A.get(big - 1, 2) == 1.5
    A = sr.Matrix(2**60, 2, backend="suitesparse")  # GrB_INDEX_MAX + 1 is the largest dimension
    assert A.backend == "suitesparse" and A._gb().nrows == 2**60
    assert sr.Matrix(big, 2).to("cpu", backend="suitesparse").backend == "numpy"


def _run(code, env=None):
    full = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=full, timeout=120)


def test_environment_variable_sets_the_initial_choice():
    r = _run("import semiring as sr; print(sr.backends.cpu_backend(), sr.Matrix(2, 2).backend, sr.Vector(1).backend)",
             {"SEMIRING_CPU_BACKEND": "suitesparse"})
    assert r.returncode == 0 and r.stdout.split() == ["suitesparse"] * 3, r.stderr
    r = _run("import semiring as sr; print(sr.backends.cpu_backend())", {"SEMIRING_CPU_BACKEND": ""})
    assert r.returncode == 0 and r.stdout.split() == ["suitesparse"], r.stderr  # auto: the extra is installed
    r = _run("import semiring as sr\ntry:\n sr.Matrix(2, 2)\nexcept sr.InvalidValue as e:\n print(e)",
             {"SEMIRING_CPU_BACKEND": "cuda"})
    assert r.returncode == 0 and "environment variable SEMIRING_CPU_BACKEND: expected one of" in r.stdout, r.stderr
    r = _run("import semiring as sr; print(sr.backends.set_cpu_backend('numpy'), sr.Matrix(2, 2).backend)",
             {"SEMIRING_CPU_BACKEND": "cuda"})  # set_cpu_backend replaces an unknown name
    assert r.returncode == 0 and r.stdout.split() == ["auto", "numpy"], r.stderr


def test_the_numpy_backend_never_imports_graphblas():
    code = ("import sys, semiring as sr\nA = sr.generators.kronecker(5)\n"
            "sr.algorithms.bfs(A, 0); sr.mxv(A, sr.Vector.from_dense([1.0] * A.nrows), 'plus_times')\n"
            "print(A.backend, sr.backends.cpu_backend(), 'graphblas' in sys.modules)")
    r = _run(code, {"SEMIRING_CPU_BACKEND": "numpy"})
    assert r.returncode == 0 and r.stdout.split() == ["numpy", "numpy", "False"], r.stderr


WITHOUT_GRAPHBLAS = """
import sys
sys.modules["graphblas"] = None  # as if python-graphblas were not installed
import semiring as sr
print(sr.backends.available_cpu_backends(), sr.backends.cpu_backend(), sr.Matrix(2, 2).backend)
for call in (lambda: sr.Matrix(2, 2, backend="suitesparse"), lambda: sr.backends.set_cpu_backend("suitesparse"),
             lambda: sr.Vector.from_coo([0], size=1, backend="suitesparse"),
             lambda: sr.Matrix(2, 2).to("cpu", backend="suitesparse")):
    try:
        call()
        print("no error")
    except sr.BackendUnavailable as e:
        print("BackendUnavailable:", e)
"""


def test_without_the_extra_numpy_works_and_suitesparse_says_how_to_install():
    r = _run(WITHOUT_GRAPHBLAS, {"SEMIRING_CPU_BACKEND": "auto"})
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "('numpy',) numpy numpy"
    assert len(lines) == 5
    for line in lines[1:]:
        assert line.startswith("BackendUnavailable: backend='suitesparse' needs python-graphblas: "
                               "pip install 'semiring[suitesparse]'; importing it failed: ")
    r = _run(WITHOUT_GRAPHBLAS.replace("print(sr.backends.available", "sr.Matrix(1, 1)\nprint(sr.backends.available"),
             {"SEMIRING_CPU_BACKEND": "suitesparse"})
    assert r.returncode != 0 and "BackendUnavailable: backend='suitesparse' needs python-graphblas" in r.stderr


# -- the containers -----------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_round_trips_keep_entries_explicit_zeros_and_dtype(dtype):
    rng = np.random.default_rng(7)
    for nrows, ncols in ((0, 0), (0, 3), (4, 0), (1, 1), (7, 5), (40, 3)):
        dense = rng.integers(0, 3, size=(nrows, ncols)).astype(dtype)
        present = rng.random((nrows, ncols)) < 0.5
        r, c = np.nonzero(present)
        A = sr.Matrix.from_coo(r, c, dense[r, c], nrows=nrows, ncols=ncols, dtype=dtype, backend="numpy")
        for form in ("ss", "gb"):
            X = as_form(A, form)
            assert X.backend == "suitesparse" and X.dtype == A.dtype and X.shape == A.shape
            assert X.nvals == A.nvals and X.isequal(A, check_dtype=True) and A.isequal(X, check_dtype=True)
            assert X.to("cpu", backend="numpy").isequal(A, check_dtype=True)
            G = sr.io.to_graphblas(X)
            assert G.nvals == A.nvals and sr.io.from_graphblas(G, backend="numpy").isequal(A, check_dtype=True)
        for n in (0, 1, 5, 40):
            idx = np.flatnonzero(rng.random(n) < 0.5)
            u = sr.Vector.from_coo(idx, np.zeros(idx.size, dtype), size=n, dtype=dtype, backend="numpy")
            for form in ("ss", "gb"):
                x = as_form(u, form)
                assert x.isequal(u, check_dtype=True) and x.nvals == u.nvals and x.format == u.format


def test_iso_objects_export_one_value_per_entry():
    import graphblas as gb

    from semiring.backends.suitesparse.containers import from_gb

    G = gb.Matrix.from_coo([0, 0, 2], [1, 2, 0], True, nrows=3, ncols=3)
    assert G.ss.is_iso
    A = from_gb(G, np.bool_)
    assert A.to_coo()[2].tolist() == [True, True, True] and A._values.shape == (3,)
    g = gb.Vector.from_coo([1, 3], 2.5, size=5)
    u = from_gb(g, np.float64)
    assert u.to_coo()[1].tolist() == [2.5, 2.5] and u.to_dense(0.0).tolist() == [0, 2.5, 0, 2.5, 0]


def test_hypersparse_storage_in_both_forms():
    from semiring.core import _rowptr

    n = _rowptr.HYPER_MIN_ROWS * 4
    A = sr.Matrix.from_coo([5, n - 1, n - 1], [2, 0, n - 1], [1.0, 2.0, 3.0], nrows=n, ncols=n, backend="suitesparse")
    assert A.format == "hypersparse" and _rowptr.is_hyper(A._rowptr)
    G = as_form(A, "gb")
    assert G.format == "hypersparse" and G._gb().ss.format == "hypercsr"
    assert _rowptr.is_hyper(G._rowptr) and G.isequal(A) and G.T.isequal(A.T)
    assert sr.transpose(G).backend == "suitesparse" and sr.transpose(G).isequal(A.T)
    full = sr.Matrix.from_coo(np.arange(n // 8), np.zeros(n // 8, np.int64), nrows=n, ncols=2, backend="numpy")
    Gf = as_form(full, "gb")
    assert Gf.format == "csr" and not _rowptr.is_hyper(Gf._rowptr) and Gf.isequal(full)


def test_writes_give_a_new_version_and_drop_the_other_form():
    A = as_form(sr.Matrix.from_coo([0, 1], [1, 0], [1.0, 2.0], nrows=2, ncols=2, backend="numpy"), "gb")
    v0, T0 = A._version, A.T
    assert A._current_host() is None and T0._current_host() is None  # A.T by GrB_transpose
    assert A._indices.tolist() == [1, 0] and A._current_host() is not None and A._gbv[0] == v0  # both forms
    sr.apply(A, U.ainv, out=A)  # computed by GrB_apply: the GraphBLAS form is the new content
    assert A._version != v0 and A._current_host() is None and A._gbv[0] == A._version and A.T is not T0
    assert A.to_coo()[2].tolist() == [-1.0, -2.0] and T0.to_coo()[2].tolist() == [2.0, 1.0]
    v1 = A._version
    negate = sr.UnaryOp(lambda x: -x, "negate")  # a user operator: computed by NumPy
    sr.apply(A, negate, out=A)
    assert A._version != v1 and A._gbv is None and A.to_coo()[2].tolist() == [1.0, 2.0]
    g = A._gb()  # built from the new content
    assert sorted(g.to_coo()[2].tolist()) == [1.0, 2.0] and A._gb() is g
    u = as_form(sr.Vector.from_coo([0, 2], [1, 2], size=3, backend="numpy"), "gb")
    v0 = u._version
    sr.assign(u, 7, [1])  # GrB_assign
    assert u._version != v0 and u._current_host() is None and u.to_coo()[1].tolist() == [1, 7, 2]
    v1 = u._version
    sr.apply(u, negate, out=u)  # NumPy: the NumPy form is the new content
    assert u._version != v1 and u._gbv is None and u.to_coo()[1].tolist() == [-1, -7, -2]
    assert sorted(u._gb().to_coo()[1].tolist()) == [-7, -2, -1]


def test_the_missing_form_is_built_once_by_concurrent_readers(monkeypatch):
    from semiring.backends.suitesparse import containers, convert

    builds = []
    real = convert.export_matrix

    def slow_export(G, dtype):
        builds.append(1)
        threading.Event().wait(0.05)
        return real(G, dtype)

    monkeypatch.setattr(convert, "export_matrix", slow_export)
    A = as_form(sr.generators.kronecker(5).to("cpu", backend="numpy"), "gb")
    assert isinstance(A, containers.SSMatrix) and not builds
    got = []
    threads = [threading.Thread(target=lambda: got.append(A._indices)) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(builds) == 1 and all(g is got[0] for g in got)


def test_pickle_and_copy_keep_backend_content_and_read_only_flag():
    A = as_form(sr.Matrix.from_coo([0, 2], [1, 0], [1, -4], nrows=3, ncols=2, backend="numpy"), "gb")
    u = as_form(sr.Vector.from_coo([3], [True], size=9, backend="numpy"), "gb")
    for x in (A, A.T, u):
        for y in (pickle.loads(pickle.dumps(x)), copy.copy(x), copy.deepcopy(x)):
            assert y is not x and y.backend == "suitesparse" and y.isequal(x, check_dtype=True)
            assert getattr(y, "_readonly", False) == getattr(x, "_readonly", False)
    with pytest.raises(InvalidValue, match="read-only"):
        sr.apply(A.T, U.ainv, out=pickle.loads(pickle.dumps(A.T)))


def test_to_copies_and_identity():
    A = sr.Matrix.from_coo([0, 1], [1, 0], [1.0, 2.0], nrows=2, ncols=2, backend="numpy")
    X = A.to("cpu", backend="suitesparse")
    assert X is not A and X.to("cpu") is X and X.to("cpu", backend="suitesparse") is X and A.to("cpu") is A
    assert A.to("cpu", backend="numpy") is A and X.to("auto", backend="suitesparse") is X
    Y = X.to("cpu", backend="numpy")
    assert Y.backend == "numpy" and type(Y) is sr.Matrix and Y.isequal(A)
    sr.apply(Y, U.ainv, out=Y)  # writing one copy leaves the others
    assert X.to_coo()[2].tolist() == [1.0, 2.0] and A.to_coo()[2].tolist() == [1.0, 2.0]
    u = sr.Vector.from_dense(np.arange(20.0), backend="numpy")  # bitmap form, written in place
    x = u.to("cpu", backend="suitesparse")
    sr.assign(x, -1.0, [3])
    assert u.get(3) == 3.0 and x.get(3) == -1.0
    w = x.to("cpu", backend="numpy")
    sr.assign(w, -2.0, [4])
    assert x.get(4) == 4.0 and w.get(4) == -2.0
    D = X.dup()
    assert D.backend == "suitesparse" and D is not X and D.isequal(X)
    assert X.dup("int64").dtype == np.int64 and X.dup("int64").backend == "suitesparse"
    G = as_form(A, "gb")
    assert G.dup().isequal(A) and G.dup()._current_host() is None


def test_repr_and_class_names():
    A = sr.Matrix.from_coo([0], [1], [2.0], nrows=3, ncols=3, backend="suitesparse")
    u = sr.Vector.from_coo([0], [2], size=3, backend="suitesparse")
    assert repr(A) == "<Matrix 3x3 nvals=1 dtype=float64 cpu suitesparse>"
    assert repr(u) == "<Vector size=3 nvals=1 dtype=int64 bitmap cpu suitesparse>"
    assert type(A).__name__ == "Matrix" and isinstance(A, sr.Matrix) and isinstance(u, sr.Vector)
    assert repr(sr.Matrix(3, 3, backend="numpy")) == "<Matrix 3x3 nvals=0 dtype=float64 cpu>"
    assert sr.Matrix(3, 3, backend="numpy").backend == "numpy"
    with pytest.raises(InvalidValue, match="operands must both be Vectors or both Matrices; given Matrix and Vector"):
        sr.ewise_add(A, u, B.plus)


def test_to_graphblas_is_independent_of_the_container():
    A = sr.Matrix.from_coo([0, 1], [1, 0], [1.0, 2.0], nrows=2, ncols=2, backend="suitesparse")
    G = sr.io.to_graphblas(A)
    G[0, 0] = 5.0
    assert A.nvals == 2 and A.get(0, 0) is None and A._gb().nvals == 2
    X = sr.io.from_graphblas(G, backend="suitesparse")
    G[1, 1] = 6.0
    assert X.nvals == 3 and X.get(1, 1) is None


# -- which backend a result has -----------------------------------------------------------------
def test_results_follow_their_inputs():
    with numpy_only():
        A = sr.Matrix.from_coo([0, 1], [1, 0], [1.0, 2.0], nrows=2, ncols=2)
        u = sr.Vector.from_coo([0, 1], [1.0, 1.0], size=2)
    X, x = A.to("cpu", backend="suitesparse"), u.to("cpu", backend="suitesparse")
    with sr.backends.use_cpu_backend("suitesparse"):  # the current choice does not matter
        assert sr.mxv(A, u, S.plus_times).backend == "numpy"
    assert sr.mxv(X, u, S.plus_times).backend == "suitesparse"
    assert sr.mxv(A, x, S.plus_times).backend == "suitesparse"
    assert sr.mxv(A, u, S.plus_times, mask=x.S).backend == "suitesparse"  # a mask is an input
    assert sr.ewise_add(A, X, B.plus).backend == "suitesparse"
    assert sr.transpose(X).backend == "suitesparse" and X.T.backend == "suitesparse"
    w = sr.Vector(2, backend="numpy")
    assert sr.mxv(X, x, S.plus_times, out=w) is w and w.backend == "numpy"  # out keeps its backend
    assert sr.assign(w, x, [0, 1]) is w and w.backend == "numpy"
    y = sr.Vector(2, backend="suitesparse")
    assert sr.mxv(A, u, S.plus_times, out=y) is y and y.backend == "suitesparse"
    assert isinstance(sr.reduce_scalar(X, M.plus), (np.generic, float))


# -- parity of every operation ------------------------------------------------------------------
def _mxv(d):
    m, n = d.draw(dims), d.draw(vec_dims)
    s = d.draw(st.sampled_from((S.plus_times, S.min_plus, S.any_pair, S.max_second, S.min_secondi)))
    return (lambda lib, A, u, **w: lib.mxv(A, u, s, **w)), (d.draw(matrices(m, n)), d.draw(vectors(n))), (m,)


def _vxm(d):
    m, n = d.draw(vec_dims), d.draw(dims)
    s = d.draw(st.sampled_from((S.plus_times, S.lor_land, S.any_secondi, S.max_times)))
    return (lambda lib, u, A, **w: lib.vxm(u, A, s, **w)), (d.draw(vectors(m)), d.draw(matrices(m, n))), (n,)


def _mxm(d):
    m, k, n = d.draw(dims), d.draw(dims), d.draw(dims)
    s = d.draw(st.sampled_from((S.plus_times, S.min_plus, S.plus_pair, S.min_firsti)))
    return (lambda lib, A, C, **w: lib.mxm(A, C, s, **w)), (d.draw(matrices(m, k)), d.draw(matrices(k, n))), (m, n)


def _shape(d):
    return d.draw(st.one_of(st.tuples(vec_dims), st.tuples(dims, dims)))


def _ewise(name):
    def case(d):
        shape = _shape(d)
        op = d.draw(st.sampled_from((B.plus, B.minus, B.min, B.first, B.pair, B.eq, M.max)))
        return (lambda lib, x, y, **w: getattr(lib, name)(x, y, op, **w)), (d.draw(containers(shape)), d.draw(containers(shape))), shape
    return case


def _apply(d):
    shape, kind = _shape(d), d.draw(st.sampled_from(("unary", "left", "right", "index")))
    x = d.draw(containers(shape))
    if kind == "unary":
        op = d.draw(st.sampled_from((U.ainv, U.abs, U.identity, U.lnot, U.one)))
        return (lambda lib, x, **w: lib.apply(x, op, **w)), (x,), shape
    if kind == "index":
        op, t = d.draw(st.sampled_from((IU.rowindex, IU.colindex, IU.diagindex))), d.draw(st.integers(-2, 2))
        return (lambda lib, x, **w: lib.apply(x, op, thunk=t, **w)), (x,), shape
    op = d.draw(st.sampled_from((B.plus, B.times, B.max, B.second, B.lt)))
    s = d.draw(scalars(d.draw(st.sampled_from(DTYPES))))
    return (lambda lib, x, **w: lib.apply(x, op, **{kind: s}, **w)), (x,), shape


def _select(d):
    shape = _shape(d)
    op = d.draw(st.sampled_from((IU.tril, IU.triu, IU.offdiag, IU.valuegt, IU.valueeq, IU.rowle)))
    t = d.draw(st.integers(-1, 1))
    return (lambda lib, x, **w: lib.select(x, op, t, **w)), (d.draw(containers(shape)),), shape


def _reduce(name):
    def case(d):
        m, n = d.draw(dims), d.draw(dims)
        mon = d.draw(st.sampled_from((M.plus, M.min, M.max, M.any, M.times)))
        return (lambda lib, A, **w: getattr(lib, name)(A, mon, **w)), (d.draw(matrices(m, n)),), (m,) if name == "reduce_rowwise" else (n,)
    return case


def _index(d, n, unique):
    kind = d.draw(st.sampled_from(("all", "slice", "list")))
    if kind == "all":
        return None, n
    if kind == "slice":
        return slice(None, None, -1), n
    idx = d.draw(st.lists(st.integers(0, max(n - 1, 0)), unique=unique, max_size=n)) if n else []
    return np.array(idx, dtype=np.int64), len(idx)


def _extract(d):
    shape = _shape(d)
    picks = [_index(d, n, unique=False) for n in shape]
    idx = tuple(p[0] for p in picks)
    fn = (lambda lib, x, **w: lib.extract(x, idx[0], **w)) if len(shape) == 1 else (lambda lib, x, **w: lib.extract(x, *idx, **w))
    return fn, (d.draw(containers(shape)),), tuple(p[1] for p in picks)


def _assign(d):
    shape = _shape(d)
    picks = [_index(d, n, unique=True) for n in shape]
    idx = picks[0][0] if len(shape) == 1 else tuple(p[0] for p in picks)
    sub = tuple(p[1] for p in picks)
    if d.draw(st.booleans()):
        return (lambda lib, out, u, **w: lib.assign(out, u, idx, **w)), (d.draw(containers(sub)),), shape
    s = d.draw(scalars(d.draw(st.sampled_from(DTYPES))))
    return (lambda lib, out, **w: lib.assign(out, s, idx, **w)), (), shape


def _transpose(d):
    A = d.draw(matrices())
    return (lambda lib, A, **w: lib.transpose(A, **w)), (A,), (A.ncols, A.nrows)


def _kronecker(d):
    A, C = d.draw(matrices(d.draw(st.integers(0, 3)), d.draw(st.integers(0, 3)))), d.draw(matrices(2, 3))
    op = d.draw(st.sampled_from((B.times, B.plus, B.first, B.pair)))
    return (lambda lib, A, C, **w: lib.kronecker(A, C, op, **w)), (A, C), (A.nrows * 2, A.ncols * 3)


CASES = {"mxv": _mxv, "vxm": _vxm, "mxm": _mxm, "ewise_add": _ewise("ewise_add"), "ewise_mult": _ewise("ewise_mult"),
         "apply": _apply, "select": _select, "reduce_rowwise": _reduce("reduce_rowwise"),
         "reduce_columnwise": _reduce("reduce_columnwise"), "extract": _extract, "assign": _assign,
         "transpose": _transpose, "kronecker": _kronecker}


def _outcome(call):
    try:
        return call(), None
    except SemiringError as exc:
        return None, exc


@pytest.mark.parametrize("opname", sorted(CASES))
@settings(max_examples=30, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_every_operation_matches_the_numpy_backend(opname, data):
    """The same call on NumPy inputs and on inputs in random forms gives the same result (exactly:
    the values, the positions, the dtype) or the same error, and leaves the inputs as they were;
    the result's backend follows the rule of ``semiring.core._validate.follow_inputs``."""
    with numpy_only():
        fn, inputs, shape = CASES[opname](data)
        needs_out = opname == "assign"
        out = data.draw(containers(shape)) if needs_out or data.draw(st.booleans()) else None
        mask_kind = data.draw(st.sampled_from((None, "S", "V", "~S", "~V")))
        mask_parent = None if mask_kind is None else data.draw(containers(shape, st.sampled_from(("bool", "int8"))))
        accum = data.draw(st.sampled_from((None, B.plus, B.second)))
        replace = mask_kind is not None and data.draw(st.booleans())
    forms = data.draw(st.lists(st.sampled_from(FORMS), min_size=len(inputs) + 2, max_size=len(inputs) + 2))
    args = [as_form(x, f) for x, f in zip(inputs, forms)]
    got_out, got_mask = as_form(out, forms[-2]), as_form(mask_parent, forms[-1])
    ref_out = None if out is None else out.dup()

    def call(ins, o, m):
        w = dict(mask=lib_mask(mask_kind, m), accum=accum, replace=replace)
        return fn(sr, o, *ins, **w) if needs_out else fn(sr, *ins, out=o, **w)

    expected, err = _outcome(lambda: call(inputs, ref_out, mask_parent))
    got, got_err = _outcome(lambda: call(args, got_out, got_mask))
    if err is not None:
        assert type(got_err) is type(err) and str(got_err) == str(err)
        return
    assert got_err is None, got_err
    if not got.isequal(expected, check_dtype=True):
        # only an 'any' reduction may differ: each of its values is one of the terms reduced
        rins = [reference.from_semiring(x) for x in inputs]
        rout = None if out is None else reference.from_semiring(out)
        w = dict(mask=reference.mask(mask_kind, None if mask_parent is None else reference.from_semiring(mask_parent)),
                 accum=accum, replace=replace)
        ref = fn(reference, rout, *rins, **w) if needs_out else fn(reference, *rins, out=rout, **w)
        assert any(isinstance(v, reference.Choice) for v in ref.entries.values()), (got.to_coo(), expected.to_coo())
        reference.assert_same(got, ref)
    for x, y in zip(inputs, args):
        assert y.isequal(x, check_dtype=True)
    if out is not None:
        assert got is got_out
    else:
        used = list(forms[:len(inputs)]) + ([forms[-1]] if mask_parent is not None else [])
        wanted = "suitesparse" if any(f != "numpy" for f in used) else "numpy"
        assert got.backend == wanted


@settings(max_examples=40, deadline=None, derandomize=True)
@given(data=st.data())
def test_reduce_scalar_matches_the_numpy_backend(data):
    with numpy_only():
        x = data.draw(containers(_shape(data)))
    mon = data.draw(st.sampled_from((M.plus, M.min, M.max, M.times, M.any)))
    y = as_form(x, data.draw(st.sampled_from(("ss", "gb"))))
    a, b = sr.reduce_scalar(x, mon), sr.reduce_scalar(y, mon)
    assert type(a) is type(b)
    if mon is M.any:  # any one of the entries' values (the identity when there are none)
        assert reference.values_equal(b, reference.reduce_scalar(reference.from_semiring(x), mon))
    else:
        assert a == b or (np.isnan(a) and np.isnan(b))


@pytest.mark.parametrize("form", ("ss", "gb"))
def test_element_access_and_exports_match(form):
    with numpy_only():
        A = sr.Matrix.from_coo([0, 1, 3], [2, 0, 3], [1.5, 0.0, -2.0], nrows=4, ncols=5)
        u = sr.Vector.from_coo([1, 4], [3, 0], size=6, dtype="int16")
    X, x = as_form(A, form), as_form(u, form)
    assert X.get(0, 2) == 1.5 and X.get(1, 0) == 0.0 and X.get(2, 2) is None
    assert x.get(4) == 0 and x.get(0, default=-1) == -1
    for a, b in zip(X.to_coo(), A.to_coo()):
        assert np.array_equal(a, b) and a.dtype == b.dtype
    assert np.array_equal(X.to_dense(9.0), A.to_dense(9.0)) and np.array_equal(x.to_dense(7), u.to_dense(7))
    S_ = as_form(A, form).to_scipy()
    assert (S_ != A.to_scipy()).nnz == 0 and not S_.data.flags.writeable


def test_docstring_examples():
    import doctest

    from semiring.backends import _select

    result = doctest.testmod(_select, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0


# -- native computation ---------------------------------------------------------------------------
def _native_calls(A, u, m):
    """Built-in operators on SuiteSparse containers: each call is one GraphBLAS call."""
    n = A.nrows
    w = sr.Vector(n, "float64", backend="suitesparse")
    return {
        "mxv": lambda: sr.mxv(A, u, S.min_plus, mask=~m.S, replace=True, out=w, accum=B.min),
        "vxm": lambda: sr.vxm(u, A, S.any_secondi, mask=m.V),
        "mxm": lambda: sr.mxm(A, A, S.plus_pair, mask=A.S),
        "ewise_add": lambda: sr.ewise_add(u, m, B.plus),
        "ewise_mult": lambda: sr.ewise_mult(u, u, M.min, mask=m.S),
        "apply": lambda: (sr.apply(u, U.ainv), sr.apply(A, B.times, right=2), sr.apply(u, IU.rowindex, thunk=1)),
        "select": lambda: (sr.select(A, IU.tril, -1), sr.select(u, IU.valuegt, 2.0)),
        "reduce_rowwise": lambda: sr.reduce_rowwise(A, M.plus),
        "reduce_columnwise": lambda: sr.reduce_columnwise(A, "max"),
        "reduce_scalar": lambda: sr.reduce_scalar(A, M.plus),
        "assign": lambda: (sr.assign(w, 3.0, mask=u.S), sr.assign(w, u, [*range(n)][::-1], accum=B.plus)),
        "extract": lambda: (sr.extract(u, [2, 0, 2]), sr.extract(A, [1, 0], None), sr.extract(A, 1, None),
                            sr.extract(A, None, 2)),
        "transpose": lambda: sr.transpose(A, mask=A.S),
    }


@pytest.mark.parametrize("opname", ("apply", "assign", "ewise_add", "ewise_mult", "extract", "mxm", "mxv",
                                    "reduce_columnwise", "reduce_rowwise", "reduce_scalar", "select", "transpose",
                                    "vxm"))
def test_built_in_operators_compute_in_suitesparse(opname):
    """With built-in operators and casts that cannot fail, no operation on SuiteSparse containers
    falls back to the NumPy code (the dispatch counts fallbacks by operation), and each result
    equals the NumPy backend's."""
    from semiring.backends.suitesparse import dispatch

    rng = np.random.default_rng(7)
    n = 9
    S_ = sp.random(n, n, density=0.4, random_state=rng, format="coo")
    with numpy_only():
        A = sr.Matrix.from_coo(S_.row, S_.col, np.round(S_.data * 10), nrows=n, ncols=n)
        u = sr.Vector.from_coo([0, 3, 4, 8], [1.0, 5.0, 2.0, 7.0], size=n)
        m = sr.Vector.from_coo([1, 3, 5], [True, False, True], size=n)
    dispatch.FALLBACKS.clear()
    got = _native_calls(*(as_form(x, "gb") for x in (A, u, m)))[opname]()
    assert dict(dispatch.FALLBACKS) == {}
    with numpy_only():
        expected = _native_calls(A, u, m)[opname]()
    for g, e in zip(got if isinstance(got, tuple) else (got,), expected if isinstance(expected, tuple) else (expected,)):
        if opname == "vxm":  # any: a valid choice of the reduced terms
            assert g.isequal(sr.vxm(u, A, S.min_secondi, mask=m.V)) or g.nvals == e.nvals
        elif hasattr(e, "nvals"):
            assert g.backend == "suitesparse" and g.isequal(e, check_dtype=True)
        else:
            assert g == e and type(g) is type(e)


def test_what_suitesparse_would_compute_differently_runs_on_numpy():
    """Cases where the C library's answer differs from semiring's are computed by the NumPy
    code: a user-defined operator, a float into bool (NaN raises in semiring), a float64 result
    into a float32 ``out`` (semiring refuses values past float32's range), a select thunk the
    value type cannot hold."""
    from semiring.backends.suitesparse import dispatch

    u = sr.Vector.from_coo([0, 1, 2], [1.0, np.nan, 3.0], size=3, backend="suitesparse")
    b = sr.Vector.from_coo([0, 1, 2], [1, 2, 3], dtype="int8", size=3, backend="suitesparse")
    dispatch.FALLBACKS.clear()
    twice = sr.UnaryOp(lambda x: 2 * x, "twice")
    assert sr.apply(b, twice).to_coo()[1].tolist() == [2, 4, 6]
    with pytest.raises(InvalidValue):
        sr.ewise_mult(u, u, B.land)  # NaN is not a boolean
    big = sr.Vector.from_coo([0], [1e300], size=3, backend="suitesparse")
    with pytest.raises(InvalidValue):
        sr.apply(big, U.identity, out=sr.Vector(3, "float32", backend="suitesparse"))
    assert sr.select(b, IU.valuelt, 1.5).to_coo()[0].tolist() == [0]
    assert dict(dispatch.FALLBACKS) == {"apply": 2, "ewise_mult": 1, "select": 1}
