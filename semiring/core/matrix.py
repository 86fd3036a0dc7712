"""Matrix: a sparse ``nrows x ncols`` matrix stored in CSR (sorted columns, no duplicates),
with a cached transpose for pull-mode products (GraphBLAS ``GrB_Matrix``).

Every write (``_set_csr``, which all writes end in) gives the matrix a new content version,
``_version``. The derived forms (the row id of every entry, the full row pointers of a
hypersparse matrix, the transpose, and the algorithms' Graph with its degrees, symmetry and
per-algorithm data) are cached as ``(version, value)`` pairs and served only while the version
matches, so no write leaves one stale. They are built on first read and published with one
assignment; the costly ones (transpose, Graph) once, under the matrix's lock, so threads
reading one matrix share them (``semiring._once``).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from .. import dtypes as _dt
from .._once import new_version, versioned
from ..backends._xp import asnumpy, xp_of
from ..exceptions import DimensionMismatch, DomainMismatch, IndexOutOfBound, InvalidValue
from . import _rowptr
from . import _validate as _v
from .mask import Mask
from .vector import _build, _not_missing, check_dup_op

_MAX_KEYS = np.iinfo(np.int64).max
_IDEMPOTENT = ("lor", "land", "min", "max", "first", "second", "any")  # x op x == x


def _device_indices(xp, idx, n, what):
    """``_validate.index_array`` for a device array: a 1-d int64 array on the device, 0 <= idx < n."""
    arr = xp.asarray(idx)
    if arr.ndim != 1:
        raise InvalidValue(f"{what}: expected a 1-d array of indices; given shape {arr.shape}")
    if arr.shape[0] == 0:
        return xp.zeros(0, dtype=np.int64)
    if arr.dtype.kind == "f":
        if not bool(xp.all(xp.isfinite(arr))) or not bool(xp.all(arr == xp.floor(arr))):
            raise InvalidValue(f"{what}: expected integer indices; given non-integral {arr.dtype.name} values")
    elif arr.dtype.kind not in "iu":
        raise InvalidValue(f"{what}: expected integer indices; given dtype {arr.dtype}")
    if arr.dtype.kind == "u" and arr.dtype.itemsize == 8 and int(arr.max()) > np.iinfo(np.int64).max:
        raise IndexOutOfBound(f"{what}: index {int(arr.max())} is out of range for size {n}")
    arr = arr.astype(np.int64, copy=False)
    lo, hi = int(arr.min()), int(arr.max())
    if lo < 0 or hi >= n:
        raise IndexOutOfBound(f"{what}: expected indices in [0, {n}); given {lo if lo < 0 else hi}")
    return arr


class Matrix:
    """A GraphBLAS matrix in CSR form.

    ``A[i, j]`` present means an edge i -> j. Explicit zeros are entries.

    Row pointers are kept for the nonempty rows only when there are many rows and few of them
    hold entries (the hypersparse form of SuiteSparse:GraphBLAS; see ``format``), so an empty
    or nearly empty matrix costs memory in proportion to its entries, whatever its shape: an
    empty ``2**40 x 2**40`` matrix is a few bytes.

    Parameters
    ----------
    nrows, ncols : int
        Dimensions, 0 <= n < 2**63.
    dtype : dtype or str, default "float64"
        One of bool, int8-64, uint8-64, float32, float64.
    device : {"cpu", "gpu"}, default "cpu"
    backend : {"numpy", "suitesparse", "auto"}, optional
        The CPU backend that stores it (``backend`` attribute): None, the current choice
        (:func:`semiring.backends.cpu_backend`). On the GPU: None, "auto" or "cupy".

    Raises
    ------
    InvalidValue
        Bad dimensions, device or backend.
    DomainMismatch
        Unsupported dtype.
    BackendUnavailable
        ``backend="suitesparse"`` without python-graphblas (``pip install "semiring[suitesparse]"``).

    Examples
    --------
    >>> import semiring as sr
    >>> A = sr.Matrix.from_coo([0, 1], [1, 2], [1.0, 2.0], nrows=3, ncols=3)
    >>> A.nvals, A.T.to_coo()[0].tolist()
    (2, [1, 2])
    """

    def __new__(cls, nrows=None, ncols=None, dtype=None, *, device="cpu", backend=None):
        # the backend picks the class; an argument-less call (unpickling, copy) makes a bare object
        if cls is Matrix and nrows is not None:
            from ..backends._select import for_new

            _v.backend_name(backend, device)
            if for_new(backend, _v.device(device), (nrows, ncols)) == "suitesparse":
                from ..backends.suitesparse.containers import SSMatrix

                return object.__new__(SSMatrix)
        return object.__new__(cls)

    def __init__(self, nrows, ncols, dtype="float64", *, device="cpu", backend=None):
        self._nrows = _v.dimension(nrows, "Matrix nrows")
        self._ncols = _v.dimension(ncols, "Matrix ncols")
        self._dtype = _dt.lookup(dtype, "Matrix dtype")
        self._device = _v.device(device)
        self._readonly = False
        xp = _v.xp_for(self._device)
        self._set_csr(_rowptr.empty(xp, self._nrows), xp.zeros(0, np.int64), xp.zeros(0, self._dtype))

    # -- construction -------------------------------------------------------------------
    @classmethod
    def from_coo(cls, rows, cols, values=None, *, nrows, ncols, dtype=None, device="cpu", dup_op=None, backend=None):
        """Build from coordinate lists (``GrB_Matrix_build``).

        Parameters
        ----------
        rows, cols : array_like of int, shape (nvals,)
            Row and column of each entry, any order.
        values : array_like or scalar, optional
            One value per entry or one scalar for all; None gives bool True (a pattern).
        nrows, ncols : int
        dtype : dtype, optional
            Defaults to the values' dtype.
        device : {"cpu", "gpu"}
        dup_op : BinaryOp or Monoid, optional
            Combines values given for the same (row, col); None makes duplicates an error.
        backend : {"numpy", "suitesparse", "auto"}, optional
            The CPU backend (see :class:`Matrix`); None, the current choice.

        Raises
        ------
        IndexOutOfBound
            A row >= nrows or a column >= ncols (or negative).
        InvalidValue
            Duplicate entries without ``dup_op``; rows and cols of different lengths.
        DimensionMismatch
            ``values`` of the wrong length.
        DomainMismatch
            Unsupported dtype.
        BackendUnavailable
            ``device="gpu"`` without a usable GPU; ``backend="suitesparse"`` without python-graphblas.
        """
        check_dup_op(dup_op)
        _v.backend_name(backend, device)
        if xp_of(rows) is not np and xp_of(cols) is not np and _v.device(device) == "gpu":
            return _v.placed(cls._from_coo_on_device(rows, cols, values, nrows, ncols, dtype, dup_op), device, backend)
        out = cls(nrows, ncols, "bool", backend="numpy")
        r = _v.index_array(rows, out._nrows, "Matrix.from_coo rows")
        c = _v.index_array(cols, out._ncols, "Matrix.from_coo cols")
        if r.shape != c.shape:
            raise InvalidValue(f"Matrix.from_coo: rows and cols must have equal length; given {r.size} and {c.size}")
        vals = _v.values_array(values, r.shape[0], dtype, "Matrix.from_coo values")
        if out._huge():
            # row-major keys row * ncols + col would pass 2**63: build on the ranks of the given
            # rows and columns among the distinct ones (the same order), then map back
            from ._hyper import Axis

            ra, ca = Axis([r]), Axis([c])
            keys, vals = _build(ra.rank(r) * ca.size + ca.rank(c), vals, dup_op,
                                lambda key: f"(row {ra.ids[key // ca.size]}, col {ca.ids[key % ca.size]})")
            rows, cols = ra.ids[keys // ca.size], ca.ids[keys % ca.size]
            out._dtype = vals.dtype
            out._set_csr(_rowptr.from_rows(rows, out._nrows), cols, vals)
            return _v.placed(out, device, backend)
        ncols_ = out._ncols
        keys, vals = _build(r * ncols_ + c, vals, dup_op,
                            lambda key: f"(row {key // ncols_}, col {key % ncols_})")
        out._dtype = vals.dtype
        out._assign_keys(keys, vals)
        return _v.placed(out, device, backend)

    @classmethod
    def _from_coo_on_device(cls, rows, cols, values, nrows, ncols, dtype, dup_op):
        """``from_coo`` of CuPy coordinates onto the GPU: checked, sorted by the int64 key
        ``row * ncols + col`` and merged there, without a host copy of the entries.

        The same checks and messages as the host path; duplicates are combined in input order
        (CuPy's sorts are stable), so order-dependent operators see the entries as given."""
        from ..backends.array.reduce import reduce_runs
        from ..backends.array.sparse import group_starts
        from ..ops._base import BinaryOp, check_not_positional
        from ..ops.monoid import Monoid

        out = cls(nrows, ncols, "bool", backend="numpy")  # checks the dimensions
        nrows, ncols = out._nrows, out._ncols
        if out._huge():  # keys row * ncols + col would pass 2**63: the host path builds it
            host = None if values is None else asnumpy(values)
            return cls.from_coo(asnumpy(rows), asnumpy(cols), host, nrows=nrows, ncols=ncols, dtype=dtype,
                                device="gpu", dup_op=dup_op)
        xp = xp_of(rows)
        r = _device_indices(xp, rows, nrows, "Matrix.from_coo rows")
        c = _device_indices(xp, cols, ncols, "Matrix.from_coo cols")
        if r.shape != c.shape:
            raise InvalidValue(f"Matrix.from_coo: rows and cols must have equal length; given {r.size} and {c.size}")
        count = r.shape[0]
        what = "Matrix.from_coo values"
        if values is None:
            vals = xp.ones(count, dtype=_dt.BOOL if dtype is None else _dt.lookup(dtype, f"{what} dtype"))
        else:
            arr = xp.asarray(values)
            if arr.dtype.kind not in "biuf":
                raise DomainMismatch(f"{what}: expected bool, integer or float values; given dtype {arr.dtype}")
            if arr.ndim == 0:
                arr = xp.broadcast_to(arr, (count,)).copy()
            elif arr.ndim != 1 or arr.shape[0] != count:
                raise DimensionMismatch(f"{what}: expected {count} values (one per index); given shape {arr.shape}")
            d = _dt.lookup(arr.dtype if dtype is None else dtype, f"{what} dtype")
            vals = _dt.cast(arr, d, what)
            if vals is values:
                vals = vals.copy()  # the matrix must not share the caller's array
        keys = r * ncols + c
        del r, c
        uniform = count > 0 and bool((vals == vals[0]).all())
        if uniform:
            keys = xp.sort(keys)
        elif count:
            order = xp.argsort(keys, kind="stable") if xp is np else xp.argsort(keys)  # CuPy's is stable
            keys = keys[order]
        starts = group_starts(keys)
        if starts.shape[0] < count:
            if dup_op is None:
                dup = int(keys[int(xp.flatnonzero(keys[1:] == keys[:-1])[0])])
                raise InvalidValue(
                    f"duplicate entries at (row {dup // ncols}, col {dup % ncols}): expected unique positions, "
                    "or pass dup_op (e.g. dup_op=sr.binary.plus or sr.binary.min) to combine them"
                )
            op = dup_op.op if isinstance(dup_op, Monoid) else dup_op
            if not isinstance(op, BinaryOp):
                raise InvalidValue(f"dup_op: expected a BinaryOp or Monoid; given {dup_op!r}")
            check_not_positional(op, "dup_op")
            from ..ops import binary

            if uniform and any(op is getattr(binary, name) for name in _IDEMPOTENT):
                vals = vals[: starts.shape[0]].copy()  # x op x = x: nothing to combine
            else:
                vals = _dt.cast(reduce_runs(op, vals if uniform else vals[order], starts), vals.dtype,
                                "dup_op result", wrap_integers=True)
            keys = keys[starts]
        elif count and not uniform:
            vals = vals[order]
        del starts
        # CSR: row i starts at the first key >= i * ncols (no atomics); int32 indices while they
        # fit, as Matrix.to("gpu") stores them
        nvals = keys.shape[0]
        idx = np.int32 if max(nrows, ncols, nvals) < 2**31 else np.int64
        if nrows >= _rowptr.HYPER_MIN_ROWS:  # hypersparse if few rows are nonempty
            indptr = _rowptr.from_rows(keys // ncols if ncols else keys, nrows, idx)
        else:
            indptr = xp.searchsorted(keys, xp.arange(nrows + 1, dtype=np.int64) * ncols).astype(idx)
        indices = (keys % ncols if ncols else keys).astype(idx)
        return cls._from_csr(nrows, ncols, vals.dtype, indptr, indices, vals)

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
        copy = _v.flag(copy, f"{what} copy")
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
            idx = np.int32 if max(nrows, ncols, indices.shape[0]) < 2**31 else np.int64
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
            A NumPy or CuPy array, or any object with the DLPack protocol or
            ``__cuda_array_interface__`` (read without a copy), or anything ``numpy.asarray`` takes.
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
        present = _not_missing(arr, missing)
        r, c = xp.nonzero(present)
        indptr = xp.zeros(nrows + 1, dtype=np.int64)
        indptr[1:] = xp.cumsum(present.sum(axis=1))
        idx = np.int64 if xp is np or max(nrows, ncols, r.shape[0]) >= 2**31 else np.int32  # as Matrix.to("gpu")
        out = cls._from_csr(nrows, ncols, d, indptr.astype(idx, copy=False), c.astype(idx, copy=False), arr[r, c])
        return _v.placed(out, device, backend)

    @classmethod
    def _from_csr(cls, nrows, ncols, dtype, indptr, indices, values):
        """A matrix of trusted canonical CSR arrays; ``indptr`` full or hypersparse (``_rowptr``)."""
        out = object.__new__(cls)
        out._nrows, out._ncols, out._dtype = nrows, ncols, np.dtype(dtype)
        out._device = "cpu" if xp_of(indices) is np else "gpu"
        out._readonly = False
        out._set_csr(indptr, indices, values)
        return out

    # -- storage ------------------------------------------------------------------------
    def _set_csr(self, indptr, indices, values):
        """Replace the content (trusted canonical CSR of self.dtype; ``indptr`` full or
        hypersparse, see ``_rowptr``) and give it a new version; drops the cached forms.

        Every write of a matrix ends here. The version is set last, once the new content is in
        place: a cache tagged with an earlier version is never served again (``_once.versioned``),
        even one a concurrent reader publishes after this returns."""
        self._rowptr, self._indices, self._values = indptr, indices, values
        # derived forms, each None or (version, value): full row pointers, row ids, transpose,
        # the algorithms' Graph (semiring.algorithms.Graph: degrees, symmetry, per-algorithm data)
        self._full_indptr = self._rows = self._T = self._graph = None
        self._version = new_version()

    @property
    def _indptr(self):
        """The full ``nrows + 1`` row pointers: built from the hypersparse form on first use
        (OutOfMemory if they do not fit); code that can, reads ``_rowptr`` through ``_rowptr``."""
        rowptr = self._rowptr
        if not _rowptr.is_hyper(rowptr):
            return rowptr
        # the build reads the content after versioned() has read the version (never before)
        return versioned(self, "_full_indptr",
                         lambda: _rowptr.full(self._rowptr, self._nrows, repr(self), self._device), lock=False)

    def _row_ids(self):
        """Row index of every stored entry (cached per version: built, then published with one
        assignment)."""
        return versioned(self, "_rows", lambda: _rowptr.entry_rows(self._rowptr, self._nrows), lock=False)

    def _huge(self):
        """True when row-major keys ``row * ncols + col`` do not fit in int64."""
        return self._nrows * self._ncols > _MAX_KEYS

    def _keys(self):
        """(sorted row-major keys ``row * ncols + col``, values)."""
        if self._huge():
            raise InvalidValue(f"{self!r}: this operation addresses entries by row * ncols + col, which passes "
                               "2**63 for this shape; it is not available for matrices of 2**63 or more positions")
        return self._row_ids() * self._ncols + self._indices.astype(np.int64, copy=False), self._values

    def _contains(self, keys):
        from ..backends.array.sparse import member

        return member(self._keys()[0], keys)

    def _values_at(self, keys):
        from ..backends.array.sparse import member

        ck, cv = self._keys()
        hit = member(ck, keys)
        return hit, cv[xp_of(ck).searchsorted(ck, keys[hit])]

    def _apply_delta(self, positions, zk, zv):
        """Positions ``positions`` (sorted keys) take entries (zk, zv); others are unchanged."""
        from ..backends.array.sparse import member, merge_disjoint

        ck, cv = self._keys()
        keep = ~member(positions, ck)
        self._assign_keys(*merge_disjoint(ck[keep], cv[keep], zk, zv))

    @staticmethod
    def _csr_parts(keys, vals, nrows, ncols):
        """(row pointers, indices, values) of sorted row-major keys of an nrows x ncols matrix;
        the row pointers full or hypersparse (``_rowptr.from_rows``)."""
        rows, cols = (keys // ncols, keys % ncols) if ncols else (keys, keys)
        return _rowptr.from_rows(rows, nrows), cols.astype(np.int64, copy=False), vals

    def _assign_keys(self, keys, vals):
        """Replace the content from sorted unique row-major keys."""
        self._set_csr(*self._csr_parts(keys, vals, self._nrows, self._ncols))

    # -- properties ---------------------------------------------------------------------
    @property
    def nrows(self):
        return self._nrows

    @property
    def ncols(self):
        return self._ncols

    @property
    def shape(self):
        return (self._nrows, self._ncols)

    @property
    def size(self):
        """Number of positions, ``nrows * ncols``."""
        return self._nrows * self._ncols

    @property
    def nvals(self):
        """Number of stored entries (explicit zeros count)."""
        return int(self._indices.shape[0])

    @property
    def dtype(self):
        return self._dtype

    @property
    def format(self):
        """Storage format: ``"csr"`` (row pointers for every row) or ``"hypersparse"`` (row
        pointers for the nonempty rows only: many rows, few of them nonempty)."""
        return "hypersparse" if _rowptr.is_hyper(self._rowptr) else "csr"

    @property
    def device(self):
        return self._device

    @property
    def backend(self):
        """What stores it: ``"numpy"`` (NumPy/SciPy arrays on the CPU), ``"suitesparse"`` (a
        SuiteSparse:GraphBLAS object, :mod:`semiring.backends.suitesparse`) or ``"cupy"`` (the GPU)."""
        return "numpy" if self._device == "cpu" else "cupy"

    @property
    def S(self):
        """Structural mask."""
        return Mask(self, structural=True)

    @property
    def V(self):
        """Value mask."""
        return Mask(self, structural=False)

    @property
    def T(self):
        """The transpose, computed once and cached until A is next written.

        It is a read-only snapshot: writing into it raises InvalidValue (use
        ``sr.transpose(A)`` for a writable copy), and after A is written, ``A.T`` gives a new
        transpose while a previously taken one keeps the old content. Built once, under the
        matrix's lock, when several threads ask at the same time."""
        return versioned(self, "_T", self._transpose)

    def _transpose(self):
        """A new read-only Matrix holding the transpose (for ``T``)."""
        T = self._transposed()
        T._readonly = True
        return T

    def _transposed(self):
        """A new matrix holding the transpose (built by ``T``)."""
        ncols, nrows = self._ncols, self._nrows
        if self._device == "cpu" and not _rowptr.is_hyper(self._rowptr) and self.nvals * _rowptr.HYPER_RATIO >= ncols:
            # SciPy's compiled CSR -> CSC; its ncols + 1 column pointers are at most 16 per entry
            S = sp.csr_array((self._values, self._indices, self._rowptr), shape=self.shape).tocsc()
            return Matrix._from_csr(ncols, nrows, self._dtype, S.indptr.astype(np.int64),
                                    S.indices.astype(np.int64), np.asarray(S.data))
        # sort the entries by (column, row): the row-major order of the transpose
        xp = xp_of(self._indices)
        rows, cols = self._row_ids(), self._indices.astype(np.int64)
        if self._huge():
            order = xp.lexsort(xp.stack([rows, cols]))  # the last key is the primary one
        else:
            keys = cols * nrows + rows
            order = xp.argsort(keys)  # keys are distinct: any sort is stable enough
        idx = self._indices.dtype
        return Matrix._from_csr(ncols, nrows, self._dtype, _rowptr.from_rows(cols[order], ncols, idx),
                                rows[order].astype(idx), self._values[order])

    # -- export -------------------------------------------------------------------------
    def to_coo(self):
        """Return ``(rows, cols, values)`` in row-major order (copies)."""
        return self._row_ids().copy(), self._indices.astype(np.int64), self._values.copy()

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

        copy = _v.flag(copy, "Matrix.to_scipy copy")
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
        copy = _v.flag(copy, "Matrix.to_cupyx copy")
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

        what = "Matrix.to_dense"
        d = self._dtype if fill_value is None else _dt.fill_dtype(self._dtype, fill_value, f"{what} fill_value")
        if fill_value is None and self.nvals != self.size:
            raise InvalidValue(f"{what}: {self.size - self.nvals} of {self.size} positions are absent; give fill_value")
        require(self.size * d.itemsize, f"{what}: a dense {self._nrows} x {self._ncols} {d.name} array", self._device)
        if fill_value is None:
            out = xp_of(self._values).zeros(self.shape, dtype=d)
        else:
            out = xp_of(self._values).full(self.shape, fill_value, dtype=d)
        out[self._row_ids(), self._indices] = self._values
        return out

    def to(self, device, *, backend=None):
        """This matrix on ``device`` ("cpu", "gpu" or "auto") stored by ``backend``: itself if
        already so, else a copy.

        Parameters
        ----------
        device : {"cpu", "gpu", "auto"}
        backend : {"numpy", "suitesparse", "auto", "cupy"}, optional
            None keeps this matrix's backend when it stays on its device, and takes the current
            CPU choice (:func:`semiring.backends.cpu_backend`) when it comes to the CPU.

        Returns
        -------
        Matrix
            A copy shares nothing that either matrix writes (a matrix never writes its arrays
            in place, so a CPU copy may hold the same ones).

        Raises
        ------
        InvalidValue
            An unknown backend, or one that does not store on ``device``.
        BackendUnavailable
            "gpu" without a usable GPU; "suitesparse" without python-graphblas.
        """
        _v.backend_name(backend, device)
        device = _v.device(device)
        if backend is None and device == self._device:
            return self
        target = _v.backend_for(backend, device, self.shape)
        if target == self.backend:
            return self
        if device == self._device:  # the CPU, by the SuiteSparse backend
            from ..backends.suitesparse.containers import from_numpy

            return from_numpy(self)
        xp = _v.xp_for(device)
        if device == "gpu":
            # int32 indices while they fit (half the index traffic of the kernels), int64 beyond
            idx = np.int32 if max(self._nrows, self._ncols, self.nvals) < 2**31 else np.int64
            return Matrix._from_csr(self._nrows, self._ncols, self._dtype, _rowptr.astype(self._rowptr, idx, xp.asarray),
                                    xp.asarray(self._indices, dtype=idx), xp.asarray(self._values))
        out = Matrix._from_csr(self._nrows, self._ncols, self._dtype, _rowptr.astype(self._rowptr, np.int64, asnumpy),
                               asnumpy(self._indices).astype(np.int64), asnumpy(self._values))
        return _v.placed(out, device, target)

    def dup(self, dtype=None):
        """A writable copy, optionally cast to ``dtype``.

        Parameters
        ----------
        dtype : dtype, optional
            Default: this matrix's.

        Returns
        -------
        Matrix
            Same shape, entries and storage format, with its own arrays.

        Raises
        ------
        DomainMismatch
            ``dtype`` is not supported.
        InvalidValue
            A value the cast cannot keep (:func:`semiring.dtypes.cast`: NaN, infinities or
            out-of-range values into an integer type, ...).
        """
        d = self._dtype if dtype is None else _dt.lookup(dtype, "Matrix.dup dtype")
        vals = _dt.cast(self._values, d, "Matrix.dup values")
        return Matrix._from_csr(self._nrows, self._ncols, d, _rowptr.astype(self._rowptr, self._indices.dtype),
                                self._indices.copy(), vals.copy() if vals is self._values else vals)

    def get(self, row, col, default=None):
        """The value at (row, col), or ``default`` if absent.

        Raises
        ------
        InvalidValue
            ``row`` or ``col`` is not an int.
        IndexOutOfBound
            ``row`` or ``col`` is outside the matrix.
        """
        i = _v.index_scalar(row, self._nrows, "Matrix.get row")
        j = _v.index_scalar(col, self._ncols, "Matrix.get col")
        xp = xp_of(self._indices)
        starts, counts = _rowptr.ranges(self._rowptr, xp.asarray([i]))
        lo = int(starts[0])
        hi = lo + int(counts[0])
        cols = asnumpy(self._indices[lo:hi])
        pos = int(np.searchsorted(cols, j))
        return asnumpy(self._values[lo + pos:lo + pos + 1])[0] if pos < hi - lo and cols[pos] == j else default

    def isequal(self, other, *, check_dtype=False):
        """Same shape, same stored positions and equal values (NaN equals NaN)."""
        if not isinstance(other, Matrix):
            raise InvalidValue(f"isequal: expected a Matrix; given {type(other).__name__}")
        check_dtype = _v.flag(check_dtype, "isequal check_dtype")
        if self.shape != other.shape or (check_dtype and self._dtype != other._dtype):
            return False
        if self.nvals != other.nvals or not _rowptr.equal(self._rowptr, other._rowptr):
            return False
        a, b = (tuple(asnumpy(t) for t in (m._indices, m._values)) for m in (self, other))
        return np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1], equal_nan=a[1].dtype.kind == "f")

    def __repr__(self):
        return f"<Matrix {self._nrows}x{self._ncols} nvals={self.nvals} dtype={self._dtype.name} {self._device}>"

