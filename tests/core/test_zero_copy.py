"""Zero-copy interop on the CPU: what ``Matrix.from_scipy`` / ``to_scipy`` share, when they
copy, and the aliasing contract; dense input through the DLPack protocol.

The contract (``Matrix.from_scipy`` and ``Matrix.to_scipy`` docstrings):

- ``from_scipy`` of a canonical CSR (sorted, unique column indices; int32 or int64 indices of
  one dtype; no cast) keeps ``S``'s arrays; anything else is converted into new arrays.
- A matrix never writes into the arrays it holds: every operation gives it new ones. So
  operations on a matrix never change an ``S`` it shares arrays with, and an exported
  ``to_scipy()`` is a read-only snapshot.
- Changing ``S`` in place after ``from_scipy`` (without ``copy=True``) does change the matrix.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as csgraph

import semiring as sr
from semiring import DomainMismatch, InvalidValue
from _optional import require


def _csr(idx_dtype=np.int32, cls=sp.csr_array, dtype=np.float64):
    """A canonical 4x5 CSR with an explicit zero at (0, 3) and an empty row 2, whose index
    arrays have ``idx_dtype`` (set as attributes: scipy's constructor would downcast int64)."""
    S = cls((4, 5), dtype=dtype)
    S.indptr = np.array([0, 2, 4, 4, 6], dtype=idx_dtype)
    S.indices = np.array([1, 3, 0, 4, 2, 3], dtype=idx_dtype)
    S.data = np.array([5, 0, 7, 1, 2, 8], dtype=dtype)
    return S


def _shares(S, T):
    """Which of data, indices, indptr two scipy matrices share."""
    return tuple(np.shares_memory(getattr(S, a), getattr(T, a)) for a in ("data", "indices", "indptr"))


# ---------------------------------------------------------------------------------------------
# from_scipy: when it shares, when it copies
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("cls", [sp.csr_array, sp.csr_matrix])
@pytest.mark.parametrize("idx_dtype", [np.int32, np.int64])
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint64", "float32", "float64"])
def test_canonical_csr_is_shared_both_ways(cls, idx_dtype, dtype):
    S = _csr(idx_dtype, cls, dtype)
    A = sr.Matrix.from_scipy(S)
    assert A.dtype == np.dtype(dtype) and A.nvals == 6 and A.get(0, 3) == 0  # the explicit zero is an entry
    T = A.to_scipy()
    assert _shares(S, T) == (True, True, True)  # S -> A -> T without a copy
    assert T.indices.dtype == idx_dtype and T.indptr.dtype == idx_dtype and T.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(T.toarray(), S.toarray())


def test_copies_happen_exactly_where_documented():
    S = _csr(np.int32)
    # a cast copies the values only
    assert _shares(S, sr.Matrix.from_scipy(S, dtype="float32").to_scipy()) == (False, True, True)
    # copy=True copies everything
    assert _shares(S, sr.Matrix.from_scipy(S, copy=True).to_scipy()) == (False, False, False)
    # int64 indptr with int32 indices: the indices are converted to int64; values and indptr kept
    M = _csr(np.int32)
    M.indptr = M.indptr.astype(np.int64)
    T = sr.Matrix.from_scipy(M).to_scipy()
    assert _shares(M, T) == (True, False, True) and T.indices.dtype == np.int64
    # unsorted indices in a row, repeated entries, or another format: new arrays
    U = _csr(np.int32)
    U.indices = np.array([3, 1, 0, 4, 2, 3], dtype=np.int32)
    U.data = np.array([0, 5, 7, 1, 2, 8], dtype=np.float64)
    TU = sr.Matrix.from_scipy(U).to_scipy()
    assert _shares(U, TU) == (False, False, False)
    np.testing.assert_array_equal(TU.toarray(), S.toarray())
    for other in (S.tocsc(), S.tocoo(), sp.csr_matrix(S).tolil()):
        assert not np.shares_memory(sr.Matrix.from_scipy(other).to_scipy().data, other.tocoo().data)
    # the copy=True export never shares
    A = sr.Matrix.from_scipy(S)
    assert _shares(S, A.to_scipy(copy=True)) == (False, False, False)


def test_canonical_check_does_not_trust_the_cached_flag():
    S = _csr(np.int32)
    assert S.has_canonical_format  # computed and cached by scipy
    S.indices[0], S.indices[1] = 3, 1  # row 0 now lists 3, 1: scipy's flag is stale
    assert S.has_canonical_format
    A = sr.Matrix.from_scipy(S)
    assert A.to_coo()[1][:2].tolist() == [1, 3]  # sorted on import
    assert A.get(0, 1) == 0.0 and A.get(0, 3) == 5.0
    S.indices[1] = 3  # now a duplicate (0, 3)
    with pytest.raises(InvalidValue, match=r"duplicate entries at \(row 0, col 3\)"):
        sr.Matrix.from_scipy(S)


def test_longer_arrays_than_indptr_says_are_sliced():
    S = _csr(np.int64)
    S.indices = np.concatenate([S.indices, [0, 0]])
    S.data = np.concatenate([S.data, [-1.0, -1.0]])
    A = sr.Matrix.from_scipy(S)
    assert A.nvals == 6 and A.to_coo()[2].tolist() == [5.0, 0.0, 7.0, 1.0, 2.0, 8.0]


# ---------------------------------------------------------------------------------------------
# aliasing: the matrix never writes into its arrays
# ---------------------------------------------------------------------------------------------
def test_operations_never_write_into_imported_arrays():
    """S's arrays made read-only: any in-place write by an operation would raise."""
    S = _csr(np.int32)
    before = [a.copy() for a in (S.data, S.indices, S.indptr)]
    for a in (S.data, S.indices, S.indptr):
        a.flags.writeable = False
    A = sr.Matrix.from_scipy(S)
    B = sr.Matrix.from_coo([0, 3], [3, 0], [1.0, 1.0], nrows=5, ncols=4)
    sr.mxm(A, B, sr.semirings.plus_times, out=sr.Matrix(4, 4))
    sr.assign(A, 9.0, ([0, 2], [1, 2]))  # A([0, 2], [1, 2]) = 9
    sr.apply(A, sr.unary.ainv, out=A, accum=sr.binary.plus)
    sr.select(A, sr.indexunary.rowle, 2, out=A)
    sr.ewise_add(A, A, sr.binary.times, out=A, mask=A.S)
    _ = A.T
    for a, b in zip((S.data, S.indices, S.indptr), before):
        np.testing.assert_array_equal(a, b)
    # A itself changed, by hand: assign adds (0, 2), (2, 1), (2, 2) and sets (0, 1) to 9;
    # A + (-A) makes every value 0; select(rowle, 2) drops row 3
    r, c, v = A.to_coo()
    assert list(zip(r.tolist(), c.tolist())) == [(0, 1), (0, 2), (0, 3), (1, 0), (1, 4), (2, 1), (2, 2)]
    assert v.tolist() == [0.0] * 7


def test_to_scipy_is_a_read_only_snapshot():
    A = sr.Matrix.from_coo([0, 1, 2], [1, 2, 0], [1.0, 0.0, 3.0], nrows=3, ncols=3)
    S = A.to_scipy()
    assert _shares(S, A.to_scipy()) == (True, True, True)  # two exports: views of the same arrays
    for a in (S.data, S.indices, S.indptr):
        assert not a.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        S.data[0] = 5.0
    with pytest.raises(ValueError, match="read-only"):
        S[0, 1] = 5.0  # a stored entry: scipy writes in place
    with pytest.raises(ValueError, match="read-only"):
        S.eliminate_zeros()
    assert A.get(0, 1) == 1.0 and A.nvals == 3
    sr.assign(A, 7.0, ([0], [1]))  # A(0, 1) = 7
    sr.apply(A, sr.unary.ainv, out=A)  # every value negated
    assert A.get(0, 1) == -7.0 and A.get(2, 0) == -3.0
    np.testing.assert_array_equal(S.toarray(), [[0.0, 1.0, 0.0], [0.0, 0.0, 0.0], [3.0, 0.0, 0.0]])
    W = S.copy()  # scipy's copy is writable
    W.data[:] = 2.0
    W2 = A.to_scipy(copy=True)
    W2.data[:] = 2.0
    assert A.get(0, 1) == -7.0


def test_changing_the_imported_arrays_changes_the_matrix_unless_copied():
    """The documented hazard of ``copy=False``, and ``copy=True`` as its remedy."""
    S = _csr(np.int64)
    shared, own = sr.Matrix.from_scipy(S), sr.Matrix.from_scipy(S, copy=True)
    S.data[0] = 42.0
    assert shared.get(0, 1) == 42.0
    assert own.get(0, 1) == 5.0


def test_read_only_exports_work_with_scipy():
    """csgraph and sparse products read the read-only int64 arrays (no in-place writes)."""
    rng = np.random.default_rng(0)
    r, c = np.nonzero(rng.random((40, 40)) < 0.1)
    w = rng.integers(1, 9, r.size).astype(np.float64)
    A = sr.Matrix.from_coo(r, c, w, nrows=40, ncols=40)
    S, ref = A.to_scipy(), sp.csr_array((w, (r, c)), shape=(40, 40))
    assert S.indices.dtype == np.int64 and not S.data.flags.writeable
    np.testing.assert_array_equal(csgraph.dijkstra(S, indices=0), csgraph.dijkstra(ref, indices=0))
    np.testing.assert_array_equal(csgraph.breadth_first_order(S, 0)[0], csgraph.breadth_first_order(ref, 0)[0])
    assert csgraph.connected_components(S)[0] == csgraph.connected_components(ref)[0]
    np.testing.assert_array_equal((S @ S).toarray(), (ref @ ref).toarray())
    np.testing.assert_array_equal(S.T.toarray(), ref.T.toarray())
    np.testing.assert_array_equal(S[[1, 5]].toarray(), ref[[1, 5]].toarray())


@pytest.mark.parametrize("shape", [(0, 0), (3, 0), (0, 4)])
def test_degenerate_shapes_share_nothing_odd(shape):
    S = sr.Matrix(*shape, dtype="int8").to_scipy()
    assert S.shape == shape and S.nnz == 0 and S.dtype == np.int8
    B = sr.Matrix.from_scipy(S)
    assert B.shape == shape and B.nvals == 0


# ---------------------------------------------------------------------------------------------
# errors
# ---------------------------------------------------------------------------------------------
def test_from_scipy_errors_say_what_was_expected():
    with pytest.raises(InvalidValue, match=r"expected a scipy.sparse array or matrix, or a cupyx.scipy.sparse "
                                           r"matrix; given ndarray"):
        sr.Matrix.from_scipy(np.eye(3))
    with pytest.raises(DomainMismatch, match=r"expected one of bool, .*; given complex128"):
        sr.Matrix.from_scipy(sp.csr_array(np.eye(2) * 1j))
    with pytest.raises(DomainMismatch, match=r"given float16"):
        sr.Matrix.from_scipy(sp.csr_array(np.eye(2, dtype=np.float32)), dtype="float16")
    if hasattr(sp, "coo_array"):
        try:
            V = sp.coo_array(np.array([0.0, 1.0]))  # 1-d sparse arrays (scipy >= 1.13)
        except (TypeError, ValueError):
            V = None
        if V is not None and len(V.shape) == 1:
            with pytest.raises(InvalidValue, match=r"expected a 2-d sparse array; given shape \(2,\)"):
                sr.Matrix.from_scipy(V)


@pytest.mark.parametrize("field,value,message", [
    ("indptr", np.array([0, 2, 1, 4, 6], np.int32), r"indptr to start at 0, not decrease"),
    ("indptr", np.array([1, 2, 4, 4, 6], np.int32), r"indptr\[0\] = 1"),
    ("indptr", np.array([0, 2, 4, 4, 9], np.int32), r"end at most at len\(indices\) = 6; given .* = 9"),
    ("indptr", np.array([0, 2, 4, 6], np.int32), r"indptr of length nrows \+ 1 = 5; given 4"),
    ("indices", np.array([1, 3, 0, 5, 2, 3], np.int32), r"column indices in \[0, 5\); given 5"),
    ("indices", np.array([1, 3, -1, 4, 2, 3], np.int32), r"column indices in \[0, 5\); given -1"),
    ("indices", np.array([1.0, 3, 0, 4, 2, 3]), r"expected a 1-d integer indices array; given float64"),
    ("data", np.array([1.0, 2.0]), r"expected data of the length of indices \(6\); given shape \(2,\)"),
])
def test_malformed_csr_is_refused(field, value, message):
    S = _csr(np.int32)
    setattr(S, field, value)
    with pytest.raises(InvalidValue, match=message):
        sr.Matrix.from_scipy(S)


# ---------------------------------------------------------------------------------------------
# dense input through DLPack (CPU), and what from_dense / to_dense share
# ---------------------------------------------------------------------------------------------
class _DLPackOnly:
    """An array that speaks only the DLPack protocol (as a PyTorch or JAX CPU array does)."""

    def __init__(self, arr, device=(1, 0)):
        self._arr, self._device = arr, device

    def __dlpack__(self, **kwargs):
        return self._arr.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self._device


def test_from_dense_reads_dlpack_objects():
    src = np.array([1.5, -1.0, 0.0, 4.0])
    u = sr.Vector.from_dense(_DLPackOnly(src), missing=-1.0)
    assert u.device == "cpu" and u.dtype == np.float64
    assert u.to_coo()[0].tolist() == [0, 2, 3] and u.to_coo()[1].tolist() == [1.5, 0.0, 4.0]
    D = np.array([[0, 3], [4, 0]], dtype=np.int16)
    A = sr.Matrix.from_dense(_DLPackOnly(D), missing=0)
    assert A.dtype == np.int16 and A.to_coo()[2].tolist() == [3, 4] and A.to_coo()[1].tolist() == [1, 0]


def test_from_dense_refuses_dlpack_on_other_devices():
    for kind in (4, 8, 10):  # OpenCL, Metal, ROCm
        with pytest.raises(InvalidValue, match=rf"expected an array on the CPU .* or a CUDA GPU .*; given one on "
                                               rf"DLPack device type {kind}"):
            sr.Vector.from_dense(_DLPackOnly(np.zeros(2), device=(kind, 0)))


def test_from_dense_and_to_dense_never_alias():
    """A vector's dense (bitmap) storage is updated in place by later operations, so both
    directions copy: neither the input nor an exported array follows the vector."""
    src = np.arange(5.0)
    u = sr.Vector.from_dense(src)
    src[:] = -1.0
    np.testing.assert_array_equal(u.to_dense(), np.arange(5.0))
    out = u.to_dense()
    sr.assign(u, 9.0, [1])  # u(1) = 9, in place in the bitmap
    np.testing.assert_array_equal(out, np.arange(5.0))
    out[:] = 0.0
    assert u.get(1) == 9.0 and u.get(2) == 2.0
    D = np.ones((2, 2))
    A = sr.Matrix.from_dense(D)
    D[:] = 0.0
    assert A.get(1, 1) == 1.0


def test_from_dense_without_a_gpu_refuses_gpu_arrays():
    from semiring.backends import gpu

    if gpu.available():
        pytest.skip("a GPU is present: tests/gpu/test_gpu_interop.py covers GPU arrays")

    class CudaOnly:
        __cuda_array_interface__ = {"shape": (3,), "typestr": "<f8", "data": (0, False), "version": 3}

    with pytest.raises(sr.BackendUnavailable, match="needs CuPy"):
        sr.Vector.from_dense(CudaOnly())
    with pytest.raises(sr.BackendUnavailable, match="needs CuPy"):
        sr.Vector.from_dense(_DLPackOnly(np.zeros(3), device=(2, 0)))


@pytest.mark.parametrize("obj", [
    sr.Matrix.from_scipy, sr.Matrix.to_scipy, sr.Vector.from_dense, sr.io.from_graphblas, sr.io.to_graphblas,
], ids=lambda f: f.__qualname__)
def test_docstring_examples(obj):
    import doctest

    if obj.__module__.endswith("_graphblas"):
        require("graphblas")  # python-graphblas: the test extra has it (fails under CI=true without it)
    tests = doctest.DocTestFinder().find(obj, obj.__qualname__, globs={})
    assert tests and tests[0].examples, f"{obj.__qualname__} has no examples"
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    for t in tests:
        runner.run(t)
    assert runner.summarize(verbose=False).failed == 0
