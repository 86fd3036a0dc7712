"""The SuiteSparse:GraphBLAS CPU backend's containers: the two forms (a python-graphblas
object, a NumPy form, or both) and their conversions, and which backend a result has. Each test
that builds one takes it in one of three forms (tests/_suitesparse_forms.py)."""

from __future__ import annotations

import copy
import pickle
import threading

import numpy as np
import pytest

import semiring as sr
from semiring.exceptions import InvalidValue

from _suitesparse_forms import B, M, S, U, as_form, numpy_only

pytestmark = pytest.mark.suitesparse

ALL_DTYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32",
              "float64")


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
