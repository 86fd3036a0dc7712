"""Vector: a sparse vector of ``size`` positions, each absent or holding a value of ``dtype``.

Storage switches by density between a sparse form (sorted int64 indices + values) and a
bitmap form (a bool presence array + a dense value array), as SuiteSparse:GraphBLAS does
(Davis, "Algorithm 1000: SuiteSparse:GraphBLAS", ACM TOMS 2019 and its bitmap format).

Each form is one attribute holding a tuple: ``_sp = (indices, values)`` and
``_bm = (present, dense)``. The form in use (``format``) is always there; the other is built
on first use and published with one assignment, so threads reading the same vector never see
a half-built form (``semiring._once`` states the thread-safety rules).
"""

from __future__ import annotations

import numpy as np

from .. import _checks, _host
from .. import dtypes as _dt
from ..backends._xp import asnumpy, xp_of
from ..exceptions import DimensionMismatch, InvalidValue
from . import _construct
from . import _validate as _v
from .mask import Mask


class Vector:
    """A GraphBLAS vector (``GrB_Vector``).

    Parameters
    ----------
    size : int
        Number of positions (>= 0).
    dtype : dtype or str, default "float64"
        One of bool, int8-64, uint8-64, float32, float64.
    device : {"cpu", "gpu"}, default "cpu"
    backend : {"numpy", "suitesparse", "auto"}, optional
        The CPU backend that stores it (``backend`` attribute): None, the current choice
        (:func:`semiring.backends.cpu_backend`). On the GPU: None, "auto" or "cupy".

    Raises
    ------
    InvalidValue
        ``size`` is not a non-negative integer, or ``device`` or ``backend`` is unknown.
    DomainMismatch
        ``dtype`` is not supported.
    BackendUnavailable
        ``device="gpu"`` and no GPU backend can be loaded; ``backend="suitesparse"`` without
        python-graphblas (``pip install "semiring[suitesparse]"``).

    Examples
    --------
    >>> import semiring as sr
    >>> u = sr.Vector.from_coo([0, 3], [1.5, 2.0], size=5)
    >>> u.nvals, u.size, u.dtype.name
    (2, 5, 'float64')
    """

    #: Above this fraction of present entries the bitmap form is used.
    BITMAP_DENSITY = 1 / 16

    def __new__(cls, size=None, dtype=None, *, device="cpu", backend=None):
        # the backend picks the class; an argument-less call (unpickling, copy) makes a bare object
        if cls is Vector and size is not None:
            from ..backends._select import for_new

            _v.backend_name(backend, device)
            if for_new(backend, _v.device(device), (size,)) == "suitesparse":
                from ..backends.suitesparse.containers import SSVector

                return object.__new__(SSVector)
        return object.__new__(cls)

    def __init__(self, size, dtype="float64", *, device="cpu", backend=None):
        self._size = _checks.dimension(size, "Vector size")
        self._dtype = _dt.lookup(dtype, "Vector dtype")
        self._device = _v.device(device)
        xp = _v.xp_for(self._device)
        self._set(xp.zeros(0, np.int64), xp.zeros(0, self._dtype))

    # -- construction -------------------------------------------------------------------
    @classmethod
    def from_coo(cls, indices, values=None, *, size, dtype=None, device="cpu", dup_op=None, backend=None):
        """Build from indices and values (``GrB_Vector_build``).

        Parameters
        ----------
        indices : array_like of int, shape (nvals,)
            Positions, 0 <= index < size, any order.
        values : array_like or scalar, optional
            One value per index, or one scalar for all; None gives bool True.
        size : int
        dtype : dtype, optional
            Defaults to the values' dtype (bool when values is None).
        device : {"cpu", "gpu"}
        dup_op : BinaryOp or Monoid, optional
            Combines values given for the same index; None makes duplicates an error.
        backend : {"numpy", "suitesparse", "auto"}, optional
            The CPU backend (see :class:`Vector`); None, the current choice.

        Raises
        ------
        IndexOutOfBound
            An index is negative or >= size.
        InvalidValue
            Duplicate indices without ``dup_op`` (the message names the first one).
        DimensionMismatch
            ``values`` and ``indices`` differ in length.
        DomainMismatch
            Unsupported dtype.
        """
        _v.backend_name(backend, device)
        (size,), d, (idx, vals) = _construct.from_coo((indices,), values, (size,), dtype=dtype, device=device,
                                                      dup_op=dup_op, what="Vector.from_coo")
        return _v.placed(cls._from_parts(size, d, idx, vals), device, backend)

    @classmethod
    def from_dense(cls, array, *, missing=None, dtype=None, device=None, backend=None):
        """Build from a 1-d array; every position is present except those equal to ``missing``.

        Parameters
        ----------
        array : array_like, shape (size,)
            Any array :meth:`Matrix.from_dense` reads (NumPy, CuPy, DLPack, CUDA array
            interface), 1-d.
        missing, dtype, device, backend
            As for :meth:`Matrix.from_dense`.

        Returns
        -------
        Vector
            Always with its own copy of the values: the vector's dense (bitmap) storage is
            updated in place by later operations, so sharing ``array`` would let them change it.

        Raises
        ------
        InvalidValue
            ``array`` is not 1-d, or is a DLPack object on another kind of device.
        DomainMismatch
            Unsupported dtype.
        BackendUnavailable
            A GPU array, or ``device="gpu"``, where CuPy cannot be loaded.

        Examples
        --------
        >>> import numpy as np, semiring as sr
        >>> u = sr.Vector.from_dense(np.array([1.0, -1.0, 3.0]), missing=-1.0)
        >>> u.to_coo()[0].tolist(), u.device
        ([0, 2], 'cpu')
        """
        from ._interop import dense_input

        _v.backend_name(backend, device)
        src, arr, xp, device, d = dense_input(array, 1, dtype, device, "Vector.from_dense")
        if missing is None:
            idx, vals = xp.arange(arr.shape[0], dtype=np.int64), arr.copy() if arr is src else arr
        else:
            idx = xp.flatnonzero(_construct.not_missing(arr, missing))
            vals = arr[idx]
        return _v.placed(cls._from_parts(arr.shape[0], d, idx, vals), device, backend)

    @classmethod
    def _from_parts(cls, size, dtype, idx, vals):
        out = object.__new__(cls)
        out._size, out._dtype = size, np.dtype(dtype)
        out._device = "cpu" if xp_of(idx) is np else "gpu"
        out._set(idx, vals)
        return out

    @classmethod
    def _from_bitmap(cls, dtype, present, dense, nvals):
        """A vector in bitmap form (trusted: ``present`` bool, ``dense`` of dtype, same length,
        ``nvals == present.sum()``); used by kernels that produce dense results on the device."""
        out = object.__new__(cls)
        out._size, out._dtype = int(present.shape[0]), np.dtype(dtype)
        out._device = "cpu" if xp_of(present) is np else "gpu"
        out._sp = None
        out._bm, out._nv, out._fmt = (present, dense), int(nvals), "bitmap"
        out._cnt, out._version = None, 0
        return out

    @classmethod
    def _from_resident(cls, dtype, present, dense, count):
        """A GPU vector in bitmap form whose entry count is the device value ``count[0]`` (the
        count array of ``_resident``); the host learns it only when asked (``nvals``)."""
        out = object.__new__(cls)
        out._size, out._dtype, out._device = int(present.shape[0]), np.dtype(dtype), "gpu"
        out._sp, out._bm, out._nv, out._fmt = None, (present, dense), None, "bitmap"
        out._cnt, out._version = count, 0
        return out

    def _resident(self):
        """(present, dense, count) for the GPU kernels that keep vectors on the device: the
        bitmap form and the count array, four device int64 (built here once if missing): the
        entry count, then the state of the entry list the kernels may keep beside the bitmap
        (valid, current buffer; ``backends/gpu/resident``), then 0."""
        present, dense = self._bitmap()
        cnt = self._cnt
        if cnt is None:
            cnt = xp_of(present).zeros(4, dtype=np.int64)
            cnt[0] = self._nv
            self._cnt = cnt
        return present, dense, cnt

    def _resident_ptrs(self):
        """The device addresses (``launch.Ptr``) of ``_resident()``'s three arrays, remembered
        while those arrays are the vector's."""
        from ..backends.gpu.launch import hold

        present, dense, cnt = self._resident()
        bm = self._bm
        rp = getattr(self, "_rp", None)
        if rp is None or rp[0] is not bm or rp[1] is not cnt:
            from ..backends.gpu.launch import ptrs

            rp = (bm, cnt, ptrs(present, dense, cnt))
            self._rp = rp
        hold(rp)
        return rp[2]

    def _wrote_resident(self):
        """Record that a device kernel rewrote the bitmap arrays and the device count in place."""
        self._sp, self._fmt, self._nv = None, "bitmap", None
        self._version += 1

    # -- storage ------------------------------------------------------------------------
    def _set(self, idx, vals):
        """Replace the content (trusted: idx sorted, unique, in range; vals of self.dtype)."""
        self._sp = (idx, vals)
        self._bm = None
        self._cnt = None  # (the device count of the resident form, when there is one)
        self._version = getattr(self, "_version", -1) + 1
        self._nv = int(idx.shape[0])
        self._fmt = "sparse"
        if self._size and self._nv > self._size * self.BITMAP_DENSITY:
            self._fmt = "bitmap"  # the bitmap arrays are built on first use (``_bitmap``)

    def _keys(self):
        """(sorted int64 indices, values); cached in bitmap form (built, then published at once)."""
        sp = self._sp
        if sp is None:
            present, dense = self._bm
            idx = xp_of(present).flatnonzero(present)
            sp = (idx, dense[idx])
            self._sp = sp
        return sp

    def _bitmap(self):
        """(bool presence array, dense values array; 0 where absent); cached in sparse form.
        Read-only for callers: a bitmap vector updates them in place (``_apply_delta``).
        Built in locals and published with one assignment (never seen half-filled)."""
        bm = self._bm
        if bm is None:
            idx, vals = self._sp
            xp = xp_of(idx)
            present = xp.zeros(self._size, dtype=bool)
            present[idx] = True
            dense = xp.zeros(self._size, dtype=self._dtype)
            dense[idx] = vals
            bm = (present, dense)
            self._bm = bm
        return bm

    def _contains(self, keys):
        """Boolean array: ``keys[t]`` is present."""
        if self._fmt == "bitmap":
            return self._bitmap()[0][keys]
        from ..backends.array.sparse import member

        return member(self._sp[0], keys)

    def _values_at(self, keys):
        """(hit, values): which of ``keys`` are present, and their values."""
        if self._fmt == "bitmap":
            present, dense = self._bitmap()
            hit = present[keys]
            return hit, dense[keys[hit]]
        xp = xp_of(keys)
        keys = keys.astype(np.int64, copy=False)
        idx, vals = self._sp
        if idx.shape[0] == 0:
            return xp.zeros(keys.shape[0], bool), vals[:0]
        pos = xp.minimum(xp.searchsorted(idx, keys), idx.shape[0] - 1)
        hit = idx[pos] == keys
        return hit, vals[pos[hit]]

    def _apply_delta(self, positions, zk, zv):
        """Positions ``positions`` (sorted) take entries (zk, zv) (zk a sorted subset of them,
        zv of self.dtype) and lose any other entry; every other position is unchanged.
        In bitmap form this is done in place, in O(len(positions))."""
        if self._fmt == "bitmap":
            present, dense = self._bitmap()
            before = self.nvals
            was = int(present[positions].sum())
            present[positions] = False
            present[zk] = True
            dense[zk] = zv
            self._nv = before + int(zk.shape[0]) - was
            self._sp, self._cnt = None, None
            self._version += 1
            return
        from ..backends.array.sparse import member, merge_disjoint

        ck, cv = self._sp
        keep = ~member(positions, ck)
        idx, vals = merge_disjoint(ck[keep], cv[keep], zk, zv)
        self._set(idx, vals)

    # -- properties ---------------------------------------------------------------------
    @property
    def size(self):
        """Number of positions."""
        return self._size

    @property
    def shape(self):
        return (self._size,)

    @property
    def nvals(self):
        """Number of present entries (explicit zeros count).

        On the GPU the count of a vector written by a device kernel lives in device memory
        until asked for here (one device-to-host read, then remembered until the next write)."""
        nv = self._nv
        if nv is None:
            nv = _host.read_int(self._cnt)
            self._nv = nv
        return nv

    @property
    def dtype(self):
        return self._dtype

    @property
    def device(self):
        return self._device

    @property
    def backend(self):
        """What stores it: ``"numpy"`` (NumPy arrays on the CPU), ``"suitesparse"`` (a
        SuiteSparse:GraphBLAS object, :mod:`semiring.backends.suitesparse`) or ``"cupy"`` (the GPU)."""
        return "numpy" if self._device == "cpu" else "cupy"

    @property
    def format(self):
        """``"sparse"`` or ``"bitmap"``: the storage currently in use."""
        return self._fmt

    @property
    def S(self):
        """Structural mask: every present entry allows its position."""
        return Mask(self, structural=True)

    @property
    def V(self):
        """Value mask: a present entry allows its position if its value is true (nonzero)."""
        return Mask(self, structural=False)

    # -- export -------------------------------------------------------------------------
    def to_coo(self):
        """Return ``(indices, values)``: sorted int64 indices and their values (copies)."""
        idx, vals = self._keys()
        return idx.copy(), vals.copy()

    def to_dense(self, fill_value=None):
        """Dense 1-d array; absent positions take ``fill_value``.

        Parameters
        ----------
        fill_value : scalar, optional
            The value of absent positions; None requires every position to be present.

        Returns
        -------
        numpy.ndarray on the CPU, cupy.ndarray on the GPU, shape (size,)
            A new array (never the vector's own storage, which later operations update in
            place), of dtype ``numpy.result_type(dtype, fill_value)`` (``to_dense(inf)`` on an
            int64 vector gives float64). Both kinds speak DLPack (``__dlpack__``) and a CuPy
            one also ``__cuda_array_interface__``, so e.g. ``torch.from_dlpack(u.to_dense(0))``
            reads it without a copy.

        Raises
        ------
        InvalidValue
            Some position is absent and ``fill_value`` is None; an integer ``fill_value``
            outside the result type.
        DomainMismatch
            ``fill_value`` is not a bool or number.
        OutOfMemory
            The dense array, with the bitmap form it is read from, would not fit in the memory
            free now.
        """
        from .._memory import require

        d = _v.dense_dtype(self, fill_value, "Vector.to_dense")
        require(self._size * (d.itemsize + self._dtype.itemsize + 1),
                f"Vector.to_dense: a dense array of {self._size} {d.name} values", self._device)
        present, dense = self._bitmap()
        if fill_value is None:
            return dense.copy()
        out = xp_of(dense).full(self._size, fill_value, dtype=d)
        out[present] = dense[present]
        return out

    def to(self, device, *, backend=None):
        """This vector on ``device`` ("cpu", "gpu" or "auto") stored by ``backend``: itself if
        already so, else a copy. Device and backend choice, and what is raised, as for
        :meth:`Matrix.to`.

        Parameters
        ----------
        device : {"cpu", "gpu", "auto"}
        backend : {"numpy", "suitesparse", "auto", "cupy"}, optional
            None keeps this vector's backend on its own device, else the current CPU choice.

        Returns
        -------
        Vector
            Of the same size, dtype and entries.

        Raises
        ------
        InvalidValue, BackendUnavailable
            See :meth:`Matrix.to`.
        """
        def copy(dev, xp):
            idx, vals = self._keys()
            move = xp.asarray if dev == "gpu" else asnumpy
            return Vector._from_parts(self._size, self._dtype, move(idx), move(vals))

        return _v.moved(self, device, backend, copy)

    def dup(self, dtype=None):
        """A copy, optionally cast to ``dtype``.

        Raises
        ------
        DomainMismatch
            ``dtype`` is not supported.
        InvalidValue
            A value the cast cannot keep (:func:`semiring.dtypes.cast`).
        """
        idx, vals = self._keys()
        d = self._dtype if dtype is None else _dt.lookup(dtype, "Vector.dup dtype")
        cast = _dt.cast(vals, d, "Vector.dup values")
        return Vector._from_parts(self._size, d, idx.copy(), cast.copy() if cast is vals else cast)

    def get(self, index, default=None):
        """The value at ``index`` or ``default`` if absent.

        Raises
        ------
        InvalidValue
            ``index`` is not an int.
        IndexOutOfBound
            ``index`` is outside the vector.
        """
        i = _checks.index(index, self._size, "Vector.get index")
        hit, vals = self._values_at(_v.xp_for(self._device).asarray([i]))
        return _host.read(vals)[0] if bool(_host.read(hit)[0]) else default

    def isequal(self, other, *, check_dtype=False):
        """Same size, same present positions and equal values (NaN equals NaN)."""
        if not isinstance(other, Vector):
            raise InvalidValue(f"isequal: expected a Vector; given {type(other).__name__}")
        check_dtype = _checks.flag(check_dtype, "isequal check_dtype")
        if self._size != other._size or (check_dtype and self._dtype != other._dtype):
            return False
        a, av = (asnumpy(t) for t in self._keys())
        b, bv = (asnumpy(t) for t in other._keys())
        return np.array_equal(a, b) and np.array_equal(av, bv, equal_nan=av.dtype.kind == "f")

    def __len__(self):
        return self._size

    def __repr__(self):
        return f"<Vector size={self._size} nvals={self.nvals} dtype={self._dtype.name} {self.format} {self._device}>"

    def _check_size(self, size, what):
        if self._size != size:
            raise DimensionMismatch(f"{what}: expected a vector of size {size}; given size {self._size}")
