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

from .. import _checks
from .. import dtypes as _dt
from .._once import new_version, versioned
from ..backends._xp import asnumpy, xp_of
from ..exceptions import InvalidValue
from . import _construct, _rowptr
from . import _validate as _v
from ._matrix_convert import Conversions
from .mask import Mask

_MAX_KEYS = np.iinfo(np.int64).max


class Matrix(Conversions):
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
        self._nrows = _checks.dimension(nrows, "Matrix nrows")
        self._ncols = _checks.dimension(ncols, "Matrix ncols")
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
        _v.backend_name(backend, device)
        (nrows, ncols), d, parts = _construct.from_coo((rows, cols), values, (nrows, ncols), dtype=dtype, device=device,
                                                       dup_op=dup_op, what="Matrix.from_coo")
        return _v.placed(cls._from_csr(nrows, ncols, d, *parts), device, backend)

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

    def _assign_keys(self, keys, vals):
        """Replace the content from sorted unique row-major keys."""
        self._set_csr(*_construct.csr_parts(keys, vals, self._nrows, self._ncols))

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
        def copy(dev, xp):
            if dev == "gpu":
                # int32 indices while they fit (half the index traffic of the kernels), int64 beyond
                idx = _construct.index_dtype(xp, self._nrows, self._ncols, self.nvals)
                return Matrix._from_csr(self._nrows, self._ncols, self._dtype,
                                        _rowptr.astype(self._rowptr, idx, xp.asarray),
                                        xp.asarray(self._indices, dtype=idx), xp.asarray(self._values))
            return Matrix._from_csr(self._nrows, self._ncols, self._dtype,
                                    _rowptr.astype(self._rowptr, np.int64, asnumpy),
                                    asnumpy(self._indices).astype(np.int64), asnumpy(self._values))

        return _v.moved(self, device, backend, copy)

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
        i = _checks.index(row, self._nrows, "Matrix.get row")
        j = _checks.index(col, self._ncols, "Matrix.get col")
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
        check_dtype = _checks.flag(check_dtype, "isequal check_dtype")
        if self.shape != other.shape or (check_dtype and self._dtype != other._dtype):
            return False
        if self.nvals != other.nvals or not _rowptr.equal(self._rowptr, other._rowptr):
            return False
        a, b = (tuple(asnumpy(t) for t in (m._indices, m._values)) for m in (self, other))
        return np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1], equal_nan=a[1].dtype.kind == "f")

    def __repr__(self):
        return f"<Matrix {self._nrows}x{self._ncols} nvals={self.nvals} dtype={self._dtype.name} {self._device}>"

