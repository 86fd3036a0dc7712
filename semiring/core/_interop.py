"""Arrays and sparse matrices of other libraries in, without a copy where their layout allows.

- ``as_array``: a NumPy or CuPy array from any array a caller may hand over: NumPy and CuPy
  arrays as they are, objects with the DLPack protocol (``__dlpack__``, ``__dlpack_device__``:
  PyTorch, JAX, ...) and objects with ``__cuda_array_interface__`` (Numba, PyTorch, ...) as
  zero-copy views, anything else through ``numpy.asarray``.
- ``host_array``: a NumPy array of anything ``numpy.asarray`` takes, or a host copy of a CuPy one.
- ``sparse_kind``: whether an object is a scipy.sparse or a cupyx.scipy.sparse matrix.
- ``canonical_csr``: the (indptr, indices, values) arrays of a CSR matrix that is already in the
  form a Matrix stores (sorted column indices, no duplicates), as views; None when it is not.
- ``readonly``: a read-only NumPy view, for arrays handed out without a copy.

References
----------
DLPack: https://dmlc.github.io/dlpack/latest/ (Python specification of ``__dlpack__``).
CUDA Array Interface (version 3): https://numba.readthedocs.io/en/stable/cuda/cuda_array_interface.html
"""

from __future__ import annotations

import sys

import numpy as np

from ..backends._xp import asnumpy, xp_of
from ..exceptions import InvalidValue

#: DLPack device types (``DLDeviceType`` in dlpack.h) read on the host or a CUDA GPU.
DLPACK_CPU, DLPACK_CUDA, DLPACK_CUDA_HOST, DLPACK_CUDA_MANAGED = 1, 2, 3, 13


def _cupy():
    from ..backends import gpu

    return gpu.load()  # BackendUnavailable with CuPy's reason when there is no GPU


def as_array(obj, what):
    """A NumPy or CuPy array holding ``obj``'s elements, sharing its memory where it can.

    Parameters
    ----------
    obj : array_like
        A NumPy or CuPy array (returned as it is); an object with ``__dlpack__`` and
        ``__dlpack_device__`` on the CPU (read with ``numpy.from_dlpack``) or on a CUDA GPU
        (``cupy.from_dlpack``); an object with ``__cuda_array_interface__`` (``cupy.asarray``);
        or anything ``numpy.asarray`` takes (lists, scalars, ``__array__`` objects).
    what : str
        The caller's name, for messages.

    Raises
    ------
    InvalidValue
        A DLPack object on a device other than the CPU or a CUDA GPU; an object NumPy cannot
        make one array of (a ragged nested list).
    BackendUnavailable
        A GPU array given where CuPy cannot be loaded.
    """
    if isinstance(obj, np.ndarray) or xp_of(obj) is not np:
        return obj
    dev = getattr(obj, "__dlpack_device__", None)
    if dev is not None and hasattr(obj, "__dlpack__"):
        kind = int(dev()[0])
        if kind == DLPACK_CPU:
            return np.from_dlpack(obj)
        if kind in (DLPACK_CUDA, DLPACK_CUDA_MANAGED):
            return _cupy().from_dlpack(obj)
        raise InvalidValue(f"{what}: expected an array on the CPU (DLPack device type {DLPACK_CPU}) or a CUDA GPU "
                           f"({DLPACK_CUDA} or {DLPACK_CUDA_MANAGED}); given one on DLPack device type {kind}")
    if hasattr(obj, "__cuda_array_interface__"):
        return _cupy().asarray(obj)
    return host_array(obj, what)


def host_array(x, what):
    """A NumPy array of ``x``: a CuPy array copied to the host, anything else through
    ``numpy.asarray``; InvalidValue when NumPy cannot make one array of it (ragged nested
    lists, objects that fail to convert)."""
    if xp_of(x) is not np:
        return asnumpy(x)
    try:
        return np.asarray(x)
    except (ValueError, TypeError, OverflowError) as exc:
        raise InvalidValue(f"{what}: expected an array (a rectangular nested list of numbers); given "
                           f"{type(x).__name__} that NumPy cannot convert: {exc}") from exc


