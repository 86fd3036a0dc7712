"""SuiteSparse:GraphBLAS containers: a Matrix or Vector held as a python-graphblas object, a
NumPy form, or both.

``SSMatrix`` and ``SSVector`` are the ``Matrix`` and ``Vector`` of the ``"suitesparse"`` CPU
backend (:mod:`semiring.backends._select`). They subclass the NumPy containers, so every
``isinstance`` check, argument check and message is the same (their class ``__name__`` is
``"Matrix"`` / ``"Vector"``), and they keep the content in two forms:

- ``_gbv``: ``(version, graphblas.Matrix or graphblas.Vector)``, the SuiteSparse:GraphBLAS
  object (``GrB_Matrix`` / ``GrB_Vector``, GraphBLAS C API 2.0, sections 3.3-3.4; Davis, ACM
  TOMS 45(4), 2019; Davis, "Algorithm 10xx: SuiteSparse:GraphBLAS: parallel graph algorithms
  in the language of sparse linear algebra", ACM TOMS, 2023);
- ``_npv``: ``(version, Matrix or Vector)``, a private NumPy container of the same content,
  whose CSR arrays (``_rowptr``, ``_indices``, ``_values``) or sparse/bitmap arrays every
  operation reads.

Each write gives the container a new content version (``semiring._once.new_version``) and
stores the form it computed, tagged with that version; the other form is dropped. A read of
the other form builds it (:mod:`.convert`) under the container's lock and publishes it with one
assignment, tagged with the version read before the build (``semiring._once.versioned``), so
several threads reading one container build it once, and no form of an old content is ever
served after a write (the thread-safety contract of ``semiring._once``). Both forms of one
version are read-only: a NumPy form is never shared with another container that could write
it (a vector's bitmap arrays are written in place).

Operations compute on the NumPy form, so a SuiteSparse container gives exactly the results of
a NumPy one; its result is a SuiteSparse container again (the rule is in
:func:`semiring.core._validate.gpu_memory`, the decorator of every operation: a result follows
its inputs). The SuiteSparse object is built when it is asked for (:func:`gb_object`,
``semiring.io.to_graphblas``).
"""

from __future__ import annotations

import numpy as np

from ..._once import new_version, versioned
from ...core import _validate as _v
from ...core.matrix import Matrix
from ...core.vector import Vector
from ...exceptions import InvalidValue
from .. import _select
from . import convert, load


def _target(backend, device):
    from .._select import for_new

    return for_new(backend, device, ())


def _numpy_twin(x):
    """A new NumPy container with the content of the CPU numpy container ``x``, on the same
    arrays (those never written in place: a matrix's CSR, a vector's sparse form)."""
    if isinstance(x, Matrix):
        return Matrix._from_csr(x._nrows, x._ncols, x._dtype, x._rowptr, x._indices, x._values)
    return Vector._from_parts(x._size, x._dtype, *x._keys())


def _to(self, device, *, backend=None):
    """``SSMatrix.to`` and ``SSVector.to``: itself for the SuiteSparse backend, a NumPy
    container on its NumPy form's arrays for the "numpy" one, else that form moved."""
    _v.backend_name(backend, device)
    device = _v.device(device)
    target = "suitesparse" if backend is None and device == "cpu" else _target(backend, device)
    if target == "suitesparse":
        return self
    host = self._host()
    if device == "cpu":
        return _numpy_twin(host)
    return host.to(device)


def _dup(self, dtype=None):
    """``SSMatrix.dup`` and ``SSVector.dup``: the SuiteSparse object's copy (``GrB_Matrix_dup``,
    ``GrB_Vector_dup``, C API 2.0, sections 4.2.4 and 4.2.3) when only it holds the content and
    the dtype stays; else the NumPy container's copy, adopted."""
    if self._current_host() is None and (dtype is None or np.dtype(dtype) == self._dtype):
        g = self._gb().dup()
        g.wait()
        return from_gb(g, self._dtype)
    return adopt((Matrix if isinstance(self, Matrix) else Vector).dup(self, dtype))


