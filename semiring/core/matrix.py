"""Matrix: a sparse ``nrows x ncols`` matrix stored in CSR (sorted columns, no duplicates),
with a cached transpose for pull-mode products (GraphBLAS ``GrB_Matrix``)."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from .. import dtypes as _dt
from ..backends._xp import asnumpy, repeat, xp_of
from ..exceptions import DimensionMismatch, DomainMismatch, IndexOutOfBound, InvalidValue
from . import _validate as _v
from .mask import Mask
from .vector import _build, _not_missing

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

    Parameters
    ----------
    nrows, ncols : int
        Dimensions (>= 0; ``nrows * ncols`` must fit in int64).
    dtype : dtype or str, default "float64"
        One of bool, int8-64, uint8-64, float32, float64.
    device : {"cpu", "gpu"}, default "cpu"

    Raises
    ------
    InvalidValue
        Bad dimensions or device.
    DomainMismatch
        Unsupported dtype.

    Examples
    --------
    >>> import semiring as sr
    >>> A = sr.Matrix.from_coo([0, 1], [1, 2], [1.0, 2.0], nrows=3, ncols=3)
    >>> A.nvals, A.T.to_coo()[0].tolist()
    (2, [1, 2])
    """

    def __init__(self, nrows, ncols, dtype="float64", *, device="cpu"):
        self._nrows = _v.dimension(nrows, "Matrix nrows")
        self._ncols = _v.dimension(ncols, "Matrix ncols")
        if self._nrows * self._ncols > _MAX_KEYS:
            raise InvalidValue(f"Matrix: nrows * ncols must be below 2**63; given {nrows} x {ncols}")
        self._dtype = _dt.lookup(dtype, "Matrix dtype")
        self._device = _v.device(device)
        self._readonly = False
        xp = _v.xp_for(self._device)
        self._set_csr(xp.zeros(self._nrows + 1, np.int64), xp.zeros(0, np.int64), xp.zeros(0, self._dtype))

    # -- construction -------------------------------------------------------------------
    @classmethod
    def from_coo(cls, rows, cols, values=None, *, nrows, ncols, dtype=None, device="cpu", dup_op=None):
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
        """
        if xp_of(rows) is not np and xp_of(cols) is not np and _v.device(device) == "gpu":
            return cls._from_coo_on_device(rows, cols, values, nrows, ncols, dtype, dup_op)
        out = cls(nrows, ncols, "bool")
        r = _v.index_array(rows, out._nrows, "Matrix.from_coo rows")
        c = _v.index_array(cols, out._ncols, "Matrix.from_coo cols")
        if r.shape != c.shape:
            raise InvalidValue(f"Matrix.from_coo: rows and cols must have equal length; given {r.size} and {c.size}")
        vals = _v.values_array(values, r.shape[0], dtype, "Matrix.from_coo values")
        ncols_ = out._ncols
        keys, vals = _build(r * ncols_ + c, vals, dup_op,
                            lambda key: f"(row {key // ncols_}, col {key % ncols_})")
        out._dtype = vals.dtype
        out._assign_keys(keys, vals)
        return out.to(device)

    @classmethod
    def _from_coo_on_device(cls, rows, cols, values, nrows, ncols, dtype, dup_op):
        """``from_coo`` of CuPy coordinates onto the GPU: checked, sorted by the int64 key
        ``row * ncols + col`` and merged there, without a host copy of the entries.

        The same checks and messages as the host path; duplicates are combined in input order
        (CuPy's sorts are stable), so order-dependent operators see the entries as given."""
        from ..backends.cpu.sparse import group_starts
        from ..ops._base import BinaryOp, check_not_positional
        from ..ops.monoid import Monoid, reduce_runs

        out = cls(nrows, ncols, "bool")  # checks the dimensions
        nrows, ncols = out._nrows, out._ncols
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
                                "dup_op result")
            keys = keys[starts]
        elif count and not uniform:
            vals = vals[order]
        del starts
        # CSR: row i starts at the first key >= i * ncols (no atomics); int32 indices while they
        # fit, as Matrix.to("gpu") stores them
        nvals = keys.shape[0]
        idx = np.int32 if max(nrows, ncols, nvals) < 2**31 else np.int64
        indptr = xp.searchsorted(keys, xp.arange(nrows + 1, dtype=np.int64) * ncols).astype(idx)
        indices = (keys % ncols if ncols else keys).astype(idx)
        return cls._from_csr(nrows, ncols, vals.dtype, indptr, indices, vals)

    @classmethod
    def from_scipy(cls, S, *, dtype=None, device="cpu", dup_op=None):
        """Build from any scipy.sparse array or matrix; stored (explicit) zeros stay entries.

        Raises
        ------
        InvalidValue
            ``S`` is not a scipy.sparse object; duplicates without ``dup_op``.
        DomainMismatch
            Its dtype is not supported.
        """
        if not sp.issparse(S):
            raise InvalidValue(f"Matrix.from_scipy: expected a scipy.sparse array or matrix; given {type(S).__name__}")
        d = _dt.lookup(S.dtype if dtype is None else dtype, "Matrix.from_scipy dtype")
        if S.format == "csr" and S.has_canonical_format:
            out = cls(*S.shape, d)
            vals = _dt.cast(np.asarray(S.data), d, "Matrix.from_scipy values")
            out._set_csr(S.indptr.astype(np.int64), S.indices.astype(np.int64), vals.copy() if vals is S.data else vals)
            return out.to(device)
        C = S.tocoo()
        return cls.from_coo(C.row, C.col, np.asarray(C.data), nrows=S.shape[0], ncols=S.shape[1],
                            dtype=d, device=device, dup_op=dup_op)

    @classmethod
    def from_dense(cls, array, *, missing=None, dtype=None, device="cpu"):
        """Build from a 2-d array; every position is present except those equal to ``missing``."""
        arr = asnumpy(array)
        if arr.ndim != 2:
            raise InvalidValue(f"Matrix.from_dense: expected a 2-d array; given shape {arr.shape}")
        d = _dt.lookup(arr.dtype if dtype is None else dtype, "Matrix.from_dense dtype")
        arr = _dt.cast(arr, d, "Matrix.from_dense values")
        r, c = np.nonzero(_not_missing(arr, missing))
        out = cls(arr.shape[0], arr.shape[1], d)
        out._assign_keys(r.astype(np.int64) * arr.shape[1] + c, arr[r, c].copy())
        return out.to(device)

    @classmethod
    def _from_csr(cls, nrows, ncols, dtype, indptr, indices, values):
        out = cls.__new__(cls)
        out._nrows, out._ncols, out._dtype = nrows, ncols, np.dtype(dtype)
        out._device = "cpu" if xp_of(indptr) is np else "gpu"
        out._readonly = False
        out._set_csr(indptr, indices, values)
        return out

    # -- storage ------------------------------------------------------------------------
    def _set_csr(self, indptr, indices, values):
        """Replace the content (trusted canonical CSR of self.dtype); drops cached forms."""
        self._indptr, self._indices, self._values = indptr, indices, values
        self._rows = None
        self._T = None

    def _row_ids(self):
        """Row index of every stored entry (cached)."""
        if self._rows is None:
            xp = xp_of(self._indptr)
            self._rows = repeat(xp.arange(self._nrows, dtype=np.int64), xp.diff(self._indptr))
        return self._rows

    def _keys(self):
        """(sorted row-major keys ``row * ncols + col``, values)."""
        return self._row_ids() * self._ncols + self._indices.astype(np.int64, copy=False), self._values

    def _contains(self, keys):
        from ..backends.cpu.sparse import member

        return member(self._keys()[0], keys)

    def _values_at(self, keys):
        from ..backends.cpu.sparse import member

        ck, cv = self._keys()
        hit = member(ck, keys)
        return hit, cv[xp_of(ck).searchsorted(ck, keys[hit])]

    def _apply_delta(self, positions, zk, zv):
        """Positions ``positions`` (sorted keys) take entries (zk, zv); others are unchanged."""
        from ..backends.cpu.sparse import member, merge_disjoint

        ck, cv = self._keys()
        keep = ~member(positions, ck)
        self._assign_keys(*merge_disjoint(ck[keep], cv[keep], zk, zv))

    @staticmethod
    def _csr_parts(keys, vals, nrows, ncols):
        """(indptr, indices, values) of sorted row-major keys of an nrows x ncols matrix."""
        xp = xp_of(keys)
        rows, cols = (keys // ncols, keys % ncols) if ncols else (keys, keys)
        indptr = xp.zeros(nrows + 1, dtype=np.int64)
        indptr[1:] = xp.cumsum(xp.bincount(rows, minlength=nrows))
        return indptr, cols.astype(np.int64, copy=False), vals

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
        """Storage format: ``"csr"``."""
        return "csr"

    @property
    def device(self):
        return self._device

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
        transpose while a previously taken one keeps the old content."""
        if self._T is None:
            if self._device == "cpu":
                S = sp.csr_array((self._values, self._indices, self._indptr), shape=self.shape).tocsc()
                T = Matrix._from_csr(self._ncols, self._nrows, self._dtype, S.indptr.astype(np.int64),
                                     S.indices.astype(np.int64), np.asarray(S.data))
            else:  # sort the entries by (column, row): keys of the transpose
                from ..backends.cpu.sparse import sort_by_key

                keys, vals = sort_by_key(self._indices.astype(np.int64) * self._nrows + self._row_ids(), self._values)
                indptr, indices, vals = self._csr_parts(keys, vals, self._ncols, self._nrows)
                T = Matrix._from_csr(self._ncols, self._nrows, self._dtype, indptr.astype(self._indptr.dtype),
                                     indices.astype(self._indices.dtype), vals)
            T._readonly = True
            self._T = T
        return self._T

    # -- export -------------------------------------------------------------------------
    def to_coo(self):
        """Return ``(rows, cols, values)`` in row-major order (copies)."""
        return self._row_ids().copy(), self._indices.astype(np.int64), self._values.copy()

    def to_scipy(self):
        """A scipy.sparse.csr_array with the same entries (explicit zeros kept) and dtype."""
        idx_dtype = np.int32 if max(self.shape + (self.nvals,)) < 2**31 else np.int64
        return sp.csr_array((asnumpy(self._values).copy(), asnumpy(self._indices).astype(idx_dtype),
                             asnumpy(self._indptr).astype(idx_dtype)), shape=self.shape)

    def to_dense(self, fill_value=None):
        """Dense 2-d array; absent positions take ``fill_value`` (InvalidValue if None and any is absent)."""
        if fill_value is None:
            if self.nvals != self.size:
                raise InvalidValue(
                    f"Matrix.to_dense: {self.size - self.nvals} of {self.size} positions are absent; give fill_value"
                )
            out = xp_of(self._values).zeros(self.shape, dtype=self._dtype)
        else:
            out = xp_of(self._values).full(self.shape, fill_value, dtype=np.result_type(self._dtype, fill_value))
        out[self._row_ids(), self._indices] = self._values
        return out

    def to(self, device):
        """This matrix on ``device`` ("cpu", "gpu" or "auto"): itself if already there, else a copy.

        Raises BackendUnavailable for "gpu" without a usable GPU."""
        device = _v.device(device)
        if device == self._device:
            return self
        xp = _v.xp_for(device)
        if device == "gpu":
            # int32 indices while they fit (half the index traffic of the kernels), int64 beyond
            idx = np.int32 if max(self._nrows, self._ncols, self.nvals) < 2**31 else np.int64
            return Matrix._from_csr(self._nrows, self._ncols, self._dtype, xp.asarray(self._indptr, dtype=idx),
                                    xp.asarray(self._indices, dtype=idx), xp.asarray(self._values))
        return Matrix._from_csr(self._nrows, self._ncols, self._dtype, asnumpy(self._indptr).astype(np.int64),
                                asnumpy(self._indices).astype(np.int64), asnumpy(self._values))

    def dup(self, dtype=None):
        """A writable copy, optionally cast to ``dtype``."""
        d = self._dtype if dtype is None else _dt.lookup(dtype)
        return Matrix._from_csr(self._nrows, self._ncols, d, self._indptr.copy(), self._indices.copy(),
                                _dt.cast(self._values, d).copy())

    def get(self, row, col, default=None):
        """The value at (row, col), or ``default`` if absent."""
        (i,) = _v.index_array([row], self._nrows, "Matrix.get row")
        (j,) = _v.index_array([col], self._ncols, "Matrix.get col")
        lo, hi = int(self._indptr[i]), int(self._indptr[i + 1])
        cols = asnumpy(self._indices[lo:hi])
        pos = int(np.searchsorted(cols, j))
        return asnumpy(self._values[lo + pos:lo + pos + 1])[0] if pos < hi - lo and cols[pos] == j else default

    def isequal(self, other, *, check_dtype=False):
        """Same shape, same stored positions and equal values (NaN equals NaN)."""
        if not isinstance(other, Matrix):
            raise InvalidValue(f"isequal: expected a Matrix; given {type(other).__name__}")
        if self.shape != other.shape or (check_dtype and self._dtype != other._dtype):
            return False
        a, b = (tuple(asnumpy(t) for t in (m._indptr, m._indices, m._values)) for m in (self, other))
        return (np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
                and np.array_equal(a[2], b[2], equal_nan=a[2].dtype.kind == "f"))

    def __repr__(self):
        return f"<Matrix {self._nrows}x{self._ncols} nvals={self.nvals} dtype={self._dtype.name} {self._device}>"

