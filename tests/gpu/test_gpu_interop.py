"""GPU interop: cupyx.scipy.sparse in and out of ``Matrix`` without a copy where the layout
allows, and dense GPU arrays through DLPack and ``__cuda_array_interface__``.

Marked ``gpu``: skipped with CuPy's reason where no GPU is present; run with ``pytest -m gpu``.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

import semiring as sr
from semiring import DomainMismatch, InvalidValue
from semiring.backends._xp import asnumpy

pytestmark = pytest.mark.gpu


@pytest.fixture
def cp():
    from semiring.backends import gpu

    return gpu.load()


@pytest.fixture
def cxs(cp):
    import cupyx.scipy.sparse

    return cupyx.scipy.sparse


def _host_csr():
    """4x5, float64, canonical, an explicit zero at (0, 3) and an empty row 2."""
    return sp.csr_matrix((np.array([5.0, 0.0, 7.0, 1.0, 2.0, 8.0]), np.array([1, 3, 0, 4, 2, 3], np.int32),
                          np.array([0, 2, 4, 4, 6], np.int32)), shape=(4, 5))


def _shares(cp, S, T):
    return tuple(bool(cp.shares_memory(getattr(S, a), getattr(T, a))) for a in ("data", "indices", "indptr"))


def _entries(A):
    return [asnumpy(t).tolist() for t in A.to_coo()]


def test_from_cupyx_stays_on_the_gpu_without_a_copy(cp, cxs):
    H = _host_csr()
    S = cxs.csr_matrix(H)  # host -> device by cupyx
    A = sr.Matrix.from_scipy(S)
    assert A.device == "gpu" and A.dtype == np.float64 and A.nvals == 6
    assert _entries(A) == _entries(sr.Matrix.from_scipy(H))
    T = A.to_cupyx(copy=False)
    assert _shares(cp, S, T) == (True, True, True)  # S -> A -> T: the same device arrays
    np.testing.assert_array_equal(T.get().toarray(), H.toarray())


def test_to_cupyx_copies_by_default(cp, cxs):
    A = sr.Matrix.from_scipy(_host_csr(), device="gpu")
    T = A.to_cupyx()
    assert isinstance(T, cxs.csr_matrix) and T.shape == (4, 5) and T.nnz == 6
    assert _shares(cp, A.to_cupyx(copy=False), T) == (False, False, False)
    np.testing.assert_array_equal(T.get().toarray(), _host_csr().toarray())
    T.data[:] = -1.0  # its own arrays: the matrix is unchanged
    assert A.get(0, 1) == 5.0


def test_to_cupyx_of_a_cpu_matrix_and_the_value_dtypes(cp, cxs):
    A = sr.Matrix.from_coo([0, 1, 2], [1, 0, 2], [3, 0, 250], nrows=3, ncols=3)  # int64
    with pytest.raises(DomainMismatch, match=r"holds bool, float32 or float64 values; given int64 "
                                             r"\(pass dtype='float64' to cast\)"):
        A.to_cupyx()
    T = A.to_cupyx(dtype="float64")
    assert T.dtype == np.float64 and T.nnz == 3  # the explicit zero stays
    np.testing.assert_array_equal(T.get().toarray(), [[0, 3, 0], [0, 0, 0], [0, 0, 250]])
    B = sr.Matrix.from_coo([0, 1], [1, 1], nrows=2, ncols=2)  # bool pattern
    assert B.to_cupyx().dtype == np.bool_
    assert sr.Matrix.from_scipy(B.to_cupyx()).isequal(B.to("gpu"), check_dtype=True)


def test_cupyx_to_the_cpu_and_scipy_to_the_gpu(cxs):
    H = _host_csr()
    A = sr.Matrix.from_scipy(cxs.csr_matrix(H), device="cpu")
    assert A.device == "cpu" and A.isequal(sr.Matrix.from_scipy(H), check_dtype=True)
    G = sr.Matrix.from_scipy(H, device="gpu")
    assert G.device == "gpu" and _entries(G) == _entries(A)
    S = G.to_scipy()  # host copy, read-only like a CPU export
    assert isinstance(S, sp.csr_array) and not S.data.flags.writeable
    np.testing.assert_array_equal(S.toarray(), H.toarray())


def test_non_canonical_cupyx_goes_through_coo(cp, cxs):
    # row 0 lists column 1 twice (values 1 and 2); row 1 lists 2 then 0
    S = cxs.csr_matrix((cp.asarray([1.0, 2.0, 3.0, 4.0]), cp.asarray([1, 1, 2, 0], dtype=np.int32),
                        cp.asarray([0, 2, 4], dtype=np.int32)), shape=(2, 3))
    with pytest.raises(InvalidValue, match=r"duplicate entries at \(row 0, col 1\)"):
        sr.Matrix.from_scipy(S)
    A = sr.Matrix.from_scipy(S, dup_op=sr.binary.plus)
    assert A.device == "gpu"
    assert _entries(A) == [[0, 1, 1], [1, 0, 2], [3.0, 4.0, 3.0]]
    B = sr.Matrix.from_scipy(S.tocoo(), dup_op=sr.binary.plus)  # COO keeps the repeated entries
    assert B.device == "gpu" and _entries(B) == _entries(A)


def test_products_on_an_imported_cupyx_matrix_match_the_cpu(cp, cxs):
    rng = np.random.default_rng(3)
    r, c = np.nonzero(rng.random((60, 60)) < 0.08)
    H = sp.csr_matrix((rng.integers(0, 9, r.size).astype(np.float64), (r, c)), shape=(60, 60))
    A_gpu, A_cpu = sr.Matrix.from_scipy(cxs.csr_matrix(H)), sr.Matrix.from_scipy(H)
    u_cpu = sr.Vector.from_coo([0, 7, 30], [0.0, 1.0, 2.0], size=60)
    for semiring in (sr.semirings.min_plus, sr.semirings.any_pair, sr.semirings.max_second):
        w_gpu = sr.vxm(u_cpu.to("gpu"), A_gpu, semiring)
        w_cpu = sr.vxm(u_cpu, A_cpu, semiring)
        assert w_gpu.device == "gpu" and w_gpu.to("cpu").isequal(w_cpu, check_dtype=True)


# ---------------------------------------------------------------------------------------------
# dense GPU arrays: CuPy, DLPack, __cuda_array_interface__
# ---------------------------------------------------------------------------------------------
class _CudaArrayInterfaceOnly:
    """A GPU array that speaks only the CUDA array interface (as a Numba device array does)."""

    def __init__(self, arr):
        self._arr = arr

    @property
    def __cuda_array_interface__(self):
        return self._arr.__cuda_array_interface__


class _DLPackOnly:
    """A GPU array that speaks only DLPack (as a PyTorch CUDA tensor would, without CAI)."""

    def __init__(self, arr):
        self._arr = arr

    def __dlpack__(self, **kwargs):
        return self._arr.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self._arr.__dlpack_device__()


@pytest.mark.parametrize("wrap", [lambda a: a, _CudaArrayInterfaceOnly, _DLPackOnly],
                         ids=["cupy", "cuda_array_interface", "dlpack"])
def test_vector_from_gpu_arrays_stays_on_the_gpu(cp, wrap):
    src = cp.asarray([1.5, -1.0, 0.0, 4.0])
    u = sr.Vector.from_dense(wrap(src), missing=-1.0)
    assert u.device == "gpu" and u.dtype == np.float64
    assert [asnumpy(t).tolist() for t in u.to_coo()] == [[0, 2, 3], [1.5, 0.0, 4.0]]
    src[0] = 9.0  # the vector holds its own copy
    assert u.get(0) == 1.5
    h = sr.Vector.from_dense(wrap(src), device="cpu")
    assert h.device == "cpu" and h.to_coo()[1].tolist() == [9.0, -1.0, 0.0, 4.0]


@pytest.mark.parametrize("wrap", [lambda a: a, _CudaArrayInterfaceOnly, _DLPackOnly],
                         ids=["cupy", "cuda_array_interface", "dlpack"])
def test_matrix_from_gpu_arrays_stays_on_the_gpu(cp, wrap):
    D = cp.asarray([[0, 3, 0], [4, 0, 0]], dtype=np.int16)
    A = sr.Matrix.from_dense(wrap(D), missing=0)
    assert A.device == "gpu" and A.dtype == np.int16
    assert _entries(A) == [[0, 1], [1, 0], [3, 4]]
    assert A.isequal(sr.Matrix.from_dense(asnumpy(D), missing=0).to("gpu"), check_dtype=True)


def test_to_dense_on_the_gpu_speaks_both_protocols(cp):
    u = sr.Vector.from_coo([1, 3], [2.0, 0.0], size=5, device="gpu")
    d = u.to_dense(-1.0)
    assert type(d).__module__.startswith("cupy")
    assert d.__cuda_array_interface__["shape"] == (5,)
    assert d.__dlpack_device__()[0] == 2  # kDLCUDA
    back = cp.from_dlpack(d)
    np.testing.assert_array_equal(asnumpy(back), [-1.0, 2.0, -1.0, 0.0, -1.0])
    assert sr.Vector.from_dense(d, missing=-1.0).isequal(u, check_dtype=True)