class SSMatrix(Matrix):
    """A ``Matrix`` of the SuiteSparse backend (see the module notes); constructed by
    ``sr.Matrix(..., backend="suitesparse")`` and the other constructors, or ``A.to("cpu",
    backend="suitesparse")``."""

    # -- the two forms ------------------------------------------------------------------
    def _publish(self, host=None, gbobj=None):
        """Make ``host`` (a NumPy Matrix) or ``gbobj`` (a graphblas.Matrix) the content."""
        v = new_version()
        self._npv = None if host is None else (v, host)
        self._gbv = None if gbobj is None else (v, gbobj)
        self._T = self._graph = None
        self._version = v

    def _host(self):
        """The NumPy form of the current content (built from the GraphBLAS object on first read)."""
        return versioned(self, "_npv", self._export)

    def _export(self):
        parts = convert.export_matrix(self._gbv[1], self._dtype)
        return Matrix._from_csr(self._nrows, self._ncols, self._dtype, *parts)

    def _gb(self):
        """The graphblas.Matrix of the current content (built from the NumPy form on first read).
        Read-only: callers that write must take ``.dup()``."""
        return versioned(self, "_gbv", lambda: convert.import_matrix(self._npv[1]))

    def _current_host(self):
        entry = self._npv
        return entry[1] if entry is not None and entry[0] == self._version else None

    # -- storage the operations read ----------------------------------------------------
    def _set_csr(self, indptr, indices, values):
        if not isinstance(indices, np.ndarray):
            raise InvalidValue("a SuiteSparse matrix stores host (NumPy) arrays; move device arrays with .to('cpu')")
        self._publish(host=Matrix._from_csr(self._nrows, self._ncols, self._dtype, indptr, indices, values))

    @property
    def _rowptr(self):
        return self._host()._rowptr

    @property
    def _indptr(self):
        return self._host()._indptr

    @property
    def _indices(self):
        return self._host()._indices

    @property
    def _values(self):
        return self._host()._values

    def _row_ids(self):
        return self._host()._row_ids()

    def _keys(self):
        if self._huge():
            return Matrix._keys(self)  # raises, naming this matrix
        return self._host()._keys()

    def _transposed(self):
        host = self._current_host()
        if host is not None:
            return adopt(host._transposed())
        gb = load()
        G = self._gb()
        T = gb.Matrix(G.dtype, G.ncols, G.nrows)
        T << G.T  # GrB_transpose (C API 2.0, section 4.3.10)
        T.wait()
        return from_gb(T, self._dtype)

    # -- properties ---------------------------------------------------------------------
    @property
    def backend(self):
        """``"suitesparse"``."""
        return "suitesparse"

    @property
    def nvals(self):
        host = self._current_host()
        return host.nvals if host is not None else int(self._gb().nvals)

    @property
    def format(self):
        host = self._current_host()
        if host is not None:
            return host.format
        return "hypersparse" if self._gb().ss.format.startswith("hyper") else "csr"

    # -- copies -------------------------------------------------------------------------
    to = _to
    dup = _dup

    def __repr__(self):
        return f"<Matrix {self._nrows}x{self._ncols} nvals={self.nvals} dtype={self._dtype.name} cpu suitesparse>"

    def __reduce__(self):
        host = self._host()
        return (_rebuild_matrix, (self._nrows, self._ncols, self._dtype, host._rowptr, host._indices, host._values,
                                  self._readonly))


