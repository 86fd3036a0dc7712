"""The Matrix's conversions to and from other representations: SciPy and CuPy sparse matrices
(sharing their arrays where the layout allows) and dense arrays of any library.

:class:`Conversions` holds them as methods and ``Matrix`` inherits them, so they are
``Matrix.from_scipy``, ``A.to_scipy()`` and so on; they build through ``Matrix._from_csr`` and
``Matrix.from_coo`` and read the matrix's CSR arrays, never importing ``matrix`` itself.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from .. import _checks
from .. import dtypes as _dt
from ..backends._xp import asnumpy, xp_of
from ..exceptions import DomainMismatch, InvalidValue
from . import _construct
from . import _validate as _v


class Conversions:
    """The conversion methods of :class:`~semiring.Matrix`, which inherits them (a base class
    holding no state of its own)."""

    @classmethod
    def from_scipy(cls, S, *, dtype=None, device=None, dup_op=None, copy=False, backend=None):
        """Build from a scipy.sparse array or matrix, or a cupyx.scipy.sparse matrix, sharing its
        arrays where their layout is the one a Matrix stores.

        Stored (explicit) zeros stay entries.

        Parameters
        ----------
        S : scipy.sparse array or matrix (any format), or cupyx.scipy.sparse matrix, shape (nrows, ncols)
        dtype : dtype, optional
            Default ``S.dtype``, which must be one of bool, int8-64, uint8-64, float32, float64.
        device : {"cpu", "gpu", "auto"}, optional
            Default: where ``S`` lives ("cpu" for scipy, "gpu" for cupyx).
        dup_op : BinaryOp or Monoid, optional
            Combines the values of repeated (row, col) entries; None makes them an error.
        copy : bool, default False
            True always copies ``S``'s arrays.
        backend : {"numpy", "suitesparse", "auto"}, optional
            The CPU backend (see :class:`Matrix`); None, the current choice. Either keeps the
            no-copy rule below: a SuiteSparse matrix holds ``S``'s arrays as its NumPy form
            until an operation needs its SuiteSparse object.

        Returns
        -------
        Matrix

        Notes
        -----
        **No copy** is made of ``S.indptr``, ``S.indices`` and ``S.data`` when all of these hold:
        ``S`` is CSR; every row's column indices are sorted and unique (checked here, O(nnz));
        ``dtype`` is None or ``S.dtype``; ``device`` is where ``S`` lives; ``copy`` is False; and
        the index arrays have the dtype the Matrix stores on that device: on the CPU, ``indptr``
        and ``indices`` both int32 or both int64 (scipy's own choice is kept); on the GPU, int32
        while ``max(nrows, ncols, nvals) < 2**31``, int64 beyond (cupyx's choice). Otherwise only
        what does not fit is converted: a cast copies ``data`` alone, other index dtypes copy the
        indices, and other formats (CSC, COO, ...), unsorted or repeated indices go through
        COO and are sorted into new arrays.

        **Aliasing.** The Matrix never writes into the arrays it holds: every operation (the
        write step ``C<M, replace> = accum(C, T)`` included) gives it new arrays, so nothing
        done with the Matrix changes ``S``. The reverse is not guarded: changing ``S``'s arrays
        in place after this call changes the Matrix, and the cached transpose ``A.T`` does not
        follow. Pass ``copy=True`` when ``S`` will be edited in place afterwards.

        Raises
        ------
        InvalidValue
            ``S`` is not a scipy.sparse or cupyx.scipy.sparse object, or not 2-d; a malformed CSR
            structure (indptr not starting at 0, decreasing, or of the wrong length; a column
            index outside ``[0, ncols)``); repeated entries without ``dup_op``.
        DomainMismatch
            ``S.dtype`` (or ``dtype``) is not supported, e.g. complex.
        BackendUnavailable
            A cupyx input, or ``device="gpu"``, where CuPy cannot be loaded.

        Examples
        --------
        >>> import numpy as np, scipy.sparse as sp, semiring as sr
        >>> S = sp.csr_array(np.array([[0.0, 2.0], [3.0, 0.0]]))
        >>> A = sr.Matrix.from_scipy(S)
        >>> A.nvals, np.shares_memory(A.to_scipy().data, S.data)
        (2, True)
        """
        from ._interop import canonical_csr, sparse_kind

        what = "Matrix.from_scipy"
        copy = _checks.flag(copy, f"{what} copy")
        _v.backend_name(backend, device)
        kind = sparse_kind(S)
        if kind is None:
            raise InvalidValue(f"{what}: expected a scipy.sparse array or matrix, or a cupyx.scipy.sparse matrix; "
                               f"given {type(S).__name__}")
        if len(S.shape) != 2:
            raise InvalidValue(f"{what}: expected a 2-d sparse array; given shape {S.shape}")
        d = _dt.lookup(S.dtype if dtype is None else dtype, f"{what} dtype")
        device = ("gpu" if kind == "cupyx" else "cpu") if device is None else _v.device(device)
        parts = canonical_csr(S, what) if S.format == "csr" else None
        if parts is None:
            C = S.tocoo()
            return cls.from_coo(C.row, C.col, C.data, nrows=S.shape[0], ncols=S.shape[1], dtype=d, device=device,
                                dup_op=dup_op, backend=backend)
        indptr, indices, data = parts
        nrows, ncols = S.shape
        vals = _dt.cast(data, d, f"{what} values")
        if kind == "cupyx":
            idx = _construct.index_dtype(xp_of(indices), nrows, ncols, indices.shape[0])
        elif indptr.dtype == indices.dtype and indptr.dtype in (np.int32, np.int64):
            idx = indptr.dtype
        else:
            idx = np.int64
        if copy:
            indptr, indices = indptr.astype(idx), indices.astype(idx)
            vals = vals.copy() if vals is data else vals
        else:
            indptr, indices = indptr.astype(idx, copy=False), indices.astype(idx, copy=False)
        return _v.placed(cls._from_csr(nrows, ncols, d, indptr, indices, vals), device, backend)

    @classmethod
    def from_dense(cls, array, *, missing=None, dtype=None, device=None, backend=None):
        """Build from a 2-d array; every position is present except those equal to ``missing``.

        Parameters
        ----------
        array : array_like, shape (nrows, ncols)
            A NumPy or CuPy array, or any object with the DLPack protocol (``__dlpack__``:
            PyTorch, JAX, ...) or ``__cuda_array_interface__`` (read without a copy: CPU ones
            through ``numpy.from_dlpack``, GPU ones through ``cupy.from_dlpack`` or
            ``cupy.asarray``), or anything ``numpy.asarray`` takes.
        missing : scalar, optional
            Positions holding this value are absent (NaN matches NaN); None keeps every position.
        dtype : dtype, optional
            Default: the array's.
        device : {"cpu", "gpu", "auto"}, optional
            Default: where ``array`` lives. A GPU array stays on the GPU (no host round trip).
        backend : {"numpy", "suitesparse", "auto"}, optional
            The CPU backend (see :class:`Matrix`); None, the current choice.

        Returns
        -------
        Matrix
            Its own arrays (always a copy of the present values).

        Raises
        ------
        InvalidValue
            ``array`` is not 2-d, or is a DLPack object on another kind of device.
        DomainMismatch
            Unsupported dtype.
        BackendUnavailable
            A GPU array, or ``device="gpu"``, where CuPy cannot be loaded.
        """
        from ._interop import dense_input

        _v.backend_name(backend, device)
        _, arr, xp, device, d = dense_input(array, 2, dtype, device, "Matrix.from_dense")
        nrows, ncols = arr.shape
        present = _construct.not_missing(arr, missing)
        r, c = xp.nonzero(present)
        indptr = xp.zeros(nrows + 1, dtype=np.int64)
        indptr[1:] = xp.cumsum(present.sum(axis=1))
        idx = _construct.index_dtype(xp, nrows, ncols, r.shape[0])  # as Matrix.to("gpu")
        out = cls._from_csr(nrows, ncols, d, indptr.astype(idx, copy=False), c.astype(idx, copy=False), arr[r, c])
        return _v.placed(out, device, backend)

    def to_scipy(self, *, copy=False):
        """A scipy.sparse.csr_array with the same entries (explicit zeros kept), dtype and shape.

        Parameters
        ----------
        copy : bool, default False
            False: on the CPU the result shares this matrix's arrays, read-only. True: new,
            writable arrays.

        Returns
        -------
        scipy.sparse.csr_array, shape (nrows, ncols)
            Sorted, unique column indices (``has_canonical_format`` is True). ``indptr`` and
            ``indices`` have the dtype the matrix holds: on the CPU int64, or int32 for a
            matrix ``from_scipy`` built on int32 arrays; on the GPU int32 while
            ``max(nrows, ncols, nvals) < 2**31``.

        Notes
        -----
        With ``copy=False`` nothing is copied for a CPU matrix: ``data``, ``indices`` and
        ``indptr`` are read-only NumPy views of the matrix's own arrays, so writing into them
        (``S.data[:] = 0``, ``S[i, j] = x`` on a stored entry, ``S.eliminate_zeros()``) raises
        ``ValueError: assignment destination is read-only`` instead of silently changing the
        matrix; take ``S.copy()`` or ``to_scipy(copy=True)`` to edit. Every other SciPy use
        (products, ``csgraph``, slicing, conversions) reads them as usual. The result is a
        snapshot: the matrix never writes into its arrays in place (every operation, the write
        step included, gives it new ones), so later operations on the matrix leave ``S`` as it
        was. A GPU matrix is copied to the host (read-only as well unless ``copy=True``, so that
        code behaves the same on both devices).

        Examples
        --------
        >>> import semiring as sr
        >>> A = sr.Matrix.from_coo([0, 1], [1, 0], [2.0, 0.0], nrows=2, ncols=2)
        >>> S = A.to_scipy()
        >>> S.toarray().tolist(), S.nnz, S.data.flags.writeable
        ([[0.0, 2.0], [0.0, 0.0]], 2, False)
        """
        from ._interop import readonly

        copy = _checks.flag(copy, "Matrix.to_scipy copy")
        parts = (self._indptr, self._indices, self._values)
        if self._device != "cpu":
            parts = tuple(asnumpy(a) for a in parts)
        elif copy:
            parts = tuple(a.copy() for a in parts)
        if not copy:
            parts = tuple(readonly(a) for a in parts)
        # set the arrays on an empty csr_array: its constructor would copy int64 indices whose
        # values fit in int32 into new int32 arrays
        S = sp.csr_array(self.shape, dtype=self._dtype)
        S.indptr, S.indices, S.data = parts
        S.has_canonical_format = True
        return S

    def to_cupyx(self, *, dtype=None, copy=True):
        """A cupyx.scipy.sparse.csr_matrix on the GPU with the same entries (explicit zeros kept).

        Parameters
        ----------
        dtype : dtype, optional
            Value dtype of the result; default this matrix's. cupyx.scipy.sparse holds bool,
            float32 and float64 values only, so an integer matrix needs e.g. ``dtype="float64"``
            (a cast: every integer of magnitude up to 2**53 is exact in float64).
        copy : bool, default True
            True: the result has its own arrays. False: for a matrix on the GPU with ``dtype``
            None, the result shares this matrix's arrays (no copy, no transfer).

        Returns
        -------
        cupyx.scipy.sparse.csr_matrix, shape (nrows, ncols)

        Notes
        -----
        The default copies (a device-to-device copy for a GPU matrix, a host-to-device one for a
        CPU matrix), because CuPy arrays cannot be made read-only: with ``copy=False`` the
        result aliases the matrix, writing into its ``data``, ``indices`` or ``indptr`` in
        place changes the matrix (and leaves its cached ``A.T`` stale), and only reads are
        safe. As with ``to_scipy``, later operations on the matrix never change the result.
        ``Matrix.from_scipy`` takes the result (or any cupyx matrix) back, without a copy.

        Raises
        ------
        DomainMismatch
            The value dtype is not bool, float32 or float64.
        InvalidValue
            The matrix needs int64 indices (``max(nrows, ncols, nvals) >= 2**31``) and the installed
            CuPy stores cupyx.scipy.sparse indices as int32 only (CuPy before 14.1).
        BackendUnavailable
            CuPy cannot be loaded, or finds no GPU.
        """
        copy = _checks.flag(copy, "Matrix.to_cupyx copy")
        xp = _v.xp_for(_v.device("gpu"))
        import cupyx.scipy.sparse as cxs

        d = self._dtype if dtype is None else _dt.lookup(dtype, "Matrix.to_cupyx dtype")
        if d not in (np.dtype(np.bool_), np.dtype(np.float32), np.dtype(np.float64)):
            raise DomainMismatch(f"Matrix.to_cupyx: cupyx.scipy.sparse holds bool, float32 or float64 values; given "
                                 f"{d.name} (pass dtype='float64' to cast)")
        A = self.to("gpu")
        vals = _dt.cast(A._values, d, "Matrix.to_cupyx values")
        indptr, indices = A._indptr, A._indices
        if copy and A is self:
            indptr, indices = indptr.copy(), indices.copy()
            vals = vals.copy() if vals is A._values else vals
        if indices.dtype != np.int32:
            probe = cxs.csr_matrix((xp.zeros(0, d), xp.zeros(0, np.int64), xp.zeros(2, np.int64)), shape=(1, 2**31))
            if probe.indices.dtype != np.int64:
                raise InvalidValue(f"Matrix.to_cupyx: this matrix needs int64 indices (max(nrows, ncols, nvals) = "
                                   f"{max(self._nrows, self._ncols, self.nvals)} >= 2**31), and this CuPy's "
                                   "cupyx.scipy.sparse stores int32 indices only (int64 needs CuPy 14.1 or later)")
        return cxs.csr_matrix((vals, indices, indptr), shape=self.shape, copy=False)

    def to_dense(self, fill_value=None):
        """Dense 2-d array; absent positions take ``fill_value``.

        Parameters
        ----------
        fill_value : bool or number, optional
            The value of absent positions; None requires every position to be present.

        Returns
        -------
        numpy.ndarray on the CPU, cupy.ndarray on the GPU, shape (nrows, ncols)
            Of dtype ``numpy.result_type(dtype, fill_value)``.

        Raises
        ------
        InvalidValue
            Some position is absent and ``fill_value`` is None; an integer ``fill_value``
            outside the result type.
        DomainMismatch
            ``fill_value`` is not a bool or number.
        OutOfMemory
            The dense array would not fit in the memory free now.
        """
        from .._memory import require

        d = _v.dense_dtype(self, fill_value, "Matrix.to_dense")
        require(self.size * d.itemsize, f"Matrix.to_dense: a dense {self._nrows} x {self._ncols} {d.name} array",
                self._device)
        if fill_value is None:
            out = xp_of(self._values).zeros(self.shape, dtype=d)
        else:
            out = xp_of(self._values).full(self.shape, fill_value, dtype=d)
        out[self._row_ids(), self._indices] = self._values
        return out