def dense_input(array, ndim, dtype, device, what):
    """``(source array, array cast to the dtype, xp, device, dtype)`` for ``from_dense``: any
    array object (see :func:`as_array`) of ``ndim`` dimensions; ``device`` None means where
    the array lives."""
    from .. import dtypes as _dt
    from . import _validate as _v

    src = as_array(array, what)
    if src.ndim != ndim:
        raise InvalidValue(f"{what}: expected a {ndim}-d array; given shape {src.shape}")
    xp = xp_of(src)
    device = ("cpu" if xp is np else "gpu") if device is None else _v.device(device)
    d = _dt.lookup(src.dtype if dtype is None else dtype, f"{what} dtype")
    return src, _dt.cast(src, d, f"{what} values"), xp, device, d


def sparse_kind(S):
    """``"scipy"`` for a scipy.sparse array or matrix, ``"cupyx"`` for a cupyx.scipy.sparse
    matrix, None for anything else (cupyx is only consulted if it is already imported: an
    object of it cannot exist otherwise)."""
    import scipy.sparse as sp

    if sp.issparse(S):
        return "scipy"
    cx = sys.modules.get("cupyx.scipy.sparse")
    if cx is not None and cx.issparse(S):
        return "cupyx"
    return None


def canonical_csr(S, what):
    """``(indptr, indices, values)`` of a CSR matrix ``S`` (scipy or cupyx) in canonical form, as
    views of its arrays (sliced to ``indptr[-1]`` entries); None if some row has unsorted or
    repeated column indices.

    Checked in O(nnz) without trusting ``S.has_canonical_format``, which is a cached flag that
    in-place edits of ``S.indices`` do not reset.

    Raises
    ------
    InvalidValue
        A malformed CSR structure: ``indptr`` of the wrong length, not starting at 0, decreasing,
        or past the end of ``indices``; ``indices`` and ``data`` of different lengths; non-integer
        index arrays; a column index outside ``[0, ncols)``.
    """
    nrows, ncols = S.shape
    indptr, indices, data = S.indptr, S.indices, S.data
    for name, a in (("indptr", indptr), ("indices", indices)):
        if a.ndim != 1 or a.dtype.kind not in "iu":
            raise InvalidValue(f"{what}: expected a 1-d integer {name} array; given {a.dtype} of shape {a.shape}")
    if indptr.shape[0] != nrows + 1:
        raise InvalidValue(f"{what}: expected indptr of length nrows + 1 = {nrows + 1}; given {indptr.shape[0]}")
    if data.ndim != 1 or data.shape[0] != indices.shape[0]:
        raise InvalidValue(f"{what}: expected data of the length of indices ({indices.shape[0]}); "
                           f"given shape {data.shape}")
    first, nnz = int(indptr[0]), int(indptr[-1])
    if first != 0 or nnz > indices.shape[0] or (nrows and bool((indptr[1:] < indptr[:-1]).any())):
        raise InvalidValue(f"{what}: expected indptr to start at 0, not decrease and end at most at len(indices) = "
                           f"{indices.shape[0]}; given indptr[0] = {first}, indptr[-1] = {nnz}")
    indices, data = indices[:nnz], data[:nnz]
    if nnz:
        lo, hi = int(indices.min()), int(indices.max())
        if lo < 0 or hi >= ncols:
            raise InvalidValue(f"{what}: expected column indices in [0, {ncols}); given {lo if lo < 0 else hi}")
    if nnz > 1:
        rising = indices[1:] > indices[:-1]  # pair (p - 1, p) of one row: strictly increasing
        starts = indptr[1:-1]
        starts = starts[(starts > 0) & (starts < nnz)]
        rising[starts - 1] = True  # pairs across a row boundary are not compared
        if not bool(rising.all()):
            return None
    return indptr, indices, data


def readonly(a):
    """A read-only view of a NumPy array (the array itself stays as it is)."""
    v = a.view()
    v.flags.writeable = False
    return v


__all__ = ["as_array", "host_array", "sparse_kind", "canonical_csr", "readonly"]