class SSVector(Vector):
    """A ``Vector`` of the SuiteSparse backend (see the module notes)."""

    def _publish(self, host=None, gbobj=None):
        """Make ``host`` (a NumPy Vector) or ``gbobj`` (a graphblas.Vector) the content."""
        v = new_version()
        self._npv = None if host is None else (v, host)
        self._gbv = None if gbobj is None else (v, gbobj)
        self._version = v

    def _host(self):
        """The NumPy form of the current content (built from the GraphBLAS object on first read)."""
        return versioned(self, "_npv", self._export)

    def _export(self):
        idx, vals = convert.export_vector(self._gbv[1], self._dtype)
        return Vector._from_parts(self._size, self._dtype, idx, vals)

    def _gb(self):
        """The graphblas.Vector of the current content (built from the NumPy form on first read).
        Read-only: callers that write must take ``.dup()``."""
        return versioned(self, "_gbv", lambda: convert.import_vector(self._npv[1]))

    def _current_host(self):
        entry = self._npv
        return entry[1] if entry is not None and entry[0] == self._version else None

    # -- storage the operations read ----------------------------------------------------
    def _set(self, idx, vals):
        if not isinstance(idx, np.ndarray):
            raise InvalidValue("a SuiteSparse vector stores host (NumPy) arrays; move device arrays with .to('cpu')")
        self._publish(host=Vector._from_parts(self._size, self._dtype, idx, vals))

    def _keys(self):
        return self._host()._keys()

    def _bitmap(self):
        return self._host()._bitmap()

    def _contains(self, keys):
        return self._host()._contains(keys)

    def _values_at(self, keys):
        return self._host()._values_at(keys)

    def _apply_delta(self, positions, zk, zv):
        host = self._host()  # private to this vector: changed in place, then published anew
        host._apply_delta(positions, zk, zv)
        self._publish(host=host)

    # -- properties ---------------------------------------------------------------------
    @property
    def backend(self):
        """``"suitesparse"``."""
        return "suitesparse"

    @property
    def _nv(self):  # read by Vector.nvals
        host = self._current_host()
        return host.nvals if host is not None else int(self._gb().nvals)

    @property
    def _fmt(self):  # read by Vector.format
        host = self._current_host()
        if host is not None:
            return host.format
        return "bitmap" if self._gb().ss.format in ("bitmap", "full") else "sparse"

    # -- copies -------------------------------------------------------------------------
    to = _to
    dup = _dup

    def __repr__(self):
        return (f"<Vector size={self._size} nvals={self.nvals} dtype={self._dtype.name} {self.format} cpu "
                "suitesparse>")

    def __reduce__(self):
        return (_rebuild_vector, (self._size, self._dtype) + tuple(self._keys()))


SSMatrix.__name__ = "Matrix"
SSVector.__name__ = "Vector"
_select.SS_TYPES.update((SSMatrix, SSVector))


def adopt(x):
    """``x``, a new CPU numpy Matrix or Vector that nothing else holds, as a SuiteSparse
    container whose NumPy form is ``x`` itself (O(1)); ``x`` as it is when it is not a CPU numpy
    container or a dimension passes ``2**60``."""
    from . import fits

    if type(x) is Matrix:
        cls = SSMatrix
    elif type(x) is Vector:
        cls = SSVector
    else:
        return x
    if x.device != "cpu" or not fits(x.shape):
        return x
    out = object.__new__(cls)
    if cls is SSMatrix:
        out._nrows, out._ncols, out._readonly = x._nrows, x._ncols, x._readonly
    else:
        out._size = x._size
    out._dtype, out._device = x._dtype, "cpu"
    out._publish(host=x)
    return out


def from_numpy(x):
    """A SuiteSparse container with the content of the CPU numpy container ``x``, sharing its
    arrays that are never written in place (a matrix's CSR, a vector's sparse form); ``x``
    itself when it cannot be one (a dimension above ``2**60``)."""
    return adopt(_numpy_twin(x))


def from_gb(obj, dtype):
    """A SuiteSparse container holding the python-graphblas object ``obj`` (taken, not copied;
    its element type must be ``dtype``'s)."""
    import graphblas as gb

    out = object.__new__(SSMatrix if isinstance(obj, gb.Matrix) else SSVector)
    if isinstance(out, SSMatrix):
        out._nrows, out._ncols, out._readonly = int(obj.nrows), int(obj.ncols), False
    else:
        out._size = int(obj.size)
    out._dtype, out._device = np.dtype(dtype), "cpu"
    out._publish(gbobj=obj)
    return out


def gb_object(x):
    """The python-graphblas object of a SuiteSparse container (read-only: take ``.dup()`` to write)."""
    return x._gb()


def _rebuild_matrix(nrows, ncols, dtype, rowptr, indices, values, readonly):
    from . import available

    out = Matrix._from_csr(nrows, ncols, dtype, rowptr, indices, values)
    out._readonly = readonly
    return adopt(out) if available() else out


def _rebuild_vector(size, dtype, idx, vals):
    from . import available

    out = Vector._from_parts(size, dtype, idx, vals)
    return adopt(out) if available() else out


__all__ = ["SSMatrix", "SSVector", "adopt", "from_gb", "from_numpy", "gb_object"]
